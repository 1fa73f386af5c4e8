/* Bitwise Parallel Bulk Computation (seed 000, chapters 5 and 6).
 *
 *   pairwise-sum        M pairs of numbers below 2^k, bit-sliced: bit plane j
 *                       of group g (32 numbers) at j * (M/32) + g (column-wise);
 *                       one thread per group simulates 32 ripple-carry adders
 *                       with bitwise operations over k planes (k + 1 out).
 *   pairwise-sum-naive  one thread per pair, C[i] = A[i] + B[i] (32-bit).
 *   life-word           Game of Life, one byte per cell, one thread per cell.
 *   life-single         32 cells per 32-bit word (bit b = column 32w + b, rows
 *                       of words row-major), Algorithm SINGLE-WORD per thread.
 *   life-double         64-bit words, Algorithm DOUBLE-WORD: one thread updates
 *                       two vertically adjacent words sharing the sums of D,E,I,J.
 *   life-multistep      64-bit words; a block copies a tile of 4 x 64 words plus
 *                       a halo of one word and `steps_per_launch` rows to shared
 *                       memory and runs that many steps there (section 6.4).
 *   life-multistep-shuffle  64-bit words; `steps_per_launch` steps per launch
 *                       in registers, one warp per 32 words x `strip_rows` rows,
 *                       the neighbouring words exchanged by __shfl_up_sync and
 *                       __shfl_down_sync instead of shared memory (life_shuffle.h).
 * Cells outside the universe are dead at every step (no wrap-around).
 */
#include "measure.h"
#include "life_shuffle.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace {

typedef uint32_t u32;
typedef unsigned long long u64;

/* ---- pairwise sums ------------------------------------------------------- */

__global__ void bpbc_pairwise(const u32 *__restrict__ A, const u32 *__restrict__ B,
                              u32 *__restrict__ C, int k, size_t groups) {
  size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= groups) return;
  u32 carry = 0;
  for (int j = 0; j < k; j++) {
    u32 a = A[(size_t)j * groups + g], b = B[(size_t)j * groups + g];
    C[(size_t)j * groups + g] = a ^ b ^ carry;
    carry = (a & b) | (a & carry) | (b & carry);
  }
  if (k < 32) C[(size_t)k * groups + g] = carry;
}

__global__ void bpbc_pairwise_naive(const u32 *__restrict__ A, const u32 *__restrict__ B,
                                    u32 *__restrict__ C, size_t m) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) C[i] = A[i] + B[i];
}

/* Bit-slices 32-bit numbers: plane j of group g holds bit j of numbers
 * 32g .. 32g+31 (number 32g+b in bit b). */
std::vector<u32> slice(const std::vector<u32> &v, int planes) {
  size_t groups = v.size() / 32;
  std::vector<u32> out((size_t)planes * groups, 0);
  for (size_t g = 0; g < groups; g++)
    for (int b = 0; b < 32; b++) {
      u32 x = v[g * 32 + b];
      for (int j = 0; j < planes; j++) out[(size_t)j * groups + g] |= ((x >> j) & 1u) << b;
    }
  return out;
}

