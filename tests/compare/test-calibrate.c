/* test-calibrate.c: `memsim calibrate`'s derivation of a grounded HMM model from calibration
 * records.  fixture-calibrate.json holds fake numbers made for these tests (a 100-SM GPU at
 * 2000 MHz); every expected figure below is worked out by hand from them. */
#include "ms-calibrate.h"
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#define RUN_HINT_TEXT "run memsim-measure --workload calibrate"
#define HINT "(" RUN_HINT_TEXT ")"

static cJSON *fixture_json(void) {
  const char *root = g_getenv("MEMSIM_SRCDIR");
  char *path = g_build_filename(root ? root : ".", "tests/compare/fixture-calibrate.json", NULL);
  char *text = NULL;
  gsize len = 0;
  cr_assert(g_file_get_contents(path, &text, &len, NULL), "cannot read %s", path);
  cJSON *j = cJSON_ParseWithLength(text, len);
  cr_assert_not_null(j);
  g_free(text);
  g_free(path);
  return j;
}

static cJSON *records(cJSON *root) { return cJSON_GetObjectItemCaseSensitive(root, "records"); }

static cJSON *record(cJSON *root, int i) { return cJSON_GetArrayItem(records(root), i); }

/* Removes the records of `alg` (with params.key == value when key is set). */
static void drop(cJSON *root, const char *alg, const char *key, double value) {
  cJSON *a = records(root);
  for (int i = cJSON_GetArraySize(a) - 1; i >= 0; i--) {
    cJSON *r = cJSON_GetArrayItem(a, i);
    if (strcmp(cJSON_GetObjectItemCaseSensitive(r, "algorithm")->valuestring, alg) != 0) continue;
    cJSON *v = key ? cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "params"), key) : NULL;
    if (!key || (v && v->valuedouble == value)) cJSON_DeleteItemFromArray(a, i);
  }
}

/* Reads `root` as file `name` into c; returns the error message (new) or NULL. */
static char *read_as(MsCalib *c, cJSON *root, const char *name) {
  char *t = cJSON_PrintUnformatted(root);
  GError *e = NULL;
  gboolean ok = ms_calib_read_text(c, t, strlen(t), name, &e);
  cJSON_free(t);
  if (ok) return NULL;
  char *m = g_strdup(e->message);
  g_error_free(e);
  return m;
}

/* Reads and derives; returns the first error message (new) or NULL. */
static char *derive(MsCalib *c, cJSON *root) {
  char *m = read_as(c, root, "r.json");
  if (m) return m;
  GError *e = NULL;
  if (ms_calib_derive(c, &e)) return NULL;
  m = g_strdup(e->message);
  g_error_free(e);
  return m;
}

Test(calibrate, fixture_derives_every_key_by_hand) {
  cJSON *root = fixture_json();
  MsCalib *c = ms_calib_new();
  char *err = derive(c, root);
  cr_assert_null(err, "%s", err);
  const MsCalDerived *d = &c->d;
  cr_assert_eq(c->records->len, 22);
  cr_assert_eq(c->ignored, 1); /* the permutation record */
  /* clock-spin: 20e6 cycles in 10e6 ns = 2000 MHz, 0.5 ns per time unit */
  cr_assert_float_eq(d->mhz, 2000.0, 1e-9);
  cr_assert_float_eq(d->time_unit_ns, 0.5, 1e-12);
  /* strided reads: 0.42 / 0.05 = 8.4 ns per warp request: nearest power of two 8 */
  cr_assert_float_eq(d->stride_ns[0], 0.05, 1e-12);
  cr_assert_float_eq(d->stride_ns[5], 0.42, 1e-12);
  cr_assert_float_eq(d->stride_ratio, 8.4, 1e-9);
  cr_assert_eq(d->group_words, 8);
  /* copy: 3e9 bytes in 1e6 ns = 3000 bytes/ns; x 0.5 ns = 1500 bytes per clock; / 32 = 46.875 -> 47 */
  cr_assert_float_eq(d->copy_bytes_per_ns, 3000.0, 1e-9);
  cr_assert_eq(d->global_rate, 47);
  cr_assert_eq(d->global_latency, 612); /* 612.4 */
  cr_assert_eq(d->shared_latency, 30);  /* 29.6 */
  cr_assert_eq(d->launch_units, 4000);  /* 2000 ns / 0.5 */
  cr_assert_eq(d->dmms, 100);
  cr_assert_eq(d->width, 32);
  cr_assert_eq(d->resident_warps, 64);          /* 2048 / 32 */
  cr_assert_eq(d->resident_blocks, 32);
  cr_assert_eq(d->shared_words_per_dmm, 58368); /* 233472 / 4 */
  /* L2: 52428800 bytes / 4; chase 265.7 clocks; read 2^30 bytes in 2e5 ns = 5368.7 bytes/ns,
   * x 0.5 = 2684.35 bytes per clock, / 32 = 83.9 -> 84 */
  cr_assert_eq(d->l2_words, 13107200);
  cr_assert_eq(d->l2_latency, 266);
  cr_assert_float_eq(d->l2_bytes_per_ns, 5368.70912, 1e-9);
  cr_assert_eq(d->l2_rate, 84);
  cr_assert_str_eq(d->from_global, "r.json record 14 (calibrate dram-chase footprint_bytes=536870912 "
                                   "node_stride_bytes=128 hops=32768 warmup_hops=0)");
  ms_calib_free(c);
  cJSON_Delete(root);
}

