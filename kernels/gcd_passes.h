/* gcd_passes.h: one thread of the bulk GCD kernels (kernels/gcd.cu), in passes that make
 * exactly the accesses of the trace `memsim gen gcd` writes (sim/workloads/gcd/ms-gcd.c):
 * each iteration's passes read and write the words the trace's steps name, in their order,
 * with the lengths in registers. The includer defines GCD_LD(p) and GCD_ST(p, v) (volatile
 * PTX on the GPU; a recording emulation in kernels/test_gcd_passes.cpp, which compares the
 * accesses with the generator's trace on the CPU).
 *
 *   binary        X even: X <- X / 2; else Y even: Y <- Y / 2; else X <- (X - Y) / 2
 *   fast-binary   X <- rshift(X - Y)
 *   approximate   X <- rshift(X - alpha Y D^beta [+ Y when beta > 0]), (alpha, beta) from
 *                 the two leading words of X and Y (approx(), section 4.2; case 1, both
 *                 numbers in two words, with a 64-bit alpha)
 *   approximate-ptx64  the same, its multiply-accumulate as PTX mad.lo.cc / madc.hi
 * and after each step: if (X < Y) swap(X, Y). */
#ifndef MEMSIM_GCD_PASSES_H
#define MEMSIM_GCD_PASSES_H

#include <stddef.h>
#include <stdint.h>

