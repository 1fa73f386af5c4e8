/* ms-calibrate.c: `memsim calibrate`: a GPU-grounded HMM model from the records of
 * `memsim-measure --workload calibrate` (docs/calibration.md).
 *
 * Reading keeps the calibrate records of each file (others are counted and ignored) and
 * refuses what would make the model wrong rather than merely imprecise: records of another
 * device, unverified records, the same measurement twice.  Deriving applies fixed rules,
 * one per model key, each reading named records and device keys only: the model is the
 * GPU's measured properties, never a fit to the timings it is then judged on. */
#include "ms-calibrate.h"
#include "ms-private.h"
#include <math.h>
#include <string.h>

#define CAL_MAX_BYTES ((gsize)256 << 20)
#define RUN_HINT "run memsim-measure --workload calibrate"

typedef struct {
  char *file;
  guint index;
  char *algorithm;
  char *params_text; /* "k=v k=v" in record order */
  cJSON *json;       /* the record */
} MsCalRecord;

static void rec_free(gpointer p) {
  MsCalRecord *r = p;
  g_free(r->file);
  g_free(r->algorithm);
  g_free(r->params_text);
  cJSON_Delete(r->json);
  g_free(r);
}

MsCalib *ms_calib_new(void) {
  MsCalib *c = g_new0(MsCalib, 1);
  c->files = g_ptr_array_new_with_free_func(g_free);
  c->records = g_ptr_array_new_with_free_func(rec_free);
  return c;
}

static void derived_clear(MsCalDerived *d) {
  char **from[] = {&d->from_clock, &d->from_copy, &d->from_stride1, &d->from_stride32,
                   &d->from_global, &d->from_shared, &d->from_launch, &d->from_device,
                   &d->from_l2read, &d->from_l2chase, &d->from_load_loop, &d->from_store_loop,
                   &d->from_l2sweep, &d->from_writes, &d->from_l2_writes, &d->from_l2_write_rate, &d->from_random,
                   &d->from_line, &d->from_blocks, &d->from_port, &d->from_port_banks, &d->from_port_shared, &d->from_l1, &d->from_shuffle_latency,
                   &d->from_shuffle_rate, &d->from_loaded, &d->from_l2_loaded, &d->from_fence, &d->from_issue, &d->from_barriers, &d->from_dram, &d->from_dram_write};
  for (guint i = 0; i < G_N_ELEMENTS(from); i++) g_clear_pointer(from[i], g_free);
  memset(d, 0, sizeof *d);
}

void ms_calib_free(MsCalib *c) {
  if (!c) return;
  g_ptr_array_free(c->files, TRUE);
  g_ptr_array_free(c->records, TRUE);
  cJSON_Delete(c->device);
  g_free(c->device_name);
  g_free(c->date);
  g_free(c->git_commit);
  g_free(c->timing);
  derived_clear(&c->d);
  g_free(c);
}

/* ---- reading ------------------------------------------------------------------------- */

static gboolean fail(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static gboolean fail(GError **error, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error_literal(error, MS_ERROR, MS_ERROR_INVALID, msg);
  g_free(msg);
  return FALSE;
}

/* A scalar as text: integers without a fraction, strings bare, booleans true/false. */
static char *value_text(const cJSON *v) {
  if (cJSON_IsString(v)) return g_strdup(v->valuestring);
  if (cJSON_IsBool(v)) return g_strdup(cJSON_IsTrue(v) ? "true" : "false");
  if (cJSON_IsNumber(v)) {
    double d = v->valuedouble;
    if (d == floor(d) && fabs(d) < 9007199254740992.0) return g_strdup_printf("%" G_GINT64_FORMAT, (gint64)d);
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    return g_strdup(g_ascii_formatd(buf, sizeof buf, "%.15g", d));
  }
  return g_strdup(ms_json_type_name(v));
}

/* "FILE record N (calibrate ALG PARAMS)": how messages and the model name a record. */
static char *rec_label(const MsCalRecord *r) {
  return g_strdup_printf("%s record %u (calibrate %s%s%s)", r->file, r->index, r->algorithm,
                         *r->params_text ? " " : "", r->params_text);
}

static const char *files_text(const MsCalib *c, GString *s) {
  for (guint i = 0; i < c->files->len; i++)
    g_string_append_printf(s, "%s%s", i ? ", " : "", (char *)c->files->pdata[i]);
  return s->str;
}

static gboolean same_device(const cJSON *a, const cJSON *b) {
  static const char *const keys[] = {"name", "sm_count", "compute_capability", "global_mem_bytes", NULL};
  for (int i = 0; keys[i]; i++) {
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(a, keys[i]), *y = cJSON_GetObjectItemCaseSensitive(b, keys[i]);
    if (!x && !y) continue;
    if (!x || !y || !cJSON_Compare(x, y, TRUE)) return FALSE;
  }
  return TRUE;
}

static char *device_text(const cJSON *dev) {
  const cJSON *n = cJSON_GetObjectItemCaseSensitive(dev, "name"), *s = cJSON_GetObjectItemCaseSensitive(dev, "sm_count");
  char *sms = s ? value_text(s) : g_strdup("?");
  char *t = g_strdup_printf("\"%s\" (%s SMs)", cJSON_IsString(n) ? n->valuestring : "?", sms);
  g_free(sms);
  return t;
}

static gboolean read_device(MsCalib *c, const cJSON *root, const char *file, GError **error) {
  const cJSON *dev = cJSON_GetObjectItemCaseSensitive(root, "device");
  if (!cJSON_IsObject(dev)) return fail(error, "%s: missing field \"device\" (an object)", file);
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(dev, "name");
  if (!cJSON_IsString(name)) return fail(error, "%s: device: missing field \"name\" (a string)", file);
  if (c->device) {
    if (!same_device(c->device, dev)) {
      char *a = device_text(dev), *b = device_text(c->device);
      gboolean r = fail(error, "%s: records of device %s, but %s holds records of device %s: calibrate one device at a time",
                        file, a, (char *)c->files->pdata[0], b);
      g_free(a);
      g_free(b);
      return r;
    }
    return TRUE;
  }
  c->device = cJSON_Duplicate(dev, TRUE);
  c->device_name = g_strdup(name->valuestring);
  static const char *const keys[] = {"date", "git_commit", "timing"};
  char **out[] = {&c->date, &c->git_commit, &c->timing};
  for (guint i = 0; i < G_N_ELEMENTS(keys); i++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, keys[i]);
    *out[i] = g_strdup(cJSON_IsString(v) ? v->valuestring : "unknown");
  }
  return TRUE;
}

/* Checks the record's common fields and keeps it (a calibrate record), or counts it. */
static gboolean read_record(MsCalib *c, const cJSON *j, const char *file, guint i, GError **error) {
  if (!cJSON_IsObject(j)) return fail(error, "%s: record %u: expected an object, got %s", file, i, ms_json_type_name(j));
  const cJSON *wl = cJSON_GetObjectItemCaseSensitive(j, "workload");
  if (!cJSON_IsString(wl)) return fail(error, "%s: record %u: field \"workload\" must be a string, got %s", file, i, ms_json_type_name(wl));
  if (strcmp(wl->valuestring, "calibrate") != 0) {
    c->ignored++;
    return TRUE;
  }
  const cJSON *alg = cJSON_GetObjectItemCaseSensitive(j, "algorithm");
  if (!cJSON_IsString(alg)) return fail(error, "%s: record %u (calibrate): field \"algorithm\" must be a string, got %s", file, i, ms_json_type_name(alg));
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(j, "params");
  if (!cJSON_IsObject(params))
    return fail(error, "%s: record %u (calibrate %s): field \"params\" must be an object, got %s", file, i, alg->valuestring, ms_json_type_name(params));
  MsCalRecord *r = g_new0(MsCalRecord, 1);
  r->file = g_strdup(file);
  r->index = i;
  r->algorithm = g_strdup(alg->valuestring);
  GString *pt = g_string_new(NULL);
  const cJSON *it;
  cJSON_ArrayForEach(it, params) {
    char *v = value_text(it);
    g_string_append_printf(pt, "%s%s=%s", pt->len ? " " : "", it->string, v);
    g_free(v);
  }
  r->params_text = g_string_free(pt, FALSE);
  r->json = cJSON_Duplicate(j, TRUE);
  char *label = rec_label(r);
  gboolean ok = FALSE;
  const cJSON *ver = cJSON_GetObjectItemCaseSensitive(j, "verified");
  const cJSON *med = cJSON_GetObjectItemCaseSensitive(j, "median_ns");
  if (!cJSON_IsBool(ver)) {
    fail(error, "%s: field \"verified\" must be a boolean, got %s", label, ms_json_type_name(ver));
  } else if (!cJSON_IsTrue(ver)) {
    const cJSON *why = cJSON_GetObjectItemCaseSensitive(j, "failure");
    fail(error, "%s: not verified on the GPU (%s): calibration uses verified records only", label,
         cJSON_IsString(why) ? why->valuestring : "no reason recorded");
  } else if (!cJSON_IsNumber(med) || !(med->valuedouble > 0) || !isfinite(med->valuedouble)) {
    fail(error, "%s: field \"median_ns\" must be a positive number, got %s", label, ms_json_type_name(med));
  } else {
    ok = TRUE;
    for (guint k = 0; ok && k < c->records->len; k++) {
      const MsCalRecord *o = c->records->pdata[k];
      if (strcmp(o->algorithm, r->algorithm) == 0 && strcmp(o->params_text, r->params_text) == 0) {
        char *ol = rec_label(o);
        ok = fail(error, "%s: the same measurement as %s: give each measurement once", label, ol);
        g_free(ol);
      }
    }
  }
  g_free(label);
  if (!ok) {
    rec_free(r);
    return FALSE;
  }
  g_ptr_array_add(c->records, r);
  return TRUE;
}

gboolean ms_calib_read_text(MsCalib *c, const char *text, gsize length, const char *filename,
                            GError **error) {
  cJSON *root = ms_json_parse(text, length, filename, error);
  if (!root) return FALSE;
  gboolean ok = FALSE;
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "memsim_measurements");
  const cJSON *recs = cJSON_GetObjectItemCaseSensitive(root, "records");
  if (!cJSON_IsNumber(v) || v->valuedouble != 1)
    fail(error, "%s: not a memsim measurement file (expected \"memsim_measurements\": 1)", filename);
  else if (!cJSON_IsArray(recs))
    fail(error, "%s: missing field \"records\" (an array)", filename);
  else if (read_device(c, root, filename, error)) {
    ok = TRUE;
    guint i = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, recs) {
      if (!(ok = read_record(c, r, filename, i++, error))) break;
    }
  }
  if (ok) g_ptr_array_add(c->files, g_strdup(filename));
  cJSON_Delete(root);
  c->derived = FALSE;
  return ok;
}

gboolean ms_calib_read(MsCalib *c, const char *path, GError **error) {
  gsize len = 0;
  char *text = ms_json_read_file(path, CAL_MAX_BYTES, &len, error);
  if (!text) return FALSE;
  gboolean ok = ms_calib_read_text(c, text, len, path, error);
  g_free(text);
  return ok;
}

/* ---- deriving ------------------------------------------------------------------------ */

/* What the derivation needs: an algorithm, and where several records share it, the value
 * of one parameter. */
typedef struct {
  const char *algorithm, *key;
  double value;
} MsCalNeed;

static const MsCalNeed NEED_CLOCK = {"clock-spin", NULL, 0}, NEED_LAUNCH = {"launch-empty", "blocks", 1},
                       NEED_COPY = {"dram-copy", NULL, 0}, NEED_S1 = {"strided-read", "stride_words", 1},
                       NEED_S32 = {"strided-read", "stride_words", 32}, NEED_GLOBAL = {"dram-chase", NULL, 0},
                       NEED_SHARED = {"shared-chase", NULL, 0}, NEED_L2READ = {"l2-read", NULL, 0},
                       NEED_L2CHASE = {"l2-chase", NULL, 0}, OPT_LOAD_LOOP = {"load-loop", NULL, 0},
                       OPT_STORE_LOOP = {"store-loop", NULL, 0};

static const MsCalRecord *find(const MsCalib *c, const MsCalNeed *n) {
  for (guint i = 0; i < c->records->len; i++) {
    const MsCalRecord *r = c->records->pdata[i];
    if (strcmp(r->algorithm, n->algorithm) != 0) continue;
    if (!n->key) return r;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r->json, "params"), n->key);
    if (cJSON_IsNumber(v) && v->valuedouble == n->value) return r;
  }
  return NULL;
}

static char *need_text(const MsCalNeed *n) {
  return n->key ? g_strdup_printf("\"%s\" with %s=%g", n->algorithm, n->key, n->value)
                : g_strdup_printf("\"%s\"", n->algorithm);
}

/* A field of a record ("median_ns", "params.cycles", "result.clocks_per_hop"): a finite
 * number, positive (or >= 0 when zero_ok). */
static gboolean field(const MsCalRecord *r, const char *path, gboolean zero_ok, double *out, GError **error) {
  const cJSON *v = r->json;
  char **parts = g_strsplit(path, ".", 2);
  for (int i = 0; parts[i] && v; i++) v = cJSON_GetObjectItemCaseSensitive(v, parts[i]);
  g_strfreev(parts);
  char *label = rec_label(r);
  gboolean ok = FALSE;
  if (!v)
    fail(error, "%s: missing field \"%s\"", label, path);
  else if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0 || (!zero_ok && v->valuedouble == 0))
    fail(error, "%s: field \"%s\" must be a %s number, got %s", label, path, zero_ok ? "non-negative" : "positive",
         cJSON_IsNumber(v) ? "a number out of range" : ms_json_type_name(v));
  else {
    *out = v->valuedouble;
    ok = TRUE;
  }
  g_free(label);
  return ok;
}