Test(calibrate, model_file_reads_back_and_runs) {
  cJSON *root = fixture_json();
  MsCalib *c = ms_calib_new();
  char *err = derive(c, root);
  cr_assert_null(err, "%s", err);
  char *text = ms_calib_model_json(c, "memsim calibrate r.json");
  GError *e = NULL;
  MsModel *m = ms_model_parse(text, strlen(text), "model.json", &e);
  cr_assert_not_null(m, "%s", e ? e->message : "");
  cr_assert_eq(m->kind, MS_MODEL_HMM);
  cr_assert_str_eq(m->name, "Fixture GPU, grounded HMM");
  cr_assert_eq(m->width, 32);
  cr_assert_eq(m->dmms, 100);
  cr_assert_eq(m->global_latency, 612);
  cr_assert_eq(m->shared_latency, 30);
  cr_assert_eq(m->group_words, 8);
  cr_assert_eq(m->global_rate, 47);
  cr_assert_eq(m->resident_warps, 64);
  cr_assert_eq(m->resident_blocks, 32);
  cr_assert_eq(m->shared_words_per_dmm, 58368);
  cr_assert_eq(m->launch_units, 4000);
  cr_assert_float_eq(m->time_unit_ns, 0.5, 1e-12);
  cr_assert_eq(m->l2_words, 13107200);
  cr_assert_eq(m->l2_latency, 266);
  cr_assert_eq(m->l2_rate, 84);
  cr_assert_float_eq(m->launch_ns, 0.0, 0); /* the launch is in launch_units, not added again */
  /* the calibration object names each figure's record and keeps the unused ones */
  cJSON *j = cJSON_Parse(text);
  cJSON *cal = cJSON_GetObjectItemCaseSensitive(j, "calibration");
  cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(cal, "command")->valuestring, "memsim calibrate r.json");
  cJSON *gr = cJSON_GetObjectItemCaseSensitive(cal, "global_rate");
  cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(gr, "from")->valuestring,
                   "r.json record 6 (calibrate dram-copy bytes=2147483648 vector_bytes=16 blocks=800 threads_per_block=256)");
  cJSON *unused = cJSON_GetObjectItemCaseSensitive(cal, "recorded_not_used");
  cJSON *rd = cJSON_GetObjectItemCaseSensitive(unused, "dram-read bytes=2147483648 vector_bytes=16 blocks=800 threads_per_block=256");
  cr_assert_not_null(rd);
  cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(rd, "bytes_per_ns")->valuedouble, 2147483648.0 / 700000, 1e-9);
  cJSON *l1 = cJSON_GetObjectItemCaseSensitive(unused, "l1-chase footprint_bytes=16384 node_stride_bytes=128 hops=262144 warmup_hops=128");
  cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(l1, "clocks_per_hop")->valuedouble, 33.2, 1e-9);
  cJSON *wf = cJSON_GetObjectItemCaseSensitive(unused, "shared-wavefronts ways=32 loads_per_thread=512 blocks=200 threads_per_block=1024");
  cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(wf, "wavefronts_per_sm_per_clock")->valuedouble, 0.995, 1e-9);
  cr_assert_null(cJSON_GetObjectItemCaseSensitive(unused, "l2-read footprint_bytes=16777216 passes=64 blocks=800 threads_per_block=256"));
  cJSON *l2r = cJSON_GetObjectItemCaseSensitive(cal, "l2_rate");
  cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(l2r, "from")->valuestring,
                   "r.json record 13 (calibrate l2-read footprint_bytes=16777216 passes=64 blocks=800 threads_per_block=256)");
  cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cal, "device"), "name")->valuestring,
                   "Fixture GPU");
  cJSON_Delete(j);
  /* the engine takes it: one coalesced global read by 32 threads of one block */
  const char *trace = "{\"memsim_trace\": 1, \"threads\": 32, \"steps\": [{\"op\": \"read\", \"space\": \"global\", "
                      "\"addr\": [0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31]}]}";
  char *path = g_build_filename(g_get_tmp_dir(), "memsim-test-calibrate-trace.json", NULL);
  cr_assert(g_file_set_contents(path, trace, -1, NULL));
  MsSource *src = ms_trace_open(path, &e);
  cr_assert_not_null(src, "%s", e ? e->message : "");
  MsResult *res = ms_simulate(m, src, NULL, &e);
  cr_assert_not_null(res, "%s", e ? e->message : "");
  /* 4 groups of 8 words take slots 0-3 at time 0 (rate 47); complete at 0 + 612 - 1; after
   * 4000 launch units: 4000 + 611 + 1 */
  cr_assert_eq(res->time_units, 4000 + 612, "time_units %" G_GUINT64_FORMAT, res->time_units);
  ms_result_free(res);
  ms_source_free(src);
  g_remove(path);
  g_free(path);
  ms_model_free(m);
  g_free(text);
  ms_calib_free(c);
  cJSON_Delete(root);
}

Test(calibrate, line_behaviour_gives_32_word_groups) {
  cJSON *root = fixture_json();
  /* stride 32 at 30x the stride-1 time per request: 128-byte lines */
  cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(record(root, 12), "median_ns"), 524288 * 1.5);
  MsCalib *c = ms_calib_new();
  char *err = derive(c, root);
  cr_assert_null(err, "%s", err);
  cr_assert_float_eq(c->d.stride_ratio, 30.0, 1e-9);
  cr_assert_eq(c->d.group_words, 32);
  cr_assert_eq(c->d.global_rate, 12); /* 1500 bytes per clock / 128 = 11.72 */
  cr_assert_eq(c->d.l2_rate, 21);     /* 2684.35 bytes per clock / 128 = 20.97 */
  ms_calib_free(c);
  cJSON_Delete(root);
}

static const struct {
  const char *alg, *key;
  double value;
  const char *message;
} missing[] = {
    {"clock-spin", NULL, 0, "r.json: no calibrate record \"clock-spin\" " HINT},
    {"launch-empty", "blocks", 1, "r.json: no calibrate record \"launch-empty\" with blocks=1 " HINT},
    {"dram-copy", NULL, 0, "r.json: no calibrate record \"dram-copy\" " HINT},
    {"strided-read", "stride_words", 1, "r.json: no calibrate record \"strided-read\" with stride_words=1 " HINT},
    {"strided-read", "stride_words", 32, "r.json: no calibrate record \"strided-read\" with stride_words=32 " HINT},
    {"dram-chase", NULL, 0, "r.json: no calibrate record \"dram-chase\" " HINT},
    {"shared-chase", NULL, 0, "r.json: no calibrate record \"shared-chase\" " HINT},
    {"l2-read", NULL, 0, "r.json: no calibrate record \"l2-read\" " HINT},
    {"l2-chase", NULL, 0, "r.json: no calibrate record \"l2-chase\" " HINT},
};

Test(calibrate, each_missing_record_is_named) {
  for (guint i = 0; i < G_N_ELEMENTS(missing); i++) {
    cJSON *root = fixture_json();
    drop(root, missing[i].alg, missing[i].key, missing[i].value);
    MsCalib *c = ms_calib_new();
    char *err = derive(c, root);
    cr_assert_not_null(err, "%s: derived without it", missing[i].alg);
    cr_assert_str_eq(err, missing[i].message);
    g_free(err);
    ms_calib_free(c);
    cJSON_Delete(root);
  }
}

Test(calibrate, several_missing_records_are_listed) {
  cJSON *root = fixture_json();
  drop(root, "dram-copy", NULL, 0);
  drop(root, "shared-chase", NULL, 0);
  MsCalib *c = ms_calib_new();
  char *err = derive(c, root);
  cr_assert_str_eq(err, "r.json: no calibrate records \"dram-copy\", \"shared-chase\" " HINT);
  g_free(err);
  ms_calib_free(c);
  cJSON_Delete(root);
}

