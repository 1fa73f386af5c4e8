/* ms-toom.c: Toom-k multiplication of P products, two kernels (seed 002 section 3.3.2).
 *
 * The seed evaluates A(x) and B(x) at 2k - 1 points, multiplies each pair in a first kernel
 * (one warp a point, sum-rotate repeated Comba-wise above 1024 bits), and interpolates and
 * recomposes in a second kernel, one thread a product.  The text does not give its
 * evaluation points or its interpolation, so this is the project's version, written so that
 * every part is oblivious (the addresses never depend on the data) and exact in integers:
 *
 *   w = bits / 32 words, n = ceil(w / k) words a part (the operands zero-padded to k n words),
 *   points x = 0, infinity, 1, 2, ..., N with N = 2k - 3: no negative point, so that no
 *   evaluated operand has a sign.  m = n + 1: an evaluated operand (sum of x^j A_j with
 *   x^j <= 15^8 < 2^32) takes one word more than a part.
 *
 * Kernel 1, one thread per point and product (the point g = tid / P, the product q = tid % P;
 * g = 0 is x = 0, g = 1 is infinity, g >= 2 is x = g - 1):
 *   g = 0, 1:  Comba (Algorithm 2) of A's and B's part 0 (or part k - 1), n words each,
 *              into V_g (2n words);
 *   g >= 2:    EA = A(x) (n + 1 words: for each word y, the k words A[j n + y] are read and
 *              x^j-weighted), EB = B(x), then Comba of EA and EB into V_g (2m words).
 *   Comba reads a_j and b_{c-j} at each word product of column c, except where the register
 *   already holds that word (a_0 into column 1, a_{m-1} into column 2m - 2): 2m^2 - 2 reads and
 *   2m writes, Table 3.1.
 * Kernel 2, one thread per product, with N work arrays W_1 .. W_N of L = 2n + 4 words,
 * two's complement (all arithmetic mod 2^(32L), exact where it counts):
 *   1. W_i = (V_i - V_{i-1}) - (i^e - (i-1)^e) V_inf, e = 2k - 2 (the first divided
 *      differences of C(x) - C_inf x^e, whose degree is N); V_0 stays in V (W_0 = V_0);
 *   2. divided differences: for r = 2 .. N, i = N .. r: W_i = (W_i - W_{i-1}) / r, the
 *      exact division by r's odd part by its inverse mod 2^32 from the low word up, then an
 *      arithmetic shift by r's power of two (a word's result is written one word late);
 *   3. Newton to monomial form: for s = N-1 .. 1, t = s .. N-1: W_t = W_t - s W_{t+1}; then
 *      C_0 = V_0, C_t = W_t (1 <= t <= N), C_{2k-2} = V_inf;
 *   4. C = sum_t C_t 2^(32 n t): for each output word z < 2w, the words z - n t of the C_t
 *      that have one (2n of C_0 and C_inf, 2n + 1 of the others), then one write.
 * Global memory, column-wise across products (slot s of product q at base + s P + q):
 *   A, B: k n slots; EA, EB: m (2k-1) slots (slot y (2k-1) + g); V: (2n+2)(2k-1) slots
 *   (slot z (2k-1) + g); W: L N slots (slot y N + i - 1); C: 2w slots.
 * So every access of a warp is one coalesced 128-byte group when 32 | P.
 *
 * The few checked products are executed here on data, access by access (exec_*); each
 * thread's sequence of (op, address) is hashed and compared with the same thread's
 * addresses read back from the trace text, and the products are compared with mpz_mul. */
#include "mul/ms-toom.h"
#include "mul/ms-mul.h"
#include <gmp.h>
#include <string.h>

enum { AR_A, AR_B, AR_EA, AR_EB, AR_V, AR_W, AR_C, AR_N };
static const char *const ar_names[AR_N] = {"A", "B", "EA", "EB", "V", "W", "C"};

#define CHECK_MAX 3u

gboolean ms_toom_is(const char *algorithm, guint *k) {
  if (!algorithm || strncmp(algorithm, "toom-", 5) != 0 || algorithm[5] < '2' || algorithm[5] > '9' || algorithm[6])
    return FALSE;
  if (k) *k = (guint)(algorithm[5] - '0');
  return TRUE;
}

