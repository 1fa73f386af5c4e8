/* The gf2 family (`--workload gf2`, not part of "all"): Gaussian elimination over GF(2),
 * seed 004's GEonGPU (section 4.1.2), the decoder of a random fountain code.
 *
 * Instance (bit-identical to the simulator's generator, sim/workloads/gf2): n = symbols,
 * L = length (bits per symbol), R = n + 10 received rows.  Rows are bit-packed in 32-bit
 * words: Wg = ceil(n/32) words of G, Wx = ceil(L/32) of X, W = Wg + Wx per row; bit c of
 * a part in word c/32 at bit c%32.  MsRng g(seed): G[r][k] = g.u32() for r < R, k < Wg
 * (the last word masked to its n%32 low bits when n%32 != 0), then Msg[j][k] = g.u32() for
 * j < n, k < Wx (last word masked to L%32 bits), X[r] = XOR of Msg[j] over the bits j set
 * in G[r].  Row r = [G[r] | X[r]].  A singular G (rank < n; about 1 in 1000 instances) is
 * reported and its records skipped.
 *
 * Device layout, word k of row r: arrangement "row" (the seed's) A[r * W + k], "column"
 * A[k * R + r]; plus pivrow[W].  Three launches per pivot i = 0 .. n-1, in this order:
 *   gf2_pivot<<<1, T>>>      chunks of T rows from row i: read word i/32 of row i + c T + t
 *                            (r < R) until a row with bit i is in the chunk
 *                            (__syncthreads_or); p = the smallest such row (shared atomicMin);
 *                            then per word k (k = t, t + T, ...): read A(p, k), write
 *                            pivrow[k], and when p != i read A(i, k), write A(p, k)
 *   gf2_eliminate<<<ceil(R/T), T>>>   a thread per row r != i: read A(r, i/32); if bit i is
 *                            set, per word k = 0 .. W-1 read A(r, k), read pivrow[k], write
 *                            A(r, k) ^ pivrow[k]
 *   gf2_replace<<<1, T>>>    per word k (k = t, t + T, ...): read pivrow[k], write A(i, k)
 * Each memory step is one `ld.global.u32` / `st.global.u32` in inline PTX (asm volatile,
 * "memory" clobber, as kernels/bulk.cu): the compiler neither drops, merges, widens nor
 * reorders them; caching is the default (L1 and L2), as a plain C load's.
 *
 * A call is a device-to-device copy of the input into the working matrix (not a kernel, not
 * timed under CUPTI; as bulk) and the 3n kernels.  Check: rows 0 .. n-1 of G are the
 * identity and X's row j is Msg[j].  Each record also carries a single-core host baseline
 * (Table 4.5 of the seed): the same Gauss-Jordan on 64-bit words in the row layout, median
 * of 3 runs ("cpu_ns"), checked the same way ("cpu_verified").
 *
 * Calls: a record is held to about 3 s of GPU time: one untimed probe call (CUDA events)
 * before the record, then reps = min(--reps, what fits in 3 s besides the checked call, the
 * warm-ups and the final check), at least 1.
 * MEMSIM_GF2_SIZES=NxL[,NxL...] (e.g. 256x1024,4096x4096) replaces the sizes of any mode.
 */
#include "measure.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

namespace {

typedef uint32_t u32;
typedef uint64_t u64;

constexpr unsigned TPB = 256;        /* threads_per_block, the seed's 256 */
constexpr double BUDGET_NS = 3e9;    /* GPU time of one record */

/* ---- device: one memory step ---------------------------------------------------------- */

__device__ __forceinline__ u32 ld(const u32 *a) {
  u32 v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(a) : "memory");
  return v;
}

__device__ __forceinline__ void st(u32 *a, u32 v) {
  asm volatile("st.global.u32 [%0], %1;" : : "l"(a), "r"(v) : "memory");
}

/* Word k of row r. */
template <bool COL> __host__ __device__ __forceinline__ size_t at(unsigned r, unsigned k, unsigned R, unsigned W) {
  return COL ? (size_t)k * R + r : (size_t)r * W + k;
}

