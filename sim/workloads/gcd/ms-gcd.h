/* ms-gcd.h: the bulk GCD workload (seed 000 chapters 3-4, docs/workloads/gcd.md).
 *
 * ms_gcd_source() (declared in ms-workloads.h) executes P instances of a Euclidean
 * algorithm in SIMT lockstep on real multi-word data and streams the memory steps they
 * make.  The statistics below are filled in when the stream ends. */
#ifndef MS_GCD_H
#define MS_GCD_H

#include "ms-workloads.h"

typedef struct {
  guint64 instances;
  guint64 iterations_min, iterations_max;
  double iterations_mean, iterations_sd;  /* over instances: do-while iterations */
  guint64 approx_calls, beta_positive;    /* approximate: calls of approx, those with beta > 0 */
  guint64 accesses;                       /* active requests over all threads */
  guint64 data_dependent;                 /* of them: at data-dependent word positions */
  double gamma;                           /* data_dependent / accesses (section 3.2) */
  guint64 steps;                          /* memory steps streamed */
  guint64 nonuniform_steps;               /* steps where threads do not all access one word */
  gboolean complete;                      /* the stream ended and every GCD matched mpz_gcd */
} MsGcdStats;

/* As ms_gcd_source(); when `stats` is not NULL the source writes its statistics there when
 * the stream ends (the caller keeps `stats` alive until then). */
MsSource *ms_gcd_source_with_stats(const char *algorithm, GHashTable *params, MsGcdStats *stats,
                                   GError **error);

/* Drain a source made by ms_gcd_source_with_stats (no simulation): fills its stats. */
gboolean ms_gcd_drain(MsSource *source, GError **error);

/* The algorithm names, NULL-terminated. */
extern const char *const ms_gcd_algorithms[];

#endif