guint32 ms_toom_word(guint64 seed, guint64 o, guint64 q, guint64 products, guint64 w, guint64 x) {
  guint64 z = seed * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15) +
              ((o * products + q) * w + x + 1) * G_GUINT64_CONSTANT(0xD1B54A32D192ED03);
  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT(0x94d049bb133111eb);
  return (guint32)((z ^ (z >> 31)) >> 32);
}

/* ---- the shape -------------------------------------------------------------------------- */

typedef struct {
  guint k;
  guint64 w, n, m, N, PT, L, P;
  guint64 slots[AR_N], base[AR_N];
} Shape;

static void shape_init(Shape *s, guint k, guint64 w, guint64 P) {
  s->k = k;
  s->w = w;
  s->n = (w + k - 1) / k;
  s->m = s->n + 1;
  s->N = 2 * (guint64)k - 3;
  s->PT = 2 * (guint64)k - 1;
  s->L = 2 * s->n + 4;
  s->P = P;
  s->slots[AR_A] = s->slots[AR_B] = k * s->n;
  s->slots[AR_EA] = s->slots[AR_EB] = s->m * s->PT;
  s->slots[AR_V] = (2 * s->n + 2) * s->PT;
  s->slots[AR_W] = s->L * s->N;
  s->slots[AR_C] = 2 * w;
  guint64 b = 0;
  for (int a = 0; a < AR_N; a++) {
    s->base[a] = b;
    b += s->slots[a] * P;
  }
}

static guint64 shape_words(const Shape *s) { return s->base[AR_C] + s->slots[AR_C] * s->P; }

/* ---- execution of one product ------------------------------------------------------------ */

/* The product's threads: kernel 1's g = 0 .. 2k-2 (tid g P + q); kernel 2's is tid q, the same
 * thread as g = 0, so its accesses continue g = 0's sequence. */
typedef struct {
  const Shape *s;
  guint64 q;
  guint32 *val[AR_N]; /* this product's slots */
  guint64 *hash, *count; /* per g */
  guint64 reads1, writes1, reads2, writes2, mults;
  gboolean k2; /* in kernel 2 */
} Exec;

static inline void mix(guint64 *h, guint64 x) {
  guint64 z = (*h ^ x) * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15);
  *h = z ^ (z >> 29);
}

static inline guint32 rd(Exec *e, guint g, int ar, guint64 slot) {
  g_assert(slot < e->s->slots[ar]);
  mix(&e->hash[g], (e->s->base[ar] + slot * e->s->P + e->q) * 2);
  e->count[g]++;
  if (e->k2) e->reads2++;
  else e->reads1++;
  return e->val[ar][slot];
}

static inline void wr(Exec *e, guint g, int ar, guint64 slot, guint32 v) {
  g_assert(slot < e->s->slots[ar]);
  mix(&e->hash[g], (e->s->base[ar] + slot * e->s->P + e->q) * 2 + 1);
  e->count[g]++;
  if (e->k2) e->writes2++;
  else e->writes1++;
  e->val[ar][slot] = v;
}

/* Comba (Algorithm 2) of m-word a (slot a0 + j as) and b into o (2m words, slot o0 + c os):
 * an operand is read unless the register already holds it. */
static void exec_comba(Exec *e, guint g, int aa, guint64 a0, guint64 as, int bb, guint64 b0, guint64 bs, guint64 m,
                       guint64 o0, guint64 os) {
  guint32 ra = 0, rb = 0;
  guint64 ja = G_MAXUINT64, jb = G_MAXUINT64;
  unsigned __int128 acc = 0; /* {t, u, v} */
  for (guint64 c = 0; c + 1 < 2 * m; c++) {
    const guint64 lo = c >= m ? c - m + 1 : 0, hi = MIN(c, m - 1);
    for (guint64 j = lo; j <= hi; j++) {
      if (ja != j) ra = rd(e, g, aa, a0 + j * as), ja = j;
      if (jb != c - j) rb = rd(e, g, bb, b0 + (c - j) * bs), jb = c - j;
      acc += (guint64)ra * rb;
      e->mults++;
    }
    wr(e, g, AR_V, o0 + c * os, (guint32)acc);
    acc >>= 32;
  }
  wr(e, g, AR_V, o0 + (2 * m - 1) * os, (guint32)acc);
}