void run_pairwise(const MsOptions &o, bool naive, int k, size_t m) {
  std::vector<u32> a(m), b(m), c(m);
  MsRng rng(o.seed * 131 + (uint64_t)k);
  const u32 mask = k == 32 ? 0xffffffffu : ((1u << k) - 1);
  for (size_t i = 0; i < m; i++) {
    a[i] = (rng.u32() & mask) | 1u;
    b[i] = (rng.u32() & mask) | 1u;
    c[i] = a[i] + b[i];
  }
  const size_t groups = m / 32;
  const int out_planes = k < 32 ? k + 1 : 32;
  std::vector<u32> ha, hb, want;
  if (naive) { ha = a; hb = b; want = c; }
  else { ha = slice(a, k); hb = slice(b, k); want = slice(c, out_planes); }
  std::vector<u32> got(want.size());
  u32 *dA, *dB, *dC;
  MS_CUDA(cudaMalloc(&dA, ha.size() * 4));
  MS_CUDA(cudaMalloc(&dB, hb.size() * 4));
  MS_CUDA(cudaMalloc(&dC, want.size() * 4));
  MS_CUDA(cudaMemcpy(dA, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice));
  MS_CUDA(cudaMemcpy(dB, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
  MsRecord rec;
  rec.workload = "bpbc";
  rec.algorithm = naive ? "pairwise-sum-naive" : "pairwise-sum";
  rec.p("k", (long long)k);
  rec.p("instances", (long long)m);
  auto poison = [&] { MS_CUDA(cudaMemset(dC, 0xff, want.size() * 4)); };
  auto launch = [&] {
    if (naive) bpbc_pairwise_naive<<<(unsigned)((m + 255) / 256), 256>>>(dA, dB, dC, m);
    else bpbc_pairwise<<<(unsigned)((groups + 255) / 256), 256>>>(dA, dB, dC, k, groups);
  };
  auto verify = [&]() -> std::string {
    MS_CUDA(cudaMemcpy(got.data(), dC, got.size() * 4, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < got.size(); i++)
      if (got[i] != want[i]) return ms_fmt("word %zu: got %08x want %08x", i, got[i], want[i]);
    return "";
  };
  ms_measure(rec, poison, launch, verify);
  for (u32 *p : {dA, dB, dC}) MS_CUDA(cudaFree(p));
}

/* ---- Game of Life -------------------------------------------------------- */

/* Sum of two 1-bit words. */
template <typename T> __device__ __forceinline__ void add11(T a, T b, T &s1, T &s0) {
  s1 = a & b;
  s0 = a ^ b;
}
/* Sum of two 2-bit numbers whose values are at most 2 (never (1,1)). */
template <typename T>
__device__ __forceinline__ void add22(T a1, T a0, T b1, T b0, T &s2, T &s1, T &s0) {
  s0 = a0 ^ b0;
  s1 = a1 ^ b1 ^ (a0 & b0);
  s2 = a1 & b1;
}
/* Sum of two 3-bit numbers of at most 4 each, as ([..]23, [..]1, [..]0) where
 * [..]23 is 1 when the sum is at least 4 (SINGLE-WORD steps 11-15). */
template <typename T>
__device__ __forceinline__ void add33(T a2, T a1, T a0, T b2, T b1, T b0, T &s23, T &s1, T &s0) {
  s0 = a0 ^ b0;
  T x = a0 & b0;
  T y = a1 ^ b1;
  s1 = x ^ y;
  s23 = a2 | b2 | (a1 & b1) | (x & y);
}
/* Next state from the sum bits (SINGLE-WORD steps 16-19). */
template <typename T> __device__ __forceinline__ T next_state(T I, T s23, T s1, T s0) {
  T z = ~s23 & s1;
  T i2 = ~s0 & z;
  T i3 = s0 & z;
  return (I & i2) | i3;
}
template <typename T>
__device__ __forceinline__ T single_word(T A, T B, T C, T D, T E, T F, T G, T H, T I) {
  T ab1, ab0, cd1, cd0, ef1, ef0, gh1, gh0;
  add11(A, B, ab1, ab0);
  add11(C, D, cd1, cd0);
  add11(E, F, ef1, ef0);
  add11(G, H, gh1, gh0);
  T ad2, ad1, ad0, eh2, eh1, eh0;
  add22(ab1, ab0, cd1, cd0, ad2, ad1, ad0);
  add22(ef1, ef0, gh1, gh0, eh2, eh1, eh0);
  T s23, s1, s0;
  add33(ad2, ad1, ad0, eh2, eh1, eh0, s23, s1, s0);
  return next_state(I, s23, s1, s0);
}
/* Word with each cell replaced by its left (west) / right (east) neighbour. */
template <typename T> __device__ __forceinline__ T west(T cur, T left) {
  return (cur << 1) | (left >> (8 * sizeof(T) - 1));
}
template <typename T> __device__ __forceinline__ T east(T cur, T right) {
  return (cur >> 1) | (right << (8 * sizeof(T) - 1));
}

__global__ void life_word(const uint8_t *__restrict__ u, uint8_t *__restrict__ v, int S) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= S || y >= S) return;
  int s = 0;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      if (!dx && !dy) continue;
      int yy = y + dy, xx = x + dx;
      if (yy >= 0 && yy < S && xx >= 0 && xx < S) s += u[(size_t)yy * S + xx];
    }
  uint8_t me = u[(size_t)y * S + x];
  v[(size_t)y * S + x] = (uint8_t)(s == 3 || (me && s == 2));
}

