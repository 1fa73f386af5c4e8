/* ms-bpbc.c: Bitwise Parallel Bulk Computation on the UMM (seed 000 chapters 5-6).
 *
 * The access patterns are oblivious, so the source computes each address from the thread
 * index; the algorithm itself is executed on random data first and checked against a
 * straightforward implementation (MS_ERROR_VERIFY on a mismatch).
 *
 *   pairwise-sum        G = ceil(M/32) threads; bit plane j of group g at j*G + g in A, B, C
 *                       (column-wise, Figure 5.2); per thread: K x (read A_j, read B_j,
 *                       write C_j), then write the carry plane C_K when K < 32.
 *   pairwise-sum-naive  M threads: read A[i], read B[i], write C[i].
 *   life-word           one byte per cell, one thread per cell (warp = 32 cells of a row);
 *                       9 reads (the 8 neighbours, then the cell) and 1 write per step;
 *                       a byte access is a request to the 32-bit word holding it.
 *   life-single         32 cells per 32-bit word (Algorithm SINGLE-WORD): 9 reads, 1 write.
 *   life-double         64 cells per 64-bit word, two rows per thread (Algorithm
 *                       DOUBLE-WORD): 12 reads, 2 writes; a 64-bit word is one request to
 *                       its first 32-bit word address (so a warp spans 2 address groups).
 *   life-multistep      on the HMM (section 6.4, Figure 6.8): see the multistep section below.
 * Every step of the universe is one kernel: T steps are separated by grid barriers and
 * alternate between two arrays.  The universe wraps around (torus) unless boundary=dead
 * (cells outside are dead, reads outside are not made: kernels/bpbc.cu's convention). */
#include "ms-workloads.h"
#include "ms-perm.h"
#include <string.h>

typedef enum { PAIRWISE, PAIRWISE_NAIVE, LIFE_WORD, LIFE_SINGLE, LIFE_DOUBLE, LIFE_MULTISTEP } Alg;
static const char *const alg_names[] = {"pairwise-sum", "pairwise-sum-naive", "life-word", "life-single",
                                        "life-double", "life-multistep", NULL};

typedef struct {
  Alg alg;
  guint64 K, M, G;      /* pairwise */
  guint64 N, T, wpr, rt; /* life: size, steps, words per row, threads per row */
  gboolean wrap;
  guint64 threads;
  guint accesses;       /* memory steps per kernel */
  guint64 kernel;       /* current kernel (0..T-1) */
  guint acc;            /* next access in it */
  gboolean sync_next, finished;
  MsOp op;
  guint cur;            /* access being filled */
  guint64 fk;           /* kernel of the step being filled */
  guint8 order[3 * 32 + 1]; /* pairwise: access issued at position i (the unroll order) */
} Bpbc;

/* ---- verification -------------------------------------------------------------------- */
static gboolean verify_pairwise(Bpbc *B, guint64 seed, GError **error) {
  guint64 s = seed, M = B->M, G = B->G, K = B->K;
  guint32 mask = K >= 32 ? 0xffffffffu : ((1u << K) - 1);
  guint32 *a = g_new0(guint32, G * 32), *b = g_new0(guint32, G * 32);
  for (guint64 i = 0; i < M; i++) {
    a[i] = (guint32)ms_rand_next(&s) & mask;
    b[i] = (guint32)ms_rand_next(&s) & mask;
  }
  gboolean ok = TRUE;
  if (B->alg == PAIRWISE) {
    guint64 out = K < 32 ? K + 1 : 32;
    guint32 *c = g_new0(guint32, out * G);
    for (guint64 g = 0; g < G && ok; g++) {
      guint32 A[32] = {0}, Bs[32] = {0}, carry = 0;
      for (guint64 j = 0; j < K; j++)
        for (int i = 0; i < 32; i++) {
          A[j] |= ((a[g * 32 + i] >> j) & 1u) << i;
          Bs[j] |= ((b[g * 32 + i] >> j) & 1u) << i;
        }
      for (guint64 j = 0; j < K; j++) { /* the ripple-carry adder, 32 instances per word */
        c[j * G + g] = A[j] ^ Bs[j] ^ carry;
        carry = (A[j] & Bs[j]) | (A[j] & carry) | (Bs[j] & carry);
      }
      if (K < 32) c[K * G + g] = carry;
      for (int i = 0; i < 32 && g * 32 + (guint64)i < M; i++) {
        guint32 sum = 0;
        for (guint64 j = 0; j < out; j++) sum |= ((c[j * G + g] >> i) & 1u) << j;
        if (sum != a[g * 32 + i] + b[g * 32 + i]) ok = FALSE;
      }
    }
    g_free(c);
  }
  g_free(a);
  g_free(b);
  if (!ok) g_set_error(error, MS_ERROR, MS_ERROR_VERIFY, "bpbc pairwise-sum: a bit-sliced sum differs from A + B");
  return ok;
}

/* One generation of the straightforward Game of Life, one byte per cell: each cell's eight
 * neighbours summed as (column sums of rows y-1, y, y+1 over x-1 .. x+1) - itself, the
 * universe's edges wrapped or dead.  `word_rule`: formulas 6.1/6.2's (sum | me) == 3, else
 * the usual "3, or 2 and alive"; the two agree (a test of the formulas, not of speed).  The
 * column sums keep this at a few operations per cell: a 16384^2 universe over 32
 * generations is checked in seconds, where a modulo per neighbour took minutes. */
static void life_generation(const guint8 *g, guint8 *h, guint8 *col, guint64 N, gboolean wrap,
                            gboolean word_rule) {
  for (guint64 y = 0; y < N; y++) {
    const guint8 *up = y > 0 ? g + (y - 1) * N : wrap ? g + (N - 1) * N : NULL;
    const guint8 *dn = y + 1 < N ? g + (y + 1) * N : wrap ? g : NULL;
    const guint8 *me = g + y * N;
    for (guint64 x = 0; x < N; x++) col[x + 1] = (guint8)((up ? up[x] : 0) + me[x] + (dn ? dn[x] : 0));
    col[0] = wrap ? col[N] : 0;
    col[N + 1] = wrap ? col[1] : 0;
    guint8 *out = h + y * N;
    for (guint64 x = 0; x < N; x++) {
      int sum = col[x] + col[x + 1] + col[x + 2] - me[x];
      out[x] = (guint8)(word_rule ? (sum | me[x]) == 3 : sum == 3 || (me[x] && sum == 2));
    }
  }
}