/* A device key: a positive integer. */
static gboolean device_int(const MsCalib *c, const char *key, gboolean optional, guint64 *out, GError **error) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(c->device, key);
  if (!v && optional) return TRUE;
  if (!v)
    return fail(error, "%s: device: missing \"%s\" (an older memsim-measure; %s)", (char *)c->files->pdata[0], key, RUN_HINT);
  if (!cJSON_IsNumber(v) || v->valuedouble < 1 || v->valuedouble != floor(v->valuedouble) || v->valuedouble > (double)MS_MAX_JSON_INT)
    return fail(error, "%s: device: \"%s\" must be a positive integer, got %s", (char *)c->files->pdata[0], key,
                cJSON_IsNumber(v) ? "a number out of range" : ms_json_type_name(v));
  *out = (guint64)v->valuedouble;
  return TRUE;
}

static gboolean check_present(const MsCalib *c, GError **error) {
  const MsCalNeed *needs[] = {&NEED_CLOCK, &NEED_LAUNCH, &NEED_COPY, &NEED_S1, &NEED_S32,
                              &NEED_GLOBAL, &NEED_SHARED, &NEED_L2READ, &NEED_L2CHASE};
  GString *files = g_string_new(NULL), *missing = g_string_new(NULL);
  files_text(c, files);
  guint n = 0;
  if (c->records->len == 0) {
    fail(error, "%s: no calibrate records (%u record%s of other workloads ignored; %s)", files->str, c->ignored,
         c->ignored == 1 ? "" : "s", RUN_HINT);
    n = 1;
  } else {
    for (guint i = 0; i < G_N_ELEMENTS(needs); i++)
      if (!find(c, needs[i])) {
        char *t = need_text(needs[i]);
        g_string_append_printf(missing, "%s%s", n++ ? ", " : "", t);
        g_free(t);
      }
    if (n) fail(error, "%s: no calibrate record%s %s (%s)", files->str, n > 1 ? "s" : "", missing->str, RUN_HINT);
  }
  g_string_free(files, TRUE);
  g_string_free(missing, TRUE);
  return n == 0;
}

static guint64 round_u64(double v, guint64 lo, guint64 hi) {
  double r = floor(v + 0.5);
  if (!(r >= (double)lo)) return lo;
  if (r >= (double)hi) return hi;
  return (guint64)r;
}

static gboolean derive_device(MsCalib *c, MsCalDerived *d, GError **error) {
  guint64 sms, warp = 32, threads, blocks, shmem, l2;
  if (!device_int(c, "sm_count", FALSE, &sms, error) || !device_int(c, "warp_size", TRUE, &warp, error) ||
      !device_int(c, "l2_bytes", FALSE, &l2, error) ||
      !device_int(c, "max_threads_per_sm", FALSE, &threads, error) ||
      !device_int(c, "max_blocks_per_sm", FALSE, &blocks, error) ||
      !device_int(c, "shared_mem_per_sm", FALSE, &shmem, error))
    return FALSE;
  const char *f = c->files->pdata[0];
  if (sms > MS_MAX_DMMS) return fail(error, "%s: device: sm_count %" G_GUINT64_FORMAT " is beyond memsim's %u DMMs", f, sms, MS_MAX_DMMS);
  if (warp > MS_MAX_WIDTH) return fail(error, "%s: device: warp_size %" G_GUINT64_FORMAT " is beyond memsim's width %u", f, warp, MS_MAX_WIDTH);
  if (threads < warp) return fail(error, "%s: device: max_threads_per_sm %" G_GUINT64_FORMAT " is less than a warp", f, threads);
  d->dmms = (guint32)sms;
  d->width = (guint32)warp;
  d->resident_warps = threads / warp;
  d->resident_blocks = blocks;
  d->shared_words_per_dmm = shmem / 4;
  d->l2_words = l2 / 4;
  if (d->shared_words_per_dmm == 0) return fail(error, "%s: device: shared_mem_per_sm %" G_GUINT64_FORMAT " holds no word", f, shmem);
  d->from_device = g_strdup_printf("%s device (sm_count, warp_size, max_threads_per_sm, max_blocks_per_sm, "
                                   "shared_mem_per_sm, l2_bytes)", f);
  return TRUE;
}

/* L2 capacity for data that is read and written again and again (the validation's kernels,
 * timed over repeated calls): the l2-copy-sweep records give copy bandwidth against the
 * footprint.  hi = the highest bandwidth, lo = the bandwidth at the largest footprint (far
 * beyond L2); the capacity is the footprint where the bandwidth first falls to (hi + lo) / 2
 * (half the traffic from L2), interpolated linearly between the two records around it.
 * Needs at least 3 records whose largest footprint is beyond device.l2_bytes; without any
 * record, l2_words stays device.l2_bytes / 4. */
typedef struct {
  double bytes, bw;
  guint index;
} SweepPt;

static gint sweep_cmp(gconstpointer a, gconstpointer b) {
  const SweepPt *x = a, *y = b;
  return x->bytes < y->bytes ? -1 : x->bytes > y->bytes;
}

static gboolean derive_l2_sweep(MsCalib *c, MsCalDerived *d, GError **error) {
  GArray *pts = g_array_new(FALSE, FALSE, sizeof(SweepPt));
  gboolean ok = TRUE;
  for (guint i = 0; i < c->records->len && ok; i++) {
    const MsCalRecord *r = c->records->pdata[i];
    if (strcmp(r->algorithm, "l2-copy-sweep") != 0) continue;
    double f, med, rd, wr;
    ok = field(r, "params.footprint_bytes", FALSE, &f, error) && field(r, "median_ns", FALSE, &med, error) &&
         field(r, "bytes_read", FALSE, &rd, error) && field(r, "bytes_written", FALSE, &wr, error);
    if (ok) g_array_append_val(pts, ((SweepPt){f, (rd + wr) / med, i}));
  }
  if (!ok || pts->len == 0) {
    g_array_free(pts, TRUE);
    return ok;
  }
  g_array_sort(pts, sweep_cmp);
  const SweepPt *v = (const SweepPt *)(void *)pts->data;
  const guint n = pts->len;
  const double l2_bytes = 4.0 * (double)d->l2_words;
  if (n < 3 || v[n - 1].bytes <= l2_bytes) {
    fail(error, "%s: l2-copy-sweep: %u record%s, the largest footprint %.0f bytes; the rule needs at least 3, one beyond "
                "device.l2_bytes = %.0f (%s)",
         (char *)c->files->pdata[0], n, n == 1 ? "" : "s", v[n - 1].bytes, l2_bytes, RUN_HINT);
    g_array_free(pts, TRUE);
    return FALSE;
  }
  double hi = 0;
  for (guint i = 0; i < n; i++) hi = MAX(hi, v[i].bw);
  const double lo = v[n - 1].bw, thr = (hi + lo) / 2;
  guint k = 0;
  while (k < n && v[k].bw >= thr) k++;
  double cap;
  if (k == 0) cap = v[0].bytes;                    /* even the smallest footprint misses L2 */
  else if (k == n) cap = v[n - 1].bytes;           /* not reached: lo is the largest footprint's */
  else cap = v[k - 1].bytes + (v[k - 1].bw - thr) / (v[k - 1].bw - v[k].bw) * (v[k].bytes - v[k - 1].bytes);
  d->l2_sweep_points = n;
  d->l2_sweep_hi = hi;
  d->l2_sweep_lo = lo;
  d->l2_sweep_bytes = cap;
  d->l2_words = (guint64)floor(cap / 4);
  const MsCalRecord *first = c->records->pdata[v[0].index];
  d->from_l2sweep = g_strdup_printf("%s, %u l2-copy-sweep records (footprints %.0f .. %.0f MiB)", first->file, n,
                                    v[0].bytes / 1048576, v[n - 1].bytes / 1048576);
  g_array_free(pts, TRUE);
  return TRUE;
}

/* The knee of a load sweep (records of `alg`): t0 = the smallest ns per load
 * (median_ns / params.loads); the largest footprint within 1.1 t0 and the next larger one,
 * linear between them to where ns per load is 1.1 t0.  *n = 0 when there are no records; FALSE with an error when
 * fewer than 3 or no knee. */
static gboolean sweep_knee(MsCalib *c, const char *alg, guint *n_out, double *t0_out, double *knee, guint *first,
                           double *lo_mib, double *hi_mib, GError **error) {
  GArray *pts = g_array_new(FALSE, FALSE, sizeof(SweepPt));
  gboolean ok = TRUE;
  *n_out = 0;
  for (guint i = 0; i < c->records->len && ok; i++) {
    const MsCalRecord *r = c->records->pdata[i];
    if (strcmp(r->algorithm, alg) != 0) continue;
    double f, med, loads;
    ok = field(r, "params.footprint_bytes", FALSE, &f, error) && field(r, "median_ns", FALSE, &med, error) &&
         field(r, "params.loads", FALSE, &loads, error);
    if (ok && loads <= 0) ok = fail(error, "%s: record %u (%s): params.loads must be positive", r->file, r->index, alg);
    if (ok) g_array_append_val(pts, ((SweepPt){f, med / loads, i})); /* bw holds ns per load here */
  }
  if (!ok || pts->len == 0) {
    g_array_free(pts, TRUE);
    return ok;
  }
  g_array_sort(pts, sweep_cmp);
  const SweepPt *v = (const SweepPt *)(void *)pts->data;
  const guint n = pts->len;
  double t0 = v[0].bw;
  for (guint i = 1; i < n; i++) t0 = MIN(t0, v[i].bw);
  const double thr = 1.1 * t0;
  /* from the largest footprint down: the first record within 1.1 t0 (small footprints may
   * be slower: a pass over few lines leaves most threads idle), the knee just above it */
  guint k = n;
  while (k > 0 && v[k - 1].bw > thr) k--;
  if (n < 3 || k == 0 || k == n) {
    fail(error, "%s: %s: %u record%s (footprints %.0f .. %.0f MiB); the rule needs at least 3, the "
                "smallest within the L2 and the largest beyond it (%s)",
         (char *)c->files->pdata[0], alg, n, n == 1 ? "" : "s", v[0].bytes / 1048576, v[n - 1].bytes / 1048576, RUN_HINT);
    g_array_free(pts, TRUE);
    return FALSE;
  }
  *knee = v[k - 1].bytes + (thr - v[k - 1].bw) / (v[k].bw - v[k - 1].bw) * (v[k].bytes - v[k - 1].bytes);
  *n_out = n;
  *t0_out = t0;
  *first = v[0].index;
  *lo_mib = v[0].bytes / 1048576;
  *hi_mib = v[n - 1].bytes / 1048576;
  g_array_free(pts, TRUE);
  return TRUE;
}

/* L2 lines and partitions (docs/calibration.md), only with --l2-ways (they are the cache's).
 * One load per 128-byte line in whole passes (l2-line-sweep) fills the L2 at a footprint of
 * 128 x its capacity / the unit it keeps: unit = 128 x 4 l2_words / knee bytes, and
 * l2_line_words = unit / 4 as group_words times a power of two (1 .. 16, the nearest).
 * Random 4-byte loads (l2-random-sweep) see a P-th of it when SMs of P partitions each keep a
 * copy: l2_partitions = round(4 l2_words / knee), within 1 .. 16.  Without records the keys
 * are left out. */
