/* test-range.c: a source's active range (MsSourceFuncs.active_range) only lets the engine
 * skip work: results with and without it are identical, on one thread and with addresses
 * made on a second (65536 threads or more). */
#include "memsim.h"
#include <criterion/criterion.h>
#include <string.h>

typedef struct {
  guint64 threads, step, steps, seed;
  guint64 lo, hi; /* the current step's active range */
  gboolean ranged, shared;
  guint64 sync_every, narrow; /* 0: the defaults (a sync in 7 steps, any width) */
} RangeSrc;

static guint64 mix(guint64 x) {
  x ^= x >> 31;
  x *= G_GUINT64_CONSTANT(0x9e3779b97f4a7c15);
  x ^= x >> 29;
  return x;
}

static MsNext rs_next(gpointer self, MsStep *st, GError **error) {
  (void)error;
  RangeSrc *r = self;
  if (r->step == r->steps) return MS_NEXT_END;
  memset(st, 0, sizeof *st);
  guint64 h = mix(r->seed * 1000 + r->step);
  if (h % (r->sync_every ? r->sync_every : 7) == 0) {
    st->op = MS_OP_SYNC;
    st->scope = h % 2 ? MS_SCOPE_BLOCK : MS_SCOPE_GRID;
  } else {
    st->op = h % 2 ? MS_OP_READ : MS_OP_WRITE;
    st->space = r->shared && h % 3 ? MS_SPACE_SHARED : MS_SPACE_GLOBAL;
    r->lo = mix(h) % r->threads;
    r->hi = r->lo + mix(h + 1) % (r->threads - r->lo + 1);
    if (r->narrow) r->hi = MIN(r->hi, r->lo + r->narrow);
  }
  r->step++;
  return MS_NEXT_STEP;
}

static gboolean rs_fill(gpointer self, guint64 first, guint64 count, gint64 *addr, GError **error) {
  (void)error;
  RangeSrc *r = self;
  for (guint64 i = 0; i < count; i++) {
    guint64 t = first + i;
    guint64 h = mix(t * 31 + r->step);
    addr[i] = t < r->lo || t >= r->hi || h % 5 == 0 ? MS_ADDR_NONE : (gint64)(h % 4096);
  }
  return TRUE;
}

static void rs_range(gpointer self, guint64 *first, guint64 *end) {
  RangeSrc *r = self;
  *first = r->lo;
  *end = r->hi;
}

static void rs_destroy(gpointer self) { g_free(self); }

static MsResult *run_with(MsModelKind kind, guint64 threads, guint64 seed, gboolean ranged, guint nthreads,
                          guint64 steps, guint64 sync_every, guint64 narrow, gboolean resident) {
  static const MsSourceFuncs with = {rs_next, rs_fill, rs_destroy, rs_range};
  static const MsSourceFuncs without = {rs_next, rs_fill, rs_destroy, NULL};
  RangeSrc *r = g_new0(RangeSrc, 1);
  r->threads = threads;
  r->steps = steps;
  r->sync_every = sync_every;
  r->narrow = narrow;
  r->seed = seed;
  r->shared = kind != MS_MODEL_UMM;
  MsSource *src = ms_source_new("range", threads, 256, ranged ? &with : &without, r);
  MsModel *m = ms_model_new(kind, 32, 7, 3, 2, 9);
  if (resident) m->resident_blocks = 2;
  MsSimOptions opt = {0};
  opt.per_step = TRUE;
  opt.threads = nthreads;
  GError *err = NULL;
  MsResult *res = ms_simulate(m, src, &opt, &err);
  cr_assert(res, "%s", err ? err->message : "");
  ms_model_free(m);
  ms_source_free(src);
  return res;
}

static MsResult *run(MsModelKind kind, guint64 threads, guint64 seed, gboolean ranged, guint nthreads) {
  return run_with(kind, threads, seed, ranged, nthreads, 24, 0, 0, FALSE);
}

static void same(const MsResult *a, const MsResult *b, const char *what) {
  cr_assert_gt(a->requests, 0, "%s", what);
  cr_assert_eq(a->time_units, b->time_units, "%s", what);
  cr_assert_eq(a->stages, b->stages, "%s", what);
  cr_assert_eq(a->requests, b->requests, "%s", what);
  cr_assert_eq(a->round_sum, b->round_sum, "%s", what);
  cr_assert_eq(a->kernels, b->kernels, "%s", what);
  cr_assert_eq(a->per_step->len, b->per_step->len, "%s", what);
  cr_assert(memcmp(a->per_step->data, b->per_step->data, a->per_step->len * sizeof(MsStepResult)) == 0, "%s", what);
}

/* Narrow ranges and long stretches without a sync: warps outside every step of a run jump
 * over it (runs of up to 64 steps), and the result must not change; also with blocks
 * placed as room frees (resident_blocks) and grid barriers as kernel boundaries. */
Test(range, runs_of_steps_should_not_change_results) {
  static const MsModelKind kinds[] = {MS_MODEL_UMM, MS_MODEL_DMM, MS_MODEL_HMM, MS_MODEL_ASYNC_HMM};
  static const guint64 sync_every[] = {5, 40, 1000};
  for (gsize k = 0; k < G_N_ELEMENTS(kinds); k++)
    for (gsize e = 0; e < G_N_ELEMENTS(sync_every); e++)
      for (guint64 seed = 1; seed <= 2; seed++)
        for (int res = 0; res < 2; res++) {
          if (res && kinds[k] != MS_MODEL_HMM && kinds[k] != MS_MODEL_ASYNC_HMM) continue;
          char what[96];
          g_snprintf(what, sizeof what, "kind %d sync_every %lu seed %lu resident %d", (int)kinds[k],
                     (unsigned long)sync_every[e], (unsigned long)seed, res);
          MsResult *a = run_with(kinds[k], 3000, seed, FALSE, 1, 300, sync_every[e], 200, res);
          MsResult *b = run_with(kinds[k], 3000, seed, TRUE, 1, 300, sync_every[e], 200, res);
          same(a, b, what);
          ms_result_free(a);
          ms_result_free(b);
        }
}

Test(range, should_not_change_results) {
  static const MsModelKind kinds[] = {MS_MODEL_UMM, MS_MODEL_DMM, MS_MODEL_HMM};
  static const guint64 sizes[] = {1000, 70000};
  for (gsize k = 0; k < G_N_ELEMENTS(kinds); k++)
    for (gsize s = 0; s < G_N_ELEMENTS(sizes); s++)
      for (guint64 seed = 1; seed <= 3; seed++)
        for (guint nt = 1; nt <= 2; nt++) {
          MsResult *a = run(kinds[k], sizes[s], seed, FALSE, 1);
          MsResult *b = run(kinds[k], sizes[s], seed, TRUE, nt);
          cr_assert_gt(a->requests, 0);
          cr_expect_eq(a->time_units, b->time_units, "kind %d size %lu seed %lu threads %u",
                       (int)kinds[k], (unsigned long)sizes[s], (unsigned long)seed, nt);
          cr_expect_eq(a->stages, b->stages);
          cr_expect_eq(a->dispatches, b->dispatches);
          cr_expect_eq(a->requests, b->requests);
          cr_expect_eq(a->round_sum, b->round_sum);
          cr_assert_eq(a->per_step->len, b->per_step->len);
          cr_expect(memcmp(a->per_step->data, b->per_step->data,
                           a->per_step->len * sizeof(MsStepResult)) == 0);
          ms_result_free(a);
          ms_result_free(b);
        }
}