static void exec_kernel1(Exec *e) {
  const Shape *s = e->s;
  for (guint g = 0; g < s->PT; g++) {
    if (g < 2) { /* x = 0: part 0; infinity: part k - 1 */
      const guint64 off = g == 0 ? 0 : (s->k - 1) * s->n;
      exec_comba(e, g, AR_A, off, 1, AR_B, off, 1, s->n, g, s->PT);
      continue;
    }
    const guint64 x = g - 1;
    for (int o = 0; o < 2; o++) { /* EA = A(x), EB = B(x) */
      unsigned __int128 acc = 0;
      for (guint64 y = 0; y < s->n; y++) {
        guint64 xp = 1;
        for (guint j = 0; j < s->k; j++, xp *= x) acc += (unsigned __int128)xp * rd(e, g, o ? AR_B : AR_A, j * s->n + y);
        wr(e, g, o ? AR_EB : AR_EA, y * s->PT + g, (guint32)acc);
        acc >>= 32;
      }
      wr(e, g, o ? AR_EB : AR_EA, s->n * s->PT + g, (guint32)acc);
    }
    exec_comba(e, g, AR_EA, g, s->PT, AR_EB, g, s->PT, s->m, g, s->PT);
  }
}

static guint32 inverse32(guint32 o) { /* o odd: o^-1 mod 2^32 by Newton's iteration */
  guint32 x = o;
  for (int i = 0; i < 5; i++) x *= 2 - o * x;
  return x;
}

static guint32 sar32(guint32 v, guint s) { /* arithmetic shift right of a two's complement word */
  return (v & 0x80000000u) ? ~(~v >> s) : v >> s;
}

static guint64 upow(guint64 b, guint e) {
  guint64 r = 1;
  while (e--) r *= b;
  return r;
}

static void exec_kernel2(Exec *e) {
  const Shape *s = e->s;
  const guint64 n = s->n, N = s->N, L = s->L, PT = s->PT;
  const guint k = s->k, ex = 2 * k - 2;
  e->k2 = TRUE;
  /* 1. first divided differences of C(x) - C_inf x^e */
  for (guint64 i = 1; i <= N; i++) {
    const guint64 gi = i + 1, gp = i == 1 ? 0 : i, lp = i == 1 ? 2 * n : 2 * n + 2;
    const guint64 d = upow(i, ex) - upow(i - 1, ex);
    __int128 acc = 0;
    for (guint64 y = 0; y < L; y++) {
      const guint32 a = y < 2 * n + 2 ? rd(e, 0, AR_V, y * PT + gi) : 0;
      const guint32 b = y < lp ? rd(e, 0, AR_V, y * PT + gp) : 0;
      const guint32 c = y < 2 * n ? rd(e, 0, AR_V, y * PT + 1) : 0;
      acc += (__int128)a - b - (__int128)d * c;
      wr(e, 0, AR_W, y * N + i - 1, (guint32)acc);
      acc >>= 32;
    }
  }
  /* 2. divided differences r = 2 .. N */
  for (guint64 r = 2; r <= N; r++) {
    const guint sh = (guint)__builtin_ctzll(r);
    const guint32 o = (guint32)(r >> sh), inv = inverse32(o);
    for (guint64 i = N; i >= r; i--) {
      gint64 dacc = 0;
      guint32 borrow = 0, prev = 0;
      for (guint64 y = 0; y < L; y++) {
        const guint32 a = rd(e, 0, AR_W, y * N + i - 1), b = rd(e, 0, AR_W, y * N + i - 2);
        const gint64 dv = (gint64)a - (gint64)b + dacc;
        const guint32 d = (guint32)dv;
        dacc = dv >> 32;
        const guint32 t = d - borrow, b1 = d < borrow, qy = t * inv;
        borrow = (guint32)(((guint64)qy * o) >> 32) + b1;
        if (y >= 1) wr(e, 0, AR_W, (y - 1) * N + i - 1, sh ? (prev >> sh) | (qy << (32 - sh)) : prev);
        prev = qy;
      }
      wr(e, 0, AR_W, (L - 1) * N + i - 1, sar32(prev, sh));
    }
  }
  /* 3. Newton to monomial form */
  for (guint64 sc = N - 1; sc >= 1 && N >= 2; sc--) {
    for (guint64 t = sc; t <= N - 1; t++) {
      gint64 acc = 0;
      for (guint64 y = 0; y < L; y++) {
        const guint32 a = rd(e, 0, AR_W, y * N + t - 1), b = rd(e, 0, AR_W, y * N + t);
        acc += (gint64)a - (gint64)sc * b;
        wr(e, 0, AR_W, y * N + t - 1, (guint32)acc);
        acc >>= 32;
      }
    }
  }
  /* 4. recomposition */
  guint64 acc = 0;
  for (guint64 z = 0; z < 2 * s->w; z++) {
    for (guint64 t = 0; t <= 2 * (guint64)k - 2; t++) {
      if (z < n * t) continue;
      const guint64 y = z - n * t, top = t == 0 || t == 2 * (guint64)k - 2;
      if (y >= (top ? 2 * n : 2 * n + 1)) continue;
      acc += t == 0 ? rd(e, 0, AR_V, y * PT) : top ? rd(e, 0, AR_V, y * PT + 1) : rd(e, 0, AR_W, y * N + t - 1);
    }
    wr(e, 0, AR_C, z, (guint32)acc);
    acc >>= 32;
  }
}

