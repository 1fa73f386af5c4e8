/* The mul family (`--workload mul`, not part of "all"): seed 002's (Honda, chapter 3)
 * sum-rotate multiplication, Algorithm 3, and the parallel column-based method of Figure
 * 3.3 (below), C = A * B for P products of n = bits / 32 words (bits 64 .. 1024, n = 2 ..
 * 32), least significant word first.  The traces of the same accesses are `memsim gen mul
 * -a sum-rotate|sum-rotate-shared|column-based` (docs/workloads/mul.md).
 *
 * A product takes n consecutive lanes of a warp (32 / n products a warp): global thread t
 * works on product q = t / n as lane i = t % n.  threads = P n, blocks of threads_per_block
 * (default 32, the seed's one warp a block; MEMSIM_MUL_TPB = a multiple of 32 up to 1024
 * changes it), the grid padded to whole blocks.  A warp wholly past the last product returns
 * at once; a lane of a partly used warp with q >= P (only when P n is not a multiple of 32;
 * never in the sweeps) keeps a = b = 0 and joins the exchanges and votes, but makes no
 * global access.
 *
 * Global memory, one allocation of 4 P n 32-bit words:
 *   A  word i of product q at mem[q n + i]
 *   B  at mem[P n + q n + i]
 *   C  word k (0 .. 2n-1) of product q at mem[2 P n + 2 q n + k]
 * Per thread, exactly (the trace's accesses: two reads, two writes, nothing else global;
 * each one `ld.global.u32` / `st.global.u32` in inline PTX, asm volatile with a "memory"
 * clobber as in kernels/bulk.cu, so none is merged, widened, dropped or moved):
 *   u = v = c' = 0
 *   a = A[q][i]; b = B[q][i]                           read, read
 *   for j = 0 .. n-1:
 *     b' = X(b, j)                                     broadcast from lane j
 *     {t, u, v} = a b' + {u, v}                        96 bits; t = carry out (0 or 1)
 *     v = X(v, (i+1) % n); c' = X(c', (i+1) % n)       rotate right
 *     if i == n-1: c' = v; v = 0
 *     {u, v} = {t, u} + v
 *   while __any_sync(all 32 lanes, u != 0):            warp vote, whole warp
 *     u = X(u, (i+n-1) % n); {u, v} = u + v            rotate left, add the carry
 *   C[q][i] = c'; C[q][n+i] = v                        write, write
 * X(x, src) is the exchange inside the product's n lanes (src relative to its first lane):
 *   sum-rotate         __shfl_sync(all, x, src, n)
 *   sum-rotate-shared  (Table 3.3's "one warp with shared memory") s[warp_slot + lane] = x;
 *                      __syncwarp(); x = s[warp_slot + product_base_lane + src]; __syncwarp();
 *                      s: blockDim.x words of (dynamic) shared memory, warp_slot =
 *                      32 (threadIdx.x / 32), lane = threadIdx.x % 32, product_base_lane =
 *                      (lane / n) n: one shared store and one shared load an exchange.
 * The carry loop's iteration count depends on the data: the record's extra
 * "carry_iterations_max" is the largest of any warp, from the host emulation.
 *
 * column-based (Table 3.3's "parallel column-based, one warp with shared memory"; the
 * project's reading of Figure 3.3, whose picture the text lacks; mul_column): lane i owns
 * columns i and n+i of the schoolbook product (column c = sum of a_j b_{c-j}; i+1 and n-1-i
 * products; column 2n-1 is empty).  Shared memory: 128 words a warp (blockDim.x * 4 words
 * of dynamic shared memory), S = the warp's slot, four rows of 32; column c of the product
 * whose first lane in the warp is base has the place pos(c) = (c / n) 32 + base + c % n.
 * Per thread, exactly (every shared access one 32-bit ld/st.volatile.shared):
 *   a = A[q][i]; b = B[q][i]                           global read, read (as above)
 *   S[lane] = a; S[32 + lane] = b; __syncwarp()        shared write, write
 *   for s = 0 .. n-1:                                  shared read, read (2n)
 *     {t,u,v} += S[base + s] * S[32 + base + (i - s) mod n]
 *     if s == i: (t1,u1,v1) = {t,u,v}; {t,u,v} = 0     (column i done: the lanes switch
 *   (t2,u2,v2) = {t,u,v}                                column at different steps)
 *   __syncwarp(); S[lane] = u1; S[32 + lane] = u2;     shared write x 4
 *   S[64 + lane] = t1; S[96 + lane] = t2; __syncwarp()
 *   x1 = S[pos((i-1) mod 2n)]; x2 = S[pos(n+i-1)]                   shared read x 4
 *   y1 = S[64 + pos((i-2) mod 2n)]; y2 = S[64 + pos((n+i-2) mod 2n)]
 *   w1 = v1 + x1 + y1; w2 = v2 + x2 + y2               (64 bits: the carry above)
 *   while __any_sync(all 32 lanes, carry of w1 or w2 != 0):         2 writes, 2 reads a round
 *     __syncwarp(); S[lane] = w1 >> 32; S[32 + lane] = w2 >> 32; __syncwarp()
 *     w1 = (u32)w1 + S[pos((i-1) mod 2n)]; w2 = (u32)w2 + S[pos(n+i-1)]
 *   C[q][i] = w1; C[q][n+i] = w2                       global write, write
 * (the columns mod 2n: words 0 and 1 read the empty column 2n-1 and column 2n-2, a single
 * product whose t is 0, so every lane reads the same way).  No bank conflict: a broadcast or
 * a rotation of the product's lanes in every shared step.
 *
 * Inputs: MsRng rng(seed) (splitmix64, --seed, default 1); mem[k] = rng.u32() for
 * k = 0 .. 2 P n - 1 in order (all of A, then all of B), the same for both algorithms.
 * A call is the kernel alone (A and B are never written; C is overwritten every call).
 * Check: every product's C against a plain schoolbook product on the host; the host also
 * runs an emulation of exactly the lane operations above (emulate(), emulate_column()) on
 * every product and the record fails if it disagrees with the schoolbook product.
 */
