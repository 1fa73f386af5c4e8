/* ms-toom.h: Toom-k multiplication of P products in two kernels (seed 002 section 3.3.2),
 * docs/workloads/mul.md "Toom-k".  Algorithms "toom-2" ... "toom-9" of the mul family. */
#ifndef MS_TOOM_H
#define MS_TOOM_H

#include "ms-workloads.h"

/* What a generated trace is; the counts are per product, over all its threads. */
typedef struct {
  guint k;
  guint64 bits, w, n;     /* w = bits / 32 words; n = ceil(w / k) words a part */
  guint64 products, threads, block_threads;
  guint64 points;         /* 2k - 1 */
  guint64 work_words;     /* L = 2n + 4: a work array of the interpolation */
  guint64 mults;          /* 32 x 32-bit word multiplications of the point products */
  guint64 reads1, writes1; /* kernel 1: evaluation and point products */
  guint64 reads2, writes2; /* kernel 2: interpolation and recomposition */
  guint64 checked;        /* products executed through the trace's addresses and checked with GMP */
} MsToomInfo;

/* TRUE if `algorithm` is "toom-K" with 2 <= K <= 9 (K in *k, may be NULL). */
gboolean ms_toom_is(const char *algorithm, guint *k);

/* The compact trace (g_free) of `algorithm` (toom-K) with `params` (bits, products,
 * threads_per_block, seed).  Before it is handed out, a few products are executed on data
 * and their every access compared with the trace's addresses, and their results with
 * mpz_mul (MS_ERROR_VERIFY otherwise). */
char *ms_toom_compact(const char *algorithm, GHashTable *params, MsToomInfo *info, GError **error);

/* The closed forms of the counts (docs/workloads/mul.md), for k | w: the generator's
 * statistics are checked against these in tests/mul. */
void ms_toom_counts(guint k, guint64 w, MsToomInfo *out);

/* The mul family's source: toom-K here, the warp algorithms in ms-mul.c. */
MsSource *ms_mul_family_source(const char *algorithm, GHashTable *params, GError **error);

/* Operand word x (< w) of operand o (0 = A, 1 = B) of product q: counter-based, so that the
 * generator can draw a few products' operands without the others.  kernels/toom.cu draws
 * the same. */
guint32 ms_toom_word(guint64 seed, guint64 o, guint64 q, guint64 products, guint64 w, guint64 x);

#endif