static gboolean derive_l2_random(MsCalib *c, MsCalDerived *d, GError **error) {
  if (!c->l2_ways) return TRUE;
  guint first;
  double lo, hi;
  if (!sweep_knee(c, "l2-line-sweep", &d->line_points, &d->line_ns_lo, &d->line_bytes, &first, &lo, &hi, error))
    return FALSE;
  if (d->line_points) {
    const double unit_words = 128.0 * (double)d->l2_words / d->line_bytes;
    guint64 q = 1;
    while (q < 16 && fabs(log2(unit_words / (double)(2 * q * d->group_words))) < fabs(log2(unit_words / (double)(q * d->group_words))))
      q *= 2;
    d->l2_line_words = q * d->group_words;
    const MsCalRecord *r = c->records->pdata[first];
    d->from_line = g_strdup_printf("%s, %u l2-line-sweep records (footprints %.0f .. %.0f MiB)", r->file, d->line_points, lo, hi);
  }
  if (!sweep_knee(c, "l2-random-sweep", &d->random_points, &d->random_ns_lo, &d->random_bytes, &first, &lo, &hi, error))
    return FALSE;
  if (d->random_points) {
    d->l2_partitions = (guint32)round_u64(4.0 * (double)d->l2_words / d->random_bytes, 1, MS_MAX_L2_PARTITIONS);
    const MsCalRecord *r = c->records->pdata[first];
    d->from_random = g_strdup_printf("%s, %u l2-random-sweep records (footprints %.0f .. %.0f MiB)", r->file,
                                     d->random_points, lo, hi);
    /* the largest footprint's ns per load: the DRAM's rate of lone accesses */
    for (guint i = 0; i < c->records->len; i++) {
      const MsCalRecord *x = c->records->pdata[i];
      double f, med, loads;
      if (strcmp(x->algorithm, "l2-random-sweep") != 0) continue;
      if (!field(x, "params.footprint_bytes", FALSE, &f, error) || !field(x, "median_ns", FALSE, &med, error) ||
          !field(x, "params.loads", FALSE, &loads, error))
        return FALSE;
      if (f > d->random_bytes_hi) {
        d->random_bytes_hi = f;
        d->random_ns_hi = med / loads;
      }
    }
  }
  if (c->l2_home && (!d->from_random || d->l2_partitions < 2))
    return fail(error, "%s: --l2-home-partitions: no l2-random-sweep records that give l2_partitions of 2 or more (%s)",
                (char *)c->files->pdata[0], RUN_HINT);
  if (c->dram_rows) { /* DRAM rows: the rows a structure, the lone rate measured */
    if (!d->random_points)
      return fail(error, "%s: --dram-rows: no l2-random-sweep records (dram_lone_rate is their largest footprint's "
                         "loads per time unit; %s)",
                  (char *)c->files->pdata[0], RUN_HINT);
    if (c->dram_rows % d->group_words)
      return fail(error, "--dram-rows: %" G_GUINT64_FORMAT " words is not a multiple of group_words (%u)", c->dram_rows,
                  d->group_words);
    d->dram_row_words = c->dram_rows;
    d->dram_lone_rate = (guint32)round_u64(d->time_unit_ns / d->random_ns_hi, 1, MAX(1u, d->global_rate));
    d->from_dram = g_strdup_printf("%s, the l2-random-sweep record of %.0f MiB", d->from_random, d->random_bytes_hi / 1048576);
  }
  if (c->dram_lone_writes) { /* a lone write's slots: the largest random-write footprint's stores */
    const char *file = NULL;
    for (guint i = 0; i < c->records->len; i++) {
      const MsCalRecord *x = c->records->pdata[i];
      double f, med, stores;
      if (strcmp(x->algorithm, "l2-random-write-sweep") != 0) continue;
      if (!field(x, "params.footprint_bytes", FALSE, &f, error) || !field(x, "median_ns", FALSE, &med, error) ||
          !field(x, "params.stores", FALSE, &stores, error))
        return FALSE;
      if (f > d->write_bytes_hi) {
        d->write_bytes_hi = f;
        d->write_ns_hi = med / stores;
        file = x->file;
      }
    }
    if (!file)
      return fail(error, "%s: --dram-lone-writes: no l2-random-write-sweep records (dram_lone_write_rate is their "
                         "largest footprint's stores per time unit, two slots each; %s)",
                  (char *)c->files->pdata[0], RUN_HINT);
    d->dram_lone_write_rate = (guint32)round_u64(2 * d->time_unit_ns / d->write_ns_hi, 1, MAX(1u, d->global_rate));
    d->from_dram_write = g_strdup_printf("%s, the l2-random-write-sweep record of %.0f MiB", file, d->write_bytes_hi / 1048576);
  }
  return TRUE;
}

/* Block starts (launch-blocks: kernels of k blocks per SM that only store a flag): for each
 * threads_per_block, the ns per block per SM between its two largest k; block_start_units =
 * round(the median of those / time_unit_ns).  Without records the key is left out. */
static gboolean derive_block_starts(MsCalib *c, MsCalDerived *d, GError **error) {
  typedef struct { double threads, k, ns; } Pt;
  GArray *pts = g_array_new(FALSE, FALSE, sizeof(Pt));
  gboolean ok = TRUE;
  const char *file = NULL; /* the first launch-blocks record's */
  for (guint i = 0; i < c->records->len && ok; i++) {
    const MsCalRecord *r = c->records->pdata[i];
    if (strcmp(r->algorithm, "launch-blocks") != 0) continue;
    if (!file) file = r->file;
    Pt p;
    ok = field(r, "params.threads_per_block", FALSE, &p.threads, error) && field(r, "params.blocks_per_sm", FALSE, &p.k, error) &&
         field(r, "median_ns", FALSE, &p.ns, error);
    if (ok) g_array_append_val(pts, p);
  }
  if (!ok || pts->len == 0) {
    g_array_free(pts, TRUE);
    return ok;
  }
  const Pt *v = (const Pt *)(void *)pts->data;
  double slopes[64];
  guint ns = 0;
  for (guint i = 0; i < pts->len && ns < G_N_ELEMENTS(slopes); i++) {
    gboolean seen = FALSE; /* one slope per block size */
    for (guint j = 0; j < i; j++) seen |= v[j].threads == v[i].threads;
    if (seen) continue;
    const Pt *a = NULL, *b = NULL; /* the largest k and the one below it */
    for (guint j = 0; j < pts->len; j++) {
      if (v[j].threads != v[i].threads) continue;
      if (!a || v[j].k > a->k) b = a, a = &v[j];
      else if (!b || v[j].k > b->k) b = &v[j];
    }
    if (b && a->k > b->k) slopes[ns++] = (a->ns - b->ns) / (a->k - b->k);
  }
  g_array_free(pts, TRUE);
  if (ns == 0)
    return fail(error, "%s: launch-blocks: no block size with two blocks_per_sm; the rule needs two (%s)", file, RUN_HINT);
  for (guint i = 1; i < ns; i++) /* sort for the median */
    for (guint j = i; j > 0 && slopes[j - 1] > slopes[j]; j--) {
      double t = slopes[j];
      slopes[j] = slopes[j - 1];
      slopes[j - 1] = t;
    }
  d->block_start_ns = ns % 2 ? slopes[ns / 2] : 0.5 * (slopes[ns / 2 - 1] + slopes[ns / 2]);
  d->block_start_units = round_u64(d->block_start_ns / d->time_unit_ns, 0, MS_MAX_LATENCY);
  d->from_blocks = g_strdup_printf("%s, launch-blocks records (%u block size%s)", file, ns, ns == 1 ? "" : "s");
  return TRUE;
}

/* The L1 (l1-sweep: one thread chases a random cycle of nodes 128 bytes apart with
 * ld.global over footprints of 32 KiB ... 512 KiB, warmed first): l1_latency = the smallest
 * footprint's clocks per hop; l1_words = the largest footprint within 1.1 x that, in words
 * (the L1 holds all of it). */
static gboolean derive_l1(MsCalib *c, MsCalDerived *d, GError **error) {
  double lo_bytes = 0, lo = 0;
  guint n = 0;
  const char *file = NULL;
  GArray *pts = g_array_new(FALSE, FALSE, sizeof(double));
  for (guint i = 0; i < c->records->len; i++) {
    const MsCalRecord *r = c->records->pdata[i];
    if (strcmp(r->algorithm, "l1-sweep") != 0) continue;
    double fb, ck;
    if (!field(r, "params.footprint_bytes", FALSE, &fb, error) || !field(r, "result.clocks_per_hop", FALSE, &ck, error)) {
      g_array_free(pts, TRUE);
      return FALSE;
    }
    if (!file) file = r->file;
    g_array_append_val(pts, fb);
    g_array_append_val(pts, ck);
    if (n == 0 || fb < lo_bytes) lo_bytes = fb, lo = ck;
    n++;
  }
  if (n < 3) {
    g_array_free(pts, TRUE);
    return fail(error, "--l1: needs at least 3 l1-sweep records, got %u (MEMSIM_ONLY=l1-sweep %s)", n, RUN_HINT);
  }
  double best = 0;
  for (guint i = 0; i < n; i++) {
    const double fb = g_array_index(pts, double, 2 * i), ck = g_array_index(pts, double, 2 * i + 1);
    if (ck <= 1.1 * lo && fb > best) best = fb;
  }
  g_array_free(pts, TRUE);
  d->l1_clocks = lo;
  d->l1_bytes = best;
  d->l1_latency = round_u64(lo, 1, MS_MAX_LATENCY);
  d->l1_words = (guint64)(best / 4);
  d->from_l1 = g_strdup_printf("%s, %u l1-sweep records", file, n);
  return TRUE;
}

/* Loaded latency (docs/calibration.md, docs/models.md "Loaded latency"): the records of
 * `alg` are W warps per SM on every SM, each warp chasing its own chain of coalesced
 * 128-byte lines; warps x ceil(32 / group_words) groups per clocks_per_hop is the path's
 * traffic per time unit, u = 1000 x that / rate (at most 1000).  Points in order of W; a
 * point is kept while its u is at least 1.05 x the last kept one's (past that the path is
 * saturated: the measured latency is then its queue, which the model's slots make
 * themselves); latency = round(clocks_per_hop), made non-decreasing. */
/* The op of an issue-rate record: params.op, "imad" when absent. */
static const char *issue_op(const MsCalRecord *r) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r->json, "params"), "op");
  return cJSON_IsString(v) ? v->valuestring : "imad";
}

/* An issue-rate record of 8 independent chains per thread (params.chains_per_thread, 8 when
 * absent); records of fewer chains measure latency hiding, not the issue rate. */
static gboolean issue_independent(const MsCalRecord *r) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r->json, "params"), "chains_per_thread");
  return strcmp(r->algorithm, "issue-rate") == 0 && (!cJSON_IsNumber(v) || v->valuedouble == 8);
}

/* Issue (docs/calibration.md, "Issue"): the issue-rate records run one block of W warps per SM,
 * each thread 8 independent chains of one instruction: IMAD (op imad), LOP3 (alu) or both
 * (mixed).  From the alu records (one pipe's rate; imad when no alu record is there) the most
 * W give the SM's rate: issue_rate.  A lone warp's clocks per instruction (the fewest W) and
 * the mixed records' rate are reported beside it.  Records of fewer chains are not used. */
/* Barrier time (--barriers): the barrier-loop records of op "barrier" at one block per SM, W
 * warps per block: clocks per iteration = a + b W by least squares (a barrier alone, so the
 * iteration is the barrier's cost). */
static gboolean derive_barriers(MsCalib *c, MsCalDerived *d, GError **error) {
  double sw = 0, sc = 0, sww = 0, swc = 0, wmin = 0, wmax = 0;
  guint n = 0;
  const char *file = NULL;
  for (guint i = 0; i < c->records->len; i++) {
    const MsCalRecord *r = c->records->pdata[i];
    if (strcmp(r->algorithm, "barrier-loop") != 0) continue;
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r->json, "params"), "op");
    if (!cJSON_IsString(op) || strcmp(op->valuestring, "barrier") != 0) continue;
    double b, w, clk;
    if (!field(r, "params.blocks_per_sm", FALSE, &b, error)) return FALSE;
    if (b != 1) continue;
    if (!field(r, "params.warps_per_block", FALSE, &w, error) || !field(r, "result.clocks_per_iteration", FALSE, &clk, error))
      return FALSE;
    if (!n || w < wmin) wmin = w;
    if (!n || w > wmax) wmax = w;
    sw += w, sc += clk, sww += w * w, swc += w * clk;
    n++;
    file = r->file;
  }
  if (n < 2 || wmin == wmax)
    return fail(error, "--barriers: needs barrier-loop records (op barrier, blocks_per_sm 1) at 2 or more warps_per_block, "
                "got %u (MEMSIM_ONLY=barrier-loop %s)", n, RUN_HINT);
  d->barrier_b = (n * swc - sw * sc) / (n * sww - sw * sw);
  d->barrier_a = (sc - d->barrier_b * sw) / n;
  d->barrier_units = round_u64(d->barrier_a, 0, MS_MAX_LATENCY);
  d->barrier_warp_units = round_u64(d->barrier_b, 0, MS_MAX_LATENCY);
  d->barrier_records = n;
  d->from_barriers = g_strdup_printf("%s, %u barrier-loop records (op barrier, one block per SM, %g .. %g warps)", file, n,
                                     wmin, wmax);
  return TRUE;
}

static gboolean derive_issue(MsCalib *c, MsCalDerived *d, GError **error) {
  const char *want = "imad";
  for (guint i = 0; i < c->records->len; i++) {
    const MsCalRecord *r = c->records->pdata[i];
    if (issue_independent(r) && strcmp(issue_op(r), "alu") == 0) want = "alu";
  }
  const MsCalRecord *lo = NULL, *hi = NULL, *mixed = NULL;
  double wlo = 0, whi = 0, wmix = 0;
  guint n = 0;
  for (guint i = 0; i < c->records->len; i++) {
    const MsCalRecord *r = c->records->pdata[i];
    if (!issue_independent(r)) continue;
    double w;
    if (!field(r, "params.warps_per_sm", FALSE, &w, error)) return FALSE;
    if (strcmp(issue_op(r), "mixed") == 0 && (!mixed || w > wmix)) mixed = r, wmix = w;
    if (strcmp(issue_op(r), want) != 0) continue;
    if (!lo || w < wlo) lo = r, wlo = w;
    if (!hi || w > whi) hi = r, whi = w;
    n++;
  }
  if (n < 2 || wlo == whi)
    return fail(error, "--issue: needs issue-rate records at 2 or more warps_per_sm, got %u (MEMSIM_ONLY=issue-rate %s)", n,
                RUN_HINT);
  if (!field(lo, "result.clocks_per_warp_instruction", FALSE, &d->issue_one_clocks, error) ||
      !field(hi, "result.instructions_per_sm_per_clock", FALSE, &d->issue_sm_rate, error))
    return FALSE;
  d->issue_mixed_rate = NAN;
  if (mixed && !field(mixed, "result.instructions_per_sm_per_clock", FALSE, &d->issue_mixed_rate, error)) return FALSE;
  d->issue_one_warps = wlo;
  d->issue_sm_warps = whi;
  d->issue_op = want;
  d->issue_rate = (guint32)round_u64(d->issue_sm_rate, 1, MS_MAX_GLOBAL_RATE);
  d->from_issue = g_strdup_printf("%s, %u issue-rate records (op %s)", lo->file, n, want);
  return TRUE;
}