template <typename T>
__device__ __forceinline__ T ld(const T *u, int r, int w, int rows, int wpr) {
  return (r >= 0 && r < rows && w >= 0 && w < wpr) ? u[(size_t)r * wpr + w] : (T)0;
}

__global__ void life_single(const u32 *__restrict__ u, u32 *__restrict__ v, int S) {
  const int wpr = S / 32;
  int w = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y;
  if (w >= wpr) return;
  u32 up = ld(u, r - 1, w, S, wpr), upl = ld(u, r - 1, w - 1, S, wpr), upr = ld(u, r - 1, w + 1, S, wpr);
  u32 me = ld(u, r, w, S, wpr), ml = ld(u, r, w - 1, S, wpr), mr = ld(u, r, w + 1, S, wpr);
  u32 dn = ld(u, r + 1, w, S, wpr), dl = ld(u, r + 1, w - 1, S, wpr), dr = ld(u, r + 1, w + 1, S, wpr);
  v[(size_t)r * wpr + w] = single_word<u32>(west(up, upl), up, east(up, upr), west(me, ml),
                                            east(me, mr), west(dn, dl), dn, east(dn, dr), me);
}

/* DOUBLE-WORD: rows 2p (K) and 2p+1 (L) of one word column. */
__global__ void life_double(const u64 *__restrict__ u, u64 *__restrict__ v, int S) {
  const int wpr = S / 64;
  int w = blockIdx.x * blockDim.x + threadIdx.x, r = 2 * blockIdx.y;
  if (w >= wpr) return;
  u64 up = ld(u, r - 1, w, S, wpr), upl = ld(u, r - 1, w - 1, S, wpr), upr = ld(u, r - 1, w + 1, S, wpr);
  u64 K = ld(u, r, w, S, wpr), kl = ld(u, r, w - 1, S, wpr), kr = ld(u, r, w + 1, S, wpr);
  u64 L = ld(u, r + 1, w, S, wpr), ll = ld(u, r + 1, w - 1, S, wpr), lr = ld(u, r + 1, w + 1, S, wpr);
  u64 dn = ld(u, r + 2, w, S, wpr), dl = ld(u, r + 2, w - 1, S, wpr), dr = ld(u, r + 2, w + 1, S, wpr);
  u64 A = west(up, upl), B = up, C = east(up, upr);
  u64 D = west(K, kl), E = east(K, kr), I = west(L, ll), J = east(L, lr);
  u64 F = west(dn, dl), G = dn, H = east(dn, dr);
  u64 de1, de0, ij1, ij0, ab1, ab0, cl1, cl0, fg1, fg0, hk1, hk0;
  add11(D, E, de1, de0);
  add11(I, J, ij1, ij0);
  add11(A, B, ab1, ab0);
  add11(C, L, cl1, cl0);
  add11(F, G, fg1, fg0);
  add11(H, K, hk1, hk0);
  u64 m2, m1, m0, p2, p1, p0, q2, q1, q0;
  add22(de1, de0, ij1, ij0, m2, m1, m0);
  add22(ab1, ab0, cl1, cl0, p2, p1, p0);
  add22(fg1, fg0, hk1, hk0, q2, q1, q0);
  u64 k23, k1, k0, l23, l1, l0;
  add33(p2, p1, p0, m2, m1, m0, k23, k1, k0);
  add33(q2, q1, q0, m2, m1, m0, l23, l1, l0);
  v[(size_t)r * wpr + w] = next_state(K, k23, k1, k0);
  v[(size_t)(r + 1) * wpr + w] = next_state(L, l23, l1, l0);
}

