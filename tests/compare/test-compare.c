/* test-compare.c: `memsim compare`'s pieces: measurement records (good and bad), the record ->
 * trace mapping, the calibration fit, the statistics, the ncu importer, the output keys, and
 * the committed GPU records.  The fixture files here hold fake numbers made for the tests. */
#include "ms-compare.h"
#include "ms-workloads.h"
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <glib/gstdio.h>
#include <unistd.h>
#include <math.h>
#include <string.h>

static char *src_path(const char *rel) {
  const char *root = g_getenv("MEMSIM_SRCDIR");
  return g_build_filename(root ? root : ".", rel, NULL);
}

static MsCompare *cmp_new(const char *model_rel) {
  char *m = src_path(model_rel);
  GError *e = NULL;
  MsCompare *c = ms_cmp_new(m, &e);
  cr_assert_not_null(c, "%s", e ? e->message : "");
  g_free(m);
  return c;
}

static MsCompare *fixture(const char *train) {
  MsCompare *c = cmp_new("models/hmm.json");
  char *f = src_path("tests/compare/fixture-small.json");
  GError *e = NULL;
  cr_assert(ms_cmp_read_measurements(c, f, &e), "%s", e ? e->message : "");
  cr_assert(ms_cmp_simulate(c, &e), "%s", e ? e->message : "");
  cr_assert(ms_cmp_select_train(c, train, &e), "%s", e ? e->message : "");
  cr_assert(ms_cmp_fit(c, &e), "%s", e ? e->message : "");
  g_free(f);
  return c;
}

static MsCmpRecord *rec(MsCompare *c, guint i) { return g_ptr_array_index(c->records, i); }

Test(compare, fixture_records_map_replicate_and_scale) {
  MsCompare *c = fixture("every:2");
  cr_assert_eq(c->records->len, 12);
  /* copy, 16 blocks x 2 repeats, at full size: the kernel's 16 blocks, 2 passes each */
  cr_assert_eq(rec(c, 0)->replicas, 16);
  cr_assert_eq(rec(c, 0)->repeats, 2);
  cr_assert_float_eq(rec(c, 0)->scale, 1.0, 1e-12);
  cr_assert_str_eq(rec(c, 0)->sim_shape, "kernel blocks=16 passes=2");
  /* per block and warp: store a, 2 x (read a, read p, write b: the fixture has no "table"),
   * load b, all conflict-free; the global load of a and p and the store of b */
  cr_assert_eq(rec(c, 0)->shared.stages, 16 * 32 * (1 + 2 * 2 + 1));
  cr_assert_eq(rec(c, 0)->shared.stages, rec(c, 0)->shared.dispatches);
  cr_assert_eq(rec(c, 0)->global.stages, 16 * 32 * 3);
  /* D-designated transpose: the write of each pass has 32 stages per warp (docs/models.md) */
  cr_assert_eq(rec(c, 1)->shared.stages, 16 * (32 + 2 * (32 + 32 + 32 * 32) + 32));
  cr_assert_eq(rec(c, 1)->shared.stages - rec(c, 1)->shared.dispatches, 16 * 2 * 32 * 31);
  cr_assert_eq(rec(c, 1)->bound, MS_BOUND_SHARED);
  cr_assert_str_eq(rec(c, 1)->limit, "shared memory");
  /* thrust-scatter stands for hmm-d-designated */
  cr_assert_str_eq(rec(c, 4)->sim_algorithm, "hmm-d-designated");
  cr_assert_eq(rec(c, 4)->bound, MS_BOUND_GLOBAL);
  cr_assert_str_eq(rec(c, 4)->sim_shape, "block_threads=256");
  cr_assert_str_eq(rec(c, 10)->sim_text, "arrangement=column bits=64 instances=64 oblivious=1 seed=1");
  cr_assert_str_eq(rec(c, 10)->sim_shape, "block_threads=128");
  /* the unverified record is skipped with a note and never trained on */
  cr_assert_not_null(rec(c, 11)->skip);
  cr_assert(!rec(c, 11)->train);
  cr_assert_eq(c->notes->len, 1);
  cr_assert(strstr(c->notes->pdata[0], "record 11 (bpbc pairwise-sum k=8 instances=4096): not verified on the GPU (fixture: a wrong sum)"));
  /* every:2 over the 11 usable records: 0, 2, 4, 6, 8, 10 train */
  for (guint i = 0; i < 11; i++) cr_assert_eq(rec(c, i)->train, i % 2 == 0, "record %u", i);
  cr_assert_eq(c->cal.n_train, 6);
  ms_cmp_free(c);
}

Test(compare, reduced_simulations_scale) {
  MsCompare *c = cmp_new("models/hmm.json");
  MsCmpRecord r = {0};
  r.file = (char *)"x";
  r.workload = (char *)"bpbc";
  r.algorithm = (char *)"life-single";
  r.params_text = (char *)"size=8192 steps=32";
  r.params = g_hash_table_new(g_str_hash, g_str_equal);
  g_hash_table_insert(r.params, (char *)"size", (char *)"8192");
  g_hash_table_insert(r.params, (char *)"steps", (char *)"32");
  GHashTable *p = NULL;
  GError *e = NULL;
  c->exact = FALSE; /* --reduced */
  cr_assert(ms_cmp_map(c, &r, &p, &e));
  cr_assert_float_eq(r.scale, 32.0 * 64.0, 1e-9);
  cr_assert_str_eq(g_hash_table_lookup(p, "size"), "1024");
  cr_assert_str_eq(g_hash_table_lookup(p, "steps"), "1");
  g_hash_table_unref(p);
  c->exact = TRUE;
  cr_assert(ms_cmp_map(c, &r, &p, &e));
  cr_assert_float_eq(r.scale, 1.0, 1e-12);
  cr_assert_str_eq(g_hash_table_lookup(p, "size"), "8192");
  g_hash_table_unref(p);
  g_hash_table_unref(r.params);
  g_free(r.sim_family);
  g_free(r.sim_algorithm);
  g_free(r.sim_text);
  g_free(r.sim_shape);
  ms_cmp_free(c);
}

/* ---- the fit --------------------------------------------------------------------------- */

static MsCmpRecord *synth(double units, MsBound b, guint64 launches, double measured) {
  MsCmpRecord *r = g_new0(MsCmpRecord, 1);
  r->units = units;
  r->time_units = (guint64)units;
  r->bound = b;
  r->launches = launches;
  r->median_ns = measured;
  r->workload = (char *)"f";
  r->algorithm = (char *)"a";
  r->params_text = (char *)"";
  return r;
}

Test(compare, fit_recovers_exact_parameters) {
  GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
  const double ts = 0.5, tg = 0.02, ln = 1500;
  for (int i = 1; i <= 6; i++) {
    double u = 1000.0 * i * i;
    g_ptr_array_add(a, synth(u, MS_BOUND_SHARED, (guint64)i, ts * u + ln * i));
    g_ptr_array_add(a, synth(u * 50, MS_BOUND_GLOBAL, 1, tg * u * 50 + ln));
  }
  MsCalibration cal = {0};
  GError *e = NULL;
  cr_assert(ms_cmp_fit_records(a, &cal, &e));
  cr_assert_float_eq(cal.tu_shared, ts, 1e-9);
  cr_assert_float_eq(cal.tu_global, tg, 1e-9);
  cr_assert_float_eq(cal.launch_ns, ln, 1e-6);
  cr_assert(cal.has_shared && cal.has_global && cal.has_launch);
  g_free(cal.method);
  g_ptr_array_free(a, TRUE);
}