/* T generations in place. */
static void life_naive(guint8 *g, guint64 N, guint64 T, gboolean wrap, gboolean word_rule) {
  guint8 *h = g_new(guint8, N * N), *col = g_new(guint8, N + 2);
  for (guint64 t = 0; t < T; t++) {
    life_generation(g, h, col, N, wrap, word_rule);
    memcpy(g, h, N * N);
  }
  g_free(col);
  g_free(h);
}

/* Algorithm SINGLE-WORD (section 6.2), on any word width. */
#define SINGLE_WORD(T)                                                                           \
  static T single_word_##T(T A, T B, T C, T D, T E, T F, T G, T H, T I) {                        \
    T ab1 = A & B, ab0 = A ^ B, cd1 = C & D, cd0 = C ^ D, ef1 = E & F, ef0 = E ^ F;              \
    T gh1 = G & H, gh0 = G ^ H;                                                                  \
    T ad0 = ab0 ^ cd0, ad1 = ab1 ^ cd1 ^ (ab0 & cd0), ad2 = ab1 & cd1;                           \
    T eh0 = ef0 ^ gh0, eh1 = ef1 ^ gh1 ^ (ef0 & gh0), eh2 = ef1 & gh1;                           \
    T ah0 = ad0 ^ eh0, X = ad0 & eh0, Y = ad1 ^ eh1, ah1 = X ^ Y;                                \
    T ah23 = ad2 | eh2 | (ad1 & eh1) | (X & Y);                                                  \
    T Z = ~ah23 & ah1, I2 = ~ah0 & Z, I3 = ah0 & Z;                                              \
    return (I & I2) | I3;                                                                        \
  }
SINGLE_WORD(guint32)


/* Word (r, w) of a packed universe, 0 outside when not wrapping. */
#define LD(u, r, w)                                                                              \
  (B->wrap ? u[wrap1((r), (gint64)N) * (gint64)wpr + wrap1((w), (gint64)wpr)]                        \
           : ((r) < 0 || (r) >= (gint64)N || (w) < 0 || (w) >= (gint64)wpr) ? 0 : u[(r) * (gint64)wpr + (w)])

/* An index at most one outside [0, n), wrapped (no division in the verifiers' inner loops). */
static inline gint64 wrap1(gint64 i, gint64 n) { return i < 0 ? i + n : i >= n ? i - n : i; }

static gboolean verify_life(Bpbc *B, guint64 seed, GError **error) {
  guint64 N = B->N, s = seed;
  guint8 *ref = g_new(guint8, N * N), *cur = g_new(guint8, N * N);
  for (guint64 i = 0; i < N * N; i++) ref[i] = (guint8)(ms_rand_below(&s, 3) == 0); /* density 1/3 */
  memcpy(cur, ref, N * N);
  life_naive(ref, N, B->T, B->wrap, FALSE);
  gboolean ok = TRUE;
  if (B->alg == LIFE_WORD) {
    /* word-per-cell with formulas 6.1/6.2 */
    life_naive(cur, N, B->T, B->wrap, TRUE);
    ok = memcmp(cur, ref, N * N) == 0;
  } else if (B->alg == LIFE_SINGLE) {
    const guint64 wpr = N / 32;
    guint32 *u = g_new0(guint32, N * wpr), *v = g_new0(guint32, N * wpr);
    for (guint64 i = 0; i < N * N; i++) u[i / 32] |= (guint32)cur[i] << (i % 32);
    for (guint64 t = 0; t < B->T; t++) {
      for (gint64 r = 0; r < (gint64)N; r++)
        for (gint64 w = 0; w < (gint64)wpr; w++) {
          guint32 up = LD(u, r - 1, w), upl = LD(u, r - 1, w - 1), upr = LD(u, r - 1, w + 1);
          guint32 me = LD(u, r, w), ml = LD(u, r, w - 1), mr = LD(u, r, w + 1);
          guint32 dn = LD(u, r + 1, w), dl = LD(u, r + 1, w - 1), dr = LD(u, r + 1, w + 1);
#define WEST(c, l) (((c) << 1) | ((l) >> 31))
#define EAST(c, r) (((c) >> 1) | ((r) << 31))
          v[r * (gint64)wpr + w] = single_word_guint32(WEST(up, upl), up, EAST(up, upr), WEST(me, ml),
                                                       EAST(me, mr), WEST(dn, dl), dn, EAST(dn, dr), me);
#undef WEST
#undef EAST
        }
      guint32 *x = u;
      u = v;
      v = x;
    }
    for (guint64 i = 0; i < N * N && ok; i++) ok = ((u[i / 32] >> (i % 32)) & 1u) == ref[i];
    g_free(u);
    g_free(v);
  } else {
    const guint64 wpr = N / 64;
    guint64 *u = g_new0(guint64, N * wpr), *v = g_new0(guint64, N * wpr);
    for (guint64 i = 0; i < N * N; i++) u[i / 64] |= (guint64)cur[i] << (i % 64);
#define WEST(c, l) (((c) << 1) | ((l) >> 63))
#define EAST(c, r) (((c) >> 1) | ((r) << 63))
    for (guint64 t = 0; t < B->T; t++) {
      for (gint64 r = 0; r < (gint64)N; r += 2)
        for (gint64 w = 0; w < (gint64)wpr; w++) {
          guint64 up = LD(u, r - 1, w), upl = LD(u, r - 1, w - 1), upr = LD(u, r - 1, w + 1);
          guint64 K = LD(u, r, w), kl = LD(u, r, w - 1), kr = LD(u, r, w + 1);
          guint64 L = LD(u, r + 1, w), ll = LD(u, r + 1, w - 1), lr = LD(u, r + 1, w + 1);
          guint64 dn = LD(u, r + 2, w), dl = LD(u, r + 2, w - 1), dr = LD(u, r + 2, w + 1);
          guint64 A = WEST(up, upl), Bw = up, C = EAST(up, upr), D = WEST(K, kl), E = EAST(K, kr);
          guint64 I = WEST(L, ll), J = EAST(L, lr), F = WEST(dn, dl), Gw = dn, H = EAST(dn, dr);
          /* DOUBLE-WORD (section 6.3): D, E, I, J are shared by K's and L's neighbourhoods */
          guint64 de1 = D & E, de0 = D ^ E, ij1 = I & J, ij0 = I ^ J;
          guint64 ab1 = A & Bw, ab0 = A ^ Bw, cl1 = C & L, cl0 = C ^ L;
          guint64 fg1 = F & Gw, fg0 = F ^ Gw, hk1 = H & K, hk0 = H ^ K;
          guint64 m0 = de0 ^ ij0, m1 = de1 ^ ij1 ^ (de0 & ij0), m2 = de1 & ij1;
          guint64 p0 = ab0 ^ cl0, p1 = ab1 ^ cl1 ^ (ab0 & cl0), p2 = ab1 & cl1;
          guint64 q0 = fg0 ^ hk0, q1 = fg1 ^ hk1 ^ (fg0 & hk0), q2 = fg1 & hk1;
          guint64 k0 = p0 ^ m0, kx = p0 & m0, ky = p1 ^ m1, k1 = kx ^ ky;
          guint64 k23 = p2 | m2 | (p1 & m1) | (kx & ky);
          guint64 l0 = q0 ^ m0, lx = q0 & m0, ly = q1 ^ m1, l1 = lx ^ ly;
          guint64 l23 = q2 | m2 | (q1 & m1) | (lx & ly);
          guint64 kz = ~k23 & k1, lz = ~l23 & l1;
          v[r * (gint64)wpr + w] = (K & ~k0 & kz) | (k0 & kz);
          v[(r + 1) * (gint64)wpr + w] = (L & ~l0 & lz) | (l0 & lz);
        }
      guint64 *x = u;
      u = v;
      v = x;
    }
#undef WEST
#undef EAST
    for (guint64 i = 0; i < N * N && ok; i++) ok = ((u[i / 64] >> (i % 64)) & 1u) == ref[i];
    g_free(u);
    g_free(v);
  }
  g_free(ref);
  g_free(cur);
  if (!ok)
    g_set_error(error, MS_ERROR, MS_ERROR_VERIFY, "bpbc %s: the universe after %" G_GUINT64_FORMAT
                " steps differs from the straightforward simulator", alg_names[B->alg], B->T);
  return ok;
}