Test(calibrate, a_file_without_calibrate_records_is_refused) {
  cJSON *root = fixture_json();
  cJSON *a = records(root);
  while (cJSON_GetArraySize(a) > 1) cJSON_DeleteItemFromArray(a, 0);
  MsCalib *c = ms_calib_new();
  char *err = derive(c, root);
  cr_assert_str_eq(err, "r.json: no calibrate records (1 record of other workloads ignored; "
                        "run memsim-measure --workload calibrate)");
  g_free(err);
  ms_calib_free(c);
  cJSON_Delete(root);
}

Test(calibrate, an_unverified_record_is_refused) {
  cJSON *root = fixture_json();
  cJSON *r = record(root, 4); /* dram-read: not even used by the model */
  cJSON_ReplaceItemInObject(r, "verified", cJSON_CreateFalse());
  cJSON_AddStringToObject(r, "failure", "sum 7, want 9");
  MsCalib *c = ms_calib_new();
  char *err = derive(c, root);
  cr_assert_str_eq(err, "r.json record 4 (calibrate dram-read bytes=2147483648 vector_bytes=16 blocks=800 "
                        "threads_per_block=256): not verified on the GPU (sum 7, want 9): calibration uses "
                        "verified records only");
  g_free(err);
  ms_calib_free(c);
  cJSON_Delete(root);
}

Test(calibrate, records_of_two_devices_are_refused) {
  cJSON *a = fixture_json(), *b = fixture_json();
  drop(b, "dram-copy", NULL, 0);
  cJSON *a_recs = records(a);
  while (cJSON_GetArraySize(a_recs) > 0) cJSON_DeleteItemFromArray(a_recs, 0);
  cJSON *dev = cJSON_GetObjectItemCaseSensitive(b, "device");
  cJSON_ReplaceItemInObject(dev, "name", cJSON_CreateString("Other GPU"));
  MsCalib *c = ms_calib_new();
  char *err = read_as(c, a, "a.json");
  cr_assert_null(err, "%s", err);
  err = read_as(c, b, "b.json");
  cr_assert_str_eq(err, "b.json: records of device \"Other GPU\" (100 SMs), but a.json holds records of device "
                        "\"Fixture GPU\" (100 SMs): calibrate one device at a time");
  g_free(err);
  ms_calib_free(c);
  cJSON_Delete(a);
  cJSON_Delete(b);
}

Test(calibrate, two_files_of_one_device_combine_but_not_twice_the_same_record) {
  cJSON *a = fixture_json(), *b = fixture_json();
  drop(a, "dram-copy", NULL, 0);
  cJSON *keep = cJSON_Duplicate(record(b, 6), TRUE); /* b: the dram-copy alone */
  cJSON *b_recs = records(b);
  while (cJSON_GetArraySize(b_recs) > 0) cJSON_DeleteItemFromArray(b_recs, 0);
  cJSON_AddItemToArray(b_recs, keep);
  MsCalib *c = ms_calib_new();
  cr_assert_null(read_as(c, a, "a.json"));
  cr_assert_null(read_as(c, b, "b.json"));
  GError *e = NULL;
  cr_assert(ms_calib_derive(c, &e), "%s", e ? e->message : "");
  cr_assert_eq(c->d.global_rate, 47);
  cr_assert_str_eq(c->d.from_copy, "b.json record 0 (calibrate dram-copy bytes=2147483648 vector_bytes=16 blocks=800 threads_per_block=256)");
  char *err = read_as(c, b, "c.json");
  cr_assert_str_eq(err, "c.json record 0 (calibrate dram-copy bytes=2147483648 vector_bytes=16 blocks=800 "
                        "threads_per_block=256): the same measurement as b.json record 0 (calibrate dram-copy "
                        "bytes=2147483648 vector_bytes=16 blocks=800 threads_per_block=256): give each measurement once");
  g_free(err);
  ms_calib_free(c);
  cJSON_Delete(a);
  cJSON_Delete(b);
}

Test(calibrate, bad_json_names_file_line_and_column) {
  const char *text = "{\"memsim_measurements\": 1,\n \"device\": {,}}";
  MsCalib *c = ms_calib_new();
  GError *e = NULL;
  cr_assert(!ms_calib_read_text(c, text, strlen(text), "r.json", &e));
  cr_assert_str_eq(e->message, "r.json:2:14: invalid JSON near '}}' (or nesting deeper than 1000)");
  cr_assert_eq(e->code, MS_ERROR_SYNTAX);
  g_error_free(e);
  ms_calib_free(c);
}

Test(calibrate, missing_fields_are_named) {
  cJSON *root = fixture_json();
  cJSON_DeleteItemFromObject(cJSON_GetObjectItemCaseSensitive(root, "device"), "max_threads_per_sm");
  MsCalib *c = ms_calib_new();
  char *err = derive(c, root);
  cr_assert_str_eq(err, "r.json: device: missing \"max_threads_per_sm\" (an older memsim-measure; "
                        "run memsim-measure --workload calibrate)");
  g_free(err);
  ms_calib_free(c);
  cJSON_Delete(root);

  root = fixture_json();
  cJSON_DeleteItemFromObject(cJSON_GetObjectItemCaseSensitive(record(root, 14), "result"), "clocks_per_hop");
  c = ms_calib_new();
  err = derive(c, root);
  cr_assert_str_eq(err, "r.json record 14 (calibrate dram-chase footprint_bytes=536870912 node_stride_bytes=128 "
                        "hops=32768 warmup_hops=0): missing field \"result.clocks_per_hop\"");
  g_free(err);
  ms_calib_free(c);
  cJSON_Delete(root);

  root = fixture_json();
  cJSON_ReplaceItemInObject(record(root, 6), "bytes_written", cJSON_CreateString("lots"));
  c = ms_calib_new();
  err = derive(c, root);
  cr_assert_str_eq(err, "r.json record 6 (calibrate dram-copy bytes=2147483648 vector_bytes=16 blocks=800 "
                        "threads_per_block=256): field \"bytes_written\" must be a non-negative number, got a string");
  g_free(err);
  ms_calib_free(c);
  cJSON_Delete(root);
}

