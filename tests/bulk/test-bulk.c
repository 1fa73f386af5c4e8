/* test-bulk.c: the family "bulk" (docs/workloads/bulk.md): every built-in verifies on data,
 * wrong traces and bad programs are refused, and the times on the UMM are the exact form of
 * seed 003's Theorem 1 (column-wise), the row-wise penalty and the knee between l * t and
 * p * t / w. */
#include <criterion/criterion.h>
#include "ms-bulk.h"
#include <string.h>
#include <unistd.h>

static GHashTable *params_v(const char *const *kv) {
  GHashTable *p = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  for (; kv && *kv; kv++) {
    const char *eq = strchr(*kv, '=');
    g_hash_table_insert(p, g_strndup(*kv, (gsize)(eq - *kv)), g_strdup(eq + 1));
  }
  return p;
}
#define PARAMS(...) params_v((const char *const[]){__VA_ARGS__, NULL})

static char *compact_ok(const char *alg, GHashTable *p, MsBulkInfo *info) {
  GError *err = NULL;
  char *t = ms_bulk_compact(alg, p, info, &err);
  cr_assert(t, "%s: %s", alg, err ? err->message : "");
  return t;
}

static void expect_error(const char *alg, GHashTable *p, int code, const char *needle) {
  GError *err = NULL;
  char *t = ms_bulk_compact(alg, p, NULL, &err);
  cr_assert_null(t, "%s should fail", alg);
  cr_assert_eq(err->code, code, "%s: code %d (%s)", alg, err->code, err->message);
  cr_assert(strstr(err->message, needle), "%s: \"%s\" lacks \"%s\"", alg, err->message, needle);
  g_error_free(err);
  g_hash_table_destroy(p);
}

/* Simulate `alg` with params on a UMM of width w, latency l. */
static MsResult *simulate(const char *alg, GHashTable *p, guint32 w, guint64 l, MsBulkInfo *info) {
  char *text = compact_ok(alg, p, info);
  GError *err = NULL;
  MsSource *src = ms_trace_open_memory(text, strlen(text), alg, &err);
  cr_assert(src, "%s", err ? err->message : "");
  MsModel *m = ms_model_new(MS_MODEL_UMM, w, l, 1, 1, l);
  MsSimOptions opt = {0};
  MsResult *r = ms_simulate(m, src, &opt, &err);
  cr_assert(r, "%s", err ? err->message : "");
  ms_model_free(m);
  ms_source_free(src);
  g_free(text);
  g_hash_table_destroy(p);
  return r;
}

Test(bulk, every_builtin_verifies_at_small_sizes) {
  static const struct {
    const char *alg;
    const char *kv[6];
    guint64 t;
  } cases[] = {
      {"prefix-sums", {"n=1", "p=1"}, 2},
      {"prefix-sums", {"n=100", "p=33", "arrangement=row"}, 200},
      {"bitonic", {"n=2", "p=2"}, 4},
      {"bitonic", {"n=32", "p=64"}, 32 * 5 * 6},
      {"bitonic", {"n=1024", "p=32", "arrangement=row"}, 1024 * 10 * 11},
      {"bitonic", {"n=64", "p=5", "seed=9"}, 64 * 6 * 7},
      {"floyd-warshall", {"n=1", "p=1"}, 4},
      {"floyd-warshall", {"n=12", "p=64"}, 4 * 12 * 12 * 12},
      {"floyd-warshall", {"n=7", "p=3", "arrangement=row", "seed=3"}, 4 * 7 * 7 * 7},
      {"montgomery", {"bits=32", "p=2"}, 0},
      {"montgomery", {"bits=64", "p=64", "arrangement=row"}, 0},
      {"montgomery", {"bits=256", "p=7", "seed=5"}, 0},
      {"montgomery", {"bits=1024", "p=32"}, 0},
      /* cky: (n^3 - n) / 6 (i, j, k) triples of 2b reads, n (n - 1) / 2 cells of b writes */
      {"cky", {"n=8", "nonterminals=4", "rules=20", "p=64"}, 84 * 8 + 28 * 4},
      {"cky", {"n=12", "nonterminals=6", "rules=216", "p=33", "arrangement=row"}, 286 * 12 + 66 * 6},
      {"cky", {"n=16", "nonterminals=32", "rules=2048", "p=32"}, 680 * 64 + 120 * 32},
      {"cky", {"n=2", "nonterminals=1", "rules=1", "p=1"}, 3},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    MsBulkInfo info;
    GHashTable *p = params_v(cases[i].kv);
    g_free(compact_ok(cases[i].alg, p, &info));
    g_hash_table_destroy(p);
    cr_assert(info.data);
    cr_assert_geq(info.checked, 1);
    if (cases[i].t) cr_assert_eq(info.t, cases[i].t, "%s case %zu: t = %lu", cases[i].alg, i, (unsigned long)info.t);
  }
}

