/* ms-trace.c: opening a trace of any form, and writing a stream in explicit or binary form. */
#include "ms-formats.h"
#include <errno.h>
#include <string.h>

static MsSource *open_json_text(const char *text, gsize len, const char *path, GError **error) {
  cJSON *root = ms_json_parse(text, len, path, error);
  if (!root) return NULL;
  MsSource *src = NULL;
  if (!cJSON_IsObject(root)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: a trace file holds a JSON object, got %s",
                path, ms_json_type_name(root));
  } else {
    const cJSON *form = cJSON_GetObjectItemCaseSensitive(root, "form");
    const char *fs = "explicit";
    if (form && !(fs = ms_json_get_string(form, path, "form", error))) {
      /* error set */
    } else if (strcmp(fs, "explicit") == 0) {
      src = ms_trace_explicit_from_json(root, path, error);
    } else if (strcmp(fs, "compact") == 0) {
      src = ms_trace_compact_from_json(root, path, error);
    } else {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                  "%s: form: unknown trace form \"%s\" (expected explicit or compact)", path, fs);
    }
  }
  cJSON_Delete(root);
  return src;
}

MsSource *ms_trace_open_memory(const void *data, gsize length, const char *name, GError **error) {
  if (length == 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_SYNTAX, "%s: file is empty", name);
    return NULL;
  }
  if (((const char *)data)[0] == MS_BINARY_MAGIC[0]) {
    /* the binary reader streams from a FILE: give it a private copy of the bytes */
    FILE *f = fmemopen(NULL, length, "w+b");
    if (!f) {
      g_set_error(error, MS_ERROR, MS_ERROR_IO, "%s: cannot buffer: %s", name, g_strerror(errno));
      return NULL;
    }
    fwrite(data, 1, length, f);
    rewind(f);
    return ms_trace_binary_open(f, name, error);
  }
  return open_json_text(data, length, name, error);
}

MsSource *ms_trace_open(const char *path, GError **error) {
  if (!ms_file_check(path, error)) return NULL;
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f) {
    g_set_error(error, MS_ERROR, MS_ERROR_IO, "%s: cannot open: %s", path, g_strerror(errno));
    return NULL;
  }
  /* The binary form starts with its magic; anything else is read as JSON. */
  int c = fgetc(f);
  if (c == EOF) {
    if (f != stdin) fclose(f);
    g_set_error(error, MS_ERROR, MS_ERROR_SYNTAX, "%s: file is empty", path);
    return NULL;
  }
  ungetc(c, f);
  if (c == MS_BINARY_MAGIC[0]) return ms_trace_binary_open(f, path, error);
  if (f != stdin) fclose(f);
  gsize len;
  char *text = ms_json_read_file(path, MS_TRACE_MAX_JSON_BYTES, &len, error);
  if (!text) return NULL;
  MsSource *src = open_json_text(text, len, path, error);
  g_free(text);
  return src;
}

static gboolean write_err(FILE *out, const char *name, GError **error) {
  if (ferror(out)) {
    g_set_error(error, MS_ERROR, MS_ERROR_IO, "%s: write error: %s", name, g_strerror(errno));
    return FALSE;
  }
  return TRUE;
}

static gboolean write_explicit(MsSource *src, FILE *out, const char *name, GError **error) {
  guint64 p = ms_source_threads(src);
  cJSON *nm = cJSON_CreateString(ms_source_name(src));
  char *nms = cJSON_PrintUnformatted(nm);
  cJSON_Delete(nm);
  fprintf(out, "{\"memsim_trace\": 1,\n \"name\": %s,\n \"threads\": %" G_GUINT64_FORMAT
               ",\n \"block_threads\": %" G_GUINT64_FORMAT ",\n",
          nms, p, ms_source_block_threads(src));
  if (ms_source_shared_words(src))
    fprintf(out, " \"shared_words\": %" G_GUINT64_FORMAT ",\n", ms_source_shared_words(src));
  if (ms_source_global_words(src))
    fprintf(out, " \"global_words\": %" G_GUINT64_FORMAT ",\n", ms_source_global_words(src));
  fputs(" \"steps\": [", out);
  cJSON_free(nms);
  gint64 *a = g_new(gint64, MIN(p, 65536));
  gboolean first = TRUE, ok = TRUE;
  for (;;) {
    MsStep st;
    MsNext nx = ms_source_next(src, &st, error);
    if (nx == MS_NEXT_ERROR) {
      ok = FALSE;
      break;
    }
    if (nx == MS_NEXT_END) break;
    fprintf(out, "%s\n  {\"op\": \"%s\"", first ? "" : ",", ms_op_name(st.op));
    first = FALSE;
    if (st.op == MS_OP_SYNC) {
      fprintf(out, ", \"scope\": \"%s\"}", ms_scope_name(st.scope));
      continue;
    }
    if (st.op == MS_OP_SHUFFLE || st.op == MS_OP_AWAIT) { /* "active" only when some thread is not */
      guint8 *act = g_malloc(p);
      gboolean all = TRUE;
      for (guint64 f = 0; f < p && ok; f += 65536) {
        guint64 n = MIN(65536, p - f);
        if (!ms_source_fill(src, f, n, a, error)) ok = FALSE;
        for (guint64 i = 0; ok && i < n; i++) all &= (act[f + i] = a[i] >= 0);
      }
      if (ok && !all) {
        fputs(", \"active\": [", out);
        for (guint64 i = 0; i < p; i++) fputs(i ? (act[i] ? ", true" : ", false") : (act[i] ? "true" : "false"), out);
        fputs("]", out);
      }
      g_free(act);
      if (!ok) break;
      fputs("}", out);
      if (!write_err(out, name, error)) {
        ok = FALSE;
        break;
      }
      continue;
    }
    if (MS_OP_IS_FLAG(st.op)) fputs(", \"flag\": [", out); /* a flag number per thread */
    else if (st.op == MS_OP_COMPUTE) fputs(", \"instructions\": [", out); /* an instruction count per thread */
    else fprintf(out, "%s, \"space\": \"%s\", \"addr\": [", st.async ? ", \"async\": true" : "", ms_space_name(st.space));
    for (guint64 f = 0; f < p && ok; f += 65536) {
      guint64 n = MIN(65536, p - f);
      if (!ms_source_fill(src, f, n, a, error)) ok = FALSE;
      for (guint64 i = 0; ok && i < n; i++) {
        if (f + i) fputs(", ", out);
        if (a[i] < 0) fputs("null", out);
        else fprintf(out, "%" G_GINT64_FORMAT, a[i]);
      }
    }
    if (!ok) break;
    fputs("]}", out);
    if (!write_err(out, name, error)) {
      ok = FALSE;
      break;
    }
  }
  g_free(a);
  if (!ok) return FALSE;
  fputs("\n ]}\n", out);
  fflush(out);
  return write_err(out, name, error);
}

gboolean ms_trace_write(MsSource *src, MsFormat format, FILE *out, const char *name,
                        GError **error) {
  if (format == MS_FORMAT_BINARY) return ms_trace_binary_write(src, out, name, error);
  return write_explicit(src, out, name, error);
}
