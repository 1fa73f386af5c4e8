/* ms-trace-compact.c: placeholder until the compact form lands (issue 3). */
#include "ms-formats.h"

MsSource *ms_trace_compact_from_json(const cJSON *root, const char *fn, GError **error) {
  (void)root;
  g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: form: the compact form is not supported by this build", fn);
  return NULL;
}