namespace gcd_passes {

typedef uint32_t u32;
typedef unsigned long long u64;

enum GcdAlg { GCD_BINARY, GCD_FAST_BINARY, GCD_APPROX, GCD_APPROX_PTX };

#ifndef GCD_FN
#define GCD_FN __device__
#endif
#ifdef __CUDACC__
#define GCD_FFS(x) __ffs(x)
#define GCD_FFSLL(x) __ffsll(x)
#else
#define GCD_FFS(x) __builtin_ffs((int)(x))
#define GCD_FFSLL(x) __builtin_ffsll(x)
#endif

/* A number in the column-wise arrangement. */
struct Col {
  u32 *p;
  size_t stride;
  GCD_FN u32 *at(int k) const { return p + (size_t)k * stride; }
};

/* The result words d_0, d_1, ... of a pass, LSB first, written shifted right: X[k - 1 - ws]
 * is known once d_k is (ws whole zero words and bs bits removed, as rshift; a fixed
 * shift by one bit for the binary algorithm). Lengths stay in registers. While the words
 * are zero the shift is not known: X[k - 1] is written 0, which is the trace's write for a
 * zero result (a nonzero result with whole zero low words, rare, writes those zeros too). */
struct Out {
  int ws, bs, len;
  u32 prev;
  bool found;
};
GCD_FN __forceinline__ Out out_rshift() { return Out{0, 0, 0, 0u, false}; }
GCD_FN __forceinline__ Out out_half() { return Out{0, 1, 0, 0u, true}; }
GCD_FN __forceinline__ void out_push(Out &o, const Col &x, int k, u32 d) {
  if (!o.found) {
    if (d != 0) {
      o.found = true;
      o.ws = k;
      o.bs = GCD_FFS(d) - 1;
      o.prev = d;
    } else if (k >= 1) {
      GCD_ST(x.at(k - 1), 0u);
    }
    return;
  }
  if (k == o.ws) { /* the fixed shift's first word */
    o.prev = d;
    return;
  }
  u32 w = o.bs ? (o.prev >> o.bs) | (d << (32 - o.bs)) : o.prev;
  GCD_ST(x.at(k - 1 - o.ws), w);
  if (w) o.len = k - o.ws;
  o.prev = d;
}
/* k = lx: the top word; returns the new length. */
GCD_FN __forceinline__ int out_finish(Out &o, const Col &x, int lx) {
  if (!o.found) {
    GCD_ST(x.at(lx - 1), 0u);
    return 0;
  }
  u32 w = o.prev >> o.bs;
  GCD_ST(x.at(lx - 1 - o.ws), w);
  if (w) o.len = lx - o.ws;
  return o.len;
}

/* if (X < Y) swap(X, Y): reads word pairs from the top only when the lengths are equal. */
GCD_FN __forceinline__ void compare_swap(Col &x, int &lx, Col &y, int &ly, int &xa) {
  bool less = lx < ly;
  if (lx == ly)
    for (int m = lx - 1; m >= 0; m--) {
      u32 a = GCD_LD(x.at(m)), b = GCD_LD(y.at(m));
      if (a != b) {
        less = a < b;
        break;
      }
    }
  if (less) {
    Col c = x; x = y; y = c;
    int l = lx; lx = ly; ly = l;
    xa ^= 1;
  }
}

/* X <- X / 2 (X even): read X[k], write X[k - 1]. */
GCD_FN int half(const Col &x, int lx) {
  Out o = out_half();
  for (int k = 0; k < lx; k++) out_push(o, x, k, GCD_LD(x.at(k)));
  return out_finish(o, x, lx);
}

/* X <- shift(X - Y) (X >= Y): read X[k], Y[k], write X[k - 1 - ws]. */
GCD_FN int sub_shift(const Col &x, int lx, const Col &y, int ly, Out o) {
  u32 borrow = 0;
  for (int k = 0; k < lx; k++) {
    u32 a = GCD_LD(x.at(k));
    u32 b = k < ly ? GCD_LD(y.at(k)) : 0u;
    u64 d = (u64)a - b - borrow;
    borrow = (u32)(d >> 32) & 1u;
    out_push(o, x, k, (u32)d);
  }
  return out_finish(o, x, lx);
}

/* lo:hi = y * a + c (64-bit result) by PTX multiply-add with carry. */
GCD_FN __forceinline__ u32 mac_ptx(u32 y, u32 a, u32 c, u32 &hi) {
#ifdef __CUDACC__
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
#else
  u64 p = (u64)y * a + c;
  hi = (u32)(p >> 32);
  return (u32)p;
#endif
}

template <bool PTX>
GCD_FN __forceinline__ u32 mac(u32 y, u32 a, u32 c, u32 &hi) {
  if (PTX) return mac_ptx(y, a, c, hi);
  u64 p = (u64)y * a + c;
  hi = (u32)(p >> 32);
  return (u32)p;
}

/* X <- rshift(X - alpha Y [+ Y when beta > 0] D^beta ... ) in one LSB-first pass, as
 * section 4.4 (beta = 0: X - alpha Y; beta > 0: X - alpha Y D^beta + Y; the result lies in
 * [0, X]): read X[k], Y[k - beta] (beta > 0), Y[k], write X[k - 1 - ws]. */
template <bool PTX>
GCD_FN int approx_pass(const Col &x, int lx, const Col &y, int ly, u32 alpha, int beta) {
  Out o = out_rshift();
  u32 pc = 0;     /* the product's carry word */
  long long r = 0; /* the sum's signed carry, -1 .. 1 */
  const int end = beta + ly;
  for (int k = 0; k < lx; k++) {
    u32 a = GCD_LD(x.at(k)), lo;
    if (beta == 0) {
      lo = k < ly ? mac<PTX>(GCD_LD(y.at(k)), alpha, pc, pc) : pc;
      if (k >= ly) pc = 0;
      long long q = (long long)a + r - (long long)lo;
      r = q >> 32;
      out_push(o, x, k, (u32)q);
    } else {
      if (k >= beta && k < end) lo = mac<PTX>(GCD_LD(y.at(k - beta)), alpha, pc, pc);
      else { lo = pc; pc = 0; }
      u32 b = k < ly ? GCD_LD(y.at(k)) : 0u;
      long long q = (long long)a + b + r - (long long)lo;
      r = q >> 32;
      out_push(o, x, k, (u32)q);
    }
  }
  return out_finish(o, x, lx);
}

/* Both numbers in at most two words (case 1 of approx): X <- rshift(X - alpha Y) with a
 * 64-bit alpha, the pass's reads and writes (read X[k], Y[k]; write X[k - 1 - ws]). */
GCD_FN int small_pass(const Col &x, int lx, const Col &y, int ly, u64 alpha) {
  u64 xv = 0, yv = 0;
  for (int k = 0; k < lx; k++) {
    xv |= (u64)GCD_LD(x.at(k)) << (32 * k);
    if (k < ly) yv |= (u64)GCD_LD(y.at(k)) << (32 * k);
  }
  u64 d = xv - alpha * yv; /* in [0, xv]: exact mod 2^64 */
  if (d == 0) {
    for (int k = 0; k < lx; k++) GCD_ST(x.at(k), 0u);
    return 0;
  }
  int z = GCD_FFSLL((long long)d) - 1, ws = z / 32;
  d >>= z;
  for (int j = 0; j < lx - ws; j++) GCD_ST(x.at(j), (u32)(d >> (32 * j)));
  return d >> 32 ? 2 : 1;
}

/* approx(X, Y) of section 4.2, cases 1-4, from the two leading words of each. */
GCD_FN void approx(u64 x1, u64 x2, int lx, u64 y1, u64 y2, int ly, u64 &alpha, int &beta) {
  const u64 x12 = (x1 << 32) | x2, y12 = (y1 << 32) | y2;
  if (lx <= 2) {
    alpha = (lx == 2 ? x12 : x1) / (ly == 2 ? y12 : y1);
    beta = 0;
  } else if (ly == 1) {
    if (x1 >= y1) { alpha = x1 / y1; beta = lx - 1; }
    else { alpha = x12 / y1; beta = lx - 2; }
  } else if (ly == 2) {
    if (x12 >= y12) { alpha = x12 / y12; beta = lx - 2; }
    else { alpha = x12 / (y1 + 1); beta = lx - 3; }
  } else if (x12 > y12) { alpha = x12 / (y12 + 1); beta = lx - ly; }
  else if (lx > ly) { alpha = x12 / (y1 + 1); beta = lx - ly - 1; }
  else { alpha = 1; beta = 0; }
}

/* One thread's GCD, in place on the two planes of xy (plane 0 starts as X, plane 1 as Y,
 * word k of thread t at plane * words * inst + k * inst + t; swap(X, Y) swaps pointers).
 * Every iteration is the trace's, access for access; the inputs have `words` words each.
 * Returns 2 * (length of the GCD) + (the plane holding it). */
template <int ALG>
GCD_FN u32 gcd_thread(u32 *xy, size_t t, int words, size_t inst) {
  Col X{xy + t, inst}, Y{xy + (size_t)words * inst + t, inst};
  int lx = words, ly = words, xa = 0;
  compare_swap(X, lx, Y, ly, xa);
  while (ly != 0) {
    if (ALG == GCD_BINARY) {
      if ((GCD_LD(X.at(0)) & 1u) == 0) lx = half(X, lx);
      else if ((GCD_LD(Y.at(0)) & 1u) == 0) ly = half(Y, ly);
      else lx = sub_shift(X, lx, Y, ly, out_half());
    } else if (ALG == GCD_FAST_BINARY) {
      lx = sub_shift(X, lx, Y, ly, out_rshift());
    } else {
      u64 x1 = GCD_LD(X.at(lx - 1)), x2 = lx >= 2 ? GCD_LD(X.at(lx - 2)) : 0;
      u64 y1 = GCD_LD(Y.at(ly - 1)), y2 = ly >= 2 ? GCD_LD(Y.at(ly - 2)) : 0;
      u64 alpha;
      int beta;
      approx(x1, x2, lx, y1, y2, ly, alpha, beta);
      if (beta == 0 && (alpha & 1) == 0) alpha--;
      if (lx <= 2) lx = small_pass(X, lx, Y, ly, alpha);
      else lx = approx_pass<ALG == GCD_APPROX_PTX>(X, lx, Y, ly, (u32)alpha, beta);
    }
    compare_swap(X, lx, Y, ly, xa);
  }
  return 2u * (u32)lx + (u32)xa;
}

} // namespace gcd_passes

#endif
