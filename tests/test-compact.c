/* test-compact.c: the compact trace form: expression semantics and bad input, table-driven
 * with the exact messages (issue 3). */
#include "memsim.h"
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <glib/gstdio.h>
#include <string.h>

typedef struct {
  const char *name, *text, *message; /* message: expected prefix of the error */
} BadCase;

static const BadCase bad[] = {
    {"div0",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":\"8 / (tid - 2)\"}]}",
     "c.json: steps[0].addr, column 3: division by zero in \"8 / (tid - 2)\" (thread 2)"},
    {"mod0",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":\"tid % 0\"}]}",
     "c.json: steps[0].addr, column 5: division by zero in \"tid % 0\" (thread 0)"},
    {"unknown_name",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":\"tid + nope\"}]}",
     "c.json: steps[0].addr, column 7: unknown name 'nope' in \"tid + nope\""},
    {"unknown_func",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":\"sqrt(tid)\"}]}",
     "c.json: steps[0].addr, column 1: unknown function 'sqrt' (known: min, max, abs) in \"sqrt(tid)\""},
    {"overflow_mul",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":\"(tid + 1) * 4611686018427387904\"}]}",
     "c.json: steps[0].addr, column 11: 64-bit overflow in \"(tid + 1) * 4611686018427387904\" (thread 1)"},
    {"overflow_shift",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":\"1 << 64\"}]}",
     "c.json: steps[0].addr, column 3: shift count outside 0..63 in \"1 << 64\""},
    {"overflow_const",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":\"99999999999999999999\"}]}",
     "c.json: steps[0].addr, column 1: integer constant beyond 2^63 - 1 in \"99999999999999999999\""},
    {"index_data",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"arrays\":{\"p\":{\"data\":[0,1,2]}},\"steps\":[{\"op\":\"read\",\"addr\":\"p[tid]\"}]}",
     "c.json: steps[0].addr, column 1: index outside the array in \"p[tid]\" (thread 3)"},
    {"index_addr",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"arrays\":{\"a\":{\"base\":0,\"length\":2}},\"steps\":[{\"op\":\"read\",\"addr\":\"a[tid]\"}]}",
     "c.json: steps[0].addr, column 1: index outside the array in \"a[tid]\" (thread 2)"},
    {"negative_index",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"arrays\":{\"a\":{\"base\":0}},\"steps\":[{\"op\":\"read\",\"addr\":\"a[tid - 1]\"}]}",
     "c.json: steps[0].addr, column 1: negative index in \"a[tid - 1]\" (thread 0)"},
    {"negative_addr",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":\"tid - 2\"}]}",
     "c.json: steps[0].addr: negative address -2 (thread 0)"},
    {"syntax",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":\"tid +\"}]}",
     "c.json: steps[0].addr, column 6: unexpected end of expression in \"tid +\""},
    {"paren",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":\"(tid\"}]}",
     "c.json: steps[0].addr, column 5: expected ')' in \"(tid\""},
    {"trailing",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":\"tid tid\"}]}",
     "c.json: steps[0].addr, column 5: unexpected text after the expression in \"tid tid\""},
    {"loop_too_big",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"repeat\":1048576,\"steps\":[{\"repeat\":1048576,\"steps\":[{\"repeat\":2,\"steps\":[{\"op\":\"read\",\"addr\":\"tid\"}]}]}]}]}",
     "c.json: steps[0]: the loops expand to more than 2^40 steps"},
    {"loop_thread",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"repeat\":\"tid\",\"steps\":[]}]}",
     "c.json: steps[0].repeat: a loop count must not depend on the thread"},
    {"loop_var_taken",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"constants\":{\"k\":1},\"steps\":[{\"repeat\":2,\"var\":\"k\",\"steps\":[]}]}",
     "c.json: steps[0].var: the name \"k\" is already taken"},
    {"reserved_name",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"constants\":{\"tid\":1},\"steps\":[]}",
     "c.json: constants.tid: the name \"tid\" is already taken"},
    {"const_thread",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"constants\":{\"c\":\"tid\"},\"steps\":[]}",
     "c.json: constants.c: must not depend on the thread (tid, ltid, bid)"},
    {"missing_addr",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"read\"}]}",
     "c.json: steps[0]: missing key \"addr\""},
    {"unknown_key",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":\"tid\",\"adr\":\"tid\"}]}",
     "c.json: steps[0]: unknown key \"adr\" (known: op, space, addr, when, async)"},
    {"shuffle_addr",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"shuffle\",\"addr\":\"tid\"}]}",
     "c.json: steps[0]: unknown key \"addr\" (known: op, when)"},
    {"shuffle_bad_when",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"shuffle\",\"when\":\"tid / (tid - tid)\"}]}",
     "c.json: steps[0].when, column 5: division by zero in \"tid / (tid - tid)\" (thread 0)"},
    {"bad_generate",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"arrays\":{\"p\":{\"data\":{\"generate\":\"transpose\",\"n\":8}}},\"steps\":[]}",
     "c.json: arrays.p.data: the transpose permutation needs n to be a perfect square, got 8"},
    {"bad_form",
     "{\"memsim_trace\":1,\"form\":\"tiny\",\"threads\":4,\"steps\":[]}",
     "c.json: form: unknown trace form \"tiny\" (expected explicit or compact)"},
    {"mixed_elem",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"arrays\":{\"a\":{\"base\":0,\"elem_words\":2},\"b\":{\"base\":100}},\"steps\":[{\"op\":\"read\",\"addr\":\"a[tid] + b[tid]\"}]}",
     "c.json: steps[0].addr, column 10: address arrays of different element sizes in one expression in \"a[tid] + b[tid]\""},
    {"missing_file",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"arrays\":{\"p\":{\"data\":{\"file\":\"nope.u32\"}}},\"steps\":[]}",
     "c.json: arrays.p.data: cannot read data file ./nope.u32:"},
    {"deep_expr",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":\"((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((tid))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))\"}]}",
     "c.json: steps[0].addr, column 201: expression nested too deeply"},
    {"shared_words_negative",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"shared_words\":-8,\"steps\":[]}",
     "c.json: shared_words: -8 is out of range [0, 9007199254740991]"},
    {"shared_words_bool",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"shared_words\":true,\"steps\":[]}",
     "c.json: shared_words: expected an integer, got a boolean"},
    /* found by fuzzing: a tiny trace must not make memsim try to allocate 32 GiB */
    {"huge_generate",
     "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"arrays\":{\"P\":{\"data\":{\"generate\":\"random\",\"n\":4294967296}}},\"steps\":[]}",
     "c.json: arrays.P.data: a permutation of 4294967296 elements needs 32.0 GiB: more than half the memory this process may use"},
};