Test(bulk, bitonic_sizes_of_the_brief) {
  MsBulkInfo info;
  GHashTable *p = PARAMS("n=32768", "p=2");
  g_free(compact_ok("bitonic", p, &info));
  g_hash_table_destroy(p);
  cr_assert_eq(info.t, 32768ull * 15 * 16);
}

/* Seed 002's Table 3.1 (the first rows of Table 3.2), exactly: reads and writes of School
 * (2w^2, w^2 + w) and Comba (2w^2 - 2, 2w) for w-word operands, each run on data and
 * checked against GMP's product. */
Test(bulk, multiplication_counts_are_table_3_1) {
  static const guint64 ws[] = {2, 3, 8, 32, 64};
  for (int comba = 0; comba < 2; comba++)
    for (gsize i = 0; i < G_N_ELEMENTS(ws); i++) {
      const guint64 w = ws[i];
      char bits[32];
      g_snprintf(bits, sizeof bits, "bits=%" G_GUINT64_FORMAT, 32 * w);
      GHashTable *p = PARAMS(bits, "p=32", comba ? "arrangement=row" : "arrangement=column");
      MsBulkInfo info;
      const char *alg = comba ? "comba" : "school";
      char *t = compact_ok(alg, p, &info);
      cr_assert(info.data);
      GError *err = NULL;
      MsSource *src = ms_trace_open_memory(t, strlen(t), alg, &err);
      cr_assert(src, "%s", err ? err->message : "");
      guint64 rd = 0, wr = 0;
      MsStep st;
      MsNext nx;
      while ((nx = ms_source_next(src, &st, &err)) == MS_NEXT_STEP) {
        if (st.op == MS_OP_READ) rd++;
        else if (st.op == MS_OP_WRITE) wr++;
      }
      cr_assert_eq(nx, MS_NEXT_END, "%s", err ? err->message : "");
      const guint64 want_rd = comba ? 2 * w * w - 2 : 2 * w * w, want_wr = comba ? 2 * w : w * w + w;
      cr_assert_eq(rd, want_rd, "%s w = %lu: %lu reads, Table 3.1 says %lu", alg, (unsigned long)w, (unsigned long)rd,
                   (unsigned long)want_rd);
      cr_assert_eq(wr, want_wr, "%s w = %lu: %lu writes, Table 3.1 says %lu", alg, (unsigned long)w, (unsigned long)wr,
                   (unsigned long)want_wr);
      cr_assert_eq(info.t, rd + wr);
      ms_source_free(src);
      g_free(t);
      g_hash_table_destroy(p);
    }
}