Test(calibrate, not_a_measurement_file) {
  const char *text = "{\"model\": \"hmm\"}";
  MsCalib *c = ms_calib_new();
  GError *e = NULL;
  cr_assert(!ms_calib_read_text(c, text, strlen(text), "m.json", &e));
  cr_assert_str_eq(e->message, "m.json: not a memsim measurement file (expected \"memsim_measurements\": 1)");
  g_error_free(e);
  ms_calib_free(c);
}

/* l2-copy-sweep records: footprints 8, 32, 48, 64, 128 MiB at 6000, 6000, 5000, 3000, 3000
 * bytes/ns.  hi 6000, lo 3000, half 4500: between 48 MiB (5000) and 64 MiB (3000), at
 * 48 + (5000 - 4500) / (5000 - 3000) x 16 = 52 MiB: l2_words = 52 x 2^20 / 4 = 13631488.
 * Without them, device.l2_bytes / 4 = 13107200; with two, the rule is refused. */
static void add_sweep(cJSON *root, double mib, double bytes_per_ns) {
  const double f = mib * 1048576, moved = 1073741824.0;
  char *t = g_strdup_printf("{\"workload\": \"calibrate\", \"algorithm\": \"l2-copy-sweep\", \"params\": {\"footprint_bytes\": %.0f, "
                            "\"passes\": 2, \"blocks\": 800, \"threads_per_block\": 256}, \"kernels_per_call\": 1, \"calls\": 10, "
                            "\"median_ns\": %.6f, \"bytes_read\": %.0f, \"bytes_written\": %.0f, \"verified\": true}",
                            f, moved / bytes_per_ns, moved / 2, moved / 2);
  cJSON_AddItemToArray(records(root), cJSON_Parse(t));
  g_free(t);
}

Test(calibrate, l2_copy_sweep_gives_the_half_bandwidth_footprint) {
  cJSON *root = fixture_json();
  MsCalib *c = ms_calib_new();
  char *err = derive(c, root);
  cr_assert_null(err, "%s", err);
  cr_assert_eq(c->d.l2_words, 13107200);
  cr_assert_null(c->d.from_l2sweep);
  ms_calib_free(c);
  static const double pts[][2] = {{64, 3000}, {8, 6000}, {128, 3000}, {32, 6000}, {48, 5000}}; /* any order */
  for (int i = 0; i < 5; i++) add_sweep(root, pts[i][0], pts[i][1]);
  c = ms_calib_new();
  err = derive(c, root);
  cr_assert_null(err, "%s", err);
  cr_assert_float_eq(c->d.l2_sweep_hi, 6000, 1e-6);
  cr_assert_float_eq(c->d.l2_sweep_lo, 3000, 1e-6);
  cr_assert_float_eq(c->d.l2_sweep_bytes, 52.0 * 1048576, 1e-3);
  cr_assert_eq(c->d.l2_words, 13631488);
  cr_assert_not_null(c->d.from_l2sweep);
  char *model = ms_calib_model_json(c, "memsim calibrate r.json");
  cr_assert(strstr(model, "\"l2_words\":\t13631488"), "%s", model);
  g_free(model);
  ms_calib_free(c);
  cJSON_Delete(root);
  /* two records: refused, naming the rule's need */
  root = fixture_json();
  add_sweep(root, 8, 6000);
  add_sweep(root, 128, 3000);
  c = ms_calib_new();
  err = derive(c, root);
  cr_assert_str_eq(err, "r.json: l2-copy-sweep: 2 records, the largest footprint 134217728 bytes; the rule needs at least 3, "
                        "one beyond device.l2_bytes = 52428800 " HINT);
  g_free(err);
  ms_calib_free(c);
  cJSON_Delete(root);
}

/* Partial writes: strided-write records beside the fixture's strided reads, whose ns per warp
 * request is 0.05 s at stride s (0.1, 0.2, 0.4, 0.8, 1.6 at s = 2 .. 32).  Write/read ratios
 * 2.5, 2.0, 1.0, 3.0, 2.6 at s = 2, 4, 8, 16, 32: median 2.5, partial_write_stages =
 * round(2.5) - 1 = 2.  In L2, reads of 0.01 and writes of 0.012 ns per request at every
 * stride: ratio 1.2, l2_partial_write_stages = round(1.2) - 1 = 0. */
static void add_strided(cJSON *root, const char *alg, int s, double ns_per_request) {
  const double req = 1048576;
  char *t = g_strdup_printf("{\"workload\": \"calibrate\", \"algorithm\": \"%s\", \"params\": {\"stride_words\": %d, "
                            "\"footprint_bytes\": 16777216, \"blocks\": 800, \"threads_per_block\": 256}, \"kernels_per_call\": 1, "
                            "\"calls\": 10, \"median_ns\": %.6f, \"warp_requests\": %.0f, \"verified\": true}",
                            alg, s, ns_per_request * req, req);
  cJSON_AddItemToArray(records(root), cJSON_Parse(t));
  g_free(t);
}

Test(calibrate, strided_writes_give_partial_write_stages) {
  cJSON *root = fixture_json();
  MsCalib *c = ms_calib_new();
  char *err = derive(c, root);
  cr_assert_null(err, "%s", err);
  cr_assert_null(c->d.from_writes); /* no records: the keys are left out */
  char *model = ms_calib_model_json(c, NULL);
  cr_assert_null(strstr(model, "partial_write_stages"), "%s", model);
  g_free(model);
  ms_calib_free(c);
  static const double ratio[] = {2.5, 2.0, 1.0, 3.0, 2.6};
  for (int k = 0; k < 5; k++) {
    const int s = 2 << k;
    add_strided(root, "strided-write", s, ratio[k] * 0.05 * s);
    add_strided(root, "l2-strided-read", s, 0.01);
    add_strided(root, "l2-strided-write", s, 0.012);
  }
  c = ms_calib_new();
  err = derive(c, root);
  cr_assert_null(err, "%s", err);
  cr_assert_float_eq(c->d.pw_ratio, 2.5, 1e-9);
  cr_assert_eq(c->d.partial_write_stages, 2);
  cr_assert_float_eq(c->d.l2_pw_ratio, 1.2, 1e-9);
  cr_assert_eq(c->d.l2_partial_write_stages, 0);
  model = ms_calib_model_json(c, NULL);
  cr_assert(strstr(model, "\"partial_write_stages\":\t2,"), "%s", model);
  cr_assert(strstr(model, "\"l2_partial_write_stages\":\t0,"), "%s", model);
  g_free(model);
  ms_calib_free(c);
  /* one stride missing, or the reads it is set against: refused, naming the record */
  drop(root, "strided-write", "stride_words", 8);
  c = ms_calib_new();
  err = derive(c, root);
  cr_assert_str_eq(err, "r.json: no calibrate record \"strided-write\" with stride_words=8 (the strided-write records go "
                        "together; run memsim-measure --workload calibrate)");
  g_free(err);
  ms_calib_free(c);
  drop(root, "strided-write", NULL, 0);
  drop(root, "l2-strided-read", "stride_words", 32);
  c = ms_calib_new();
  err = derive(c, root);
  cr_assert_str_eq(err, "r.json: no calibrate record \"l2-strided-read\" with stride_words=32 (l2-strided-write needs it; "
                        "run memsim-measure --workload calibrate)");
  g_free(err);
  ms_calib_free(c);
  cJSON_Delete(root);
}

