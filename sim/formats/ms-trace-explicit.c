/* ms-trace-explicit.c: the explicit JSON trace form (docs/trace-format.md): one address
 * (or null) per thread per step.  The whole file is validated when opened, so a bad trace
 * fails before any result is computed. */
#include "ms-formats.h"
#include <string.h>

typedef struct {
  GArray *steps;   /* of MsStep */
  GPtrArray *addr; /* gint64[threads] per step, NULL for sync */
  guint64 threads;
  guint pos;       /* steps returned so far */
} Explicit;

static MsNext ex_next(gpointer self, MsStep *step, GError **error) {
  (void)error;
  Explicit *x = self;
  if (x->pos >= x->steps->len) return MS_NEXT_END;
  *step = g_array_index(x->steps, MsStep, x->pos);
  x->pos++;
  return MS_NEXT_STEP;
}

static gboolean ex_fill(gpointer self, guint64 first, guint64 count, gint64 *addr,
                        GError **error) {
  (void)error;
  Explicit *x = self;
  const gint64 *a = g_ptr_array_index(x->addr, x->pos - 1);
  memcpy(addr, a + first, count * sizeof(gint64));
  return TRUE;
}

static void ex_destroy(gpointer self) {
  Explicit *x = self;
  g_array_free(x->steps, TRUE);
  g_ptr_array_free(x->addr, TRUE);
  g_free(x);
}

/* fill() reads only the step's stored addresses: safe on several workers at once. */
static gboolean ex_fill_worker(gpointer self, guint worker, guint64 first, guint64 count, gint64 *addr,
                              GError **error) {
  (void)worker;
  return ex_fill(self, first, count, addr, error);
}

static const MsSourceFuncs explicit_funcs = {ex_next, ex_fill, ex_destroy, NULL, ex_fill_worker};

gboolean ms_parse_op(const cJSON *step, const char *fn, const char *where, MsStep *out,
                     GError **error) {
  const cJSON *op = cJSON_GetObjectItemCaseSensitive(step, "op");
  char *w = g_strdup_printf("%s.op", where);
  const char *s = op ? ms_json_get_string(op, fn, w, error) : NULL;
  if (!op)
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: missing key \"op\"", fn, where);
  g_free(w);
  if (!s) return FALSE;
  memset(out, 0, sizeof *out);
  if (strcmp(s, "read") == 0) out->op = MS_OP_READ;
  else if (strcmp(s, "write") == 0) out->op = MS_OP_WRITE;
  else if (strcmp(s, "sync") == 0) out->op = MS_OP_SYNC;
  else if (strcmp(s, "shuffle") == 0) out->op = MS_OP_SHUFFLE;
  else if (strcmp(s, "signal") == 0) out->op = MS_OP_SIGNAL;
  else if (strcmp(s, "wait") == 0) out->op = MS_OP_WAIT;
  else if (strcmp(s, "compute") == 0) out->op = MS_OP_COMPUTE;
  else if (strcmp(s, "await") == 0) out->op = MS_OP_AWAIT;
  else {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "%s: %s.op: unknown op \"%s\" (expected read, write, sync, shuffle, signal, wait, compute or await)", fn, where, s);
    return FALSE;
  }
  if (MS_OP_NO_STAGE(out->op)) { /* register exchange, flags, compute: no memory, no barrier */
    if (cJSON_GetObjectItemCaseSensitive(step, "space") || cJSON_GetObjectItemCaseSensitive(step, "scope")) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                  "%s: %s: %s %s step has neither a space nor a scope", fn, where,
                  out->op == MS_OP_AWAIT ? "an" : "a", s);
      return FALSE;
    }
  } else if (out->op == MS_OP_SYNC) {
    if (cJSON_GetObjectItemCaseSensitive(step, "space")) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                  "%s: %s: a sync step has a scope, not a space", fn, where);
      return FALSE;
    }
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(step, "scope");
    out->scope = MS_SCOPE_GRID;
    if (sc) {
      w = g_strdup_printf("%s.scope", where);
      const char *v = ms_json_get_string(sc, fn, w, error);
      g_free(w);
      if (!v) return FALSE;
      if (strcmp(v, "grid") == 0) out->scope = MS_SCOPE_GRID;
      else if (strcmp(v, "block") == 0) out->scope = MS_SCOPE_BLOCK;
      else {
        g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                    "%s: %s.scope: unknown scope \"%s\" (expected grid or block)", fn, where, v);
        return FALSE;
      }
    }
  } else {
    if (cJSON_GetObjectItemCaseSensitive(step, "scope")) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                  "%s: %s: a %s step has a space, not a scope", fn, where, s);
      return FALSE;
    }
    const cJSON *sp = cJSON_GetObjectItemCaseSensitive(step, "space");
    out->space = MS_SPACE_GLOBAL;
    if (sp) {
      w = g_strdup_printf("%s.space", where);
      const char *v = ms_json_get_string(sp, fn, w, error);
      g_free(w);
      if (!v) return FALSE;
      if (strcmp(v, "global") == 0) out->space = MS_SPACE_GLOBAL;
      else if (strcmp(v, "shared") == 0) out->space = MS_SPACE_SHARED;
      else {
        g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                    "%s: %s.space: unknown space \"%s\" (expected global or shared)", fn, where, v);
        return FALSE;
      }
    }
    const cJSON *as = cJSON_GetObjectItemCaseSensitive(step, "async");
    if (as) { /* an asynchronous copy (docs/models.md, "Asynchronous copies") */
      if (!cJSON_IsBool(as)) {
        g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s.async: expected true or false, got %s", fn, where,
                    ms_json_type_name(as));
        return FALSE;
      }
      out->async = cJSON_IsTrue(as);
      if (out->async && (out->op != MS_OP_READ || out->space != MS_SPACE_GLOBAL)) {
        g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                    "%s: %s.async: only a global read is asynchronous (this step is a %s %s)", fn, where,
                    ms_space_name(out->space), s);
        return FALSE;
      }
    }
  }
  return TRUE;
}

