/* ms-mul.c: sum-rotate multiplication, one warp per product (seed 002 ch. 3, Algorithm 3).
 *
 * n = bits / 32 lanes compute one product of two n-word numbers (n = 2 .. 32, a power of
 * two; 32 / n products share a warp of 32, as the seed does below 1024 bits).  Thread t
 * works on product q = t / n as lane i = t % n.  Global memory (words): A at q*n + i,
 * B at P*n + q*n + i, C (2n words) at 2*P*n + q*2n + k.  Per thread:
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
 * of the source lane's (Table 3.3's "one warp with shared memory").  The algorithm runs on
 * data here, lane by lane, and every product is compared with GMP's mpz_mul. */
#include "mul/ms-mul.h"
#include <gmp.h>
#include <string.h>

const char *const ms_mul_algorithms[] = {"sum-rotate", "sum-rotate-shared", NULL};

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

static void to_mpz(mpz_t z, const guint32 *w, guint n) { mpz_import(z, n, -1, sizeof(guint32), 0, 0, w); }

char *ms_mul_compact(const char *algorithm, GHashTable *params, MsMulInfo *info, GError **error) {
  static const char *const known[] = {"bits", "products", "threads_per_block", "seed", NULL};
  if (!ms_param_check(params, known, "mul", error)) return NULL;
  gboolean shared;
  if (strcmp(algorithm, "sum-rotate") == 0) shared = FALSE;
  else if (strcmp(algorithm, "sum-rotate-shared") == 0) shared = TRUE;
  else {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "mul: unknown algorithm \"%s\" (sum-rotate, sum-rotate-shared; school and comba are "
                "`memsim gen mul` or the bulk family)", algorithm);
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
  const guint64 threads = P * n, warps = (threads + WARP - 1) / WARP;
  if (!ms_workload_memory_check("mul: the operands and products", (double)threads * 16.0 + (double)warps * 8.0, error))
    return NULL;
  guint32 *A = g_new(guint32, threads), *B = g_new(guint32, threads), *C = g_new(guint32, 2 * threads);
  /* the operands of kernels/mul.cu (MsRng of kernels/measure.h): all of A, then all of B,
   * the high word of each splitmix64 draw, so that the carry rounds are the GPU's */
  guint64 st = seed * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15) + 1;
  for (guint64 k = 0; k < threads; k++) A[k] = (guint32)(splitmix64(&st) >> 32);
  for (guint64 k = 0; k < threads; k++) B[k] = (guint32)(splitmix64(&st) >> 32);
  guint64 *rounds = g_new(guint64, warps), carry_max = 0, shuffles = 0;
  for (guint64 wi = 0; wi < warps; wi++) {
    const guint lanes = (guint)MIN((guint64)WARP, threads - wi * WARP);
    rounds[wi] = warp_multiply(A + wi * WARP, B + wi * WARP, C + 2 * wi * WARP, lanes, n);
    carry_max = MAX(carry_max, rounds[wi]);
    shuffles += 3 * (guint64)n + rounds[wi];
  }
  /* every product against GMP */
  mpz_t x, y, z, c;
  mpz_inits(x, y, z, c, NULL);
  char *text = NULL;
  for (guint64 q = 0; q < P; q++) {
    to_mpz(x, A + q * n, n);
    to_mpz(y, B + q * n, n);
    mpz_mul(z, x, y);
    to_mpz(c, C + q * 2 * n, 2 * n);
    if (mpz_cmp(z, c) != 0) {
      g_set_error(error, MS_ERROR, MS_ERROR_VERIFY, "mul %s: product %" G_GUINT64_FORMAT " differs from mpz_mul",
                  algorithm, q);
      goto out;
    }
  }
  char sw[64] = ""; /* the shared variant's exchange buffer, one word per thread of a block */
  if (shared) g_snprintf(sw, sizeof sw, " \"shared_words\": %" G_GUINT64_FORMAT ",", MIN(tpb, threads));
  GString *s = g_string_new(NULL);
  g_string_append_printf(s,
                         "{\"memsim_trace\": 1, \"form\": \"compact\",\n"
                         " \"name\": \"mul %s bits=%" G_GUINT64_FORMAT " products=%" G_GUINT64_FORMAT
                         " (seed 002 Algorithm 3: %u lanes per product)\",\n"
                         " \"threads\": %" G_GUINT64_FORMAT ", \"block_threads\": %" G_GUINT64_FORMAT ",\n"
                         " \"global_words\": %" G_GUINT64_FORMAT ",%s\n"
                         " \"constants\": {\"n\": %u},\n"
                         " \"arrays\": {\"A\": {\"base\": 0, \"length\": %" G_GUINT64_FORMAT "},"
                         " \"B\": {\"length\": %" G_GUINT64_FORMAT "}, \"C\": {\"length\": %" G_GUINT64_FORMAT "},\n",
                         algorithm, bits, P, n, threads, MIN(tpb, threads), 4 * threads,
                         sw, n, threads, threads, 2 * threads);
  if (shared) g_string_append_printf(s, "  \"S\": {\"base\": 0, \"length\": %" G_GUINT64_FORMAT "},\n", MIN(tpb, threads));
  g_string_append(s, "  \"K\": {\"data\": [");
  for (guint64 wi = 0; wi < warps; wi++) g_string_append_printf(s, "%s%" G_GUINT64_FORMAT, wi ? "," : "", rounds[wi]);
  g_string_append(s, "]}},\n \"steps\": [\n");
  g_string_append(s, "  {\"op\": \"read\", \"addr\": \"A[tid]\"},\n  {\"op\": \"read\", \"addr\": \"B[tid]\"},\n");
  /* a shuffle from lane SRC of the product; through shared memory: write own, read SRC */
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
  text = g_string_free(s, FALSE);
  if (info) {
    info->products = P;
    info->n = n;
    info->threads = threads;
    info->block_threads = MIN(tpb, threads);
    info->shuffles = shuffles;
    info->carry_max = carry_max;
    info->checked = P;
  }
out:
  mpz_clears(x, y, z, c, NULL);
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
