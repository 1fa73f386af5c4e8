/* Bulk GCD of multi-word numbers (seed 000, chapter 4): one thread per pair,
 * numbers held in global memory in the column-wise arrangement (word k of
 * instance t at k * instances + t), so that threads executing the same step
 * touch consecutive words. The threads' code is kernels/gcd_passes.h: binary,
 * fast-binary, approximate and approximate-ptx64 (the approximate algorithm
 * with its multiply-accumulate in PTX), each iteration one pass over X that
 * makes exactly the accesses of `memsim gen gcd`'s trace (checked on the CPU
 * by tests/gcd-passes.sh).
 * Inputs: odd random numbers of `bits` bits sharing a planted random 32-bit
 * odd factor (so the GCD is non-trivial); `oblivious` gives every thread the
 * same pair, otherwise each has its own (semi-oblivious access).
 */
#include "measure.h"

#include <algorithm>

/* Every access is one of the trace's, in its order: volatile PTX keeps the compiler from
 * merging a load with an earlier one (X[0] tested, then read again by the pass) or moving it
 * across a store. */
__device__ __forceinline__ uint32_t gcd_ld(const uint32_t *a) {
  uint32_t v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(a) : "memory");
  return v;
}
__device__ __forceinline__ void gcd_st(uint32_t *a, uint32_t v) {
  asm volatile("st.global.u32 [%0], %1;" ::"l"(a), "r"(v) : "memory");
}
#define GCD_LD(p) gcd_ld(p)
#define GCD_ST(p, v) gcd_st((p), (v))
#include "gcd_passes.h"

namespace {

using namespace gcd_passes;

template <int ALG>
__global__ void gcd_kernel(u32 *xy, u32 *info, int words, size_t inst) {
  size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t < inst) info[t] = gcd_thread<ALG>(xy, t, words, inst);
}

/* ---- host reference ----------------------------------------------------- */
typedef std::vector<u32> Big;

void big_trim(Big &x) { while (!x.empty() && x.back() == 0) x.pop_back(); }
int big_cmp(const Big &x, const Big &y) {
  if (x.size() != y.size()) return x.size() < y.size() ? -1 : 1;
  for (size_t k = x.size(); k-- > 0;)
    if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
  return 0;
}
Big host_gcd(Big x, Big y) { /* fast binary, x and y odd */
  big_trim(x);
  big_trim(y);
  if (big_cmp(x, y) < 0) std::swap(x, y);
  while (!y.empty()) {
    u64 borrow = 0;
    for (size_t k = 0; k < x.size(); k++) {
      u64 d = (u64)x[k] - (k < y.size() ? y[k] : 0u) - borrow;
      x[k] = (u32)d;
      borrow = (d >> 32) & 1;
    }
    big_trim(x);
    if (!x.empty()) {
      size_t z = 0;
      while (x[z] == 0) z++;
      int b = __builtin_ctz(x[z]);
      Big s(x.size() - z);
      for (size_t k = 0; k < s.size(); k++) {
        u32 lo = x[k + z], hi = k + z + 1 < x.size() ? x[k + z + 1] : 0u;
        s[k] = b ? (lo >> b) | (hi << (32 - b)) : lo;
      }
      x = s;
      big_trim(x);
    }
    if (big_cmp(x, y) < 0) std::swap(x, y);
  }
  return x;
}