static gboolean derive_loaded(MsCalib *c, MsCalDerived *d, const char *alg, guint32 rate, MsLoadCurve *out,
                              char **from, GError **error) {
  double w[64], ck[64], warps[64];
  guint n = 0;
  const char *file = NULL;
  for (guint i = 0; i < c->records->len && n < G_N_ELEMENTS(w); i++) {
    const MsCalRecord *r = c->records->pdata[i];
    if (strcmp(r->algorithm, alg) != 0) continue;
    if (!field(r, "params.warps_per_sm", FALSE, &w[n], error) || !field(r, "result.clocks_per_hop", FALSE, &ck[n], error) ||
        !field(r, "result.warps", FALSE, &warps[n], error))
      return FALSE;
    if (!file) file = r->file;
    n++;
  }
  if (n < 2)
    return fail(error, "--loaded-latency: needs at least 2 %s records, got %u (MEMSIM_ONLY=loaded-chase,l2-loaded-chase %s)",
                alg, n, RUN_HINT);
  for (guint i = 1; i < n; i++) /* by warps per SM */
    for (guint j = i; j > 0 && w[j - 1] > w[j]; j--) {
      double t;
      t = w[j], w[j] = w[j - 1], w[j - 1] = t;
      t = ck[j], ck[j] = ck[j - 1], ck[j - 1] = t;
      t = warps[j], warps[j] = warps[j - 1], warps[j - 1] = t;
    }
  const double gpw = ceil(32.0 / d->group_words); /* groups of one 128-byte line */
  double last_u = -1;
  out->n = 0;
  for (guint i = 0; i < n && out->n < MS_MAX_LOAD_POINTS; i++) {
    const double u = MIN(1000.0, 1000.0 * warps[i] * gpw / ck[i] / rate);
    if (last_u >= 0 && (u < 1.05 * last_u || last_u >= 1000)) break;
    const guint32 ui = (guint32)floor(u);
    if (out->n && ui <= out->u[out->n - 1]) break;
    guint64 lat = round_u64(ck[i], 1, MS_MAX_LATENCY);
    if (out->n && lat < out->lat[out->n - 1]) lat = out->lat[out->n - 1];
    out->u[out->n] = ui;
    out->lat[out->n] = lat;
    out->n++;
    last_u = u;
  }
  *from = g_strdup_printf("%s, %u %s records", file, n, alg);
  return TRUE;
}

/* A DMM's port (sm-strided-read: k blocks of 1024 threads, one SM each, 4-byte loads 32
 * words apart over a buffer in L2): at stride 32 each warp request is 32 groups (group_words
 * <= 32), so one SM passes 32 x warp_requests / k groups in median_ns; dmm_global_rate =
 * round(the median over k of that per time unit).  Without records the key is left out. */
static gboolean derive_port(MsCalib *c, MsCalDerived *d, GError **error) {
  double rates[16];
  guint n = 0;
  const char *file = NULL;
  for (guint i = 0; i < c->records->len && n < G_N_ELEMENTS(rates); i++) {
    const MsCalRecord *r = c->records->pdata[i];
    if (strcmp(r->algorithm, "sm-strided-read") != 0) continue;
    double s, k, req, ns;
    if (!field(r, "params.stride_words", FALSE, &s, error)) return FALSE;
    if (s != 32) continue;
    if (!field(r, "params.blocks", FALSE, &k, error) || !field(r, "warp_requests", FALSE, &req, error) ||
        !field(r, "median_ns", FALSE, &ns, error))
      return FALSE;
    if (!file) file = r->file;
    if (k < 1 || req < 1 || ns <= 0)
      return fail(error, "%s: sm-strided-read: blocks, warp_requests and median_ns must be positive", r->file);
    rates[n++] = 32.0 * req / k / (ns / d->time_unit_ns);
  }
  if (n == 0) {
    if (c->dmm_port)
      return fail(error, "--dmm-port: no sm-strided-read record at stride_words 32 (%s)", RUN_HINT);
    return TRUE;
  }
  if (d->group_words > 32)
    return fail(error, "%s: sm-strided-read: group_words %u > 32: a lane 32 words away may share its group",
                file, d->group_words);
  for (guint i = 1; i < n; i++)
    for (guint j = i; j > 0 && rates[j - 1] > rates[j]; j--) {
      double t = rates[j];
      rates[j] = rates[j - 1];
      rates[j - 1] = t;
    }
  d->port_groups_per_unit = n % 2 ? rates[n / 2] : 0.5 * (rates[n / 2 - 1] + rates[n / 2]);
  d->dmm_global_rate = (guint32)round_u64(d->port_groups_per_unit, 1, MS_MAX_GLOBAL_RATE);
  d->from_port = g_strdup_printf("%s, %u sm-strided-read records at stride 32", file, n);
  return TRUE;
}

/* The port by banks (sm-l1-strided-read: k blocks of 1024 threads, one SM each, 4-byte loads
 * over 64 KiB that the L1 holds): at stride 1 a warp request is one line in 32 banks, and one
 * SM takes (median_ns / time_unit_ns) / (warp_requests / k) time units for each; dmm_port_banks
 * = round(the median over k of that), within 1 .. 64: the fewest slots a read takes. */
static gboolean derive_port_banks(MsCalib *c, MsCalDerived *d, GError **error) {
  double v[16];
  guint n = 0;
  const char *file = NULL;
  for (guint i = 0; i < c->records->len && n < G_N_ELEMENTS(v); i++) {
    const MsCalRecord *r = c->records->pdata[i];
    if (strcmp(r->algorithm, "sm-l1-strided-read") != 0) continue;
    double s, k, req, ns;
    if (!field(r, "params.stride_words", FALSE, &s, error)) return FALSE;
    if (s != 1) continue;
    if (!field(r, "params.blocks", FALSE, &k, error) || !field(r, "warp_requests", FALSE, &req, error) ||
        !field(r, "median_ns", FALSE, &ns, error))
      return FALSE;
    if (!file) file = r->file;
    if (k < 1 || req < 1 || ns <= 0)
      return fail(error, "%s: sm-l1-strided-read: blocks, warp_requests and median_ns must be positive", r->file);
    v[n++] = (ns / d->time_unit_ns) / (req / k);
  }
  if (n == 0) return fail(error, "--dmm-port-banks: no sm-l1-strided-read record at stride_words 1 (%s)", RUN_HINT);
  for (guint i = 1; i < n; i++)
    for (guint j = i; j > 0 && v[j - 1] > v[j]; j--) {
      double t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  d->port_min_clocks = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  d->dmm_port_banks = (guint32)round_u64(d->port_min_clocks, 1, 64);
  d->from_port_banks = g_strdup_printf("%s, %u sm-l1-strided-read records at stride 1", file, n);
  return TRUE;
}

/* Shared and global reads on one port (sm-l1-shared-mix: one block of 1024 threads per SM,
 * each warp G coalesced ld.global.ca of lines the L1 holds and H SS-way shared loads a round;
 * docs/calibration.md, "Shared and L1 reads"): the records with H = 0 give the clocks per
 * global read, dmm_port_banks = round(their median), within 1 .. 64 (it replaces the
 * sm-l1-strided-read figure, whose loop issues about 12 instructions a load); every record is
 * then checked against the two stages in series, max(G b + H, G + H SS) clocks a round (the
 * port: b a global read, 1 a shared access; the DMM's pipeline: 1 wavefront a coalesced read,
 * SS a shared access), its largest relative miss kept beside the key. */
static gboolean derive_port_shared(MsCalib *c, MsCalDerived *d, GError **error) {
  double v[32];
  guint n = 0;
  const char *file = NULL;
  for (guint i = 0; i < c->records->len; i++) {
    const MsCalRecord *r = c->records->pdata[i];
    if (strcmp(r->algorithm, "sm-l1-shared-mix") != 0) continue;
    double g, h, cl;
    if (!field(r, "params.global_loads", TRUE, &g, error) || !field(r, "params.shared_loads", TRUE, &h, error) ||
        !field(r, "result.clocks_per_warp_round", FALSE, &cl, error))
      return FALSE;
    if (g + h < 1) return fail(error, "%s: sm-l1-shared-mix: global_loads and shared_loads are both 0", r->file);
    if (!file) file = r->file;
    if (h == 0 && g >= 1 && n < G_N_ELEMENTS(v)) v[n++] = cl / g;
  }
  if (n == 0)
    return fail(error, "--dmm-port-shared: no sm-l1-shared-mix record with shared_loads 0 and global_loads >= 1 (%s)", RUN_HINT);
  for (guint i = 1; i < n; i++)
    for (guint j = i; j > 0 && v[j - 1] > v[j]; j--) {
      double t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  d->lsu_read_clocks = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  d->dmm_port_banks = (guint32)round_u64(d->lsu_read_clocks, 1, 64);
  d->lsu_checked = 0;
  d->lsu_max_miss = 0;
  for (guint i = 0; i < c->records->len; i++) {
    const MsCalRecord *r = c->records->pdata[i];
    if (strcmp(r->algorithm, "sm-l1-shared-mix") != 0) continue;
    double g, h, ss, cl;
    if (!field(r, "params.global_loads", TRUE, &g, error) || !field(r, "params.shared_loads", TRUE, &h, error) ||
        !field(r, "params.shared_stride", FALSE, &ss, error) || !field(r, "result.clocks_per_warp_round", FALSE, &cl, error))
      return FALSE;
    const double deg = MIN(MAX(ss, 1.0), 32.0), port = g * d->dmm_port_banks + h, pipe = g + h * deg;
    const double miss = fabs(MAX(port, pipe) / cl - 1.0);
    d->lsu_max_miss = MAX(d->lsu_max_miss, miss);
    d->lsu_checked++;
  }
  g_free(d->from_port_banks);
  d->from_port_banks = g_strdup_printf("%s, %u sm-l1-shared-mix records without shared loads", file, n);
  d->port_min_clocks = d->lsu_read_clocks;
  d->from_port_shared = g_strdup_printf("%s, %u sm-l1-shared-mix records", file, d->lsu_checked);
  return TRUE;
}

/* Warp shuffles (docs/calibration.md): shuffle-latency is one warp's chain of dependent
 * __shfl_sync, clocked; shuffle-rate a full grid of independent chains.  shuffle_units =
 * round(clocks per dependent shuffle): the time units a warp's shuffle step takes before its
 * next step may issue (docs/models.md, "Warp shuffles").  The rate is reported beside it, not
 * used: the model gives shuffles no pipeline, which the rate checks.  Without the records the
 * figures are absent; --shuffles then refuses, naming the missing records (it needs both, so
 * that the key is never derived without its check). */
static gboolean derive_shuffles(MsCalib *c, MsCalDerived *d, GError **error) {
  static const MsCalNeed lat_need = {"shuffle-latency", NULL, 0}, rate_need = {"shuffle-rate", NULL, 0};
  const MsCalRecord *lat = find(c, &lat_need), *rate = find(c, &rate_need);
  d->shuffle_clocks = d->shuffle_imad_clocks = d->shuffle_rate = d->shuffle_rate_by_duration = NAN;
  if (c->shuffles && (!lat || !rate)) {
    GString *files = g_string_new(NULL);
    char *lt = need_text(&lat_need), *rt = need_text(&rate_need);
    const gboolean both = !lat && !rate;
    fail(error, "%s: no calibrate record%s %s%s%s (--shuffles needs %s; %s)", files_text(c, files), both ? "s" : "",
         lat ? "" : lt, both ? ", " : "", rate ? "" : rt, both ? "them" : "it", RUN_HINT);
    g_string_free(files, TRUE);
    g_free(lt);
    g_free(rt);
    return FALSE;
  }
  if (c->instructions && !lat) {
    GString *files = g_string_new(NULL);
    char *lt = need_text(&lat_need);
    fail(error, "%s: no calibrate record %s (--instructions needs it: its dependent IMAD chain; %s)", files_text(c, files),
         lt, RUN_HINT);
    g_string_free(files, TRUE);
    g_free(lt);
    return FALSE;
  }
  if (lat && c->instructions) { /* instruction_units: clocks per dependent IMAD, the chain a compute step is */
    if (!field(lat, "result.clocks_per_imad", FALSE, &d->shuffle_imad_clocks, error)) return FALSE;
    d->instruction_units = round_u64(d->shuffle_imad_clocks, 1, MS_MAX_LATENCY);
  }
  if (lat) {
    if (!field(lat, "result.clocks_per_shuffle", FALSE, &d->shuffle_clocks, error)) return FALSE;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(lat->json, "result"), "clocks_per_imad");
    if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) d->shuffle_imad_clocks = v->valuedouble; /* reported only */
    d->shuffle_units = round_u64(d->shuffle_clocks, 1, MS_MAX_LATENCY);
    d->from_shuffle_latency = rec_label(lat);
  }
  if (rate) {
    double shuffles, med;
    if (!field(rate, "result.shuffles_per_sm_per_clock", FALSE, &d->shuffle_rate, error) ||
        !field(rate, "warp_shuffles", FALSE, &shuffles, error) || !field(rate, "median_ns", FALSE, &med, error))
      return FALSE;
    d->shuffle_rate_by_duration = shuffles / d->dmms / (med / d->time_unit_ns);
    d->from_shuffle_rate = rec_label(rate);
  }
  return TRUE;
}

/* Partial writes: the median over strides 2, 4, .. 32 of (ns per warp request of `write`'s
 * record / of `read`'s) -- at each of these strides no store covers a whole sector, so every
 * group the model counts is written in part.  Needs all ten records; FALSE with *ratio NAN
 * when the write records are absent, FALSE with an error when one is malformed or a
 * read is missing. */