#include "measure.h"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace {

typedef uint32_t u32;
typedef unsigned long long u64;

constexpr u32 FULL = 0xffffffffu;
constexpr unsigned DEFAULT_TPB = 32;

/* ---- device ----------------------------------------------------------------------------- */

__device__ __forceinline__ u32 ld(const u32 *a) {
  u32 v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(a) : "memory");
  return v;
}

__device__ __forceinline__ void st(u32 *a, u32 v) {
  asm volatile("st.global.u32 [%0], %1;" : : "l"(a), "r"(v) : "memory");
}

/* X(x, src): x of lane src of this product's N lanes. */
template <unsigned N, bool SH> struct Exchange {
  u32 *s;             /* SH: this warp's 32 words of shared memory */
  unsigned lane, base; /* lane in the warp, the product's first lane in the warp */
  __device__ __forceinline__ u32 operator()(u32 x, unsigned src) const {
    if (SH) {
      s[lane] = x;
      __syncwarp();
      x = s[base + src];
      __syncwarp();
      return x;
    }
    return __shfl_sync(FULL, x, (int)src, (int)N);
  }
};

template <unsigned N, bool SH> __global__ void mul_sum_rotate(u32 *mem, unsigned P) {
  extern __shared__ u32 sh[];
  const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % 32, i = lane % N; /* = t % N: blockDim.x is a multiple of 32 */
  const size_t pn = (size_t)P * N, q = t / N;
  if (t - lane >= pn) return; /* the whole warp is past the last product */
  const bool active = q < P;
  const Exchange<N, SH> X{sh + (threadIdx.x - lane), lane, lane - i};
  u32 a = 0, b = 0;
  if (active) {
    a = ld(mem + q * N + i);
    b = ld(mem + pn + q * N + i);
  }
  u32 u = 0, v = 0, c = 0;
#pragma unroll
  for (unsigned j = 0; j < N; j++) {
    const u32 bj = X(b, j);
    const u64 m = (u64)a * bj, s1 = m + ((u64)u << 32 | v);
    const u32 tc = s1 < m; /* t: carry out of the 96-bit sum */
    u = (u32)(s1 >> 32);
    v = (u32)s1;
    v = X(v, (i + 1) % N);
    c = X(c, (i + 1) % N);
    if (i == N - 1) {
      c = v;
      v = 0;
    }
    const u64 s2 = ((u64)tc << 32 | u) + v;
    u = (u32)(s2 >> 32);
    v = (u32)s2;
  }
  while (__any_sync(FULL, u != 0)) {
    u = X(u, (i + N - 1) % N);
    const u64 s3 = (u64)u + v;
    u = (u32)(s3 >> 32);
    v = (u32)s3;
  }
  if (active) {
    u32 *C = mem + 2 * pn + q * 2 * N;
    st(C + i, c);
    st(C + N + i, v);
  }
}

