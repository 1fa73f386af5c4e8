/* test-simple.c: the held-out family "simple" (docs/workloads/simple.md): every algorithm
 * verifies at small sizes, wrong traces fail verification, bad parameters are refused, and
 * the stage counts that can be derived by hand are exact on a UMM (w = 32, groups of 32 or
 * 8 words) and a DMM (w = 32).  The shipped traces/simple/ files are what `memsim gen
 * simple` writes. */
#include <criterion/criterion.h>
#include "ms-simple.h"
#include "ms-perm.h"
#include <string.h>

/* params from "key=value" strings, NULL-terminated */
static GHashTable *params_v(const char *const *kv) {
  GHashTable *p = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  for (; kv && *kv; kv++) {
    const char *eq = strchr(*kv, '=');
    g_hash_table_insert(p, g_strndup(*kv, (gsize)(eq - *kv)), g_strdup(eq + 1));
  }
  return p;
}
#define PARAMS(...) params_v((const char *const[]){__VA_ARGS__, NULL})

static char *compact_ok(const char *alg, GHashTable *p) {
  GError *err = NULL;
  char *t = ms_simple_compact(alg, p, &err);
  cr_assert(t, "%s: %s", alg, err ? err->message : "");
  return t;
}

static void expect_error(const char *alg, GHashTable *p, int code, const char *needle) {
  GError *err = NULL;
  char *t = ms_simple_compact(alg, p, &err);
  cr_assert_null(t, "%s should fail", alg);
  cr_assert_eq(err->code, code, "%s: code %d (%s)", alg, err->code, err->message);
  cr_assert(strstr(err->message, needle), "%s: \"%s\" lacks \"%s\"", alg, err->message, needle);
  g_error_free(err);
  if (p) g_hash_table_destroy(p);
}

Test(simple, every_algorithm_verifies_at_small_sizes) {
  static const struct {
    const char *alg;
    const char *kv[4];
  } cases[] = {
      {"copy", {"n=4096"}},
      {"copy", {"n=96", "threads_per_block=32"}},
      {"strided-read", {"n=4096", "s=1"}},
      {"strided-read", {"n=4096", "s=2"}},
      {"strided-read", {"n=4096", "s=32"}},
      {"strided-read", {"n=768", "s=3"}},
      {"gather", {"n=4096", "seed=7"}},
      {"gather", {"n=256", "seed=0"}},
      {"transpose-naive", {"n=64", "block_y=8"}},
      {"transpose-naive", {"n=64", "block_y=32"}},
      {"transpose-naive", {"n=48", "block_x=16", "block_y=2"}},
      {"transpose-tiled", {"n=64"}},
      {"transpose-tiled", {"n=96", "tile=16", "block_y=4"}},
      {"transpose-padded", {"n=64"}},
      {"transpose-padded", {"n=32", "tile=32", "block_y=32"}},
      {"shared-stride", {"s=1"}},
      {"shared-stride", {"s=32", "repeats=64"}},
      {"shared-stride", {"s=3", "blocks=3", "shared_words=512"}},
      {"reduce", {"n=4096"}},
      {"reduce", {"n=2"}},
      {"reduce", {"n=1000", "threads_per_block=64"}},
      {"reduce", {"n=263000"}},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    GHashTable *p = params_v(cases[i].kv);
    g_free(compact_ok(cases[i].alg, p));
    g_hash_table_destroy(p);
  }
  for (int a = 0; ms_simple_algorithms[a]; a++) g_free(compact_ok(ms_simple_algorithms[a], NULL));
}