template <bool COL> __global__ void gf2_pivot(u32 *A, u32 *pivrow, unsigned R, unsigned W, unsigned i) {
  __shared__ unsigned s_p;
  const unsigned t = threadIdx.x, T = blockDim.x, kw = i / 32, sh = i % 32;
  if (t == 0) s_p = 0xffffffffu; /* no pivot; the first __syncthreads_or publishes it */
  unsigned r = 0;
  int bit = 0;
  for (unsigned c = 0;; c++) {
    r = i + c * T + t;
    bit = r < R && ((ld(A + at<COL>(r, kw, R, W)) >> sh) & 1u);
    if (__syncthreads_or(bit)) break;
    if (i + (c + 1) * T >= R) break; /* no row with bit i: singular */
  }
  if (bit) atomicMin(&s_p, r);
  __syncthreads();
  const unsigned p = s_p;
  if (p >= R) return; /* singular (the host skips such instances) */
  for (unsigned k = t; k < W; k += T) {
    const u32 v = ld(A + at<COL>(p, k, R, W));
    st(pivrow + k, v);
    if (p != i) {
      const u32 w = ld(A + at<COL>(i, k, R, W));
      st(A + at<COL>(p, k, R, W), w);
    }
  }
}

template <bool COL> __global__ void gf2_eliminate(u32 *A, const u32 *pivrow, unsigned R, unsigned W, unsigned i) {
  const unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= R || r == i) return;
  const u32 x = ld(A + at<COL>(r, i / 32, R, W));
  if (((x >> (i % 32)) & 1u) == 0) return;
  for (unsigned k = 0; k < W; k++) {
    const u32 a = ld(A + at<COL>(r, k, R, W));
    const u32 b = ld(pivrow + k);
    st(A + at<COL>(r, k, R, W), a ^ b);
  }
}

template <bool COL> __global__ void gf2_replace(u32 *A, const u32 *pivrow, unsigned R, unsigned W, unsigned i) {
  const unsigned T = blockDim.x;
  for (unsigned k = threadIdx.x; k < W; k += T) {
    const u32 v = ld(pivrow + k);
    st(A + at<COL>(i, k, R, W), v);
  }
}

/* ---- host: the instance ----------------------------------------------------------------- */

struct Gf2Instance {
  unsigned n = 0, L = 0, R = 0, Wg = 0, Wx = 0, W = 0;
  std::vector<u32> rows; /* R x W, row-major: [G[r] | X[r]] */
  std::vector<u32> msg;  /* n x Wx */
};

Gf2Instance gf2_generate(unsigned n, unsigned L, uint64_t seed) {
  Gf2Instance g;
  g.n = n;
  g.L = L;
  g.R = n + 10;
  g.Wg = (n + 31) / 32;
  g.Wx = (L + 31) / 32;
  g.W = g.Wg + g.Wx;
  const u32 gmask = n % 32 ? (1u << (n % 32)) - 1 : 0xffffffffu;
  const u32 xmask = L % 32 ? (1u << (L % 32)) - 1 : 0xffffffffu;
  MsRng rng(seed);
  g.rows.assign((size_t)g.R * g.W, 0);
  for (unsigned r = 0; r < g.R; r++)
    for (unsigned k = 0; k < g.Wg; k++) {
      u32 v = rng.u32();
      if (k == g.Wg - 1) v &= gmask;
      g.rows[(size_t)r * g.W + k] = v;
    }
  g.msg.assign((size_t)n * g.Wx, 0);
  for (unsigned j = 0; j < n; j++)
    for (unsigned k = 0; k < g.Wx; k++) {
      u32 v = rng.u32();
      if (k == g.Wx - 1) v &= xmask;
      g.msg[(size_t)j * g.Wx + k] = v;
    }
  for (unsigned r = 0; r < g.R; r++) {
    u32 *row = g.rows.data() + (size_t)r * g.W;
    for (unsigned j = 0; j < n; j++)
      if ((row[j / 32] >> (j % 32)) & 1u)
        for (unsigned k = 0; k < g.Wx; k++) row[g.Wg + k] ^= g.msg[(size_t)j * g.Wx + k];
  }
  return g;
}

/* ---- host: the single-core baseline (64-bit words, row layout) ------------------------- */

struct Cpu64 {
  unsigned R = 0, Wg = 0, Wx = 0, W = 0;
  std::vector<u64> m; /* R x W */
};