Test(compare, fit_drops_negative_and_unfitted_parameters) {
  GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
  /* global-bound only, measured below proportional: the launch term would go negative */
  for (int i = 1; i <= 4; i++) g_ptr_array_add(a, synth(1000.0 * i, MS_BOUND_GLOBAL, 1, 2.0 * 1000 * i - 100 * (i == 1)));
  MsCalibration cal = {0};
  GError *e = NULL;
  cr_assert(ms_cmp_fit_records(a, &cal, &e));
  cr_assert(!cal.has_shared);
  cr_assert_eq(cal.tu_shared, 0);
  cr_assert(cal.launch_ns >= 0);
  cr_assert(cal.tu_global > 1.9 && cal.tu_global < 2.1, "%g", cal.tu_global);
  g_free(cal.method);
  cal.method = NULL;
  g_ptr_array_set_size(a, 0);
  cr_assert(!ms_cmp_fit_records(a, &cal, &e));
  cr_assert_str_eq(e->message, "calibration: no training record (see --train)");
  g_error_free(e);
  g_free(cal.method);
  g_ptr_array_free(a, TRUE);
}

/* ---- statistics ------------------------------------------------------------------------ */

Test(compare, stats_known_values) {
  GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
  const double meas[] = {100, 200, 400, 800};
  const double pred[] = {110, 180, 800, 400}; /* last two swapped in order */
  const char *alg[] = {"x", "y", "x", "y"};
  const char *par[] = {"n=1", "n=1", "n=2", "n=2"};
  for (int i = 0; i < 4; i++) {
    MsCmpRecord *r = synth(1, MS_BOUND_GLOBAL, 1, meas[i]);
    r->predicted_ns = pred[i];
    r->algorithm = (char *)alg[i];
    r->params_text = (char *)par[i];
    g_ptr_array_add(a, r);
  }
  MsCmpStats s;
  ms_cmp_stats(a, &s);
  cr_assert_eq(s.n, 4);
  cr_assert_float_eq(s.mape, (0.1 + 0.1 + 1.0 + 0.5) / 4, 1e-12);
  cr_assert_eq(s.pairs, 2);
  cr_assert_float_eq(s.pairs_ordered, 0.5, 1e-12);
  cr_assert_eq(s.pair_ties, 0);
  cr_assert_float_eq(s.pairs_ordered_untied, 0.5, 1e-12);
  /* a tie (the model predicts equal times) is never ordered: 0 of 2, 0 of the 1 untied */
  ((MsCmpRecord *)g_ptr_array_index(a, 1))->predicted_ns = 110;
  ms_cmp_stats(a, &s);
  cr_assert_eq(s.pairs, 2);
  cr_assert_eq(s.pair_ties, 1);
  cr_assert_float_eq(s.pairs_ordered, 0.0, 1e-12);
  cr_assert_float_eq(s.pairs_ordered_untied, 0.0, 1e-12);
  ((MsCmpRecord *)g_ptr_array_index(a, 1))->predicted_ns = 180;
  ms_cmp_stats(a, &s);
  /* ranks: measured 1 2 3 4, predicted 1 2 4 3: rho = 1 - 6*2/(4*15) = 0.8 */
  cr_assert_float_eq(s.spearman, 0.8, 1e-12);
  cr_assert_float_eq(s.pearson_log, 0.791439, 1e-6);
  g_ptr_array_free(a, TRUE);
}

/* ---- bad input ------------------------------------------------------------------------- */

typedef struct {
  const char *name;
  const char *record; /* one record's JSON */
  const char *message; /* expected error, after "FILE: " */
} BadCase;

#define REC_OK "\"workload\": \"permutation\", \"algorithm\": \"copy\", \"params\": {\"n\": 1024}, \"kernels_per_call\": 1, \"verified\": true"

static const BadCase bad_cases[] = {
    {"missing_median", "{" REC_OK "}", "record 0: missing field \"median_ns\""},
    {"missing_params", "{\"workload\": \"sat\", \"algorithm\": \"copy\", \"median_ns\": 5, \"kernels_per_call\": 1, \"verified\": true}",
     "record 0: missing field \"params\""},
    {"median_is_string", "{" REC_OK ", \"median_ns\": \"5\"}", "record 0: field \"median_ns\" must be a number, got a string"},
    {"verified_is_number", "{\"workload\": \"sat\", \"algorithm\": \"copy\", \"params\": {}, \"median_ns\": 5, \"kernels_per_call\": 1, \"verified\": 1}",
     "record 0: field \"verified\" must be a boolean, got a number"},
    {"unit_us", "{" REC_OK ", \"median_ns\": 5, \"median_us\": 0.005}",
     "record 0: unknown unit in \"median_us\" (times must be in ns, e.g. \"median_ns\")"},
    {"unit_key", "{" REC_OK ", \"median_ns\": 5, \"unit\": \"cycles\"}", "record 0: unknown unit \"cycles\" in \"unit\" (times must be in ns)"},
    {"negative_time", "{" REC_OK ", \"median_ns\": -3}", "record 0: field \"median_ns\" must be positive, got -3"},
    {"param_array", "{\"workload\": \"sat\", \"algorithm\": \"copy\", \"params\": {\"n\": [1]}, \"median_ns\": 5, \"kernels_per_call\": 1, \"verified\": true}",
     "record 0: params.n must be a number, string or boolean, got an array"},
    {"not_object", "[1]", "record 0: expected an object, got an array"},
    {"table_number", "{" REC_OK ", \"median_ns\": 5, \"table\": 1}", "record 0: field \"table\" must be a non-empty string, got a number"},
};


static char *write_tmp(const char *text) {
  char *path = NULL;
  int fd = g_file_open_tmp("memsim-compare-XXXXXX.json", &path, NULL);
  cr_assert(fd >= 0);
  close(fd);
  cr_assert(g_file_set_contents(path, text, -1, NULL));
  return path;
}

static char *measurements(const char *records) {
  return g_strdup_printf("{\"memsim_measurements\": 1, \"device\": {\"name\": \"test\"}, \"records\": [%s]}", records);
}

static void bad_record(const BadCase *c) {
  char *text = measurements(c->record);
  char *path = write_tmp(text);
  MsCompare *cmp = cmp_new("models/hmm.json");
  GError *e = NULL;
  cr_assert(!ms_cmp_read_measurements(cmp, path, &e), "%s accepted", c->name);
  char *want = g_strdup_printf("%s: %s", path, c->message);
  cr_assert_str_eq(e->message, want, "%s", c->name);
  cr_assert_eq(e->code, MS_ERROR_INVALID);
  g_free(want);
  g_error_free(e);
  ms_cmp_free(cmp);
  g_unlink(path);
  g_free(path);
  g_free(text);
}

/* Records that read well but have no trace, or that the model cannot run. */
typedef struct {
  const char *name;
  const char *model; /* model JSON */
  const char *record;
  const char *message; /* after "FILE: " */
} SimCase;

#define HMM "{\"model\": \"hmm\", \"width\": 32, \"dmms\": 8, \"global_latency\": 4}"
static const SimCase sim_cases[] = {
    {"unknown_algorithm", HMM,
     "{\"workload\": \"permutation\", \"algorithm\": \"nope\", \"params\": {\"n\": 1024}, \"median_ns\": 5, \"kernels_per_call\": 1, \"verified\": true}",
     "record 0 (permutation nope n=1024): no workload matches: permutation: unknown algorithm \"nope\""},
    {"unknown_family", HMM,
     "{\"workload\": \"fft\", \"algorithm\": \"radix2\", \"params\": {\"n\": 8}, \"median_ns\": 5, \"kernels_per_call\": 1, \"verified\": true}",
     "record 0 (fft radix2 n=8): no workload matches: unknown family \"fft\" (permutation, sat, gcd, bpbc, simple, bulk, gf2, mul)"},
    {"unknown_param", HMM,
     "{\"workload\": \"bpbc\", \"algorithm\": \"pairwise-sum\", \"params\": {\"k\": 2, \"colour\": \"red\"}, \"median_ns\": 5, \"kernels_per_call\": 1, \"verified\": true}",
     "record 0 (bpbc pairwise-sum k=2 colour=red): no workload matches: "},
    {"model_cannot_run", "{\"model\": \"dmm\", \"width\": 3, \"latency\": 1}",
     "{\"workload\": \"sat\", \"algorithm\": \"copy\", \"params\": {\"n\": 64, \"block\": 32}, \"median_ns\": 5, \"kernels_per_call\": 1, \"verified\": true}",
     "record 0 (sat copy n=64 block=32): the model cannot run it: sat copy: block_threads: 256 is not a multiple of the width w = 3"},
};