/* A trace that moves the wrong words fails, naming the first wrong output. */
Test(simple, a_wrong_trace_fails_verification) {
  static const struct {
    const char *alg, *from, *to, *needle;
  } cases[] = {
      {"copy", "out[tid]", "out[tid ^ 1]", "out["},
      {"strided-read", "in[tid * s % n]", "in[tid * s % (n / 2)]", "out["},
      {"gather", "in[P[tid]]", "in[tid]", "not in[idx[tid]]"},
      {"transpose-naive", "out[(bid % gx * bx + ltid % bx) * n + bid / gx * by + ltid / bx]",
       "out[(bid / gx * by + ltid / bx) * n + bid % gx * bx + ltid % bx]", "out["},
      {"transpose-tiled", "tile[ltid % t * pitch + ltid / t + k * by]", "tile[(ltid / t + k * by) * pitch + ltid % t]", "out["},
      {"shared-stride", "& (W - 1)", "& (W / 2 - 1)", "out["},
      {"reduce", "sm[ltid + (B / 2 >> k)]", "sm[ltid + (B / 4 >> k)]", "p1["},
      {"reduce", "{\"op\": \"sync\", \"scope\": \"grid\"},", "", "not the kernel's"},
      {"copy", ",\n   {\"op\": \"write\", \"space\": \"global\", \"addr\": \"out[tid]\"}", "", "not the kernel's"},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    GHashTable *p = PARAMS("seed=3");
    char *good = compact_ok(cases[i].alg, p);
    GError *err = NULL;
    cr_assert(ms_simple_verify_text(cases[i].alg, p, good, &err), "%s: the generated text verifies", cases[i].alg);
    char *at = strstr(good, cases[i].from);
    cr_assert(at, "%s: \"%s\" not in the trace", cases[i].alg, cases[i].from);
    GString *bad = g_string_new_len(good, at - good);
    g_string_append(bad, cases[i].to);
    g_string_append(bad, at + strlen(cases[i].from));
    cr_assert_not(ms_simple_verify_text(cases[i].alg, p, bad->str, &err), "%s: edited trace %zu verified", cases[i].alg, i);
    cr_assert_eq(err->code, MS_ERROR_VERIFY, "%s: %s", cases[i].alg, err->message);
    cr_assert(strstr(err->message, cases[i].needle), "%s: \"%s\" lacks \"%s\"", cases[i].alg, err->message, cases[i].needle);
    g_error_free(err);
    g_string_free(bad, TRUE);
    g_free(good);
    g_hash_table_destroy(p);
  }
}

Test(simple, rejects_bad_parameters) {
  expect_error("fft", NULL, MS_ERROR_INVALID, "unknown algorithm");
  expect_error("copy", PARAMS("s=2"), MS_ERROR_INVALID, "unknown parameter \"s\"");
  expect_error("copy", PARAMS("n=100"), MS_ERROR_INVALID, "not a multiple of threads_per_block");
  expect_error("copy", PARAMS("threads_per_block=256", "threads-per-block=256"), MS_ERROR_INVALID, "given twice");
  expect_error("copy", PARAMS("n=-4"), MS_ERROR_INVALID, "non-negative integer");
  expect_error("strided-read", PARAMS("n=268435456", "s=32"), MS_ERROR_INVALID, "32-bit index");
  expect_error("transpose-naive", PARAMS("n=40"), MS_ERROR_INVALID, "multiple of block_x");
  expect_error("transpose-tiled", PARAMS("pitch=33"), MS_ERROR_INVALID, "pitch = 33 does not fit");
  expect_error("transpose-padded", PARAMS("shared_words=1024"), MS_ERROR_INVALID, "shared_words = 1024 does not fit");
  expect_error("transpose-tiled", PARAMS("tile=32", "block_y=7"), MS_ERROR_INVALID, "multiple of block_y");
  expect_error("shared-stride", PARAMS("shared_words=1000"), MS_ERROR_INVALID, "power of two");
  expect_error("reduce", PARAMS("threads_per_block=96"), MS_ERROR_INVALID, "not a power of two");
  expect_error("reduce", PARAMS("shared_words=512"), MS_ERROR_INVALID, "does not fit");
}

/* ---- counts ---------------------------------------------------------------------------- */

static MsSource *source(const char *alg, GHashTable *p) {
  GError *err = NULL;
  MsSource *s = ms_simple_source(alg, p, &err);
  cr_assert(s, "%s: %s", alg, err ? err->message : "");
  g_hash_table_destroy(p);
  return s;
}

static MsModel *umm(guint64 group_words) {
  MsModel *m = ms_model_new(MS_MODEL_UMM, 32, 1, 1, 1, 1);
  m->group_words = group_words;
  return m;
}

static MsModel *dmm(void) { return ms_model_new(MS_MODEL_DMM, 32, 1, 1, 1, 1); }