/* pos(c) of the column-based method: column c's place in rows 0 and 1 of the warp's slot. */
template <unsigned N> __device__ __forceinline__ unsigned col_pos(unsigned base, unsigned c) {
  return c / N * 32 + base + c % N;
}

template <unsigned N> __global__ void mul_column(u32 *mem, unsigned P) {
  extern __shared__ u32 sh[];
  const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % 32, i = lane % N, base = lane - i, M = 2 * N;
  const size_t pn = (size_t)P * N, q = t / N;
  if (t - lane >= pn) return; /* the whole warp is past the last product */
  const bool active = q < P;
  /* volatile: every access one 32-bit shared load or store, none merged or dropped */
  volatile u32 *S = sh + (threadIdx.x - lane) * 4;
  u32 a = 0, b = 0;
  if (active) {
    a = ld(mem + q * N + i);
    b = ld(mem + pn + q * N + i);
  }
  S[lane] = a;
  S[32 + lane] = b;
  __syncwarp();
  u64 uv = 0, uv1 = 0;
  u32 tc = 0, tc1 = 0;
#pragma unroll
  for (unsigned s = 0; s < N; s++) {
    const u32 as = S[base + s]; /* the trace's order: a_s, then b_{(i-s) mod n} */
    const u32 bs = S[32 + base + (i + N - s) % N];
    const u64 m = (u64)as * bs;
    uv += m;
    tc += uv < m;
    if (s == i) { /* column i is complete: column n+i starts */
      uv1 = uv;
      tc1 = tc;
      uv = 0;
      tc = 0;
    }
  }
  __syncwarp();
  S[lane] = (u32)(uv1 >> 32);
  S[32 + lane] = (u32)(uv >> 32);
  S[64 + lane] = tc1;
  S[96 + lane] = tc;
  __syncwarp();
  const unsigned p1 = col_pos<N>(base, (i + M - 1) % M), p2 = col_pos<N>(base, N + i - 1);
  const u32 x1 = S[p1], x2 = S[p2]; /* u of columns k-1, then t of columns k-2 */
  const u32 y1 = S[64 + col_pos<N>(base, (i + M - 2) % M)], y2 = S[64 + col_pos<N>(base, (N + i + M - 2) % M)];
  u64 w1 = (u64)(u32)uv1 + x1 + y1, w2 = (u64)(u32)uv + x2 + y2;
  while (__any_sync(FULL, (w1 >> 32 | w2 >> 32) != 0)) {
    __syncwarp();
    S[lane] = (u32)(w1 >> 32);
    S[32 + lane] = (u32)(w2 >> 32);
    __syncwarp();
    const u32 c1 = S[p1], c2 = S[p2];
    w1 = (u64)(u32)w1 + c1;
    w2 = (u64)(u32)w2 + c2;
  }
  if (active) {
    u32 *C = mem + 2 * pn + q * 2 * N;
    st(C + i, (u32)w1);
    st(C + N + i, (u32)w2);
  }
}

