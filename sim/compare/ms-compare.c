/* ms-compare.c: measurement records, the record -> trace mapping and the simulations of
 * `memsim compare` (docs/validation.md). */
#include "ms-compare.h"
#include "ms-workloads.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

static const char *const families[] = {"permutation", "sat", "gcd", "bpbc", NULL};

/* Simulation caps: above them a record's work parameter is reduced and the prediction scaled
 * (docs/validation.md, "Reduced simulations"); --exact turns them off. */
#define SAT_N_CAP 1024u
#define GCD_INSTANCES_CAP 1024u
#define LIFE_SIZE_CAP 1024u
/* Address distance between replicas of a trace. */
#define REPLICA_OFFSET (G_GINT64_CONSTANT(1) << 34)

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
  c->threads = 1;
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
  /* Record-level extras the mapping needs. */
  it = cJSON_GetObjectItemCaseSensitive(j, "inner_repeats");
  if (it) {
    if (!cJSON_IsNumber(it) || it->valuedouble < 1 || it->valuedouble != floor(it->valuedouble)) {
      g_string_free(pt, TRUE);
      rec_free(r);
      return bad(error, file, i, "field \"inner_repeats\" must be a positive integer, got %s", json_type(it));
    }
    g_hash_table_replace(r->params, g_strdup(" inner_repeats"), ms_cmp_param_value(it));
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

gboolean ms_cmp_read_measurements(MsCompare *cmp, const char *path, GError **error) {
  gchar *text = NULL;
  gsize len = 0;
  GError *e = NULL;
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
  guint i = 0;
  const cJSON *r;
  cJSON_ArrayForEach(r, recs) {
    if (!read_record(cmp, path, cJSON_IsString(dn) ? dn->valuestring : "unknown device", i++, r, error)) goto out;
  }
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

static void set_u64(GHashTable *h, const char *key, guint64 v) {
  g_hash_table_replace(h, g_strdup(key), g_strdup_printf("%" G_GUINT64_FORMAT, v));
}

gboolean ms_cmp_map(const MsCompare *cmp, MsCmpRecord *r, GHashTable **sim_params, GError **error) {
  const char *fam = r->workload, *alg = r->algorithm;
  if (!g_strv_contains(families, fam)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: record %u (%s %s %s): no workload matches: unknown family \"%s\" (permutation, sat, gcd, bpbc)",
                r->file, r->index, fam, alg, r->params_text, fam);
    return FALSE;
  }
  GHashTable *p = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter hi;
  gpointer k, v;
  g_hash_table_iter_init(&hi, r->params);
  while (g_hash_table_iter_next(&hi, &k, &v))
    if (((char *)k)[0] != ' ') g_hash_table_insert(p, g_strdup(k), g_strdup(v));
  guint64 x, y;
  r->scale = 1;
  r->replicas = 1;
  if (strcmp(fam, "permutation") == 0) {
    /* thrust::scatter(a, a+n, P, b) is b[P[i]] = a[i]: the destination-designated rule. */
    if (strcmp(alg, "thrust-scatter") == 0) alg = "hmm-d-designated";
    if (!g_str_has_prefix(alg, "hmm-") && param_u64(p, "blocks", &x)) {
      /* `blocks` blocks each permute inner_repeats times; replicas run one per DMM. */
      guint64 reps = 1;
      param_u64(r->params, " inner_repeats", &reps);
      guint64 d = ms_model_is_hmm(cmp->model) ? cmp->model->dmms : 1;
      r->replicas = MIN(x, d);
      r->scale = (double)x * (double)reps / (double)r->replicas;
    }
    /* The record's "table" is the family's `table` (DMM algorithms only). */
    const char *tab = g_hash_table_lookup(r->params, " table");
    if (tab && !g_str_has_prefix(alg, "hmm-")) g_hash_table_replace(p, g_strdup("table"), g_strdup(tab));
    g_hash_table_remove(p, "blocks");
  } else if (strcmp(fam, "sat") == 0) {
    /* 1r1w-lookback reads and writes every element once like 1r1w, in one kernel (the
     * launch count comes from the record). copy: our own trace below. */
    if (strcmp(alg, "1r1w-lookback") == 0) alg = "1r1w";
    /* kernels/sat.cu runs every tile kernel as blocks of 128 threads (32 x 32 tiles) */
    if ((strcmp(alg, "2r1w") == 0 || strcmp(alg, "1r1w") == 0 || strcmp(alg, "1+r") == 0) &&
        !g_hash_table_contains(p, "tile-threads") && (!param_u64(p, "block", &x) || x == 32))
      set_u64(p, "tile-threads", 128);
    if (!cmp->exact && param_u64(p, "n", &x) && x > SAT_N_CAP) {
      r->scale = ((double)x / SAT_N_CAP) * ((double)x / SAT_N_CAP);
      set_u64(p, "n", SAT_N_CAP);
    }
  } else if (strcmp(fam, "gcd") == 0) {
    if (!cmp->exact && param_u64(p, "instances", &x) && x > GCD_INSTANCES_CAP) {
      r->scale = (double)x / GCD_INSTANCES_CAP;
      set_u64(p, "instances", GCD_INSTANCES_CAP);
    }
  } else if (strcmp(fam, "bpbc") == 0 && g_str_has_prefix(alg, "life-")) {
    if (!cmp->exact && param_u64(p, "steps", &x) && x > 1) {
      r->scale *= (double)x;
      set_u64(p, "steps", 1);
    }
    if (!cmp->exact && param_u64(p, "size", &y) && y > LIFE_SIZE_CAP) {
      r->scale *= ((double)y / LIFE_SIZE_CAP) * ((double)y / LIFE_SIZE_CAP);
      set_u64(p, "size", LIFE_SIZE_CAP);
    }
  }
  g_free(r->sim_family);
  g_free(r->sim_algorithm);
  g_free(r->sim_text);
  r->sim_family = g_strdup(fam);
  r->sim_algorithm = g_strdup(alg);
  r->sim_text = params_to_text(p);
  *sim_params = p;
  return TRUE;
}

/* The copy of an n x n matrix (kernels/sat.cu sat_copy): n^2 threads read a[i], write b[i]. */
static MsSource *sat_copy_source(GHashTable *p, GError **error) {
  static const char *const known[] = {"n", "block", "seed", NULL};
  if (!ms_param_check(p, known, "sat", error)) return NULL;
  guint64 n;
  if (!ms_param_uint(p, "n", 1024, 1, 1u << 16, &n, error)) return NULL;
  char *t = g_strdup_printf(
      "{\"memsim_trace\": 1, \"form\": \"compact\", \"name\": \"copy of a %" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT " matrix\","
      " \"threads\": %" G_GUINT64_FORMAT ", \"block_threads\": 256,"
      " \"arrays\": {\"a\": {\"base\": 0, \"length\": %" G_GUINT64_FORMAT "}, \"b\": {\"length\": %" G_GUINT64_FORMAT "}},"
      " \"steps\": [{\"op\": \"read\", \"addr\": \"a[tid]\"}, {\"op\": \"write\", \"addr\": \"b[tid]\"}]}",
      n, n, n * n, n * n, n * n);
  MsSource *s = ms_trace_open_memory(t, strlen(t), "sat copy", error);
  g_free(t);
  return s;
}

/* ---- replicas: R copies of a trace side by side, block b on DMM b mod d --------------- */

typedef struct {
  MsSource *inner;
  guint64 t, R;
  gint64 *buf;
  gboolean filled;
  MsStep step;
} Replicas;

static MsNext rep_next(gpointer self, MsStep *step, GError **error) {
  Replicas *r = self;
  MsNext n = ms_source_next(r->inner, step, error);
  r->filled = FALSE;
  r->step = *step;
  return n;
}

static gboolean rep_fill(gpointer self, guint64 first, guint64 count, gint64 *addr, GError **error) {
  Replicas *r = self;
  if (!r->filled) {
    if (!ms_source_fill(r->inner, 0, r->t, r->buf, error)) return FALSE;
    r->filled = TRUE;
  }
  for (guint64 g = 0; g < count; g++) {
    guint64 th = first + g, j = th % r->t, rep = th / r->t;
    addr[g] = r->buf[j] == MS_ADDR_NONE ? MS_ADDR_NONE : r->buf[j] + (gint64)rep * REPLICA_OFFSET;
  }
  return TRUE;
}

static void rep_destroy(gpointer self) {
  Replicas *r = self;
  ms_source_free(r->inner);
  g_free(r->buf);
  g_free(r);
}

static const MsSourceFuncs rep_funcs = {rep_next, rep_fill, rep_destroy};

static MsSource *replicate(MsSource *inner, guint64 R, GError **error) {
  guint64 t = ms_source_threads(inner), bt = ms_source_block_threads(inner);
  if (R <= 1) return inner;
  if (t > (1u << 20)) {
    g_set_error(error, MS_ERROR, MS_ERROR_LIMIT, "%s: %" G_GUINT64_FORMAT " threads are too many to replicate", ms_source_name(inner), t);
    ms_source_free(inner);
    return NULL;
  }
  Replicas *r = g_new0(Replicas, 1);
  r->inner = inner;
  r->t = t;
  r->R = R;
  r->buf = g_new(gint64, t);
  char *name = g_strdup_printf("%s, %" G_GUINT64_FORMAT " replicas", ms_source_name(inner), R);
  MsSource *s = ms_source_new(name, t * R, MIN(bt, t), &rep_funcs, r);
  g_free(name);
  return s;
}

/* Build the source standing for a record (exposed to the counter importer). */
MsSource *ms_cmp_record_source(const MsCompare *cmp, MsCmpRecord *r, GError **error);
MsSource *ms_cmp_record_source(const MsCompare *cmp, MsCmpRecord *r, GError **error) {
  GHashTable *p = NULL;
  if (!ms_cmp_map(cmp, r, &p, error)) return NULL;
  GError *e = NULL;
  MsSource *s = strcmp(r->sim_family, "sat") == 0 && strcmp(r->sim_algorithm, "copy") == 0
                    ? sat_copy_source(p, &e)
                    : ms_workload_source(r->sim_family, r->sim_algorithm, p, &e);
  g_hash_table_unref(p);
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
  return replicate(s, r->replicas, error);
}

static char *cache_key(const MsCompare *cmp, const MsCmpRecord *r) {
  char *d = ms_model_describe(cmp->model);
  char *k = g_strdup_printf("%s group_words=%" G_GUINT64_FORMAT "|%s|%s|%s|R=%" G_GUINT64_FORMAT, d, cmp->model->group_words,
                            r->sim_family, r->sim_algorithm, r->sim_text, r->replicas);
  g_free(d);
  return k;
}

/* A scaled record repeats the trace's work `scale` times within the same kernel calls: the
 * launch time units (the model's launch_units per kernel) count once. */
static void set_result(MsCmpRecord *r, guint64 tu, guint64 launch, const MsMemoryCounts *sh, const MsMemoryCounts *gl) {
  r->time_units = tu;
  r->launch_units = MIN(launch, tu);
  r->units = (double)(tu - r->launch_units) * r->scale + (double)r->launch_units;
  r->shared = *sh;
  r->global = *gl;
  r->bound = gl->requests > 0 ? MS_BOUND_GLOBAL : MS_BOUND_SHARED;
}

static gboolean cache_lookup(MsCompare *cmp, MsCmpRecord *r) {
  if (!cmp->cache) return FALSE;
  GHashTable *p = NULL;
  if (!ms_cmp_map(cmp, r, &p, NULL)) return FALSE;
  g_hash_table_unref(p);
  char *k = cache_key(cmp, r);
  g_mutex_lock(&cmp->cache_lock);
  const char *v = g_hash_table_lookup(cmp->cache, k);
  guint64 x[8] = {0};
  gboolean hit = v && sscanf(v, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                                " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
                             &x[0], &x[1], &x[2], &x[3], &x[4], &x[5], &x[6], &x[7]) >= 7;
  g_mutex_unlock(&cmp->cache_lock);
  g_free(k);
  if (!hit) return FALSE;
  MsMemoryCounts sh = {x[1], x[2], x[3]}, gl = {x[4], x[5], x[6]};
  set_result(r, x[0], x[7], &sh, &gl);
  return TRUE;
}

static void cache_store(MsCompare *cmp, MsCmpRecord *r) {
  if (!cmp->cache) return;
  char *k = cache_key(cmp, r);
  char *v = g_strdup_printf("%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                            " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
                            r->time_units, r->shared.stages, r->shared.dispatches, r->shared.requests, r->global.stages,
                            r->global.dispatches, r->global.requests, r->launch_units);
  g_mutex_lock(&cmp->cache_lock);
  if (cmp->cache_path) { /* append at once: a long run that is cut off keeps its results */
    FILE *f = fopen(cmp->cache_path, "a");
    if (f) {
      fprintf(f, "%s\t%s\n", k, v);
      fclose(f);
    }
  }
  g_hash_table_replace(cmp->cache, k, v);
  g_mutex_unlock(&cmp->cache_lock);
}

gboolean ms_cmp_load_cache(MsCompare *cmp, const char *path, GError **error) {
  if (!cmp->cache) cmp->cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  g_free(cmp->cache_path);
  cmp->cache_path = g_strdup(path);
  gchar *text = NULL;
  if (!g_file_test(path, G_FILE_TEST_EXISTS)) return TRUE;
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
  GString *s = g_string_new("# memsim compare: simulated results (model|family|algorithm|parameters|replicas\t"
                            "time_units shared.stages shared.dispatches shared.requests global.stages global.dispatches "
                            "global.requests launch_units); delete to recompute\n");
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

static gboolean simulate_one(MsCompare *cmp, MsCmpRecord *r, GError **error) {
  if (cache_lookup(cmp, r)) return TRUE;
  MsSource *s = ms_cmp_record_source(cmp, r, error);
  if (!s) return FALSE;
  MsSimOptions opt = {0};
  opt.threads = 1;
  GError *e = NULL;
  MsResult *res = ms_simulate(cmp->model, s, &opt, &e);
  ms_source_free(s);
  if (!res) {
    g_set_error(error, MS_ERROR, e->code, "%s: record %u (%s %s %s): the model cannot run it: %s", r->file, r->index,
                r->workload, r->algorithm, r->params_text, e->message);
    g_error_free(e);
    return FALSE;
  }
  set_result(r, res->time_units, res->launch_total, &res->shared, &res->global);
  ms_result_free(res);
  if (r->time_units) cache_store(cmp, r);
  if (r->time_units == 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: record %u (%s %s %s): the trace makes no memory request", r->file,
                r->index, r->workload, r->algorithm, r->params_text);
    return FALSE;
  }
  return TRUE;
}

typedef struct {
  MsCompare *cmp;
  GMutex lock;
  GError **errors; /* one per record */
} Job;

static void job_run(gpointer data, gpointer user) {
  Job *j = user;
  guint i = GPOINTER_TO_UINT(data) - 1;
  GError *e = NULL;
  if (!simulate_one(j->cmp, g_ptr_array_index(j->cmp->records, i), &e)) j->errors[i] = e;
}

gboolean ms_cmp_simulate(MsCompare *cmp, GError **error) {
  guint n = cmp->records->len;
  Job j = {cmp, {0}, g_new0(GError *, n ? n : 1)};
  g_mutex_init(&j.lock);
  if (cmp->threads <= 1) {
    for (guint i = 0; i < n; i++)
      if (!((MsCmpRecord *)g_ptr_array_index(cmp->records, i))->skip) job_run(GUINT_TO_POINTER(i + 1), &j);
  } else {
    GThreadPool *pool = g_thread_pool_new(job_run, &j, (gint)cmp->threads, TRUE, NULL);
    for (guint i = 0; i < n; i++)
      if (!((MsCmpRecord *)g_ptr_array_index(cmp->records, i))->skip)
        g_thread_pool_push(pool, GUINT_TO_POINTER(i + 1), NULL);
    g_thread_pool_free(pool, FALSE, TRUE);
  }
  g_mutex_clear(&j.lock);
  gboolean ok = TRUE;
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
