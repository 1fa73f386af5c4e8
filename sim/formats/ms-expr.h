/* ms-expr.h: address expressions of the compact trace form (docs/trace-format.md).
 * Expressions are parsed once and evaluated over ranges of threads at a time (one pass per
 * operator over an array of lanes), so the per-thread cost is a few instructions.  Errors
 * (division by zero, overflow, index out of range) travel with the lane that caused them,
 * like NaN, and are reported only for lanes whose value is used. */
#ifndef MS_EXPR_H
#define MS_EXPR_H

#include <glib.h>

#define MS_EXPR_CHUNK 16384u

typedef struct _MsExpr MsExpr;

typedef enum { MS_SYM_TID, MS_SYM_LTID, MS_SYM_BID, MS_SYM_SCALAR, MS_SYM_DATA, MS_SYM_ADDR } MsSymKind;

typedef struct {
  MsSymKind kind;
  guint slot; /* SCALAR: index into the scalar table; DATA/ADDR: index into the array table */
} MsSym;

/* Resolves a name to a symbol; returns FALSE if unknown. */
typedef gboolean (*MsExprResolve)(gpointer data, const char *name, MsSym *sym);

typedef struct {
  const gint64 *values; /* DATA */
  guint64 length;
  gint64 base;          /* ADDR */
  guint64 elem_words;
  gboolean bounded;     /* ADDR: length is a bound */
} MsExprArray;

typedef struct {
  const gint64 *scalars;
  const MsExprArray *arrays;
  guint64 block_threads;
  gint64 word; /* word offset within a multi-word element, added to ADDR accesses */
  guint64 stride; /* lane i is thread first + i * stride (0 or 1: consecutive threads) */
} MsExprEnv;

/* Parse `text`.  `where` names the expression in messages ("steps[2].addr").  Also returns in
 * *elem_words the element size of the address arrays it indexes (1 if none; an error if
 * they differ). */
MsExpr *ms_expr_parse(const char *text, MsExprResolve resolve, gpointer rdata,
                      const MsExprArray *arrays, const char *fn, const char *where,
                      guint64 *elem_words, GError **error);
void ms_expr_free(MsExpr *e);
/* A copy that evaluates independently of `e` (its own lane buffers): one per thread that
 * evaluates the same expression at the same time. */
MsExpr *ms_expr_clone(const MsExpr *e);
/* TRUE if the value does not depend on the thread (no tid/ltid/bid). */
gboolean ms_expr_is_uniform(const MsExpr *e);
/* TRUE if the value is c0 + c1 * tid for every thread (uniform, or affine in tid: see
 * is_affine in ms-expr.c), so that its values at threads 0 and 1 give it for all. */
gboolean ms_expr_is_affine(const MsExpr *e);

/* Evaluate for threads [first, first+count), count <= MS_EXPR_CHUNK.  `active` (may be NULL)
 * marks the lanes whose errors count.  Values land in out[]. */
gboolean ms_expr_eval(MsExpr *e, const MsExprEnv *env, guint64 first, guint64 count,
                      const gint64 *active, gint64 *out, GError **error);
/* For a `when` predicate: [*first, *end), a range of threads outside which it is false
 * for every thread, and no thread outside it would raise an error (from its leading
 * conjuncts that compare tid or bid with a uniform value).  FALSE (and [0, threads)) if it
 * has none. */
gboolean ms_expr_thread_range(MsExpr *e, const MsExprEnv *env, guint64 threads, guint64 *first, guint64 *end);
/* Repeated blocks (the engine's block_shift, docs/performance.md), for the scalars' current
 * values and `threads` threads in blocks of env->block_threads.  An address expression:
 * TRUE if its value is F(bid) + G(ltid) for every thread and no thread's evaluation can fail,
 * except by the bounds of an address array indexed at the top: [*lo, *hi] holds the
 * addresses that pass (and are not negative).  A `when`: TRUE if no thread's evaluation can
 * fail and each conjunct is a thread range (ms_expr_thread_range), the same for all lanes of
 * a block, or a function of ltid and uniform values. */
gboolean ms_expr_block_separable(MsExpr *e, const MsExprEnv *env, guint64 threads, gint64 *lo, gint64 *hi);
gboolean ms_expr_block_predicate(MsExpr *e, const MsExprEnv *env, guint64 threads);
/* For a `when` that ms_expr_block_predicate accepted (no thread's evaluation can fail): idle[i]
 * = 1 where a conjunct of the root that is the same for all lanes of a block is false at
 * thread first + i * stride, so that the predicate is false for every thread of that
 * thread's block; else 0 (count <= MS_EXPR_CHUNK). */
void ms_expr_block_idle(MsExpr *e, const MsExprEnv *env, guint64 first, guint64 stride, guint64 count,
                        guint8 *idle);
/* Evaluate at threads first + i * stride for i < count (<= MS_EXPR_CHUNK): out[i] the value,
 * bad[i] TRUE where that thread's evaluation fails (no message). */
void ms_expr_eval_strided(MsExpr *e, const MsExprEnv *env, guint64 first, guint64 stride, guint64 count,
                          gint64 *out, gboolean *bad);
/* Evaluate a uniform expression. */
gboolean ms_expr_eval_scalar(MsExpr *e, const MsExprEnv *env, gint64 *out, GError **error);

#endif