/* Open (and, if it opens, simulate on a small DMM) a trace given as text; returns the error. */
static GError *run_text(const char *text, MsResult **result) {
  GError *err = NULL;
  MsSource *src = ms_trace_open_memory(text, strlen(text), "c.json", &err);
  MsResult *r = NULL;
  if (src) {
    MsModel *m = ms_model_new(MS_MODEL_DMM, 4, 5, 1, 1, 1);
    r = ms_simulate(m, src, NULL, &err);
    ms_model_free(m);
    ms_source_free(src);
  }
  if (result) *result = r;
  else ms_result_free(r);
  return err;
}

ParameterizedTestParameters(compact, should_reject_bad_input) {
  static int idx[G_N_ELEMENTS(bad)];
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) idx[i] = (int)i;
  return cr_make_param_array(int, idx, G_N_ELEMENTS(bad));
}

ParameterizedTest(int *i, compact, should_reject_bad_input) {
  const BadCase *c = &bad[*i];
  GError *err = run_text(c->text, NULL);
  cr_assert(err != NULL, "%s: accepted", c->name);
  cr_expect(strncmp(err->message, c->message, strlen(c->message)) == 0,
            "%s:\n    got      %s\n    expected %s", c->name, err->message, c->message);
  g_error_free(err);
}

