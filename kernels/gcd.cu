/* Bulk GCD of multi-word numbers (seed 000, chapter 4): one thread per pair,
 * numbers held in global memory in the column-wise arrangement (word k of
 * instance t at k * instances + t), so that threads executing the same step
 * touch consecutive words.
 *   binary        seed 000 "Binary Euclidean algorithm"
 *   fast-binary   X <- rshift(X - Y); if X < Y swap
 *   approximate   X <- rshift(X - Y * (alpha D^beta [-1 when beta > 0])),
 *                 (alpha, beta) from the two leading 32-bit words (approx(),
 *                 section 4.2); pairs of at most 2 words finish in 64-bit
 *                 registers by the fast binary algorithm.
 *   approximate-ptx64  the same steps, but X <- X - (alpha D^beta - 1) Y is one
 *                 pass over X (the mulsub and add passes fused), its multi-word
 *                 multiply-accumulate alpha * Y written as inline PTX
 *                 mad.lo.cc.u32 / madc.hi.u32 pairs (the 64-bit product
 *                 y * alpha + carry, low word and high word with carry-in).
 * Inputs: odd random numbers of `bits` bits sharing a planted random 32-bit
 * odd factor (so the GCD is non-trivial); `oblivious` gives every thread the
 * same pair, otherwise each has its own (semi-oblivious access).
 */
#include "measure.h"

#include <algorithm>