/* l2-random-sweep records: footprints 4, 16, 24, 32, 64 MiB at 0.010, 0.010, 0.0105, 0.013,
 * 0.020 ns per load.  t0 = 0.010, 1.1 t0 = 0.011: between 24 MiB (0.0105) and 32 MiB (0.013),
 * at 24 + (0.011 - 0.0105) / (0.013 - 0.0105) x 8 = 25.6 MiB; with the fixture's l2_words
 * 13107200 (50 MiB), l2_partitions = round(50 / 25.6) = 2.  Only with --l2-ways. */
static void add_random(cJSON *root, double mib, double ns_per_load) {
  const double loads = 67108864;
  char *t = g_strdup_printf("{\"workload\": \"calibrate\", \"algorithm\": \"l2-random-sweep\", \"params\": {\"footprint_bytes\": %.0f, "
                            "\"loads\": %.0f, \"load_bytes\": 4, \"blocks\": 800, \"threads_per_block\": 256}, \"kernels_per_call\": 1, "
                            "\"calls\": 10, \"median_ns\": %.6f, \"bytes_read\": %.0f, \"verified\": true}",
                            mib * 1048576, loads, ns_per_load * loads, 4 * loads);
  cJSON_AddItemToArray(records(root), cJSON_Parse(t));
  g_free(t);
}

Test(calibrate, l2_random_sweep_gives_partitions) {
  cJSON *root = fixture_json();
  static const double pts[][2] = {{32, 0.013}, {4, 0.010}, {64, 0.020}, {16, 0.010}, {24, 0.0105}}; /* any order */
  for (int i = 0; i < 5; i++) add_random(root, pts[i][0], pts[i][1]);
  MsCalib *c = ms_calib_new(); /* without --l2-ways: no partitions */
  char *err = derive(c, root);
  cr_assert_null(err, "%s", err);
  cr_assert_null(c->d.from_random);
  char *model = ms_calib_model_json(c, NULL);
  cr_assert_null(strstr(model, "l2_partitions"), "%s", model);
  g_free(model);
  ms_calib_free(c);
  c = ms_calib_new();
  c->l2_ways = 16;
  err = derive(c, root);
  cr_assert_null(err, "%s", err);
  cr_assert_float_eq(c->d.random_ns_lo, 0.010, 1e-12);
  cr_assert_float_eq(c->d.random_bytes, 25.6 * 1048576, 1e-3);
  cr_assert_eq(c->d.l2_partitions, 2);
  model = ms_calib_model_json(c, NULL);
  cr_assert(strstr(model, "\"l2_partitions\":\t2,"), "%s", model);
  g_free(model);
  ms_calib_free(c);
  cJSON_Delete(root);
  /* never above 1.1 t0, or two records: refused */
  root = fixture_json();
  add_random(root, 4, 0.010);
  add_random(root, 64, 0.0105);
  add_random(root, 128, 0.0107);
  c = ms_calib_new();
  c->l2_ways = 16;
  err = derive(c, root);
  cr_assert_str_eq(err, "r.json: l2-random-sweep: 3 records (footprints 4 .. 128 MiB); the rule needs at least 3, the smallest "
                        "within the L2 and the largest beyond it " HINT);
  g_free(err);
  ms_calib_free(c);
  drop(root, "l2-random-sweep", "footprint_bytes", 4 * 1048576);
  c = ms_calib_new();
  c->l2_ways = 16;
  err = derive(c, root);
  cr_assert_str_eq(err, "r.json: l2-random-sweep: 2 records (footprints 64 .. 128 MiB); the rule needs at least 3, the smallest "
                        "within the L2 and the largest beyond it " HINT);
  g_free(err);
  ms_calib_free(c);
  cJSON_Delete(root);
}

/* DRAM rows (--dram-rows WORDS): the random sweep's largest footprint (64 MiB at 0.020 ns a
 * load) gives dram_lone_rate = round(0.5 / 0.020) = 25, within 1 .. global_rate (47); a
 * largest footprint faster than the copy's rate is held to global_rate; WORDS must be whole
 * groups, and the flag needs the records. */
Test(calibrate, dram_rows_take_the_largest_random_footprint) {
  cJSON *root = fixture_json();
  static const double pts[][2] = {{32, 0.013}, {4, 0.010}, {64, 0.020}, {16, 0.010}, {24, 0.0105}};
  for (int i = 0; i < 5; i++) add_random(root, pts[i][0], pts[i][1]);
  MsCalib *c = ms_calib_new();
  c->l2_ways = 16;
  char *err = derive(c, root);
  cr_assert_null(err, "%s", err);
  char *model = ms_calib_model_json(c, NULL);
  cr_assert_null(strstr(model, "dram_"), "without the flag: %s", model);
  g_free(model);
  ms_calib_free(c);
  c = ms_calib_new();
  c->l2_ways = 16;
  c->dram_rows = 256;
  err = derive(c, root);
  cr_assert_null(err, "%s", err);
  cr_assert_float_eq(c->d.random_ns_hi, 0.020, 1e-12);
  cr_assert_float_eq(c->d.random_bytes_hi, 64.0 * 1048576, 1e-3);
  cr_assert_eq(c->d.dram_row_words, 256);
  cr_assert_eq(c->d.dram_lone_rate, 25);
  model = ms_calib_model_json(c, NULL);
  cr_assert(strstr(model, "\"dram_row_words\":\t256,"), "%s", model);
  cr_assert(strstr(model, "\"dram_lone_rate\":\t25,"), "%s", model);
  g_autoptr(GError) e2 = NULL;
  MsModel *m = ms_model_parse(model, strlen(model), "cal.json", &e2);
  cr_assert_not_null(m, "%s", e2 ? e2->message : "");
  cr_assert_eq(m->dram_lone_rate, 25);
  ms_model_free(m);
  g_free(model);
  ms_calib_free(c);
  c = ms_calib_new(); /* rows not of whole groups (group_words 8) */
  c->l2_ways = 16;
  c->dram_rows = 100;
  err = derive(c, root);
  cr_assert_str_eq(err, "--dram-rows: 100 words is not a multiple of group_words (8)");
  g_free(err);
  ms_calib_free(c);
  cJSON_Delete(root);
  root = fixture_json(); /* a largest footprint of 0.005 ns a load: 100 a time unit, held to 47 */
  add_random(root, 4, 0.004);
  add_random(root, 32, 0.0045);
  add_random(root, 256, 0.005);
  c = ms_calib_new();
  c->l2_ways = 16;
  c->dram_rows = 256;
  err = derive(c, root);
  cr_assert_null(err, "%s", err);
  cr_assert_eq(c->d.dram_lone_rate, 47);
  ms_calib_free(c);
  cJSON_Delete(root);
  root = fixture_json(); /* no random sweep */
  c = ms_calib_new();
  c->l2_ways = 16;
  c->dram_rows = 256;
  err = derive(c, root);
  cr_assert(err && strstr(err, "--dram-rows: no l2-random-sweep records"), "%s", err);
  g_free(err);
  ms_calib_free(c);
  cJSON_Delete(root);
}