static void bad_simulation(const SimCase *c) {
  char *text = measurements(c->record);
  char *path = write_tmp(text), *mpath = write_tmp(c->model);
  GError *e = NULL;
  MsCompare *cmp = ms_cmp_new(mpath, &e);
  cr_assert_not_null(cmp, "%s", e ? e->message : "");
  cr_assert(ms_cmp_read_measurements(cmp, path, &e), "%s", e ? e->message : "");
  cr_assert(!ms_cmp_simulate(cmp, &e), "%s accepted", c->name);
  char *want = g_strdup_printf("%s: %s", path, c->message);
  cr_assert(g_str_has_prefix(e->message, want), "%s: got \"%s\", want \"%s...\"", c->name, e->message, want);
  g_free(want);
  g_error_free(e);
  /* with --skip-unmatched a record with no workload is a note, not an error */
  if (strstr(c->message, "no workload matches")) {
    MsCompare *c2 = ms_cmp_new(mpath, NULL);
    c2->skip_unmatched = TRUE;
    cr_assert(ms_cmp_read_measurements(c2, path, NULL));
    cr_assert(ms_cmp_simulate(c2, &e), "%s", e ? e->message : "");
    cr_assert_not_null(rec(c2, 0)->skip);
    cr_assert_eq(c2->notes->len, 1);
    ms_cmp_free(c2);
  }
  ms_cmp_free(cmp);
  g_unlink(path);
  g_unlink(mpath);
  g_free(path);
  g_free(mpath);
  g_free(text);
}

Test(compare, should_reject_bad_records) {
  for (guint i = 0; i < G_N_ELEMENTS(bad_cases); i++) bad_record(&bad_cases[i]);
}

Test(compare, should_reject_records_without_trace_or_model) {
  for (guint i = 0; i < G_N_ELEMENTS(sim_cases); i++) bad_simulation(&sim_cases[i]);
}

Test(compare, rejects_files_and_train_specs) {
  MsCompare *c = cmp_new("models/hmm.json");
  char *p = write_tmp("{\"records\": []}");
  GError *e = NULL;
  cr_assert(!ms_cmp_read_measurements(c, p, &e));
  char *want = g_strdup_printf("%s: not a memsim measurement file (expected \"memsim_measurements\": 1)", p);
  cr_assert_str_eq(e->message, want);
  g_clear_error(&e);
  g_free(want);
  const char *bad[] = {"every:1", "every:x", "family:", "sometimes"};
  for (int i = 0; i < 4; i++) {
    cr_assert(!ms_cmp_select_train(c, bad[i], &e), "%s", bad[i]);
    cr_assert(g_str_has_prefix(e->message, "--train "), "%s", e->message);
    g_clear_error(&e);
  }
  g_unlink(p);
  g_free(p);
  ms_cmp_free(c);
}

/* ---- train selections, output, counters --------------------------------------------- */

Test(compare, train_family_and_json_keys) {
  MsCompare *c = fixture("family:permutation,sat");
  for (guint i = 0; i < 11; i++)
    cr_assert_eq(rec(c, i)->train, strcmp(rec(c, i)->workload, "permutation") == 0 || strcmp(rec(c, i)->workload, "sat") == 0);
  char *j = ms_cmp_format(c, MS_CMP_JSON);
  cJSON *root = cJSON_Parse(j);
  cr_assert_not_null(root);
  const char *keys[] = {"mape", "pearson_log", "spearman", "pairs_ordered"};
  cJSON *o = cJSON_GetObjectItem(root, "overall");
  for (int k = 0; k < 4; k++) cr_assert_not_null(cJSON_GetObjectItem(o, keys[k]), "overall.%s", keys[k]);
  cJSON *b = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "families"), "bpbc");
  cr_assert(cJSON_IsNumber(cJSON_GetObjectItem(b, "mape")));
  cr_assert(cJSON_GetObjectItem(b, "mape")->valuedouble < 10, "a fraction, not percent");
  cr_assert_null(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "families"), "permutation"), "all permutation records trained");
  cJSON_Delete(root);
  g_free(j);
  for (int f = 0; f < 4; f++) {
    char *t = ms_cmp_format(c, (MsCmpFormat)f);
    cr_assert(strstr(t, "pairwise-sum-naive"), "format %d", f);
    g_free(t);
  }
  char *m = ms_cmp_model_json(c, NULL, "test");
  GError *e = NULL;
  MsModel *mm = ms_model_parse(m, strlen(m), "fitted", &e);
  cr_assert_not_null(mm, "%s", e ? e->message : "");
  cr_assert_float_eq(mm->time_unit_ns, c->cal.tu_global, 1e-9 * c->cal.tu_global);
  ms_model_free(mm);
  g_free(m);
  ms_cmp_free(c);
}

Test(compare, train_none_uses_model_calibration) {
  const char *model = "{\"model\": \"hmm\", \"width\": 32, \"dmms\": 8, \"global_latency\": 400, \"time_unit_ns\": 0.25, "
                      "\"launch_ns\": 1000, \"calibration\": {\"ns_per_unit_shared\": 2}}";
  char *mp = write_tmp(model), *fp = src_path("tests/compare/fixture-small.json");
  GError *e = NULL;
  MsCompare *c = ms_cmp_new(mp, &e);
  cr_assert(ms_cmp_read_measurements(c, fp, &e) && ms_cmp_simulate(c, &e) && ms_cmp_select_train(c, "none", &e) &&
            ms_cmp_fit(c, &e), "%s", e ? e->message : "");
  /* the model's own prediction: ms_result_predicted_ns() of each record's result, one ns per
   * time unit for every trace (calibration.ns_per_unit_shared is not used) */
  for (guint i = 0; i < 11; i++) {
    MsResult res;
    ms_cmp_record_result(rec(c, i), &res);
    cr_assert_float_eq(rec(c, i)->predicted_ns, ms_result_predicted_ns(&res, c->model), 1e-9, "record %u", i);
    cr_assert_float_eq(rec(c, i)->predicted_ns, 0.25 * (double)rec(c, i)->time_units + 1000.0 * (double)(rec(c, i)->grid_barriers + 1),
                       1e-6, "record %u", i);
  }
  cr_assert_eq(c->overall.n, 11);
  ms_cmp_free(c);
  g_unlink(mp);
  g_free(mp);
  g_free(fp);
}