/* The value of `addr` for each of `n` threads, through a one-step trace on a UMM with w = 1. */
static void addresses(const char *arrays, const char *addr, const char *when, int n, gint64 *out) {
  char *text = g_strdup_printf("{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":%d,\"block_threads\":2,"
                               "\"constants\":{\"c\":7},\"arrays\":{%s},\"steps\":[{\"op\":\"read\",\"addr\":\"%s\"%s%s%s}]}",
                               n, arrays, addr, when ? ",\"when\":\"" : "", when ? when : "", when ? "\"" : "");
  GError *err = NULL;
  MsSource *src = ms_trace_open_memory(text, strlen(text), "e.json", &err);
  cr_assert(src, "%s", err ? err->message : "");
  MsStep st;
  cr_assert_eq(ms_source_next(src, &st, &err), MS_NEXT_STEP);
  cr_assert(ms_source_fill(src, 0, (guint64)n, out, &err), "%s", err ? err->message : "");
  ms_source_free(src);
  g_free(text);
}

typedef struct {
  const char *arrays, *addr, *when;
  gint64 want[6];
} EvalCase;

static const EvalCase evals[] = {
    {"", "tid * 3 + c", NULL, {7, 10, 13, 16, 19, 22}},
    {"", "ltid + 10 * bid", NULL, {0, 1, 10, 11, 20, 21}},
    {"", "(tid - 3) / 2 + 5", NULL, {4, 4, 5, 5, 5, 6}},           /* C division truncates */
    {"", "(tid - 3) % 2 + 5", NULL, {4, 5, 4, 5, 6, 5}},
    {"", "tid != 0 ? 12 / tid : 99", NULL, {99, 12, 6, 4, 3, 2}}, /* no error from the untaken side */
    {"", "tid == 0 || 12 / tid > 3", NULL, {1, 1, 1, 1, 0, 0}},
    {"", "min(tid, 3) + max(tid, 4) + abs(tid - 5)", NULL, {9, 9, 9, 9, 8, 8}},
    {"", "(tid << 2) | (tid >> 1) ^ 1 & ~0", NULL, {1, 5, 8, 12, 19, 23}}, /* & binds tighter than ^, ^ than | */
    {"", "0x10 + tid", "tid % 2 == 0", {16, -1, 18, -1, 20, -1}},
    {"", "16 + 8 / (tid - 1)", "tid != 1", {8, -1, 24, 20, 18, 18}},      /* the inactive thread's error does not count */
    {"\"a\":{\"base\":100,\"elem_words\":2},\"p\":{\"data\":[5,4,3,2,1,0]}", "a[p[tid]]", NULL, {110, 108, 106, 104, 102, 100}},
    {"\"a\":{\"length\":3},\"b\":{\"length\":4}", "b[tid % 4]", NULL, {3, 4, 5, 6, 3, 4}}, /* b placed after a */
};

ParameterizedTestParameters(compact, should_evaluate_expressions) {
  static int idx[G_N_ELEMENTS(evals)];
  for (gsize i = 0; i < G_N_ELEMENTS(evals); i++) idx[i] = (int)i;
  return cr_make_param_array(int, idx, G_N_ELEMENTS(evals));
}

ParameterizedTest(int *i, compact, should_evaluate_expressions) {
  const EvalCase *c = &evals[*i];
  gint64 got[6];
  addresses(c->arrays, c->addr, c->when, 6, got);
  for (int k = 0; k < 6; k++)
    cr_expect_eq(got[k], c->want[k], "%s: thread %d: got %" G_GINT64_FORMAT ", want %" G_GINT64_FORMAT,
                 c->addr, k, got[k], c->want[k]);
}