namespace {

typedef uint32_t u32;
typedef unsigned long long u64;

enum GcdAlg { GCD_BINARY, GCD_FAST_BINARY, GCD_APPROX, GCD_APPROX_PTX };

/* A number in the column-wise arrangement. */
struct Col {
  u32 *p;
  size_t stride;
  __device__ u32 &operator[](int k) const { return p[(size_t)k * stride]; }
};

__device__ int top_len(const Col &x, int len) {
  while (len > 0 && x[len - 1] == 0) len--;
  return len;
}

/* -1, 0, 1 as X <, =, > Y. */
__device__ int cmp(const Col &x, int lx, const Col &y, int ly) {
  if (lx != ly) return lx < ly ? -1 : 1;
  for (int k = lx - 1; k >= 0; k--) {
    u32 a = x[k], b = y[k];
    if (a != b) return a < b ? -1 : 1;
  }
  return 0;
}

/* X >>= s bits (0 <= s), words 0..len-1; returns the new length. */
__device__ int shr(const Col &x, int len, int s) {
  int ws = s >> 5, bs = s & 31;
  if (ws >= len) return 0;
  for (int k = 0; k + ws < len; k++) {
    u32 lo = x[k + ws];
    u32 hi = k + ws + 1 < len ? x[k + ws + 1] : 0u;
    x[k] = bs ? (lo >> bs) | (hi << (32 - bs)) : lo;
  }
  for (int k = len - ws; k < len; k++) x[k] = 0;
  return top_len(x, len - ws);
}

/* Removes all trailing zero bits of X; returns the new length. */
__device__ int rshift(const Col &x, int len) {
  int z = 0;
  while (z < len && x[z] == 0) z++;
  if (z == len) return 0;
  return shr(x, len, z * 32 + __ffs(x[z]) - 1);
}

/* X -= Y (X >= Y); returns the new length. */
__device__ int sub(const Col &x, int lx, const Col &y, int ly) {
  u64 borrow = 0;
  for (int k = 0; k < lx; k++) {
    u64 d = (u64)x[k] - (k < ly ? y[k] : 0u) - borrow;
    x[k] = (u32)d;
    borrow = (d >> 32) & 1;
    if (k >= ly && !borrow) break;
  }
  return top_len(x, lx);
}

/* X -= alpha * Y * D^beta (result known non-negative). */
__device__ void mulsub(const Col &x, int lx, const Col &y, int ly, u32 alpha, int beta) {
  u64 carry = 0;   /* of the product */
  u64 borrow = 0;  /* of the subtraction */
  for (int k = 0; k + beta < lx; k++) {
    u64 prod = (k < ly ? (u64)y[k] * alpha : 0ull) + carry;
    carry = prod >> 32;
    u64 d = (u64)x[k + beta] - (u32)prod - borrow;
    x[k + beta] = (u32)d;
    borrow = (d >> 32) & 1;
    if (k >= ly && carry == 0 && borrow == 0) break;
  }
}

/* X += Y. */
__device__ void add(const Col &x, int lx, const Col &y, int ly) {
  u64 carry = 0;
  for (int k = 0; k < lx; k++) {
    u64 s = (u64)x[k] + (k < ly ? y[k] : 0u) + carry;
    x[k] = (u32)s;
    carry = s >> 32;
    if (k >= ly && !carry) break;
  }
}

/* lo:hi = y * a + c (64-bit result) by PTX multiply-add with carry. */
__device__ __forceinline__ u32 mac_ptx(u32 y, u32 a, u32 c, u32 &hi) {
  u32 lo, h;
  asm("{\n\t"
      ".reg .u32 t;\n\t"
      "mad.lo.cc.u32 t, %2, %3, %4;\n\t"
      "madc.hi.u32 %1, %2, %3, 0;\n\t"
      "mov.u32 %0, t;\n\t"
      "}"
      : "=r"(lo), "=r"(h)
      : "r"(y), "r"(a), "r"(c));
  hi = h;
  return lo;
}

/* X <- X + [plus] Y - alpha * Y * D^beta (mod D^lx; the result is known to
 * lie in [0, X]) in one pass over X: the product alpha * Y runs through
 * mac_ptx with its high word as carry (pc), the sum through one signed carry
 * (r in -1..1). */
__device__ void fused_mac(const Col &x, int lx, const Col &y, int ly, u32 alpha, int beta,
                          bool plus) {
  const int end = beta + ly; /* word of the product's last carry */
  u32 pc = 0;
  long long r = 0;
  for (int k = 0; k < lx; k++) {
    if (r == 0 && k >= ly && k < beta) k = beta; /* words between Y and the product stay */
    u32 lo;
    if (k >= beta && k < end) {
      lo = mac_ptx(y[k - beta], alpha, pc, pc);
    } else {
      lo = pc; /* 0 below beta, the product's top word at k == end */
      pc = 0;
    }
    long long q = (long long)x[k] + (plus && k < ly ? (long long)y[k] : 0LL) + r - (long long)lo;
    x[k] = (u32)q;
    r = q >> 32; /* arithmetic: -1, 0 or 1 */
    if (k >= end && r == 0) break;
  }
}

__device__ u64 gcd64_fast_binary(u64 x, u64 y) {
  /* x, y: x odd or zero, y odd or zero */
  if (x < y) { u64 t = x; x = y; y = t; }
  while (y != 0) {
    x -= y;
    if (x) x >>= __ffsll((long long)x) - 1;
    if (x < y) { u64 t = x; x = y; y = t; }
  }
  return x;
}

template <int ALG>
__global__ void gcd_kernel(const u32 *__restrict__ x0, const u32 *__restrict__ y0, u32 *xw,
                           u32 *yw, u32 *out, int words, size_t inst) {
  size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= inst) return;
  Col X{xw + t, inst}, Y{yw + t, inst}, O{out + t, inst};
  for (int k = 0; k < words; k++) {
    X[k] = x0[(size_t)k * inst + t];
    Y[k] = y0[(size_t)k * inst + t];
  }
  int lx = top_len(X, words), ly = top_len(Y, words);
  if (cmp(X, lx, Y, ly) < 0) { Col c = X; X = Y; Y = c; int l = lx; lx = ly; ly = l; }
  if (ALG == GCD_BINARY) {
    while (ly != 0) {
      if ((X[0] & 1u) == 0) lx = shr(X, lx, 1);
      else if ((Y[0] & 1u) == 0) ly = shr(Y, ly, 1);
      else { lx = sub(X, lx, Y, ly); lx = shr(X, lx, 1); }
      if (cmp(X, lx, Y, ly) < 0) { Col c = X; X = Y; Y = c; int l = lx; lx = ly; ly = l; }
    }
  } else if (ALG == GCD_FAST_BINARY) {
    while (ly != 0) {
      lx = sub(X, lx, Y, ly);
      lx = rshift(X, lx);
      if (cmp(X, lx, Y, ly) < 0) { Col c = X; X = Y; Y = c; int l = lx; lx = ly; ly = l; }
    }
  } else {
    while (ly != 0 && lx > 2) {
      u64 x12 = ((u64)X[lx - 1] << 32) | X[lx - 2];
      u32 y1 = Y[ly - 1];
      u64 y12 = ly >= 2 ? ((u64)y1 << 32) | Y[ly - 2] : 0;
      u64 alpha;
      int beta;
      if (ly == 1) {
        u32 x1 = X[lx - 1];
        if (x1 >= y1) { alpha = x1 / y1; beta = lx - 1; }
        else { alpha = x12 / y1; beta = lx - 2; }
      } else if (ly == 2) {
        if (x12 >= y12) { alpha = x12 / y12; beta = lx - 2; }
        else { alpha = x12 / ((u64)y1 + 1); beta = lx - 3; }
      } else if (x12 > y12) { alpha = x12 / (y12 + 1); beta = lx - ly; }
      else if (lx > ly) { alpha = x12 / ((u64)y1 + 1); beta = lx - ly - 1; }
      else { alpha = 1; beta = 0; }
      if (beta == 0 && (alpha & 1) == 0) alpha--;
      if (ALG == GCD_APPROX_PTX) {
        fused_mac(X, lx, Y, ly, (u32)alpha, beta, beta != 0);
      } else if (beta == 0) {
        mulsub(X, lx, Y, ly, (u32)alpha, 0);
      } else {
        mulsub(X, lx, Y, ly, (u32)alpha, beta);
        add(X, lx, Y, ly);
      }
      lx = rshift(X, top_len(X, lx));
      if (cmp(X, lx, Y, ly) < 0) { Col c = X; X = Y; Y = c; int l = lx; lx = ly; ly = l; }
    }
    if (ly != 0) {
      u64 x = lx > 1 ? ((u64)X[1] << 32) | X[0] : (lx ? X[0] : 0);
      u64 y = ly > 1 ? ((u64)Y[1] << 32) | Y[0] : Y[0];
      u64 g = gcd64_fast_binary(x, y);
      X[0] = (u32)g;
      if (words > 1) X[1] = (u32)(g >> 32);
      for (int k = 2; k < words; k++) X[k] = 0;
      lx = g >> 32 ? 2 : 1;
    }
  }
  for (int k = 0; k < words; k++) O[k] = k < lx ? X[k] : 0u;
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
  std::vector<u32> hx((size_t)words * inst), hy((size_t)words * inst), hout((size_t)words * inst);
  MsRng rng(o.seed * 1000003 + (uint64_t)bits);
  std::vector<Big> X(oblivious ? 1 : inst), Y(oblivious ? 1 : inst);
  for (size_t t = 0; t < X.size(); t++) {
    u32 g = rng.u32() | 1u;
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
  u32 *dx0, *dy0, *dxw, *dyw, *dout;
  const size_t bytes = (size_t)words * inst * 4;
  for (u32 **p : {&dx0, &dy0, &dxw, &dyw, &dout}) MS_CUDA(cudaMalloc(p, bytes));
  MS_CUDA(cudaMemcpy(dx0, hx.data(), bytes, cudaMemcpyHostToDevice));
  MS_CUDA(cudaMemcpy(dy0, hy.data(), bytes, cudaMemcpyHostToDevice));
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
  auto poison = [&] { MS_CUDA(cudaMemset(dout, 0xff, bytes)); };
  const unsigned grid = (unsigned)((inst + 127) / 128);
  auto launch = [&] {
    if (alg == GCD_BINARY) gcd_kernel<GCD_BINARY><<<grid, 128>>>(dx0, dy0, dxw, dyw, dout, words, inst);
    else if (alg == GCD_FAST_BINARY)
      gcd_kernel<GCD_FAST_BINARY><<<grid, 128>>>(dx0, dy0, dxw, dyw, dout, words, inst);
    else if (alg == GCD_APPROX)
      gcd_kernel<GCD_APPROX><<<grid, 128>>>(dx0, dy0, dxw, dyw, dout, words, inst);
    else gcd_kernel<GCD_APPROX_PTX><<<grid, 128>>>(dx0, dy0, dxw, dyw, dout, words, inst);
  };
  std::vector<Big> ref(X.size());
  size_t step = X.size() <= 2048 ? 1 : X.size() / 2048; /* sampled reference */
  for (size_t t = 0; t < X.size(); t += step) ref[t] = host_gcd(X[t], Y[t]);
  auto verify = [&]() -> std::string {
    MS_CUDA(cudaMemcpy(hout.data(), dout, bytes, cudaMemcpyDeviceToHost));
    for (size_t t = 0; t < inst; t++) {
      size_t rt = oblivious ? 0 : t;
      if (rt % step) continue;
      const Big &r = ref[rt];
      for (int k = 0; k < words; k++) {
        u32 want = k < (int)r.size() ? r[k] : 0u;
        if (hout[(size_t)k * inst + t] != want)
          return ms_fmt("instance %zu word %d: got %08x want %08x", t, k,
                        hout[(size_t)k * inst + t], want);
      }
    }
    return "";
  };
  rec.x("reference_checked_instances",
        (long long)(oblivious ? inst : (inst + step - 1) / step));
  ms_measure(rec, poison, launch, verify);
  for (u32 *p : {dx0, dy0, dxw, dyw, dout}) MS_CUDA(cudaFree(p));
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
