/* cmd-sweep.c: `memsim sweep SPEC.json`: a grid over model keys and workload parameters
 * (docs/sweep.md).  Every point is run on the local cores (one thread each), or listed as
 * one command per point for GNU parallel or a Slurm array; rows are CSV, one per point,
 * keyed by the point's index, so a run resumes where it stopped and per-point files merge
 * back into one table. */
#include "ms-cli.h"
#include "ms-private.h"
#include "ms-workloads.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>

#define RESULT_COLUMNS "time_units,stages,requests,extra_stages,predicted_ns,bound"

typedef struct {
  char *name;      /* model key or parameter name */
  GPtrArray *vals; /* of char *: the values as text (JSON numbers, strings, booleans) */
  gboolean model;  /* a model key (else a workload parameter) */
} Axis;

typedef struct {
  char *path, *dir;
  cJSON *base_model; /* the model file's JSON */
  char *model_file;
  char *family, *trace; /* a workload family, or a fixed trace file */
  GPtrArray *algorithms; /* of char * (family) */
  GPtrArray *axes;       /* of Axis *: model keys, then workload parameters */
  guint64 points;
} Spec;

static void axis_free(gpointer p) {
  Axis *a = p;
  g_free(a->name);
  g_ptr_array_free(a->vals, TRUE);
  g_free(a);
}

static void spec_free(Spec *s) {
  g_free(s->path);
  g_free(s->dir);
  cJSON_Delete(s->base_model);
  g_free(s->model_file);
  g_free(s->family);
  g_free(s->trace);
  if (s->algorithms) g_ptr_array_free(s->algorithms, TRUE);
  if (s->axes) g_ptr_array_free(s->axes, TRUE);
}

static char *resolve(const Spec *s, const char *p) {
  return g_path_is_absolute(p) ? g_strdup(p) : g_build_filename(s->dir, p, NULL);
}

/* A grid axis: a non-empty array of numbers, strings or booleans. */
static gboolean read_axis(Spec *s, const cJSON *item, gboolean model, const char *where, GError **error) {
  if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) == 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s.%s: expected a non-empty array of values, got %s", s->path,
                where, item->string, cJSON_IsArray(item) ? "an empty array" : ms_json_type_name(item));
    return FALSE;
  }
  Axis *a = g_new0(Axis, 1);
  a->name = g_strdup(item->string);
  a->model = model;
  a->vals = g_ptr_array_new_with_free_func(g_free);
  g_ptr_array_add(s->axes, a);
  const cJSON *v;
  cJSON_ArrayForEach(v, item) {
    if (cJSON_IsString(v)) g_ptr_array_add(a->vals, g_strdup(v->valuestring));
    else if (cJSON_IsBool(v)) g_ptr_array_add(a->vals, g_strdup(cJSON_IsTrue(v) ? "true" : "false"));
    else if (cJSON_IsNumber(v)) {
      char buf[64];
      if (v->valuedouble == (double)(gint64)v->valuedouble) g_snprintf(buf, sizeof buf, "%" G_GINT64_FORMAT, (gint64)v->valuedouble);
      else g_ascii_formatd(buf, sizeof buf, "%.17g", v->valuedouble);
      g_ptr_array_add(a->vals, g_strdup(buf));
    } else {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s.%s: values must be numbers, strings or booleans, got %s",
                  s->path, where, item->string, ms_json_type_name(v));
      return FALSE;
    }
  }
  if (s->points > G_MAXUINT32 / a->vals->len) {
    g_set_error(error, MS_ERROR, MS_ERROR_LIMIT, "%s: more than 2^32 points", s->path);
    return FALSE;
  }
  s->points *= a->vals->len;
  return TRUE;
}

