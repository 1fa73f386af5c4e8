/* ms-compare.c: measurement records, the record -> trace mapping and the simulations of
 * `memsim compare` (docs/validation.md). */
#include "ms-compare.h"
#include "ms-workloads.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

static const char *const families[] = {"permutation", "sat", "gcd", "bpbc", "simple", "bulk", "gf2", "mul", NULL};

/* --reduced: above these caps a record's work parameter is reduced and the prediction scaled
 * (docs/validation.md, "Reduced simulations"); by default every record runs at full size. */
#define SAT_N_CAP 1024u
#define GCD_INSTANCES_CAP 1024u
#define LIFE_SIZE_CAP 1024u

static void rec_free(gpointer p) {
  MsCmpRecord *r = p;
  g_free(r->file);
  g_free(r->device);
  g_free(r->workload);
  g_free(r->algorithm);
  g_free(r->params_text);
  if (r->params) g_hash_table_unref(r->params);
  g_free(r->skip);
  g_free(r->sim_family);
  g_free(r->sim_algorithm);
  g_free(r->sim_text);
  g_free(r->sim_shape);
  g_free(r);
}

static void counter_free(gpointer p) {
  MsCmpCounter *c = p;
  g_free(c->workload);
  g_free(c->algorithm);
  g_free(c->params_text);
  g_free(c->note);
  g_free(c);
}

MsCompare *ms_cmp_new(const char *model_path, GError **error) {
  MsModel *m = ms_model_load(model_path, error);
  if (!m) return NULL;
  MsCompare *c = g_new0(MsCompare, 1);
  c->model = m;
  c->model_path = g_strdup(model_path);
  c->records = g_ptr_array_new_with_free_func(rec_free);
  c->counters = g_ptr_array_new_with_free_func(counter_free);
  c->families = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  c->notes = g_ptr_array_new_with_free_func(g_free);
  c->jobs = 1;
  c->exact = TRUE;
  g_mutex_init(&c->cache_lock);
  return c;
}

void ms_cmp_free(MsCompare *c) {
  if (!c) return;
  ms_model_free(c->model);
  g_free(c->model_path);
  g_ptr_array_free(c->records, TRUE);
  g_ptr_array_free(c->counters, TRUE);
  g_hash_table_destroy(c->families);
  g_ptr_array_free(c->notes, TRUE);
  if (c->cache) g_hash_table_destroy(c->cache);
  g_free(c->cache_path);
  g_mutex_clear(&c->cache_lock);
  g_free(c->cal.train_spec);
  g_free(c->cal.method);
  g_free(c);
}

/* ---- reading measurement records ---------------------------------------------------- */

static gboolean bad(GError **error, const char *file, guint i, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static gboolean bad(GError **error, const char *file, guint i, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: record %u: %s", file, i, msg);
  g_free(msg);
  return FALSE;
}

static const char *json_type(const cJSON *j) {
  if (cJSON_IsNumber(j)) return "a number";
  if (cJSON_IsString(j)) return "a string";
  if (cJSON_IsBool(j)) return "a boolean";
  if (cJSON_IsNull(j)) return "null";
  if (cJSON_IsArray(j)) return "an array";
  return "an object";
}

/* Kernel-duration statistics (min_, avg_, max_, median_...) in another unit than ns: the
 * harness writes them in ns only.  Other extras (e.g. the host's colouring_host_s) are not
 * kernel times and may carry their own unit. */
static gboolean is_foreign_unit(const char *key) {
  static const char *const stats[] = {"min_", "avg_", "max_", "median_", NULL};
  static const char *const suffixes[] = {"_us", "_ms", "_s", "_ps", "_sec", "_cycles", "_clocks", NULL};
  gboolean stat = FALSE;
  for (int i = 0; stats[i]; i++) stat |= g_str_has_prefix(key, stats[i]);
  if (!stat) return FALSE;
  for (int i = 0; suffixes[i]; i++)
    if (g_str_has_suffix(key, suffixes[i])) return TRUE;
  return FALSE;
}

char *ms_cmp_param_value(const cJSON *v);
/* A parameter as the families read it: numbers in decimal, booleans "0"/"1". */
char *ms_cmp_param_value(const cJSON *v) {
  if (cJSON_IsString(v)) return g_strdup(v->valuestring);
  if (cJSON_IsBool(v)) return g_strdup(cJSON_IsTrue(v) ? "1" : "0");
  if (cJSON_IsNumber(v)) {
    double d = v->valuedouble;
    if (d == floor(d) && fabs(d) < 9007199254740992.0) return g_strdup_printf("%" G_GINT64_FORMAT, (gint64)d);
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    return g_strdup(g_ascii_formatd(buf, sizeof buf, "%.15g", d));
  }
  return NULL;
}

static gboolean read_record(MsCompare *cmp, const char *file, const char *device, guint i,
                            const cJSON *j, GError **error) {
  if (!cJSON_IsObject(j)) return bad(error, file, i, "expected an object, got %s", json_type(j));
  const cJSON *it;
  cJSON_ArrayForEach(it, j) {
    if (is_foreign_unit(it->string))
      return bad(error, file, i, "unknown unit in \"%s\" (times must be in ns, e.g. \"median_ns\")", it->string);
    if (strcmp(it->string, "unit") == 0 || strcmp(it->string, "units") == 0) {
      if (!cJSON_IsString(it) || strcmp(it->valuestring, "ns") != 0)
        return bad(error, file, i, "unknown unit \"%s\" in \"%s\" (times must be in ns)",
                   cJSON_IsString(it) ? it->valuestring : json_type(it), it->string);
    }
  }
  static const struct { const char *key; int type; } required[] = {
      {"workload", 's'}, {"algorithm", 's'}, {"params", 'o'}, {"median_ns", 'n'},
      {"kernels_per_call", 'n'}, {"verified", 'b'}};
  for (guint k = 0; k < G_N_ELEMENTS(required); k++) {
    it = cJSON_GetObjectItemCaseSensitive(j, required[k].key);
    if (!it) return bad(error, file, i, "missing field \"%s\"", required[k].key);
    gboolean ok = required[k].type == 's' ? cJSON_IsString(it) : required[k].type == 'o' ? cJSON_IsObject(it)
                : required[k].type == 'n' ? cJSON_IsNumber(it) : cJSON_IsBool(it);
    if (!ok)
      return bad(error, file, i, "field \"%s\" must be %s, got %s", required[k].key,
                 required[k].type == 's' ? "a string" : required[k].type == 'o' ? "an object"
                 : required[k].type == 'n' ? "a number" : "a boolean", json_type(it));
  }
  double med = cJSON_GetObjectItemCaseSensitive(j, "median_ns")->valuedouble;
  if (!(med > 0) || !isfinite(med)) return bad(error, file, i, "field \"median_ns\" must be positive, got %g", med);
  double kpc = cJSON_GetObjectItemCaseSensitive(j, "kernels_per_call")->valuedouble;
  if (!(kpc >= 0) || kpc != floor(kpc) || kpc > 1e9)
    return bad(error, file, i, "field \"kernels_per_call\" must be a non-negative integer, got %g", kpc);
  MsCmpRecord *r = g_new0(MsCmpRecord, 1);
  r->index = i;
  r->file = g_strdup(file);
  r->device = g_strdup(device);
  r->workload = g_strdup(cJSON_GetObjectItemCaseSensitive(j, "workload")->valuestring);
  r->algorithm = g_strdup(cJSON_GetObjectItemCaseSensitive(j, "algorithm")->valuestring);
  r->median_ns = med;
  r->launches = (guint64)kpc;
  r->verified = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "verified"));
  r->params = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  r->scale = 1;
  r->replicas = 1;
  r->repeats = 1;
  GString *pt = g_string_new(NULL);
  cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(j, "params")) {
    char *v = ms_cmp_param_value(it);
    if (!v) {
      g_string_free(pt, TRUE);
      rec_free(r);
      return bad(error, file, i, "params.%s must be a number, string or boolean, got %s", it->string, json_type(it));
    }
    g_string_append_printf(pt, "%s%s=%s", pt->len ? " " : "", it->string, v);
    g_hash_table_replace(r->params, g_strdup(it->string), v);
  }
  /* Record-level extras the mapping needs (docs/measurements.md): positive integers. */
  static const char *const extras[] = {"inner_repeats", "threads_per_block", "steps_per_launch", "strip_rows",
                                       "words_per_warp", "strip_columns", "cols_per_thread", "chunks_ahead", NULL};
  for (int x = 0; extras[x]; x++) {
    it = cJSON_GetObjectItemCaseSensitive(j, extras[x]);
    if (!it) continue;
    if (!cJSON_IsNumber(it) || it->valuedouble < 1 || it->valuedouble != floor(it->valuedouble) || it->valuedouble > 1e15) {
      g_string_free(pt, TRUE);
      rec_free(r);
      return bad(error, file, i, "field \"%s\" must be a positive integer, got %s", extras[x],
                 cJSON_IsNumber(it) ? "a number out of range" : json_type(it));
    }
    g_hash_table_replace(r->params, g_strdup_printf(" %s", extras[x]), ms_cmp_param_value(it));
  }
  /* "table": where the kernel keeps a DMM permutation's tables (kernels/permutation.cu:
   * "register" = loaded once, held across the inner repeats). */
  it = cJSON_GetObjectItemCaseSensitive(j, "table");
  if (it) {
    if (!cJSON_IsString(it) || !*it->valuestring) {
      g_string_free(pt, TRUE);
      rec_free(r);
      return bad(error, file, i, "field \"table\" must be a non-empty string, got %s", json_type(it));
    }
    g_hash_table_replace(r->params, g_strdup(" table"), g_strdup(it->valuestring));
  }
  r->params_text = g_string_free(pt, FALSE);
  if (!r->verified) {
    it = cJSON_GetObjectItemCaseSensitive(j, "failure");
    r->skip = g_strdup_printf("not verified on the GPU (%s): skipped, not fitted",
                              cJSON_IsString(it) ? it->valuestring : "no reason recorded");
    g_ptr_array_add(cmp->notes, g_strdup_printf("%s: record %u (%s %s %s): %s", file, i, r->workload,
                                                r->algorithm, r->params_text, r->skip));
  }
  g_ptr_array_add(cmp->records, r);
  return TRUE;
}