static gboolean write_ratio(const MsCalib *c, const char *write, const char *read, double *ratio, char **from,
                            GError **error) {
  double r[5];
  *ratio = NAN;
  for (int k = 0; k < 5; k++) {
    const MsCalNeed nw = {write, "stride_words", 2 << k}, nr = {read, "stride_words", 2 << k};
    const MsCalRecord *rw = find(c, &nw), *rr = find(c, &nr);
    if (!rw) {
      if (k == 0) return TRUE; /* not recorded: the key is left out */
      char *t = need_text(&nw);
      GString *files = g_string_new(NULL);
      fail(error, "%s: no calibrate record %s (the %s records go together; %s)", files_text(c, files), t, write, RUN_HINT);
      g_string_free(files, TRUE);
      g_free(t);
      return FALSE;
    }
    if (!rr) {
      char *t = need_text(&nr);
      GString *files = g_string_new(NULL);
      fail(error, "%s: no calibrate record %s (%s needs it; %s)", files_text(c, files), t, write, RUN_HINT);
      g_string_free(files, TRUE);
      g_free(t);
      return FALSE;
    }
    double mw, qw, mr, qr;
    if (!field(rw, "median_ns", FALSE, &mw, error) || !field(rw, "warp_requests", FALSE, &qw, error) ||
        !field(rr, "median_ns", FALSE, &mr, error) || !field(rr, "warp_requests", FALSE, &qr, error))
      return FALSE;
    r[k] = (mw / qw) / (mr / qr);
    if (k == 2) *from = rec_label(rw); /* stride 8: one word per sector */
  }
  for (int i = 1; i < 5; i++) /* median of five */
    for (int j = i; j > 0 && r[j] < r[j - 1]; j--) {
      double t = r[j];
      r[j] = r[j - 1];
      r[j - 1] = t;
    }
  *ratio = r[2];
  return TRUE;
}

/* ns per warp request of the strided-read record with stride s, or NAN. */
static double stride_ns(const MsCalib *c, int s, GError **error, gboolean *ok) {
  const MsCalNeed n = {"strided-read", "stride_words", s};
  const MsCalRecord *r = find(c, &n);
  double med, req;
  if (!r) return NAN;
  if (!field(r, "median_ns", FALSE, &med, error) || !field(r, "warp_requests", FALSE, &req, error)) {
    *ok = FALSE;
    return NAN;
  }
  return med / req;
}

/* --launch-store: launch-empty's kernel stores one word (its last block's thread 0), and a
 * kernel's time in the model ends with its stores' completion, so launch_units taken whole
 * count that store twice for every kernel with stores.  The model with launch_units 0 runs the
 * empty kernel's trace (one block of `width` threads, thread 0 writes one word of a one-word
 * footprint, in L2 as on the GPU: the flag is rewritten call after call); launch_units is what
 * is left of the measured time, so the model of the calibration kernel takes its measured
 * time (docs/calibration.md, "Launches").  Called with c->derived set. */
static char *ms_calib_model_json_units(const MsCalib *c, const char *command);
static gboolean derive_launch_store(MsCalib *c, MsCalDerived *d, GError **error) {
  const guint64 gross = d->launch_units;
  d->launch_units = 0;
  char *json = ms_calib_model_json_units(c, "");
  MsModel *m = ms_model_parse(json, strlen(json), "the derived model", error);
  g_free(json);
  if (!m) return FALSE;
  GString *t = g_string_new("{\"memsim_trace\": 1, \"name\": \"launch-empty\", \"global_words\": 1, ");
  g_string_append_printf(t, "\"threads\": %u, \"block_threads\": %u, \"steps\": [{\"op\": \"write\", "
                            "\"space\": \"global\", \"addr\": [0", d->width, d->width);
  for (guint32 i = 1; i < d->width; i++) g_string_append(t, ", null");
  g_string_append(t, "]}]}");
  MsSource *src = ms_trace_open_memory(t->str, t->len, "launch-empty", error);
  g_string_free(t, TRUE);
  if (!src) {
    ms_model_free(m);
    return FALSE;
  }
  MsSimOptions opt = {0};
  opt.threads = 1;
  MsResult *res = ms_simulate(m, src, &opt, error);
  ms_source_free(src);
  ms_model_free(m);
  if (!res) return FALSE;
  d->launch_store_units = res->time_units;
  ms_result_free(res);
  d->launch_units = gross > d->launch_store_units ? gross - d->launch_store_units : 0;
  return TRUE;
}

gboolean ms_calib_derive(MsCalib *c, GError **error) {
  MsCalDerived *d = &c->d;
  derived_clear(d);
  c->derived = FALSE;
  if (!check_present(c, error) || !derive_device(c, d, error)) return FALSE;
  const MsCalRecord *clk = find(c, &NEED_CLOCK), *launch = find(c, &NEED_LAUNCH), *copy = find(c, &NEED_COPY);
  const MsCalRecord *s1 = find(c, &NEED_S1), *s32 = find(c, &NEED_S32);
  const MsCalRecord *gch = find(c, &NEED_GLOBAL), *sch = find(c, &NEED_SHARED);
  const MsCalRecord *l2r = find(c, &NEED_L2READ), *l2c = find(c, &NEED_L2CHASE);
  double cycles, med, rd, wr;
  /* one time unit = one SM clock at the clock measured under load */
  if (!field(clk, "params.cycles", FALSE, &cycles, error) || !field(clk, "median_ns", FALSE, &med, error)) return FALSE;
  d->mhz = cycles / med * 1e3;
  d->time_unit_ns = 1e3 / d->mhz;
  /* group size: a stride-32 request touches 32 groups, a stride-1 request 32 / group_words */
  gboolean ok = TRUE;
  for (int k = 0; k < 6; k++) d->stride_ns[k] = stride_ns(c, 1 << k, error, &ok);
  if (!ok) return FALSE;
  d->stride_ratio = d->stride_ns[5] / d->stride_ns[0];
  d->group_words = (guint32)round_u64(exp2(floor(log2(d->stride_ratio) + 0.5)), 1, d->width);
  /* global rate: groups per time unit that the DRAM copy moves */
  if (!field(copy, "median_ns", FALSE, &med, error) || !field(copy, "bytes_read", TRUE, &rd, error) ||
      !field(copy, "bytes_written", TRUE, &wr, error))
    return FALSE;
  if (rd + wr <= 0) {
    char *l = rec_label(copy);
    fail(error, "%s: no bytes moved (bytes_read + bytes_written = 0)", l);
    g_free(l);
    return FALSE;
  }
  d->copy_bytes_per_ns = (rd + wr) / med;
  d->global_rate = (guint32)round_u64(d->copy_bytes_per_ns * d->time_unit_ns / (4.0 * d->group_words), 1, MS_MAX_GLOBAL_RATE);
  /* latencies in SM clocks */
  if (!field(gch, "result.clocks_per_hop", FALSE, &d->global_clocks, error) ||
      !field(sch, "result.clocks_per_hop", FALSE, &d->shared_clocks, error))
    return FALSE;
  d->global_latency = round_u64(d->global_clocks, 1, MS_MAX_LATENCY);
  d->shared_latency = round_u64(d->shared_clocks, 1, MS_MAX_LATENCY);
  /* launch: an empty one-block kernel's duration in time units */
  if (!field(launch, "median_ns", FALSE, &d->launch_ns, error)) return FALSE;
  d->launch_units = d->launch_gross_units = round_u64(d->launch_ns / d->time_unit_ns, 0, MS_MAX_LATENCY);
  /* L2: the same rules as DRAM, from the L2-resident read and chase */
  if (!field(l2r, "median_ns", FALSE, &med, error) || !field(l2r, "bytes_read", FALSE, &rd, error) ||
      !field(l2c, "result.clocks_per_hop", FALSE, &d->l2_clocks, error))
    return FALSE;
  d->l2_bytes_per_ns = rd / med;
  d->l2_rate = (guint32)round_u64(d->l2_bytes_per_ns * d->time_unit_ns / (4.0 * d->group_words), 1, MS_MAX_GLOBAL_RATE);
  d->l2_latency = round_u64(d->l2_clocks, 1, MS_MAX_LATENCY);
  if (!derive_l2_sweep(c, d, error)) return FALSE;
  if (!derive_l2_random(c, d, error)) return FALSE;
  if (!derive_block_starts(c, d, error)) return FALSE;
  if (c->dmm_port && !derive_port(c, d, error)) return FALSE;
  if (c->dmm_port_banks && !derive_port_banks(c, d, error)) return FALSE;
  if (c->dmm_port_shared && !derive_port_shared(c, d, error)) return FALSE;
  if (c->l1 && !derive_l1(c, d, error)) return FALSE;
  if (!derive_shuffles(c, d, error)) return FALSE;
  if (c->issue && !derive_issue(c, d, error)) return FALSE;
  if (c->barriers && !derive_barriers(c, d, error)) return FALSE;
  if (c->loaded_latency &&
      (!derive_loaded(c, d, "loaded-chase", d->global_rate, &d->global_loaded, &d->from_loaded, error) ||
       !derive_loaded(c, d, "l2-loaded-chase", d->l2_rate, &d->l2_loaded, &d->from_l2_loaded, error)))
    return FALSE;
  /* warp issue, from the one-warp loops (optional: older record files have none): the loads
   * a warp keeps in flight in a plain loop = DRAM latency / clocks per iteration; stores
   * that take less than half the latency each do not hold the warp */
  const MsCalRecord *ll = find(c, &OPT_LOAD_LOOP), *sl = find(c, &OPT_STORE_LOOP);
  d->load_loop_clocks = d->store_loop_clocks = NAN;
  d->read_window = 1;
  if (ll) {
    if (!field(ll, "result.clocks_per_iteration", FALSE, &d->load_loop_clocks, error)) return FALSE;
    d->read_window = (guint32)round_u64(d->global_clocks / d->load_loop_clocks, 1, MS_MAX_READ_WINDOW);
    d->from_load_loop = rec_label(ll);
  }
  if (sl) {
    if (!field(sl, "result.clocks_per_iteration", FALSE, &d->store_loop_clocks, error)) return FALSE;
    d->posted_writes = d->store_loop_clocks < d->global_clocks / 2;
    d->from_store_loop = rec_label(sl);
  }
  /* posted write-backs, from store-fence-loop at its smallest footprint (in L2) and its
   * largest (beyond: every store evicts a dirty line): a store and a fence that take no
   * longer beyond L2 (within 10%) = the write-back is not on the store's path, which is done
   * when the L2 has it (docs/calibration.md, "Posted write-backs") */
  d->fence_clocks = d->fence_l2_clocks = NAN;
  const MsCalRecord *fl = NULL, *fs = NULL;
  double fl_bytes = -1, fs_bytes = -1;
  for (guint i = 0; i < c->records->len; i++) {
    const MsCalRecord *r = c->records->pdata[i];
    double fb;
    if (strcmp(r->algorithm, "store-fence-loop") != 0) continue;
    if (!field(r, "params.footprint_bytes", FALSE, &fb, error)) return FALSE;
    if (fb > fl_bytes) {
      fl = r;
      fl_bytes = fb;
    }
    if (fs_bytes < 0 || fb < fs_bytes) {
      fs = r;
      fs_bytes = fb;
    }
  }
  if (fl && c->l2_ways) {
    if (!field(fl, "result.clocks_per_iteration", FALSE, &d->fence_clocks, error) ||
        !field(fs, "result.clocks_per_iteration", FALSE, &d->fence_l2_clocks, error))
      return FALSE;
    const double l2b = 4.0 * (double)d->l2_words;
    if (fl_bytes <= l2b || fs_bytes > l2b / 2) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                  "%s: store-fence-loop: footprints %.0f .. %.0f bytes; the rule needs one within half the L2 (%.0f bytes) "
                  "and one beyond it",
                  fl->file, fs_bytes, fl_bytes, l2b);
      return FALSE;
    }
    d->posted_write_backs = d->fence_clocks <= 1.1 * d->fence_l2_clocks;
    d->from_fence = g_strdup_printf("%s records %u and %u (store-fence-loop, footprints %.0f and %.0f MiB)", fl->file,
                                    fs->index, fl->index, fs_bytes / 1048576.0, fl_bytes / 1048576.0);
  }
  /* partial writes: a store to part of a group costs round(ratio) stages of one group */
  if (!write_ratio(c, "strided-write", "strided-read", &d->pw_ratio, &d->from_writes, error) ||
      !write_ratio(c, "l2-strided-write", "l2-strided-read", &d->l2_pw_ratio, &d->from_l2_writes, error))
    return FALSE;
  const guint64 pw_max = MS_MAX_WARP_STAGES / d->width - 1;
  if (d->from_writes) d->partial_write_stages = (guint32)round_u64(d->pw_ratio - 1, 0, pw_max);
  if (d->from_l2_writes) d->l2_partial_write_stages = (guint32)round_u64(d->l2_pw_ratio - 1, 0, pw_max);
  if (c->l2_write_rate) { /* whole writes in L2: the stride-1 records (docs/models.md, "Whole writes in L2") */
    const MsCalNeed nw = {"l2-strided-write", "stride_words", 1}, nr = {"l2-strided-read", "stride_words", 1};
    const MsCalNeed *need[2] = {&nw, &nr};
    const MsCalRecord *rec[2];
    for (int i = 0; i < 2; i++) {
      rec[i] = find(c, need[i]);
      if (!rec[i]) {
        char *t = need_text(need[i]);
        GString *files = g_string_new(NULL);
        fail(error, "%s: no calibrate record %s (--l2-write-rate needs the stride-1 L2 write and read; %s)",
             files_text(c, files), t, RUN_HINT);
        g_string_free(files, TRUE);
        g_free(t);
        return FALSE;
      }
    }
    double mw, qw, mr, qr;
    if (!field(rec[0], "median_ns", FALSE, &mw, error) || !field(rec[0], "warp_requests", FALSE, &qw, error) ||
        !field(rec[1], "median_ns", FALSE, &mr, error) || !field(rec[1], "warp_requests", FALSE, &qr, error))
      return FALSE;
    d->l2_w1_ratio = (mw / qw) / (mr / qr);
    d->l2_write_rate = (guint32)round_u64((double)d->l2_rate / d->l2_w1_ratio, 1, MS_MAX_GLOBAL_RATE);
    d->from_l2_write_rate = rec_label(rec[0]);
  }
  d->from_clock = rec_label(clk);
  d->from_copy = rec_label(copy);
  d->from_stride1 = rec_label(s1);
  d->from_stride32 = rec_label(s32);
  d->from_global = rec_label(gch);
  d->from_shared = rec_label(sch);
  d->from_launch = rec_label(launch);
  d->from_l2read = rec_label(l2r);
  d->from_l2chase = rec_label(l2c);
  c->derived = TRUE;
  if (c->launch_store && !derive_launch_store(c, d, error)) {
    c->derived = FALSE;
    return FALSE;
  }
  return TRUE;
}