static gboolean spec_read(Spec *s, const char *path, GError **error) {
  static const char *const keys[] = {"memsim_sweep", "model", "model_keys", "family", "algorithms", "params", "trace", NULL};
  memset(s, 0, sizeof *s);
  s->path = g_strdup(path);
  s->dir = g_path_get_dirname(path);
  s->axes = g_ptr_array_new_with_free_func(axis_free);
  s->points = 1;
  gsize len;
  char *text = ms_json_read_file(path, 1 << 24, &len, error);
  if (!text) return FALSE;
  cJSON *root = ms_json_parse(text, len, path, error);
  g_free(text);
  if (!root) return FALSE;
  gboolean ok = FALSE;
  const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "memsim_sweep");
  const cJSON *model = cJSON_GetObjectItemCaseSensitive(root, "model");
  const cJSON *mk = cJSON_GetObjectItemCaseSensitive(root, "model_keys");
  const cJSON *fam = cJSON_GetObjectItemCaseSensitive(root, "family");
  const cJSON *algs = cJSON_GetObjectItemCaseSensitive(root, "algorithms");
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(root, "params");
  const cJSON *trace = cJSON_GetObjectItemCaseSensitive(root, "trace");
  const char *str;
  guint64 v;
  if (!cJSON_IsObject(root)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: a sweep is a JSON object", path);
    goto out;
  }
  if (!ms_json_check_keys(root, keys, path, "sweep", error)) goto out;
  if (!ver) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: missing \"memsim_sweep\": 1", path);
    goto out;
  }
  if (!ms_json_get_uint(ver, 1, 1, path, "memsim_sweep", &v, error)) goto out;
  if (!model || !(str = ms_json_get_string(model, path, "model", error))) {
    if (!model) g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: missing \"model\" (a model file)", path);
    goto out;
  }
  s->model_file = resolve(s, str);
  {
    char *mt = ms_json_read_file(s->model_file, 1 << 20, &len, error);
    if (!mt) goto out;
    s->base_model = ms_json_parse(mt, len, s->model_file, error);
    g_free(mt);
    if (!s->base_model) goto out;
    /* the model itself must load (its own messages) */
    MsModel *m = ms_model_load(s->model_file, error);
    if (!m) goto out;
    ms_model_free(m);
  }
  if ((fam != NULL) == (trace != NULL)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: give either \"family\" (with \"algorithms\") or \"trace\"", path);
    goto out;
  }
  if (trace) {
    if (!(str = ms_json_get_string(trace, path, "trace", error))) goto out;
    s->trace = resolve(s, str);
    if (algs || params) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: \"algorithms\" and \"params\" go with \"family\", not \"trace\"", path);
      goto out;
    }
  } else {
    if (!(str = ms_json_get_string(fam, path, "family", error))) goto out;
    s->family = g_strdup(str);
    if (!cJSON_IsArray(algs) || cJSON_GetArraySize(algs) == 0) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: \"algorithms\": expected a non-empty array of names", path);
      goto out;
    }
    s->algorithms = g_ptr_array_new_with_free_func(g_free);
    const cJSON *a;
    cJSON_ArrayForEach(a, algs) {
      if (!(str = ms_json_get_string(a, path, "algorithms[]", error))) goto out;
      g_ptr_array_add(s->algorithms, g_strdup(str));
    }
    s->points *= s->algorithms->len;
  }
  if (mk && !cJSON_IsObject(mk)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: \"model_keys\": expected an object of arrays", path);
    goto out;
  }
  if (params && !cJSON_IsObject(params)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: \"params\": expected an object of arrays", path);
    goto out;
  }
  const cJSON *it;
  if (mk) cJSON_ArrayForEach(it, mk) if (!read_axis(s, it, TRUE, "model_keys", error)) goto out;
  if (params) cJSON_ArrayForEach(it, params) if (!read_axis(s, it, FALSE, "params", error)) goto out;
  ok = TRUE;
out:
  cJSON_Delete(root);
  return ok;
}

/* Point k's algorithm and axis values (the last axis fastest, algorithms slowest). */
static const char *point_values(const Spec *s, guint64 k, const char **vals) {
  for (guint i = s->axes->len; i-- > 0;) {
    const Axis *a = s->axes->pdata[i];
    vals[i] = a->vals->pdata[k % a->vals->len];
    k /= a->vals->len;
  }
  return s->algorithms ? s->algorithms->pdata[k % s->algorithms->len] : "";
}