Test(compare, ncu_counters_beside_the_model) {
  MsCompare *c = cmp_new("models/hmm.json");
  char *raw = src_path("tests/compare/ncu-raw.csv"), *log = src_path("tests/compare/ncu-launches.csv");
  GError *e = NULL;
  cr_assert(ms_cmp_read_counters(c, raw, log, &e), "%s", e ? e->message : "");
  cr_assert_eq(c->counters->len, 4);
  MsCmpCounter *d = g_ptr_array_index(c->counters, 0), *s = g_ptr_array_index(c->counters, 1),
               *f = g_ptr_array_index(c->counters, 2), *h = g_ptr_array_index(c->counters, 3);
  cr_assert(d->predicted && s->predicted && f->predicted && h->predicted);
  cr_assert_eq(d->kernels, 1);
  cr_assert_float_eq(d->conflicts_st, 992, 0);
  cr_assert_eq(d->pred_extra_st, 992); /* 32 warps x 31 extra stages */
  cr_assert_eq(d->pred_extra_ld, 0);
  cr_assert_eq(s->pred_extra_ld, 992);
  cr_assert_eq(f->pred_extra_ld + f->pred_extra_st, 0);
  /* hmm-d-designated identical, n = 4096: 128 warps x (read a, read p, write b) x 4 sectors */
  cr_assert_float_eq(h->sectors_ld, 1024, 0);
  cr_assert_eq(h->pred_sectors_ld, 1024);
  cr_assert_eq(h->pred_sectors_st, 512);
  cr_assert_eq(h->pred_requests_ld + h->pred_requests_st, 384);
  g_free(raw);
  cr_assert(!ms_cmp_read_counters(c, log, log, &e));
  cr_assert(strstr(e->message, "not ncu --csv --page raw output"));
  g_error_free(e);
  g_free(log);
  ms_cmp_free(c);
}

/* ---- the committed GPU records -------------------------------------------------------- */

Test(compare, committed_records_read_and_dmm_permutations_simulate) {
  const char *gpus[] = {"h100", "h200"};
  int seen = 0;
  for (int g = 0; g < 2; g++) {
    char *rel = g_strdup_printf("traces/measured/%s/measurements.json", gpus[g]);
    char *f = src_path(rel);
    g_free(rel);
    if (!g_file_test(f, G_FILE_TEST_EXISTS)) {
      g_free(f);
      continue;
    }
    seen++;
    MsCompare *c = cmp_new("models/hmm.json");
    c->exact = FALSE; /* --reduced: one block per DMM (8), every pass */
    GError *e = NULL;
    cr_assert(ms_cmp_read_measurements(c, f, &e), "%s", e ? e->message : "");
    cr_assert(c->records->len > 0);
    /* Every record maps; simulate the DMM permutations only (the rest take minutes). */
    guint dmm = 0;
    for (guint i = 0; i < c->records->len; i++) {
      MsCmpRecord *r = rec(c, i);
      GHashTable *p = NULL;
      cr_assert(ms_cmp_map(c, r, &p, &e), "%s", e ? e->message : "");
      g_hash_table_unref(p);
      gboolean keep = strcmp(r->workload, "permutation") == 0 && !g_str_has_prefix(r->sim_algorithm, "hmm-") && r->verified;
      if (!keep && !r->skip) r->skip = g_strdup("not in this test");
      dmm += keep;
    }
    cr_assert(dmm > 0);
    cr_assert(ms_cmp_simulate(c, &e), "%s", e ? e->message : "");
    for (guint i = 0; i < c->records->len; i++) {
      MsCmpRecord *r = rec(c, i);
      if (r->skip) continue;
      cr_assert_eq(r->bound, MS_BOUND_SHARED);
      guint64 ew = g_ascii_strtoull(g_hash_table_lookup(r->params, "elem_words"), NULL, 10);
      const char *perm = g_hash_table_lookup(r->params, "permutation");
      if (strcmp(r->algorithm, "conflict-free") == 0 && ew == 1) cr_assert_eq(r->shared.stages, r->shared.dispatches);
      /* the kernels keep their tables in registers ("table": "register"): one pass is a
       * read of a and a write of b, 32 + 32*32 stages for the D-designated transpose; around
       * the passes each block stores a and loads b (32 warps x ew steps each, of ew stages:
       * 64-bit elements fill two banks per step, docs/validation.md) */
      const char *tab = g_hash_table_lookup(r->params, " table");
      gboolean reg = tab && strcmp(tab, "register") == 0;
      cr_assert_eq(r->replicas, 8);
      cr_assert_float_eq(r->scale, 2112.0 / 8, 1e-9);
      guint64 pass = (r->shared.stages / r->replicas - 2 * 32 * ew * ew) / r->repeats;
      cr_assert_eq(r->shared.stages, r->replicas * (2 * 32 * ew * ew + r->repeats * pass), "%s", r->params_text);
      if (strcmp(r->algorithm, "d-designated") == 0 && strcmp(perm, "transpose") == 0 && ew == 1)
        cr_assert_eq(pass, reg ? 1056 : 1088, "%s", r->params_text);
      if (reg && strcmp(r->algorithm, "conflict-free") == 0) cr_assert_eq(pass, 64 * ew, "%s", r->params_text);
    }
    cr_assert(ms_cmp_select_train(c, "all", &e) && ms_cmp_fit(c, &e), "%s", e ? e->message : "");
    cr_assert(c->cal.has_shared && c->cal.tu_shared > 0);
    ms_cmp_free(c);
    g_free(f);
  }
  if (!seen) cr_log_warn("no committed measurement records under traces/measured/");
}

/* The record-level "table" is the permutation family's `table` for the DMM algorithms: with
 * "register" conflict-free costs the copy; records without it keep the paper's shared tables. */
Test(compare, record_table_maps_to_the_dmm_permutation_table) {
#define PR(alg, perm, extra) "{\"workload\": \"permutation\", \"algorithm\": \"" alg "\", \"params\": {\"n\": 1024, " \
  "\"permutation\": \"" perm "\", \"elem_words\": 1, \"blocks\": 8}, \"median_ns\": 5, \"kernels_per_call\": 1, " \
  "\"inner_repeats\": 2, \"verified\": true" extra "}"
  char *text = measurements(PR("copy", "identical", ", \"table\": \"register\"") ","
                            PR("conflict-free", "transpose", ", \"table\": \"register\"") ","
                            PR("d-designated", "transpose", ", \"table\": \"register\"") ","
                            PR("conflict-free", "transpose", "") ","
                            PR("d-designated", "transpose", ", \"table\": \"shared\""));
#undef PR
  char *path = write_tmp(text);
  MsCompare *c = cmp_new("models/hmm.json");
  GError *e = NULL;
  cr_assert(ms_cmp_read_measurements(c, path, &e), "%s", e ? e->message : "");
  cr_assert(ms_cmp_simulate(c, &e), "%s", e ? e->message : "");
  /* shared stages of one pass: each of the 8 blocks stores a and loads b (32 + 32 stages)
   * around its 2 passes */
#define PASS(r) (((r)->shared.stages / (r)->replicas - 64) / (r)->repeats)
  for (guint i = 0; i < 5; i++) {
    cr_assert_eq(rec(c, i)->replicas, 8);
    cr_assert_eq(rec(c, i)->repeats, 2);
    cr_assert_eq(rec(c, i)->shared.stages, 8 * (64 + 2 * PASS(rec(c, i))));
  }
  cr_assert_eq(PASS(rec(c, 0)), 64);
  cr_assert_eq(PASS(rec(c, 1)), 64, "conflict-free with registers = copy");
  cr_assert_eq(PASS(rec(c, 2)), 32 + 32 * 32, "the write conflicts stay");
  cr_assert_eq(PASS(rec(c, 3)), 128, "no field: the paper's shared tables");
  cr_assert_eq(PASS(rec(c, 4)), 1088);
#undef PASS
  cr_assert_str_eq(rec(c, 1)->sim_text, "elem_words=1 n=1024 permutation=transpose table=register");
  cr_assert_str_eq(rec(c, 3)->sim_text, "elem_words=1 n=1024 permutation=transpose");
  /* the reported params stay the record's own (the ncu rows are matched on them) */
  cr_assert_str_eq(rec(c, 1)->params_text, "n=1024 permutation=transpose elem_words=1 blocks=8");
  /* full size: every block and pass simulated, nothing scaled */
  cr_assert_float_eq(rec(c, 1)->scale, 1.0, 1e-12);
  ms_cmp_free(c);
  g_unlink(path);
  g_free(path);
  g_free(text);
}

