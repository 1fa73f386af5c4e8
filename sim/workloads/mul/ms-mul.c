/* ms-mul.c: multiple-length multiplication, one warp per product (seed 002 ch. 3): sum-rotate
 * (Algorithm 3) and the parallel column-based method (Figure 3.3).
 *
 * n = bits / 32 lanes compute one product of two n-word numbers (n = 2 .. 32, a power of
 * two; 32 / n products share a warp of 32, as the seed does below 1024 bits).  Thread t
 * works on product q = t / n as lane i = t % n.  Global memory (words): A at q*n + i,
 * B at P*n + q*n + i, C (2n words) at 2*P*n + q*2n + k.
 *
 * Sum-rotate, per thread:
 *
 *   a = A[q][i]; b = B[q][i]                               two reads
 *   for j < n: b' = shfl(b, j)                             3 shuffles per j
 *              {t,u,v} = a*b' + {u,v}
 *              v = shfl(v, i+1); c' = shfl(c', i+1)        (rotate right within the product)
 *              lane n-1: c' = v, v = 0
 *              {u,v} = {t,u} + v
 *   while any(u != 0) over the warp: u = shfl(u, i-1); {u,v} = u + v     1 shuffle per round
 *   C[q][i] = c'; C[q][n+i] = v                            two writes
 *
 * A shuffle is a trace step of its own ("op": "shuffle", docs/trace-format.md): no memory
 * stage.  The rounds of the carry loop depend on the data: shuffle step k of the loop has
 * the warps with more than k rounds, from a data array of rounds per warp.  In
 * "sum-rotate-shared" each shuffle is a shared write of the lane's value then a shared read
 * of the source lane's (Table 3.3's "one warp with shared memory").
 *
 * Column-based (Table 3.3's "parallel column-based, one warp with shared memory"; the
 * project's reading of Figure 3.3, whose picture the text lacks): lane i owns columns i and
 * n+i of the schoolbook product (column c = sum of a_j b_{c-j}; i+1 and n-1-i products, n
 * per lane; column 2n-1 is empty, so lane n-1's second column is 0).  A warp has a slot of
 * 128 shared words, four rows of 32 (one word per lane each); column c of the product whose
 * first lane is `base` has the place pos(c) = (c / n) 32 + base + c % n: row 0 or 1 at its
 * lane.  Per thread:
 *
 *   a = A[q][i]; b = B[q][i]                               two global reads
 *   S[lane] = a; S[32 + lane] = b                          two shared writes
 *   for s < n: {t,u,v} += S[base + s] * S[32 + base + (i-s) mod n]      2n shared reads
 *              if s == i: column i's sum = {t,u,v}; {t,u,v} = 0         (a broadcast and a
 *   column n+i's sum = {t,u,v}                                         rotation: no conflict)
 *   S[lane], S[32+lane], S[64+lane], S[96+lane] = u_i, u_{n+i}, t_i, t_{n+i}   4 writes
 *   word k (k = i, n+i) = v_k + S[pos(k-1)] + S[64 + pos(k-2)]         4 reads
 *   (column indices mod 2n: k = 0 and 1 read the empty column 2n-1 and the single product
 *   a_{n-1} b_{n-1} of column 2n-2, whose t is 0, so every lane reads the same way)
 *   while any(carry != 0) over the warp:                   2 writes, 2 reads a round
 *     S[lane] = carry_i; S[32 + lane] = carry_{n+i}; word k += S[pos(k-1)]
 *   C[q][i] = word i; C[q][n+i] = word n+i                 two global writes
 *
 * Per thread: 2 global reads and 2 writes; 2n + 10 shared requests, and 4 a carry round of
 * its warp; every shared step of a warp is free of bank conflicts (row r of a lane is bank
 * lane, and each step's lanes read a rotation of their product's lanes, or broadcast).
 *
 * Both algorithms run on data here, lane by lane (the column-based method through the
 * trace's shared places), and every product is compared with GMP's mpz_mul. */
#include "mul/ms-mul.h"
#include <gmp.h>
#include <string.h>

const char *const ms_mul_algorithms[] = {"sum-rotate", "sum-rotate-shared", "column-based", NULL};

#define WARP 32u /* the algorithm's warp: the GPU's, whatever the model's w */