/* An edited trace: the wrong thread's word, or a read where the program writes. */
Test(bulk, wrong_traces_fail_verification) {
  GHashTable *p = PARAMS("n=32", "p=64");
  char *t = compact_ok("bitonic", p, NULL);
  GString *s = g_string_new(t);
  g_string_replace(s, "* 64 + tid]", "* 64 + (tid ^ 1)]", 1);
  GError *err = NULL;
  cr_assert_not(ms_bulk_verify_text("bitonic", p, s->str, NULL, &err));
  cr_assert_eq(err->code, MS_ERROR_VERIFY, "%s", err->message);
  cr_assert(strstr(err->message, "not word"), "%s", err->message);
  g_clear_error(&err);
  g_string_assign(s, t);
  g_string_replace(s, "\"op\":\"write\"", "\"op\":\"read\"", 1);
  cr_assert_not(ms_bulk_verify_text("bitonic", p, s->str, NULL, &err));
  cr_assert_eq(err->code, MS_ERROR_VERIFY, "%s", err->message);
  g_clear_error(&err);
  /* the right addresses, in the wrong order: the result is not sorted */
  g_string_assign(s, t);
  cr_assert(ms_bulk_verify_text("bitonic", p, s->str, NULL, &err), "%s", err ? err->message : "");
  g_string_free(s, TRUE);
  g_free(t);
  g_hash_table_destroy(p);
}