/* ---- the trace text ---------------------------------------------------------------------- */

#define U "%" G_GUINT64_FORMAT

/* Comba of m-word operands a (address expression of j: AJ) and b (BJ) into V, for the
 * threads of `when`. */
static void text_comba(GString *t, const char *m, const char *aj, const char *bj, const char *when) {
  g_string_append_printf(t,
      "  {\"repeat\": \"2*%s-1\", \"var\": \"c\", \"steps\": [\n"
      "   {\"repeat\": \"min(c, %s-1) - max(0, c-%s+1) + 1\", \"var\": \"jj\", \"steps\": [\n"
      "    {\"op\": \"read\", \"addr\": \"%s\", \"when\": \"%s && !(c == 1 && jj == 0) && c != 2*%s-2\"},\n"
      "    {\"op\": \"read\", \"addr\": \"%s\", \"when\": \"%s\"}]},\n"
      "   {\"op\": \"write\", \"addr\": \"V[c*PT*P + tid]\", \"when\": \"%s\"}]},\n"
      "  {\"op\": \"write\", \"addr\": \"V[(2*%s-1)*PT*P + tid]\", \"when\": \"%s\"},\n",
      m, m, m, aj, when, m, bj, when, when, m, when);
}

static char *trace_text(const Shape *s, const char *algorithm, guint64 bits, guint64 tpb, guint64 threads) {
  GString *t = g_string_new(NULL);
  g_string_append_printf(t,
      "{\"memsim_trace\": 1, \"form\": \"compact\",\n"
      " \"name\": \"mul %s bits=" U " products=" U " (seed 002 section 3.3.2: 2k-1 point products, then "
      "interpolation, one thread a product)\",\n"
      " \"threads\": " U ", \"block_threads\": " U ", \"global_words\": " U ",\n"
      " \"constants\": {\"P\": " U ", \"k\": %u, \"n\": " U ", \"m\": " U ", \"N\": " U ", \"PT\": " U
      ", \"L\": " U ", \"w\": " U "},\n \"arrays\": {",
      algorithm, bits, s->P, threads, MIN(tpb, threads), shape_words(s), s->P, s->k, s->n, s->m, s->N, s->PT, s->L,
      s->w);
  for (int a = 0; a < AR_N; a++)
    g_string_append_printf(t, "%s\"%s\": {\"base\": " U ", \"length\": " U "}", a ? ", " : "", ar_names[a], s->base[a],
                           s->slots[a] * s->P);
  g_string_append(t, "},\n \"steps\": [\n");
  /* kernel 1: x = 0 and infinity (tid < 2P) */
  text_comba(t, "n", "A[((tid < P ? 0 : (k-1)*n) + max(0, c-n+1) + jj)*P + tid % P]",
             "B[((tid < P ? 0 : (k-1)*n) + c - max(0, c-n+1) - jj)*P + tid % P]", "tid < 2*P");
  /* x = 1 .. N (tid >= 2P): evaluation, then Comba of m = n + 1 words */
  for (int o = 0; o < 2; o++)
    g_string_append_printf(t,
        "  {\"repeat\": \"n\", \"var\": \"y\", \"steps\": [\n"
        "   {\"repeat\": \"k\", \"var\": \"j\", \"steps\": [\n"
        "    {\"op\": \"read\", \"addr\": \"%s[(j*n + y)*P + tid %% P]\", \"when\": \"tid >= 2*P\"}]},\n"
        "   {\"op\": \"write\", \"addr\": \"%s[y*PT*P + tid]\", \"when\": \"tid >= 2*P\"}]},\n"
        "  {\"op\": \"write\", \"addr\": \"%s[n*PT*P + tid]\", \"when\": \"tid >= 2*P\"},\n",
        o ? "B" : "A", o ? "EB" : "EA", o ? "EB" : "EA");
  text_comba(t, "m", "EA[(max(0, c-m+1) + jj)*PT*P + tid]", "EB[(c - max(0, c-m+1) - jj)*PT*P + tid]", "tid >= 2*P");
  g_string_append(t, "  {\"op\": \"sync\", \"scope\": \"grid\"},\n");
  /* kernel 2 (tid < P): 1. first divided differences */
  g_string_append(t,
      "  {\"repeat\": \"N\", \"var\": \"ii\", \"steps\": [\n"
      "   {\"repeat\": \"L\", \"var\": \"y\", \"steps\": [\n"
      "    {\"op\": \"read\", \"addr\": \"V[(y*PT + ii + 2)*P + tid]\", \"when\": \"tid < P && y < 2*n + 2\"},\n"
      "    {\"op\": \"read\", \"addr\": \"V[(y*PT + (ii == 0 ? 0 : ii + 1))*P + tid]\", "
      "\"when\": \"tid < P && y < (ii == 0 ? 2*n : 2*n + 2)\"},\n"
      "    {\"op\": \"read\", \"addr\": \"V[(y*PT + 1)*P + tid]\", \"when\": \"tid < P && y < 2*n\"},\n"
      "    {\"op\": \"write\", \"addr\": \"W[(y*N + ii)*P + tid]\", \"when\": \"tid < P\"}]}]},\n");
  /* 2. divided differences r = rr + 2, i = N - ii (a word written one word late) */
  g_string_append(t,
      "  {\"repeat\": \"N - 1\", \"var\": \"rr\", \"steps\": [\n"
      "   {\"repeat\": \"N - rr - 1\", \"var\": \"ii\", \"steps\": [\n"
      "    {\"repeat\": \"L\", \"var\": \"y\", \"steps\": [\n"
      "     {\"op\": \"read\", \"addr\": \"W[(y*N + N - ii - 1)*P + tid]\", \"when\": \"tid < P\"},\n"
      "     {\"op\": \"read\", \"addr\": \"W[(y*N + N - ii - 2)*P + tid]\", \"when\": \"tid < P\"},\n"
      "     {\"op\": \"write\", \"addr\": \"W[((y-1)*N + N - ii - 1)*P + tid]\", \"when\": \"tid < P && y >= 1\"}]},\n"
      "    {\"op\": \"write\", \"addr\": \"W[((L-1)*N + N - ii - 1)*P + tid]\", \"when\": \"tid < P\"}]}]},\n");
  /* 3. Newton to monomial: s = N - 1 - ss, t = s + tt */
  g_string_append(t,
      "  {\"repeat\": \"N - 1\", \"var\": \"ss\", \"steps\": [\n"
      "   {\"repeat\": \"ss + 1\", \"var\": \"tt\", \"steps\": [\n"
      "    {\"repeat\": \"L\", \"var\": \"y\", \"steps\": [\n"
      "     {\"op\": \"read\", \"addr\": \"W[(y*N + N - 2 - ss + tt)*P + tid]\", \"when\": \"tid < P\"},\n"
      "     {\"op\": \"read\", \"addr\": \"W[(y*N + N - 1 - ss + tt)*P + tid]\", \"when\": \"tid < P\"},\n"
      "     {\"op\": \"write\", \"addr\": \"W[(y*N + N - 2 - ss + tt)*P + tid]\", \"when\": \"tid < P\"}]}]}]},\n");
  /* 4. recomposition */
  g_string_append(t,
      "  {\"repeat\": \"2*w\", \"var\": \"z\", \"steps\": [\n"
      "   {\"repeat\": \"2*k - 1\", \"var\": \"t\", \"steps\": [\n"
      "    {\"op\": \"read\", \"addr\": \"t == 0 ? V[z*PT*P + tid] : t == 2*k - 2 ? V[((z - n*t)*PT + 1)*P + tid] : "
      "W[((z - n*t)*N + t - 1)*P + tid]\", "
      "\"when\": \"tid < P && z >= n*t && z - n*t < (t == 0 || t == 2*k - 2 ? 2*n : 2*n + 1)\"}]},\n"
      "   {\"op\": \"write\", \"addr\": \"C[z*P + tid]\", \"when\": \"tid < P\"}]}\n ]}\n");
  return g_string_free(t, FALSE);
}

