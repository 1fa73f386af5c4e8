/* ms-workloads.h: the workload families (docs/workloads/).  Each family builds the trace of
 * one algorithm instance from named parameters, after verifying the algorithm on real data.
 *
 * Parameters are strings keyed by the `memsim gen FAMILY` option names (without "--"), so
 * the CLI and the comparer (which reads them from measurement records) share one path. */
#ifndef MS_WORKLOADS_H
#define MS_WORKLOADS_H

#include "memsim.h"

/* Build the source for `algorithm` of `family` with `params` (string -> string; may be
 * empty).  Unknown parameters are an error.  Returns NULL with error set; a failed
 * verification is MS_ERROR_VERIFY. */
MsSource *ms_workload_source(const char *family, const char *algorithm, GHashTable *params,
                             GError **error);

/* Families (each in sim/workloads/FAMILY/). */
MsSource *ms_permutation_source(const char *algorithm, GHashTable *params, GError **error);
MsSource *ms_sat_source(const char *algorithm, GHashTable *params, GError **error);
MsSource *ms_gcd_source(const char *algorithm, GHashTable *params, GError **error);
MsSource *ms_bpbc_source(const char *algorithm, GHashTable *params, GError **error);

/* Helpers for families: read a parameter as an unsigned integer in [min, max] (default if
 * absent), or a string; and check that no unknown key is present. */
gboolean ms_param_uint(GHashTable *params, const char *key, guint64 def, guint64 min,
                       guint64 max, guint64 *out, GError **error);
const char *ms_param_str(GHashTable *params, const char *key, const char *def);
gboolean ms_param_check(GHashTable *params, const char *const *known, const char *family,
                        GError **error);
/* Refuse (MS_ERROR_LIMIT, naming `what` and the size) a working set of `bytes` beyond half
 * the memory this process may use (ms_memory_limit), before allocating it. */
gboolean ms_workload_memory_check(const char *what, double bytes, GError **error);

#endif
