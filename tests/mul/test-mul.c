/* test-mul.c: Toom-k of the mul family (docs/workloads/mul.md, "Toom-k"): every k verifies on
 * data through the trace's addresses, the generator's counts are the closed forms, their
 * leading terms are seed 002's Table 3.2, and the engine sees one coalesced request per warp
 * and access. */
#include <criterion/criterion.h>
#include "mul/ms-toom.h"
#include <math.h>
#include <string.h>

static GHashTable *params_v(const char *const *kv) {
  GHashTable *p = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  for (; kv && *kv; kv++) {
    const char *eq = strchr(*kv, '=');
    g_hash_table_insert(p, g_strndup(*kv, (gsize)(eq - *kv)), g_strdup(eq + 1));
  }
  return p;
}
#define PARAMS(...) params_v((const char *const[]){__VA_ARGS__, NULL})

static char *toom_ok(guint k, guint64 bits, guint64 products, MsToomInfo *info) {
  char alg[16], b[32], p[32];
  g_snprintf(alg, sizeof alg, "toom-%u", k);
  g_snprintf(b, sizeof b, "bits=%" G_GUINT64_FORMAT, bits);
  g_snprintf(p, sizeof p, "products=%" G_GUINT64_FORMAT, products);
  GHashTable *h = PARAMS(b, p);
  GError *err = NULL;
  char *t = ms_toom_compact(alg, h, info, &err);
  cr_assert(t, "%s bits %" G_GUINT64_FORMAT ": %s", alg, bits, err ? err->message : "");
  g_hash_table_destroy(h);
  return t;
}

/* k = 2 .. 9 at parts of 2, 3 and 5 words, and w not a multiple of k: the products are
 * mpz_mul's and the accesses are the trace's (else ms_toom_compact fails) */