/* Words 2q, 2q + 1 of a 32-bit part as word q of the 64-bit part (bit c in word c/64). */
u64 pack2(const u32 *part, unsigned words32, unsigned q) {
  const u64 lo = 2 * q < words32 ? part[2 * q] : 0;
  const u64 hi = 2 * q + 1 < words32 ? part[2 * q + 1] : 0;
  return lo | hi << 32;
}

Cpu64 cpu_pack(const Gf2Instance &g) {
  Cpu64 c;
  c.R = g.R;
  c.Wg = (g.n + 63) / 64;
  c.Wx = (g.L + 63) / 64;
  c.W = c.Wg + c.Wx;
  c.m.assign((size_t)c.R * c.W, 0);
  for (unsigned r = 0; r < g.R; r++) {
    const u32 *row = g.rows.data() + (size_t)r * g.W;
    u64 *o = c.m.data() + (size_t)r * c.W;
    for (unsigned q = 0; q < c.Wg; q++) o[q] = pack2(row, g.Wg, q);
    for (unsigned q = 0; q < c.Wx; q++) o[c.Wg + q] = pack2(row + g.Wg, g.Wx, q);
  }
  return c;
}

/* Gauss-Jordan over the n columns of G: pivot = the first row >= i with bit i, swap it
 * with row i, XOR row i into every other row with bit i.  Returns n, or the first column
 * without a pivot (singular). */
unsigned cpu_eliminate(Cpu64 &c, unsigned n) {
  const unsigned R = c.R, W = c.W;
  u64 *m = c.m.data();
  for (unsigned i = 0; i < n; i++) {
    const unsigned q = i / 64;
    const u64 b = 1ull << (i % 64);
    unsigned p = i;
    while (p < R && !(m[(size_t)p * W + q] & b)) p++;
    if (p == R) return i;
    if (p != i) std::swap_ranges(m + (size_t)p * W, m + (size_t)(p + 1) * W, m + (size_t)i * W);
    const u64 *piv = m + (size_t)i * W;
    for (unsigned r = 0; r < R; r++) {
      if (r == i) continue;
      u64 *row = m + (size_t)r * W;
      if (row[q] & b)
        for (unsigned k = 0; k < W; k++) row[k] ^= piv[k];
    }
  }
  return n;
}

std::string cpu_check(const Cpu64 &c, const Gf2Instance &g) {
  for (unsigned j = 0; j < g.n; j++) {
    const u64 *row = c.m.data() + (size_t)j * c.W;
    for (unsigned q = 0; q < c.Wg; q++) {
      const u64 want = q == j / 64 ? 1ull << (j % 64) : 0;
      if (row[q] != want)
        return ms_fmt("host elimination: row %u, G word64 %u: got %016llx want %016llx", j, q,
                      (unsigned long long)row[q], (unsigned long long)want);
    }
    for (unsigned q = 0; q < c.Wx; q++) {
      const u64 want = pack2(g.msg.data() + (size_t)j * g.Wx, g.Wx, q);
      if (row[c.Wg + q] != want)
        return ms_fmt("host elimination: row %u, X word64 %u: got %016llx want %016llx", j, q,
                      (unsigned long long)row[c.Wg + q], (unsigned long long)want);
    }
  }
  return "";
}

struct CpuResult {
  unsigned rank_col = 0; /* n, or the first column without a pivot */
  double ns = 0;         /* median of 3 runs */
  std::string err;       /* "" when the result checked */
};

CpuResult cpu_baseline(const Gf2Instance &g) {
  CpuResult res;
  const Cpu64 orig = cpu_pack(g);
  std::vector<double> t;
  Cpu64 c;
  for (int run = 0; run < 3; run++) {
    c = orig;
    const auto t0 = std::chrono::steady_clock::now();
    res.rank_col = cpu_eliminate(c, g.n);
    const auto t1 = std::chrono::steady_clock::now();
    if (res.rank_col < g.n) return res; /* singular */
    t.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count());
  }
  std::sort(t.begin(), t.end());
  res.ns = t[1];
  res.err = cpu_check(c, g);
  return res;
}

/* ---- host: one instance, both arrangements ---------------------------------------------- */