Test(compact, should_expand_loops_and_multiword_elements) {
  const char *text =
      "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":2,"
      "\"arrays\":{\"d\":{\"base\":0,\"elem_words\":2}},"
      "\"steps\":[{\"repeat\":3,\"var\":\"k\",\"steps\":[{\"repeat\":\"k\",\"var\":\"j\",\"steps\":["
      "{\"op\":\"read\",\"addr\":\"d[tid + 10 * k + 100 * j]\"},{\"op\":\"sync\"}]}]}]}";
  GError *err = NULL;
  MsSource *src = ms_trace_open_memory(text, strlen(text), "l.json", &err);
  cr_assert(src, "%s", err ? err->message : "");
  /* k = 1: j = 0; k = 2: j = 0, 1 -> 3 reads of 2 words each, each followed by a sync */
  static const gint64 want[][2] = {{20, 22}, {21, 23}, {40, 42}, {41, 43}, {240, 242}, {241, 243}};
  int reads = 0, syncs = 0;
  MsStep st;
  MsNext nx;
  while ((nx = ms_source_next(src, &st, &err)) == MS_NEXT_STEP) {
    if (st.op == MS_OP_SYNC) {
      syncs++;
      continue;
    }
    gint64 a[2];
    cr_assert(ms_source_fill(src, 0, 2, a, &err));
    cr_assert_lt(reads, 6);
    cr_expect_eq(a[0], want[reads][0], "read %d", reads);
    cr_expect_eq(a[1], want[reads][1], "read %d", reads);
    reads++;
  }
  cr_assert_eq(nx, MS_NEXT_END, "%s", err ? err->message : "");
  cr_expect_eq(reads, 6);
  cr_expect_eq(syncs, 3);
  ms_source_free(src);
}

Test(compact, should_match_the_explicit_transpose) {
  /* the compact and explicit shipped transposes: 1088 time units (seed 001 Table 4.3) */
  const char *srcdir = g_getenv("MEMSIM_SRCDIR");
  cr_assert(srcdir);
  char *paths[2] = {g_build_filename(srcdir, "traces", "compact", "transpose-1024.json", NULL),
                    g_build_filename(srcdir, "traces", "transpose-1024.json", NULL)};
  MsModel *m = ms_model_new(MS_MODEL_DMM, 32, 1, 1, 1, 1);
  for (int k = 0; k < 2; k++) {
    GError *err = NULL;
    MsSource *s = ms_trace_open(paths[k], &err);
    cr_assert(s, "%s", err ? err->message : "");
    MsResult *r = ms_simulate(m, s, NULL, &err);
    cr_assert(r);
    cr_expect_eq(r->time_units, 1088);
    cr_expect_eq(r->extra_stages, 992);
    ms_result_free(r);
    ms_source_free(s);
    g_free(paths[k]);
  }
  ms_model_free(m);
}

Test(compact, should_read_data_files) {
  char *dir = g_dir_make_tmp("memsim-XXXXXX", NULL);
  char *bin = g_build_filename(dir, "p.u32", NULL);
  guint8 bytes[12] = {2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0};
  cr_assert(g_file_set_contents(bin, (const char *)bytes, sizeof bytes, NULL));
  char *trace = g_build_filename(dir, "t.json", NULL);
  const char *text = "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":3,"
                     "\"arrays\":{\"p\":{\"data\":{\"file\":\"p.u32\",\"type\":\"u32\"}}},"
                     "\"steps\":[{\"op\":\"read\",\"addr\":\"p[tid] * 10\"}]}";
  cr_assert(g_file_set_contents(trace, text, -1, NULL));
  GError *err = NULL;
  MsSource *s = ms_trace_open(trace, &err);
  cr_assert(s, "%s", err ? err->message : "");
  MsStep st;
  gint64 a[3];
  cr_assert_eq(ms_source_next(s, &st, &err), MS_NEXT_STEP);
  cr_assert(ms_source_fill(s, 0, 3, a, &err));
  cr_expect_eq(a[0], 20);
  cr_expect_eq(a[1], 0);
  cr_expect_eq(a[2], 10);
  ms_source_free(s);
  remove(trace);
  remove(bin);
  g_rmdir(dir);
  g_free(trace);
  g_free(bin);
  g_free(dir);
}

