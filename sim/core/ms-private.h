/* ms-private.h: internals shared by the library's files; not installed. */
#ifndef MS_PRIVATE_H
#define MS_PRIVATE_H

#include "memsim.h"
#include <cjson/cJSON.h>

/* The per-lane loops of stage counting, compiled twice: for AVX2
 * (64-bit vector compares, which the x86-64 baseline lacks) and for the baseline, chosen when
 * the library loads (GCC and Clang function multiversioning, through glibc's ifunc: other C
 * libraries get the baseline alone).  Same code, same results. */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__GLIBC__) && !defined(MS_NO_CLONES)
#define MS_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define MS_VECTOR_CLONES
#endif

/* ---- ms-json.c: cJSON with positions and typed, path-named checks ---- */

/* Read a whole file ("-" = stdin).  Refuses files over `max_bytes`. */
char *ms_json_read_file(const char *path, gsize max_bytes, gsize *length, GError **error);
/* Parse text; syntax errors read "FILE:LINE:COL: ...". */
cJSON *ms_json_parse(const char *text, gsize length, const char *filename, GError **error);
/* Fail if `obj` has a key not in the NULL-terminated `allowed`, or a duplicate key. */
gboolean ms_json_check_keys(const cJSON *obj, const char *const *allowed, const char *filename,
                            const char *where, GError **error);
/* An integer in [min, max]; `where` names the value in messages ("width"). */
gboolean ms_json_get_int(const cJSON *item, gint64 min, gint64 max, const char *filename,
                         const char *where, gint64 *out, GError **error);
gboolean ms_json_get_uint(const cJSON *item, guint64 min, guint64 max, const char *filename,
                          const char *where, guint64 *out, GError **error);
const char *ms_json_get_string(const cJSON *item, const char *filename, const char *where,
                               GError **error);
const char *ms_json_type_name(const cJSON *item);
/* Parse a number, returning FALSE on non-finite or non-number. */
gboolean ms_json_get_double(const cJSON *item, const char *filename, const char *where,
                            double *out, GError **error);

/* ---- ms-mem.c: large zeroed arrays (huge pages where lent); free with ms_mem_free ---- */
gpointer ms_mem_new0(gsize bytes);
void ms_mem_free(gpointer p);
#define ms_mem_new(T, n) ((T *)ms_mem_new0(sizeof(T) * (gsize)(n)))

/* ---- ms-source.c ---- */
struct _MsSource {
  char *name;
  guint64 threads, block_threads;
  guint64 shared_words; /* the trace's "shared_words" (0: undeclared) */
  guint64 global_words; /* the trace's "global_words" (0: undeclared) */
  MsSourceFuncs funcs;
  gpointer self;
};

#endif