/* The generators declare the shared memory one block holds, as kernels/ allocates it. */
Test(compare, generators_declare_the_kernels_shared_words) {
  static const struct {
    const char *family, *algorithm, *params;
    guint64 words;
  } cases[] = {
      {"permutation", "copy", "n=1024 permutation=identical table=register", 2 * 1024},           /* T a[n], b[n] */
      {"permutation", "d-designated", "n=1024 permutation=random elem_words=2 table=register", 2 * 2 * 1024},
      {"permutation", "d-designated", "n=1024 permutation=random", 2 * 1024 + 1024},               /* + the table P */
      {"permutation", "hmm-transpose", "n=65536 permutation=transpose", 1024},                     /* u32 t[w * w] */
      {"permutation", "hmm-row-wise", "n=65536 permutation=identical", 2 * 1024},                  /* 2 x 4 rows of 256 */
      {"permutation", "hmm-d-designated", "n=65536 permutation=random", 0},
      {"sat", "2r1w", "n=256 tile-threads=128", 32 * 32 + 32},                                     /* u32 t[W][W + 1] */
      {"sat", "2r2w", "n=256", 0},
      {"bpbc", "life-multistep", "size=256 steps=8", 2 * 64 * 2},                                  /* 2 x 64 u64 */
      {"bpbc", "life-single", "size=256 steps=1", 0},
      {"gcd", "approximate", "bits=64 instances=64", 0},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    GHashTable *p = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    gchar **kv = g_strsplit(cases[i].params, " ", -1);
    for (int k = 0; kv[k]; k++) {
      char *eq = strchr(kv[k], '=');
      g_hash_table_insert(p, g_strndup(kv[k], (gsize)(eq - kv[k])), g_strdup(eq + 1));
    }
    g_strfreev(kv);
    GError *e = NULL;
    MsSource *s = ms_workload_source(cases[i].family, cases[i].algorithm, p, &e);
    cr_assert_not_null(s, "%s %s: %s", cases[i].family, cases[i].algorithm, e ? e->message : "");
    cr_expect_eq(ms_source_shared_words(s), cases[i].words, "%s %s %s: %" G_GUINT64_FORMAT, cases[i].family,
                 cases[i].algorithm, cases[i].params, ms_source_shared_words(s));
    ms_source_free(s);
    g_hash_table_unref(p);
  }
  /* the comparer's kernel shapes: the DMM kernel's a and b, the life kernels, a transpose
   * regrouped into tiles of 1024 threads */
  GError *e = NULL;
  MsSource *t = ms_cmp_life_tile(256, 8, &e);
  cr_assert_not_null(t, "%s", e ? e->message : "");
  cr_expect_eq(ms_source_shared_words(t), 2 * 2 * 82 * 8); /* u64 buf[2][MS_EH + 2][MS_EW + 2] */
  cr_expect_eq(ms_source_block_threads(t), 480);
  ms_source_free(t);
  t = ms_cmp_life_shuffle(256, 8, 8, 128, 30, 2, &e);
  cr_assert_not_null(t, "%s", e ? e->message : "");
  cr_expect_eq(ms_source_shared_words(t), 0);
  cr_expect_eq(ms_source_block_threads(t), 64);
  ms_source_free(t);
}

/* Every generator and the comparer's own kernel traces declare their global footprint (the
 * L2 extension): the arrays they address, worked out from each family's layout. */