/* One step's addresses for threads [0, n), block_threads bt, or the error message. */
static char *fill_all(int n, int bt, const char *addr, const char *when, gint64 *out) {
  char *text = g_strdup_printf("{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":%d,\"block_threads\":%d,"
                               "\"arrays\":{\"p\":{\"data\":[3,1,4,1,5,9,2,6]}},\"steps\":[{\"op\":\"read\",\"addr\":\"%s\"%s%s%s}]}",
                               n, bt, addr, when ? ",\"when\":\"" : "", when ? when : "", when ? "\"" : "");
  GError *err = NULL;
  MsSource *src = ms_trace_open_memory(text, strlen(text), "b.json", &err);
  cr_assert(src, "%s", err ? err->message : "");
  MsStep st;
  cr_assert_eq(ms_source_next(src, &st, &err), MS_NEXT_STEP);
  gboolean ok = ms_source_fill(src, 0, (guint64)n, out, &err);
  ms_source_free(src);
  g_free(text);
  char *msg = ok ? NULL : g_strdup(err->message);
  g_clear_error(&err);
  return msg;
}

/* Block-uniform subexpressions (of bid) are evaluated once per block and addresses under a
 * sparse `when` only over the runs of active lanes: both give the values of a per-thread
 * reference, for dense, sparse and block-spanning predicates, and report the error of the
 * lowest active thread. */
Test(compact, block_uniform_and_sparse_evaluation_match_a_reference) {
  enum { N = 5000, BT = 64 };
  static gint64 got[N];
  static const int pdata[] = {3, 1, 4, 1, 5, 9, 2, 6};
  const char *addr = "(bid / 3) * 1000 + max(bid % 7, 2) * p[bid % 8] + ltid * 2 + tid % 5 + (bid > 40 ? tid : 0)";
  /* the last three: && and || whose right side is block-uniform (decided once per block when
   * the left side cannot fail), and one whose left side indexes an array (always evaluated) */
  static const char *const whens[] = {NULL, "ltid < 8", "tid % 3 != 0", "bid % 5 == 2 || bid % 5 == 3", "tid >= 4990",
                                      "(tid < 4000 && ltid * 2 + 1 > 0) && bid % 5 == 2", "tid % 7 == 1 || bid > 3",
                                      "p[ltid % 8] > 2 && bid % 2 == 1"};
  for (gsize w = 0; w < G_N_ELEMENTS(whens); w++) {
    char *msg = fill_all(N, BT, addr, whens[w], got);
    cr_assert_null(msg, "%s", msg);
    for (gint64 t = 0; t < N; t++) {
      gint64 bid = t / BT, ltid = t % BT;
      gboolean act = w == 0 ? TRUE : w == 1 ? ltid < 8 : w == 2 ? t % 3 != 0 : w == 3 ? (bid % 5 == 2 || bid % 5 == 3)
                     : w == 4 ? t >= 4990 : w == 5 ? (t < 4000 && bid % 5 == 2) : w == 6 ? (t % 7 == 1 || bid > 3)
                     : (pdata[ltid % 8] > 2 && bid % 2 == 1);
      gint64 want = act ? (bid / 3) * 1000 + MAX(bid % 7, 2) * pdata[bid % 8] + ltid * 2 + t % 5 + (bid > 40 ? t : 0) : MS_ADDR_NONE;
      cr_assert_eq(got[t], want, "when %s: thread %" G_GINT64_FORMAT ": got %" G_GINT64_FORMAT ", want %" G_GINT64_FORMAT,
                   whens[w] ? whens[w] : "(none)", t, got[t], want);
    }
  }
  /* a block-uniform division by zero names the first thread of the failing block */
  char *msg = fill_all(N, BT, "100 / (bid - 3) + 100 + ltid", NULL, got);
  cr_assert_str_eq(msg, "b.json: steps[0].addr, column 5: division by zero in \"100 / (bid - 3) + 100 + ltid\" (thread 192)");
  g_free(msg);
  msg = fill_all(N, BT, "100 / (bid - 3) + 100 + ltid", "bid != 3", got);
  cr_assert_null(msg, "%s", msg);
  cr_assert_eq(got[192], MS_ADDR_NONE);
  cr_assert_eq(got[256], 100 + 100 + 0);
  cr_assert_eq(got[1], 100 / -3 + 100 + 1);
  /* sparse path: the lowest active thread's error, and inactive lanes' errors ignored */
  msg = fill_all(N, BT, "8 / (ltid - 2)", "ltid < 4", got);
  cr_assert_str_eq(msg, "b.json: steps[0].addr, column 3: division by zero in \"8 / (ltid - 2)\" (thread 2)");
  g_free(msg);
  /* a left side that can fail is evaluated even where the right side is false; a right
   * side's error does not count where the left side decides */
  msg = fill_all(N, BT, "tid", "8 / (ltid - 2) > 0 && bid > 1000", got);
  cr_assert_str_eq(msg, "b.json: steps[0].when, column 3: division by zero in \"8 / (ltid - 2) > 0 && bid > 1000\" (thread 2)");
  g_free(msg);
  msg = fill_all(N, BT, "tid", "bid > 1000 && 8 / (ltid - 2) > 0", got);
  cr_assert_null(msg, "%s", msg);
  cr_assert_eq(got[2], MS_ADDR_NONE);
  msg = fill_all(N, BT, "tid", "tid < 50 && 8 / (tid - 40) > 0", got);
  cr_assert_str_eq(msg, "b.json: steps[0].when, column 15: division by zero in \"tid < 50 && 8 / (tid - 40) > 0\" (thread 40)");
  g_free(msg);
  msg = fill_all(N, BT, "ltid - 3", "ltid < 8 && bid > 0", got);
  cr_assert_str_eq(msg, "b.json: steps[0].addr: negative address -3 (thread 64)");
  g_free(msg);
}