static char *params_to_text(GHashTable *h);

/* A family re-recorded (a reworked kernel) goes in a file of its own, named after the
 * older one: a record of a later file replaces every earlier record of the same device,
 * workload, algorithm and parameters (extras included, but see supersede_text), which is
 * then not reported.
 * One note per older file says how many were replaced. */
/* The parameters that identify a measurement for supersede(): all of them, extras included,
 * except the extras that name a reworked kernel's configuration: " strip_columns", which
 * the reworked hmm-scheduled (2026-11-25) adds to the same measurement (its records replace
 * the five-kernel ones), and " strip_rows" and " cols_per_thread" of 1r1w-lookback (strips
 * of 16 rows on 2026-11-25, of 32 on 2026-11-26, loads a chunk ahead with " chunks_ahead" on
 * 2026-11-27: each replaces the one before). */
static char *supersede_text(GHashTable *params) {
  static const char *const kernel_keys[] = {" strip_columns", " strip_rows", " cols_per_thread", " chunks_ahead", NULL};
  gboolean any = FALSE;
  for (const char *const *k = kernel_keys; *k; k++) any = any || g_hash_table_contains(params, *k);
  if (!any) return params_to_text(params);
  GHashTable *h = g_hash_table_new(g_str_hash, g_str_equal);
  GHashTableIter it;
  gpointer key, val;
  g_hash_table_iter_init(&it, params);
  while (g_hash_table_iter_next(&it, &key, &val))
    if (!g_strv_contains(kernel_keys, key)) g_hash_table_insert(h, key, val);
  char *t = params_to_text(h);
  g_hash_table_destroy(h);
  return t;
}

static void supersede(MsCompare *cmp, guint first, const char *path) {
  GHashTable *newer = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (guint k = first; k < cmp->records->len; k++) {
    const MsCmpRecord *r = g_ptr_array_index(cmp->records, k);
    char *pt = supersede_text(r->params);
    g_hash_table_add(newer, g_strdup_printf("%s\t%s\t%s\t%s", r->device, r->workload, r->algorithm, pt));
    g_free(pt);
  }
  GHashTable *count = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *order = g_ptr_array_new();
  guint k = 0;
  while (k < first) {
    MsCmpRecord *r = g_ptr_array_index(cmp->records, k);
    char *pt = supersede_text(r->params);
    char *key = g_strdup_printf("%s\t%s\t%s\t%s", r->device, r->workload, r->algorithm, pt);
    g_free(pt);
    gboolean gone = g_hash_table_contains(newer, key);
    g_free(key);
    if (!gone) {
      k++;
      continue;
    }
    gpointer n = g_hash_table_lookup(count, r->file);
    if (!n) g_ptr_array_add(order, g_strdup(r->file));
    g_hash_table_replace(count, g_strdup(r->file), GUINT_TO_POINTER(GPOINTER_TO_UINT(n) + 1));
    g_ptr_array_remove_index(cmp->records, k); /* keeps the order; frees the record */
    first--;
  }
  for (guint f = 0; f < order->len; f++) {
    guint n = GPOINTER_TO_UINT(g_hash_table_lookup(count, order->pdata[f]));
    g_ptr_array_add(cmp->notes, g_strdup_printf("%s: %u record%s replaced by the same record%s of %s (not reported)",
                                                (char *)order->pdata[f], n, n == 1 ? "" : "s", n == 1 ? "" : "s",
                                                path));
    g_free(order->pdata[f]);
  }
  g_ptr_array_free(order, TRUE);
  g_hash_table_destroy(count);
  g_hash_table_destroy(newer);
}

gboolean ms_cmp_read_measurements(MsCompare *cmp, const char *path, GError **error) {
  gchar *text = NULL;
  gsize len = 0;
  GError *e = NULL;
  if (!ms_file_check(path, error)) return FALSE;
  if (!g_file_get_contents(path, &text, &len, &e)) {
    g_set_error(error, MS_ERROR, MS_ERROR_IO, "%s: %s", path, e->message);
    g_error_free(e);
    return FALSE;
  }
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, FALSE);
  gboolean ok = FALSE;
  if (!root) {
    guint line = 1, col = 1;
    for (const char *p = text; end && p < end && p < text + len; p++) {
      if (*p == '\n') line++, col = 1;
      else col++;
    }
    g_set_error(error, MS_ERROR, MS_ERROR_SYNTAX, "%s:%u:%u: not valid JSON", path, line, col);
    goto out;
  }
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "memsim_measurements");
  if (!cJSON_IsNumber(v) || v->valuedouble != 1) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: not a memsim measurement file (expected \"memsim_measurements\": 1)", path);
    goto out;
  }
  const cJSON *dev = cJSON_GetObjectItemCaseSensitive(root, "device");
  const cJSON *dn = cJSON_GetObjectItemCaseSensitive(dev, "name");
  const cJSON *recs = cJSON_GetObjectItemCaseSensitive(root, "records");
  if (!cJSON_IsArray(recs)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: missing field \"records\" (an array)", path);
    goto out;
  }
  guint i = 0, first = cmp->records->len;
  const cJSON *r;
  cJSON_ArrayForEach(r, recs) {
    if (!read_record(cmp, path, cJSON_IsString(dn) ? dn->valuestring : "unknown device", i++, r, error)) goto out;
  }
  supersede(cmp, first, path);
  ok = TRUE;
