/* ms-gf2.h: Gaussian elimination over GF(2) (seed 004, "GEonGPU"), docs/workloads/gf2.md.
 *
 * Fountain-code decoding: R = n + 10 received rows [G | X] (G: n bits of the generator
 * matrix, X: the L-bit encoded symbol), bit-packed in 32-bit words, W = ceil(n/32) +
 * ceil(L/32) words per row.  Gauss-Jordan over the n columns of G, three kernels per pivot
 * i, as kernels/gf2.cu runs them:
 *   1. pivot (one block): read word i/32 of rows i, i+1, ... a block at a time until a row
 *      with bit i is found; copy that row p to pivrow, row i to row p;
 *   2. eliminate (a thread per row): read word i/32 of the row; if bit i is set (and the
 *      row is not i), row ^= pivrow, word by word over the whole row;
 *   3. replace (one block): row i = pivrow.
 * Rows 0 .. n-1 of X then hold the message.  Arrangement "row" (the seed's: row r at
 * r * W) or "column" (word k of row r at k * R + r: the eliminate kernel coalesced).
 *
 * The instance is random (the generator of kernels/measure.h's MsRng, so the kernel times
 * the same matrix), the elimination is run on the host to learn the data-dependent parts
 * (pivot rows, the rows that XOR at each pivot), and the trace is then executed on the data
 * through its own addresses: the result must be the identity beside the message. */
#ifndef MS_GF2_H
#define MS_GF2_H

#include "ms-workloads.h"

extern const char *const ms_gf2_algorithms[];

typedef struct {
  guint64 symbols, length, rows, words, block_threads, threads;
  gboolean column;
  gboolean executed;    /* the trace's data flow was executed and checked */
} MsGf2Info;

/* The verified in-process source of `algorithm` ("eliminate") with `params` (symbols,
 * length, arrangement, seed, threads_per_block; dashes accepted).  Unknown or inconsistent
 * parameters are MS_ERROR_INVALID, a singular generator matrix or a failed check
 * MS_ERROR_VERIFY. */
MsSource *ms_gf2_source(const char *algorithm, GHashTable *params, GError **error);

/* The same trace as compact JSON (g_free): the pivot rows and the XOR rows as data arrays. */
char *ms_gf2_compact(const char *algorithm, GHashTable *params, MsGf2Info *info, GError **error);

/* Verify `text` (a compact trace, e.g. an edited copy of ms_gf2_compact's) as the trace of
 * the instance: its steps must be the kernels' and the data moved through its addresses
 * must decode the message.  FALSE with MS_ERROR_VERIFY (or a reader error) otherwise. */
gboolean ms_gf2_verify_text(const char *algorithm, GHashTable *params, const char *text, GError **error);

#endif