/* ---- counts ------------------------------------------------------------------------------ */

void ms_toom_counts(guint k, guint64 w, MsToomInfo *o) {
  const guint64 n = w / k, m = n + 1, N = 2 * (guint64)k - 3, L = 2 * n + 4;
  memset(o, 0, sizeof *o);
  o->k = k;
  o->w = w;
  o->n = n;
  o->points = 2 * (guint64)k - 1;
  o->work_words = L;
  o->mults = 2 * n * n + N * m * m;
  o->reads1 = 2 * (2 * n * n - 2) + N * (2 * k * n + 2 * m * m - 2);
  o->writes1 = 2 * 2 * n + N * (2 * m + 2 * m);
  /* 1: V_i (2n+2), V_{i-1} (2n for i = 1, else 2n+2), V_inf (2n); 2 and 3: N(N-1)/2 each of
   * 2L reads, L writes; 4: 2n + N (2n+1) + 2n reads, 2w writes */
  o->reads2 = N * (2 * n + 2) + (2 * n + (N - 1) * (2 * n + 2)) + N * 2 * n + N * (N - 1) * 2 * L +
              2 * n + N * (2 * n + 1) + 2 * n;
  o->writes2 = N * L + N * (N - 1) * L + 2 * w;
}

/* ---- the family -------------------------------------------------------------------------- */

