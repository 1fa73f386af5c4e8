/* ms-bulk-private.h: what ms-bulk.c (form, arrangement, the checking cursor) and
 * ms-bulk-algos.c (the built-in programs) share. */
#ifndef MS_BULK_PRIVATE_H
#define MS_BULK_PRIVATE_H

#include "ms-bulk.h"

/* Instances checked word by word (and, for built-ins, executed on data). */
#define MS_BULK_LANES 4

/* The checking cursor: walks the arranged trace and the sequential program (a one-thread
 * trace) in lockstep.  Each memory step must be the same op in both, and every checked
 * instance must access, in the arrangement, the word the program accesses. */
typedef struct {
  MsSource *trace, *seq;
  guint64 p, words;
  gboolean column;
  guint lanes;
  guint64 tid[MS_BULK_LANES];
  guint64 *mem[MS_BULK_LANES]; /* each checked instance's own words */
  guint64 step;                /* memory steps so far */
  const char *what;            /* "bulk bitonic", for messages */
} MsBulkCursor;

/* The next memory step must be `op`; x[k] receives the word lane k accesses (checked). */
gboolean ms_bulk_cursor_step(MsBulkCursor *c, MsOp op, guint64 *x, GError **error);
/* A read: v[k] = lane k's word.  A write: lane k's word = v[k]. */
gboolean ms_bulk_load(MsBulkCursor *c, guint64 *v, GError **error);
gboolean ms_bulk_store(MsBulkCursor *c, const guint64 *v, GError **error);

/* A built-in: its program text, input data, execution (loads and stores in the program's
 * order, addresses from the trace) and the independent reference check. */
typedef struct {
  guint64 n, bits, s, words, seed;
  guint64 nonterminals, rules; /* cky: the grammar's size */
} MsBulkCfg;

typedef struct {
  const char *name;
  const char *size_key; /* "n" or "bits" */
  guint64 def, min, max;
  gboolean (*size_ok)(guint64 v); /* NULL: any in [min, max] */
  const char *size_rule;          /* what size_ok wants, for messages */
  void (*setup)(MsBulkCfg *cfg);  /* words (and s) from the size */
  char *(*text)(const MsBulkCfg *cfg);
  void (*init)(const MsBulkCfg *cfg, guint64 *state, guint64 *mem);
  gboolean (*run)(const MsBulkCfg *cfg, MsBulkCursor *c, GError **error);
  /* NULL if `after` is right for `before`, else what is wrong (g_free) */
  char *(*check)(const MsBulkCfg *cfg, const guint64 *before, const guint64 *after);
  gboolean grammar; /* takes nonterminals and rules (cky) */
} MsBulkAlgo;

/* The built-in named `name`, or NULL. */
const MsBulkAlgo *ms_bulk_algo(const char *name);

#endif