/* l2-line-sweep records: footprints 8, 32, 48, 64, 128 MiB at 0.010, 0.010, 0.0105, 0.013,
 * 0.020 ns per load: 1.1 t0 = 0.011 at 48 + (0.011 - 0.0105) / (0.013 - 0.0105) x 16 = 51.2
 * MiB; unit = 128 x 13107200 / 51.2 MiB = 31.25 words, nearest group_words (8) x 2^k: 32.
 * launch-blocks: for 64, 256 and 1024 threads, 256 and 1024 blocks per SM, the second
 * 768 x 50, 70 and 60 ns later: median 60 ns = 120 time units of 0.5 ns. */
static void add_line(cJSON *root, double mib, double ns_per_load) {
  const double loads = 67108864;
  char *t = g_strdup_printf("{\"workload\": \"calibrate\", \"algorithm\": \"l2-line-sweep\", \"params\": {\"footprint_bytes\": %.0f, "
                            "\"passes\": 2, \"loads\": %.0f, \"stride_words\": 32, \"blocks\": 800, \"threads_per_block\": 256}, "
                            "\"kernels_per_call\": 1, \"calls\": 10, \"median_ns\": %.6f, \"bytes_read\": %.0f, \"verified\": true}",
                            mib * 1048576, loads, ns_per_load * loads, 4 * loads);
  cJSON_AddItemToArray(records(root), cJSON_Parse(t));
  g_free(t);
}

static void add_blocks(cJSON *root, int threads, int k, double ns) {
  char *t = g_strdup_printf("{\"workload\": \"calibrate\", \"algorithm\": \"launch-blocks\", \"params\": {\"blocks_per_sm\": %d, "
                            "\"blocks\": %d, \"threads_per_block\": %d}, \"kernels_per_call\": 1, \"calls\": 10, "
                            "\"median_ns\": %.3f, \"verified\": true}",
                            k, 100 * k, threads, ns);
  cJSON_AddItemToArray(records(root), cJSON_Parse(t));
  g_free(t);
}

Test(calibrate, line_sweep_and_launch_blocks_give_lines_and_block_starts) {
  cJSON *root = fixture_json();
  static const double pts[][2] = {{64, 0.013}, {8, 0.010}, {128, 0.020}, {32, 0.010}, {48, 0.0105}};
  for (int i = 0; i < 5; i++) add_line(root, pts[i][0], pts[i][1]);
  static const int threads[] = {64, 256, 1024};
  static const double slope[] = {50, 70, 60};
  for (int i = 0; i < 3; i++) {
    add_blocks(root, threads[i], 256, 20000);
    add_blocks(root, threads[i], 1024, 20000 + 768 * slope[i]);
  }
  MsCalib *c = ms_calib_new();
  c->l2_ways = 16;
  char *err = derive(c, root);
  cr_assert_null(err, "%s", err);
  cr_assert_float_eq(c->d.line_bytes, 51.2 * 1048576, 1e-3);
  cr_assert_eq(c->d.l2_line_words, 32);
  cr_assert_float_eq(c->d.block_start_ns, 60, 1e-9);
  cr_assert_eq(c->d.block_start_units, 120);
  char *model = ms_calib_model_json(c, NULL);
  cr_assert(strstr(model, "\"l2_line_words\":\t32,"), "%s", model);
  cr_assert(strstr(model, "\"block_start_units\":\t120,"), "%s", model);
  g_free(model);
  ms_calib_free(c);
  /* without --l2-ways: no lines (the cache's), but block starts */
  c = ms_calib_new();
  err = derive(c, root);
  cr_assert_null(err, "%s", err);
  cr_assert_null(c->d.from_line);
  cr_assert_eq(c->d.block_start_units, 120);
  ms_calib_free(c);
  cJSON_Delete(root);
  /* one blocks_per_sm per block size: refused */
  root = fixture_json();
  add_blocks(root, 256, 256, 20000);
  c = ms_calib_new();
  err = derive(c, root);
  cr_assert_str_eq(err, "r.json: launch-blocks: no block size with two blocks_per_sm; the rule needs two " HINT);
  g_free(err);
  ms_calib_free(c);
  cJSON_Delete(root);
}

/* Warp shuffles: a shuffle-latency record of 23.6 clocks per dependent shuffle (4.1 per IMAD
 * of the same loop) gives shuffle_units round(23.6) = 24, only with --shuffles.  A
 * shuffle-rate record of 200 blocks x 32 warps x 32768 shuffles = 209715200 warp shuffles,
 * 2097152 per SM of the fixture's 100, in 1310720 ns = 2621440 clocks of 0.5 ns: 0.8 per SM
 * per clock by the duration; 0.85 by the blocks' clocks (its result). */