/* ---- the trace ----------------------------------------------------------------------- */
static const int NB_DY[9] = {-1, -1, -1, 0, 0, 0, 1, 1, 1};
static const int NB_DX[9] = {0, -1, 1, 0, -1, 1, 0, -1, 1}; /* up, upl, upr, me, ml, mr, dn, dl, dr */

/* Word (row r, column w) of array `arr` as a 32-bit word address, -1 when not read. */
static gint64 life_at(const Bpbc *B, guint64 arr, gint64 r, gint64 w, gint64 rows, gint64 cols, int scale) {
  if (B->wrap) {
    r = (r + rows) % rows;
    w = (w + cols) % cols;
  } else if (r < 0 || r >= rows || w < 0 || w >= cols) {
    return MS_ADDR_NONE;
  }
  return ((gint64)arr * rows * cols + r * cols + w) * scale;
}

static gint64 address(const Bpbc *B, guint acc, guint64 t) {
  const guint64 cur = B->fk & 1, nxt = cur ^ 1;
  switch (B->alg) {
  case PAIRWISE: {
    if (t >= B->G) return MS_ADDR_NONE;
    guint64 j = acc / 3, planes = B->K * B->G;
    if (j >= B->K) return (gint64)(2 * planes + B->K * B->G + t); /* the carry plane C_K */
    return (gint64)((acc % 3) * planes + j * B->G + t);
  }
  case PAIRWISE_NAIVE:
    return (gint64)(acc * B->M + t);
  case LIFE_WORD: {
    const gint64 N = (gint64)B->N, y = (gint64)(t / B->N), x = (gint64)(t % B->N);
    if (acc == 9) return (gint64)((nxt * B->N * B->N + t) / 4);
    gint64 b = life_at(B, cur, y + NB_DY[acc], x + NB_DX[acc], N, N, 1);
    return b < 0 ? b : b / 4;
  }
  case LIFE_SINGLE: {
    const gint64 r = (gint64)(t / B->rt), w = (gint64)(t % B->rt);
    if (w >= (gint64)B->wpr) return MS_ADDR_NONE;
    if (acc == 9) return life_at(B, nxt, r, w, (gint64)B->N, (gint64)B->wpr, 1);
    return life_at(B, cur, r + NB_DY[acc], w + NB_DX[acc], (gint64)B->N, (gint64)B->wpr, 1);
  }
  case LIFE_DOUBLE: {
    const gint64 r = 2 * (gint64)(t / B->rt), w = (gint64)(t % B->rt);
    if (w >= (gint64)B->wpr) return MS_ADDR_NONE;
    if (acc >= 12) return life_at(B, nxt, r + (acc - 12), w, (gint64)B->N, (gint64)B->wpr, 2);
    /* rows r-1 .. r+2, each: the word, its left, its right */
    return life_at(B, cur, r - 1 + acc / 3, w + (acc % 3 == 0 ? 0 : acc % 3 == 1 ? -1 : 1), (gint64)B->N,
                   (gint64)B->wpr, 2);
  }
  case LIFE_MULTISTEP: break; /* its own source */
  }
  return MS_ADDR_NONE;
}