out:
  cJSON_Delete(root);
  g_free(text);
  return ok;
}

/* ---- from a record to a trace -------------------------------------------------------- */

static char *params_to_text(GHashTable *h) {
  GList *keys = g_list_sort(g_hash_table_get_keys(h), (GCompareFunc)strcmp);
  GString *s = g_string_new(NULL);
  for (GList *l = keys; l; l = l->next)
    g_string_append_printf(s, "%s%s=%s", s->len ? " " : "", (char *)l->data, (char *)g_hash_table_lookup(h, l->data));
  g_list_free(keys);
  return g_string_free(s, FALSE);
}

static gboolean param_u64(GHashTable *h, const char *key, guint64 *out) {
  const char *v = g_hash_table_lookup(h, key);
  if (!v) return FALSE;
  char *end = NULL;
  guint64 x = g_ascii_strtoull(v, &end, 10);
  if (!*v || *end) return FALSE;
  *out = x;
  return TRUE;
}

static guint64 param_or(GHashTable *h, const char *key, guint64 def) {
  guint64 x;
  return param_u64(h, key, &x) ? x : def;
}

static void set_u64(GHashTable *h, const char *key, guint64 v) {
  g_hash_table_replace(h, g_strdup(key), g_strdup_printf("%" G_GUINT64_FORMAT, v));
}

/* Threads per block of the kernels whose generators group threads otherwise (one block for
 * all, or the generator's own tiles); the kernels' launch configurations in kernels/.
 * `tiles`: the generator's block barriers stay within groups of this size. */
typedef struct {
  const char *family, *algorithm;
  guint64 threads;
  gboolean tiles;
} KernelBlock;

static const KernelBlock kernel_blocks[] = {
    {"permutation", "hmm-d-designated", 256, FALSE}, /* hmm_d_designated<<<n / 256, 256>>> */
    {"permutation", "hmm-s-designated", 256, FALSE},
    {"permutation", "hmm-transpose", 1024, TRUE},    /* 32 x 8 threads x 4 rows = one 32 x 32 tile */
    /* hmm_row_wise<<<nbar, min(nbar, 1024)>>> and hmm_transpose's 32 x 32 tiles: a row of
     * nbar > 1024 elements is one kernel block iterating nbar / 1024 times, here nbar / 1024
     * blocks of one iteration each (same residency: 32 warps, two blocks per SM), whose
     * row-wise barriers join one iteration's threads rather than the row's */
    {"permutation", "hmm-scheduled", 1024, TRUE},
    {"gcd", NULL, 128, FALSE},                       /* gcd_kernel<<<grid, 128>>> (or threads_per_block) */
    {"bpbc", "pairwise-sum", 256, FALSE},
    {"bpbc", "pairwise-sum-naive", 256, FALSE},
    {"bpbc", "life-word", 256, FALSE},               /* 32 x 8 cells */
    {"bpbc", "life-single", 128, FALSE},
    {"bpbc", "life-double", 128, FALSE},
};

static void set_shape(MsCmpRecord *r, char *shape) {
  g_free(r->sim_shape);
  r->sim_shape = shape;
}

static void map_permutation(const MsCompare *cmp, MsCmpRecord *r, GHashTable *p, const char **alg) {
  /* thrust::scatter(a, a+n, P, b) is b[P[i]] = a[i]: the destination-designated rule. */
  if (strcmp(*alg, "thrust-scatter") == 0) *alg = "hmm-d-designated";
  /* kernels/permutation.cu hmm_transpose: the comparer's own trace, 4 rows per thread
   * (ms-compare-traces.c, since 2026-11-25) */
  if (strcmp(*alg, "hmm-transpose") == 0 && param_or(p, "elem_words", 1) == 1) *alg = "hmm-transpose-kernel";
  /* hmm-scheduled: kernels/permutation.cu's hmm_row_wise reads one packed word s | d << 16 per
   * element, and the five kernels pass the data through two scratch arrays in turn (since
   * 2026-11-25; the paper's layout reads s and d apart and uses four) */
  if (strcmp(*alg, "hmm-scheduled") == 0) g_hash_table_replace(p, g_strdup("table"), g_strdup("packed"));
  /* since 2026-11-25 the column round is one kernel over strips of `strip_columns` columns
   * and the row-wise kernels permute in place (the record says so); earlier records ran the
   * five kernels */
  const char *sc = g_hash_table_lookup(r->params, " strip_columns");
  if (strcmp(*alg, "hmm-scheduled") == 0 && sc) {
    g_hash_table_replace(p, g_strdup("column"), g_strdup("strips"));
    g_hash_table_replace(p, g_strdup("strip"), g_strdup(sc));
  }
  if (!g_str_has_prefix(*alg, "hmm-")) {
    /* kernels/permutation.cu dmm_permute: `blocks` blocks, each permuting inner_repeats
     * times; --reduced runs one block per DMM and scales by blocks / DMMs. */
    guint64 blocks = param_or(p, "blocks", 1), reps = param_or(r->params, " inner_repeats", 1);
    guint64 d = ms_model_is_hmm(cmp->model) ? cmp->model->dmms : 1;
    r->replicas = cmp->exact ? blocks : MIN(blocks, d);
    r->repeats = reps;
    r->scale = (double)blocks / (double)r->replicas;
    set_shape(r, g_strdup_printf("kernel blocks=%" G_GUINT64_FORMAT " passes=%" G_GUINT64_FORMAT, r->replicas, reps));
    /* The record's "table" is the family's `table` (DMM algorithms only). */
    const char *tab = g_hash_table_lookup(r->params, " table");
    if (tab) g_hash_table_replace(p, g_strdup("table"), g_strdup(tab));
  }
  g_hash_table_remove(p, "blocks");
}