/* CKY: a trace that reads or writes another word of the instance than the program does. */
Test(bulk, wrong_cky_traces_fail_verification) {
  GHashTable *p = PARAMS("n=10", "nonterminals=8", "rules=120", "p=64");
  char *t = compact_ok("cky", p, NULL);
  static const char *const edits[][2] = {
      {"((jj - ii + kk) * (jj - ii + kk + 1) / 2 + jj - ii) * b + a)", "((jj - ii + kk) * (jj - ii + kk + 1) / 2 + jj - ii) * b + (a ^ 1))"},
      {"((jj + 1) * (jj + 2) / 2 + jj - ii) * b + a)", "((jj + 1) * (jj + 2) / 2 + jj - ii) * b + (7 - a))"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(edits); i++) {
    GString *s = g_string_new(t);
    cr_assert_eq(g_string_replace(s, edits[i][0], edits[i][1], 0), 1, "edit %zu not found in\n%s", i, t);
    GError *err = NULL;
    cr_assert_not(ms_bulk_verify_text("cky", p, s->str, NULL, &err), "edit %zu", i);
    cr_assert_eq(err->code, MS_ERROR_VERIFY, "%s", err->message);
    g_clear_error(&err);
    g_string_free(s, TRUE);
  }
  g_free(t);
  g_hash_table_destroy(p);
}

static char *write_tmp(const char *text) {
  char *path = NULL;
  int fd = g_file_open_tmp("bulk-XXXXXX.json", &path, NULL);
  cr_assert_geq(fd, 0);
  close(fd);
  cr_assert(g_file_set_contents(path, text, -1, NULL));
  return path;
}

static void program_error(const char *text, int code, const char *needle) {
  char *path = write_tmp(text);
  GHashTable *p = params_v(NULL);
  g_hash_table_insert(p, g_strdup("program"), g_strdup(path));
  g_hash_table_insert(p, g_strdup("p"), g_strdup("4"));
  GError *err = NULL;
  char *t = ms_bulk_compact("program", p, NULL, &err);
  cr_assert_null(t, "\"%s\" should fail", text);
  cr_assert_eq(err->code, code, "%s", err->message);
  cr_assert(strstr(err->message, needle), "\"%s\" lacks \"%s\"", err->message, needle);
  cr_assert(strstr(err->message, path) || code == MS_ERROR_VERIFY, "\"%s\" lacks the file", err->message);
  g_error_free(err);
  g_hash_table_destroy(p);
  unlink(path);
  g_free(path);
}

Test(bulk, user_program_is_checked) {
  const char *ok = "{\"memsim_bulk\": 1, \"name\": \"reverse\", \"words\": 8, \"constants\": {\"h\": 4},\n"
                   " \"steps\": [{\"repeat\": \"h\", \"var\": \"x\", \"steps\": [\n"
                   "   {\"op\": \"read\", \"addr\": \"x\"}, {\"op\": \"read\", \"addr\": \"7 - x\"},\n"
                   "   {\"op\": \"write\", \"addr\": \"x\"}, {\"op\": \"write\", \"addr\": 3, \"when\": \"x == 0\"}]}]}\n";
  char *path = write_tmp(ok);
  GHashTable *p = params_v(NULL);
  g_hash_table_insert(p, g_strdup("program"), g_strdup(path));
  g_hash_table_insert(p, g_strdup("p"), g_strdup("64"));
  g_hash_table_insert(p, g_strdup("arrangement"), g_strdup("row"));
  MsBulkInfo info;
  g_free(compact_ok("program", p, &info));
  cr_assert_eq(info.t, 16);
  cr_assert_eq(info.words, 8);
  cr_assert_not(info.data);
  g_hash_table_destroy(p);
  unlink(path);
  g_free(path);
  program_error("{\"memsim_bulk\": 1, \"words\": 8,\n \"steps\": [}", MS_ERROR_SYNTAX, ":2:");
  program_error("{\"memsim_bulk\": 1, \"words\": 8.5, \"steps\": []}", MS_ERROR_INVALID, "words");
  program_error("{\"memsim_bulk\": 1, \"words\": 0, \"steps\": []}", MS_ERROR_INVALID, "words");
  program_error("{\"memsim_bulk\": 1, \"words\": 8, \"steps\": [{\"op\": \"sync\", \"addr\": 0}]}", MS_ERROR_INVALID,
                "steps[0]: op");
  program_error("{\"memsim_bulk\": 1, \"words\": 8, \"steps\": [{\"op\": \"read\", \"adr\": 0}]}", MS_ERROR_INVALID,
                "adr");
  program_error("{\"memsim_bulk\": 1, \"words\": 8, \"steps\": [{\"op\": \"read\", \"addr\": \"x +\"}]}", MS_ERROR_SYNTAX,
                "steps[0].addr");
  program_error("{\"words\": 8, \"steps\": []}", MS_ERROR_INVALID, "memsim_bulk");
  program_error("{\"memsim_bulk\": 1, \"words\": 8, \"steps\": [{\"op\": \"read\", \"addr\": 8}]}", MS_ERROR_VERIFY,
                "beyond its 8 words");
  /* not oblivious: the word depends on the thread */
  program_error("{\"memsim_bulk\": 1, \"words\": 8, \"steps\": [{\"op\": \"read\", \"addr\": \"tid % 8\"}]}",
                MS_ERROR_VERIFY, "instance 1");
}

Test(bulk, bad_parameters_name_the_parameter) {
  expect_error("bitonic", PARAMS("n=48"), MS_ERROR_INVALID, "--n: 48 is not a power of two");
  expect_error("montgomery", PARAMS("bits=33"), MS_ERROR_INVALID, "--bits: 33 is not a multiple of 32");
  expect_error("montgomery", PARAMS("n=33"), MS_ERROR_INVALID, "unknown parameter \"n\"");
  expect_error("floyd-warshall", PARAMS("n=0"), MS_ERROR_INVALID, "--n: 0 is out of range");
  expect_error("prefix-sums", PARAMS("p=0"), MS_ERROR_INVALID, "--p: 0 is out of range");
  expect_error("prefix-sums", PARAMS("arrangement=diagonal"), MS_ERROR_INVALID, "--arrangement");
  expect_error("prefix-sums", PARAMS("p=100", "threads_per_block=64"), MS_ERROR_INVALID, "--threads-per-block");
  expect_error("program", PARAMS("p=4"), MS_ERROR_INVALID, "--program FILE is required");
  expect_error("quicksort", PARAMS("p=4"), MS_ERROR_INVALID, "unknown algorithm");
  expect_error("cky", PARAMS("nonterminals=4", "rules=65"), MS_ERROR_INVALID,
               "--rules: 65 is more than the 64 distinct rules A -> BC of 4 non-terminals");
  expect_error("cky", PARAMS("nonterminals=513"), MS_ERROR_INVALID, "--nonterminals: 513 is out of range");
  expect_error("bitonic", PARAMS("rules=4"), MS_ERROR_INVALID, "unknown parameter \"rules\"");
}

/* Theorem 1, exact: column-wise, every warp needs one stage a step, so with W = p / w warps
 * a step takes max(W, l) time units after the first, and the whole t + ... as
 * ms_bulk_uniform_time; never above the papers' per-round sum t * (W + l - 1). */
Test(bulk, theorem1_column_wise_is_exact) {
  static const struct {
    const char *alg;
    const char *kv[3];
    guint32 w;
    guint64 l;
  } cases[] = {
      {"prefix-sums", {"n=64", "p=1024"}, 32, 5},   {"prefix-sums", {"n=64", "p=64"}, 32, 100},
      {"bitonic", {"n=32", "p=256"}, 32, 8},        {"bitonic", {"n=32", "p=4096"}, 32, 400},
      {"floyd-warshall", {"n=6", "p=512"}, 32, 16}, {"montgomery", {"bits=64", "p=128"}, 32, 4},
      {"bitonic", {"n=32", "p=64"}, 4, 5},          {"cky", {"n=8", "p=256"}, 32, 30},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    MsBulkInfo info;
    MsResult *r = simulate(cases[i].alg, params_v(cases[i].kv), cases[i].w, cases[i].l, &info);
    const guint64 W = info.p / cases[i].w;
    cr_assert_eq(r->extra_stages, 0, "column-wise is coalesced");
    cr_assert_eq(r->stages, info.t * W);
    cr_assert_eq(r->time_units, ms_bulk_uniform_time(info.t, info.p, cases[i].w, cases[i].l, 1), "case %zu: %lu", i,
                 (unsigned long)r->time_units);
    cr_assert_leq(r->time_units, info.t * (W + cases[i].l - 1));
    cr_assert_eq(r->round_sum, info.t * (W + cases[i].l - 1));
    ms_result_free(r);
  }
}

/* Row-wise: thread j's word x at j * words + x, so a warp's w threads touch w groups when
 * words >= w (a multiple of w apart) and words groups when words divides w. */
Test(bulk, row_wise_penalty_is_exact) {
  static const struct {
    guint64 n, k;
  } cases[] = {{8, 8}, {16, 16}, {32, 32}, {64, 32}, {96, 32}};
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    char n[32];
    g_snprintf(n, sizeof n, "n=%lu", (unsigned long)cases[i].n);
    MsBulkInfo info;
    MsResult *r = simulate("prefix-sums", PARAMS(n, "p=128", "arrangement=row"), 32, 10, &info);
    cr_assert_eq(info.t, 2 * cases[i].n);
    cr_assert_eq(r->stages, info.t * (128 / 32) * cases[i].k, "n = %lu: %lu stages", (unsigned long)cases[i].n,
                 (unsigned long)r->stages);
    cr_assert_eq(r->time_units, ms_bulk_uniform_time(info.t, 128, 32, 10, cases[i].k));
    ms_result_free(r);
  }
}