/* ---- output -------------------------------------------------------------------------- */

static cJSON *figure(cJSON *cal, const char *key, double value, const char *from, const char *rule) {
  cJSON *o = cJSON_AddObjectToObject(cal, key);
  cJSON_AddNumberToObject(o, "value", value);
  cJSON_AddStringToObject(o, "from", from);
  cJSON_AddStringToObject(o, "rule", rule);
  return o;
}

/* A record's number, or NAN (figures recorded beside the model: read leniently). */
static double opt_num(const MsCalRecord *r, const char *a, const char *b) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(r->json, a);
  if (b) v = cJSON_GetObjectItemCaseSensitive(v, b);
  return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}

static void add_opt(cJSON *o, const char *key, double v) {
  if (isfinite(v)) cJSON_AddNumberToObject(o, key, v);
}

/* The measured figures the model does not use (L1 latency, DRAM read and write bandwidth,
 * launch variants, the clock seen by the copy, shared wavefronts, the shuffle rate, and the
 * shuffle latency without --shuffles), under their records' labels. */
static cJSON *recorded_json(const MsCalib *c) {
  cJSON *o = cJSON_CreateObject();
  for (guint i = 0; i < c->records->len; i++) {
    const MsCalRecord *r = c->records->pdata[i];
    const char *a = r->algorithm;
    double med = opt_num(r, "median_ns", NULL), v = NAN;
    const char *what = NULL;
    if (strcmp(a, "dram-read") == 0 || strcmp(a, "dram-write") == 0) {
      v = (g_str_equal(a, "dram-write") ? opt_num(r, "bytes_written", NULL) : opt_num(r, "bytes_read", NULL)) / med;
      what = "bytes_per_ns";
    } else if (strcmp(a, "l2-sweep") == 0 || strcmp(a, "l2-copy-sweep") == 0) {
      /* l2-sweep: recorded beside the copy sweep that sets l2_words (reads alone) */
      v = (opt_num(r, "bytes_read", NULL) + (strcmp(a, "l2-copy-sweep") == 0 ? opt_num(r, "bytes_written", NULL) : 0)) / med;
      what = "bytes_per_ns";
    } else if (strcmp(a, "l1-chase") == 0) {
      v = opt_num(r, "result", "clocks_per_hop");
      what = "clocks_per_hop";
    } else if (strcmp(a, "launch-empty") == 0 || strcmp(a, "launch-burst") == 0) {
      v = opt_num(r, "result", "ns_per_launch");
      what = "ns_per_launch";
    } else if (strcmp(a, "shared-wavefronts") == 0) {
      v = opt_num(r, "result", "wavefronts_per_sm_per_clock");
      what = "wavefronts_per_sm_per_clock";
    } else if (strcmp(a, "dram-copy") == 0 || strcmp(a, "clock-spin") == 0) {
      v = opt_num(r, "result", strcmp(a, "dram-copy") == 0 ? "mhz_from_block_clocks" : "mhz");
      what = "sm_clock_mhz";
    } else if (strcmp(a, "strided-read") == 0) {
      v = opt_num(r, "result", "ns_per_warp_request");
      what = "ns_per_warp_request";
    } else if (strcmp(a, "shuffle-latency") == 0 && !c->shuffles) {
      v = opt_num(r, "result", "clocks_per_shuffle");
      what = "clocks_per_shuffle";
    } else if (strcmp(a, "shuffle-rate") == 0) {
      v = opt_num(r, "result", "shuffles_per_sm_per_clock");
      what = "shuffles_per_sm_per_clock";
    }
    if (!what || !isfinite(v)) continue;
    char *key = g_strdup_printf("%s%s%s", a, *r->params_text ? " " : "", r->params_text);
    cJSON *e = cJSON_AddObjectToObject(o, key);
    cJSON_AddNumberToObject(e, what, v);
    if (strcmp(a, "launch-burst") == 0) add_opt(e, "span_ns_per_launch", opt_num(r, "result", "span_ns_per_launch"));
    if (strcmp(a, "shared-wavefronts") == 0) add_opt(e, "requests_per_sm_per_clock", opt_num(r, "result", "requests_per_sm_per_clock"));
    if (strcmp(a, "shuffle-latency") == 0) add_opt(e, "clocks_per_imad", opt_num(r, "result", "clocks_per_imad"));
    if (strcmp(a, "shuffle-rate") == 0) add_opt(e, "shuffles_per_sm_per_clock_by_duration", c->d.shuffle_rate_by_duration);
    char *l = rec_label(r);
    cJSON_AddStringToObject(e, "from", l);
    g_free(l);
    g_free(key);
  }
  return o;
}