static void to_mpz(mpz_t z, const guint32 *w, gsize n) { mpz_import(z, n, -1, sizeof(guint32), 0, 0, w); }

/* Walk the trace: the checked threads' (op, address) hashes and counts. */
static gboolean walk_trace(const char *text, const Shape *s, const guint64 *qs, guint nq, guint64 *hash, guint64 *count,
                           GError **error) {
  MsSource *src = ms_trace_open_memory(text, strlen(text), "toom", error);
  if (!src) return FALSE;
  MsStep st;
  MsNext r;
  gboolean ok = TRUE;
  while ((r = ms_source_next(src, &st, error)) == MS_NEXT_STEP) {
    if (st.op != MS_OP_READ && st.op != MS_OP_WRITE) continue;
    guint64 lo, hi;
    ms_source_active_range(src, &lo, &hi);
    for (guint c = 0; c < nq; c++)
      for (guint64 g = 0; g < s->PT; g++) {
        const guint64 tid = g * s->P + qs[c];
        if (tid < lo || tid >= hi) continue;
        gint64 a;
        if (!ms_source_fill(src, tid, 1, &a, error)) {
          ok = FALSE;
          goto out;
        }
        if (a == MS_ADDR_NONE) continue;
        mix(&hash[c * s->PT + g], (guint64)a * 2 + (st.op == MS_OP_WRITE));
        count[c * s->PT + g]++;
      }
  }
  if (r == MS_NEXT_ERROR) ok = FALSE;
out:
  ms_source_free(src);
  return ok;
}