static void map_sat(const MsCompare *cmp, MsCmpRecord *r, GHashTable *p, const char **alg) {
  guint64 x;
  /* 1r1w-lookback and copy: the comparer's own traces of kernels/sat.cu (ms-compare-traces.c) */
  if (strcmp(*alg, "1r1w-lookback") == 0) {
    /* the trace is of the kernel the record names (strip_rows, cols_per_thread: 16 and 4 from
     * 2026-11-25, 32 and 2 from 2026-11-26); a record without them is of the first kernel
     * (strips of 32 rows, a warp scan per row, before 2026-11-25), which has no trace here */
    const char *sr = g_hash_table_lookup(r->params, " strip_rows");
    const char *cv = g_hash_table_lookup(r->params, " cols_per_thread");
    if (!sr && !r->skip)
      r->skip = g_strdup("recorded without strip_rows: the first look-back kernel (before 2026-11-25), "
                         "which has no trace here: skipped");
    if (sr) g_hash_table_replace(p, g_strdup("strip_rows"), g_strdup(sr));
    if (cv) g_hash_table_replace(p, g_strdup("cols_per_thread"), g_strdup(cv));
    const char *ca = g_hash_table_lookup(r->params, " chunks_ahead"); /* since 2026-11-27, eighth session */
    if (ca) g_hash_table_replace(p, g_strdup("chunks_ahead"), g_strdup(ca));
    *alg = "1r1w-lookback-kernel";
  }
  if (strcmp(*alg, "copy") == 0) *alg = "copy-kernel"; /* 16-byte vectors, grid-stride (since 2026-11-25) */
  /* kernels/sat.cu sat_1r1w_stage's own accesses (since 2026-11-27; the generator's 1r1w is the
   * seed's stage, which the kernel is not: ms_cmp_sat_1r1w_stages) */
  if (strcmp(*alg, "1r1w") == 0 && (!param_u64(p, "block", &x) || x == 32)) *alg = "1r1w-stage-kernels";
  /* one kernel of ordered tiles, waiting on flags (ms_cmp_sat_ordered) */
  if (strcmp(*alg, "1r1w-ordered") == 0) *alg = "1r1w-ordered-kernel";
  if (strcmp(*alg, "1+r-ordered") == 0) *alg = "1+r-ordered-kernels";
  /* kernels/sat.cu's prefix loops (#pragma unroll 8) compile to 8 loads, then 8 stores
   * (traces/measured/h100/sass-order.txt): the trace in that order */
  if ((strcmp(*alg, "2r2w") == 0 || strcmp(*alg, "4r4w") == 0) && !g_hash_table_contains(p, "unroll"))
    set_u64(p, "unroll", 8);
  /* kernels/sat.cu runs every tile kernel as blocks of 128 threads (32 x 32 tiles) */
  if ((strcmp(*alg, "2r1w") == 0 || strcmp(*alg, "1r1w") == 0 || strcmp(*alg, "1+r") == 0) &&
      !g_hash_table_contains(p, "tile-threads") && (!param_u64(p, "block", &x) || x == 32))
    set_u64(p, "tile-threads", 128);
  /* the scans' adds as compute steps (the kernels' dependent IADD between a pass's read and its
   * write, docs/workloads/sat.md "Chains"): they cost the model's instruction_units, none
   * without it */
  if ((strcmp(*alg, "2r1w") == 0 || strcmp(*alg, "1+r") == 0 || strcmp(*alg, "1r1w-stage-kernels") == 0) &&
      !g_hash_table_contains(p, "chains"))
    set_u64(p, "chains", 1);
  if (!cmp->exact && param_u64(p, "n", &x) && x > SAT_N_CAP) {
    r->scale = ((double)x / SAT_N_CAP) * ((double)x / SAT_N_CAP);
    set_u64(p, "n", SAT_N_CAP);
  }
}

static void map_bpbc(const MsCompare *cmp, MsCmpRecord *r, GHashTable *p, const char **alg) {
  guint64 x, y;
  const gboolean own = strcmp(*alg, "life-multistep") == 0 || strcmp(*alg, "life-multistep-shuffle") == 0;
  /* kernels/bpbc.cu bpbc_pairwise's loop over a runtime k compiles to groups of 4 planes: 8
   * loads, then 4 stores (traces/measured/h100/sass-order.txt) */
  if (strcmp(*alg, "pairwise-sum") == 0 && !g_hash_table_contains(p, "unroll")) set_u64(p, "unroll", 4);
  if (!g_str_has_prefix(*alg, "life-")) return;
  if (own) {
    /* the GPU kernels' own tiles (ms-compare-traces.c), not the paper's multistep */
    guint64 t = param_or(r->params, " steps_per_launch", 8);
    if (strcmp(*alg, "life-multistep") == 0) {
      *alg = "life-multistep-kernel";
      t = 8;
    } else {
      *alg = "life-multistep-shuffle-kernel";
      set_u64(p, "steps_per_launch", t);
      set_u64(p, "strip_rows", param_or(r->params, " strip_rows", 128));
      set_u64(p, "words_per_warp", param_or(r->params, " words_per_warp", 30));
      set_u64(p, "threads_per_block", param_or(r->params, " threads_per_block", 64));
    }
    if (!cmp->exact && param_u64(p, "steps", &x) && x > t) {
      r->scale *= (double)((x + t - 1) / t);
      set_u64(p, "steps", t);
    }
  } else if (!cmp->exact && param_u64(p, "steps", &x) && x > 1) {
    r->scale *= (double)x;
    set_u64(p, "steps", 1);
  }
  if (!cmp->exact && param_u64(p, "size", &y) && y > LIFE_SIZE_CAP) {
    r->scale *= ((double)y / LIFE_SIZE_CAP) * ((double)y / LIFE_SIZE_CAP);
    set_u64(p, "size", LIFE_SIZE_CAP);
  }
}

/* Requests of the simulation, roughly: only the order of the records uses it. */
static double estimate_work(const MsCmpRecord *r, GHashTable *p) {
  const char *f = r->sim_family, *a = r->sim_algorithm;
  double n = (double)param_or(p, "n", 1024), size = (double)param_or(p, "size", 256);
  double steps = (double)param_or(p, "steps", 1);
  if (strcmp(f, "permutation") == 0) {
    if (g_str_has_prefix(a, "hmm-")) return n * (strcmp(a, "hmm-scheduled") == 0 ? 30 : 4);
    return (double)r->replicas * n * (2.0 * (double)r->repeats + 5) * (double)param_or(p, "elem_words", 1);
  }
  if (strcmp(f, "sat") == 0) return n * n * (strcmp(a, "copy-kernel") == 0 ? 2 : strcmp(a, "4r1w") == 0 ? 12 : 6);
  if (strcmp(f, "simple") == 0) /* n is the side of the transposes, else the elements */
    return g_str_has_prefix(a, "transpose") ? n * n * 2
           : strcmp(a, "shared-stride") == 0 ? (double)param_or(p, "blocks", 1) * 256 * (double)param_or(p, "repeats", 1)
                                             : n * 3;
  if (strcmp(f, "bulk") == 0) { /* p instances x t memory steps (docs/workloads/bulk.md) */
    double lg = log2(n), s = (double)param_or(p, "bits", 1024) / 32;
    double b = (double)param_or(p, "nonterminals", 32);
    double t = strcmp(a, "prefix-sums") == 0 ? 2 * n : strcmp(a, "bitonic") == 0 ? n * lg * (lg + 1)
             : strcmp(a, "floyd-warshall") == 0 ? 4 * n * n * n
             : strcmp(a, "cky") == 0 ? 2 * b * (n * n * n - n) / 6 + b * n * (n - 1) / 2 : 6 * s * s + 16 * s;
    return (double)param_or(p, "p", 1024) * t;
  }
  if (strcmp(f, "gf2") == 0) { /* n pivots: half the n + 10 rows XOR their W words (3 requests each) */
    double sy = (double)param_or(p, "symbols", 256), w = ceil(sy / 32) + ceil((double)param_or(p, "length", 1024) / 32);
    return sy * (sy + 10) * (1.5 * w + 1);
  }
  if (strcmp(f, "mul") == 0 && g_str_has_prefix(a, "toom-")) { /* 2k - 1 Comba products of w/k words per product */
    const double k = (double)(a[5] - '0'), wk = (double)param_or(p, "bits", 4096) / 32 / k;
    return (double)param_or(p, "products", 1024) * (2 * k - 1) * 2 * (wk + 1) * (wk + 1);
  }
  if (strcmp(f, "mul") == 0) { /* 4 requests per thread, 3n + 1 exchanges per warp (x 64 through shared
                                * memory); column-based: 2n + 10 shared requests per thread, 4 a carry round */
    const double w = (double)param_or(p, "bits", 1024) / 32;
    return (double)param_or(p, "products", 1024) * w *
           (strcmp(a, "column-based") == 0 ? 4 + 2 * w + 14 : 4 + (strstr(a, "shared") ? 6.0 : 0.1) * w);
  }
  if (strcmp(f, "gcd") == 0) {
    double words = (double)param_or(p, "bits", 1024) / 32, inst = (double)param_or(p, "instances", 1024);
    double iters = strcmp(a, "binary") == 0 ? 64 * words : strcmp(a, "fast-binary") == 0 ? 32 * words : 4 * words;
    /* without oblivious lanes a warp's threads diverge: more warp steps for the same words,
     * and a simulation that costs 3-9 times the oblivious one's (bench/logs/2026-11-27f,
     * validation-h100-timing.tsv: binary 7-9x, fast-binary 3-5x, approximate 3-5x) */
    const char *ob = g_hash_table_lookup(p, "oblivious");
    const gboolean diverge = !ob || strcmp(ob, "0") == 0 || strcmp(ob, "false") == 0;
    return inst * iters * words * 3 * (diverge ? (strcmp(a, "binary") == 0 ? 8 : 4) : 1);
  }
  if (strcmp(a, "pairwise-sum") == 0) return (double)param_or(p, "instances", 1 << 20) / 32 * (3.0 * (double)param_or(p, "k", 32) + 1);
  if (strcmp(a, "pairwise-sum-naive") == 0) return (double)param_or(p, "instances", 1 << 20) * 3;
  if (strcmp(a, "life-word") == 0) return size * size * 10 * steps;
  if (strcmp(a, "life-single") == 0) return size * size / 32 * 10 * steps;
  if (strcmp(a, "life-double") == 0) return size * size / 128 * 14 * steps;
  if (strcmp(a, "life-multistep-kernel") == 0) return size * size / 64 * 480.0 / 256 * 100 * steps / 8;
  return size * size / 64 * 3 * steps / 8;
}

