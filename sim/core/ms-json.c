/* ms-json.c: reading JSON files with cJSON, with messages that name file, line and column
 * for syntax errors and the JSON path for semantic ones.  cJSON stores numbers as double,
 * so integrality and range are checked here. */
#include "ms-private.h"
#include <errno.h>
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

guint64 ms_memory_limit(void) {
  guint64 phys = (guint64)sysconf(_SC_PHYS_PAGES) * (guint64)sysconf(_SC_PAGESIZE);
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (phys == 0 || (guint64)rl.rlim_cur < phys))
    return (guint64)rl.rlim_cur;
  return phys;
}

gboolean ms_file_check(const char *path, GError **error) {
  GStatBuf st;
  if (strcmp(path, "-") == 0 || g_stat(path, &st) != 0) return TRUE; /* stdin; or fopen says why */
  const char *what = S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO"
                     : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : S_ISSOCK(st.st_mode) ? "a socket" : NULL;
  if (!what) return TRUE;
  g_set_error(error, MS_ERROR, MS_ERROR_IO, "%s: is %s, not a regular file (give a file, or - for standard input)", path,
              what);
  return FALSE;
}

char *ms_json_read_file(const char *path, gsize max_bytes, gsize *length, GError **error) {
  if (!ms_file_check(path, error)) return NULL;
  GString *buf = g_string_new(NULL);
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f) {
    g_set_error(error, MS_ERROR, MS_ERROR_IO, "%s: cannot open: %s", path, g_strerror(errno));
    g_string_free(buf, TRUE);
    return NULL;
  }
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (buf->len + n > max_bytes) {
      g_set_error(error, MS_ERROR, MS_ERROR_LIMIT,
                  "%s: file larger than %" G_GSIZE_FORMAT " bytes; use a compact or binary form",
                  path, max_bytes);
      if (f != stdin) fclose(f);
      g_string_free(buf, TRUE);
      return NULL;
    }
    g_string_append_len(buf, chunk, (gssize)n);
  }
  gboolean bad = ferror(f) != 0;
  int saved = errno;
  if (f != stdin) fclose(f);
  if (bad) {
    g_set_error(error, MS_ERROR, MS_ERROR_IO, "%s: read error: %s", path, g_strerror(saved));
    g_string_free(buf, TRUE);
    return NULL;
  }
  if (buf->len == 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_SYNTAX, "%s: file is empty", path);
    g_string_free(buf, TRUE);
    return NULL;
  }
  *length = buf->len;
  return g_string_free(buf, FALSE);
}

static void locate(const char *text, const char *at, int *line, int *col) {
  *line = 1;
  *col = 1;
  for (const char *p = text; p < at; p++) {
    if (*p == '\n') {
      (*line)++;
      *col = 1;
    } else {
      (*col)++;
    }
  }
}