/* Simulate with per-step results; the source is consumed. */
static MsResult *run(const MsModel *m, MsSource *s) {
  MsSimOptions o = {0};
  o.per_step = TRUE;
  o.threads = 1;
  GError *err = NULL;
  MsResult *r = ms_simulate(m, s, &o, &err);
  cr_assert(r, "%s", err ? err->message : "");
  ms_source_free(s);
  return r;
}

static guint64 step_stages(const MsResult *r, guint i) {
  cr_assert_lt(i, r->per_step->len);
  return g_array_index(r->per_step, MsStepResult, i).stages;
}

/* copy: 1 group per warp and step with 32-word groups, 4 with 8-word groups (sectors). */
Test(simple, copy_counts) {
  const guint64 warps = 4096 / 32;
  MsModel *u32 = umm(32), *u8 = umm(8), *d = dmm();
  MsResult *r = run(u32, source("copy", PARAMS("n=4096")));
  cr_assert_eq(step_stages(r, 0), warps);
  cr_assert_eq(step_stages(r, 1), warps);
  cr_assert_eq(r->extra_stages, 0);
  ms_result_free(r);
  r = run(u8, source("copy", PARAMS("n=4096")));
  cr_assert_eq(r->stages, 2 * 4 * warps);
  ms_result_free(r);
  r = run(d, source("copy", PARAMS("n=4096")));
  cr_assert_eq(r->stages, 2 * warps);
  ms_result_free(r);
  ms_model_free(u32);
  ms_model_free(u8);
  ms_model_free(d);
}

/* strided-read s: a warp reads words 32k*s .. 32k*s + 31s in steps of s: s groups of 32
 * words (32 if s >= 32), 4s sectors of 8 words (32 if s >= 8); on the DMM the 32 words fall
 * in 32/gcd(s, 32) banks: s-way conflicts for s = 2^k <= 32. */
Test(simple, strided_read_counts) {
  static const guint64 ss[] = {1, 2, 4, 8, 32};
  const guint64 warps = 4096 / 32;
  MsModel *u32 = umm(32), *u8 = umm(8), *d = dmm();
  for (gsize i = 0; i < G_N_ELEMENTS(ss); i++) {
    guint64 s = ss[i];
    char *sv = g_strdup_printf("s=%" G_GUINT64_FORMAT, s);
    MsResult *r = run(u32, source("strided-read", PARAMS("n=4096", sv)));
    cr_assert_eq(step_stages(r, 0), warps * MIN(s, 32), "s=%lu", (unsigned long)s);
    cr_assert_eq(step_stages(r, 1), warps);
    ms_result_free(r);
    r = run(u8, source("strided-read", PARAMS("n=4096", sv)));
    cr_assert_eq(step_stages(r, 0), warps * MIN(4 * s, 32), "s=%lu", (unsigned long)s);
    cr_assert_eq(step_stages(r, 1), warps * 4);
    ms_result_free(r);
    r = run(d, source("strided-read", PARAMS("n=4096", sv)));
    cr_assert_eq(step_stages(r, 0), warps * MIN(s, 32), "s=%lu", (unsigned long)s);
    ms_result_free(r);
    g_free(sv);
  }
  ms_model_free(u32);
  ms_model_free(u8);
  ms_model_free(d);
}

/* gather: idx coalesced, in[P[i]]: per warp the distinct groups of its 32 P values (the
 * distribution D_w(P) of seed 001 section 5.2, counted here from ms_perm_generate), out
 * coalesced. */
Test(simple, gather_counts) {
  const guint64 n = 4096, warps = n / 32;
  gint64 *P = ms_perm_generate("random", n, 5, NULL);
  guint64 dist[2] = {0, 0};
  const guint64 gw[2] = {32, 8};
  for (int g = 0; g < 2; g++)
    for (guint64 w = 0; w < warps; w++)
      for (guint64 a = 0; a < 32; a++) {
        gboolean first = TRUE;
        for (guint64 b = 0; b < a; b++) first &= (guint64)P[32 * w + b] / gw[g] != (guint64)P[32 * w + a] / gw[g];
        dist[g] += first;
      }
  g_free(P);
  cr_assert_gt(dist[0], warps * 20); /* a random permutation scatters */
  for (int g = 0; g < 2; g++) {
    MsModel *m = umm(gw[g]);
    MsResult *r = run(m, source("gather", PARAMS("n=4096", "seed=5")));
    cr_assert_eq(step_stages(r, 0), warps * (32 / gw[g]));
    cr_assert_eq(step_stages(r, 1), dist[g]);
    cr_assert_eq(step_stages(r, 2), warps * (32 / gw[g]));
    ms_result_free(r);
    ms_model_free(m);
  }
}