char *ms_toom_compact(const char *algorithm, GHashTable *params, MsToomInfo *info, GError **error) {
  static const char *const known[] = {"bits", "products", "threads_per_block", "seed", NULL};
  guint k;
  if (!ms_toom_is(algorithm, &k)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "mul: unknown algorithm \"%s\" (toom-2 ... toom-9)", algorithm);
    return NULL;
  }
  if (!ms_param_check(params, known, "mul", error)) return NULL;
  guint64 bits, P, tpb, seed;
  if (!ms_param_uint(params, "bits", 4096, 64, 1u << 20, &bits, error) ||
      !ms_param_uint(params, "products", 1024, 1, G_GUINT64_CONSTANT(1) << 26, &P, error) ||
      !ms_param_uint(params, "threads_per_block", 128, 32, 1024, &tpb, error) ||
      !ms_param_uint(params, "seed", 1, 0, G_MAXUINT64, &seed, error))
    return NULL;
  if (bits % 32 || bits / 32 < 2 * (guint64)k) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "mul %s: bits: " U " is not a multiple of 32 of at least %u (two words a part)", algorithm, bits,
                64 * k);
    return NULL;
  }
  if (tpb % 32) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "mul %s: threads_per_block: " U " is not a multiple of the warp (32)",
                algorithm, tpb);
    return NULL;
  }
  Shape s;
  shape_init(&s, k, bits / 32, P);
  const guint64 threads = s.PT * P;
  if (threads > G_GUINT64_CONSTANT(1) << 32 || shape_words(&s) > G_GUINT64_CONSTANT(1) << 53) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "mul %s: " U " products of " U " bits need " U " threads and " U " words (at most 2^32 and 2^53)",
                algorithm, P, bits, threads, shape_words(&s));
    return NULL;
  }
  char *text = trace_text(&s, algorithm, bits, tpb, threads);
  /* the checked products: first, middle, last */
  guint64 qs[CHECK_MAX];
  guint nq = 0;
  const guint64 cand[CHECK_MAX] = {0, P / 2, P - 1};
  for (guint i = 0; i < CHECK_MAX; i++) {
    gboolean dup = FALSE;
    for (guint j = 0; j < nq; j++) dup |= qs[j] == cand[i];
    if (!dup) qs[nq++] = cand[i];
  }
  const gsize nt = nq * s.PT;
  guint64 *want_h = g_new0(guint64, nt), *want_c = g_new0(guint64, nt), *got_h = g_new0(guint64, nt),
          *got_c = g_new0(guint64, nt);
  Exec e = {0};
  mpz_t x, y, z, c;
  mpz_inits(x, y, z, c, NULL);
  gboolean ok = TRUE;
  for (guint i = 0; i < nq && ok; i++) {
    memset(&e, 0, sizeof e);
    e.s = &s;
    e.q = qs[i];
    e.hash = want_h + i * s.PT;
    e.count = want_c + i * s.PT;
    for (int a = 0; a < AR_N; a++) e.val[a] = g_new0(guint32, s.slots[a]);
    for (guint64 xw = 0; xw < s.w; xw++) {
      e.val[AR_A][xw] = ms_toom_word(seed, 0, e.q, P, s.w, xw);
      e.val[AR_B][xw] = ms_toom_word(seed, 1, e.q, P, s.w, xw);
    }
    to_mpz(x, e.val[AR_A], s.w);
    to_mpz(y, e.val[AR_B], s.w);
    exec_kernel1(&e);
    exec_kernel2(&e);
    mpz_mul(z, x, y);
    to_mpz(c, e.val[AR_C], 2 * s.w);
    if (mpz_cmp(z, c) != 0) {
      g_set_error(error, MS_ERROR, MS_ERROR_VERIFY, "mul %s bits=" U ": product " U " differs from mpz_mul", algorithm,
                  bits, e.q);
      ok = FALSE;
    }
    for (int a = 0; a < AR_N; a++) g_free(e.val[a]);
  }
  mpz_clears(x, y, z, c, NULL);
  if (ok) ok = walk_trace(text, &s, qs, nq, got_h, got_c, error);
  for (gsize i = 0; ok && i < nt; i++)
    if (got_h[i] != want_h[i] || got_c[i] != want_c[i]) {
      g_set_error(error, MS_ERROR, MS_ERROR_VERIFY,
                  "mul %s bits=" U ": thread " U " (point %" G_GSIZE_FORMAT " of product " U
                  "): the trace's " U " accesses are not the " U " the algorithm makes",
                  algorithm, bits, (i % s.PT) * P + qs[i / s.PT], i % s.PT, qs[i / s.PT], got_c[i], want_c[i]);
      ok = FALSE;
    }
  if (ok && info) {
    memset(info, 0, sizeof *info);
    info->k = k;
    info->bits = bits;
    info->w = s.w;
    info->n = s.n;
    info->products = P;
    info->threads = threads;
    info->block_threads = MIN(tpb, threads);
    info->points = s.PT;
    info->work_words = s.L;
    info->mults = e.mults;
    info->reads1 = e.reads1;
    info->writes1 = e.writes1;
    info->reads2 = e.reads2;
    info->writes2 = e.writes2;
    info->checked = nq;
  }
  g_free(want_h);
  g_free(want_c);
  g_free(got_h);
  g_free(got_c);
  if (!ok) {
    g_free(text);
    return NULL;
  }
  return text;
}

MsSource *ms_mul_family_source(const char *algorithm, GHashTable *params, GError **error) {
  if (!ms_toom_is(algorithm, NULL)) return ms_mul_source(algorithm, params, error);
  char *text = ms_toom_compact(algorithm, params, NULL, error);
  if (!text) return NULL;
  char *name = g_strdup_printf("mul %s", algorithm);
  MsSource *src = ms_trace_open_memory(text, strlen(text), name, error);
  g_free(name);
  g_free(text);
  return src;
}