cJSON *ms_json_parse(const char *text, gsize length, const char *filename, GError **error) {
  if (memchr(text, '\0', length)) {
    int line, col;
    locate(text, memchr(text, '\0', length), &line, &col);
    g_set_error(error, MS_ERROR, MS_ERROR_SYNTAX, "%s:%d:%d: NUL byte in JSON text", filename,
                line, col);
    return NULL;
  }
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(text, length, &end, FALSE);
  if (root) {
    /* cJSON stops after the first value: anything but white space after it is an error. */
    const char *p = end;
    while (p < text + length && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    if (p < text + length) {
      int line, col;
      locate(text, p, &line, &col);
      g_set_error(error, MS_ERROR, MS_ERROR_SYNTAX,
                  "%s:%d:%d: invalid JSON: unexpected text after the top-level value", filename,
                  line, col);
      cJSON_Delete(root);
      return NULL;
    }
    return root;
  }
  if (!end || end < text || end > text + length) end = text + length;
  int line, col;
  locate(text, end, &line, &col);
  if (end >= text + length) {
    g_set_error(error, MS_ERROR, MS_ERROR_SYNTAX,
                "%s:%d:%d: invalid JSON: unexpected end of file (or nesting deeper than %d)",
                filename, line, col, CJSON_NESTING_LIMIT);
  } else {
    char snippet[24];
    gsize k = 0;
    for (const char *p = end; p < text + length && k < 16 && *p != '\n'; p++) snippet[k++] = *p;
    snippet[k] = '\0';
    if (k == 0)
      g_set_error(error, MS_ERROR, MS_ERROR_SYNTAX,
                  "%s:%d:%d: invalid JSON at the end of the line (or nesting deeper than %d)",
                  filename, line, col, CJSON_NESTING_LIMIT);
    else
      g_set_error(error, MS_ERROR, MS_ERROR_SYNTAX,
                  "%s:%d:%d: invalid JSON near '%s' (or nesting deeper than %d)", filename, line,
                  col, snippet, CJSON_NESTING_LIMIT);
  }
  return NULL;
}

const char *ms_json_type_name(const cJSON *item) {
  if (!item) return "nothing";
  if (cJSON_IsNull(item)) return "null";
  if (cJSON_IsBool(item)) return "a boolean";
  if (cJSON_IsNumber(item)) return "a number";
  if (cJSON_IsString(item)) return "a string";
  if (cJSON_IsArray(item)) return "an array";
  if (cJSON_IsObject(item)) return "an object";
  return "an invalid value";
}

gboolean ms_json_check_keys(const cJSON *obj, const char *const *allowed, const char *filename,
                            const char *where, GError **error) {
  for (const cJSON *it = obj->child; it; it = it->next) {
    gboolean ok = FALSE;
    for (const char *const *a = allowed; *a; a++)
      if (it->string && strcmp(it->string, *a) == 0) ok = TRUE;
    if (!ok) {
      GString *list = g_string_new(NULL);
      for (const char *const *a = allowed; *a; a++)
        g_string_append_printf(list, "%s%s", a == allowed ? "" : ", ", *a);
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: unknown key \"%s\" (known: %s)",
                  filename, where, it->string ? it->string : "", list->str);
      g_string_free(list, TRUE);
      return FALSE;
    }
    for (const cJSON *o = obj->child; o != it; o = o->next) {
      if (strcmp(o->string, it->string) == 0) {
        g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: duplicate key \"%s\"", filename,
                    where, it->string);
        return FALSE;
      }
    }
  }
  return TRUE;
}

gboolean ms_json_get_int(const cJSON *item, gint64 min, gint64 max, const char *filename,
                         const char *where, gint64 *out, GError **error) {
  if (!cJSON_IsNumber(item)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: expected an integer, got %s",
                filename, where, ms_json_type_name(item));
    return FALSE;
  }
  double d = item->valuedouble;
  if (!isfinite(d) || d != floor(d)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: expected an integer, got %g",
                filename, where, d);
    return FALSE;
  }
  if (d > (double)MS_MAX_JSON_INT || d < -(double)MS_MAX_JSON_INT) {
    g_set_error(error, MS_ERROR, MS_ERROR_LIMIT,
                "%s: %s: %.17g is 2^53 or beyond, where JSON numbers stop being exact", filename,
                where, d);
    return FALSE;
  }
  gint64 v = (gint64)d;
  if (v < min || v > max) {
    g_set_error(error, MS_ERROR, v > max ? MS_ERROR_LIMIT : MS_ERROR_INVALID,
                "%s: %s: %" G_GINT64_FORMAT " is out of range [%" G_GINT64_FORMAT
                ", %" G_GINT64_FORMAT "]",
                filename, where, v, min, max);
    return FALSE;
  }
  *out = v;
  return TRUE;
}

gboolean ms_json_get_uint(const cJSON *item, guint64 min, guint64 max, const char *filename,
                          const char *where, guint64 *out, GError **error) {
  gint64 v;
  if (max > (guint64)MS_MAX_JSON_INT) max = (guint64)MS_MAX_JSON_INT;
  if (!ms_json_get_int(item, (gint64)min, (gint64)max, filename, where, &v, error)) return FALSE;
  *out = (guint64)v;
  return TRUE;
}

const char *ms_json_get_string(const cJSON *item, const char *filename, const char *where,
                               GError **error) {
  if (!cJSON_IsString(item)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: expected a string, got %s",
                filename, where, ms_json_type_name(item));
    return NULL;
  }
  return item->valuestring;
}

gboolean ms_json_get_double(const cJSON *item, const char *filename, const char *where,
                            double *out, GError **error) {
  if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: expected a finite number, got %s",
                filename, where, ms_json_type_name(item));
    return FALSE;
  }
  *out = item->valuedouble;
  return TRUE;
}