static cJSON *calibration_json(const MsCalib *c, const char *command) {
  const MsCalDerived *d = &c->d;
  cJSON *cal = cJSON_CreateObject();
  cJSON_AddStringToObject(cal, "method",
                          "memsim calibrate: every key is a fixed function of the GPU's measured properties "
                          "(memsim-measure --workload calibrate); nothing is fitted to algorithm timings (docs/calibration.md)");
  if (command) cJSON_AddStringToObject(cal, "command", command);
  cJSON *files = cJSON_AddArrayToObject(cal, "records");
  for (guint i = 0; i < c->files->len; i++) cJSON_AddItemToArray(files, cJSON_CreateString(c->files->pdata[i]));
  cJSON_AddNumberToObject(cal, "calibrate_records", c->records->len);
  cJSON_AddNumberToObject(cal, "other_records_ignored", c->ignored);
  cJSON_AddItemToObject(cal, "device", cJSON_Duplicate(c->device, TRUE));
  cJSON_AddStringToObject(cal, "date", c->date);
  cJSON_AddStringToObject(cal, "git_commit", c->git_commit);
  cJSON_AddStringToObject(cal, "timing", c->timing);
  cJSON *o = figure(cal, "time_unit_ns", d->time_unit_ns, d->from_clock,
                    "1000 / sm_clock_mhz, sm_clock_mhz = params.cycles / median_ns * 1000 (one time unit = one SM clock)");
  cJSON_AddNumberToObject(o, "sm_clock_mhz", d->mhz);
  o = figure(cal, "group_words", d->group_words, d->from_stride32,
             "the power of two nearest to stride_ratio = ns per warp request at stride 32 / at stride 1 "
             "(a stride-32 request touches 32 groups, a stride-1 request 32 / group_words), within 1 .. width");
  cJSON_AddNumberToObject(o, "stride_ratio", d->stride_ratio);
  cJSON_AddStringToObject(o, "from_stride_1", d->from_stride1);
  cJSON *sn = cJSON_AddObjectToObject(o, "ns_per_warp_request");
  for (int k = 0; k < 6; k++)
    if (isfinite(d->stride_ns[k])) {
      char key[8];
      g_snprintf(key, sizeof key, "%d", 1 << k);
      cJSON_AddNumberToObject(sn, key, d->stride_ns[k]);
    }
  o = figure(cal, "global_rate", d->global_rate, d->from_copy,
             "round(copy_bytes_per_ns * time_unit_ns / (4 * group_words)), within 1 .. 4096; "
             "copy_bytes_per_ns = (bytes_read + bytes_written) / median_ns");
  cJSON_AddNumberToObject(o, "copy_bytes_per_ns", d->copy_bytes_per_ns);
  o = figure(cal, "global_latency", (double)d->global_latency, d->from_global, "round(result.clocks_per_hop)");
  cJSON_AddNumberToObject(o, "clocks_per_hop", d->global_clocks);
  o = figure(cal, "shared_latency", (double)d->shared_latency, d->from_shared, "round(result.clocks_per_hop)");
  cJSON_AddNumberToObject(o, "clocks_per_hop", d->shared_clocks);
  o = figure(cal, "launch_units", (double)d->launch_units, d->from_launch,
             c->launch_store ? "round(median_ns / time_unit_ns) - store_units, at least 0; store_units: the model's "
                               "time units, with launch_units 0, for the empty kernel's trace (thread 0 of one "
                               "block writes one word of a one-word footprint), so that the model takes the "
                               "measured time for it (--launch-store)"
                             : "round(median_ns / time_unit_ns)");
  cJSON_AddNumberToObject(o, "launch_ns", d->launch_ns);
  if (c->launch_store) {
    cJSON_AddNumberToObject(o, "gross_units", (double)d->launch_gross_units);
    cJSON_AddNumberToObject(o, "store_units", (double)d->launch_store_units);
  }
  figure(cal, "dmms", d->dmms, d->from_device, "device.sm_count");
  figure(cal, "width", d->width, d->from_device, "device.warp_size (32 if absent)");
  figure(cal, "resident_warps", (double)d->resident_warps, d->from_device, "device.max_threads_per_sm / warp_size");
  figure(cal, "resident_blocks", (double)d->resident_blocks, d->from_device, "device.max_blocks_per_sm");
  figure(cal, "shared_words_per_dmm", (double)d->shared_words_per_dmm, d->from_device, "device.shared_mem_per_sm / 4");
  if (d->from_l2sweep) {
    o = figure(cal, "l2_words", (double)d->l2_words, d->from_l2sweep,
               "floor(capacity / 4): capacity = the footprint where the copy bandwidth falls to (hi + lo) / 2, linear between "
               "the records around it; hi = the highest, lo = the largest footprint's");
    cJSON_AddNumberToObject(o, "capacity_bytes", d->l2_sweep_bytes);
    cJSON_AddNumberToObject(o, "hi_bytes_per_ns", d->l2_sweep_hi);
    cJSON_AddNumberToObject(o, "lo_bytes_per_ns", d->l2_sweep_lo);
  } else {
    figure(cal, "l2_words", (double)d->l2_words, d->from_device, "device.l2_bytes / 4");
  }
  o = figure(cal, "l2_latency", (double)d->l2_latency, d->from_l2chase, "round(result.clocks_per_hop)");
  cJSON_AddNumberToObject(o, "clocks_per_hop", d->l2_clocks);
  o = figure(cal, "l2_rate", d->l2_rate, d->from_l2read,
             "round(l2_bytes_per_ns * time_unit_ns / (4 * group_words)), within 1 .. 4096; l2_bytes_per_ns = bytes_read / median_ns");
  cJSON_AddNumberToObject(o, "l2_bytes_per_ns", d->l2_bytes_per_ns);
  if (d->from_load_loop) {
    o = figure(cal, "read_window", d->read_window, d->from_load_loop,
               "round(dram-chase clocks_per_hop / load-loop result.clocks_per_iteration), within 1 .. 64");
    cJSON_AddNumberToObject(o, "clocks_per_iteration", d->load_loop_clocks);
  }
  if (d->from_store_loop) {
    o = figure(cal, "posted_writes", d->posted_writes, d->from_store_loop,
               "store-loop result.clocks_per_iteration < dram-chase clocks_per_hop / 2");
    cJSON_ReplaceItemInObject(o, "value", cJSON_CreateBool(d->posted_writes));
    cJSON_AddNumberToObject(o, "clocks_per_iteration", d->store_loop_clocks);
  }
  if (d->from_fence) {
    o = figure(cal, c->posted_fences ? "l2_posted_fences" : "l2_posted_write_backs", d->posted_write_backs, d->from_fence,
               "store-fence-loop result.clocks_per_iteration at its largest footprint (beyond L2) <= 1.1 x at its "
               "smallest (within half the L2)");
    cJSON_ReplaceItemInObject(o, "value", cJSON_CreateBool(d->posted_write_backs));
    cJSON_AddNumberToObject(o, "clocks_per_iteration_in_l2", d->fence_l2_clocks);
    cJSON_AddNumberToObject(o, "clocks_per_iteration_beyond_l2", d->fence_clocks);
  }
  if (d->from_writes) {
    o = figure(cal, "partial_write_stages", d->partial_write_stages, d->from_writes,
               "round(ratio) - 1, within 0 .. 65535 / width - 1; ratio = the median over stride_words 2 .. 32 of "
               "strided-write ns per warp request / strided-read's (no store covers a whole sector)");
    cJSON_AddNumberToObject(o, "ratio", d->pw_ratio);
  }
  if (d->from_l2_writes) {
    o = figure(cal, "l2_partial_write_stages", d->l2_partial_write_stages, d->from_l2_writes,
               "the same rule with l2-strided-write and l2-strided-read (a 16 MiB footprint, in L2)");
    cJSON_AddNumberToObject(o, "ratio", d->l2_pw_ratio);
  }
  if (d->from_l2_write_rate) {
    o = figure(cal, "l2_write_rate", d->l2_write_rate, d->from_l2_write_rate,
               "round(l2_rate / ratio), within 1 .. 4096; ratio = l2-strided-write ns per warp request / "
               "l2-strided-read's at stride_words 1 (whole groups, a 16 MiB footprint in L2)");
    cJSON_AddNumberToObject(o, "ratio", d->l2_w1_ratio);
  }
  if (d->from_line) {
    o = figure(cal, "l2_line_words", (double)d->l2_line_words, d->from_line,
               "group_words x the power of two (1 .. 16) nearest to 128 x l2_words / capacity / group_words: capacity = the "
               "footprint where ns per load first exceeds 1.1 x the smallest, linear between the records around it");
    cJSON_AddNumberToObject(o, "capacity_bytes", d->line_bytes);
    cJSON_AddNumberToObject(o, "lo_ns_per_load", d->line_ns_lo);
  }
  if (d->from_blocks) {
    o = figure(cal, "block_start_units", (double)d->block_start_units, d->from_blocks,
               "round(ns / time_unit_ns): ns = the median over threads_per_block of (median_ns at the largest blocks_per_sm "
               "- at the one below) / (their difference)");
    cJSON_AddNumberToObject(o, "ns_per_block_per_sm", d->block_start_ns);
    if (c->no_block_starts) cJSON_AddStringToObject(o, "left_out", "--no-block-starts: derived, not a key of the model");
  }
  if (d->from_port) {
    o = figure(cal, "dmm_global_rate", d->dmm_global_rate, d->from_port,
               "round(the median over blocks k of 32 x warp_requests / k / (median_ns / time_unit_ns)), within 1 .. 4096: "
               "the groups one SM passes per time unit when each lane's word is in its own group");
    cJSON_AddNumberToObject(o, "groups_per_unit", d->port_groups_per_unit);
  }
  if (d->from_port_banks) {
    o = figure(cal, "dmm_port_banks", d->dmm_port_banks, d->from_port_banks,
               "round(the median over blocks k of (median_ns / time_unit_ns) / (warp_requests / k)), within 1 .. 64: "
               "the time units one SM takes for a coalesced read whose line is in L1 (a read takes max(this, its bank "
               "degree) port slots: sm-l1-strided-read at stride s <= 32 takes max(4, s) clocks, at 33 8.4, docs/calibration.md)");
    cJSON_AddNumberToObject(o, "clocks_per_request", d->port_min_clocks);
  }
  if (d->from_port_shared) {
    o = figure(cal, "dmm_port_shared", 1, d->from_port_shared,
               "with --dmm-port-shared: dmm_port_banks = round(the median clocks per global read of the records with "
               "shared_loads 0), and every record checked against max(G dmm_port_banks + H, G + H SS) clocks a warp "
               "round (the port, then the DMM's pipeline; docs/calibration.md, \"Shared and L1 reads\")");
    cJSON_AddNumberToObject(o, "clocks_per_global_read", d->lsu_read_clocks);
    cJSON_AddNumberToObject(o, "records_checked", d->lsu_checked);
    cJSON_AddNumberToObject(o, "largest_miss", d->lsu_max_miss);
  }
  if (d->from_l1) {
    o = figure(cal, "l1_words", (double)d->l1_words, d->from_l1,
               "the largest l1-sweep footprint whose clocks per hop are within 1.1 x the smallest footprint's, / 4");
    cJSON_AddNumberToObject(o, "capacity_bytes", d->l1_bytes);
    o = figure(cal, "l1_latency", (double)d->l1_latency, d->from_l1,
               "round(clocks per hop of the smallest l1-sweep footprint)");
    cJSON_AddNumberToObject(o, "clocks_per_hop", d->l1_clocks);
  }
  if (d->from_random) {
    o = figure(cal, "l2_partitions", d->l2_partitions, d->from_random,
               "round(4 * l2_words / capacity), within 1 .. 16: capacity = the footprint where ns per random load first "
               "exceeds 1.1 x the smallest, linear between the records around it");
    cJSON_AddNumberToObject(o, "capacity_bytes", d->random_bytes);
    cJSON_AddNumberToObject(o, "lo_ns_per_load", d->random_ns_lo);
  }
  if (d->from_dram) {
    o = figure(cal, "dram_lone_rate", d->dram_lone_rate, d->from_dram,
               "round(time_unit_ns / ns per random 4-byte load at the largest l2-random-sweep footprint), within 1 .. "
               "global_rate; dram_row_words is --dram-rows (a structure: 256 words, an HBM page of 1 KiB)");
    cJSON_AddNumberToObject(o, "footprint_bytes", d->random_bytes_hi);
    cJSON_AddNumberToObject(o, "ns_per_load", d->random_ns_hi);
  }
  if (d->from_dram_write) {
    o = figure(cal, "dram_lone_write_rate", d->dram_lone_write_rate, d->from_dram_write,
               "round(2 x time_unit_ns / ns per random 4-byte store at the largest l2-random-write-sweep footprint), "
               "within 1 .. global_rate: each store a lone partial write that misses, two slots (its fill and its "
               "write-back)");
    cJSON_AddNumberToObject(o, "footprint_bytes", d->write_bytes_hi);
    cJSON_AddNumberToObject(o, "ns_per_store", d->write_ns_hi);
  }
  if (d->from_loaded) {
    static const char rule[] =
        "per record (warps_per_sm ascending): [floor(u), round(result.clocks_per_hop)], u = 1000 x result.warps x "
        "ceil(32 / group_words) / clocks_per_hop / the path's rate (at most 1000); points kept while u >= 1.05 x the last "
        "kept one's (past that the path is saturated), latencies made non-decreasing";
    cJSON *o1 = cJSON_AddObjectToObject(cal, "global_loaded_latency");
    cJSON_AddStringToObject(o1, "from", d->from_loaded);
    cJSON_AddStringToObject(o1, "rule", rule);
    cJSON_AddStringToObject(o1, "rate", "global_rate");
    cJSON *o2 = cJSON_AddObjectToObject(cal, "l2_loaded_latency");
    cJSON_AddStringToObject(o2, "from", d->from_l2_loaded);
    cJSON_AddStringToObject(o2, "rule", rule);
    cJSON_AddStringToObject(o2, "rate", "l2_rate");
  }
  if (c->instructions) {
    o = figure(cal, "instruction_units", (double)d->instruction_units, d->from_shuffle_latency,
               "round(result.clocks_per_imad), at least 1: clocks per dependent IMAD of one warp's chain");
    cJSON_AddNumberToObject(o, "clocks_per_imad", d->shuffle_imad_clocks);
  }
  if (c->issue) {
    o = figure(cal, "issue_rate", (double)d->issue_rate, d->from_issue,
               "round(result.instructions_per_sm_per_clock) of the issue-rate record with the most warps_per_sm, at least "
               "1: warp instructions an SM issues per clock");
    cJSON_AddNumberToObject(o, "instructions_per_sm_per_clock", d->issue_sm_rate);
    cJSON_AddNumberToObject(o, "warps_per_sm", d->issue_sm_warps);
    cJSON_AddStringToObject(o, "op", d->issue_op);
    add_opt(o, "mixed_instructions_per_sm_per_clock", d->issue_mixed_rate);
    cJSON_AddNumberToObject(o, "lone_warp_clocks_per_instruction", d->issue_one_clocks);
    cJSON_AddNumberToObject(o, "lone_warp_warps_per_sm", d->issue_one_warps);
  }
  if (c->barriers) {
    const char *rule = "clocks per iteration = a + b x warps_per_block, least squares over the barrier-loop records of op "
                       "barrier at one block per SM; barrier_units = round(a), barrier_warp_units = round(b)";
    o = figure(cal, "barrier_units", (double)d->barrier_units, d->from_barriers, rule);
    cJSON_AddNumberToObject(o, "a", d->barrier_a);
    o = figure(cal, "barrier_warp_units", (double)d->barrier_warp_units, d->from_barriers, rule);
    cJSON_AddNumberToObject(o, "b", d->barrier_b);
  }
  if (c->shuffles) {
    o = figure(cal, "shuffle_units", (double)d->shuffle_units, d->from_shuffle_latency,
               "round(result.clocks_per_shuffle), at least 1: clocks per dependent __shfl_sync of one warp's chain");
    cJSON_AddNumberToObject(o, "clocks_per_shuffle", d->shuffle_clocks);
    add_opt(o, "clocks_per_imad", d->shuffle_imad_clocks);
    cJSON_AddNumberToObject(o, "shuffles_per_sm_per_clock", d->shuffle_rate);
    cJSON_AddNumberToObject(o, "shuffles_per_sm_per_clock_by_duration", d->shuffle_rate_by_duration);
    cJSON_AddStringToObject(o, "from_rate", d->from_shuffle_rate);
  }
  cJSON_AddItemToObject(cal, "recorded_not_used", recorded_json(c));
  return cal;
}

char *ms_calib_model_json(const MsCalib *c, const char *command) {
  g_return_val_if_fail(c->derived, NULL);
  return ms_calib_model_json_units(c, command);
}

static char *ms_calib_model_json_units(const MsCalib *c, const char *command) {
  const MsCalDerived *d = &c->d;
  cJSON *o = cJSON_CreateObject();
  char *name = g_strdup_printf("%s, grounded HMM", c->device_name);
  cJSON_AddStringToObject(o, "name", name);
  g_free(name);
  cJSON_AddStringToObject(o, "model", "hmm");
  cJSON_AddNumberToObject(o, "width", d->width);
  cJSON_AddNumberToObject(o, "dmms", d->dmms);
  cJSON_AddNumberToObject(o, "shared_latency", (double)d->shared_latency);
  cJSON_AddNumberToObject(o, "global_latency", (double)d->global_latency);
  cJSON_AddNumberToObject(o, "group_words", d->group_words);
  cJSON_AddNumberToObject(o, "global_rate", d->global_rate);
  cJSON_AddNumberToObject(o, "resident_warps", (double)d->resident_warps);
  cJSON_AddNumberToObject(o, "resident_blocks", (double)d->resident_blocks);
  cJSON_AddNumberToObject(o, "shared_words_per_dmm", (double)d->shared_words_per_dmm);
  cJSON_AddNumberToObject(o, "launch_units", (double)d->launch_units);
  cJSON_AddNumberToObject(o, "l2_words", (double)d->l2_words);
  cJSON_AddNumberToObject(o, "l2_latency", (double)d->l2_latency);
  cJSON_AddNumberToObject(o, "l2_rate", d->l2_rate);
  if (d->from_load_loop) cJSON_AddNumberToObject(o, "read_window", d->read_window);
  if (d->from_store_loop) cJSON_AddBoolToObject(o, "posted_writes", d->posted_writes);
  /* with the L2 cache a partial write that misses costs its fill: partial_write_stages goes */
  if (d->from_writes && !c->l2_ways) cJSON_AddNumberToObject(o, "partial_write_stages", d->partial_write_stages);
  if (d->from_l2_writes) cJSON_AddNumberToObject(o, "l2_partial_write_stages", d->l2_partial_write_stages);
  if (d->from_l2_write_rate) cJSON_AddNumberToObject(o, "l2_write_rate", d->l2_write_rate);
  if (c->l2_ways) cJSON_AddNumberToObject(o, "l2_ways", c->l2_ways);
  if (c->l2_ways && c->l2_hashed_sets) cJSON_AddBoolToObject(o, "l2_hashed_sets", TRUE);
  if (d->from_fence && d->posted_write_backs)
    cJSON_AddBoolToObject(o, c->posted_fences ? "l2_posted_fences" : "l2_posted_write_backs", TRUE);
  if (d->from_random && d->l2_partitions > 1) cJSON_AddNumberToObject(o, "l2_partitions", d->l2_partitions);
  if (c->l2_ways && c->l2_warm) cJSON_AddBoolToObject(o, "l2_warm", TRUE);
  if (c->l2_ways && c->l2_home && d->from_random && d->l2_partitions > 1) cJSON_AddBoolToObject(o, "l2_home_partitions", TRUE);
  if (d->from_dram) {
    cJSON_AddNumberToObject(o, "dram_row_words", (double)d->dram_row_words);
    cJSON_AddNumberToObject(o, "dram_lone_rate", d->dram_lone_rate);
    if (d->from_dram_write) cJSON_AddNumberToObject(o, "dram_lone_write_rate", d->dram_lone_write_rate);
  }
  if (d->from_line && d->l2_line_words > d->group_words) cJSON_AddNumberToObject(o, "l2_line_words", (double)d->l2_line_words);
  if (d->from_blocks && d->block_start_units && !c->no_block_starts) cJSON_AddNumberToObject(o, "block_start_units", (double)d->block_start_units);
  if (d->from_port) cJSON_AddNumberToObject(o, "dmm_global_rate", d->dmm_global_rate);
  if (d->from_port_banks) cJSON_AddNumberToObject(o, "dmm_port_banks", d->dmm_port_banks);
  if (d->from_port_shared) cJSON_AddBoolToObject(o, "dmm_port_shared", TRUE);
  if (d->from_l1) {
    cJSON_AddNumberToObject(o, "l1_words", (double)d->l1_words);
    cJSON_AddNumberToObject(o, "l1_latency", (double)d->l1_latency);
  }
  if (c->shuffles) cJSON_AddNumberToObject(o, "shuffle_units", (double)d->shuffle_units);
  if (c->instructions) cJSON_AddNumberToObject(o, "instruction_units", (double)d->instruction_units);
  if (c->issue) cJSON_AddNumberToObject(o, "issue_rate", d->issue_rate);
  if (c->barriers) {
    cJSON_AddNumberToObject(o, "barrier_units", (double)d->barrier_units);
    cJSON_AddNumberToObject(o, "barrier_warp_units", (double)d->barrier_warp_units);
  }
  if (d->from_loaded) {
    const MsLoadCurve *cv[2] = {&d->global_loaded, &d->l2_loaded};
    for (int k = 0; k < 2; k++) {
      cJSON *pts = cJSON_AddArrayToObject(o, k ? "l2_loaded_latency" : "global_loaded_latency");
      for (guint32 i = 0; i < cv[k]->n; i++) {
        cJSON *pt = cJSON_CreateArray();
        cJSON_AddItemToArray(pt, cJSON_CreateNumber(cv[k]->u[i]));
        cJSON_AddItemToArray(pt, cJSON_CreateNumber((double)cv[k]->lat[i]));
        cJSON_AddItemToArray(pts, pt);
      }
    }
  }
  cJSON_AddNumberToObject(o, "time_unit_ns", d->time_unit_ns);
  GString *files = g_string_new(NULL);
  char *desc = g_strdup_printf(
      "GPU-grounded HMM of the %s: %u DMMs (SMs), one time unit = one SM clock (%.1f MHz measured under load); "
      "every key derived by memsim calibrate from the GPU's calibration records (%s), none fitted to algorithm timings "
      "(docs/calibration.md)",
      c->device_name, d->dmms, d->mhz, files_text(c, files));
  g_string_free(files, TRUE);
  cJSON_AddStringToObject(o, "description", desc);
  g_free(desc);
  cJSON_AddItemToObject(o, "calibration", calibration_json(c, command));
  char *t = cJSON_Print(o);
  char *out = g_strdup_printf("%s\n", t);
  cJSON_free(t);
  cJSON_Delete(o);
  return out;
}