/* pairwise-sum's access order with unroll u: groups of u planes, each the reads of A_j and
 * B_j for its planes, then the writes of C_j; the remaining planes one at a time (read A_j,
 * read B_j, write C_j); then the carry plane.  u = 1 is the paper's order.  u = 4 is the
 * order nvcc gives kernels/bpbc.cu's loop over a runtime k (SASS: 8 loads, then 4 stores;
 * traces/measured/h100/sass-order.txt). */
static void pairwise_order(Bpbc *B, guint64 u) {
  guint n = 0;
  const guint64 K = B->K, groups = u > 1 ? K / u : 0;
  for (guint64 g = 0; g < groups; g++) {
    for (guint64 k = 0; k < u; k++) {
      B->order[n++] = (guint8)(3 * (g * u + k));
      B->order[n++] = (guint8)(3 * (g * u + k) + 1);
    }
    for (guint64 k = 0; k < u; k++) B->order[n++] = (guint8)(3 * (g * u + k) + 2);
  }
  for (guint64 j = groups * u; j < K; j++)
    for (guint64 x = 0; x < 3; x++) B->order[n++] = (guint8)(3 * j + x);
  if (K < 32) B->order[n++] = (guint8)(3 * K);
  g_assert(n == B->accesses);
}

/* The global words the arrays span (the L2 extension, docs/models.md): address() above. */
static guint64 bpbc_global_words(const Bpbc *B) {
  switch (B->alg) {
  case PAIRWISE: return 3 * B->K * B->G + (B->K < 32 ? B->G : 0); /* A, B, C and the carry plane */
  case PAIRWISE_NAIVE: return 3 * B->M;
  case LIFE_WORD: return (2 * B->N * B->N + 3) / 4; /* two universes of bytes */
  case LIFE_SINGLE: return 2 * B->N * B->wpr;
  case LIFE_DOUBLE: return 2 * B->N * B->wpr * 2;
  case LIFE_MULTISTEP: break; /* its own source */
  }
  return 0;
}

static MsOp op_of(const Bpbc *B, guint acc) {
  switch (B->alg) {
  case PAIRWISE: return acc % 3 == 2 || acc / 3 >= B->K ? MS_OP_WRITE : MS_OP_READ;
  case PAIRWISE_NAIVE: return acc == 2 ? MS_OP_WRITE : MS_OP_READ;
  case LIFE_WORD:
  case LIFE_SINGLE: return acc == 9 ? MS_OP_WRITE : MS_OP_READ;
  case LIFE_DOUBLE: return acc >= 12 ? MS_OP_WRITE : MS_OP_READ;
  case LIFE_MULTISTEP: break; /* its own source */
  }
  return MS_OP_READ;
}

static MsNext bpbc_next(gpointer self, MsStep *step, GError **error) {
  (void)error;
  Bpbc *B = self;
  if (B->finished) return MS_NEXT_END;
  if (B->sync_next) {
    B->sync_next = FALSE;
    step->op = MS_OP_SYNC;
    step->scope = MS_SCOPE_GRID;
    step->space = MS_SPACE_GLOBAL;
    return MS_NEXT_STEP;
  }
  B->cur = B->alg == PAIRWISE ? B->order[B->acc] : B->acc;
  B->fk = B->kernel;
  step->op = op_of(B, B->cur);
  step->space = MS_SPACE_GLOBAL;
  step->scope = MS_SCOPE_GRID;
  if (++B->acc == B->accesses) {
    B->acc = 0;
    B->kernel++;
    if (B->kernel >= B->T) B->finished = TRUE; /* after this step */
    else B->sync_next = TRUE;
  }
  return MS_NEXT_STEP;
}

static gboolean bpbc_fill(gpointer self, guint64 first, guint64 count, gint64 *addr, GError **error) {
  (void)error;
  Bpbc *B = self;
  if (B->alg == LIFE_WORD && B->cur < 9 && count) {
    /* address()'s life-word case over a range, row segment by row segment: the neighbour
     * row's wrap once per segment, the column's only at the row's two ends, and between
     * them one shift per thread with no branch (a vector loop) */
    const gint64 N = (gint64)B->N, base = (gint64)(B->fk & 1) * N * N;
    const gint64 dy = NB_DY[B->cur], dx = NB_DX[B->cur];
    gint64 y = (gint64)(first / B->N), x = (gint64)(first % B->N);
    guint64 i = 0;
    while (i < count) {
      const guint64 seg = MIN(count - i, (guint64)(N - x)); /* threads left in row y */
      gint64 r = y + dy;
      gboolean dead = FALSE;
      if (r < 0 || r >= N) {
        if (B->wrap) r = r < 0 ? r + N : r - N;
        else dead = TRUE;
      }
      gint64 *out = addr + i;
      if (dead) {
        for (guint64 q = 0; q < seg; q++) out[q] = MS_ADDR_NONE;
      } else {
        const gint64 row = base + r * N; /* >= 0: a shift divides by 4 */
        /* x + dx inside [0, N) for x in [lo, hi) */
        const gint64 lo = MAX(x, -dx), hi = MIN(x + (gint64)seg, N - dx);
        for (gint64 c = x; c < MIN(lo, x + (gint64)seg); c++) { /* the row's left end */
          const gint64 w = c + dx;
          out[c - x] = w < 0 ? (B->wrap ? (row + w + N) >> 2 : MS_ADDR_NONE) : (row + w) >> 2;
        }
        for (gint64 c = lo; c < hi; c++) out[c - x] = (row + c + dx) >> 2;
        for (gint64 c = MAX(hi, lo); c < x + (gint64)seg; c++) { /* the row's right end */
          const gint64 w = c + dx;
          out[c - x] = w >= N ? (B->wrap ? (row + w - N) >> 2 : MS_ADDR_NONE) : (row + w) >> 2;
        }
      }
      i += seg;
      x = 0;
      y++;
    }
    return TRUE;
  }
  for (guint64 i = 0; i < count; i++) addr[i] = address(B, B->cur, first + i);
  return TRUE;
}