/* transpose-naive, n = 64: the read of row i is coalesced (1 group, 4 sectors); the write
 * goes down a column: 32 rows, 32 groups, 32 sectors; on the DMM all 32 words of the write
 * are in bank (i mod 32): 32 stages. */
Test(simple, transpose_naive_counts) {
  static const char *const bys[] = {"block_y=8", "block_y=32"};
  const guint64 warps = 64 * 64 / 32;
  MsModel *u32 = umm(32), *u8 = umm(8), *d = dmm();
  for (int i = 0; i < 2; i++) {
    MsResult *r = run(u32, source("transpose-naive", PARAMS("n=64", bys[i])));
    cr_assert_eq(step_stages(r, 0), warps);
    cr_assert_eq(step_stages(r, 1), 32 * warps);
    ms_result_free(r);
    r = run(u8, source("transpose-naive", PARAMS("n=64", bys[i])));
    cr_assert_eq(step_stages(r, 0), 4 * warps);
    cr_assert_eq(step_stages(r, 1), 32 * warps);
    ms_result_free(r);
    r = run(d, source("transpose-naive", PARAMS("n=64", bys[i])));
    cr_assert_eq(r->stages, 33 * warps);
    ms_result_free(r);
  }
  ms_model_free(u32);
  ms_model_free(u8);
  ms_model_free(d);
}

/* transpose-tiled / -padded on the DMM: steps are 4 x (read in, write tile), the barrier, 4 x
 * (read tile, write out).  Every step is 1 stage per warp except the column read of the
 * tile: 32 stages (32-way conflict) with pitch 32, 1 with pitch 33. */
Test(simple, transpose_tiled_counts) {
  const guint64 warps = 64 * 64 / 4 / 32;
  MsModel *d = dmm(), *u8 = umm(8);
  for (int padded = 0; padded < 2; padded++) {
    const char *alg = padded ? "transpose-padded" : "transpose-tiled";
    MsResult *r = run(d, source(alg, PARAMS("n=64")));
    cr_assert_eq(r->per_step->len, 17);
    cr_assert_eq(r->block_barriers, 1);
    for (guint k = 0; k < 4; k++) {
      cr_assert_eq(step_stages(r, 2 * k), warps);
      cr_assert_eq(step_stages(r, 2 * k + 1), warps);
      cr_assert_eq(step_stages(r, 9 + 2 * k), (padded ? 1 : 32) * warps, "%s k=%u", alg, k);
      cr_assert_eq(step_stages(r, 10 + 2 * k), warps);
    }
    cr_assert_eq(r->extra_stages, padded ? 0 : 4 * 31 * warps);
    ms_result_free(r);
    /* global steps in sectors: 4 per warp (rows of 32 aligned words) */
    r = run(u8, source(alg, PARAMS("n=64")));
    for (guint k = 0; k < 4; k++) {
      cr_assert_eq(step_stages(r, 2 * k), 4 * warps);
      cr_assert_eq(step_stages(r, 10 + 2 * k), 4 * warps);
    }
    ms_result_free(r);
  }
  ms_model_free(d);
  ms_model_free(u8);
}

/* shared-stride on the DMM: the fill (W / B conflict-free writes), the barrier, R reads of
 * min(s, 32) stages each for s a power of two (1 for odd s), one coalesced write. */
Test(simple, shared_stride_counts) {
  static const guint64 ss[] = {1, 2, 4, 8, 32, 3};
  static const guint64 want[] = {1, 2, 4, 8, 32, 1};
  MsModel *d = dmm();
  const guint64 warps = 4 * 256 / 32, R = 64, fills = 1024 / 256;
  for (gsize i = 0; i < G_N_ELEMENTS(ss); i++) {
    char *sv = g_strdup_printf("s=%" G_GUINT64_FORMAT, ss[i]);
    MsSource *src = source("shared-stride", PARAMS(sv, "repeats=64", "blocks=4"));
    cr_assert_eq(ms_source_shared_words(src), 1024);
    MsResult *r = run(d, src);
    for (guint k = 0; k < fills; k++) cr_assert_eq(step_stages(r, k), warps);
    for (guint k = 0; k < R; k++) cr_assert_eq(step_stages(r, (guint)fills + 1 + k), want[i] * warps, "s=%s", sv);
    cr_assert_eq(r->stages, (fills + R * want[i] + 1) * warps);
    cr_assert_eq(r->extra_stages, R * (want[i] - 1) * warps);
    ms_result_free(r);
    g_free(sv);
  }
  ms_model_free(d);
}

