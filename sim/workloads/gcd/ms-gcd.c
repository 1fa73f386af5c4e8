/* ms-gcd.c: the gcd workload family (placeholder until its issue lands). */
#include "ms-workloads.h"

MsSource *ms_gcd_source(const char *algorithm, GHashTable *params, GError **error) {
  (void)algorithm;
  (void)params;
  g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "the gcd workload is not available in this build");
  return NULL;
}