Test(compare, traces_declare_their_global_words) {
  static const struct {
    const char *family, *algorithm, *params;
    guint64 words;
  } cases[] = {
      {"permutation", "hmm-d-designated", "n=65536 permutation=random", 2 * 65536 + 65536}, /* a, b, P */
      {"sat", "2r2w", "n=256", 256 * 256},                                                  /* in place */
      {"sat", "4r4w", "n=256", 2 * 256 * 256},
      {"gcd", "approximate", "bits=64 instances=64", 2 * 64 * 2},                            /* X and Y */
      {"bpbc", "pairwise-sum", "bits=7 instances=4096", (3 * 7 + 1) * 128},                  /* A, B, C, carry */
      {"bpbc", "pairwise-sum-naive", "instances=4096", 3 * 4096},
      {"bpbc", "life-single", "size=256 steps=1", 2 * 256 * 8},                              /* two universes */
      {"bpbc", "life-multistep", "size=256 steps=8", 2 * 2 * 256 * 4},
      {"simple", "copy", "n=4096", 2 * 4096},
  };
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
    GHashTable *p = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    gchar **kv = g_strsplit(cases[i].params, " ", -1);
    for (int k = 0; kv[k]; k++) {
      char *eq = strchr(kv[k], '=');
      g_hash_table_insert(p, g_strndup(kv[k], (gsize)(eq - kv[k])), g_strdup(eq + 1));
    }
    g_strfreev(kv);
    GError *e = NULL;
    MsSource *s = ms_workload_source(cases[i].family, cases[i].algorithm, p, &e);
    cr_assert_not_null(s, "%s %s: %s", cases[i].family, cases[i].algorithm, e ? e->message : "");
    cr_expect_eq(ms_source_global_words(s), cases[i].words, "%s %s %s: %" G_GUINT64_FORMAT, cases[i].family,
                 cases[i].algorithm, cases[i].params, ms_source_global_words(s));
    ms_source_free(s);
    g_hash_table_unref(p);
  }
  GError *e = NULL;
  MsSource *t = ms_cmp_sat_copy(512, &e);
  cr_expect_eq(ms_source_global_words(t), 2 * 512 * 512);
  ms_source_free(t);
  /* the copy kernel's trace at n = 4096: 4096^2 / 4 vectors over 8448 blocks of 256 threads,
   * two turns of the loop; each warp's vector load is 4 requests of 32 consecutive, aligned
   * words (4 i0 + 32 j + lane, i0 the warp's first vector): on a UMM of 32-word groups every
   * request is one group, and the loads and stores are the n^2 words once each */
  {
    t = ms_cmp_sat_copy(4096, &e);
    cr_assert_not_null(t, "%s", e ? e->message : "");
    cr_expect_eq(ms_source_threads(t), 8448 * 256);
    g_autoptr(MsModel) um = ms_model_new(MS_MODEL_UMM, 32, 10, 1, 1, 10);
    MsResult *r = ms_simulate(um, t, NULL, &e);
    cr_assert_not_null(r, "%s", e ? e->message : "");
    cr_expect_eq(r->requests, 2 * 4096 * 4096);
    cr_expect_eq(r->stages, 2 * 4096 * 4096 / 32);
    cr_expect_eq(r->extra_stages, 0);
    ms_result_free(r);
    ms_source_free(t);
  }
  /* the hmm-transpose kernel's trace at n = 128^2: 16 tiles of 256 threads, 4 rows each; every
   * global request is one row of 32 words (one group), every shared request conflict-free
   * (the skewed tile): n reads and n writes on each side, n / 32 stages each way */
  {
    t = ms_cmp_hmm_transpose(128 * 128, &e);
    cr_assert_not_null(t, "%s", e ? e->message : "");
    cr_expect_eq(ms_source_threads(t), 16 * 256);
    cr_expect_eq(ms_source_shared_words(t), 1024);
    cr_expect_eq(ms_source_global_words(t), 2 * 128 * 128);
    g_autoptr(MsModel) hm = ms_model_new(MS_MODEL_HMM, 32, 1, 4, 1, 10);
    MsResult *r = ms_simulate(hm, t, NULL, &e);
    cr_assert_not_null(r, "%s", e ? e->message : "");
    cr_expect_eq(r->global.requests, 2 * 128 * 128);
    cr_expect_eq(r->global.stages, 2 * 128 * 128 / 32);
    cr_expect_eq(r->shared.requests, 2 * 128 * 128);
    cr_expect_eq(r->shared.stages, 2 * 128 * 128 / 32);
    ms_result_free(r);
    ms_source_free(t);
    cr_expect_null(ms_cmp_hmm_transpose(100 * 100, &e));
    cr_expect_str_eq(e ? e->message : "", "hmm-transpose kernel: n 10000 is not nbar x nbar with nbar a multiple of 32");
    g_clear_error(&e);
  }
  /* 1r1w-lookback at n = 1024, both kernels: (H, V) = (16, 4), the kernel of 2026-11-25, and
   * (32, 2), the present one. a, b (n^2 each), aggv and incv (S = n / H strips x n), flags
   * (S x NC chunks of 256 V columns); shared: T (H rows of 256 / H segments of H + 4 words),
   * the 8 excl totals, two rows of H + 1 carries */
  /* and (32, 2) with the loads a chunk ahead (2026-11-27): the chunk buffer of H x 256 V
   * words, which every thread reads its V words of each row from, filled by async reads */
  static const guint64 hv[][3] = {{16, 4, 0}, {32, 2, 0}, {32, 2, 1}};
  for (size_t i = 0; i < G_N_ELEMENTS(hv); i++) {
    const guint64 H = hv[i][0], V = hv[i][1], A = hv[i][2], S = 1024 / H, NC = 1024 / (256 * V), NSEG = 256 / H;
    t = ms_cmp_sat_lookback(1024, H, V, A, &e);
    cr_assert_not_null(t, "%s", e ? e->message : "");
    cr_expect_eq(ms_source_global_words(t), 2 * 1024 * 1024 + 2 * S * 1024 + S * NC);
    cr_expect_eq(ms_source_block_threads(t), 256);
    cr_expect_eq(ms_source_shared_words(t), H * NSEG * (H + 4) + 8 + 2 * (H + 1) + A * H * 256 * V);
    /* its requests, counted from the kernel's code (kernels/sat.cu sat_1r1w_lookback<V, H>):
     * per strip s and chunk, per thread: H loads and H stores (V words: V requests each, a
     * warp's 128 V bytes), the column sums (agg or inc), and for s > 0 the inc above read and
     * its own written; the flag store(s) and min(s, 32) flag loads of warp 0; shared: H row
     * totals stored and H offsets read by every thread, the scan's H / 4 + H / 4 16-byte
     * accesses and carry read by every thread, NSEG ... H new row carries (one per row),
     * lane 31's excl total per warp, every thread's excl carry and the excl totals of the
     * warps before it (28 per warp), thread 255's excl carry */
    guint64 want = 0;
    for (guint64 s = 0; s < S; s++)
      for (guint64 c = 0; c < NC; c++) {
        want += 256 * V * (H + H + 1) + (s > 0 ? 2 * V * 256 : 0);
        want += 1 + (s > 0) + MIN(s, 32);
        want += H * 256 + H * 256 + (H / 2) * 256 + 256 + H + 8 + 256 + 32 * 28 + 1;
        want += A * H * V * 256;
      }
    g_autoptr(MsModel) m = ms_model_new(MS_MODEL_UMM, 32, 10, 1, 1, 10);
    MsResult *r = ms_simulate(m, t, NULL, &e);
    cr_assert_not_null(r, "%s", e ? e->message : "");
    cr_expect_eq(r->requests, want, "H %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT " requests, want %" G_GUINT64_FORMAT,
                 H, r->requests, want);
    /* flags: each strip's thread 0 signals per chunk; warp 0 of every strip but the first waits */
    cr_expect_eq(r->signals, S * NC);
    cr_expect_eq(r->waits, (S - 1) * NC);
    /* ahead: the chunk's loads are the copies (async reads, each of the 8 warps its columns'
     * H V requests), and each warp awaits them at every chunk */
    cr_expect_eq(r->async_reads, A * S * NC * 8 * H * V);
    cr_expect_eq(r->awaits, A * S * NC * 8);
    ms_result_free(r);
    ms_source_free(t);
  }
  /* 1r1w-ordered at n = 1024 (T = 32 tiles a side, 1024 blocks of 128 threads), counted from
   * kernels/sat.cu sat_1r1w_ordered: per tile the ticket, 1024 loads and 1024 stores of the
   * tile; warp 0 reads the row above (32 64-bit words of rowb, I > 0), warp 1 the column to the
   * left (colb, J > 0), thread 64 the corner (I, J > 0); warp 3 stores rowb (32), every warp 8
   * colb words.  Shared: the ticket (1 write, 128 reads), wsum (128 writes, 32 (1 + 2 + 3)
   * reads), the borders (65 writes; 128 + 128 + 8 x 128 reads).  Flags: 5 signals per tile;
   * waits: warp 0 where I > 0, warp 1 where J > 0, warp 2 where both */
  {
    const guint64 T = 32, tiles = T * T;
    t = ms_cmp_sat_ordered(1024, 0, &e);
    cr_assert_not_null(t, "%s", e ? e->message : "");
    cr_expect_eq(ms_source_threads(t), tiles * 128);
    cr_expect_eq(ms_source_block_threads(t), 128);
    g_autoptr(MsModel) hm = ms_model_new(MS_MODEL_HMM, 32, 1, 4, 1, 10);
    MsResult *r = ms_simulate(hm, t, NULL, &e);
    cr_assert_not_null(r, "%s", e ? e->message : "");
    const guint64 edge = tiles - T, inner = (T - 1) * (T - 1);
    cr_expect_eq(r->global.requests, tiles * (1 + 1024 + 1024 + 32 + 32) + 2 * 32 * edge + inner);
    cr_expect_eq(r->shared.requests, tiles * (1 + 128 + 128 + 32 * 6 + 65 + 128 + 128 + 8 * 128));
    cr_expect_eq(r->signals, 5 * tiles);
    cr_expect_eq(r->waits, 2 * edge + inner);
    ms_result_free(r);
    ms_source_free(t);
    /* 1+r-ordered, r = 0.25 at n = 1024: m = 16 diagonals by 2R1W (136 tiles), 888 ordered;
     * the ordered kernel reads the borders of tiles below m from b, without a wait */
    t = ms_cmp_sat_ordered(1024, 16, &e);
    cr_assert_not_null(t, "%s", e ? e->message : "");
    r = ms_simulate(hm, t, NULL, &e);
    cr_assert_not_null(r, "%s", e ? e->message : "");
    cr_expect_eq(r->signals, 5 * (tiles - 136));
    cr_expect_eq(r->kernels, 1, "an hmm without residency limits: one kernel");
    cr_expect_eq(r->grid_barriers, 5, "2R1W's five kernels, then the ordered one");
    ms_result_free(r);
    ms_source_free(t);
    cr_expect_null(ms_cmp_sat_ordered(1000, 0, &e));
    cr_expect_str_eq(e ? e->message : "",
                     "1r1w-ordered kernel: n 1000 is not a multiple of 32, or m 0 is beyond its 31 tile diagonals");
    g_clear_error(&e);
  }
  /* 1r1w's stage kernels at n = 1024 (T = 32: 63 calls, 1024 tiles of 128 threads), counted
   * from kernels/sat.cu sat_1r1w_stage: per tile 1024 loads and 1024 stores of the tile, the
   * row above (32, I > 0), the column to the left (32 words of 32 rows, J > 0) and the corner
   * (I, J > 0); shared: 1024 + 65 writes, 2 x (1024 reads + 1024 writes) in the passes, the
   * corner by 128 threads, 8 x 3 x 128 reads in the copy out.  The column to the left is one
   * group per word (32 rows apart) */
  {
    const guint64 T = 32, tiles = T * T;
    t = ms_cmp_sat_1r1w_stages(1024, FALSE, &e);
    cr_assert_not_null(t, "%s", e ? e->message : "");
    cr_expect_eq(ms_source_threads(t), T * 128);
    cr_expect_eq(ms_source_block_threads(t), 128);
    cr_expect_eq(ms_source_shared_words(t), 1121);
    cr_expect_eq(ms_source_global_words(t), 2 * 1024 * 1024);
    g_autoptr(MsModel) hm = ms_model_new(MS_MODEL_HMM, 32, 1, 4, 1, 10);
    MsResult *r = ms_simulate(hm, t, NULL, &e);
    cr_assert_not_null(r, "%s", e ? e->message : "");
    const guint64 edge = tiles - T, inner = (T - 1) * (T - 1);
    cr_expect_eq(r->global.requests, tiles * 2048 + 2 * 32 * edge + inner);
    cr_expect_eq(r->shared.requests, tiles * (1024 + 65 + 4096 + 128 + 3072));
    cr_expect_eq(r->grid_barriers, 2 * T - 2);
    const guint64 r0_requests = r->requests, r0_units = r->time_units;
    ms_result_free(r);
    ms_source_free(t);
    /* chains: one compute step of one instruction before each of warp 0's pass writes, 64 a tile;
     * with instruction_units 4 each holds the warp 4 time units, so the trace takes longer */
    t = ms_cmp_sat_1r1w_stages(1024, TRUE, &e);
    cr_assert_not_null(t, "%s", e ? e->message : "");
    hm->instruction_units = 4;
    MsResult *rc = ms_simulate(hm, t, NULL, &e);
    cr_assert_not_null(rc, "%s", e ? e->message : "");
    cr_expect_eq(rc->instructions, tiles * 64);
    cr_expect_eq(rc->requests, r0_requests);
    cr_expect_gt(rc->time_units, r0_units);
    ms_result_free(rc);
    ms_source_free(t);
    cr_expect_null(ms_cmp_sat_1r1w_stages(1000, FALSE, &e));
    cr_expect_str_eq(e ? e->message : "", "1r1w stage kernels: n 1000 is not a multiple of 32");
    g_clear_error(&e);
  }
  cr_expect_null(ms_cmp_sat_lookback(1000, 32, 2, 0, &e));
  cr_expect_str_eq(e ? e->message : "", "1r1w-lookback kernel: n 1000 is not a multiple of 512");
  g_clear_error(&e);
  cr_expect_null(ms_cmp_sat_lookback(1024, 16, 4, 1, &e));
  cr_expect_str_eq(e ? e->message : "",
                   "1r1w-lookback kernel: loads a chunk ahead with strips of 16 rows and 4 columns per thread: kernels/sat.cu has them with 32 and 2");
  g_clear_error(&e);
  cr_expect_null(ms_cmp_sat_lookback(1024, 8, 2, 0, &e));
  cr_expect_str_eq(e ? e->message : "",
                   "1r1w-lookback kernel: strips of 8 rows with 2 columns per thread: kernels/sat.cu has 16 or 32 rows, 2 or 4 columns");
  g_clear_error(&e);
}