/* reduce: conflict-free and coalesced throughout (extra_stages 0 on the DMM and the UMM);
 * a full block at a level dispatches 8 + 8 (the two loads) + 8 (store) warp-steps, the tree
 * 3 x (4 + 2 + 1 + 5) = 36, then 2 for sm[0] -> p[bid]: 62.  n = 4096: 8 blocks, then one
 * block reading 8 partials (1 warp, no second load): 8 * 62 + 1 + 8 + 36 + 2 = 543;
 * n = 2^16: 128 * 62 + (4 + 8 + 36 + 2) = 7986. */
Test(simple, reduce_counts) {
  MsModel *d = dmm(), *u = umm(32);
  static const struct {
    const char *n;
    guint64 dispatches, launches;
  } cases[] = {{"n=4096", 543, 2}, {"n=65536", 7986, 2}};
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++)
    for (int k = 0; k < 2; k++) {
      MsSource *src = source("reduce", PARAMS(cases[i].n));
      cr_assert_eq(ms_source_shared_words(src), 256);
      MsResult *r = run(k ? u : d, src);
      cr_assert_eq(r->dispatches, cases[i].dispatches, "%s: %lu", cases[i].n, (unsigned long)r->dispatches);
      cr_assert_eq(r->extra_stages, 0);
      cr_assert_eq(r->grid_barriers, cases[i].launches - 1);
      ms_result_free(r);
    }
  ms_model_free(d);
  ms_model_free(u);
}

/* A record's params (kernels/simple.cu) map to the trace through ms_workload_source. */
Test(simple, record_params_build_the_trace) {
  GHashTable *p = PARAMS("n=64", "tile=32", "block_y=8", "pitch=33", "threads_per_block=256", "shared_words=1056", "seed=1");
  GError *err = NULL;
  MsSource *s = ms_workload_source("simple", "transpose-padded", p, &err);
  cr_assert(s, "%s", err ? err->message : "");
  cr_assert_eq(ms_source_threads(s), 1024);
  cr_assert_eq(ms_source_block_threads(s), 256);
  cr_assert_eq(ms_source_shared_words(s), 1056);
  cr_assert_eq(ms_source_global_words(s), 2 * 64 * 64);
  ms_source_free(s);
  g_hash_table_destroy(p);
}

/* traces/simple/ALG.json is what `memsim gen simple -a ALG` writes. */
Test(simple, shipped_traces_are_current) {
  const char *src = g_getenv("MEMSIM_SRCDIR");
  cr_assert(src, "MEMSIM_SRCDIR is not set");
  for (int a_ = 0; ms_simple_algorithms[a_]; a_++) {
    char *want = compact_ok(ms_simple_algorithms[a_], NULL);
    char *fn = g_strdup_printf("%s/traces/simple/%s.json", src, ms_simple_algorithms[a_]);
    char *got = NULL;
    cr_assert(g_file_get_contents(fn, &got, NULL, NULL), "cannot read %s", fn);
    cr_assert_str_eq(got, want, "%s is not what memsim gen simple writes: regenerate it (docs/workloads/simple.md)", fn);
    /* the file declares the block's shared words to the reader */
    GError *err = NULL;
    MsSource *s = ms_trace_open(fn, &err);
    cr_assert(s, "%s", err ? err->message : "");
    const char *a = ms_simple_algorithms[a_];
    guint64 sw = g_str_has_prefix(a, "transpose-t") ? 1024 : strcmp(a, "transpose-padded") == 0 ? 1056
                 : strcmp(a, "shared-stride") == 0 ? 1024 : strcmp(a, "reduce") == 0 ? 256 : 0;
    cr_assert_eq(ms_source_shared_words(s), sw, "%s", a);
    ms_source_free(s);
    g_free(got);
    g_free(fn);
    g_free(want);
  }
}