gboolean ms_cmp_map(const MsCompare *cmp, MsCmpRecord *r, GHashTable **sim_params, GError **error) {
  const char *fam = r->workload, *alg = r->algorithm;
  if (!g_strv_contains(families, fam)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: record %u (%s %s %s): no workload matches: unknown family \"%s\" (permutation, sat, gcd, bpbc, simple, bulk, gf2, mul)",
                r->file, r->index, fam, alg, r->params_text, fam);
    return FALSE;
  }
  GHashTable *p = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter hi;
  gpointer k, v;
  g_hash_table_iter_init(&hi, r->params);
  while (g_hash_table_iter_next(&hi, &k, &v))
    if (((char *)k)[0] != ' ') g_hash_table_insert(p, g_strdup(k), g_strdup(v));
  guint64 x;
  r->scale = 1;
  r->replicas = 1;
  r->repeats = 1;
  r->block_threads = 0;
  set_shape(r, g_strdup(""));
  if (strcmp(fam, "permutation") == 0) {
    map_permutation(cmp, r, p, &alg);
  } else if (strcmp(fam, "sat") == 0) {
    map_sat(cmp, r, p, &alg);
  } else if (strcmp(fam, "gcd") == 0) {
    /* kernels/gcd.cu approximate-ptx64 fuses X - alpha Y D^beta and + Y into one pass over X:
     * the pass the generator's approximate describes (docs/validation.md) */
    if (strcmp(alg, "approximate-ptx64") == 0) alg = "approximate";
    if (!cmp->exact && param_u64(p, "instances", &x) && x > GCD_INSTANCES_CAP) {
      r->scale = (double)x / GCD_INSTANCES_CAP;
      set_u64(p, "instances", GCD_INSTANCES_CAP);
    }
  } else if (strcmp(fam, "bpbc") == 0) {
    map_bpbc(cmp, r, p, &alg);
  } else if (strcmp(fam, "bulk") == 0) {
    /* kernels/bulk.cu: one thread per instance, the generator's program step for step;
     * the record's params are `memsim gen bulk`'s (algorithm, n or bits, p, arrangement,
     * threads_per_block, seed), and the generator takes the block size itself */
    set_shape(r, g_strdup_printf("block_threads=%" G_GUINT64_FORMAT, param_or(p, "threads_per_block", 256)));
  }
  for (gsize i = 0; i < G_N_ELEMENTS(kernel_blocks); i++)
    if (strcmp(kernel_blocks[i].family, fam) == 0 && (!kernel_blocks[i].algorithm || strcmp(kernel_blocks[i].algorithm, alg) == 0)) {
      r->block_threads = param_or(r->params, " threads_per_block", kernel_blocks[i].threads);
      set_shape(r, g_strdup_printf("block_threads=%" G_GUINT64_FORMAT, r->block_threads));
    }
  g_free(r->sim_family);
  g_free(r->sim_algorithm);
  g_free(r->sim_text);
  r->sim_family = g_strdup(fam);
  r->sim_algorithm = g_strdup(alg);
  r->sim_text = params_to_text(p);
  r->work = estimate_work(r, p);
  *sim_params = p;
  return TRUE;
}

static gboolean tiles_of(const MsCmpRecord *r) {
  for (gsize i = 0; i < G_N_ELEMENTS(kernel_blocks); i++)
    if (strcmp(kernel_blocks[i].family, r->sim_family) == 0 && kernel_blocks[i].algorithm &&
        strcmp(kernel_blocks[i].algorithm, r->sim_algorithm) == 0)
      return kernel_blocks[i].tiles;
  return FALSE;
}