Test(toom, every_k_verifies) {
  for (guint k = 2; k <= 9; k++) {
    for (guint64 n = 2; n <= 5; n += n == 3 ? 2 : 1) {
      MsToomInfo info, want;
      g_free(toom_ok(k, 32 * k * n, 64, &info));
      cr_assert_eq(info.checked, 3);
      ms_toom_counts(k, k * n, &want);
      cr_assert_eq(info.mults, want.mults, "k %u n %" G_GUINT64_FORMAT ": mults", k, n);
      cr_assert_eq(info.reads1, want.reads1, "k %u n %" G_GUINT64_FORMAT ": reads1 %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT, k, n, info.reads1, want.reads1);
      cr_assert_eq(info.writes1, want.writes1, "k %u n %" G_GUINT64_FORMAT ": writes1", k, n);
      cr_assert_eq(info.reads2, want.reads2, "k %u n %" G_GUINT64_FORMAT ": reads2 %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT, k, n, info.reads2, want.reads2);
      cr_assert_eq(info.writes2, want.writes2, "k %u n %" G_GUINT64_FORMAT ": writes2", k, n);
    }
    MsToomInfo info; /* w = 2k + 1: the top part is shorter, zero-padded */
    g_free(toom_ok(k, 32 * (2 * k + 1), 33, &info));
    cr_assert_eq(info.n, 3);
  }
}

/* Seed 002's Table 3.2 (per product, w words): multiplications and memory reads.  The seed's
 * Toom-9 writes read "188/3 w + 180"; every other row's w coefficient times k is 24k - 28
 * (44, 68, ..., 164), so 188/9 is meant.  Only the leading (w^2) terms are the algorithm's:
 * the seed does not give its evaluation points or interpolation, so the w and constant terms
 * are its implementation's (docs/workloads/mul.md). */
static const double seed_mult[10][3] = {
    [2] = {3.0 / 4, 0, 0},         [3] = {5.0 / 9, 44.0 / 3, 21},   [4] = {7.0 / 16, 26, 55},
    [5] = {9.0 / 25, 188.0 / 5, 105}, [6] = {11.0 / 36, 148.0 / 3, 171}, [7] = {13.0 / 49, 428.0 / 7, 253},
    [8] = {15.0 / 64, 73, 351},    [9] = {17.0 / 81, 764.0 / 9, 465}};
static const double seed_read[10][3] = {
    [2] = {3.0 / 2, 17.0 / 2, -2},      [3] = {10.0 / 9, 82.0 / 3, 32},   [4] = {7.0 / 8, 41, 76},
    [5] = {18.0 / 25, 54, 136},         [6] = {11.0 / 18, 200.0 / 3, 212}, [7] = {26.0 / 49, 554.0 / 7, 304},
    [8] = {15.0 / 32, 183.0 / 2, 412},  [9] = {34.0 / 81, 934.0 / 9, 536}};

static double quad(const double *c, double w) { return c[0] * w * w + c[1] * w + c[2]; }

Test(toom, leading_terms_are_table_3_2) {
  for (guint k = 2; k <= 9; k++) {
    /* the second difference over w = k n, k (n+1), k (n+2) of ours minus the seed's is 0
     * exactly when the w^2 coefficients agree (both are quadratics in w) */
    double dm[3], dr[3];
    for (int i = 0; i < 3; i++) {
      MsToomInfo c;
      const guint64 w = k * (guint64)(40 + i);
      ms_toom_counts(k, w, &c);
      dm[i] = (double)c.mults - quad(seed_mult[k], (double)w);
      dr[i] = (double)(c.reads1 + c.reads2) - quad(seed_read[k], (double)w);
    }
    cr_assert(fabs(dm[2] - 2 * dm[1] + dm[0]) < 1e-6, "k %u: multiplications' w^2 term differs", k);
    cr_assert(fabs(dr[2] - 2 * dr[1] + dr[0]) < 1e-6, "k %u: reads' w^2 term differs", k);
    /* and Comba's own w^2 coefficient differs from Toom-k's: the test can fail */
    const double comba = 2.0 * 40 * 40;
    cr_assert(fabs(comba - quad(seed_read[k], 40.0) ) > 1, "k %u", k);
  }
  /* Toom-2's multiplications are (2n^2) + (n+1)^2 here: 3/4 w^2 + w + 1 (the seed's point
   * -1 keeps a part's size, our point 1 adds a word) */
  MsToomInfo c;
  ms_toom_counts(2, 64, &c);
  cr_assert_eq(c.mults, 3 * 64 * 64 / 4 + 64 + 1);
}

/* On a UMM of width 32 every access of a warp is one request (column-wise, 32 | P). */
Test(toom, one_request_per_warp_and_access) {
  MsToomInfo info;
  char *t = toom_ok(3, 32 * 12, 64, &info);
  GError *err = NULL;
  MsSource *src = ms_trace_open_memory(t, strlen(t), "toom", &err);
  cr_assert(src, "%s", err ? err->message : "");
  MsModel *m = ms_model_new(MS_MODEL_UMM, 32, 10, 0, 0, 0);
  MsSimOptions opt = {0};
  MsResult *r = ms_simulate(m, src, &opt, &err);
  cr_assert(r, "%s", err ? err->message : "");
  const guint64 per = info.reads1 + info.writes1 + info.reads2 + info.writes2;
  cr_assert_eq(r->requests, per * 64, "requests %" G_GUINT64_FORMAT ", want %" G_GUINT64_FORMAT, r->requests,
               per * 64);
  cr_assert_eq(r->stages, per * 64 / 32, "stages %" G_GUINT64_FORMAT ", want %" G_GUINT64_FORMAT, r->stages, per * 2);
  cr_assert_eq(r->grid_barriers + 1, 2, "two kernels");
  ms_result_free(r);
  ms_model_free(m);
  ms_source_free(src);
  g_free(t);
}

static void expect_error(const char *alg, GHashTable *p, int code, const char *needle) {
  GError *err = NULL;
  char *t = ms_toom_compact(alg, p, NULL, &err);
  cr_assert_null(t, "%s should fail", alg);
  cr_assert_eq(err->code, code, "%s: code %d (%s)", alg, err->code, err->message);
  cr_assert(strstr(err->message, needle), "%s: \"%s\" lacks \"%s\"", alg, err->message, needle);
  g_error_free(err);
  g_hash_table_destroy(p);
}

Test(toom, bad_parameters) {
  expect_error("toom-3", PARAMS("bits=160"), MS_ERROR_INVALID,
               "mul toom-3: bits: 160 is not a multiple of 32 of at least 192 (two words a part)");
  expect_error("toom-3", PARAMS("bits=1000"), MS_ERROR_INVALID, "bits: 1000 is not a multiple of 32");
  expect_error("toom-10", PARAMS("bits=4096"), MS_ERROR_INVALID, "unknown algorithm \"toom-10\" (toom-2 ... toom-9)");
  expect_error("toom-4", PARAMS("threads_per_block=48"), MS_ERROR_INVALID, "threads_per_block: 48 is not a multiple");
  expect_error("toom-4", PARAMS("products=0"), MS_ERROR_INVALID, "--products: 0 is out of range");
  expect_error("toom-4", PARAMS("arrangement=row"), MS_ERROR_INVALID, "arrangement");
}