/* Every family's source fills on several workers (fill_worker) and gives the one-thread
 * result on 4 threads, every step sent to the workers: the grounded H200 model (hmm, all
 * GPU extensions) and a plain UMM. */
static MsSource *family_source(const char *family, const char *algorithm, const char *params) {
  GHashTable *p = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  gchar **kv = g_strsplit(params, " ", -1);
  for (int k = 0; kv[k]; k++) {
    char *eq = strchr(kv[k], '=');
    g_hash_table_insert(p, g_strndup(kv[k], (gsize)(eq - kv[k])), g_strdup(eq + 1));
  }
  g_strfreev(kv);
  GError *e = NULL;
  MsSource *s = ms_workload_source(family, algorithm, p, &e);
  cr_assert_not_null(s, "%s %s: %s", family, algorithm, e ? e->message : "");
  g_hash_table_unref(p);
  return s;
}

Test(compare, every_family_gives_the_same_result_on_several_threads) {
  static const struct {
    const char *family, *algorithm, *params;
  } cases[] = {
      {"permutation", "hmm-d-designated", "n=65536 permutation=random"},
      {"permutation", "hmm-scheduled", "n=65536 permutation=random"},
      {"sat", "2r1w", "n=256 tile-threads=128"},
      {"sat", "2r2w", "n=256 unroll=8"},
      {"gcd", "approximate", "bits=64 instances=1024"},
      {"bpbc", "pairwise-sum", "bits=9 instances=65536 unroll=4"},
      {"bpbc", "life-single", "size=256 steps=2"},
      {"bpbc", "life-multistep", "size=256 steps=8"},
      {"simple", "transpose-tiled", "n=256"},
  };
  const char *root = g_getenv("MEMSIM_SRCDIR");
  g_autofree char *mpath = g_build_filename(root ? root : ".", "models/h200.json", NULL);
  GError *e = NULL;
  g_autoptr(MsModel) hmm = ms_model_load(mpath, &e);
  cr_assert_not_null(hmm, "%s", e ? e->message : "");
  g_autoptr(MsModel) umm = ms_model_new(MS_MODEL_UMM, 32, 40, 1, 1, 40);
  const MsModel *models[] = {hmm, umm};
  for (gsize i = 0; i < G_N_ELEMENTS(cases); i++)
    for (int mi = 0; mi < 2; mi++) {
      if (mi == 1 && (strcmp(cases[i].family, "simple") == 0 || strstr(cases[i].algorithm, "multistep") ||
                      strstr(cases[i].algorithm, "hmm-") || strcmp(cases[i].family, "sat") == 0))
        continue; /* shared-memory steps: hmm kinds only */
      MsSimOptions one = {.per_step = TRUE, .threads = 1};
      MsSimOptions four = {.per_step = TRUE, .threads = 4, .par_min_warps = 1};
      MsSource *s1 = family_source(cases[i].family, cases[i].algorithm, cases[i].params);
      /* one block of every thread (gcd, bpbc): the kernels' blocks of 256, as compare does */
      if (ms_source_block_threads(s1) > 2048) s1 = ms_cmp_reblock(s1, 256, FALSE);
      cr_assert(ms_source_has_fill_worker(s1), "%s %s", cases[i].family, cases[i].algorithm);
      MsResult *a = ms_simulate(models[mi], s1, &one, &e);
      cr_assert_not_null(a, "%s", e ? e->message : "");
      ms_source_free(s1);
      MsSource *s4 = family_source(cases[i].family, cases[i].algorithm, cases[i].params);
      if (ms_source_block_threads(s4) > 2048) s4 = ms_cmp_reblock(s4, 256, FALSE);
      MsResult *b = ms_simulate(models[mi], s4, &four, &e);
      cr_assert_not_null(b, "%s", e ? e->message : "");
      ms_source_free(s4);
      cr_expect_eq(a->time_units, b->time_units, "%s %s", cases[i].family, cases[i].algorithm);
      cr_expect_eq(a->stages, b->stages, "%s %s", cases[i].family, cases[i].algorithm);
      cr_expect_eq(a->requests, b->requests, "%s %s", cases[i].family, cases[i].algorithm);
      cr_expect_eq(a->round_sum, b->round_sum, "%s %s", cases[i].family, cases[i].algorithm);
      cr_assert_eq(a->per_step->len, b->per_step->len);
      cr_expect(memcmp(a->per_step->data, b->per_step->data, a->per_step->len * sizeof(MsStepResult)) == 0, "%s %s",
                cases[i].family, cases[i].algorithm);
      ms_result_free(a);
      ms_result_free(b);
    }
}