static guint64 splitmix64(guint64 *s) {
  guint64 z = (*s += G_GUINT64_CONSTANT(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* One warp of `lanes` threads (g products of n lanes): Algorithm 3 on A, B (lanes words
 * each, lane-major), C out (2n words per product).  Returns the carry rounds (while loop). */
static guint64 warp_multiply(const guint32 *A, const guint32 *B, guint32 *C, guint lanes, guint n) {
  guint32 a[WARP], b[WARP], u[WARP], v[WARP], c[WARP], t[WARP], x[WARP], y[WARP];
  for (guint l = 0; l < lanes; l++) {
    a[l] = A[l];
    b[l] = B[l];
    u[l] = v[l] = c[l] = 0;
  }
  for (guint j = 0; j < n; j++) {
    for (guint l = 0; l < lanes; l++) {
      const guint base = l / n * n;
      const guint64 bp = b[base + j];                       /* line 6: broadcast from lane j */
      const guint64 p = (guint64)a[l] * bp;                 /* line 7: {t,u,v} = a*b' + {u,v} */
      const guint64 uv = ((guint64)u[l] << 32) | v[l];
      const guint64 s = p + uv;
      t[l] = s < p;
      u[l] = (guint32)(s >> 32);
      v[l] = (guint32)s;
    }
    for (guint l = 0; l < lanes; l++) { /* lines 8, 9: rotate right within the product */
      const guint base = l / n * n, src = base + (l - base + 1) % n;
      x[l] = v[src];
      y[l] = c[src];
    }
    for (guint l = 0; l < lanes; l++) {
      v[l] = x[l];
      c[l] = y[l];
      if (l % n == n - 1) { /* lines 10-13 */
        c[l] = v[l];
        v[l] = 0;
      }
      const guint64 s = (((guint64)t[l] << 32) | u[l]) + v[l]; /* line 14 */
      u[l] = (guint32)(s >> 32);
      v[l] = (guint32)s;
    }
  }
  guint64 rounds = 0;
  for (;;) { /* lines 16-19: any() over the whole warp */
    gboolean any = FALSE;
    for (guint l = 0; l < lanes; l++) any |= u[l] != 0;
    if (!any) break;
    rounds++;
    for (guint l = 0; l < lanes; l++) {
      const guint base = l / n * n;
      x[l] = u[base + (l - base + n - 1) % n];
    }
    for (guint l = 0; l < lanes; l++) {
      const guint64 s = (guint64)x[l] + v[l];
      u[l] = (guint32)(s >> 32);
      v[l] = (guint32)s;
    }
  }
  for (guint l = 0; l < lanes; l++) { /* lines 20, 21 */
    const guint q = l / n, i = l % n;
    C[q * 2 * n + i] = c[l];
    C[q * 2 * n + n + i] = v[l];
  }
  return rounds;
}

/* The column-based method's shared slot of one warp: four rows of 32 words. */
#define COL_SLOT (4 * WARP)

/* pos(c): where column c (0 .. 2n-1) of the product whose first lane is `base` has its
 * word in rows 0 and 1 (or 2 and 3, plus 2 WARP): its lane's first or second column. */
static guint col_pos(guint base, guint n, guint c) { return c / n * WARP + base + c % n; }

/* One warp of `lanes` threads: the column-based method on A, B (lanes words each,
 * lane-major), C out (2n words per product), the shared words at the trace's places.
 * Each phase runs over all lanes before the next (a __syncwarp in the kernel).  Returns the
 * carry rounds (while loop). */
static guint64 warp_column(const guint32 *A, const guint32 *B, guint32 *C, guint lanes, guint n) {
  guint32 S[COL_SLOT], v1[WARP], v2[WARP], u1[WARP], u2[WARP], t1[WARP], t2[WARP];
  guint64 w1[WARP], w2[WARP]; /* words i and n+i: 32 bits, the carry above */
  for (guint l = 0; l < lanes; l++) {
    S[l] = A[l];
    S[WARP + l] = B[l];
  }
  for (guint l = 0; l < lanes; l++) {
    const guint base = l / n * n, i = l % n;
    guint64 uv = 0;
    guint32 t = 0;
    for (guint s = 0; s < n; s++) {
      const guint64 p = (guint64)S[base + s] * S[WARP + base + (i + n - s) % n];
      uv += p;
      t += uv < p;
      if (s == i) { /* column i is complete: column n+i starts */
        v1[l] = (guint32)uv;
        u1[l] = (guint32)(uv >> 32);
        t1[l] = t;
        uv = 0;
        t = 0;
      }
    }
    v2[l] = (guint32)uv;
    u2[l] = (guint32)(uv >> 32);
    t2[l] = t;
  }
  for (guint l = 0; l < lanes; l++) {
    S[l] = u1[l];
    S[WARP + l] = u2[l];
    S[2 * WARP + l] = t1[l];
    S[3 * WARP + l] = t2[l];
  }
  for (guint l = 0; l < lanes; l++) { /* word k = v_k + u_{k-1} + t_{k-2}, columns mod 2n */
    const guint base = l / n * n, i = l % n, m = 2 * n;
    w1[l] = (guint64)v1[l] + S[col_pos(base, n, (i + m - 1) % m)] + S[2 * WARP + col_pos(base, n, (i + m - 2) % m)];
    w2[l] = (guint64)v2[l] + S[col_pos(base, n, n + i - 1)] + S[2 * WARP + col_pos(base, n, (n + i + m - 2) % m)];
  }
  guint64 rounds = 0;
  for (;;) { /* any() over the whole warp */
    gboolean any = FALSE;
    for (guint l = 0; l < lanes; l++) any |= (w1[l] >> 32 | w2[l] >> 32) != 0;
    if (!any) break;
    rounds++;
    for (guint l = 0; l < lanes; l++) {
      S[l] = (guint32)(w1[l] >> 32);
      S[WARP + l] = (guint32)(w2[l] >> 32);
    }
    for (guint l = 0; l < lanes; l++) {
      const guint base = l / n * n, i = l % n, m = 2 * n;
      w1[l] = (guint64)(guint32)w1[l] + S[col_pos(base, n, (i + m - 1) % m)];
      w2[l] = (guint64)(guint32)w2[l] + S[col_pos(base, n, n + i - 1)];
    }
  }
  for (guint l = 0; l < lanes; l++) {
    const guint q = l / n, i = l % n;
    C[q * 2 * n + i] = (guint32)w1[l];
    C[q * 2 * n + n + i] = (guint32)w2[l];
  }
  return rounds;
}

static void to_mpz(mpz_t z, const guint32 *w, guint n) { mpz_import(z, n, -1, sizeof(guint32), 0, 0, w); }

typedef enum { MUL_SUM_ROTATE, MUL_SUM_ROTATE_SHARED, MUL_COLUMN } MulKind;

/* Sum-rotate's exchanges: a shuffle from lane SRC of the product, or through shared memory
 * a write of the lane's own word and a read of SRC's. */
static void append_sum_rotate_steps(GString *s, guint n, gboolean shared, guint64 carry_max) {
#define XCHG(src, when)                                                                                         \
  (shared ? "{\"op\": \"write\", \"space\": \"shared\", \"addr\": \"S[ltid]\"" when "},\n"                       \
            "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"S[ltid / n * n + " src "]\"" when "}"     \
          : "{\"op\": \"shuffle\"" when "}")
  g_string_append_printf(s, "  {\"repeat\": %u, \"var\": \"j\", \"steps\": [\n   %s,\n   %s,\n   %s]},\n", n,
                         XCHG("j", ""), XCHG("(ltid % n + 1) % n", ""), XCHG("(ltid % n + 1) % n", ""));
  g_string_append_printf(s, "  {\"repeat\": %" G_GUINT64_FORMAT ", \"var\": \"k\", \"steps\": [\n   %s]},\n", carry_max,
                         XCHG("(ltid % n + n - 1) % n", ", \"when\": \"K[tid / 32] > k\""));
#undef XCHG
  g_string_append(s, "  {\"op\": \"write\", \"addr\": \"C[tid / n * 2 * n + tid % n]\"},\n"
                     "  {\"op\": \"write\", \"addr\": \"C[tid / n * 2 * n + n + tid % n]\"}\n ]}\n");
}

/* The column-based method's shared steps (warp_column, the comment at the top): the warp's
 * slot is S[ltid / 32 * 128 ...], the lane ltid % 32, its product's first lane
 * ltid % 32 / n * n, pos(c) as col_pos. */
static void append_column_steps(GString *s, guint n, guint64 carry_max) {
#define SLOT "ltid / 32 * 128 + "
#define LANE "ltid % 32"
#define BASE "ltid % 32 / n * n"
#define POS(c) "(" c ") / n * 32 + " BASE " + (" c ") % n"
#define SH(op, addr, when) "{\"op\": \"" op "\", \"space\": \"shared\", \"addr\": \"S[" SLOT addr "]\"" when "}"
  g_string_append(s, "  " SH("write", LANE, "") ",\n  " SH("write", "32 + " LANE, "") ",\n");
  g_string_append_printf(s, "  {\"repeat\": %u, \"var\": \"s\", \"steps\": [\n   %s,\n   %s]},\n", n,
                         SH("read", BASE " + s", ""), SH("read", "32 + " BASE " + (tid % n + n - s) % n", ""));
  g_string_append(s, "  " SH("write", LANE, "") ",\n  " SH("write", "32 + " LANE, "") ",\n"
                     "  " SH("write", "64 + " LANE, "") ",\n  " SH("write", "96 + " LANE, "") ",\n"
                     "  " SH("read", POS("(tid % n + 2 * n - 1) % (2 * n)"), "") ",\n"
                     "  " SH("read", POS("n + tid % n - 1"), "") ",\n"
                     "  " SH("read", "64 + " POS("(tid % n + 2 * n - 2) % (2 * n)"), "") ",\n"
                     "  " SH("read", "64 + " POS("(n + tid % n + 2 * n - 2) % (2 * n)"), "") ",\n");
#define WHEN ", \"when\": \"K[tid / 32] > k\""
  g_string_append_printf(s, "  {\"repeat\": %" G_GUINT64_FORMAT ", \"var\": \"k\", \"steps\": [\n   %s,\n   %s,\n   %s,\n   %s]},\n",
                         carry_max, SH("write", LANE, WHEN), SH("write", "32 + " LANE, WHEN),
                         SH("read", POS("(tid % n + 2 * n - 1) % (2 * n)"), WHEN), SH("read", POS("n + tid % n - 1"), WHEN));
#undef WHEN
#undef SH
#undef POS
#undef BASE
#undef LANE
#undef SLOT
  g_string_append(s, "  {\"op\": \"write\", \"addr\": \"C[tid / n * 2 * n + tid % n]\"},\n"
                     "  {\"op\": \"write\", \"addr\": \"C[tid / n * 2 * n + n + tid % n]\"}\n ]}\n");
}

/* Every product of C against GMP's mpz_mul. */
static gboolean check_products(const char *algorithm, const guint32 *A, const guint32 *B, const guint32 *C, guint64 P,
                               guint n, GError **error) {
  mpz_t x, y, z, c;
  mpz_inits(x, y, z, c, NULL);
  gboolean ok = TRUE;
  for (guint64 q = 0; q < P && ok; q++) {
    to_mpz(x, A + q * n, n);
    to_mpz(y, B + q * n, n);
    mpz_mul(z, x, y);
    to_mpz(c, C + q * 2 * n, 2 * n);
    if (mpz_cmp(z, c) != 0) {
      g_set_error(error, MS_ERROR, MS_ERROR_VERIFY, "mul %s: product %" G_GUINT64_FORMAT " differs from mpz_mul",
                  algorithm, q);
      ok = FALSE;
    }
  }
  mpz_clears(x, y, z, c, NULL);
  return ok;
}

char *ms_mul_compact(const char *algorithm, GHashTable *params, MsMulInfo *info, GError **error) {
  static const char *const known[] = {"bits", "products", "threads_per_block", "seed", NULL};
  if (!ms_param_check(params, known, "mul", error)) return NULL;
  MulKind kind;
  if (strcmp(algorithm, "sum-rotate") == 0) kind = MUL_SUM_ROTATE;
  else if (strcmp(algorithm, "sum-rotate-shared") == 0) kind = MUL_SUM_ROTATE_SHARED;
  else if (strcmp(algorithm, "column-based") == 0) kind = MUL_COLUMN;
  else {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "mul: unknown algorithm \"%s\" (sum-rotate, sum-rotate-shared, column-based; school and comba "
                "are `memsim gen mul` or the bulk family)", algorithm);
    return NULL;
  }
  guint64 bits, P, tpb, seed;
  if (!ms_param_uint(params, "bits", 1024, 64, 1024, &bits, error) ||
      !ms_param_uint(params, "products", 1024, 1, G_GUINT64_CONSTANT(1) << 26, &P, error) ||
      !ms_param_uint(params, "threads_per_block", 32, 32, 1024, &tpb, error) ||
      !ms_param_uint(params, "seed", 1, 0, G_MAXUINT64, &seed, error))
    return NULL;
  const guint n = (guint)(bits / 32);
  if (bits % 32 || (n & (n - 1))) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "mul %s: bits: %" G_GUINT64_FORMAT " is not 64, 128, 256, 512 or 1024 (n = bits / 32 lanes per "
                "product must divide the warp of 32)", algorithm, bits);
    return NULL;
  }
  if (tpb % WARP) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "mul %s: threads_per_block: %" G_GUINT64_FORMAT " is not a multiple of the warp (32)", algorithm, tpb);
    return NULL;
  }
  const guint64 threads = P * n, warps = (threads + WARP - 1) / WARP, bt = MIN(tpb, threads);
  if (!ms_workload_memory_check("mul: the operands and products", (double)threads * 16.0 + (double)warps * 8.0, error))
    return NULL;
  guint32 *A = g_new(guint32, threads), *B = g_new(guint32, threads), *C = g_new(guint32, 2 * threads);
  /* the operands of kernels/mul.cu (MsRng of kernels/measure.h): all of A, then all of B,
   * the high word of each splitmix64 draw, so that the carry rounds are the GPU's */
  guint64 st = seed * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15) + 1;
  for (guint64 k = 0; k < threads; k++) A[k] = (guint32)(splitmix64(&st) >> 32);
  for (guint64 k = 0; k < threads; k++) B[k] = (guint32)(splitmix64(&st) >> 32);
  guint64 *rounds = g_new(guint64, warps), carry_max = 0, rounds_sum = 0;
  for (guint64 wi = 0; wi < warps; wi++) {
    const guint lanes = (guint)MIN((guint64)WARP, threads - wi * WARP);
    rounds[wi] = (kind == MUL_COLUMN ? warp_column : warp_multiply)(A + wi * WARP, B + wi * WARP, C + 2 * wi * WARP,
                                                                    lanes, n);
    carry_max = MAX(carry_max, rounds[wi]);
    rounds_sum += rounds[wi];
  }
  char *text = NULL;
  if (!check_products(algorithm, A, B, C, P, n, error)) goto out;
  /* the shared buffer of a block: sum-rotate-shared's one word per thread, the
   * column-based method's 128 words per warp */
  const guint64 sw = kind == MUL_COLUMN ? (bt + WARP - 1) / WARP * COL_SLOT : kind == MUL_SUM_ROTATE_SHARED ? bt : 0;
  GString *s = g_string_new(NULL);
  g_string_append_printf(s,
                         "{\"memsim_trace\": 1, \"form\": \"compact\",\n"
                         " \"name\": \"mul %s bits=%" G_GUINT64_FORMAT " products=%" G_GUINT64_FORMAT " (seed 002 %s: %u lanes per product)\",\n"
                         " \"threads\": %" G_GUINT64_FORMAT ", \"block_threads\": %" G_GUINT64_FORMAT ",\n"
                         " \"global_words\": %" G_GUINT64_FORMAT ",",
                         algorithm, bits, P, kind == MUL_COLUMN ? "Figure 3.3, parallel column-based" : "Algorithm 3",
                         n, threads, bt, 4 * threads);
  if (sw) g_string_append_printf(s, " \"shared_words\": %" G_GUINT64_FORMAT ",", sw);
  g_string_append_printf(s,
                         "\n \"constants\": {\"n\": %u},\n"
                         " \"arrays\": {\"A\": {\"base\": 0, \"length\": %" G_GUINT64_FORMAT "},"
                         " \"B\": {\"length\": %" G_GUINT64_FORMAT "}, \"C\": {\"length\": %" G_GUINT64_FORMAT "},\n",
                         n, threads, threads, 2 * threads);
  if (sw) g_string_append_printf(s, "  \"S\": {\"base\": 0, \"length\": %" G_GUINT64_FORMAT "},\n", sw);
  g_string_append(s, "  \"K\": {\"data\": [");
  for (guint64 wi = 0; wi < warps; wi++) g_string_append_printf(s, "%s%" G_GUINT64_FORMAT, wi ? "," : "", rounds[wi]);
  g_string_append(s, "]}},\n \"steps\": [\n");
  g_string_append(s, "  {\"op\": \"read\", \"addr\": \"A[tid]\"},\n  {\"op\": \"read\", \"addr\": \"B[tid]\"},\n");
  if (kind == MUL_COLUMN) append_column_steps(s, n, carry_max);
  else append_sum_rotate_steps(s, n, kind == MUL_SUM_ROTATE_SHARED, carry_max);
  text = g_string_free(s, FALSE);
  if (info) {
    info->products = P;
    info->n = n;
    info->threads = threads;
    info->block_threads = bt;
    info->shuffles = kind == MUL_COLUMN ? 0 : 3 * n * warps + rounds_sum;
    info->carry_max = carry_max;
    info->rounds = rounds_sum;
    info->shared_words = sw;
    info->checked = P;
  }
out:
  g_free(A);
  g_free(B);
  g_free(C);
  g_free(rounds);
  return text;
}

MsSource *ms_mul_source(const char *algorithm, GHashTable *params, GError **error) {
  char *text = ms_mul_compact(algorithm, params, NULL, error);
  if (!text) return NULL;
  char *name = g_strdup_printf("mul %s", algorithm);
  MsSource *src = ms_trace_open_memory(text, strlen(text), name, error);
  g_free(name);
  g_free(text);
  return src;
}