/* The comparer's own traces; NULL with *handled FALSE for the generators'. */
static MsSource *own_source(const MsCmpRecord *r, GHashTable *p, gboolean *handled, GError **error) {
  static const char *const sat_known[] = {"n", "block", "seed", "strip_rows", "cols_per_thread", "chunks_ahead", "chains", NULL};
  static const char *const life_known[] = {"size", "steps", "steps_per_launch", "strip_rows", "words_per_warp",
                                           "threads_per_block", NULL};
  guint64 n, size, steps, t, h, ow, bt;
  *handled = TRUE;
  const gboolean lookback = strcmp(r->sim_algorithm, "1r1w-lookback-kernel") == 0;
  const gboolean ordered = strcmp(r->sim_algorithm, "1r1w-ordered-kernel") == 0;
  if (strcmp(r->sim_family, "sat") == 0 && (ordered || strcmp(r->sim_algorithm, "1+r-ordered-kernels") == 0)) {
    static const char *const ord_known[] = {"n", "block", "seed", "r", NULL};
    if (!ms_param_check(p, ord_known, "sat", error) || !ms_param_uint(p, "n", 1024, 32, 1u << 16, &n, error) ||
        !ms_param_uint(p, "block", 32, 32, 32, &t, error))
      return NULL;
    guint64 m = 0;
    if (!ordered) { /* kernels/sat.cu launch_sat: m = round((sqrt(1 + 8 r T^2) - 1) / 2), at most T */
      const char *rs = g_hash_table_lookup(p, "r");
      char *end = NULL;
      const double rv = rs ? g_ascii_strtod(rs, &end) : -1;
      if (!rs || !*rs || *end || !(rv >= 0 && rv <= 1)) {
        g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "sat: 1+r-ordered: r: expected a decimal in [0, 1], got %s",
                    rs ? rs : "nothing");
        return NULL;
      }
      const double T = (double)(n / 32);
      m = (guint64)MIN(T, (double)lround((sqrt(1.0 + 8.0 * rv * T * T) - 1.0) / 2.0));
    }
    return ms_cmp_sat_ordered(n, m, error);
  }
  if (strcmp(r->sim_family, "sat") == 0 && strcmp(r->sim_algorithm, "1r1w-stage-kernels") == 0) {
    if (!ms_param_check(p, sat_known, "sat", error) || !ms_param_uint(p, "n", 1024, 32, 1u << 16, &n, error) ||
        !ms_param_uint(p, "block", 32, 32, 32, &t, error) || !ms_param_uint(p, "chains", 0, 0, 1, &h, error))
      return NULL;
    return ms_cmp_sat_1r1w_stages(n, h != 0, error);
  }
  if (strcmp(r->sim_family, "sat") == 0 && (lookback || strcmp(r->sim_algorithm, "copy-kernel") == 0)) {
    if (!ms_param_check(p, sat_known, "sat", error) || !ms_param_uint(p, "n", 1024, 1, 1u << 16, &n, error))
      return NULL;
    if (!lookback) return ms_cmp_sat_copy(n, error);
    guint64 sr, cv, ca;
    if (!ms_param_uint(p, "strip_rows", 32, 1, 1024, &sr, error) ||
        !ms_param_uint(p, "cols_per_thread", sr == 16 ? 4 : 2, 1, 64, &cv, error) ||
        !ms_param_uint(p, "chunks_ahead", 0, 0, 1, &ca, error))
      return NULL;
    return ms_cmp_sat_lookback(n, sr, cv, ca, error);
  }
  if (strcmp(r->sim_family, "permutation") == 0 && strcmp(r->sim_algorithm, "hmm-transpose-kernel") == 0) {
    static const char *const known[] = {"n", "permutation", "seed", "elem_words", "width", NULL};
    if (!ms_param_check(p, known, "permutation", error) || !ms_param_uint(p, "n", 1024, 1, G_GUINT64_CONSTANT(1) << 32, &n, error))
      return NULL;
    const char *perm = g_hash_table_lookup(p, "permutation");
    if (perm && strcmp(perm, "transpose") != 0) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "hmm-transpose: performs the transpose permutation only (got %s)", perm);
      return NULL;
    }
    return ms_cmp_hmm_transpose(n, error);
  }
  const gboolean tile = strcmp(r->sim_algorithm, "life-multistep-kernel") == 0;
  if (strcmp(r->sim_family, "bpbc") == 0 && (tile || strcmp(r->sim_algorithm, "life-multistep-shuffle-kernel") == 0)) {
    if (!ms_param_check(p, life_known, "bpbc", error) || !ms_param_uint(p, "size", 256, 64, 1u << 16, &size, error) ||
        !ms_param_uint(p, "steps", 1, 1, 1u << 20, &steps, error))
      return NULL;
    if (tile) return ms_cmp_life_tile(size, steps, error);
    if (!ms_param_uint(p, "steps_per_launch", 8, 1, 64, &t, error) || !ms_param_uint(p, "strip_rows", 128, 1, 1u << 16, &h, error) ||
        !ms_param_uint(p, "words_per_warp", 30, 1, 30, &ow, error) ||
        !ms_param_uint(p, "threads_per_block", 64, 32, 1024, &bt, error))
      return NULL;
    return ms_cmp_life_shuffle(size, steps, t, h, ow, bt / 32, error);
  }
  *handled = FALSE;
  return NULL;
}

MsSource *ms_cmp_record_source(const MsCompare *cmp, MsCmpRecord *r, GError **error) {
  GHashTable *p = NULL;
  if (!ms_cmp_map(cmp, r, &p, error)) return NULL;
  GError *e = NULL;
  gboolean own;
  /* a record's "instructions" (every family but gcd, whose generator takes it): a compute step
   * of that many before each memory step of its trace (docs/models.md, "Instructions") */
  guint64 instr = 0;
  if (strcmp(r->sim_family, "gcd") != 0 && g_hash_table_contains(p, "instructions")) {
    if (!ms_param_uint(p, "instructions", 0, 0, MS_MAX_INSTRUCTIONS, &instr, &e)) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: record %u (%s %s %s): %s", r->file, r->index, r->workload,
                  r->algorithm, r->params_text, e->message);
      g_error_free(e);
      g_hash_table_unref(p);
      return NULL;
    }
    g_hash_table_remove(p, "instructions");
  }
  MsSource *s = own_source(r, p, &own, &e);
  if (!own) s = ms_workload_source(r->sim_family, r->sim_algorithm, p, &e);
  g_hash_table_unref(p);
  if (s && strcmp(r->sim_family, "permutation") == 0 && !g_str_has_prefix(r->sim_algorithm, "hmm-"))
    s = ms_cmp_dmm_kernel(s, r->replicas, r->repeats, param_or(r->params, "elem_words", 1), &e);
  if (s && r->block_threads) s = ms_cmp_reblock(s, r->block_threads, tiles_of(r));
  if (s && instr) s = ms_source_with_instructions(s, (guint32)instr); /* last: around the kernel's shape */
  if (!s) {
    if (e->code == MS_ERROR_INVALID)
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: record %u (%s %s %s): no workload matches: %s", r->file,
                  r->index, r->workload, r->algorithm, r->params_text, e->message);
    else
      g_set_error(error, MS_ERROR, e->code, "%s: record %u (%s %s %s): %s", r->file, r->index, r->workload,
                  r->algorithm, r->params_text, e->message);
    g_error_free(e);
    return NULL;
  }
  return s;
}

/* ---- results, the cache ------------------------------------------------------------------ */

void ms_cmp_record_result(const MsCmpRecord *r, MsResult *o) {
  memset(o, 0, sizeof *o);
  o->time_units = r->time_units;
  o->shared = r->shared;
  o->global = r->global;
  o->stages = r->shared.stages + r->global.stages;
  o->dispatches = r->shared.dispatches + r->global.dispatches;
  o->requests = r->shared.requests + r->global.requests;
  o->extra_stages = o->stages - o->dispatches;
  o->grid_barriers = r->grid_barriers;
  o->kernels = r->kernels;
  o->launch_total = r->launch_units;
  o->global_busy = r->global_busy;
  o->shared_busy = r->shared_busy;
}

/* The values a record keeps of its result (and the cache stores, in this order). */
#define N_VALUES 12

static void set_result(MsCmpRecord *r, const guint64 x[N_VALUES]) {
  r->time_units = x[0];
  r->shared = (MsMemoryCounts){x[1], x[2], x[3]};
  r->global = (MsMemoryCounts){x[4], x[5], x[6]};
  r->launch_units = MIN(x[7], r->time_units);
  r->kernels = x[8];
  r->grid_barriers = x[9];
  r->global_busy = x[10];
  r->shared_busy = x[11];
  /* a scaled record (--reduced) repeats the trace's work `scale` times within the same
   * kernel calls: the launch time units count once */
  r->units = (double)(r->time_units - r->launch_units) * r->scale + (double)r->launch_units;
  r->bound = r->shared_busy > r->global_busy ? MS_BOUND_SHARED : MS_BOUND_GLOBAL;
  MsResult res;
  ms_cmp_record_result(r, &res);
  r->limit = ms_result_bound(&res);
}

/* The key: the model, the record's simulated workload and shape.  The model's instruction
 * keys act on compute steps only, which a record has when its params carry "instructions";
 * without them the key leaves those keys out, so that a model that adds them keeps the
 * results of every other record (the engine gives the same, docs/models.md). */
static char *cache_key(const MsCompare *cmp, const MsCmpRecord *r) {
  char *d;
  if (!strstr(r->sim_text, "instructions=") && !strstr(r->sim_text, "chains=1") &&
      (cmp->model->instruction_units || cmp->model->issue_rate)) {
    MsModel *m = ms_model_copy(cmp->model);
    m->instruction_units = 0;
    m->issue_rate = 0;
    d = ms_model_describe(m);
    ms_model_free(m);
  } else {
    d = ms_model_describe(cmp->model);
  }
  char *k = g_strdup_printf("2|%s group_words=%" G_GUINT64_FORMAT "|%s|%s|%s|%s", d, cmp->model->group_words, r->sim_family,
                            r->sim_algorithm, r->sim_text, r->sim_shape);
  g_free(d);
  return k;
}