static void add_shuffles(cJSON *root, gboolean latency, gboolean rate) {
  if (latency)
    cJSON_AddItemToArray(records(root), cJSON_Parse(
        "{\"workload\": \"calibrate\", \"algorithm\": \"shuffle-latency\", \"params\": {\"shuffles\": 65536, \"unroll\": 64, "
        "\"threads\": 32}, \"kernels_per_call\": 1, \"calls\": 10, \"median_ns\": 920000, \"baseline\": \"imad\", "
        "\"verified\": true, \"result\": {\"clocks_per_shuffle\": 23.6, \"clocks_per_shuffle_min\": 23.59, "
        "\"clocks_per_shuffle_max\": 23.61, \"clocks_per_imad\": 4.1, \"calls_clocked\": 13}}"));
  if (rate)
    cJSON_AddItemToArray(records(root), cJSON_Parse(
        "{\"workload\": \"calibrate\", \"algorithm\": \"shuffle-rate\", \"params\": {\"chains_per_warp\": 8, "
        "\"shuffles_per_warp\": 32768, \"blocks\": 200, \"threads_per_block\": 1024}, \"kernels_per_call\": 1, \"calls\": 10, "
        "\"median_ns\": 1310720, \"warp_shuffles\": 209715200, \"verified\": true, \"result\": "
        "{\"shuffles_per_sm_per_clock\": 0.85, \"block_clocks_mean\": 2467216.9, \"ns_per_shuffle_per_sm\": 0.625}}"));
}

Test(calibrate, shuffle_records_give_shuffle_units_with_the_flag) {
  cJSON *root = fixture_json();
  add_shuffles(root, TRUE, TRUE);
  /* without --shuffles: reported, recorded not used, no key */
  MsCalib *c = ms_calib_new();
  char *err = derive(c, root);
  cr_assert_null(err, "%s", err);
  cr_assert_float_eq(c->d.shuffle_clocks, 23.6, 1e-12);
  cr_assert_float_eq(c->d.shuffle_imad_clocks, 4.1, 1e-12);
  cr_assert_float_eq(c->d.shuffle_rate, 0.85, 1e-12);
  cr_assert_float_eq(c->d.shuffle_rate_by_duration, 0.8, 1e-12);
  char *model = ms_calib_model_json(c, NULL);
  cr_assert_null(strstr(model, "\"shuffle_units\""), "%s", model);
  cJSON *j = cJSON_Parse(model);
  cJSON *unused = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "calibration"), "recorded_not_used");
  cJSON *lat = cJSON_GetObjectItemCaseSensitive(unused, "shuffle-latency shuffles=65536 unroll=64 threads=32");
  cr_assert_not_null(lat, "%s", model);
  cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(lat, "clocks_per_shuffle")->valuedouble, 23.6, 1e-12);
  cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(lat, "clocks_per_imad")->valuedouble, 4.1, 1e-12);
  cJSON *rate = cJSON_GetObjectItemCaseSensitive(unused, "shuffle-rate chains_per_warp=8 shuffles_per_warp=32768 blocks=200 "
                                                         "threads_per_block=1024");
  cr_assert_not_null(rate, "%s", model);
  cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(rate, "shuffles_per_sm_per_clock")->valuedouble, 0.85, 1e-12);
  cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(rate, "shuffles_per_sm_per_clock_by_duration")->valuedouble, 0.8, 1e-12);
  cJSON_Delete(j);
  g_free(model);
  char *sum = ms_calib_summary(c);
  cr_assert(strstr(sum, "  shuffle_units         -         dependent shuffle 23.60 clocks (IMAD in the same loop 4.10); left out "
                        "(--shuffles adds it)   r.json record 23 (calibrate shuffle-latency shuffles=65536 unroll=64 threads=32)\n"),
            "%s", sum);
  cr_assert(strstr(sum, "  shuffle rate          0.85      warp shuffles per SM per clock (0.8 by the kernel's duration), not used   "
                        "r.json record 24 (calibrate shuffle-rate "),
            "%s", sum);
  g_free(sum);
  ms_calib_free(c);
  /* with --shuffles: shuffle_units round(23.6) = 24, in the model and its calibration object */
  c = ms_calib_new();
  c->shuffles = TRUE;
  err = derive(c, root);
  cr_assert_null(err, "%s", err);
  cr_assert_eq(c->d.shuffle_units, 24);
  model = ms_calib_model_json(c, "memsim calibrate r.json --shuffles");
  cr_assert(strstr(model, "\"shuffle_units\":\t24,"), "%s", model);
  GError *e = NULL;
  MsModel *m = ms_model_parse(model, strlen(model), "model.json", &e);
  cr_assert_not_null(m, "%s", e ? e->message : "");
  cr_assert_eq(m->shuffle_units, 24);
  ms_model_free(m);
  j = cJSON_Parse(model);
  cJSON *cal = cJSON_GetObjectItemCaseSensitive(j, "calibration");
  cJSON *su = cJSON_GetObjectItemCaseSensitive(cal, "shuffle_units");
  cr_assert_not_null(su, "%s", model);
  cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(su, "value")->valuedouble, 24, 0);
  cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(su, "clocks_per_shuffle")->valuedouble, 23.6, 1e-12);
  cr_assert_float_eq(cJSON_GetObjectItemCaseSensitive(su, "shuffles_per_sm_per_clock")->valuedouble, 0.85, 1e-12);
  cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(su, "from")->valuestring,
                   "r.json record 23 (calibrate shuffle-latency shuffles=65536 unroll=64 threads=32)");
  unused = cJSON_GetObjectItemCaseSensitive(cal, "recorded_not_used");
  cr_assert_null(cJSON_GetObjectItemCaseSensitive(unused, "shuffle-latency shuffles=65536 unroll=64 threads=32")); /* used */
  cJSON_Delete(j);
  g_free(model);
  sum = ms_calib_summary(c);
  cr_assert(strstr(sum, "  shuffle_units         24        dependent shuffle 23.60 clocks (IMAD in the same loop 4.10)   r.json "),
            "%s", sum);
  g_free(sum);
  ms_calib_free(c);
  cJSON_Delete(root);
  /* no shuffle records, no flag: the model and the summary as before */
  root = fixture_json();
  c = ms_calib_new();
  err = derive(c, root);
  cr_assert_null(err, "%s", err);
  cr_assert_null(c->d.from_shuffle_latency);
  model = ms_calib_model_json(c, NULL);
  cr_assert_null(strstr(model, "shuffle"), "%s", model);
  g_free(model);
  sum = ms_calib_summary(c);
  cr_assert_null(strstr(sum, "shuffle"), "%s", sum);
  g_free(sum);
  ms_calib_free(c);
  cJSON_Delete(root);
}