/* The instance arranged for the device. */
template <bool COL> std::vector<u32> arrange(const Gf2Instance &g) {
  std::vector<u32> a((size_t)g.R * g.W);
  for (unsigned r = 0; r < g.R; r++)
    for (unsigned k = 0; k < g.W; k++) a[at<COL>(r, k, g.R, g.W)] = g.rows[(size_t)r * g.W + k];
  return a;
}

/* "" when rows 0 .. n-1 of `got` (arranged) are the identity beside the message. */
std::string gpu_check(const Gf2Instance &g, const std::vector<u32> &got, bool col) {
  for (unsigned j = 0; j < g.n; j++) {
    for (unsigned k = 0; k < g.W; k++) {
      const u32 v = col ? got[at<true>(j, k, g.R, g.W)] : got[at<false>(j, k, g.R, g.W)];
      const u32 want = k < g.Wg ? (k == j / 32 ? 1u << (j % 32) : 0u) : g.msg[(size_t)j * g.Wx + (k - g.Wg)];
      if (v != want)
        return ms_fmt("row %u word %u (%s part): got %08x want %08x", j, k, k < g.Wg ? "G" : "X", v, want);
    }
  }
  return "";
}

void run_instance(const MsOptions &o, unsigned n, unsigned L) {
  const Gf2Instance g = gf2_generate(n, L, o.seed);
  const CpuResult cpu = cpu_baseline(g);
  const bool singular = cpu.rank_col < n;
  const size_t words = (size_t)g.R * g.W, bytes = words * sizeof(u32);
  const unsigned grid = (g.R + TPB - 1) / TPB;
  u32 *d_in = nullptr, *d_A = nullptr, *d_piv = nullptr;
  if (!singular) {
    MS_CUDA(cudaMalloc(&d_in, bytes));
    MS_CUDA(cudaMalloc(&d_A, bytes));
    MS_CUDA(cudaMalloc(&d_piv, g.W * sizeof(u32)));
  }
  std::vector<u32> out(words);
  for (int col = 0; col <= 1; col++) {
    const char *arr = col ? "column" : "row";
    if (singular) {
      std::fprintf(stderr, "memsim-measure: gf2 eliminate symbols=%u length=%u arrangement=%s seed=%llu: "
                   "G has rank < %u (no pivot in column %u): singular instance, record skipped\n",
                   n, L, arr, (unsigned long long)o.seed, n, cpu.rank_col);
      std::printf("  %-12s %-22s symbols=%u length=%u arrangement=%s seed=%llu: SKIPPED (singular G)\n", "gf2",
                  "eliminate", n, L, arr, (unsigned long long)o.seed);
      std::fflush(stdout);
      continue;
    }
    const std::vector<u32> arranged = col ? arrange<true>(g) : arrange<false>(g);
    MS_CUDA(cudaMemcpy(d_in, arranged.data(), bytes, cudaMemcpyHostToDevice));
    MsRecord r;
    r.workload = "gf2";
    r.algorithm = "eliminate";
    r.p("symbols", (long long)n);
    r.p("length", (long long)L);
    r.p("arrangement", arr);
    r.p("seed", (long long)o.seed);
    r.p("threads_per_block", (long long)TPB);
    r.x("rows", (long long)g.R);
    r.x("words", (long long)g.W);
    r.x("cpu_ns", cpu.ns);
    r.extra.push_back({"cpu_verified", cpu.err.empty() ? "true" : "false"});
    if (!cpu.err.empty()) r.x("cpu_failure", cpu.err.c_str());
    r.kernels_per_call = 3 * (int)n; /* CUPTI counts them itself; the events path keeps this */
    auto launch = [&] {
      MS_CUDA(cudaMemcpyAsync(d_A, d_in, bytes, cudaMemcpyDeviceToDevice));
      for (unsigned i = 0; i < n; i++) {
        if (col) {
          gf2_pivot<true><<<1, TPB>>>(d_A, d_piv, g.R, g.W, i);
          gf2_eliminate<true><<<grid, TPB>>>(d_A, d_piv, g.R, g.W, i);
          gf2_replace<true><<<1, TPB>>>(d_A, d_piv, g.R, g.W, i);
        } else {
          gf2_pivot<false><<<1, TPB>>>(d_A, d_piv, g.R, g.W, i);
          gf2_eliminate<false><<<grid, TPB>>>(d_A, d_piv, g.R, g.W, i);
          gf2_replace<false><<<1, TPB>>>(d_A, d_piv, g.R, g.W, i);
        }
      }
    };
    auto verify = [&]() -> std::string {
      MS_CUDA(cudaMemcpy(out.data(), d_A, bytes, cudaMemcpyDeviceToHost));
      return gpu_check(g, out, col != 0);
    };
    /* The call restores the input itself (the elimination works in place, and ms_measure
     * poisons only before the checked calls): the poison fills the working matrix. */
    auto poison = [&] {
      MS_CUDA(cudaMemset(d_A, 0xff, bytes));
      MS_CUDA(cudaMemset(d_piv, 0xff, g.W * sizeof(u32)));
    };
    int reps = -1;
    if (!o.counters) { /* one untimed probe call: hold the record to BUDGET_NS */
      cudaEvent_t e0, e1;
      MS_CUDA(cudaEventCreate(&e0));
      MS_CUDA(cudaEventCreate(&e1));
      MS_CUDA(cudaEventRecord(e0));
      launch();
      MS_CHECK_LAUNCH();
      MS_CUDA(cudaEventRecord(e1));
      MS_CUDA(cudaEventSynchronize(e1));
      float ms = 0;
      MS_CUDA(cudaEventElapsedTime(&ms, e0, e1));
      MS_CUDA(cudaEventDestroy(e0));
      MS_CUDA(cudaEventDestroy(e1));
      const double call_ns = std::max(1.0, (double)ms * 1e6);
      /* calls: the probe, the checked one, the warm-ups, the timed ones, the final check */
      const double fit = BUDGET_NS / call_ns - 3 - o.warmups;
      reps = std::max(1, std::min(o.reps, fit < 1 ? 1 : (int)std::min(fit, 1e6)));
    }
    ms_measure(r, poison, launch, verify, reps);
  }
  if (!singular) {
    MS_CUDA(cudaFree(d_in));
    MS_CUDA(cudaFree(d_A));
    MS_CUDA(cudaFree(d_piv));
  }
}