void launch_column(unsigned n, unsigned grid, unsigned tpb, u32 *mem, unsigned P) {
  const size_t shm = (size_t)tpb * 4 * sizeof(u32); /* 128 words a warp */
  switch (n) {
  case 2: mul_column<2><<<grid, tpb, shm>>>(mem, P); break;
  case 4: mul_column<4><<<grid, tpb, shm>>>(mem, P); break;
  case 8: mul_column<8><<<grid, tpb, shm>>>(mem, P); break;
  case 16: mul_column<16><<<grid, tpb, shm>>>(mem, P); break;
  default: mul_column<32><<<grid, tpb, shm>>>(mem, P); break;
  }
}

template <bool SH> void launch_n(unsigned n, unsigned grid, unsigned tpb, u32 *mem, unsigned P) {
  const size_t shm = SH ? tpb * sizeof(u32) : 0;
  switch (n) {
  case 2: mul_sum_rotate<2, SH><<<grid, tpb, shm>>>(mem, P); break;
  case 4: mul_sum_rotate<4, SH><<<grid, tpb, shm>>>(mem, P); break;
  case 8: mul_sum_rotate<8, SH><<<grid, tpb, shm>>>(mem, P); break;
  case 16: mul_sum_rotate<16, SH><<<grid, tpb, shm>>>(mem, P); break;
  default: mul_sum_rotate<32, SH><<<grid, tpb, shm>>>(mem, P); break;
  }
}

/* ---- host ------------------------------------------------------------------------------- */

const char *const alg_names[] = {"sum-rotate", "sum-rotate-shared", "column-based"};

/* The kernel's lane operations on one product's n lanes, in the same order (an exchange
 * reads every lane's value from before it).  Returns the carry loop's iteration count (a
 * warp loops as long as its slowest product: once a product's u are all 0 they stay 0). */
unsigned emulate(const u32 *A, const u32 *B, unsigned n, u32 *C) {
  u32 a[32], b[32], u[32] = {0}, v[32] = {0}, c[32] = {0}, tc[32], x[32];
  for (unsigned i = 0; i < n; i++) a[i] = A[i], b[i] = B[i];
  for (unsigned j = 0; j < n; j++) {
    for (unsigned i = 0; i < n; i++) {
      const u64 m = (u64)a[i] * b[j], s1 = m + ((u64)u[i] << 32 | v[i]);
      tc[i] = s1 < m;
      u[i] = (u32)(s1 >> 32);
      v[i] = (u32)s1;
    }
    for (unsigned i = 0; i < n; i++) x[i] = v[(i + 1) % n];
    for (unsigned i = 0; i < n; i++) v[i] = x[i];
    for (unsigned i = 0; i < n; i++) x[i] = c[(i + 1) % n];
    for (unsigned i = 0; i < n; i++) c[i] = x[i];
    c[n - 1] = v[n - 1];
    v[n - 1] = 0;
    for (unsigned i = 0; i < n; i++) {
      const u64 s2 = ((u64)tc[i] << 32 | u[i]) + v[i];
      u[i] = (u32)(s2 >> 32);
      v[i] = (u32)s2;
    }
  }
  unsigned iters = 0;
  for (;;) {
    bool any = false;
    for (unsigned i = 0; i < n; i++) any |= u[i] != 0;
    if (!any) break;
    iters++;
    for (unsigned i = 0; i < n; i++) x[i] = u[(i + n - 1) % n];
    for (unsigned i = 0; i < n; i++) {
      const u64 s3 = (u64)x[i] + v[i];
      u[i] = (u32)(s3 >> 32);
      v[i] = (u32)s3;
    }
  }
  for (unsigned i = 0; i < n; i++) C[i] = c[i], C[n + i] = v[i];
  return iters;
}