Test(calibrate, shuffles_flag_names_the_missing_shuffle_records) {
  static const struct {
    gboolean latency, rate;
    const char *message;
  } cases[] = {
      {FALSE, FALSE, "r.json: no calibrate records \"shuffle-latency\", \"shuffle-rate\" (--shuffles needs them; " RUN_HINT_TEXT ")"},
      {TRUE, FALSE, "r.json: no calibrate record \"shuffle-rate\" (--shuffles needs it; " RUN_HINT_TEXT ")"},
      {FALSE, TRUE, "r.json: no calibrate record \"shuffle-latency\" (--shuffles needs it; " RUN_HINT_TEXT ")"},
  };
  for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
    cJSON *root = fixture_json();
    add_shuffles(root, cases[i].latency, cases[i].rate);
    MsCalib *c = ms_calib_new();
    c->shuffles = TRUE;
    char *err = derive(c, root);
    cr_assert_not_null(err, "case %u: derived without the records", i);
    cr_assert_str_eq(err, cases[i].message);
    g_free(err);
    ms_calib_free(c);
    cJSON_Delete(root);
  }
  /* a malformed record is refused, flag or not */
  cJSON *root = fixture_json();
  add_shuffles(root, TRUE, TRUE);
  cJSON_DeleteItemFromObject(cJSON_GetObjectItemCaseSensitive(record(root, 23), "result"), "clocks_per_shuffle");
  MsCalib *c = ms_calib_new();
  char *err = derive(c, root);
  cr_assert_str_eq(err, "r.json record 23 (calibrate shuffle-latency shuffles=65536 unroll=64 threads=32): missing field "
                        "\"result.clocks_per_shuffle\"");
  g_free(err);
  ms_calib_free(c);
  cJSON_Delete(root);
}

/* loaded-chase records of the fixture's 100-SM GPU (group_words 8: 4 groups a line;
 * global_rate 47, l2_rate 84), in no particular order of warps_per_sm */
static void add_loaded(cJSON *root, int l2_records) {
  static const struct { const char *alg; int w; double clocks; } recs[] = {
      {"loaded-chase", 16, 520}, {"loaded-chase", 1, 500}, {"loaded-chase", 64, 1150},
      {"loaded-chase", 4, 490},  {"loaded-chase", 32, 600}, {"l2-loaded-chase", 8, 210}, {"l2-loaded-chase", 1, 200}};
  int l2 = 0;
  for (guint i = 0; i < G_N_ELEMENTS(recs); i++) {
    if (recs[i].alg[0] == 'l' && recs[i].alg[1] == '2' && l2++ >= l2_records) continue;
    char *t = g_strdup_printf(
        "{\"workload\": \"calibrate\", \"algorithm\": \"%s\", \"params\": {\"footprint_bytes\": 1073741824, "
        "\"warps_per_sm\": %d, \"blocks\": 100, \"threads_per_block\": %d, \"hops\": 1024, \"warmup_hops\": 64}, "
        "\"kernels_per_call\": 1, \"calls\": 10, \"median_ns\": 500000, \"verified\": true, \"result\": "
        "{\"clocks_per_hop\": %g, \"clocks_per_hop_min\": %g, \"clocks_per_hop_max\": %g, \"bytes_per_ns\": 1000, "
        "\"warps\": %d}}",
        recs[i].alg, recs[i].w, 32 * recs[i].w, recs[i].clocks, recs[i].clocks, recs[i].clocks, 100 * recs[i].w);
    cJSON_AddItemToArray(records(root), cJSON_Parse(t));
    g_free(t);
  }
}

/* u = 1000 x warps x 4 groups / clocks / rate:
 * DRAM (47): W 1: 17.02 -> [17, 500]; W 4: 69.47 -> [69, 490 -> 500, non-decreasing]; W 16:
 * 261.9 -> [261, 520]; W 32: 453.9 -> [453, 600]; W 64: 473.6 < 1.05 x 453.9: saturated, left out.
 * L2 (84): W 1: 23.8 -> [23, 200]; W 8: 181.4 -> [181, 210]. */
Test(calibrate, loaded_chases_give_latency_curves_with_the_flag) {
  cJSON *root = fixture_json();
  add_loaded(root, 2);
  MsCalib *c = ms_calib_new();
  char *err = derive(c, root);
  cr_assert_null(err, "%s", err);
  cr_assert_eq(c->d.global_loaded.n, 0); /* without the flag: no curves */
  char *model = ms_calib_model_json(c, NULL);
  cr_assert_null(strstr(model, "loaded_latency"), "%s", model);
  g_free(model);
  ms_calib_free(c);
  c = ms_calib_new();
  c->loaded_latency = TRUE;
  err = derive(c, root);
  cr_assert_null(err, "%s", err);
  const MsLoadCurve *g = &c->d.global_loaded, *l = &c->d.l2_loaded;
  const guint32 gu[] = {17, 69, 261, 453};
  const guint64 gl[] = {500, 500, 520, 600};
  cr_assert_eq(g->n, 4);
  for (int i = 0; i < 4; i++) {
    cr_expect_eq(g->u[i], gu[i], "point %d: u %u", i, g->u[i]);
    cr_expect_eq(g->lat[i], gl[i], "point %d: latency %" G_GUINT64_FORMAT, i, g->lat[i]);
  }
  cr_assert_eq(l->n, 2);
  cr_expect(l->u[0] == 23 && l->lat[0] == 200 && l->u[1] == 181 && l->lat[1] == 210);
  model = ms_calib_model_json(c, "memsim calibrate r.json --loaded-latency");
  GError *e = NULL;
  MsModel *m = ms_model_parse(model, strlen(model), "model.json", &e);
  cr_assert_not_null(m, "%s", e ? e->message : "");
  cr_expect_eq(m->global_loaded_latency.n, 4);
  cr_expect_eq(m->global_loaded_latency.lat[3], 600);
  cr_expect_eq(m->l2_loaded_latency.u[1], 181);
  ms_model_free(m);
  g_free(model);
  char *sum = ms_calib_summary(c);
  cr_assert(strstr(sum, "  global_loaded_latency 4 points, utilization per mille:latency 17:500 69:500 261:520 453:600   r.json, "
                        "5 loaded-chase records\n"),
            "%s", sum);
  g_free(sum);
  ms_calib_free(c);
  cJSON_Delete(root);
  /* one l2-loaded-chase record: refused with the flag, naming what is missing */
  root = fixture_json();
  add_loaded(root, 1);
  c = ms_calib_new();
  c->loaded_latency = TRUE;
  err = derive(c, root);
  cr_assert_not_null(err);
  cr_assert_str_eq(err, "--loaded-latency: needs at least 2 l2-loaded-chase records, got 1 "
                        "(MEMSIM_ONLY=loaded-chase,l2-loaded-chase " RUN_HINT_TEXT ")");
  g_free(err);
  ms_calib_free(c);
  cJSON_Delete(root);
}