/* The knee: with t fixed, the time is about l * t while W = p / w < l (latency bound) and
 * about t * p / w once W >= l (bandwidth bound): exactly t * l + W - 1 and t * W + l - 1. */
Test(bulk, knee_between_latency_and_bandwidth) {
  const guint64 l = 64, w = 32;
  for (guint64 p = 32; p <= 16384; p *= 2) {
    char ps[32];
    g_snprintf(ps, sizeof ps, "p=%lu", (unsigned long)p);
    MsBulkInfo info;
    MsResult *r = simulate("prefix-sums", PARAMS("n=16", ps), (guint32)w, l, &info);
    const guint64 t = info.t, W = p / w;
    cr_assert_eq(t, 32);
    const guint64 want = W < l ? t * l + W - 1 : t * W + l - 1;
    cr_assert_eq(r->time_units, want, "p = %lu: %lu, not %lu", (unsigned long)p, (unsigned long)r->time_units,
                 (unsigned long)want);
    ms_result_free(r);
  }
}

Test(bulk, workload_source_dispatch) {
  GError *err = NULL;
  GHashTable *p = PARAMS("n=32", "p=64");
  MsSource *src = ms_workload_source("bulk", "bitonic", p, &err);
  cr_assert(src, "%s", err ? err->message : "");
  cr_assert_eq(ms_source_threads(src), 64);
  cr_assert_eq(ms_source_global_words(src), 64 * 32);
  ms_source_free(src);
  g_hash_table_destroy(p);
}
