/* ms-mul.h: multiple-length multiplication by one warp per product (seed 002 ch. 3:
 * Algorithm 3, sum-rotate, and Figure 3.3, the parallel column-based method),
 * docs/workloads/mul.md.  The one-thread-per-product School and
 * Comba methods are bulk programs (bulk/ms-bulk.h). */
#ifndef MS_MUL_H
#define MS_MUL_H

#include "ms-workloads.h"

/* "sum-rotate" (register exchange by warp shuffles), "sum-rotate-shared" (the same
 * exchanges through shared memory) and "column-based" (two columns of the product per lane,
 * operands and carries through shared memory), NULL-terminated. */
extern const char *const ms_mul_algorithms[];

typedef struct {
  guint64 products, n; /* products; n = bits / 32 words per operand = lanes per product */
  guint64 threads, block_threads;
  guint64 shuffles;    /* sum-rotate: exchanges of the whole trace (3n + carry rounds per warp) */
  guint64 carry_max;   /* most carry rounds of one warp */
  guint64 rounds;      /* carry rounds of all warps together */
  guint64 shared_words; /* the shared buffer of a block (0: none) */
  guint64 checked;     /* products checked against GMP */
} MsMulInfo;

/* The compact trace (g_free) of `algorithm` with `params` (bits, products,
 * threads_per_block, seed).  Every product is computed by the warp algorithm on data first
 * and compared with mpz_mul (MS_ERROR_VERIFY if one differs). */
char *ms_mul_compact(const char *algorithm, GHashTable *params, MsMulInfo *info, GError **error);
MsSource *ms_mul_source(const char *algorithm, GHashTable *params, GError **error);

#endif
