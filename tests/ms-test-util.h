/* ms-test-util.h: helpers for memsim's Criterion tests: traces built in code (an in-memory
 * MsSource from arrays of steps) and one-call simulation. */
#ifndef MS_TEST_UTIL_H
#define MS_TEST_UTIL_H

#include "memsim.h"

/* An inactive thread in address tables. */
#define N_ MS_ADDR_NONE

/* A program held in memory: steps and, for memory steps, one address per thread. */
typedef struct {
  guint64 threads, block_threads;
  guint64 shared_words; /* the trace's "shared_words" (0: undeclared) */
  guint64 global_words; /* the trace's "global_words" (0: undeclared) */
  GArray *steps;   /* of MsStep */
  GPtrArray *addr; /* gint64[threads] per step, NULL for sync steps */
} MtTrace;

MtTrace *mt_trace_new(guint64 threads, guint64 block_threads);
void mt_trace_free(MtTrace *t);
/* Append a memory step with every thread inactive; returns its address row to fill. */
gint64 *mt_mem(MtTrace *t, MsOp op, MsSpace space);
/* Append a memory step copying `addr` (threads entries). */
void mt_mem_arr(MtTrace *t, MsOp op, MsSpace space, const gint64 *addr);
/* Append a memory step where thread i requests f(i) (negative: inactive). */
void mt_mem_fn(MtTrace *t, MsOp op, MsSpace space, gint64 (*f)(guint64 i, gpointer data),
               gpointer data);
void mt_sync(MtTrace *t, MsScope scope);

/* A new source that streams a copy of `t`: the trace may be freed or changed afterwards. */
MsSource *mt_source(const MtTrace *t, const char *name);
/* A source straight from arrays: `steps[n]`, `addr` holds threads entries per memory step
 * (sync steps take no row). */
MsSource *mt_source_from_arrays(const char *name, guint64 threads, guint64 block_threads,
                                const MsStep *steps, guint n, const gint64 *addr);

/* Simulate; fails the current test on error. */
MsResult *mt_run_source(const MsModel *m, MsSource *src, const MsSimOptions *opt);
MsResult *mt_run(const MsModel *m, const MtTrace *t, const MsSimOptions *opt);
/* Simulate and return only the time units. */
guint64 mt_time(const MsModel *m, const MtTrace *t);

/* Models in code.  group_words 0 keeps the default (w). */
MsModel *mt_model(MsModelKind kind, guint32 w, guint64 l);
MsModel *mt_hmm(MsModelKind kind, guint32 w, guint32 d, guint64 shared_l, guint64 global_l);

#endif
