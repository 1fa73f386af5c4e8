/* test-gf2.c: the family "gf2" (docs/workloads/gf2.md): every instance decodes through the
 * trace's own addresses, the compact form and the in-process source are the same trace to
 * the unit on every model kind, the requests are those of an independent elimination, and
 * edited traces and bad parameters are refused. */
#include <criterion/criterion.h>
#include "ms-gf2.h"
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

static char *compact_ok(GHashTable *p) {
  GError *err = NULL;
  char *t = ms_gf2_compact("eliminate", p, NULL, &err);
  cr_assert(t, "%s", err ? err->message : "");
  return t;
}

static MsResult *sim(const MsModel *m, MsSource *src) {
  GError *err = NULL;
  MsSimOptions opt = {0};
  opt.threads = 1;
  MsResult *r = ms_simulate(m, src, &opt, &err);
  cr_assert(r, "%s", err ? err->message : "");
  ms_source_free(src);
  return r;
}

Test(gf2, every_instance_decodes) {
  static const char *const cases[][5] = {
      {"symbols=1", "length=1", "arrangement=row", "threads_per_block=32"},
      {"symbols=33", "length=95", "arrangement=column", "threads_per_block=32"},
      {"symbols=64", "length=64", "arrangement=row", "threads_per_block=64"},
      {"symbols=100", "length=300", "arrangement=column", "threads_per_block=256"},
      {"symbols=130", "length=40", "arrangement=row", "threads_per_block=96"},
  };
  for (gsize c = 0; c < G_N_ELEMENTS(cases); c++) {
    GHashTable *p = params_v(cases[c]);
    GError *err = NULL;
    MsGf2Info info;
    char *t = ms_gf2_compact("eliminate", p, &info, &err);
    cr_assert(t, "case %zu: %s", c, err ? err->message : "");
    cr_assert(info.executed);
    cr_assert_eq(info.rows, info.symbols + 10);
    MsSource *s = ms_gf2_source("eliminate", p, &err);
    cr_assert(s, "case %zu: %s", c, err ? err->message : "");
    ms_source_free(s);
    g_free(t);
    g_hash_table_destroy(p);
  }
}

/* The compact text (parsed and evaluated by the trace reader) and the in-process source. */
Test(gf2, compact_form_equals_the_source_on_every_model_kind) {
  static const char *const models[] = {
      "{\"model\": \"umm\", \"width\": 32, \"latency\": 5}",
      "{\"model\": \"umm\", \"width\": 32, \"latency\": 40, \"group_words\": 8}",
      "{\"model\": \"hmm\", \"width\": 32, \"dmms\": 4, \"shared_latency\": 2, \"global_latency\": 30}",
      "{\"model\": \"async-hmm\", \"width\": 32, \"dmms\": 3, \"shared_latency\": 2, \"global_latency\": 17}",
      "{\"model\": \"hmm\", \"width\": 32, \"dmms\": 2, \"shared_latency\": 3, \"global_latency\": 50, \"group_words\": 8,"
      " \"global_rate\": 3, \"resident_warps\": 4, \"resident_blocks\": 2, \"launch_units\": 7, \"read_window\": 4,"
      " \"posted_writes\": true, \"l2_words\": 100000, \"l2_latency\": 20, \"l2_rate\": 5}",
  };
  static const char *const cases[][5] = {
      {"symbols=40", "length=70", "arrangement=row", "threads_per_block=32"},
      {"symbols=70", "length=33", "arrangement=column", "threads_per_block=64"},
  };
  for (gsize c = 0; c < G_N_ELEMENTS(cases); c++)
    for (gsize m = 0; m < G_N_ELEMENTS(models); m++) {
      GError *err = NULL;
      MsModel *model = ms_model_parse(models[m], strlen(models[m]), "model", &err);
      cr_assert(model, "%s", err ? err->message : "");
      GHashTable *p = params_v(cases[c]);
      char *t = compact_ok(p);
      MsSource *a = ms_trace_open_memory(t, strlen(t), "gf2", &err);
      cr_assert(a, "%s", err ? err->message : "");
      MsSource *b = ms_gf2_source("eliminate", p, &err);
      cr_assert(b, "%s", err ? err->message : "");
      MsResult *ra = sim(model, a), *rb = sim(model, b);
      cr_assert_eq(ra->time_units, rb->time_units, "case %zu model %zu: %" G_GUINT64_FORMAT " vs %" G_GUINT64_FORMAT, c, m,
                   ra->time_units, rb->time_units);
      cr_assert_eq(ra->stages, rb->stages);
      cr_assert_eq(ra->requests, rb->requests);
      cr_assert_eq(ra->steps, rb->steps);
      cr_assert_eq(ra->grid_barriers, rb->grid_barriers);
      ms_result_free(ra);
      ms_result_free(rb);
      ms_model_free(model);
      g_free(t);
      g_hash_table_destroy(p);
    }
}