static char *csv_field(const char *v) {
  if (!strpbrk(v, ",\"\n")) return g_strdup(v);
  GString *g = g_string_new("\"");
  for (const char *p = v; *p; p++) {
    if (*p == '"') g_string_append_c(g, '"');
    g_string_append_c(g, *p);
  }
  g_string_append_c(g, '"');
  return g_string_free(g, FALSE);
}

static char *header(const Spec *s) {
  GString *h = g_string_new("point,algorithm");
  for (guint i = 0; i < s->axes->len; i++) {
    const Axis *a = s->axes->pdata[i];
    char *f = csv_field(a->name);
    g_string_append_printf(h, ",%s%s", a->model ? "model." : "", f);
    g_free(f);
  }
  g_string_append(h, "," RESULT_COLUMNS "\n");
  return g_string_free(h, FALSE);
}

/* Simulate point k; returns its CSV row (new) or NULL with error naming the point. */
static char *run_point(const Spec *s, guint64 k, GError **error) {
  const char **vals = g_new0(const char *, MAX(s->axes->len, 1));
  const char *alg = point_values(s, k, vals);
  char *where = g_strdup_printf("%s: point %" G_GUINT64_FORMAT, s->path, k);
  cJSON *m = cJSON_Duplicate(s->base_model, TRUE);
  GHashTable *p = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; i < s->axes->len; i++) {
    const Axis *a = s->axes->pdata[i];
    if (!a->model) {
      g_hash_table_replace(p, g_strdup(a->name), g_strdup(strcmp(vals[i], "true") == 0 ? "1" : strcmp(vals[i], "false") == 0 ? "0" : vals[i]));
      continue;
    }
    cJSON *nv = cJSON_Parse(vals[i]);
    if (!nv) nv = cJSON_CreateString(vals[i]);
    if (cJSON_HasObjectItem(m, a->name)) cJSON_ReplaceItemInObjectCaseSensitive(m, a->name, nv);
    else cJSON_AddItemToObject(m, a->name, nv);
  }
  char *mtext = cJSON_PrintUnformatted(m);
  cJSON_Delete(m);
  char *row = NULL;
  GError *e = NULL;
  MsModel *model = ms_model_parse(mtext, strlen(mtext), where, &e);
  cJSON_free(mtext);
  MsSource *src = NULL;
  if (model) src = s->trace ? ms_trace_open(s->trace, &e) : ms_workload_source(s->family, alg, p, &e);
  MsSimOptions opt = {0};
  opt.threads = 1;
  MsResult *r = src ? ms_simulate(model, src, &opt, &e) : NULL;
  if (r) {
    GString *g = g_string_new(NULL);
    g_string_append_printf(g, "%" G_GUINT64_FORMAT ",%s", k, alg);
    for (guint i = 0; i < s->axes->len; i++) {
      char *f = csv_field(vals[i]);
      g_string_append_printf(g, ",%s", f);
      g_free(f);
    }
    char ns[64];
    g_ascii_formatd(ns, sizeof ns, "%.6f", ms_result_predicted_ns(r, model));
    g_string_append_printf(g, ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%s,%s\n",
                           r->time_units, r->stages, r->requests, r->extra_stages, ns, ms_result_bound(r));
    row = g_string_free(g, FALSE);
  } else {
    const char *msg = e ? e->message : "?";
    if (g_str_has_prefix(msg, where)) g_set_error(error, MS_ERROR, e ? e->code : MS_ERROR_INVALID, "%s", msg);
    else g_set_error(error, MS_ERROR, e ? e->code : MS_ERROR_INVALID, "%s (%s): %s", where, alg, msg);
  }
  g_clear_error(&e);
  ms_result_free(r);
  ms_source_free(src);
  ms_model_free(model);
  g_hash_table_destroy(p);
  g_free(where);
  g_free(vals);
  return row;
}