/* A step's active range comes from the leading conjuncts of its `when` that compare tid or
 * bid with a uniform value, and only while every conjunct before them cannot fail (a lane
 * that one of them excludes must not be one that would report an error). */
Test(compact, active_range_from_leading_tid_and_bid_conjuncts) {
  static const struct {
    const char *when;
    guint64 lo, hi;
  } cases[] = {
      {"bid <= 2 && ltid < 8", 0, 192},
      {"tid >= 100 && tid < 200 && bid == 2", 128, 192},
      {"ltid < 8 && 300 > tid", 0, 300},
      {"bid > 77", 4992, 5000},
      {"tid < 0", 0, 0},
      {"bid < 1000000000000", 0, 5000},
      {"8 / (tid - 5) > 0 && tid < 3", 0, 5000}, /* the division may fail: no range */
      {"tid < 3 && 8 / (tid - 5) > 0", 0, 3},
      {"p[tid % 8] > 2 && tid < 10", 0, 5000},   /* indexing may fail */
      {"tid < 100 / (bid - 3) && tid < 10", 0, 5000}, /* not uniform: no range */
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    char *text = g_strdup_printf("{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":5000,\"block_threads\":64,"
                                 "\"arrays\":{\"p\":{\"data\":[3,1,4,1,5,9,2,6]}},\"steps\":[{\"op\":\"read\",\"addr\":\"tid\",\"when\":\"%s\"}]}",
                                 cases[i].when);
    GError *err = NULL;
    MsSource *src = ms_trace_open_memory(text, strlen(text), "r.json", &err);
    cr_assert(src, "%s", err ? err->message : "");
    MsStep st;
    cr_assert_eq(ms_source_next(src, &st, &err), MS_NEXT_STEP);
    guint64 lo = 99, hi = 99;
    ms_source_active_range(src, &lo, &hi);
    cr_expect(lo == cases[i].lo && hi == cases[i].hi, "%s: [%lu, %lu), want [%lu, %lu)", cases[i].when, (unsigned long)lo,
              (unsigned long)hi, (unsigned long)cases[i].lo, (unsigned long)cases[i].hi);
    ms_source_free(src);
    g_free(text);
  }
  /* the engine still reports the failing lane of a when it could not narrow */
  gint64 got[5000];
  char *msg = fill_all(5000, 64, "tid", "8 / (tid - 5) > 0 && tid < 3", got);
  cr_assert_str_eq(msg, "b.json: steps[0].when, column 3: division by zero in \"8 / (tid - 5) > 0 && tid < 3\" (thread 5)");
  g_free(msg);
}