static void bpbc_destroy(gpointer self) { g_free(self); }

/* fill() is a function of the step and the thread: safe on several workers at once. */
static gboolean bpbc_fill_worker(gpointer self, guint worker, guint64 first, guint64 count, gint64 *addr,
                              GError **error) {
  (void)worker;
  return bpbc_fill(self, first, count, addr, error);
}

/* Repeated kernel counts: a kernel's addresses are a function of its parity alone (address()
 * reads B->fk & 1), so kernels k and k + 2 are the same, but for the last, which no grid
 * barrier closes.  After a grid barrier, B->kernel is the next kernel's number. */
static gboolean bpbc_kernel_key(gpointer self, guint64 *key) {
  const Bpbc *B = self;
  *key = B->kernel & 1;
  return B->kernel + 1 < B->T;
}

static const MsSourceFuncs bpbc_funcs = {bpbc_next, bpbc_fill, bpbc_destroy, NULL, bpbc_fill_worker,
                                         NULL, NULL, NULL, bpbc_kernel_key};

/* ---- life-multistep: t steps per kernel in shared memory (section 6.4) -----------------------
 *
 * The paper's 64 x 64 blocks with Algorithm DOUBLE-WORD: the N x N universe is cut into
 * ceil(N/m) x ceil(N/m) slices of m x m cells, m = 64 - 2t; each slice grown by t cells in
 * every direction is a 64 x 64 block (64 rows of one 64-bit word each) handled by one CUDA
 * block of a single warp (32 threads, "we use CUDA blocks with a single warp").  Thread i
 * owns block rows 2i and 2i + 1.  One kernel:
 *   1. global reads: block row e starts at cell column c0 = sx*m - t, so it is one aligned
 *      word (c0 % 64 == 0) or two; thread i reads (row 2i, word 1), (2i, word 2),
 *      (2i + 1, word 1), (2i + 1, word 2): 4 steps, the second-word ones inactive when
 *      aligned; rows outside the universe are not read with boundary=dead, wrap around with
 *      wrap;
 *   2. shared writes of rows 2i and 2i + 1 (after the shifts that merge the two words) into
 *      buffer 0, then a block barrier;
 *   3. tk steps (tk = t, or T mod t in a last, shorter kernel): read rows 2i-1, 2i, 2i+1,
 *      2i+2 of the current buffer (Figure 6.6: words k, k+2, ..., k+62 for k = -1..2; the
 *      dummy rows -1 and 64 are known zeros, so threads 0 and 31 skip those reads), write
 *      rows 2i and 2i + 1 of the other buffer, block barrier (cells beyond the block are
 *      taken as 0: the dirty boundary of Figure 6.4);
 *   4. global writes of the clean m x m slice: rows t .. t+m-1 of the block, cell columns
 *      sx*m .. sx*m+m-1 (clipped at N), i.e. one or two words per row (a word shared with a
 *      neighbouring slice is a masked write: one request);
 *   and a grid barrier before the next kernel (kernels alternate two global arrays).
 * Shared memory holds 64-bit words: a 64-bit access is one request at its even 32-bit word
 * address, so the DMM sees 16 two-bank pairs (the paper's "16 memory banks with 64-bit
 * width"); 32 requests need at least 2 stages.  The shift arrangement (Figure 6.8) stores
 * block row e in 64-bit slot (e/16)*16 + (e + (e/16 & 1)) % 16: every step above then puts
 * exactly 2 requests on each pair (the minimum), while the regular arrangement (slot e)
 * puts 4 on each of 8 pairs.  Buffers are 64 slots apart. */
#define MS_D 64 /* block side d: 64 cells = one 64-bit word, 64 rows */

typedef enum {
  MS_GREAD,  /* 4: (row 2i + (a>>1), word a&1) */
  MS_SSTORE, /* 2: row 2i + a into buffer 0 */
  MS_SREAD,  /* 4: row 2i - 1 + a */
  MS_SWRITE, /* 2: row 2i + a */
  MS_GWRITE, /* 4: (row 2i + (a>>1), word a&1) */
  MS_BSYNC,
  MS_GSYNC
} MsKind;

typedef struct {
  guint64 N, T, t, m, wpr, ns, blocks;
  gboolean wrap, shift;
  guint64 kernels;
  /* cursor */
  guint64 kernel, tk, sstep;
  int phase, a;
  gboolean finished;
  /* step being filled */
  int cur_phase, cur_a;
  guint64 cur_kernel, cur_sstep;
} Multi;

static guint64 ms_slot(const Multi *M, gint64 e, guint64 buf) {
  guint64 u = (guint64)e;
  guint64 s = M->shift ? (u / 16) * 16 + (u + ((u / 16) & 1)) % 16 : u;
  return 2 * (buf * MS_D + s);
}

/* Global 32-bit word address of 64-bit word (r, w) of array arr, MS_ADDR_NONE when not read. */
static gint64 ms_gaddr(const Multi *M, guint64 arr, gint64 r, gint64 w) {
  const gint64 N = (gint64)M->N, W = (gint64)M->wpr;
  if (M->wrap) {
    r = ((r % N) + N) % N;
    w = ((w % W) + W) % W;
  } else if (r < 0 || r >= N || w < 0 || w >= W) {
    return MS_ADDR_NONE;
  }
  return 2 * ((gint64)arr * N * W + r * W + w);
}

static gint64 floor_div64(gint64 x) { return x >= 0 ? x / 64 : -((-x + 63) / 64); }