static gboolean cache_lookup(MsCompare *cmp, MsCmpRecord *r) {
  if (!cmp->cache) return FALSE;
  GHashTable *p = NULL;
  if (!ms_cmp_map(cmp, r, &p, NULL)) return FALSE;
  g_hash_table_unref(p);
  char *k = cache_key(cmp, r);
  g_mutex_lock(&cmp->cache_lock);
  const char *v = g_hash_table_lookup(cmp->cache, k);
  guint64 x[N_VALUES] = {0};
  int got = 0;
  for (const char *c = v; c && *c && got < N_VALUES; got++) {
    char *end = NULL;
    x[got] = g_ascii_strtoull(c, &end, 10);
    if (end == c) break;
    c = end;
  }
  g_mutex_unlock(&cmp->cache_lock);
  g_free(k);
  if (got < N_VALUES || x[0] == 0) return FALSE;
  set_result(r, x);
  r->cached = TRUE;
  return TRUE;
}

static void cache_store(MsCompare *cmp, MsCmpRecord *r) {
  if (!cmp->cache) return;
  char *k = cache_key(cmp, r);
  GString *v = g_string_new(NULL);
  const guint64 x[N_VALUES] = {r->time_units, r->shared.stages, r->shared.dispatches, r->shared.requests,
                               r->global.stages, r->global.dispatches, r->global.requests, r->launch_units,
                               r->kernels, r->grid_barriers, r->global_busy, r->shared_busy};
  for (int i = 0; i < N_VALUES; i++) g_string_append_printf(v, "%s%" G_GUINT64_FORMAT, i ? " " : "", x[i]);
  g_mutex_lock(&cmp->cache_lock);
  if (cmp->cache_path) { /* append at once: a long run that is cut off keeps its results */
    FILE *f = fopen(cmp->cache_path, "a");
    if (f) {
      fprintf(f, "%s\t%s\n", k, v->str);
      fclose(f);
    }
  }
  g_hash_table_replace(cmp->cache, k, g_string_free(v, FALSE));
  g_mutex_unlock(&cmp->cache_lock);
}

gboolean ms_cmp_load_cache(MsCompare *cmp, const char *path, GError **error) {
  if (!cmp->cache) cmp->cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  g_free(cmp->cache_path);
  cmp->cache_path = g_strdup(path);
  gchar *text = NULL;
  if (!g_file_test(path, G_FILE_TEST_EXISTS)) return TRUE;
  if (!ms_file_check(path, error)) return FALSE;
  GError *e = NULL;
  if (!g_file_get_contents(path, &text, NULL, &e)) {
    g_set_error(error, MS_ERROR, MS_ERROR_IO, "%s", e->message);
    g_error_free(e);
    return FALSE;
  }
  gchar **lines = g_strsplit(text, "\n", -1);
  for (int i = 0; lines[i]; i++) {
    char *tab = strchr(lines[i], '\t');
    if (lines[i][0] == '#' || !tab) continue;
    g_hash_table_replace(cmp->cache, g_strndup(lines[i], (gsize)(tab - lines[i])), g_strdup(tab + 1));
  }
  g_strfreev(lines);
  g_free(text);
  return TRUE;
}

gboolean ms_cmp_save_cache(const MsCompare *cmp, const char *path, GError **error) {
  GString *s = g_string_new("# memsim compare: simulated results (2|model|family|algorithm|parameters|shape\t"
                            "time_units shared.stages shared.dispatches shared.requests global.stages global.dispatches "
                            "global.requests launch_units kernels grid_barriers global_busy shared_busy); lines of other "
                            "formats are ignored; delete to recompute\n");
  GList *keys = g_list_sort(g_hash_table_get_keys(cmp->cache), (GCompareFunc)strcmp);
  for (GList *l = keys; l; l = l->next)
    g_string_append_printf(s, "%s\t%s\n", (char *)l->data, (char *)g_hash_table_lookup(cmp->cache, l->data));
  g_list_free(keys);
  GError *e = NULL;
  gboolean ok = g_file_set_contents(path, s->str, (gssize)s->len, &e);
  if (!ok) {
    g_set_error(error, MS_ERROR, MS_ERROR_IO, "%s", e->message);
    g_error_free(e);
  }
  g_string_free(s, TRUE);
  return ok;
}

/* ---- the simulations ---------------------------------------------------------------------- */

static double thread_cpu_s(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* l2_warm's earlier run: the record's trace built again */
typedef struct {
  MsCompare *cmp;
  MsCmpRecord *r;
} Reopen;

static MsSource *reopen_record(gpointer data, GError **error) {
  Reopen *o = data;
  return ms_cmp_record_source(o->cmp, o->r, error);
}

static gboolean simulate_one(MsCompare *cmp, MsCmpRecord *r, GError **error) {
  if (cache_lookup(cmp, r)) return TRUE;
  if (cmp->cached_only) {
    r->uncached = TRUE;
    return TRUE;
  }
  const double c0 = thread_cpu_s();
  const gint64 w0 = g_get_monotonic_time();
  MsSource *s = ms_cmp_record_source(cmp, r, error);
  if (!s) return FALSE;
  MsSimOptions opt = {0};
  /* records in parallel: one thread per simulation, except the few whose work is a share of
   * the whole beyond half a job's: they would finish long after the rest on one thread, so
   * their steps go to engine threads, 2 and one more for each further half share, up to
   * big_threads (the same result).  They start first, and on cores the other jobs keep busy
   * a simulation gets about one core per thread that has work. */
  if (cmp->jobs <= 1) opt.threads = 0;
  else if (cmp->big_work > 0 && r->work >= cmp->big_work)
    opt.threads = (guint)MIN((double)cmp->big_threads, MAX(2.0, ceil(r->work / cmp->big_work)));
  else opt.threads = 1;
  r->sim_threads = opt.threads;
  Reopen ro = {cmp, r};
  opt.reopen = reopen_record;
  opt.reopen_data = &ro;
  GError *e = NULL;
  MsResult *res = ms_simulate(cmp->model, s, &opt, &e);
  ms_source_free(s);
  r->sim_cpu_s = thread_cpu_s() - c0;
  r->sim_wall_s = (double)(g_get_monotonic_time() - w0) / 1e6;
  if (res) {
    r->repeated_kernels = res->repeated_kernels;
    r->kernels_not_counted = res->kernels_not_counted;
    r->sim_cpu_s += res->helper_cpu_s; /* the engine threads a big record was given */
  }
  if (!res) {
    g_set_error(error, MS_ERROR, e->code, "%s: record %u (%s %s %s): the model cannot run it: %s", r->file, r->index,
                r->workload, r->algorithm, r->params_text, e->message);
    g_error_free(e);
    return FALSE;
  }
  const guint64 x[N_VALUES] = {res->time_units, res->shared.stages, res->shared.dispatches, res->shared.requests,
                               res->global.stages, res->global.dispatches, res->global.requests, res->launch_total,
                               res->kernels, res->grid_barriers, res->global_busy, res->shared_busy};
  set_result(r, x);
  ms_result_free(res);
  if (r->time_units == 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: record %u (%s %s %s): the trace makes no memory request", r->file,
                r->index, r->workload, r->algorithm, r->params_text);
    return FALSE;
  }
  cache_store(cmp, r);
  return TRUE;
}

typedef struct {
  MsCompare *cmp;
  GMutex lock;
  GError **errors; /* one per record */
  guint done, total;
  gint64 t0;
} Job;