/* Multi-step in shared memory: centre tile MS_TW words x MS_TH rows, halo one
 * word left and right and MS_T rows above and below; MS_T steps per launch. */
constexpr int MS_TW = 4, MS_TH = 64, MS_T = 8;
constexpr int MS_EW = MS_TW + 2, MS_EH = MS_TH + 2 * MS_T;
__global__ void __launch_bounds__(MS_EW * MS_EH)
life_multistep(const u64 *__restrict__ u, u64 *__restrict__ v, int S) {
  __shared__ u64 buf[2][MS_EH + 2][MS_EW + 2]; /* one dummy zero ring */
  const int wpr = S / 64;
  const int tid = threadIdx.x;
  const int ex = tid % MS_EW, ey = tid / MS_EW;
  const int gw = blockIdx.x * MS_TW + ex - 1, gr = blockIdx.y * MS_TH + ey - MS_T;
  const bool inside = gw >= 0 && gw < wpr && gr >= 0 && gr < S;
  for (int k = tid; k < 2 * (MS_EH + 2) * (MS_EW + 2); k += blockDim.x) (&buf[0][0][0])[k] = 0;
  __syncthreads();
  buf[0][ey + 1][ex + 1] = inside ? u[(size_t)gr * wpr + gw] : 0ull;
  __syncthreads();
  int c = 0;
  for (int t = 0; t < MS_T; t++) {
    u64(*b)[MS_EW + 2] = buf[c];
    const int y = ey + 1, x = ex + 1;
    u64 up = b[y - 1][x], me = b[y][x], dn = b[y + 1][x];
    u64 nv = single_word<u64>(west(up, b[y - 1][x - 1]), up, east(up, b[y - 1][x + 1]),
                              west(me, b[y][x - 1]), east(me, b[y][x + 1]),
                              west(dn, b[y + 1][x - 1]), dn, east(dn, b[y + 1][x + 1]), me);
    buf[c ^ 1][y][x] = inside ? nv : 0ull;
    c ^= 1;
    __syncthreads();
  }
  if (ex >= 1 && ex <= MS_TW && ey >= MS_T && ey < MS_T + MS_TH && inside)
    v[(size_t)gr * wpr + gw] = buf[c][ey + 1][ex + 1];
}

/* Multi-step with warp shuffles (life_shuffle.h); SH_WARPS warps per block,
 * each on its own strip. */
constexpr int SH_WARPS = 2;
struct WarpShfl {
  __device__ __forceinline__ u64 up(u64 x) const { return __shfl_up_sync(0xffffffffu, x, 1); }
  __device__ __forceinline__ u64 down(u64 x) const { return __shfl_down_sync(0xffffffffu, x, 1); }
};
__global__ void __launch_bounds__(32 * SH_WARPS)
life_multistep_shuffle(const u64 *__restrict__ u, u64 *__restrict__ v, int S, int H) {
  const int lane = threadIdx.x & 31;
  const int strip = blockIdx.y * SH_WARPS + (threadIdx.x >> 5);
  if (strip * H >= S) return; /* the whole warp */
  WarpShfl sh;
  life_shuffle::warp_steps(u, v, S, H, lane, blockIdx.x, strip, sh);
}
/* Rows per strip: MEMSIM_LIFE_SHUFFLE_ROWS (tuning), default 128: at 189
 * registers an SM holds 10 of these warps, and 16384 / 128 strips x 9 warp
 * columns fill 132 SMs in one wave. */