/* The points already in `path` (a CSV written by sweep): its first column. */
static GHashTable *done_points(const char *path, gboolean *has_header) {
  GHashTable *done = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  *has_header = FALSE;
  char *text = NULL;
  if (!g_file_get_contents(path, &text, NULL, NULL)) return done;
  char **lines = g_strsplit(text, "\n", -1);
  for (int i = 0; lines[i]; i++) {
    if (g_str_has_prefix(lines[i], "point,")) *has_header = TRUE;
    char *end = NULL;
    guint64 k = g_ascii_strtoull(lines[i], &end, 10);
    if (end != lines[i] && *end == ',') {
      gint64 *key = g_new(gint64, 1);
      *key = (gint64)k;
      g_hash_table_add(done, key);
    }
  }
  g_strfreev(lines);
  g_free(text);
  return done;
}

typedef struct {
  const Spec *s;
  FILE *out;
  GMutex lock;
  guint64 done, total, failed;
  GError *first;
  gboolean tty;
  gint64 t0;
} Pool;

static void point_job(gpointer data, gpointer user) {
  Pool *pl = user;
  guint64 k = GPOINTER_TO_SIZE(data) - 1;
  GError *e = NULL;
  char *row = run_point(pl->s, k, &e);
  g_mutex_lock(&pl->lock);
  if (row) {
    fputs(row, pl->out);
    fflush(pl->out);
  } else {
    pl->failed++;
    if (!pl->first) pl->first = e;
    else g_error_free(e);
  }
  pl->done++;
  if (pl->tty)
    fprintf(stderr, "\rmemsim sweep: %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " points, %.1f s", pl->done, pl->total,
            (double)(g_get_monotonic_time() - pl->t0) / 1e6);
  g_mutex_unlock(&pl->lock);
  g_free(row);
}

/* --merge: the rows of every input, one header, each point once, in point order. */
static int merge(const char *out_path, char **inputs, int n) {
  GHashTable *by = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
  char *head = NULL;
  int code = MS_EXIT_OK;
  for (int i = 0; i < n && code == MS_EXIT_OK; i++) {
    GError *e = NULL;
    char *text = NULL;
    if (!ms_file_check(inputs[i], &e) || !g_file_get_contents(inputs[i], &text, NULL, &e)) {
      code = ms_cli_fail("sweep", e);
      break;
    }
    char **lines = g_strsplit(text, "\n", -1);
    for (int j = 0; lines[j]; j++) {
      if (!*lines[j]) continue;
      if (g_str_has_prefix(lines[j], "point,")) {
        if (head && strcmp(head, lines[j]) != 0) {
          fprintf(stderr, "memsim sweep: %s: its columns differ from the first file's\n", inputs[i]);
          code = MS_EXIT_INPUT;
          break;
        }
        if (!head) head = g_strdup(lines[j]);
        continue;
      }
      char *end = NULL;
      guint64 k = g_ascii_strtoull(lines[j], &end, 10);
      if (end == lines[j] || *end != ',') {
        fprintf(stderr, "memsim sweep: %s:%d: not a sweep row\n", inputs[i], j + 1);
        code = MS_EXIT_INPUT;
        break;
      }
      gint64 *key = g_new(gint64, 1);
      *key = (gint64)k;
      g_hash_table_replace(by, key, g_strdup(lines[j]));
    }
    g_strfreev(lines);
    g_free(text);
  }
  if (code == MS_EXIT_OK && !head) {
    fprintf(stderr, "memsim sweep: --merge: no header row in the inputs\n");
    code = MS_EXIT_INPUT;
  }
  if (code == MS_EXIT_OK) {
    /* the points in order */
    guint nk = g_hash_table_size(by);
    gint64 *ks = g_new(gint64, nk);
    GHashTableIter it;
    gpointer kp;
    guint q = 0;
    g_hash_table_iter_init(&it, by);
    while (g_hash_table_iter_next(&it, &kp, NULL)) ks[q++] = *(gint64 *)kp;
    for (guint a = 1; a < nk; a++)
      for (guint b = a; b > 0 && ks[b - 1] > ks[b]; b--) {
        gint64 t = ks[b];
        ks[b] = ks[b - 1];
        ks[b - 1] = t;
      }
    GString *o = g_string_new(head);
    g_string_append_c(o, '\n');
    for (guint a = 0; a < nk; a++) {
      g_string_append(o, g_hash_table_lookup(by, &ks[a]));
      g_string_append_c(o, '\n');
    }
    code = ms_cli_write_text("sweep", o->str, out_path);
    g_string_free(o, TRUE);
    g_free(ks);
  }
  g_free(head);
  g_hash_table_destroy(by);
  return code;
}