/* mul_column's lane operations on one product's n lanes, phase by phase (a phase reads the
 * shared words every lane wrote before it).  Returns the carry loop's iteration count. */
unsigned emulate_column(const u32 *A, const u32 *B, unsigned n, u32 *C) {
  const unsigned m = 2 * n;
  u32 S[128];
  u64 c1[32], c2[32], w1[32], w2[32]; /* the columns' low 64 bits; their t apart */
  u32 t1[32], t2[32];
  auto pos = [n](unsigned c) { return c / n * 32 + c % n; };
  for (unsigned i = 0; i < n; i++) S[i] = A[i], S[32 + i] = B[i];
  for (unsigned i = 0; i < n; i++) {
    u64 uv = 0;
    u32 tc = 0;
    for (unsigned s = 0; s < n; s++) {
      const u64 p = (u64)S[s] * S[32 + (i + n - s) % n];
      uv += p;
      tc += uv < p;
      if (s == i) c1[i] = uv, t1[i] = tc, uv = 0, tc = 0;
    }
    c2[i] = uv, t2[i] = tc;
  }
  for (unsigned i = 0; i < n; i++)
    S[i] = (u32)(c1[i] >> 32), S[32 + i] = (u32)(c2[i] >> 32), S[64 + i] = t1[i], S[96 + i] = t2[i];
  for (unsigned i = 0; i < n; i++) {
    w1[i] = (u64)(u32)c1[i] + S[pos((i + m - 1) % m)] + S[64 + pos((i + m - 2) % m)];
    w2[i] = (u64)(u32)c2[i] + S[pos(n + i - 1)] + S[64 + pos((n + i + m - 2) % m)];
  }
  unsigned iters = 0;
  for (;;) {
    bool any = false;
    for (unsigned i = 0; i < n; i++) any |= (w1[i] >> 32 | w2[i] >> 32) != 0;
    if (!any) break;
    iters++;
    for (unsigned i = 0; i < n; i++) S[i] = (u32)(w1[i] >> 32), S[32 + i] = (u32)(w2[i] >> 32);
    for (unsigned i = 0; i < n; i++) {
      w1[i] = (u64)(u32)w1[i] + S[pos((i + m - 1) % m)];
      w2[i] = (u64)(u32)w2[i] + S[pos(n + i - 1)];
    }
  }
  for (unsigned i = 0; i < n; i++) C[i] = (u32)w1[i], C[n + i] = (u32)w2[i];
  return iters;
}

/* Plain schoolbook C = A * B (2n words). */
void schoolbook(const u32 *A, const u32 *B, unsigned n, u32 *C) {
  u64 c[64] = {0};
  for (unsigned i = 0; i < n; i++) {
    u64 carry = 0;
    for (unsigned k = 0; k < n; k++) {
      const u64 z = (u64)A[i] * B[k] + c[i + k] + carry;
      c[i + k] = z & 0xffffffffu;
      carry = z >> 32;
    }
    c[i + n] = carry;
  }
  for (unsigned k = 0; k < 2 * n; k++) C[k] = (u32)c[k];
}