static gint64 ms_address(const Multi *M, guint64 g) {
  const guint64 b = g / 32, i = g % 32;
  const gint64 sy = (gint64)(b / M->ns), sx = (gint64)(b % M->ns);
  const gint64 t = (gint64)M->t, m = (gint64)M->m, N = (gint64)M->N;
  const guint64 cur = M->cur_kernel & 1;
  const int a = M->cur_a;
  switch ((MsKind)M->cur_phase) {
  case MS_GREAD: {
    gint64 r = sy * m - t + 2 * (gint64)i + (a >> 1), c0 = sx * m - t;
    gint64 w = floor_div64(c0);
    if ((a & 1) && c0 - 64 * w == 0) return MS_ADDR_NONE; /* aligned: one word */
    return ms_gaddr(M, cur, r, w + (a & 1));
  }
  case MS_SSTORE:
    return (gint64)ms_slot(M, 2 * (gint64)i + a, 0);
  case MS_SREAD: {
    gint64 e = 2 * (gint64)i - 1 + a;
    if (e < 0 || e >= MS_D) return MS_ADDR_NONE; /* dummy rows -1 and 64: zeros */
    return (gint64)ms_slot(M, e, M->cur_sstep & 1);
  }
  case MS_SWRITE:
    return (gint64)ms_slot(M, 2 * (gint64)i + a, (M->cur_sstep & 1) ^ 1);
  case MS_GWRITE: {
    gint64 e = 2 * (gint64)i + (a >> 1);
    if (e < t || e >= t + m) return MS_ADDR_NONE;
    gint64 r = sy * m - t + e;
    if (r >= N) return MS_ADDR_NONE;
    gint64 cs = sx * m, ce = MIN(cs + m, N);
    gint64 w = cs / 64 + (a & 1);
    if (w > (ce - 1) / 64) return MS_ADDR_NONE;
    return ms_gaddr(M, cur ^ 1, r, w);
  }
  default:
    return MS_ADDR_NONE;
  }
}

/* Step list of one kernel: phase order and counts. */
static const int ms_count[] = {4, 2, 4, 2, 4, 1, 1};

static MsNext multi_next(gpointer self, MsStep *step, GError **error) {
  (void)error;
  Multi *M = self;
  if (M->finished) return MS_NEXT_END;
  M->cur_phase = M->phase;
  M->cur_a = M->a;
  M->cur_kernel = M->kernel;
  M->cur_sstep = M->sstep;
  step->space = MS_SPACE_GLOBAL;
  step->scope = MS_SCOPE_BLOCK;
  switch ((MsKind)M->phase) {
  case MS_GREAD: step->op = MS_OP_READ; break;
  case MS_GWRITE: step->op = MS_OP_WRITE; break;
  case MS_SSTORE:
  case MS_SWRITE: step->op = MS_OP_WRITE, step->space = MS_SPACE_SHARED; break;
  case MS_SREAD: step->op = MS_OP_READ, step->space = MS_SPACE_SHARED; break;
  case MS_BSYNC: step->op = MS_OP_SYNC; break;
  case MS_GSYNC: step->op = MS_OP_SYNC, step->scope = MS_SCOPE_GRID; break;
  }
  /* advance the cursor */
  if ((guint)M->phase < G_N_ELEMENTS(ms_count) && ++M->a < ms_count[M->phase]) return MS_NEXT_STEP;
  M->a = 0;
  switch ((MsKind)M->phase) {
  case MS_GREAD: M->phase = MS_SSTORE; break;
  case MS_SSTORE: M->phase = MS_BSYNC; M->sstep = 0; break;
  case MS_BSYNC:
    if (M->sstep < M->tk) M->phase = MS_SREAD;
    else M->phase = MS_GWRITE;
    break;
  case MS_SREAD: M->phase = MS_SWRITE; break;
  case MS_SWRITE: M->phase = MS_BSYNC; M->sstep++; break;
  case MS_GWRITE:
    if (M->kernel + 1 >= M->kernels) M->finished = TRUE;
    else M->phase = MS_GSYNC;
    break;
  case MS_GSYNC:
    M->kernel++;
    M->tk = MIN(M->t, M->T - M->kernel * M->t);
    M->phase = MS_GREAD;
    break;
  }
  return MS_NEXT_STEP;
}

static gboolean multi_fill(gpointer self, guint64 first, guint64 count, gint64 *addr, GError **error) {
  (void)error;
  Multi *M = self;
  for (guint64 k = 0; k < count; k++) addr[k] = ms_address(M, first + k);
  return TRUE;
}

/* fill() is a function of the step and the thread: safe on several workers at once. */
static gboolean multi_fill_worker(gpointer self, guint worker, guint64 first, guint64 count, gint64 *addr,
                              GError **error) {
  (void)worker;
  return multi_fill(self, first, count, addr, error);
}

static const MsSourceFuncs multi_funcs = {multi_next, multi_fill, bpbc_destroy, NULL, multi_fill_worker};

/* DOUBLE-WORD (section 6.3) on rows K and L given the rows above and below and the words left
 * and right of each: the next states of K and L. */
static void double_word(guint64 up, guint64 upl, guint64 upr, guint64 K, guint64 kl, guint64 kr, guint64 L,
                        guint64 ll, guint64 lr, guint64 dn, guint64 dl, guint64 dr, guint64 *nk, guint64 *nl) {
#define WEST(c, l) (((c) << 1) | ((l) >> 63))
#define EAST(c, r) (((c) >> 1) | ((r) << 63))
  guint64 A = WEST(up, upl), Bw = up, C = EAST(up, upr), D = WEST(K, kl), E = EAST(K, kr);
  guint64 I = WEST(L, ll), J = EAST(L, lr), F = WEST(dn, dl), Gw = dn, H = EAST(dn, dr);
#undef WEST
#undef EAST
  guint64 de1 = D & E, de0 = D ^ E, ij1 = I & J, ij0 = I ^ J;
  guint64 ab1 = A & Bw, ab0 = A ^ Bw, cl1 = C & L, cl0 = C ^ L;
  guint64 fg1 = F & Gw, fg0 = F ^ Gw, hk1 = H & K, hk0 = H ^ K;
  guint64 m0 = de0 ^ ij0, m1 = de1 ^ ij1 ^ (de0 & ij0), m2 = de1 & ij1;
  guint64 p0 = ab0 ^ cl0, p1 = ab1 ^ cl1 ^ (ab0 & cl0), p2 = ab1 & cl1;
  guint64 q0 = fg0 ^ hk0, q1 = fg1 ^ hk1 ^ (fg0 & hk0), q2 = fg1 & hk1;
  guint64 k0 = p0 ^ m0, kx = p0 & m0, ky = p1 ^ m1, k1 = kx ^ ky;
  guint64 k23 = p2 | m2 | (p1 & m1) | (kx & ky);
  guint64 l0 = q0 ^ m0, lx = q0 & m0, ly = q1 ^ m1, l1 = lx ^ ly;
  guint64 l23 = q2 | m2 | (q1 & m1) | (lx & ly);
  guint64 kz = ~k23 & k1, lz = ~l23 & l1;
  *nk = (K & ~k0 & kz) | (k0 & kz);
  *nl = (L & ~l0 & lz) | (l0 & lz);
}