gboolean ms_parse_header(const cJSON *root, const char *fn, char **name, guint64 *threads,
                         guint64 *block_threads, GError **error) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "memsim_trace");
  gint64 ver;
  if (!v) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "%s: missing key \"memsim_trace\" (the trace format version, 1)", fn);
    return FALSE;
  }
  if (!ms_json_get_int(v, G_MININT64 / 2, G_MAXINT64 / 2, fn, "memsim_trace", &ver, error)) return FALSE;
  if (ver != 1) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "%s: memsim_trace: unsupported trace version %" G_GINT64_FORMAT " (this memsim reads 1)",
                fn, ver);
    return FALSE;
  }
  v = cJSON_GetObjectItemCaseSensitive(root, "name");
  const char *nm = "";
  if (v && !(nm = ms_json_get_string(v, fn, "name", error))) return FALSE;
  v = cJSON_GetObjectItemCaseSensitive(root, "threads");
  if (!v) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: missing key \"threads\"", fn);
    return FALSE;
  }
  if (!ms_json_get_uint(v, 1, MS_MAX_THREADS, fn, "threads", threads, error)) return FALSE;
  v = cJSON_GetObjectItemCaseSensitive(root, "block_threads");
  *block_threads = *threads;
  if (v && !ms_json_get_uint(v, 1, MS_MAX_THREADS, fn, "block_threads", block_threads, error))
    return FALSE;
  *name = g_strdup(nm);
  return TRUE;
}

gboolean ms_parse_shared_words(const cJSON *root, const char *fn, guint64 *words, GError **error) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "shared_words");
  *words = 0;
  return !v || ms_json_get_uint(v, 0, MS_MAX_JSON_INT, fn, "shared_words", words, error);
}

gboolean ms_parse_global_words(const cJSON *root, const char *fn, guint64 *words, GError **error) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "global_words");
  *words = 0;
  return !v || ms_json_get_uint(v, 0, MS_MAX_JSON_INT, fn, "global_words", words, error);
}

