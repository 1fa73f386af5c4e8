/* ms-sat.h: the summed area table family (seed 001 chapter 6), private to memsim. */
#ifndef MS_SAT_H
#define MS_SAT_H

#include "ms-workloads.h"

/* What the verifier counted while it executed the trace on real data.  A global warp-step
 * whose active requests all fall in one group of W words is coalesced, any other is
 * stride; its requests are added to the matching counter. */
typedef struct {
  guint64 coalesced_reads, coalesced_writes, stride_reads, stride_writes;
  guint64 shared_reads, shared_writes;
  guint64 grid_barriers, block_barriers, steps;
  guint64 threads, block_threads;
} MsSatStats;

/* Build, verify and return the compact JSON text of `algorithm` (2r2w, 4r4w, 4r1w, 2r1w,
 * 1r1w, 1+r) with params n, block, r, seed, values, unroll (2r2w, 4r4w: the prefix loops
 * as groups of `unroll` reads then writes, the order of kernels/sat.cu's compiled loops;
 * default 1, the paper's order) (and verify-chunk: the verifier's threads
 * per chunk, default 2^17, for tests).  `stats` (may be NULL) receives the
 * verifier's counts.  Returns NULL with error set; MS_ERROR_VERIFY if the result is not the
 * SAT of the input.  The caller frees the text. */
char *ms_sat_compact(const char *algorithm, GHashTable *params, MsSatStats *stats, GError **error);

/* The number of tile diagonals given to 2R1W in (1+r)R1W for an m x m tile matrix. */
guint64 ms_sat_diagonals_for_r(guint64 m, double r);

#endif