/* A bulk record (kernels/bulk.cu) maps to `memsim gen bulk`'s trace with the record's own
 * params: the same source as ms_workload_source("bulk", ...), the same time on a UMM, and
 * the report names the family. */
Test(compare, bulk_records_map_to_the_generators_trace) {
  static const struct {
    const char *algorithm, *params;
    guint64 words, block;
  } want[] = {
      {"prefix-sums", "n=64 p=1024 arrangement=column threads_per_block=256 seed=1", 64 * 1024, 256},
      {"prefix-sums", "n=64 p=1024 arrangement=row threads_per_block=256 seed=1", 64 * 1024, 256},
      {"bitonic", "n=32 p=256 arrangement=column threads_per_block=128 seed=1", 32 * 256, 128},
      {"montgomery", "bits=64 p=64 arrangement=row threads_per_block=64 seed=1", (6 * 2 + 3) * 64, 64},
  };
  MsCompare *c = cmp_new("models/h100.json"); /* calibrated: --train none predicts */
  char *f = src_path("tests/compare/fixture-bulk.json");
  GError *e = NULL;
  cr_assert(ms_cmp_read_measurements(c, f, &e), "%s", e ? e->message : "");
  cr_assert_eq(c->records->len, G_N_ELEMENTS(want));
  g_autoptr(MsModel) umm = ms_model_new(MS_MODEL_UMM, 32, 40, 1, 1, 40);
  guint64 col_units = 0, row_units = 0;
  for (guint i = 0; i < c->records->len; i++) {
    MsCmpRecord *r = rec(c, i);
    MsSource *s = ms_cmp_record_source(c, r, &e);
    cr_assert_not_null(s, "record %u: %s", i, e ? e->message : "");
    cr_expect_str_eq(r->sim_family, "bulk");
    cr_expect_str_eq(r->sim_algorithm, want[i].algorithm);
    cr_expect_eq(r->scale, 1.0, "record %u: scale %g", i, r->scale);
    cr_expect_eq(ms_source_global_words(s), want[i].words, "record %u: %" G_GUINT64_FORMAT " words", i,
                 ms_source_global_words(s));
    cr_expect_eq(ms_source_block_threads(s), want[i].block, "record %u: blocks of %" G_GUINT64_FORMAT, i,
                 ms_source_block_threads(s));
    MsSource *g = family_source("bulk", want[i].algorithm, want[i].params);
    MsResult *a = ms_simulate(umm, s, NULL, &e);
    cr_assert_not_null(a, "%s", e ? e->message : "");
    MsResult *b = ms_simulate(umm, g, NULL, &e);
    cr_assert_not_null(b, "%s", e ? e->message : "");
    cr_expect_eq(a->time_units, b->time_units, "record %u: %" G_GUINT64_FORMAT " against the generator's %" G_GUINT64_FORMAT,
                 i, a->time_units, b->time_units);
    cr_expect_eq(a->requests, b->requests);
    if (i == 0) col_units = a->time_units;
    if (i == 1) row_units = a->time_units;
    ms_result_free(a);
    ms_result_free(b);
    ms_source_free(s);
    ms_source_free(g);
  }
  /* row-wise: every thread of a warp in its own address group */
  cr_expect_gt(row_units, col_units, "row %" G_GUINT64_FORMAT ", column %" G_GUINT64_FORMAT, row_units, col_units);
  cr_assert(ms_cmp_simulate(c, &e), "%s", e ? e->message : "");
  cr_assert(ms_cmp_select_train(c, "none", &e), "%s", e ? e->message : "");
  cr_assert(ms_cmp_fit(c, &e), "%s", e ? e->message : "");
  char *md = ms_cmp_format(c, MS_CMP_MARKDOWN);
  cr_expect_not_null(strstr(md, "| bulk | 4 |"), "%s", md);
  cr_expect_not_null(strstr(md, "| bulk | montgomery | bits=64 p=64 arrangement=row threads_per_block=64 seed=1 |"), "%s", md);
  g_free(md);
  g_free(f);
  ms_cmp_free(c);
}

/* A re-recorded family: a later file's record replaces the same record (device, workload,
 * algorithm, parameters, extras) of an earlier file, which is then not reported; records
 * that differ in any of these stay. */
Test(compare, a_later_file_replaces_the_same_records) {
  char *dir = g_dir_make_tmp("memsim-supersede-XXXXXX", NULL);
  char *older = g_build_filename(dir, "older.json", NULL), *newer = g_build_filename(dir, "newer.json", NULL);
#define HEAD "{\"memsim_measurements\": 1, \"device\": {\"name\": \"%s\"}, \"date\": \"x\", " \
             "\"git_commit\": \"x\", \"timing\": \"events\", \"records\": [%s]}"
#define REC "{\"workload\": \"sat\", \"algorithm\": \"%s\", \"params\": {\"n\": %d, \"block\": 32}, " \
            "\"kernels_per_call\": 1, \"median_ns\": %d, \"verified\": true}"
  char *a = g_strdup_printf(REC, "2r1w", 64, 1000), *b = g_strdup_printf(REC, "2r1w", 128, 2000),
       *c = g_strdup_printf(REC, "copy", 64, 300), *d = g_strdup_printf(REC, "2r1w", 64, 1500);
  char *l1 = g_strdup_printf("%s, %s, %s", a, b, c), *l2 = g_strdup(d);
  char *t1 = g_strdup_printf(HEAD, "GPU", l1), *t2 = g_strdup_printf(HEAD, "GPU", l2);
  cr_assert(g_file_set_contents(older, t1, -1, NULL));
  cr_assert(g_file_set_contents(newer, t2, -1, NULL));
  MsCompare *m = cmp_new("models/hmm.json");
  GError *e = NULL;
  cr_assert(ms_cmp_read_measurements(m, older, &e), "%s", e ? e->message : "");
  cr_assert(ms_cmp_read_measurements(m, newer, &e), "%s", e ? e->message : "");
  cr_assert_eq(m->records->len, 3);
  cr_assert_float_eq(rec(m, 0)->median_ns, 2000, 1e-9); /* n=128 stays */
  cr_assert_str_eq(rec(m, 1)->algorithm, "copy");
  cr_assert_float_eq(rec(m, 2)->median_ns, 1500, 1e-9); /* the newer n=64 */
  cr_assert_str_eq(rec(m, 2)->file, newer);
  cr_assert_eq(m->notes->len, 1);
  char *want = g_strdup_printf("%s: 1 record replaced by the same record of %s (not reported)", older, newer);
  cr_assert_str_eq(m->notes->pdata[0], want);
  ms_cmp_free(m);
  /* another device's record replaces nothing */
  char *t3 = g_strdup_printf(HEAD, "OTHER GPU", l2);
  cr_assert(g_file_set_contents(newer, t3, -1, NULL));
  m = cmp_new("models/hmm.json");
  cr_assert(ms_cmp_read_measurements(m, older, NULL) && ms_cmp_read_measurements(m, newer, NULL));
  cr_assert_eq(m->records->len, 4);
  cr_assert_eq(m->notes->len, 0);
  ms_cmp_free(m);
  g_unlink(older);
  g_unlink(newer);
  g_rmdir(dir);
  for (char **p = (char *[]){dir, older, newer, a, b, c, d, l1, l2, t1, t2, t3, want, NULL}; *p; p++) g_free(*p);
#undef HEAD
#undef REC
}
