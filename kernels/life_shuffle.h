/* Game of Life, multi-step with warp shuffles (bpbc `life-multistep-shuffle`).
 *
 * Plain C++ with __host__ __device__ qualifiers so that the same code runs in
 * the kernel (bpbc.cu, shuffles by __shfl_up_sync/__shfl_down_sync) and in a
 * CPU emulation of one warp (kernels/test_life_shuffle.cpp, shuffles through
 * a barrier).
 *
 * Cells are bits of 64-bit words (bit b of word w of a row = column 64w + b),
 * rows row-major, as life-double and life-multistep. A warp owns 32
 * consecutive words of a strip of `H` rows; lanes 1..30 are its output words,
 * lanes 0 and 31 a halo word on each side (a halo word's cells go wrong by
 * one bit per step from its outer edge; fewer than 64 steps leave its inner
 * bit right). Each lane walks down its word column from row r0 - T to the
 * strip's end and runs T steps in registers as a pipeline of T levels: level
 * s holds the column sums of the last two rows of step s and turns each new
 * row of step s into a row of step s + 1, which level s + 1 takes in the next
 * iteration (the skew makes the T levels of one iteration independent).
 * The west and east neighbour words come from the lanes beside by one
 * __shfl_up_sync and one __shfl_down_sync per row and level; no shared memory.
 *
 * Per row: T3 = W + C + E (2 bits) and P2 = W + E (2 bits), with W and E the
 * row shifted by one cell; a cell's neighbour count is T3(up) + P2(row) +
 * T3(down). Rows and words outside the universe are zero at every step.
 */
#pragma once

#include <cstddef>

#ifndef MS_LIFE_SH_T
#define MS_LIFE_SH_T 8 /* steps per launch */
#endif

/* The host pass of nvcc and the CPU test see no unroll pragma. */
#if defined(__CUDA_ARCH__)
#define LIFE_SH_UNROLL _Pragma("unroll")
#else
#define LIFE_SH_UNROLL
#endif

namespace life_shuffle {

typedef unsigned long long u64;

constexpr int T = MS_LIFE_SH_T;
constexpr int OUT_WORDS = 30; /* output words per warp: lanes 1..30 */

/* Column sums of row x: t = W + x + E, p = W + E (each as two bit planes). */
template <class Shfl>
__host__ __device__ __forceinline__ void row_sums(u64 x, Shfl &sh, u64 &t1, u64 &t0, u64 &p1,
                                                  u64 &p0) {
  const u64 l = sh.up(x), r = sh.down(x);
  const u64 W = (x << 1) | (l >> 63), E = (x >> 1) | (r << 63);
  const u64 s = W ^ x;
  t0 = s ^ E;
  t1 = (W & x) | (s & E);
  p0 = W ^ E;
  p1 = W & E;
}

/* Next state of row I from a = T3(up), p = P2(I), b = T3(down). */
__host__ __device__ __forceinline__ u64 rule(u64 a1, u64 a0, u64 p1, u64 p0, u64 b1, u64 b0,
                                             u64 I) {
  const u64 u0 = a0 ^ b0, k = a0 & b0, h = a1 ^ b1;
  const u64 u1 = h ^ k, u2 = (a1 & b1) | (h & k);      /* u = a + b <= 6 */
  const u64 v0 = u0 ^ p0, k2 = u0 & p0, h2 = u1 ^ p1;
  const u64 v1 = h2 ^ k2, ge4 = u2 | (u1 & p1) | (h2 & k2); /* v = u + p */
  return ~ge4 & v1 & (v0 | I); /* count 3, or 2 and alive */
}

/* One lane's work for T steps: u (step 0) -> v (step T), S x S cells,
 * strip `strip` of H rows, warp column `wx`. Every lane of the warp must call
 * it with the same S, H, wx, strip (shuffles). */
template <class Shfl>
__host__ __device__ __forceinline__ void warp_steps(const u64 *u, u64 *v, int S, int H, int lane,
                                                    int wx, int strip, Shfl &sh) {
  const int wpr = S / 64;
  const int gw = wx * OUT_WORDS + lane - 1;
  const bool inw = gw >= 0 && gw < wpr;
  const u64 wmask = inw ? ~0ull : 0ull;
  const bool out_lane = inw && lane >= 1 && lane <= OUT_WORDS;
  const int r0 = strip * H;
  u64 m1[T], m0[T], c1[T], c0[T], q1[T], q0[T], ic[T], pend[T];
  LIFE_SH_UNROLL
  for (int s = 0; s < T; s++) m1[s] = m0[s] = c1[s] = c0[s] = q1[s] = q0[s] = ic[s] = pend[s] = 0;
  /* Level s takes row i - 2s in iteration i and gives row i - 2s - 1 of step
   * s + 1; level s's rows from r0 - T + s on are right, so step T's rows
   * from r0 on. */
  const int first = r0 - T, last = r0 + H + 2 * T - 2;
  u64 next = (first >= 0 && first < S && inw) ? u[(size_t)first * wpr + gw] : 0ull;
  for (int i = first; i <= last; i++) {
    pend[0] = next;
    const int in = i + 1;
    next = (in >= 0 && in < S && inw) ? u[(size_t)in * wpr + gw] : 0ull;
    LIFE_SH_UNROLL
    for (int s = T - 1; s >= 0; s--) {
      const u64 x = pend[s];
      u64 t1, t0, p1, p0;
      row_sums(x, sh, t1, t0, p1, p0);
      u64 y = rule(m1[s], m0[s], q1[s], q0[s], t1, t0, ic[s]);
      const int j = i - 2 * s - 1;
      y = (j >= 0 && j < S) ? (y & wmask) : 0ull;
      m1[s] = c1[s];
      m0[s] = c0[s];
      c1[s] = t1;
      c0[s] = t0;
      q1[s] = p1;
      q0[s] = p0;
      ic[s] = x;
      if (s + 1 < T) pend[s + 1] = y;
      else if (out_lane && j >= r0 && j < S) v[(size_t)j * wpr + gw] = y;
    }
  }
}

} // namespace life_shuffle
