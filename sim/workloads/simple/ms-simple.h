/* ms-simple.h: the held-out family "simple" (docs/workloads/simple.md): kernels a user
 * writes (copy, strided read, gather, three transposes, a shared-memory stride, a tree
 * reduction), never used to calibrate anything.
 *
 * Every algorithm is described once as a compact JSON trace.  The text is parsed back by the
 * project's compact reader and executed on real 32-bit data: reads load the addressed word
 * into a per-thread register, writes store one, the reduction adds between steps; the
 * result must be the CPU's (copy copies, transposes transpose, gather gathers, reduce
 * sums).  Only a verified trace is handed out.
 *
 * Parameters are the keys of kernels/simple.cu's records (memsim-measure --workload
 * simple), so a record's "params" object is exactly what ms_simple_source() takes; the CLI
 * spells the same keys with dashes (--threads-per-block), which are accepted too. */
#ifndef MS_SIMPLE_H
#define MS_SIMPLE_H

#include "ms-workloads.h"

/* The algorithm names, NULL-terminated. */
extern const char *const ms_simple_algorithms[];

/* The verified trace of `algorithm` with `params` (string -> string, may be NULL), as an
 * MsSource with its shared_words (per block, for the kernels with shared memory) and
 * global_words (all global arrays) set.  Unknown or inconsistent parameters are
 * MS_ERROR_INVALID; a trace that does not compute the kernel's result is MS_ERROR_VERIFY. */
MsSource *ms_simple_source(const char *algorithm, GHashTable *params, GError **error);

/* The same trace as compact JSON text (g_free), after verification. */
char *ms_simple_compact(const char *algorithm, GHashTable *params, GError **error);

/* Verify `text` (a compact trace, e.g. an edited copy of what ms_simple_compact wrote)
 * against the CPU result of `algorithm` with `params`: the steps must match the
 * algorithm's step sequence (ops, spaces, barriers) and the data they move must give the
 * kernel's output.  FALSE with MS_ERROR_VERIFY (or a reader error) otherwise. */
gboolean ms_simple_verify_text(const char *algorithm, GHashTable *params, const char *text,
                               GError **error);

#endif