void run_gcd(const MsOptions &o, const char *name, int alg, int bits, size_t inst, bool oblivious) {
  const int words = bits / 32;
  std::vector<u32> hx((size_t)words * inst), hy((size_t)words * inst);
  MsRng rng(o.seed * 1000003 + (uint64_t)bits);
  std::vector<Big> X(oblivious ? 1 : inst), Y(oblivious ? 1 : inst);
  for (size_t t = 0; t < X.size(); t++) {
    u32 g = rng.u32() | 1u;
    while (g < 3) g = rng.u32() | 1u; /* then both numbers have all `words` words */
    for (Big *b : {&X[t], &Y[t]}) {
      Big c(words - 1);
      for (u32 &w : c) w = rng.u32();
      c[0] |= 1u;
      c[words - 2] |= 0x80000000u;
      Big p(words, 0);
      u64 carry = 0;
      for (int k = 0; k < words - 1; k++) {
        u64 v = (u64)c[k] * g + carry;
        p[k] = (u32)v;
        carry = v >> 32;
      }
      p[words - 1] = (u32)carry;
      *b = p;
    }
  }
  for (size_t t = 0; t < inst; t++)
    for (int k = 0; k < words; k++) {
      hx[(size_t)k * inst + t] = X[oblivious ? 0 : t][k];
      hy[(size_t)k * inst + t] = Y[oblivious ? 0 : t][k];
    }
  /* the inputs (plane 0: X, plane 1: Y) stay in xy0; each call copies them to xy (a copy,
   * not a kernel: CUPTI's kernel time leaves it out) and the kernel works in place */
  u32 *dxy0, *dxy, *dinfo;
  const size_t bytes = (size_t)words * inst * 4;
  MS_CUDA(cudaMalloc(&dxy0, 2 * bytes));
  MS_CUDA(cudaMalloc(&dxy, 2 * bytes));
  MS_CUDA(cudaMalloc(&dinfo, inst * 4));
  MS_CUDA(cudaMemcpy(dxy0, hx.data(), bytes, cudaMemcpyHostToDevice));
  MS_CUDA(cudaMemcpy(dxy0 + (size_t)words * inst, hy.data(), bytes, cudaMemcpyHostToDevice));
  MsRecord rec;
  rec.workload = "gcd";
  rec.algorithm = name;
  rec.p("bits", (long long)bits);
  rec.p("instances", (long long)inst);
  rec.p("seed", (long long)o.seed);
  rec.pb("oblivious", oblivious);
  rec.p("arrangement", "column");
  rec.x("inputs", oblivious ? "oblivious (one pair for every thread)"
                            : "semi-oblivious (a random pair per thread)");
  rec.x("threads_per_block", 128LL);
  rec.x("passes", "one per step, the trace's accesses (kernels/gcd.cu, 2026-11-24)");
  auto poison = [&] {
    MS_CUDA(cudaMemset(dxy, 0xff, 2 * bytes));
    MS_CUDA(cudaMemset(dinfo, 0xff, inst * 4));
  };
  const unsigned grid = (unsigned)((inst + 127) / 128);
  auto launch = [&] {
    MS_CUDA(cudaMemcpyAsync(dxy, dxy0, 2 * bytes, cudaMemcpyDeviceToDevice));
    if (alg == GCD_BINARY) gcd_kernel<GCD_BINARY><<<grid, 128>>>(dxy, dinfo, words, inst);
    else if (alg == GCD_FAST_BINARY) gcd_kernel<GCD_FAST_BINARY><<<grid, 128>>>(dxy, dinfo, words, inst);
    else if (alg == GCD_APPROX) gcd_kernel<GCD_APPROX><<<grid, 128>>>(dxy, dinfo, words, inst);
    else gcd_kernel<GCD_APPROX_PTX><<<grid, 128>>>(dxy, dinfo, words, inst);
  };
  std::vector<Big> ref(X.size());
  size_t step = X.size() <= 2048 ? 1 : X.size() / 2048; /* sampled reference */
  for (size_t t = 0; t < X.size(); t += step) ref[t] = host_gcd(X[t], Y[t]);
  std::vector<u32> hxy(2 * (size_t)words * inst), hinfo(inst);
  auto verify = [&]() -> std::string {
    MS_CUDA(cudaMemcpy(hxy.data(), dxy, 2 * bytes, cudaMemcpyDeviceToHost));
    MS_CUDA(cudaMemcpy(hinfo.data(), dinfo, inst * 4, cudaMemcpyDeviceToHost));
    for (size_t t = 0; t < inst; t++) {
      size_t rt = oblivious ? 0 : t;
      if (rt % step) continue;
      const Big &r = ref[rt];
      const u32 len = hinfo[t] >> 1, plane = hinfo[t] & 1u;
      if (hinfo[t] == 0xffffffffu || len != r.size())
        return ms_fmt("instance %zu: length %u, want %zu", t, hinfo[t] == 0xffffffffu ? 0u : len,
                      r.size());
      for (u32 k = 0; k < len; k++) {
        u32 got = hxy[(size_t)plane * words * inst + (size_t)k * inst + t];
        if (got != r[k])
          return ms_fmt("instance %zu word %u: got %08x want %08x", t, k, got, r[k]);
      }
    }
    return "";
  };
  rec.x("reference_checked_instances",
        (long long)(oblivious ? inst : (inst + step - 1) / step));
  ms_measure(rec, poison, launch, verify);
  for (u32 *p : {dxy0, dxy, dinfo}) MS_CUDA(cudaFree(p));
}

} // namespace

void ms_run_gcd(const MsOptions &o) {
  std::printf("gcd\n");
  const size_t inst = o.counters ? 128 : (o.quick ? 4096 : 65536);
  std::vector<int> bitss = o.quick || o.counters ? std::vector<int>{1024}
                                                 : std::vector<int>{512, 1024, 2048};
  static const struct { const char *name; int alg; } algs[] = {
      {"binary", GCD_BINARY}, {"fast-binary", GCD_FAST_BINARY}, {"approximate", GCD_APPROX},
      {"approximate-ptx64", GCD_APPROX_PTX}};
  for (int bits : bitss)
    for (bool obl : {true, false})
      for (const auto &a : algs)
        if (ms_selected(a.name)) run_gcd(o, a.name, a.alg, bits, inst, obl);
}