/* kernels/measure.h's MsRng, once more */
static guint32 next32(guint64 *st) {
  guint64 z = (*st += G_GUINT64_CONSTANT(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT(0x94D049BB133111EB);
  return (guint32)((z ^ (z >> 31)) >> 32);
}

/* An elimination written here from the seed's description, 64-bit words, counting the
 * kernels' requests: search T rows at a time, swap, test every other row, XOR, replace. */
static guint64 expected_requests(guint64 n, guint64 L, guint64 T, guint64 seed) {
  const guint64 R = n + 10, Wg = (n + 31) / 32, Wx = (L + 31) / 32, W = Wg + Wx;
  guint64 st = seed * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15) + 1;
  /* G only: the requests do not depend on X (bit i of a row is in its G part) */
  guint8 *g = g_new0(guint8, R * n);
  for (guint64 r = 0; r < R; r++)
    for (guint64 k = 0; k < Wg; k++) {
      guint32 x = next32(&st);
      for (guint64 b = 0; b < 32 && k * 32 + b < n; b++) g[r * n + k * 32 + b] = (x >> b) & 1;
    }
  guint64 req = 0;
  guint8 *piv = g_malloc(R); /* n bytes used */
  for (guint64 i = 0; i < n; i++) {
    guint64 p = i;
    while (p < R && !g[p * n + i]) p++;
    cr_assert(p < R, "singular test instance");
    req += MIN(R - i, ((p - i) / T + 1) * T);   /* the search blocks read */
    req += 2 * W + (p != i ? 2 * W : 0);           /* swap */
    memcpy(piv, g + p * n, n);
    if (p != i) memcpy(g + p * n, g + i * n, n);
    req += R - 1;                                  /* the test of every other row */
    for (guint64 r = 0; r < R; r++)
      if (r != i && g[r * n + i]) {
        req += 3 * W;
        for (guint64 c = 0; c < n; c++) g[r * n + c] ^= piv[c];
      }
    memcpy(g + i * n, piv, n);
    req += 2 * W;                                  /* replace */
  }
  g_free(g);
  g_free(piv);
  return req;
}

Test(gf2, requests_are_the_kernels) {
  static const guint64 cases[][3] = {{8, 40, 32}, {45, 100, 32}, {96, 64, 64}, {200, 33, 128}};
  for (gsize c = 0; c < G_N_ELEMENTS(cases); c++)
    for (int col = 0; col < 2; col++) {
      char *kv[5] = {g_strdup_printf("symbols=%" G_GUINT64_FORMAT, cases[c][0]),
                     g_strdup_printf("length=%" G_GUINT64_FORMAT, cases[c][1]),
                     g_strdup_printf("threads_per_block=%" G_GUINT64_FORMAT, cases[c][2]),
                     g_strdup(col ? "arrangement=column" : "arrangement=row"), NULL};
      GHashTable *p = params_v((const char *const *)kv);
      GError *err = NULL;
      MsModel *m = ms_model_new(MS_MODEL_UMM, 32, 5, 1, 1, 5);
      MsSource *s = ms_gf2_source("eliminate", p, &err);
      cr_assert(s, "%s", err ? err->message : "");
      MsResult *r = sim(m, s);
      guint64 want = expected_requests(cases[c][0], cases[c][1], cases[c][2], 1);
      cr_assert_eq(r->requests, want, "case %zu %s: %" G_GUINT64_FORMAT " requests, expected %" G_GUINT64_FORMAT, c,
                   kv[3], r->requests, want);
      /* three kernels per pivot, the last without a barrier after it */
      cr_assert_eq(r->grid_barriers, 3 * cases[c][0] - 1);
      ms_result_free(r);
      ms_model_free(m);
      g_hash_table_destroy(p);
      for (int i = 0; i < 4; i++) g_free(kv[i]);
    }
}

/* The column arrangement coalesces the XOR: on a UMM of group 32 words a warp's row step is
 * one stage, where the row arrangement (rows of W words) needs one per active lane. */
Test(gf2, column_arrangement_coalesces_the_xor) {
  guint64 st[2];
  for (int col = 0; col < 2; col++) {
    GHashTable *p = col ? PARAMS("symbols=128", "length=1024", "arrangement=column")
                        : PARAMS("symbols=128", "length=1024", "arrangement=row");
    GError *err = NULL;
    MsModel *m = ms_model_new(MS_MODEL_UMM, 32, 5, 1, 1, 5);
    MsResult *r = sim(m, ms_gf2_source("eliminate", p, &err));
    st[col] = r->stages;
    ms_result_free(r);
    ms_model_free(m);
    g_hash_table_destroy(p);
  }
  cr_assert_gt(st[0], 4 * st[1], "row %" G_GUINT64_FORMAT " stages, column %" G_GUINT64_FORMAT, st[0], st[1]);
}

static void expect_text_error(const char *from, const char *to, const char *needle) {
  GHashTable *p = PARAMS("symbols=40", "length=70", "arrangement=row", "threads_per_block=32");
  char *t = compact_ok(p);
  char *at = strstr(t, from);
  cr_assert(at, "\"%s\" not in the trace", from);
  GString *s = g_string_new_len(t, at - t);
  g_string_append(s, to);
  g_string_append(s, at + strlen(from));
  GError *err = NULL;
  cr_assert_not(ms_gf2_verify_text("eliminate", p, s->str, &err), "edit %s -> %s accepted", from, to);
  cr_assert(strstr(err->message, needle), "\"%s\" lacks \"%s\"", err->message, needle);
  cr_assert(ms_gf2_verify_text("eliminate", p, t, NULL));
  g_error_free(err);
  g_string_free(s, TRUE);
  g_free(t);
  g_hash_table_destroy(p);
}

Test(gf2, edited_traces_are_refused) {
  expect_text_error("\"addr\": \"pivrow[k]\"", "\"addr\": \"pivrow[0]\"", "gf2: verification failed");
  expect_text_error("c < NC[v]", "c < 0", "the search does not find the pivot row");
  expect_text_error("& 31)) & 1", "& 31)) & 0", "a row whose bit i is set does not XOR");
  expect_text_error("{\"op\": \"sync\", \"scope\": \"grid\"},", "", "a barrier differs");
}

static void expect_error(GHashTable *p, int code, const char *needle) {
  GError *err = NULL;
  MsSource *s = ms_gf2_source("eliminate", p, &err);
  cr_assert_null(s);
  cr_assert_eq(err->code, code, "code %d (%s)", err->code, err->message);
  cr_assert(strstr(err->message, needle), "\"%s\" lacks \"%s\"", err->message, needle);
  g_error_free(err);
  g_hash_table_destroy(p);
}

Test(gf2, bad_parameters_are_refused) {
  expect_error(PARAMS("arrangement=diagonal"), MS_ERROR_INVALID, "gf2: --arrangement must be row or column, got \"diagonal\"");
  expect_error(PARAMS("symbols=0"), MS_ERROR_INVALID, "--symbols: 0 is out of range [1, 65536]");
  expect_error(PARAMS("length=x"), MS_ERROR_INVALID, "--length: expected a non-negative integer, got \"x\"");
  expect_error(PARAMS("threads_per_block=2048"), MS_ERROR_INVALID, "--threads_per_block: 2048 is out of range [1, 1024]");
  expect_error(PARAMS("rows=3"), MS_ERROR_INVALID, "gf2: unknown parameter \"rows\"");
  GError *err = NULL;
  cr_assert_null(ms_gf2_source("lu", NULL, &err));
  cr_assert_str_eq(err->message, "gf2: unknown algorithm \"lu\" (eliminate)");
  g_error_free(err);
}

/* One symbol: G is an 11 x 1 column, singular when all 11 bits are 0 (1 seed in 2048). */
Test(gf2, a_singular_matrix_names_the_seed) {
  gboolean found = FALSE;
  for (guint s = 1; s < 20000 && !found; s++) {
    char *kv[3] = {g_strdup("symbols=1"), g_strdup_printf("seed=%u", s), NULL};
    GHashTable *p = params_v((const char *const *)kv);
    GError *err = NULL;
    MsSource *src = ms_gf2_source("eliminate", p, &err);
    if (!src) {
      cr_assert_eq(err->code, MS_ERROR_VERIFY);
      char *want = g_strdup_printf("gf2: seed %u gives a singular generator matrix", s);
      cr_assert(strstr(err->message, want), "%s", err->message);
      g_free(want);
      g_error_free(err);
      found = TRUE;
    }
    ms_source_free(src);
    g_hash_table_destroy(p);
    g_free(kv[0]);
    g_free(kv[1]);
  }
  cr_assert(found, "no singular seed among 20000 (expected about 10)");
}