/* MEMSIM_GF2_SIZES=NxL[,NxL...]: the (symbols, length) pairs; empty when unset. */
std::vector<std::pair<unsigned, unsigned>> env_sizes() {
  std::vector<std::pair<unsigned, unsigned>> v;
  const char *s = std::getenv("MEMSIM_GF2_SIZES");
  if (!s || !*s) return v;
  std::string str = s;
  size_t pos = 0;
  while (pos <= str.size()) {
    size_t end = str.find(',', pos);
    if (end == std::string::npos) end = str.size();
    const std::string item = str.substr(pos, end - pos);
    char *e1 = nullptr, *e2 = nullptr;
    const unsigned long n = std::strtoul(item.c_str(), &e1, 10);
    const unsigned long L = (*e1 == 'x' || *e1 == 'X') ? std::strtoul(e1 + 1, &e2, 10) : 0;
    if (item.empty() || e1 == item.c_str() || !e2 || e2 == e1 + 1 || *e2 || n < 1 || L < 1 || n > (1ul << 20) ||
        L > (1ul << 24)) {
      std::fprintf(stderr, "memsim-measure: MEMSIM_GF2_SIZES: '%s' is not SYMBOLSxLENGTH (e.g. 256x1024)\n",
                   item.c_str());
      std::exit(2);
    }
    v.push_back({(unsigned)n, (unsigned)L});
    pos = end + 1;
  }
  return v;
}

} // namespace

void ms_run_gf2(const MsOptions &o) {
  if (!ms_selected("eliminate")) return;
  const bool small = o.quick || o.counters;
  std::vector<std::pair<unsigned, unsigned>> sizes = env_sizes();
  const bool from_env = !sizes.empty();
  if (!from_env) {
    if (o.counters) sizes = {{64, 1024}};
    else if (o.quick) sizes = {{256, 1024}, {512, 4096}};
    else
      for (unsigned n : {256u, 512u, 1024u, 2048u, 4096u})
        for (unsigned L : {1024u, 4096u}) sizes.push_back({n, L});
  }
  std::printf("gf2: GF(2) Gaussian elimination (GEonGPU), row- and column-wise%s\n",
              from_env ? " (MEMSIM_GF2_SIZES)" : small ? " (quick sizes)" : "");
  for (const auto &s : sizes) run_instance(o, s.first, s.second);
}