MsSource *ms_trace_explicit_from_json(const cJSON *root, const char *fn, GError **error) {
  static const char *const keys[] = {"memsim_trace", "form", "name", "threads", "block_threads",
                                     "shared_words", "global_words", "steps", NULL};
  static const char *const mem_keys[] = {"op", "space", "addr", "async", NULL};
  static const char *const sync_keys[] = {"op", "scope", NULL};
  static const char *const shuffle_keys[] = {"op", "active", NULL};
  static const char *const flag_keys[] = {"op", "flag", NULL};
  static const char *const compute_keys[] = {"op", "instructions", NULL};
  if (!ms_json_check_keys(root, keys, fn, "trace", error)) return NULL;
  char *name;
  guint64 threads, bt, shared_words, global_words;
  if (!ms_parse_header(root, fn, &name, &threads, &bt, error)) return NULL;
  if (!ms_parse_shared_words(root, fn, &shared_words, error) ||
      !ms_parse_global_words(root, fn, &global_words, error)) {
    g_free(name);
    return NULL;
  }
  const cJSON *steps = cJSON_GetObjectItemCaseSensitive(root, "steps");
  Explicit *x = g_new0(Explicit, 1);
  x->steps = g_array_new(FALSE, FALSE, sizeof(MsStep));
  x->addr = g_ptr_array_new_with_free_func(g_free);
  x->threads = threads;
  if (!steps || !cJSON_IsArray(steps)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: steps: expected an array, got %s", fn,
                ms_json_type_name(steps));
    goto fail;
  }
  int si = 0;
  for (const cJSON *st = steps->child; st; st = st->next, si++) {
    char where[64];
    g_snprintf(where, sizeof where, "steps[%d]", si);
    if (!cJSON_IsObject(st)) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: expected an object, got %s", fn,
                  where, ms_json_type_name(st));
      goto fail;
    }
    MsStep step;
    if (!ms_parse_op(st, fn, where, &step, error)) goto fail;
    if (!ms_json_check_keys(st,
                            step.op == MS_OP_SYNC      ? sync_keys
                            : step.op == MS_OP_SHUFFLE || step.op == MS_OP_AWAIT ? shuffle_keys
                            : MS_OP_IS_FLAG(step.op)   ? flag_keys
                            : step.op == MS_OP_COMPUTE ? compute_keys
                                                       : mem_keys,
                            fn, where, error))
      goto fail;
    gint64 *a = NULL;
    if (step.op == MS_OP_SHUFFLE || step.op == MS_OP_AWAIT) { /* "active": one true/false per thread; absent: all */
      const cJSON *ac = cJSON_GetObjectItemCaseSensitive(st, "active");
      a = g_new0(gint64, threads);
      if (ac) {
        if (!cJSON_IsArray(ac) || (guint64)cJSON_GetArraySize(ac) != threads) {
          g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                      "%s: %s.active: expected an array of %" G_GUINT64_FORMAT " true or false (one per thread), got %s",
                      fn, where, threads, cJSON_IsArray(ac) ? "another length" : ms_json_type_name(ac));
          g_free(a);
          goto fail;
        }
        guint64 i = 0;
        for (const cJSON *e = ac->child; e; e = e->next, i++) {
          if (!cJSON_IsBool(e)) {
            g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                        "%s: %s.active[%" G_GUINT64_FORMAT "]: expected true or false, got %s", fn, where, i,
                        ms_json_type_name(e));
            g_free(a);
            goto fail;
          }
          a[i] = cJSON_IsTrue(e) ? 0 : MS_ADDR_NONE;
        }
      }
    } else if (step.op != MS_OP_SYNC) {
      /* memory steps: an address per thread; signal and wait: a flag number per thread */
      const char *key = MS_OP_IS_FLAG(step.op) ? "flag" : step.op == MS_OP_COMPUTE ? "instructions" : "addr";
      const cJSON *ad = cJSON_GetObjectItemCaseSensitive(st, key);
      if (!ad || !cJSON_IsArray(ad)) {
        g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s.%s: expected an array, got %s",
                    fn, where, key, ms_json_type_name(ad));
        goto fail;
      }
      int n = cJSON_GetArraySize(ad);
      if ((guint64)n != threads) {
        g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                    "%s: %s.%s: has %d entries, expected one per thread (%" G_GUINT64_FORMAT ")",
                    fn, where, key, n, threads);
        goto fail;
      }
      a = g_new(gint64, threads);
      guint64 i = 0;
      for (const cJSON *e = ad->child; e; e = e->next, i++) {
        if (cJSON_IsNull(e)) {
          a[i] = MS_ADDR_NONE;
          continue;
        }
        char w2[96];
        g_snprintf(w2, sizeof w2, "%s.%s[%" G_GUINT64_FORMAT "]", where, key, i);
        if (!ms_json_get_int(e, step.op == MS_OP_COMPUTE ? 1 : 0, step.op == MS_OP_COMPUTE ? MS_MAX_INSTRUCTIONS : MS_MAX_JSON_INT,
                             fn, w2, &a[i], error)) {
          g_free(a);
          goto fail;
        }
      }
    }
    g_array_append_val(x->steps, step);
    g_ptr_array_add(x->addr, a);
  }
  MsSource *src = ms_source_new(fn, threads, bt, &explicit_funcs, x);
  ms_source_set_shared_words(src, shared_words);
  ms_source_set_global_words(src, global_words);
  g_free(name);
  return src;
fail:
  g_free(name);
  ex_destroy(x);
  return NULL;
}