int ms_cmd_sweep(int argc, char **argv) {
  char *output = NULL, *emit = NULL;
  gint jobs = 0;
  gint64 point = -1;
  gboolean do_merge = FALSE;
  GOptionEntry entries[] = {
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
       "CSV of the rows (default stdout); with --emit, the directory of the per-point files (default sweep-out)", "FILE"},
      {"jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "Points at a time (default: the processors)", "N"},
      {"point", 0, 0, G_OPTION_ARG_INT64, &point, "Run only point K (what --emit's jobs do)", "K"},
      {"emit", 0, 0, G_OPTION_ARG_STRING, &emit,
       "Print the jobs instead of running them: parallel (one command per line, for GNU parallel) or slurm (an array script)", "KIND"},
      {"merge", 0, 0, G_OPTION_ARG_NONE, &do_merge, "Merge the CSV files given as arguments into one (-o), in point order", NULL},
      {NULL}};
  GOptionContext *ctx = g_option_context_new("SPEC.json - a grid of model keys and workload parameters, one row per point");
  g_option_context_set_summary(ctx, "Expands the grid of SPEC.json (docs/sweep.md), runs every point on the local\n"
                                    "cores and writes one CSV row per point; points already in -o FILE are skipped.\n"
                                    "  memsim sweep SPEC.json --emit parallel -o DIR | parallel\n"
                                    "  memsim sweep --merge -o all.csv DIR/*.csv");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int code = MS_EXIT_OK;
  Spec s;
  gboolean have_spec = FALSE;
  if (!ms_cli_parse(ctx, "sweep", &argc, &argv, &code)) goto out;
  if (do_merge) {
    if (argc < 2) {
      fprintf(stderr, "memsim sweep: --merge needs the CSV files to merge\nTry 'memsim sweep --help'\n");
      code = MS_EXIT_INPUT;
    } else {
      code = merge(output, argv + 1, argc - 1);
    }
    goto out;
  }
  if (argc != 2) {
    fprintf(stderr, "memsim sweep: expected SPEC.json\nTry 'memsim sweep --help'\n");
    code = MS_EXIT_INPUT;
    goto out;
  }
  GError *err = NULL;
  if (!spec_read(&s, argv[1], &err)) {
    have_spec = TRUE;
    code = ms_cli_fail("sweep", err);
    goto out;
  }
  have_spec = TRUE;
  if (point >= 0 && (guint64)point >= s.points) {
    fprintf(stderr, "memsim sweep: --point %" G_GINT64_FORMAT " is beyond the %" G_GUINT64_FORMAT " points of %s\n", point,
            s.points, argv[1]);
    code = MS_EXIT_INPUT;
    goto out;
  }
  if (emit) {
    const char *dir = output ? output : "sweep-out";
    /* the jobs run this very program (another host needs it at the same path) */
    char *exe = g_file_read_link("/proc/self/exe", NULL);
    if (!exe) exe = g_strdup("memsim");
    char *q_exe = g_shell_quote(exe), *q_spec = g_shell_quote(argv[1]), *q_dir = g_shell_quote(dir);
    if (strcmp(emit, "parallel") == 0) {
      if (g_mkdir_with_parents(dir, 0777) != 0) {
        fprintf(stderr, "memsim sweep: %s: cannot create: %s\n", dir, g_strerror(errno));
        code = MS_EXIT_INPUT;
      }
      for (guint64 k = 0; k < s.points && code == MS_EXIT_OK; k++)
        printf("%s sweep %s --point %" G_GUINT64_FORMAT " -o %s/point-%" G_GUINT64_FORMAT ".csv\n", q_exe, q_spec, k, q_dir, k);
    } else if (strcmp(emit, "slurm") == 0) {
      printf("#!/bin/bash\n#SBATCH --job-name=memsim-sweep\n#SBATCH --array=0-%" G_GUINT64_FORMAT "\n#SBATCH --cpus-per-task=1\n"
             "# memsim sweep %s: one array task per point; merge with: memsim sweep --merge -o all.csv %s/point-*.csv\n"
             "mkdir -p %s\n%s sweep %s --point \"$SLURM_ARRAY_TASK_ID\" -o %s/point-\"$SLURM_ARRAY_TASK_ID\".csv\n",
             s.points - 1, argv[1], dir, q_dir, q_exe, q_spec, q_dir);
    } else {
      fprintf(stderr, "memsim sweep: --emit: unknown kind '%s' (parallel or slurm)\n", emit);
      code = MS_EXIT_INPUT;
    }
    g_free(q_exe);
    g_free(q_spec);
    g_free(q_dir);
    g_free(exe);
    goto out;
  }
  gboolean has_header = FALSE;
  GHashTable *done = output ? done_points(output, &has_header) : g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  FILE *out = output ? fopen(output, "a") : stdout;
  if (!out) {
    fprintf(stderr, "memsim sweep: %s: cannot open: %s\n", output, g_strerror(errno));
    g_hash_table_destroy(done);
    code = MS_EXIT_INPUT;
    goto out;
  }
  if (!has_header) {
    char *h = header(&s);
    fputs(h, out);
    g_free(h);
  }
  Pool pl = {.s = &s, .out = out, .tty = isatty(fileno(stderr)), .t0 = g_get_monotonic_time()};
  g_mutex_init(&pl.lock);
  GArray *todo = g_array_new(FALSE, FALSE, sizeof(guint64));
  for (guint64 k = point >= 0 ? (guint64)point : 0; k < (point >= 0 ? (guint64)point + 1 : s.points); k++) {
    gint64 key = (gint64)k;
    if (!g_hash_table_contains(done, &key)) g_array_append_val(todo, k);
  }
  pl.total = todo->len;
  if (output && todo->len < s.points && point < 0)
    fprintf(stderr, "memsim sweep: %s: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " points already there, %u to run\n", output,
            s.points - todo->len, s.points, todo->len);
  guint nj = jobs > 0 ? (guint)jobs : g_get_num_processors();
  GThreadPool *tp = g_thread_pool_new(point_job, &pl, (gint)MAX(1u, MIN(nj, MAX(todo->len, 1u))), TRUE, NULL);
  for (guint i = 0; i < todo->len; i++) g_thread_pool_push(tp, GSIZE_TO_POINTER(g_array_index(todo, guint64, i) + 1), NULL);
  g_thread_pool_free(tp, FALSE, TRUE);
  if (pl.tty && pl.total) fputc('\n', stderr);
  if (output && fclose(out) != 0) {
    fprintf(stderr, "memsim sweep: %s: write error: %s\n", output, g_strerror(errno));
    code = MS_EXIT_INPUT;
  }
  if (pl.first) {
    fprintf(stderr, "memsim sweep: %" G_GUINT64_FORMAT " point%s failed; the first: ", pl.failed, pl.failed == 1 ? "" : "s");
    code = ms_cli_fail("sweep", pl.first);
  }
  g_mutex_clear(&pl.lock);
  g_array_free(todo, TRUE);
  g_hash_table_destroy(done);
out:
  if (have_spec) spec_free(&s);
  g_free(output);
  g_free(emit);
  g_option_context_free(ctx);
  return code;
}