int shuffle_strip_rows() {
  const char *e = std::getenv("MEMSIM_LIFE_SHUFFLE_ROWS");
  int h = e ? std::atoi(e) : 128;
  return h >= 1 ? h : 128;
}

/* CPU reference: byte per cell, rows split over threads. */
void life_reference(std::vector<uint8_t> &g, int S, int steps) {
  std::vector<uint8_t> h(g.size());
  unsigned nt = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  for (int t = 0; t < steps; t++) {
    std::vector<std::thread> th;
    for (unsigned p = 0; p < nt; p++)
      th.emplace_back([&, p] {
        for (int y = (int)(S * (size_t)p / nt); y < (int)(S * (size_t)(p + 1) / nt); y++)
          for (int x = 0; x < S; x++) {
            int s = 0;
            for (int dy = -1; dy <= 1; dy++) {
              int yy = y + dy;
              if (yy < 0 || yy >= S) continue;
              const uint8_t *row = &g[(size_t)yy * S];
              if (x > 0) s += row[x - 1];
              if (dy) s += row[x];
              if (x + 1 < S) s += row[x + 1];
            }
            uint8_t me = g[(size_t)y * S + x];
            h[(size_t)y * S + x] = (uint8_t)(s == 3 || (me && s == 2));
          }
      });
    for (auto &x : th) x.join();
    g.swap(h);
  }
}

template <typename T> std::vector<T> pack(const std::vector<uint8_t> &g, int S) {
  const int bits = 8 * sizeof(T), wpr = S / bits;
  std::vector<T> out((size_t)S * wpr, 0);
  for (int y = 0; y < S; y++)
    for (int x = 0; x < S; x++)
      if (g[(size_t)y * S + x]) out[(size_t)y * wpr + x / bits] |= (T)1 << (x % bits);
  return out;
}