/* The three algorithms at one size. */
void run_size(const MsOptions &o, unsigned bits, unsigned P, unsigned tpb) {
  if (!ms_selected(alg_names[0]) && !ms_selected(alg_names[1]) && !ms_selected(alg_names[2])) return;
  const unsigned n = bits / 32;
  const size_t pn = (size_t)P * n, words = 4 * pn;
  std::vector<u32> host(words, 0), want(2 * pn), got(2 * pn);
  MsRng rng(o.seed);
  for (size_t k = 0; k < 2 * pn; k++) host[k] = rng.u32();
  /* the reference, and the emulations of the lane operations against it (sum-rotate's
   * for both of its variants, [0]; the column-based method's, [1]) */
  unsigned iters_max[2] = {0, 0};
  std::string emu_note[2];
  u32 emu[64];
  for (size_t q = 0; q < P; q++) {
    const u32 *A = host.data() + q * n, *B = host.data() + pn + q * n;
    schoolbook(A, B, n, want.data() + q * 2 * n);
    for (int e = 0; e < 2; e++) {
      iters_max[e] = std::max(iters_max[e], e ? emulate_column(A, B, n, emu) : emulate(A, B, n, emu));
      if (emu_note[e].empty())
        for (unsigned k = 0; k < 2 * n; k++)
          if (emu[k] != want[q * 2 * n + k]) {
            emu_note[e] = ms_fmt("host emulation of the %s lane operations: product %zu word %u: got %u, the "
                                 "schoolbook product has %u", e ? "column-based" : "sum-rotate", q, k, emu[k],
                                 want[q * 2 * n + k]);
            break;
          }
    }
  }
  u32 *d_mem;
  MS_CUDA(cudaMalloc(&d_mem, words * sizeof(u32)));
  MS_CUDA(cudaMemcpy(d_mem, host.data(), 2 * pn * sizeof(u32), cudaMemcpyHostToDevice));
  u32 *d_c = d_mem + 2 * pn;
  const unsigned grid = (unsigned)((pn + tpb - 1) / tpb);
  for (int alg = 0; alg < 3; alg++) {
    const int e = alg == 2; /* the emulation of this algorithm's lane operations */
    MsRecord r;
    r.workload = "mul";
    r.algorithm = alg_names[alg];
    r.p("bits", (long long)bits);
    r.p("products", (long long)P);
    r.p("threads_per_block", (long long)tpb);
    r.x("carry_iterations_max", (long long)iters_max[e]);
    auto launch = [&] {
      if (alg == 2) launch_column(n, grid, tpb, d_mem, P);
      else if (alg == 1) launch_n<true>(n, grid, tpb, d_mem, P);
      else launch_n<false>(n, grid, tpb, d_mem, P);
    };
    auto verify = [&]() -> std::string {
      MS_CUDA(cudaMemcpy(got.data(), d_c, 2 * pn * sizeof(u32), cudaMemcpyDeviceToHost));
      for (size_t q = 0; q < P; q++)
        for (unsigned k = 0; k < 2 * n; k++)
          if (got[q * 2 * n + k] != want[q * 2 * n + k])
            return ms_fmt("%s: product %zu word %u of C: got %u, the schoolbook product has %u", alg_names[alg], q,
                          k, got[q * 2 * n + k], want[q * 2 * n + k]);
      return emu_note[e];
    };
    ms_measure(r, [&] { MS_CUDA(cudaMemset(d_c, 0xff, 2 * pn * sizeof(u32))); }, launch, verify);
  }
  MS_CUDA(cudaFree(d_mem));
}

} // namespace

void ms_run_mul(const MsOptions &o) {
  const bool small = o.quick || o.counters;
  unsigned tpb = DEFAULT_TPB;
  if (const char *e = std::getenv("MEMSIM_MUL_TPB")) {
    const long v = std::strtol(e, nullptr, 10);
    if (v < 32 || v > 1024 || v % 32) {
      std::fprintf(stderr, "memsim-measure: MEMSIM_MUL_TPB: '%s' is not a multiple of 32 from 32 to 1024\n", e);
      return;
    }
    tpb = (unsigned)v;
  }
  std::printf("mul: sum-rotate, sum-rotate-shared (seed 002, Algorithm 3), column-based (Figure 3.3); n = bits/32 "
              "lanes a product, %u threads a block%s\n", tpb, small ? " (quick sizes)" : "");
  if (small) {
    for (unsigned bits : {64u, 128u, 256u, 512u, 1024u}) run_size(o, bits, 1024, tpb);
    return;
  }
  for (unsigned bits : {256u, 512u, 1024u})
    for (unsigned P : {10240u, 100000u}) run_size(o, bits, P, tpb);
}