/* Runs the multistep algorithm itself (block extraction with shifts, t DOUBLE-WORD steps per
 * block with zero outside it, clean-slice write-back) and compares with the naive simulator. */
static gboolean verify_multistep(const Multi *M, guint64 seed, GError **error) {
  const guint64 N = M->N, W = M->wpr, s_ = seed;
  guint64 s = s_;
  guint8 *ref = g_new(guint8, N * N);
  for (guint64 i = 0; i < N * N; i++) ref[i] = (guint8)(ms_rand_below(&s, 3) == 0); /* density 1/3 */
  guint64 *u = g_new0(guint64, N * W), *v = g_new0(guint64, N * W);
  for (guint64 i = 0; i < N * N; i++) u[i / 64] |= (guint64)ref[i] << (i % 64);
  life_naive(ref, N, M->T, M->wrap, FALSE);
  const gint64 t = (gint64)M->t, m = (gint64)M->m, Ni = (gint64)N, Wi = (gint64)W;
  guint64 blk[2][MS_D];
  for (guint64 k = 0; k < M->kernels; k++) {
    const guint64 tk = MIN(M->t, M->T - k * M->t);
    memset(v, 0, N * W * sizeof *v);
    for (guint64 b = 0; b < M->blocks; b++) {
      const gint64 sy = (gint64)(b / M->ns), sx = (gint64)(b % M->ns);
      const gint64 r0 = sy * m - t, c0 = sx * m - t, w0 = floor_div64(c0), off = c0 - 64 * w0;
      for (gint64 e = 0; e < MS_D; e++) {
        gint64 a0 = ms_gaddr(M, 0, r0 + e, w0), a1 = off ? ms_gaddr(M, 0, r0 + e, w0 + 1) : MS_ADDR_NONE;
        guint64 x0 = a0 < 0 ? 0 : u[a0 / 2], x1 = a1 < 0 ? 0 : u[a1 / 2];
        blk[0][e] = (x0 >> off) | (off ? x1 << (64 - off) : 0);
      }
      /* boundary=dead: cells of the block outside the universe stay dead (masked in registers) */
      guint64 cols = ~G_GUINT64_CONSTANT(0);
      if (!M->wrap)
        for (gint64 j = 0; j < 64; j++)
          if (c0 + j < 0 || c0 + j >= Ni) cols &= ~(G_GUINT64_CONSTANT(1) << j);
      int c = 0;
      for (guint64 st = 0; st < tk; st++) {
        for (int i = 0; i < 32; i++) {
          guint64 up = i ? blk[c][2 * i - 1] : 0, dn = i < 31 ? blk[c][2 * i + 2] : 0;
          double_word(up, 0, 0, blk[c][2 * i], 0, 0, blk[c][2 * i + 1], 0, 0, dn, 0, 0, &blk[c ^ 1][2 * i],
                      &blk[c ^ 1][2 * i + 1]);
        }
        c ^= 1;
        if (!M->wrap)
          for (gint64 e = 0; e < MS_D; e++) blk[c][e] &= (r0 + e < 0 || r0 + e >= Ni) ? 0 : cols;
      }
      const gint64 cs = sx * m, ce = MIN(cs + m, Ni);
      for (gint64 e = t; e < t + m && r0 + e < Ni; e++) {
        for (gint64 w = cs / 64; w <= (ce - 1) / 64; w++) {
          gint64 lo = MAX(cs, 64 * w) - 64 * w, hi = MIN(ce, 64 * w + 64) - 64 * w; /* bits [lo, hi) */
          guint64 mask = (hi - lo == 64 ? ~G_GUINT64_CONSTANT(0) : ((G_GUINT64_CONSTANT(1) << (hi - lo)) - 1)) << lo;
          gint64 sh = 64 * w - c0; /* bit b of word w is block bit b + sh */
          guint64 val = sh >= 64 ? 0 : sh >= 0 ? blk[c][e] >> sh : blk[c][e] << -sh;
          v[(r0 + e) * Wi + w] |= val & mask;
        }
      }
    }
    guint64 *x = u;
    u = v;
    v = x;
  }
  gboolean ok = TRUE;
  for (guint64 i = 0; i < N * N && ok; i++) ok = ((u[i / 64] >> (i % 64)) & 1u) == ref[i];
  g_free(u);
  g_free(v);
  g_free(ref);
  if (!ok)
    g_set_error(error, MS_ERROR, MS_ERROR_VERIFY,
                "bpbc life-multistep: the universe after %" G_GUINT64_FORMAT
                " steps differs from the straightforward simulator",
                M->T);
  return ok;
}

