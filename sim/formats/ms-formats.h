/* ms-formats.h: the trace readers and writers (private). */
#ifndef MS_FORMATS_H
#define MS_FORMATS_H

#include "../core/ms-private.h"

#define MS_TRACE_MAX_JSON_BYTES (G_GUINT64_CONSTANT(1) << 30)

/* Shared by the JSON forms. */
gboolean ms_parse_op(const cJSON *step, const char *fn, const char *where, MsStep *out,
                     GError **error);
gboolean ms_parse_header(const cJSON *root, const char *fn, char **name, guint64 *threads,
                         guint64 *block_threads, GError **error);
/* The optional top-level "shared_words" (shared memory one block holds): 0 when absent. */
gboolean ms_parse_shared_words(const cJSON *root, const char *fn, guint64 *words, GError **error);
/* The optional top-level "global_words" (global words the trace touches, all arrays): 0
 * when absent. */
gboolean ms_parse_global_words(const cJSON *root, const char *fn, guint64 *words, GError **error);

MsSource *ms_trace_explicit_from_json(const cJSON *root, const char *fn, GError **error);
MsSource *ms_trace_compact_from_json(const cJSON *root, const char *fn, GError **error);
MsSource *ms_trace_binary_open(FILE *f, const char *fn, GError **error);



/* ms-trace-binary.c */
#define MS_BINARY_MAGIC "MEMSIMBT"
gboolean ms_trace_binary_write(MsSource *src, FILE *out, const char *name, GError **error);
#endif