void run_life(const MsOptions &, const std::string &alg, int S, int steps,
              const std::vector<uint8_t> &init, const std::vector<uint8_t> &ref) {
  const size_t cells = (size_t)S * S;
  size_t bytes;
  std::vector<uint8_t> h_init;
  if (alg == "life-word") { h_init = init; bytes = cells; }
  else if (alg == "life-single") {
    auto p = pack<u32>(init, S);
    bytes = p.size() * 4;
    h_init.assign((uint8_t *)p.data(), (uint8_t *)p.data() + bytes);
  } else {
    auto p = pack<u64>(init, S);
    bytes = p.size() * 8;
    h_init.assign((uint8_t *)p.data(), (uint8_t *)p.data() + bytes);
  }
  std::vector<uint8_t> want;
  if (alg == "life-word") want = ref;
  else if (alg == "life-single") {
    auto p = pack<u32>(ref, S);
    want.assign((uint8_t *)p.data(), (uint8_t *)p.data() + bytes);
  } else {
    auto p = pack<u64>(ref, S);
    want.assign((uint8_t *)p.data(), (uint8_t *)p.data() + bytes);
  }
  uint8_t *d0, *d1, *dinit;
  MS_CUDA(cudaMalloc(&d0, bytes));
  MS_CUDA(cudaMalloc(&d1, bytes));
  MS_CUDA(cudaMalloc(&dinit, bytes));
  MS_CUDA(cudaMemcpy(dinit, h_init.data(), bytes, cudaMemcpyHostToDevice));
  MsRecord rec;
  rec.workload = "bpbc";
  rec.algorithm = alg;
  rec.p("size", (long long)S);
  rec.p("steps", (long long)steps);
  rec.x("cells", (long long)cells);
  if (alg == "life-multistep") rec.x("steps_per_launch", (long long)MS_T);
  const int sh_rows = shuffle_strip_rows();
  if (alg == "life-multistep-shuffle") {
    rec.x("steps_per_launch", (long long)life_shuffle::T);
    rec.x("strip_rows", (long long)sh_rows);
    rec.x("words_per_warp", (long long)life_shuffle::OUT_WORDS);
    rec.x("threads_per_block", (long long)(32 * SH_WARPS));
  }
  uint8_t *result = nullptr;
  /* Each call copies the initial universe (a memcpy, not a kernel: CUPTI
   * kernel time excludes it) and runs `steps` steps. */
  auto poison = [&] { MS_CUDA(cudaMemset(d1, 0xff, bytes)); MS_CUDA(cudaMemset(d0, 0xff, bytes)); };
  auto launch = [&] {
    MS_CUDA(cudaMemcpyAsync(d0, dinit, bytes, cudaMemcpyDeviceToDevice));
    uint8_t *cur = d0, *nxt = d1;
    if (alg == "life-multistep") {
      dim3 grid(S / 64 / MS_TW, S / MS_TH);
      for (int t = 0; t < steps; t += MS_T) {
        life_multistep<<<grid, MS_EW * MS_EH>>>((const u64 *)cur, (u64 *)nxt, S);
        std::swap(cur, nxt);
      }
    } else if (alg == "life-multistep-shuffle") {
      const int strips = (S + sh_rows - 1) / sh_rows;
      dim3 grid((S / 64 + life_shuffle::OUT_WORDS - 1) / life_shuffle::OUT_WORDS,
                (strips + SH_WARPS - 1) / SH_WARPS);
      for (int t = 0; t < steps; t += life_shuffle::T) {
        life_multistep_shuffle<<<grid, 32 * SH_WARPS>>>((const u64 *)cur, (u64 *)nxt, S, sh_rows);
        std::swap(cur, nxt);
      }
    } else {
      for (int t = 0; t < steps; t++) {
        if (alg == "life-word")
          life_word<<<dim3(S / 32, S / 8), dim3(32, 8)>>>(cur, nxt, S);
        else if (alg == "life-single")
          life_single<<<dim3((S / 32 + 127) / 128, S), 128>>>((const u32 *)cur, (u32 *)nxt, S);
        else
          life_double<<<dim3((S / 64 + 127) / 128, S / 2), 128>>>((const u64 *)cur, (u64 *)nxt, S);
        std::swap(cur, nxt);
      }
    }
    result = cur;
  };
  auto verify = [&]() -> std::string {
    std::vector<uint8_t> got(bytes);
    MS_CUDA(cudaMemcpy(got.data(), result, bytes, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < bytes; i++)
      if (got[i] != want[i]) return ms_fmt("byte %zu: got %02x want %02x", i, got[i], want[i]);
    return "";
  };
  ms_measure(rec, poison, launch, verify);
  for (uint8_t *p : {d0, d1, dinit}) MS_CUDA(cudaFree(p));
}

} // namespace

void ms_run_bpbc(const MsOptions &o) {
  std::printf("bpbc\n");
  const size_t m = o.counters ? 4096 : (o.quick ? (1u << 20) : (1u << 22));
  for (int k = 1; k <= 32; k++) {
    if (o.quick && k % 8 != 0 && k != 1) continue;
    if (ms_selected("pairwise-sum")) run_pairwise(o, false, k, m);
  }
  if (ms_selected("pairwise-sum-naive")) run_pairwise(o, true, 32, m);
  static const char *const life_algs[] = {"life-word", "life-single", "life-double",
                                          "life-multistep", "life-multistep-shuffle"};
  bool any_life = false;
  for (const char *alg : life_algs) any_life = any_life || ms_selected(alg);
  if (!any_life) return;
  const int S = o.counters ? 256 : (o.quick ? 2048 : 16384);
  const int steps = o.counters ? 8 : (o.quick ? 16 : 32);
  std::vector<uint8_t> init((size_t)S * S);
  MsRng rng(o.seed * 977 + (uint64_t)S);
  for (auto &c : init) c = (uint8_t)((rng.next() >> 40) % 3 == 0); /* density 1/3 */
  std::vector<uint8_t> ref = init;
  life_reference(ref, S, steps);
  for (const char *alg : life_algs)
    if (ms_selected(alg)) run_life(o, alg, S, steps, init, ref);
}