static MsSource *multistep_source(GHashTable *params, guint64 N, guint64 T, guint64 seed, gboolean wrap,
                                  const char *boundary, GError **error) {
  guint64 t;
  const char *key = g_hash_table_contains(params, "steps_per_launch") ? "steps_per_launch" : "steps-per-kernel";
  if (!ms_param_uint(params, key, 8, 1, 31, &t, error)) return NULL;
  const char *arr = ms_param_str(params, "arrangement", "shift");
  if (strcmp(arr, "shift") != 0 && strcmp(arr, "regular") != 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "--arrangement: expected shift or regular, got \"%s\"", arr);
    return NULL;
  }
  Multi *M = g_new0(Multi, 1);
  M->N = N;
  M->T = T;
  M->t = t;
  M->m = MS_D - 2 * t;
  M->wpr = N / 64;
  M->ns = (N + M->m - 1) / M->m;
  M->blocks = M->ns * M->ns;
  M->wrap = wrap;
  M->shift = strcmp(arr, "shift") == 0;
  M->kernels = (T + t - 1) / t;
  M->tk = MIN(t, T);
  M->phase = MS_GREAD;
  if (M->blocks * 32 > (G_GUINT64_CONSTANT(1) << 32)) {
    g_set_error(error, MS_ERROR, MS_ERROR_LIMIT, "bpbc life-multistep: too many blocks");
    g_free(M);
    return NULL;
  }
  if (!verify_multistep(M, seed, error)) {
    g_free(M);
    return NULL;
  }
  char *name = g_strdup_printf("bpbc life-multistep size=%" G_GUINT64_FORMAT " steps=%" G_GUINT64_FORMAT
                               " steps-per-kernel=%" G_GUINT64_FORMAT " %s %s",
                               N, T, t, boundary, arr);
  MsSource *src = ms_source_new(name, M->blocks * 32, 32, &multi_funcs, M);
  ms_source_set_shared_words(src, 2 * 2 * MS_D); /* two buffers of 64 64-bit words */
  ms_source_set_global_words(src, 2 * 2 * N * M->wpr); /* two universes of 64-bit words */
  g_free(name);
  return src;
}

MsSource *ms_bpbc_source(const char *algorithm, GHashTable *params, GError **error) {
  static const char *const known[] = {"bits", "k", "instances", "size", "steps", "seed", "boundary",
                                      "steps-per-kernel", "steps_per_launch", "arrangement", "unroll", NULL};
  if (!ms_param_check(params, known, "bpbc", error)) return NULL;
  int alg = -1;
  for (int i = 0; algorithm && alg_names[i]; i++)
    if (strcmp(algorithm, alg_names[i]) == 0) alg = i;
  if (alg < 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "bpbc: unknown algorithm \"%s\" (pairwise-sum, pairwise-sum-naive, life-word, life-single, "
                "life-double)",
                algorithm ? algorithm : "");
    return NULL;
  }
  guint64 K, M, N, T, seed, unroll;
  if (!ms_param_uint(params, "unroll", 1, 1, 8, &unroll, error)) return NULL;
  if (unroll > 1 && alg != PAIRWISE) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "bpbc: --unroll applies to pairwise-sum only");
    return NULL;
  }
  if (!ms_param_uint(params, "bits", 32, 1, 32, &K, error) ||
      !ms_param_uint(params, "k", K, 1, 32, &K, error) ||
      !ms_param_uint(params, "instances", 1u << 20, 1, 1u << 30, &M, error) ||
      !ms_param_uint(params, "size", 256, 64, 1u << 15, &N, error) ||
      !ms_param_uint(params, "steps", 1, 1, 1u << 20, &T, error) ||
      !ms_param_uint(params, "seed", 1, 0, G_MAXUINT64, &seed, error))
    return NULL;
  const char *boundary = ms_param_str(params, "boundary", "wrap");
  if (strcmp(boundary, "wrap") != 0 && strcmp(boundary, "dead") != 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "--boundary: expected wrap or dead, got \"%s\"", boundary);
    return NULL;
  }
  {
    /* the verifiers' memory: the bit planes (pairwise), or the universes and the reference */
    char *what = g_strdup_printf("bpbc %s: verifying", algorithm);
    gboolean fits = ms_workload_memory_check(what, alg <= PAIRWISE_NAIVE ? 13.0 * (double)M : 5.0 * (double)N * (double)N, error);
    g_free(what);
    if (!fits) return NULL;
  }
  if (alg == LIFE_MULTISTEP) {
    if (N % 64) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "--size: %" G_GUINT64_FORMAT " is not a multiple of 64", N);
      return NULL;
    }
    return multistep_source(params, N, T, seed, strcmp(boundary, "wrap") == 0, boundary, error);
  }
  Bpbc *B = g_new0(Bpbc, 1);
  B->alg = (Alg)alg;
  B->K = K;
  B->M = M;
  B->G = (M + 31) / 32;
  B->N = N;
  B->T = alg <= PAIRWISE_NAIVE ? 1 : T;
  B->wrap = strcmp(boundary, "wrap") == 0;
  gboolean ok;
  char *name;
  if (alg <= PAIRWISE_NAIVE) {
    B->threads = alg == PAIRWISE ? B->G : M;
    B->accesses = alg == PAIRWISE ? (guint)(3 * K + (K < 32)) : 3;
    if (alg == PAIRWISE) pairwise_order(B, unroll);
    ok = verify_pairwise(B, seed, error);
    name = g_strdup_printf("bpbc %s bits=%" G_GUINT64_FORMAT " instances=%" G_GUINT64_FORMAT, algorithm, K, M);
  } else {
    if (N % 64) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "--size: %" G_GUINT64_FORMAT " is not a multiple of 64", N);
      g_free(B);
      return NULL;
    }
    B->wpr = alg == LIFE_WORD ? N : alg == LIFE_SINGLE ? N / 32 : N / 64;
    B->rt = (B->wpr + 31) / 32 * 32;
    B->threads = alg == LIFE_WORD ? N * N : alg == LIFE_SINGLE ? N * B->rt : (N / 2) * B->rt;
    B->accesses = alg == LIFE_DOUBLE ? 14 : 10;
    ok = verify_life(B, seed, error);
    name = g_strdup_printf("bpbc %s size=%" G_GUINT64_FORMAT " steps=%" G_GUINT64_FORMAT " %s", algorithm, N, T,
                           boundary);
  }
  if (!ok) {
    g_free(B);
    g_free(name);
    return NULL;
  }
  MsSource *src = ms_source_new(name, B->threads, B->threads, &bpbc_funcs, B);
  ms_source_set_global_words(src, bpbc_global_words(B));
  g_free(name);
  return src;
}