char *ms_calib_summary(const MsCalib *c) {
  g_return_val_if_fail(c->derived, NULL);
  const MsCalDerived *d = &c->d;
  GString *s = g_string_new(NULL), *files = g_string_new(NULL);
  g_string_append_printf(s, "memsim calibrate: %s (%u SMs), %u calibrate records from %s (%u other record%s ignored), "
                            "timing %s, recorded %s\n",
                         c->device_name, d->dmms, c->records->len, files_text(c, files), c->ignored,
                         c->ignored == 1 ? "" : "s", c->timing, c->date);
  g_string_free(files, TRUE);
  g_string_append_printf(s, "  %-21s %-9.6g SM clock %.1f MHz under load        %s\n", "time_unit_ns", d->time_unit_ns, d->mhz, d->from_clock);
  g_string_append_printf(s, "  %-21s %-9u ns per warp request, stride 32 / stride 1 = %.3g   %s\n", "group_words", d->group_words,
                         d->stride_ratio, d->from_stride32);
  g_string_append_printf(s, "  %-21s %-9u DRAM copy %.1f bytes/ns = %.1f bytes per clock   %s\n", "global_rate", d->global_rate,
                         d->copy_bytes_per_ns, d->copy_bytes_per_ns * d->time_unit_ns, d->from_copy);
  g_string_append_printf(s, "  %-21s %-9" G_GUINT64_FORMAT " %.1f clocks per hop   %s\n", "global_latency", d->global_latency,
                         d->global_clocks, d->from_global);
  g_string_append_printf(s, "  %-21s %-9" G_GUINT64_FORMAT " %.1f clocks per hop   %s\n", "shared_latency", d->shared_latency,
                         d->shared_clocks, d->from_shared);
  if (c->launch_store)
    g_string_append_printf(s, "  %-21s %-9" G_GUINT64_FORMAT " empty 1-block kernel %.0f ns, less its store's %" G_GUINT64_FORMAT
                              " units   %s\n", "launch_units", d->launch_units, d->launch_ns, d->launch_store_units, d->from_launch);
  else
    g_string_append_printf(s, "  %-21s %-9" G_GUINT64_FORMAT " empty 1-block kernel %.0f ns   %s\n", "launch_units", d->launch_units,
                           d->launch_ns, d->from_launch);
  g_string_append_printf(s, "  %-21s %-9" G_GUINT64_FORMAT " %.1f clocks per hop   %s\n", "l2_latency", d->l2_latency,
                         d->l2_clocks, d->from_l2chase);
  g_string_append_printf(s, "  %-21s %-9u L2 read %.1f bytes/ns = %.1f bytes per clock   %s\n", "l2_rate", d->l2_rate,
                         d->l2_bytes_per_ns, d->l2_bytes_per_ns * d->time_unit_ns, d->from_l2read);
  if (d->from_load_loop)
    g_string_append_printf(s, "  %-21s %-9u one-warp load loop %.1f clocks per iteration   %s\n", "read_window", d->read_window,
                           d->load_loop_clocks, d->from_load_loop);
  else
    g_string_append_printf(s, "  %-21s %-9u no load-loop record (the papers' rule: each request completes first)\n", "read_window", 1u);
  if (d->from_store_loop)
    g_string_append_printf(s, "  %-21s %-9s one-warp store loop %.1f clocks per iteration   %s\n", "posted_writes",
                           d->posted_writes ? "true" : "false", d->store_loop_clocks, d->from_store_loop);
  else
    g_string_append_printf(s, "  %-21s %-9s no store-loop record (the papers' rule)\n", "posted_writes", "false");
  if (d->from_fence)
    g_string_append_printf(s, "  %-21s %-9s one-warp store and fence %.1f clocks per iteration in L2, %.1f beyond   %s\n",
                           c->posted_fences ? "l2_posted_fences" : "l2_posted_write_backs",
                           d->posted_write_backs ? "true" : "false", d->fence_l2_clocks,
                           d->fence_clocks, d->from_fence);
  if (d->from_writes)
    g_string_append_printf(s, "  %-21s %-9u partial-sector store / read %.3g (median, strides 2 .. 32)   %s\n",
                           "partial_write_stages", d->partial_write_stages, d->pw_ratio, d->from_writes);
  if (d->from_l2_writes)
    g_string_append_printf(s, "  %-21s %-9u the same in L2 %.3g   %s\n", "l2_partial_write_stages",
                           d->l2_partial_write_stages, d->l2_pw_ratio, d->from_l2_writes);
  if (d->from_l2_write_rate)
    g_string_append_printf(s, "  %-21s %-9u whole write / read in L2 %.3g: l2_rate / it   %s\n", "l2_write_rate",
                           d->l2_write_rate, d->l2_w1_ratio, d->from_l2_write_rate);
  if (d->from_l2sweep)
    g_string_append_printf(s, "  %-21s %-9" G_GUINT64_FORMAT " copy %.0f bytes/ns in L2, %.0f beyond: half at %.1f MiB   %s\n",
                           "l2_words", d->l2_words, d->l2_sweep_hi, d->l2_sweep_lo, d->l2_sweep_bytes / 1048576, d->from_l2sweep);
  if (d->from_line)
    g_string_append_printf(s, "  %-21s %-9" G_GUINT64_FORMAT " one load per line %.4f ns in L2, 1.1 x at %.1f MiB   %s\n",
                           "l2_line_words", d->l2_line_words, d->line_ns_lo, d->line_bytes / 1048576, d->from_line);
  if (d->from_blocks)
    g_string_append_printf(s, "  %-21s %-9" G_GUINT64_FORMAT " %.2f ns per block per SM   %s\n", "block_start_units",
                           d->block_start_units, d->block_start_ns, d->from_blocks);
  if (d->from_port)
    g_string_append_printf(s, "  %-21s %-9u %.3f groups per SM per time unit at stride 32   %s\n", "dmm_global_rate",
                           d->dmm_global_rate, d->port_groups_per_unit, d->from_port);
  if (d->from_port_banks)
    g_string_append_printf(s, "  %-21s %-9u %.2f clocks per coalesced read in L1, one SM   %s\n", "dmm_port_banks",
                           d->dmm_port_banks, d->port_min_clocks, d->from_port_banks);
  if (d->from_port_shared)
    g_string_append_printf(s, "  %-21s %-9s %u mixed records within %.1f%% of the two stages' bound   %s\n", "dmm_port_shared", "true",
                           d->lsu_checked, 100.0 * d->lsu_max_miss, d->from_port_shared);
  if (d->from_l1) {
    g_string_append_printf(s, "  %-21s %-9" G_GUINT64_FORMAT " the L1 chase holds %.0f KiB at %.2f clocks per hop   %s\n",
                           "l1_words", d->l1_words, d->l1_bytes / 1024, d->l1_clocks, d->from_l1);
    g_string_append_printf(s, "  %-21s %-9" G_GUINT64_FORMAT " clocks per hop of the smallest footprint   %s\n",
                           "l1_latency", d->l1_latency, d->from_l1);
  }
  if (d->from_random)
    g_string_append_printf(s, "  %-21s %-9u random loads %.4f ns each in L2, 1.1 x at %.1f MiB   %s\n", "l2_partitions",
                           d->l2_partitions, d->random_ns_lo, d->random_bytes / 1048576, d->from_random);
  if (d->from_dram)
    g_string_append_printf(s, "  %-21s %-9u random loads %.4f ns each at %.0f MiB (rows of %" G_GUINT64_FORMAT " words)   %s\n",
                           "dram_lone_rate", d->dram_lone_rate, d->random_ns_hi, d->random_bytes_hi / 1048576,
                           d->dram_row_words, d->from_dram);
  if (d->from_dram_write)
    g_string_append_printf(s, "  %-21s %-9u random stores %.4f ns each at %.0f MiB (two lone slots each)   %s\n",
                           "dram_lone_write_rate", d->dram_lone_write_rate, d->write_ns_hi, d->write_bytes_hi / 1048576,
                           d->from_dram_write);
  if (d->from_shuffle_latency) {
    char *units = c->shuffles ? g_strdup_printf("%" G_GUINT64_FORMAT, d->shuffle_units) : g_strdup("-");
    char *imad = isfinite(d->shuffle_imad_clocks) ? g_strdup_printf(" (IMAD in the same loop %.2f)", d->shuffle_imad_clocks)
                                                  : g_strdup("");
    g_string_append_printf(s, "  %-21s %-9s dependent shuffle %.2f clocks%s%s   %s\n", "shuffle_units", units, d->shuffle_clocks,
                           imad, c->shuffles ? "" : "; left out (--shuffles adds it)", d->from_shuffle_latency);
    g_free(units);
    g_free(imad);
    if (c->instructions)
      g_string_append_printf(s, "  %-21s %-9" G_GUINT64_FORMAT " dependent IMAD %.2f clocks   %s\n", "instruction_units",
                             d->instruction_units, d->shuffle_imad_clocks, d->from_shuffle_latency);
  }
  if (d->from_barriers)
    g_string_append_printf(s, "  %-21s %-9" G_GUINT64_FORMAT " a block barrier %.2f + %.2f clocks per warp (%u records)   %s\n"
                              "  %-21s %-9" G_GUINT64_FORMAT "\n",
                           "barrier_units", d->barrier_units, d->barrier_a, d->barrier_b, d->barrier_records, d->from_barriers,
                           "barrier_warp_units", d->barrier_warp_units);
  if (d->from_issue) {
    g_string_append_printf(s, "  %-21s %-9u %.2f warp instructions per SM per clock (%g warps per SM; both pipes %.2f; a lone warp "
                           "%.2f clocks each)   %s\n",
                           "issue_rate", d->issue_rate, d->issue_sm_rate, d->issue_sm_warps, d->issue_mixed_rate,
                           d->issue_one_clocks, d->from_issue);
  }
  const MsLoadCurve *cv[2] = {&d->global_loaded, &d->l2_loaded};
  const char *cfrom[2] = {d->from_loaded, d->from_l2_loaded};
  for (int k = 0; k < 2; k++) {
    if (!cfrom[k]) continue;
    GString *pts = g_string_new(NULL);
    for (guint32 i = 0; i < cv[k]->n; i++)
      g_string_append_printf(pts, "%s%u:%" G_GUINT64_FORMAT, i ? " " : "", cv[k]->u[i], cv[k]->lat[i]);
    g_string_append_printf(s, "  %-21s %u points, utilization per mille:latency %s   %s\n",
                           k ? "l2_loaded_latency" : "global_loaded_latency", cv[k]->n, pts->str, cfrom[k]);
    g_string_free(pts, TRUE);
  }
  if (d->from_shuffle_rate)
    g_string_append_printf(s, "  %-21s %-9.3g warp shuffles per SM per clock (%.3g by the kernel's duration), not used   %s\n",
                           "shuffle rate", d->shuffle_rate, d->shuffle_rate_by_duration, d->from_shuffle_rate);
  g_string_append_printf(s, "  from %s: dmms %u, width %u, resident_warps %" G_GUINT64_FORMAT ", resident_blocks %" G_GUINT64_FORMAT
                            ", shared_words_per_dmm %" G_GUINT64_FORMAT,
                         (char *)c->files->pdata[0], d->dmms, d->width, d->resident_warps, d->resident_blocks,
                         d->shared_words_per_dmm);
  if (!d->from_l2sweep) g_string_append_printf(s, ", l2_words %" G_GUINT64_FORMAT, d->l2_words);
  g_string_append_c(s, '\n');
  return g_string_free(s, FALSE);
}