/* The records whose work is beyond big_work start first and run longest: the other jobs'
 * threads (and the engine threads their simulations start, which inherit it) run at a lower
 * priority, so that on cores all jobs keep busy the longest records are not what is left at
 * the end (docs/performance.md, "What bounds the whole validation's time").  Linux: the nice
 * value is a thread's own; it is raised once and never lowered (which needs privileges), and
 * a thread that ran a small record takes no big one (they are queued first). */
static void job_priority(const MsCompare *cmp, const MsCmpRecord *r) {
#ifdef __linux__
  static _Thread_local gboolean lowered = FALSE;
  if (lowered || cmp->jobs <= 1 || cmp->big_work <= 0 || r->work >= cmp->big_work) return;
  lowered = TRUE;
  (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), MIN(getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid)) + 5, 19));
#else
  (void)cmp;
  (void)r;
#endif
}

static void job_run(gpointer data, gpointer user) {
  Job *j = user;
  guint i = GPOINTER_TO_UINT(data) - 1;
  GError *e = NULL;
  MsCmpRecord *r = g_ptr_array_index(j->cmp->records, i);
  job_priority(j->cmp, r);
  if (!simulate_one(j->cmp, r, &e)) j->errors[i] = e;
  g_mutex_lock(&j->lock);
  j->done++;
  if (j->cmp->progress)
    j->cmp->progress(j->done, j->total, (double)(g_get_monotonic_time() - j->t0) / 1e6, j->cmp->progress_data);
  g_mutex_unlock(&j->lock);
}

static gint cmp_work(gconstpointer a, gconstpointer b, gpointer records) {
  const guint i = *(const guint *)a, k = *(const guint *)b;
  const MsCmpRecord *x = g_ptr_array_index((GPtrArray *)records, i), *y = g_ptr_array_index((GPtrArray *)records, k);
  if (x->work != y->work) return x->work > y->work ? -1 : 1;
  return i < k ? -1 : i > k;
}

gboolean ms_cmp_simulate(MsCompare *cmp, GError **error) {
  guint n = cmp->records->len;
  Job j = {cmp, {0}, g_new0(GError *, n ? n : 1), 0, 0, g_get_monotonic_time()};
  g_mutex_init(&j.lock);
  /* largest estimated work first, so that the longest simulations do not start last */
  GArray *order = g_array_new(FALSE, FALSE, sizeof(guint));
  for (guint i = 0; i < n; i++) {
    MsCmpRecord *r = g_ptr_array_index(cmp->records, i);
    if (r->skip) continue;
    GHashTable *p = NULL;
    if (ms_cmp_map(cmp, r, &p, NULL)) g_hash_table_unref(p);
    if (r->skip) continue; /* the mapping found the record has no trace */
    g_array_append_val(order, i);
  }
  j.total = order->len;
  g_array_sort_with_data(order, cmp_work, cmp->records);
  double total_work = 0;
  for (guint k = 0; k < order->len; k++)
    total_work += ((MsCmpRecord *)g_ptr_array_index(cmp->records, g_array_index(order, guint, k)))->work;
  /* half a job's share: a record near one job's share would still end far after the rest */
  cmp->big_work = cmp->jobs > 1 ? total_work / (2.0 * cmp->jobs) : 0;
  /* (life-word 16K on 7 threads beside the other jobs took 2244 s of CPU for 654 s of wall,
   * against 949 s on 2: idle workers waking; at most 4 unless the records are no more than the jobs) */
  cmp->big_threads = order->len <= cmp->jobs ? cmp->jobs : MIN(cmp->jobs, 4u);
  if (cmp->jobs <= 1) {
    for (guint k = 0; k < order->len; k++) job_run(GUINT_TO_POINTER(g_array_index(order, guint, k) + 1), &j);
  } else {
    GThreadPool *pool = g_thread_pool_new(job_run, &j, (gint)MIN(cmp->jobs, MAX(order->len, 1u)), TRUE, NULL);
    for (guint k = 0; k < order->len; k++) g_thread_pool_push(pool, GUINT_TO_POINTER(g_array_index(order, guint, k) + 1), NULL);
    g_thread_pool_free(pool, FALSE, TRUE);
  }
  g_array_free(order, TRUE);
  g_mutex_clear(&j.lock);
  gboolean ok = TRUE;
  guint uncached = 0;
  for (guint i = 0; i < n; i++) {
    MsCmpRecord *r = g_ptr_array_index(cmp->records, i);
    if (r->uncached && !r->skip) {
      r->skip = g_strdup("not in the cache (--cached-only): skipped");
      uncached++;
    }
  }
  if (uncached)
    g_ptr_array_add(cmp->notes, g_strdup_printf("--cached-only: %u records have no cached result and are skipped", uncached));
  for (guint i = 0; i < n; i++) {
    if (!j.errors[i]) continue;
    MsCmpRecord *r = g_ptr_array_index(cmp->records, i);
    gboolean unmatched = strstr(j.errors[i]->message, "no workload matches") != NULL;
    if (ok && cmp->skip_unmatched && (unmatched || strstr(j.errors[i]->message, "the model cannot run it"))) {
      /* a trace that does not fit the model (e.g. a block larger than resident_warps) */
      r->skip = g_strdup(unmatched ? "no workload matches: skipped" : "the model cannot run its trace: skipped");
      g_ptr_array_add(cmp->notes, g_strdup(j.errors[i]->message));
    } else if (ok) {
      g_propagate_error(error, j.errors[i]);
      j.errors[i] = NULL;
      ok = FALSE;
    }
    if (j.errors[i]) g_error_free(j.errors[i]);
  }
  g_free(j.errors);
  return ok;
}

static gint cmp_cpu(gconstpointer a, gconstpointer b) {
  const MsCmpRecord *x = *(MsCmpRecord *const *)a, *y = *(MsCmpRecord *const *)b;
  if (x->sim_cpu_s != y->sim_cpu_s) return x->sim_cpu_s > y->sim_cpu_s ? -1 : 1;
  return strcmp(x->file, y->file) != 0 ? strcmp(x->file, y->file) : (x->index > y->index) - (x->index < y->index);
}

char *ms_cmp_timing_tsv(const MsCompare *cmp) {
  GPtrArray *a = g_ptr_array_new();
  for (guint i = 0; i < cmp->records->len; i++) {
    MsCmpRecord *r = g_ptr_array_index(cmp->records, i);
    if (!r->skip) g_ptr_array_add(a, r);
  }
  g_ptr_array_sort(a, cmp_cpu);
  GString *s = g_string_new("file\tindex\tfamily\talgorithm\tparams\trequests\ttime_units\tcpu_s\twall_s\tcached\trepeated_kernels\twork\tthreads\tkernels_not_counted\n");
  for (guint i = 0; i < a->len; i++) {
    const MsCmpRecord *r = g_ptr_array_index(a, i);
    g_string_append_printf(s, "%s\t%u\t%s\t%s\t%s\t%" G_GUINT64_FORMAT "\t%" G_GUINT64_FORMAT "\t%.3f\t%.3f\t%s\t%" G_GUINT64_FORMAT "\t%.4g\t%u\t%" G_GUINT64_FORMAT "\n",
                           r->file, r->index, r->workload, r->algorithm, r->params_text,
                           r->shared.requests + r->global.requests, r->time_units, r->sim_cpu_s, r->sim_wall_s,
                           r->cached ? "yes" : "no", r->repeated_kernels, r->work, r->sim_threads,
                           r->kernels_not_counted);
  }
  g_ptr_array_free(a, TRUE);
  return g_string_free(s, FALSE);
}
