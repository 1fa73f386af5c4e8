/* test-engine.c: the worked examples and consequences of MODELS.md, each built in code
 * (ms_model_new + an in-memory source) and checked to the time unit.
 *
 * Rules used in the hand computations below (MODELS.md "Time"): a warp dispatched at t with
 * k stages holds the entry t .. t+k-1, completes at t + k + l - 2 and is ready again at
 * t + k + l - 1; total time = last completion + 1. */
#include "ms-test-util.h"
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>

static const gint64 fig33[8] = {7, 5, 15, 0, 10, 11, 12, 9};

static MtTrace *fig33_trace(void) {
  MtTrace *t = mt_trace_new(8, 0);
  mt_mem_arr(t, MS_OP_READ, MS_SPACE_SHARED, fig33);
  return t;
}

/* ---- seed 001 Figure 3.3 ---- */

Test(worked, fig3_3_dmm_should_take_7_time_units) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_DMM, 4, 5);
  MtTrace *t = fig33_trace();
  g_autoptr(MsResult) r = mt_run(m, t, NULL);
  /* W(0): 7 and 15 share bank 3 -> 2 stages at 0,1; W(1): 1 stage at 2, completes 6. */
  cr_expect_eq(r->time_units, 7);
  cr_expect_eq(r->stages, 3);
  cr_expect_eq(r->dispatches, 2);
  cr_expect_eq(r->requests, 8);
  cr_expect_eq(r->extra_stages, 1);
  cr_expect_eq(r->round_sum, 7);
  cr_expect_eq(r->shared.stages, 3);
  cr_expect_eq(r->shared.dispatches, 2);
  cr_expect_eq(r->shared.requests, 8);
  cr_expect_eq(r->global.stages, 0);
  cr_expect_eq(r->global.dispatches, 0);
  cr_expect_eq(r->steps, 1);
  cr_expect_eq(r->memory_steps, 1);
  cr_expect_eq(r->threads, 8);
  cr_expect_eq(r->warps, 2);
  cr_expect_eq(r->blocks, 1);
  mt_trace_free(t);
}

Test(worked, fig3_3_umm_should_take_9_time_units) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 4, 5);
  MtTrace *t = fig33_trace();
  g_autoptr(MsResult) r = mt_run(m, t, NULL);
  /* W(0) groups {1,3,0} -> 3 stages at 0..2; W(1) groups {2,3} -> 2 at 3,4; 4+4 = 8. */
  cr_expect_eq(r->time_units, 9);
  cr_expect_eq(r->stages, 5);
  cr_expect_eq(r->dispatches, 2);
  cr_expect_eq(r->requests, 8);
  cr_expect_eq(r->extra_stages, 3);
  cr_expect_eq(r->round_sum, 9);
  cr_expect_eq(r->global.stages, 5);
  cr_expect_eq(r->global.dispatches, 2);
  cr_expect_eq(r->shared.stages, 0);
  mt_trace_free(t);
}

Test(worked, fig3_1_seed000_umm_should_take_8_time_units) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 4, 5);
  MtTrace *t = mt_trace_new(8, 0);
  /* W(0) touches groups 0, 1, 2 (3 stages at 0..2); W(1) group 3 (1 stage at 3, done 7). */
  const gint64 a[8] = {0, 5, 9, 1, 12, 13, 14, 15};
  mt_mem_arr(t, MS_OP_READ, MS_SPACE_GLOBAL, a);
  g_autoptr(MsResult) r = mt_run(m, t, NULL);
  cr_expect_eq(r->time_units, 8);
  cr_expect_eq(r->stages, 4);
  cr_expect_eq(r->extra_stages, 2);
  mt_trace_free(t);
}

/* ---- Lemma 5.1.1 and pipelining ---- */

typedef struct {
  MsModelKind kind;
  guint32 w;
  guint64 l, n, rounds;
  guint64 expected;
} RoundCase;

static gint64 identity(guint64 i, gpointer data) {
  (void)data;
  return (gint64)i;
}

ParameterizedTestParameters(lemma, round_should_take_n_over_w_plus_l_minus_1) {
  static RoundCase cases[] = {
      {MS_MODEL_UMM, 4, 5, 32, 1, 8 + 4},     {MS_MODEL_DMM, 4, 5, 32, 1, 8 + 4},
      {MS_MODEL_UMM, 4, 5, 8, 1, 2 + 4},      {MS_MODEL_DMM, 32, 1, 1024, 1, 32},
      {MS_MODEL_UMM, 32, 400, 4096, 1, 128 + 399}, {MS_MODEL_DMM, 8, 100, 64, 1, 8 + 99},
      {MS_MODEL_UMM, 3, 2, 12, 1, 4 + 1},     {MS_MODEL_DMM, 1, 7, 5, 1, 5 + 6},
      {MS_MODEL_UMM, 2, 1, 2, 1, 1},
  };
  return cr_make_param_array(RoundCase, cases, G_N_ELEMENTS(cases));
}

ParameterizedTest(RoundCase *c, lemma, round_should_take_n_over_w_plus_l_minus_1) {
  g_autoptr(MsModel) m = mt_model(c->kind, c->w, c->l);
  MtTrace *t = mt_trace_new(c->n, 0);
  mt_mem_fn(t, MS_OP_READ, MS_SPACE_GLOBAL, identity, NULL);
  g_autoptr(MsResult) r = mt_run(m, t, NULL);
  cr_expect_eq(r->time_units, c->expected, "%s w=%u l=%lu n=%lu: got %lu, expected %lu",
               ms_model_kind_name(c->kind), c->w, (unsigned long)c->l, (unsigned long)c->n,
               (unsigned long)r->time_units, (unsigned long)c->expected);
  cr_expect_eq(r->round_sum, c->expected);
  cr_expect_eq(r->extra_stages, 0);
  mt_trace_free(t);
}

ParameterizedTestParameters(lemma, consecutive_rounds_should_pipeline) {
  /* n/w >= l: the pipeline never idles, r rounds take r*n/w + l - 1 */
  static RoundCase cases[] = {
      {MS_MODEL_UMM, 4, 5, 64, 3, 3 * 16 + 4}, {MS_MODEL_DMM, 4, 5, 20, 4, 4 * 5 + 4},
      {MS_MODEL_DMM, 32, 1, 1024, 5, 5 * 32},  {MS_MODEL_UMM, 2, 3, 6, 7, 7 * 3 + 2},
      {MS_MODEL_UMM, 8, 10, 160, 2, 2 * 20 + 9},
  };
  return cr_make_param_array(RoundCase, cases, G_N_ELEMENTS(cases));
}

ParameterizedTest(RoundCase *c, lemma, consecutive_rounds_should_pipeline) {
  g_autoptr(MsModel) m = mt_model(c->kind, c->w, c->l);
  MtTrace *t = mt_trace_new(c->n, 0);
  for (guint64 i = 0; i < c->rounds; i++) mt_mem_fn(t, MS_OP_READ, MS_SPACE_GLOBAL, identity, NULL);
  g_autoptr(MsResult) r = mt_run(m, t, NULL);
  cr_expect_eq(r->time_units, c->expected, "got %lu, expected %lu", (unsigned long)r->time_units,
               (unsigned long)c->expected);
  /* the papers' bound sums the rounds: r * (n/w + l - 1) */
  cr_expect_eq(r->round_sum, c->rounds * (c->n / c->w + c->l - 1));
  mt_trace_free(t);
}

Test(lemma, eight_warps_l100_three_rounds_should_take_307) {
  /* rounds start at 0, 100, 200 (warp 0 ready at 0+1+100-1); last completes 207+99 = 306 */
  for (int kind = MS_MODEL_UMM; kind <= MS_MODEL_DMM; kind++) {
    g_autoptr(MsModel) m = mt_model((MsModelKind)kind, 4, 100);
    MtTrace *t = mt_trace_new(32, 0);
    for (int i = 0; i < 3; i++) mt_mem_fn(t, MS_OP_READ, MS_SPACE_GLOBAL, identity, NULL);
    g_autoptr(MsResult) r = mt_run(m, t, NULL);
    cr_expect_eq(r->time_units, 307);
    cr_expect_eq(r->round_sum, 3 * (8 + 99));
    mt_trace_free(t);
  }
}

static gint64 transpose(guint64 i, gpointer data) {
  (void)data;
  return 1024 + (gint64)((i % 32) * 32 + i / 32);
}

Test(worked, d_designated_transpose_should_take_1088) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_DMM, 32, 1);
  MtTrace *t = mt_trace_new(1024, 0);
  mt_mem_fn(t, MS_OP_READ, MS_SPACE_SHARED, identity, NULL);   /* a[i]: 32 warps x 1 */
  mt_mem_fn(t, MS_OP_READ, MS_SPACE_SHARED, identity, NULL);   /* conflict-free: 32 */
  mt_mem_fn(t, MS_OP_WRITE, MS_SPACE_SHARED, transpose, NULL); /* one bank per warp: 32 x 32 */
  MsSimOptions opt = {.per_step = TRUE};
  g_autoptr(MsResult) r = mt_run(m, t, &opt);
  cr_expect_eq(r->time_units, 1088);
  cr_expect_eq(r->stages, 32 + 32 + 1024);
  cr_expect_eq(r->extra_stages, 1024 - 32);
  cr_expect_eq(r->round_sum, 1088);
  cr_assert_eq(r->per_step->len, 3);
  MsStepResult *s = (MsStepResult *)(void *)r->per_step->data;
  cr_expect_eq(s[0].stages, 32);
  cr_expect_eq(s[2].stages, 1024);
  cr_expect_eq(s[2].first_dispatch, 64);
  cr_expect_eq(s[2].last_complete, 1087);
  mt_trace_free(t);
}

/* ---- stage rules ---- */

static gint64 const_addr(guint64 i, gpointer data) {
  (void)i;
  return GPOINTER_TO_INT(data);
}

Test(stages, broadcast_should_take_one_stage_per_warp_on_dmm) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_DMM, 32, 1);
  MtTrace *t = mt_trace_new(32, 0);
  mt_mem_fn(t, MS_OP_READ, MS_SPACE_SHARED, const_addr, GINT_TO_POINTER(77));
  g_autoptr(MsResult) r = mt_run(m, t, NULL);
  cr_expect_eq(r->stages, 1);
  cr_expect_eq(r->extra_stages, 0);
  cr_expect_eq(r->requests, 32);
  cr_expect_eq(r->time_units, 1);
  mt_trace_free(t);
}

Test(stages, dmm_should_merge_same_address_writes) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_DMM, 4, 5);
  MtTrace *t = mt_trace_new(4, 0);
  const gint64 a[4] = {0, 4, 0, 4}; /* bank 0, two distinct addresses -> 2 stages */
  mt_mem_arr(t, MS_OP_WRITE, MS_SPACE_SHARED, a);
  const gint64 b[4] = {0, 4, 8, 12}; /* bank 0, four addresses -> 4 stages */
  mt_mem_arr(t, MS_OP_WRITE, MS_SPACE_SHARED, b);
  MsSimOptions opt = {.per_step = TRUE};
  g_autoptr(MsResult) r = mt_run(m, t, &opt);
  MsStepResult *s = (MsStepResult *)(void *)r->per_step->data;
  cr_expect_eq(s[0].stages, 2);
  cr_expect_eq(s[1].stages, 4);
  /* step 0 at 0..1 completes 5, ready 6; step 1 at 6..9 completes 6+4+5-2 = 13 */
  cr_expect_eq(r->time_units, 14);
  mt_trace_free(t);
}

Test(stages, inactive_threads_should_cost_nothing) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_DMM, 4, 5);
  MtTrace *t = mt_trace_new(12, 0);
  /* W(0) all inactive, W(1) 0 and 4 in bank 0 with inactive threads around, W(2) one thread */
  const gint64 a[12] = {N_, N_, N_, N_, 0, N_, 4, N_, N_, N_, N_, 9};
  mt_mem_arr(t, MS_OP_READ, MS_SPACE_SHARED, a);
  g_autoptr(MsResult) r = mt_run(m, t, NULL);
  cr_expect_eq(r->requests, 3);
  cr_expect_eq(r->dispatches, 2);
  cr_expect_eq(r->stages, 3);
  /* W(1) at 0..1, W(2) at 2, completes 2 + 1 + 5 - 2 = 6 */
  cr_expect_eq(r->time_units, 7);
  mt_trace_free(t);
}

Test(stages, all_inactive_program_should_take_zero_time) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 4, 5);
  MtTrace *t = mt_trace_new(9, 0);
  mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
  mt_sync(t, MS_SCOPE_GRID);
  mt_mem(t, MS_OP_WRITE, MS_SPACE_GLOBAL);
  MsSimOptions opt = {.per_step = TRUE};
  g_autoptr(MsResult) r = mt_run(m, t, &opt);
  cr_expect_eq(r->time_units, 0);
  cr_expect_eq(r->stages, 0);
  cr_expect_eq(r->dispatches, 0);
  cr_expect_eq(r->round_sum, 0);
  cr_expect_eq(r->memory_steps, 0);
  cr_expect_eq(r->steps, 3);
  cr_expect_eq(r->per_step->len, 3);
  MsStepResult *s = (MsStepResult *)(void *)r->per_step->data;
  for (int i = 0; i < 3; i++) {
    cr_expect_eq(s[i].first_dispatch, -1);
    cr_expect_eq(s[i].last_complete, -1);
  }
  mt_trace_free(t);
}

Test(stages, fully_inactive_warp_should_skip_step_and_not_delay_others) {
  /* UMM w=2 l=3, 2 warps.  Step 0: only W(1); step 1: only W(0).  W(0) skips step 0 and is
   * dispatched at 1 (W(1) took 0), done 1+1+3-2 = 3: 4 time units, not 0+..+ a round each. */
  g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 2, 3);
  MtTrace *t = mt_trace_new(4, 0);
  const gint64 a[4] = {N_, N_, 2, 3}, b[4] = {0, 1, N_, N_};
  mt_mem_arr(t, MS_OP_READ, MS_SPACE_GLOBAL, a);
  mt_mem_arr(t, MS_OP_READ, MS_SPACE_GLOBAL, b);
  g_autoptr(MsResult) r = mt_run(m, t, NULL);
  cr_expect_eq(r->time_units, 4);
  cr_expect_eq(r->round_sum, 2 * (1 + 2));
  mt_trace_free(t);
}

Test(stages, group_words_should_set_umm_group_size) {
  /* 8 warps of 4 threads reading stride 4: warp j touches 16j, 16j+4, 16j+8, 16j+12.
   * group 4 words: 4 groups; 8: 2; 32: 1.  One step back to back: S + l - 1. */
  static const struct { guint64 gw, stages; } cases[] = {{4, 32}, {8, 16}, {32, 8}};
  for (gsize c = 0; c < G_N_ELEMENTS(cases); c++) {
    g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 4, 5);
    m->group_words = cases[c].gw;
    MtTrace *t = mt_trace_new(32, 0);
    gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
    for (int i = 0; i < 32; i++) a[i] = 4 * i;
    g_autoptr(MsResult) r = mt_run(m, t, NULL);
    cr_expect_eq(r->stages, cases[c].stages, "group_words %lu", (unsigned long)cases[c].gw);
    cr_expect_eq(r->time_units, cases[c].stages + 4);
    mt_trace_free(t);
  }
}

Test(stages, group_words_should_apply_to_hmm_global_steps) {
  /* w = 32: a warp reading 32 consecutive words from 0 is 4 sectors of 8 words. */
  g_autoptr(MsModel) m = mt_hmm(MS_MODEL_HMM, 32, 1, 1, 10);
  m->group_words = 8;
  MtTrace *t = mt_trace_new(32, 0);
  mt_mem_fn(t, MS_OP_READ, MS_SPACE_GLOBAL, identity, NULL);
  g_autoptr(MsResult) r = mt_run(m, t, NULL);
  cr_expect_eq(r->global.stages, 4);
  cr_expect_eq(r->time_units, 4 + 9);
  mt_trace_free(t);
}

Test(stages, space_should_be_ignored_on_umm_and_dmm) {
  for (int kind = MS_MODEL_UMM; kind <= MS_MODEL_DMM; kind++) {
    g_autoptr(MsModel) m = mt_model((MsModelKind)kind, 4, 5);
    MtTrace *t1 = mt_trace_new(8, 0), *t2 = mt_trace_new(8, 0);
    mt_mem_arr(t1, MS_OP_READ, MS_SPACE_SHARED, fig33);
    mt_mem_arr(t2, MS_OP_READ, MS_SPACE_GLOBAL, fig33);
    cr_expect_eq(mt_time(m, t1), mt_time(m, t2));
    mt_trace_free(t1);
    mt_trace_free(t2);
  }
}

/* ---- barriers ----
 * UMM w=2 l=4, 3 warps (6 threads).
 *   step 0: read, only W(0) active with [0, 2] -> groups {0, 1}: 2 stages
 *   step 1: sync (grid, block, or none)
 *   step 2: read, all warps coalesced: 1 stage each
 * W(0) is dispatched at 0 (entries 0, 1), completes 0+2+4-2 = 4, ready at 5.
 * - No barrier: W(1), W(2) skip step 0: W(1) at 2, W(2) at 3 (the entry is busy at 0, 1),
 *   W(0) at 5, completing 5+1+4-2 = 8: 9 time units.
 * - Grid barrier: everyone waits for W(0): released at 4+1 = 5.  The scan starts after
 *   W(0), the last dispatched: W(1) at 5, W(2) at 6, W(0) at 7, done 7+3 = 10: 11.
 * - Block barrier with block_threads 4 ({W0, W1}, {W2}): W(2) goes at 2 (done 5); W(0) and
 *   W(1) released at 5; the scan starts after W(2): W(0) at 5, W(1) at 6, done 9: 10.
 * - Block barrier with block_threads 2 (a block per warp): like no barrier: 9. */
typedef struct {
  int sync; /* -1 none, else MsScope */
  guint64 block_threads;
  guint64 expected;
} BarrierCase;

ParameterizedTestParameters(barrier, should_make_members_wait) {
  static BarrierCase cases[] = {
      {-1, 6, 9}, {MS_SCOPE_GRID, 6, 11}, {MS_SCOPE_GRID, 2, 11}, {MS_SCOPE_BLOCK, 4, 10},
      {MS_SCOPE_BLOCK, 2, 9}, {MS_SCOPE_BLOCK, 6, 11},
  };
  return cr_make_param_array(BarrierCase, cases, G_N_ELEMENTS(cases));
}

static MtTrace *barrier_trace(int sync, guint64 block_threads) {
  MtTrace *t = mt_trace_new(6, block_threads);
  const gint64 a[6] = {0, 2, N_, N_, N_, N_}, b[6] = {0, 1, 2, 3, 4, 5};
  mt_mem_arr(t, MS_OP_READ, MS_SPACE_GLOBAL, a);
  if (sync >= 0) mt_sync(t, (MsScope)sync);
  mt_mem_arr(t, MS_OP_READ, MS_SPACE_GLOBAL, b);
  return t;
}

ParameterizedTest(BarrierCase *c, barrier, should_make_members_wait) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 2, 4);
  MtTrace *t = barrier_trace(c->sync, c->block_threads);
  g_autoptr(MsResult) r = mt_run(m, t, NULL);
  cr_expect_eq(r->time_units, c->expected, "sync %d block_threads %lu: got %lu, expected %lu",
               c->sync, (unsigned long)c->block_threads, (unsigned long)r->time_units,
               (unsigned long)c->expected);
  /* barriers add nothing to the per-round bound: (2 + 3) + (3 + 3) */
  cr_expect_eq(r->round_sum, 11);
  cr_expect_eq(r->grid_barriers, c->sync == MS_SCOPE_GRID ? 1 : 0);
  cr_expect_eq(r->block_barriers, c->sync == MS_SCOPE_BLOCK ? 1 : 0);
  mt_trace_free(t);
}

Test(barrier, per_step_should_report_first_dispatch_and_last_complete) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 2, 4);
  MtTrace *t = barrier_trace(MS_SCOPE_GRID, 6);
  MsSimOptions opt = {.per_step = TRUE};
  g_autoptr(MsResult) r = mt_run(m, t, &opt);
  cr_assert_eq(r->per_step->len, 3);
  MsStepResult *s = (MsStepResult *)(void *)r->per_step->data;
  cr_expect_eq(s[0].index, 0);
  cr_expect_eq(s[0].stages, 2);
  cr_expect_eq(s[0].dispatches, 1);
  cr_expect_eq(s[0].requests, 2);
  cr_expect_eq(s[0].first_dispatch, 0);
  cr_expect_eq(s[0].last_complete, 4);
  cr_expect_eq(s[1].index, 1);
  cr_expect_eq(s[1].step.op, MS_OP_SYNC);
  cr_expect_eq(s[1].first_dispatch, -1);
  cr_expect_eq(s[1].last_complete, -1);
  cr_expect_eq(s[2].index, 2);
  cr_expect_eq(s[2].stages, 3);
  cr_expect_eq(s[2].requests, 6);
  cr_expect_eq(s[2].first_dispatch, 5);
  cr_expect_eq(s[2].last_complete, 10);
  mt_trace_free(t);
}

Test(barrier, sync_first_and_last_should_cost_nothing) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_DMM, 4, 5);
  MtTrace *t = mt_trace_new(8, 4);
  mt_sync(t, MS_SCOPE_GRID);
  mt_sync(t, MS_SCOPE_BLOCK);
  mt_mem_arr(t, MS_OP_READ, MS_SPACE_SHARED, fig33);
  mt_sync(t, MS_SCOPE_BLOCK);
  mt_sync(t, MS_SCOPE_GRID);
  g_autoptr(MsResult) r = mt_run(m, t, NULL);
  cr_expect_eq(r->time_units, 7);
  cr_expect_eq(r->steps, 5);
  mt_trace_free(t);
}

/* ---- HMM ----
 * w = 2, shared_latency 3, global_latency 5, 8 threads in blocks of 4: W(0), W(1) in block 0
 * on DMM 0; W(2), W(3) in block 1 on DMM 1 (d = 2) or DMM 0 (d = 1).
 *   step 0: shared read, conflict-free (1 stage per warp)
 *   step 1: global read, coalesced (1 stage per warp)
 * d = 2: DMM 0 serves W(0) at 0, W(1) at 1; DMM 1 serves W(2) at 0, W(3) at 1 in parallel:
 *   shared step done at 1+1+3-2 = 3.  Ready: W(0), W(2) at 3; W(1), W(3) at 4.  The global
 *   pipeline (shared by all): W(0) at 3; at 4 the scan after W(0) finds W(1) ready; W(2) at
 *   5; W(3) at 6, done 6+1+5-2 = 10: 11 time units.
 * d = 1: DMM 0 serves W(0..3) at 0..3 (ready 3, 4, 5, 6); global: 3, 4, 5, 6: also 11, but
 *   the shared step alone ends at 3+1+1 = 5 instead of 3. */
static MtTrace *hmm_trace(gboolean with_global) {
  MtTrace *t = mt_trace_new(8, 4);
  const gint64 a[8] = {0, 1, 2, 3, 0, 1, 2, 3};
  mt_mem_arr(t, MS_OP_READ, MS_SPACE_SHARED, a);
  if (with_global) mt_mem_fn(t, MS_OP_READ, MS_SPACE_GLOBAL, identity, NULL);
  return t;
}

Test(hmm, dmms_should_run_shared_steps_in_parallel) {
  g_autoptr(MsModel) m2 = mt_hmm(MS_MODEL_HMM, 2, 2, 3, 5);
  g_autoptr(MsModel) m1 = mt_hmm(MS_MODEL_HMM, 2, 1, 3, 5);
  MtTrace *t = hmm_trace(FALSE);
  cr_expect_eq(mt_time(m2, t), 4);
  cr_expect_eq(mt_time(m1, t), 6);
  mt_trace_free(t);
}

Test(hmm, global_pipeline_should_be_shared_by_all_dmms) {
  g_autoptr(MsModel) m = mt_hmm(MS_MODEL_HMM, 2, 2, 3, 5);
  MtTrace *t = hmm_trace(TRUE);
  MsSimOptions opt = {.per_step = TRUE, .max_events = 100};
  g_autoptr(MsResult) r = mt_run(m, t, &opt);
  cr_expect_eq(r->time_units, 11);
  cr_expect_eq(r->shared.stages, 4);
  cr_expect_eq(r->shared.dispatches, 4);
  cr_expect_eq(r->global.stages, 4);
  cr_expect_eq(r->global.dispatches, 4);
  cr_expect_eq(r->stages, 8);
  /* analogue of round_sum: busiest DMM (2 stages) + 3 - 1, then 4 + 5 - 1 */
  cr_expect_eq(r->round_sum, 4 + 8);
  MsStepResult *s = (MsStepResult *)(void *)r->per_step->data;
  cr_expect_eq(s[0].last_complete, 3);
  cr_expect_eq(s[1].first_dispatch, 3);
  cr_expect_eq(s[1].last_complete, 10);
  /* dispatches in time order: (time, pipeline, warp) */
  static const gint64 want[8][3] = {{0, 0, 0}, {0, 1, 2}, {1, 0, 1}, {1, 1, 3},
                                    {3, 2, 0}, {4, 2, 1}, {5, 2, 2}, {6, 2, 3}};
  cr_assert_eq(r->events->len, 8);
  GArray *ev = r->events;
  gboolean seen[8] = {0};
  for (guint i = 0; i < ev->len; i++) {
    MsEvent *e = &g_array_index(ev, MsEvent, i);
    gboolean found = FALSE;
    for (int k = 0; k < 8; k++)
      if (!seen[k] && want[k][0] == e->time && want[k][1] == (gint64)e->pipeline &&
          want[k][2] == (gint64)e->warp) {
        seen[k] = found = TRUE;
        break;
      }
    cr_expect(found, "unexpected event: time %ld pipeline %u warp %lu", (long)e->time,
              e->pipeline, (unsigned long)e->warp);
  }
  mt_trace_free(t);
}

Test(hmm, shared_conflicts_should_stay_on_their_own_dmm) {
  /* d = 2, w = 2, blocks of 2 threads: W(0) on DMM 0 with a 2-way conflict (0, 2), W(1) on
   * DMM 1 conflict-free, W(2) on DMM 0 conflict-free.  shared_latency 2.
   * DMM 0: W(0) at 0..1, W(2) at 2, done 2+1+2-2 = 3.  DMM 1: W(1) at 0, done 1.  -> 4.
   * round_sum: DMM 0 has 3 stages, DMM 1 one: 3 + 2 - 1 = 4. */
  g_autoptr(MsModel) m = mt_hmm(MS_MODEL_HMM, 2, 2, 2, 9);
  MtTrace *t = mt_trace_new(6, 2);
  const gint64 a[6] = {0, 2, 0, 1, 4, 5};
  mt_mem_arr(t, MS_OP_READ, MS_SPACE_SHARED, a);
  g_autoptr(MsResult) r = mt_run(m, t, NULL);
  cr_expect_eq(r->time_units, 4);
  cr_expect_eq(r->shared.stages, 4);
  cr_expect_eq(r->extra_stages, 1);
  cr_expect_eq(r->round_sum, 4);
  cr_expect_eq(r->blocks, 3);
  mt_trace_free(t);
}

Test(hmm, async_hmm_should_count_grid_barriers) {
  for (int kind = MS_MODEL_HMM; kind <= MS_MODEL_ASYNC_HMM; kind++) {
    g_autoptr(MsModel) m = mt_hmm((MsModelKind)kind, 2, 2, 3, 5);
    MtTrace *t = mt_trace_new(8, 4);
    mt_mem_fn(t, MS_OP_READ, MS_SPACE_GLOBAL, identity, NULL);
    mt_sync(t, MS_SCOPE_GRID);
    mt_mem_fn(t, MS_OP_WRITE, MS_SPACE_SHARED, identity, NULL);
    mt_sync(t, MS_SCOPE_BLOCK);
    mt_mem_fn(t, MS_OP_READ, MS_SPACE_SHARED, identity, NULL);
    mt_sync(t, MS_SCOPE_GRID);
    mt_mem_fn(t, MS_OP_WRITE, MS_SPACE_GLOBAL, identity, NULL);
    g_autoptr(MsResult) r = mt_run(m, t, NULL);
    cr_expect_eq(r->grid_barriers, 2);
    cr_expect_eq(r->block_barriers, 1);
    /* global: warps at 0..3 (ready 5..8); barrier releases all at 8.  Shared: DMM 0 serves
     * W(0) at 8, W(1) at 9; DMM 1 W(2) 8, W(3) 9 (ready 11, 12); block barriers release both
     * blocks at 12; shared again 12, 13 -> ready 15, 16; grid barrier at 16; global at
     * 16..19, done 19+1+5-2 = 23: 24 time units. */
    cr_expect_eq(r->time_units, 24, "%s: %lu", ms_model_kind_name((MsModelKind)kind),
                 (unsigned long)r->time_units);
    mt_trace_free(t);
  }
}

/* ---- events ---- */

Test(events, should_record_each_dispatch) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_DMM, 4, 5);
  MtTrace *t = fig33_trace();
  MsSimOptions opt = {.max_events = 2};
  g_autoptr(MsResult) r = mt_run(m, t, &opt);
  cr_assert_not_null(r->events);
  cr_assert_eq(r->events->len, 2);
  MsEvent *e = (MsEvent *)(void *)r->events->data;
  cr_expect_eq(e[0].time, 0);
  cr_expect_eq(e[0].pipeline, 0);
  cr_expect_eq(e[0].warp, 0);
  cr_expect_eq(e[0].step, 0);
  cr_expect_eq(e[0].stages, 2);
  cr_expect_eq(e[0].complete, 5);
  cr_expect_eq(e[1].time, 2);
  cr_expect_eq(e[1].warp, 1);
  cr_expect_eq(e[1].stages, 1);
  cr_expect_eq(e[1].complete, 6);
  cr_expect_null(r->per_step);
  mt_trace_free(t);
}

Test(events, should_not_be_recorded_by_default) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_DMM, 4, 5);
  MtTrace *t = fig33_trace();
  g_autoptr(MsResult) r = mt_run(m, t, NULL);
  cr_expect_null(r->events);
  cr_expect_null(r->per_step);
  mt_trace_free(t);
}

Test(events, should_fail_past_max_events) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_DMM, 4, 5);
  MtTrace *t = fig33_trace();
  MsSource *src = mt_source(t, "fig33");
  MsSimOptions opt = {.max_events = 1};
  GError *err = NULL;
  MsResult *r = ms_simulate(m, src, &opt, &err);
  cr_expect_null(r);
  cr_assert_not_null(err);
  cr_expect(g_error_matches(err, MS_ERROR, MS_ERROR_LIMIT));
  cr_expect_str_eq(err->message, "fig33: more than 1 dispatches: too large to draw a timeline");
  g_error_free(err);
  ms_source_free(src);
  mt_trace_free(t);
}

/* ---- sources and results ---- */

Test(source, from_arrays_should_match_builder) {
  static const MsStep steps[] = {{MS_OP_READ, MS_SPACE_SHARED, MS_SCOPE_GRID},
                                 {MS_OP_SYNC, MS_SPACE_GLOBAL, MS_SCOPE_GRID},
                                 {MS_OP_WRITE, MS_SPACE_SHARED, MS_SCOPE_GRID}};
  static const gint64 addr[16] = {7, 5, 15, 0, 10, 11, 12, 9, 0, 1, 2, 3, 4, 5, 6, 7};
  g_autoptr(MsModel) m = mt_model(MS_MODEL_DMM, 4, 5);
  MsSource *src = mt_source_from_arrays("arrays", 8, 8, steps, 3, addr);
  g_autoptr(MsResult) r = mt_run_source(m, src, NULL);
  /* step 0 done at 6; both warps ready at 6 (W0) and 7 (W1): barrier releases at 7;
   * step 2: W(0) at 7?  The scan starts after W(1): W(0) at 7, W(1) at 8, done 8+4 = 12 */
  cr_expect_eq(r->time_units, 13);
  cr_expect_eq(r->round_sum, 7 + 6);
  ms_source_free(src);
}

Test(result, json_should_hold_the_spec_keys) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_DMM, 4, 5);
  MtTrace *t = fig33_trace();
  MsSource *src = mt_source(t, "fig33");
  g_autoptr(MsResult) r = mt_run_source(m, src, NULL);
  g_autofree char *js = ms_result_to_json(r, m, src, FALSE);
  cJSON *root = cJSON_Parse(js);
  cr_assert_not_null(root, "not JSON: %s", js);
  static const struct { const char *obj, *key; double value; } want[] = {
      {NULL, "time_units", 7}, {NULL, "stages", 3},   {NULL, "dispatches", 2},
      {NULL, "requests", 8},   {NULL, "extra_stages", 1}, {NULL, "round_sum", 7},
      {"shared", "stages", 3}, {"shared", "dispatches", 2}, {"global", "stages", 0},
      {"global", "dispatches", 0}};
  for (gsize i = 0; i < G_N_ELEMENTS(want); i++) {
    const cJSON *o = want[i].obj ? cJSON_GetObjectItemCaseSensitive(root, want[i].obj) : root;
    const cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, want[i].key) : NULL;
    cr_expect(cJSON_IsNumber(v) && v->valuedouble == want[i].value, "%s.%s in %s",
              want[i].obj ? want[i].obj : "", want[i].key, js);
  }
  cJSON_Delete(root);
  ms_source_free(src);
  mt_trace_free(t);
}

/* ---- GPU extensions: the worked examples of MODELS.md ---- */

Test(gpu, fig3_3_umm_with_global_rate_2_should_take_7) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 4, 5);
  m->global_rate = 2;
  MtTrace *t = fig33_trace();
  MsSimOptions opt = {.per_step = TRUE, .max_events = 10};
  g_autoptr(MsResult) r = mt_run(m, t, &opt);
  /* W(0): 3 groups, slots 0-2 (last at time 1, complete 1 + 5 - 1 = 5); W(1): 2 groups,
   * slots 3-4 (last at time 2, complete 6).  Both dispatched at time 0. */
  cr_expect_eq(r->time_units, 7);
  cr_assert_eq(r->events->len, 2);
  const MsEvent *e0 = &g_array_index(r->events, MsEvent, 0), *e1 = &g_array_index(r->events, MsEvent, 1);
  cr_expect_eq(e0->time, 0);
  cr_expect_eq(e0->slot, 0);
  cr_expect_eq(e0->complete, 5);
  cr_expect_eq(e1->time, 1); /* slot 3 is time 1's: no slot of time 0 was left */
  cr_expect_eq(e1->slot, 3);
  cr_expect_eq(e1->complete, 6);
  cr_expect_eq(r->global_busy, 3); /* ceil(5 / 2) */
  m->global_rate = 1;
  cr_expect_eq(mt_time(m, t), 9);
  mt_trace_free(t);
}

/* Two blocks of one warp (w = 4), each reading one coalesced group, on an HMM with d = 1. */
static MtTrace *two_block_trace(gboolean two_kernels) {
  MtTrace *t = mt_trace_new(8, 4);
  static const gint64 a[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  mt_mem_arr(t, MS_OP_READ, MS_SPACE_GLOBAL, a);
  if (two_kernels) {
    mt_sync(t, MS_SCOPE_GRID);
    mt_mem_arr(t, MS_OP_READ, MS_SPACE_GLOBAL, a);
  }
  return t;
}

Test(gpu, resident_blocks_1_should_run_blocks_one_after_another) {
  g_autoptr(MsModel) m = mt_hmm(MS_MODEL_HMM, 4, 1, 1, 5);
  MtTrace *t = two_block_trace(FALSE);
  cr_expect_eq(mt_time(m, t), 6); /* unlimited: dispatches at 0 and 1 */
  m->resident_blocks = 1;
  /* block 0 dispatches at 0, completes 4; block 1 placed at 5, completes 9 */
  g_autoptr(MsResult) r = mt_run(m, t, NULL);
  cr_expect_eq(r->time_units, 10);
  cr_expect_eq(r->kernels, 1);
  mt_trace_free(t);
}

Test(gpu, two_kernels_with_launch_units_should_take_24) {
  g_autoptr(MsModel) m = mt_hmm(MS_MODEL_HMM, 4, 1, 1, 5);
  m->resident_blocks = 1;
  m->launch_units = 2;
  MtTrace *t = two_block_trace(TRUE);
  MsSimOptions opt = {.per_step = TRUE};
  g_autoptr(MsResult) r = mt_run(m, t, &opt);
  /* kernel 1 from 2: block 0 at 2 (complete 6), block 1 at 7 (complete 11); kernel 2 from
   * 11 + 1 + 2 = 14: block 0 at 14 (18), block 1 at 19 (23) */
  cr_expect_eq(r->time_units, 24);
  cr_expect_eq(r->kernels, 2);
  cr_expect_eq(r->launch_total, 4);
  const MsStepResult *s0 = &g_array_index(r->per_step, MsStepResult, 0);
  const MsStepResult *s2 = &g_array_index(r->per_step, MsStepResult, 2);
  cr_expect_eq(s0->first_dispatch, 2);
  cr_expect_eq(s0->last_complete, 11);
  cr_expect_eq(s2->first_dispatch, 14);
  cr_expect_eq(s2->last_complete, 23);
  mt_trace_free(t);
}

Test(gpu, fig3_3_dmm_with_launch_units_3_should_take_10) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_DMM, 4, 5);
  m->launch_units = 3;
  MtTrace *t = fig33_trace();
  g_autoptr(MsResult) r = mt_run(m, t, NULL);
  cr_expect_eq(r->time_units, 10);
  cr_expect_eq(r->kernels, 1);
  cr_expect_eq(r->launch_total, 3);
  mt_trace_free(t);
}

/* shared_words: a DMM of 10 words holds one block of 6 words at a time. */
Test(gpu, shared_words_should_limit_resident_blocks) {
  g_autoptr(MsModel) m = mt_hmm(MS_MODEL_HMM, 4, 1, 1, 5);
  MtTrace *t = two_block_trace(FALSE);
  m->shared_words_per_dmm = 10;
  cr_expect_eq(mt_time(m, t), 6); /* the trace declares no shared memory: no limit */
  t->shared_words = 6;
  cr_expect_eq(mt_time(m, t), 10);
  t->shared_words = 5;
  cr_expect_eq(mt_time(m, t), 6);
  t->shared_words = 11; /* fits no DMM */
  MsSource *src = mt_source(t, "t.json");
  GError *err = NULL;
  cr_expect_null(ms_simulate(m, src, NULL, &err));
  cr_assert_not_null(err);
  cr_expect_str_eq(err->message, "t.json: a block's shared_words = 11 is more than the model's shared_words_per_dmm = 10");
  g_clear_error(&err);
  ms_source_free(src);
  mt_trace_free(t);
}

Test(gpu, block_larger_than_resident_warps_should_be_an_error) {
  g_autoptr(MsModel) m = mt_hmm(MS_MODEL_HMM, 4, 2, 1, 5);
  m->resident_warps = 1;
  MtTrace *t = mt_trace_new(16, 8);
  static const gint64 a[16] = {0};
  mt_mem_arr(t, MS_OP_READ, MS_SPACE_GLOBAL, a);
  MsSource *src = mt_source(t, "t.json");
  GError *err = NULL;
  cr_expect_null(ms_simulate(m, src, NULL, &err));
  cr_assert_not_null(err);
  cr_expect_str_eq(err->message, "t.json: a block of 2 warps does not fit the model's resident_warps = 1 (make block_threads at most 4)");
  g_clear_error(&err);
  ms_source_free(src);
  mt_trace_free(t);
}

/* Placement: each block goes to the DMM with room holding the fewest resident warps. */
Test(gpu, blocks_should_go_to_the_least_loaded_dmm_with_room) {
  g_autoptr(MsModel) m = mt_hmm(MS_MODEL_HMM, 1, 2, 1, 3);
  m->resident_warps = 2;
  /* w = 1, blocks of 1 warp: 6 blocks, each a shared read; block 0 reads 5 times (a long
   * block), others once.  d = 2, 2 warps per DMM: blocks 0, 1 on DMM 0, 1; 2, 3 next. */
  MtTrace *t = mt_trace_new(6, 1);
  for (int s = 0; s < 5; s++) {
    gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_SHARED);
    a[0] = 0;
    if (s == 0)
      for (int i = 1; i < 6; i++) a[i] = 0;
  }
  MsSimOptions opt = {.max_events = 100};
  g_autoptr(MsResult) r = mt_run(m, t, &opt);
  /* At 0: b0 -> DMM 0, b1 -> 1, b2 -> 0 (tie: the lower), b3 -> 1; b4 waits (both full).
   * shared_latency 1: a 1-stage dispatch at t completes at t.  DMM 1: w1 at 0 (retires at
   * 1), so at 1 b4 goes to DMM 1 (the only one with room); w3 at 1, w4 at 2.  DMM 0: w0 at
   * 0, w2 at 1 (retires at 2, as does b3): at 2 b5 goes to DMM 0 (1 warp each: the lower),
   * w5 dispatches at 2 (round robin after w2), then w0's steps 1-4 at 3..6: 7 time units. */
  guint64 pipe_of_warp[6] = {9, 9, 9, 9, 9, 9};
  for (guint i = 0; i < r->events->len; i++) {
    const MsEvent *e = &g_array_index(r->events, MsEvent, i);
    pipe_of_warp[e->warp] = e->pipeline;
  }
  static const guint64 want[6] = {0, 1, 0, 1, 1, 0};
  for (int i = 0; i < 6; i++) cr_expect_eq(pipe_of_warp[i], want[i], "warp %d on DMM %lu", i, (unsigned long)pipe_of_warp[i]);
  cr_expect_eq(r->time_units, 7);
  cr_expect_eq(r->shared_busy, 7); /* DMM 0: w0 5 stages, w2 and w5 one each */
  mt_trace_free(t);
}

/* L2: a trace whose declared footprint fits l2_words runs at l2_latency and l2_rate. */
Test(gpu, l2_resident_trace_should_use_l2_latency_and_rate) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 4, 5);
  m->l2_words = 16;
  m->l2_latency = 2;
  m->l2_rate = 2;
  MtTrace *t = fig33_trace();
  cr_expect_eq(mt_time(m, t), 9); /* undeclared footprint: global memory */
  t->global_words = 17;
  cr_expect_eq(mt_time(m, t), 9); /* does not fit */
  t->global_words = 16;
  /* rate 2, l = 2: W(0) slots 0-2 (last at 1, complete 1 + 2 - 1 = 2); W(1) slots 3-4 (last
   * at 2, complete 3): 4 time units */
  g_autoptr(MsResult) r = mt_run(m, t, NULL);
  cr_expect_eq(r->time_units, 4);
  cr_expect(r->l2_resident);
  mt_trace_free(t);
}

/* Warp issue (docs/models.md): one warp reads a, reads b, writes c, reads d on the textbook
 * UMM (w = 4, l = 5): 20 time units by rules 1-3; 16 with posted writes (d issues one unit
 * after the write's stage); 12 with 2 reads in flight as well (b issues at 1, the write waits
 * for both reads and enters at 6, d at 7 completes at 11). */
static MtTrace *warp_issue_trace(void) {
  MtTrace *t = mt_trace_new(4, 4);
  const MsOp ops[4] = {MS_OP_READ, MS_OP_READ, MS_OP_WRITE, MS_OP_READ};
  for (int s = 0; s < 4; s++) {
    gint64 *a = mt_mem(t, ops[s], MS_SPACE_GLOBAL);
    for (int i = 0; i < 4; i++) a[i] = 4 * s + i;
  }
  return t;
}

Test(gpu, warp_issue_worked_examples_should_take_20_16_12) {
  const struct {
    guint32 window;
    gboolean posted;
    guint64 want;
    gint64 write_first, last_read_first;
  } cases[] = {{1, FALSE, 20, 10, 15}, {1, TRUE, 16, 10, 11}, {2, TRUE, 12, 6, 7}, {2, FALSE, 16, 6, 11}};
  for (gsize c = 0; c < G_N_ELEMENTS(cases); c++) {
    g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 4, 5);
    m->read_window = cases[c].window;
    m->posted_writes = cases[c].posted;
    MtTrace *t = warp_issue_trace();
    MsSimOptions opt = {.per_step = TRUE};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, cases[c].want, "case %zu: %" G_GUINT64_FORMAT " time units", c, r->time_units);
    cr_expect_eq(g_array_index(r->per_step, MsStepResult, 2).first_dispatch, cases[c].write_first, "case %zu", c);
    cr_expect_eq(g_array_index(r->per_step, MsStepResult, 3).first_dispatch, cases[c].last_read_first, "case %zu", c);
    mt_trace_free(t);
  }
}

/* Posted writes hold no later step, a write included: one warp of 4 threads reads a, then
 * writes b, c, d (textbook UMM w = 4, l = 5).  b waits for a (its data): enters at 5; with
 * posted writes c and d follow at 6 and 7 (complete 11): 12 time units; without, each write
 * waits for the previous one: 5, 10, 15, complete 19: 20 (rules 1-3). */
Test(gpu, posted_writes_do_not_wait_for_each_other) {
  const struct {
    gboolean posted;
    guint64 want;
    gint64 third_write;
  } cases[] = {{FALSE, 20, 15}, {TRUE, 12, 7}};
  for (gsize c = 0; c < G_N_ELEMENTS(cases); c++) {
    g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 4, 5);
    m->posted_writes = cases[c].posted;
    MtTrace *t = mt_trace_new(4, 4);
    const MsOp ops[4] = {MS_OP_READ, MS_OP_WRITE, MS_OP_WRITE, MS_OP_WRITE};
    for (int s = 0; s < 4; s++) {
      gint64 *a = mt_mem(t, ops[s], MS_SPACE_GLOBAL);
      for (int i = 0; i < 4; i++) a[i] = 4 * s + i;
    }
    MsSimOptions opt = {.per_step = TRUE};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, cases[c].want, "case %zu: %" G_GUINT64_FORMAT " time units", c, r->time_units);
    cr_expect_eq(g_array_index(r->per_step, MsStepResult, 3).first_dispatch, cases[c].third_write, "case %zu", c);
    mt_trace_free(t);
  }
}

/* Partial writes (docs/models.md): one warp of 4 threads (UMM w = 4, l = 5, groups of 4)
 * writes [0 1 2 3] (group 0, all of it: 1 stage) then [0 2 4 6] (groups 0 and 1, half of
 * each).  With partial_write_stages 1 the second step costs 2 x (1 + 1) = 4 stages at
 * 5 .. 8, complete at 12: 13 time units; without, 2 stages: 11.  The same trace run in L2
 * takes l2_partial_write_stages (3: 2 x 4 stages at 5 .. 12, complete at 16 with the L2's
 * latency 5: 17).  Reads are never charged; a DMM-side step neither. */
Test(gpu, partial_writes_cost_their_extra_stages) {
  const struct {
    guint32 pw, l2pw;
    gboolean l2, read;
    guint64 want, stages;
  } cases[] = {{0, 0, FALSE, FALSE, 11, 3}, {1, 0, FALSE, FALSE, 13, 5}, {1, 3, TRUE, FALSE, 17, 9},
               {0, 3, FALSE, FALSE, 11, 3}, {2, 2, FALSE, TRUE, 11, 3}};
  for (gsize c = 0; c < G_N_ELEMENTS(cases); c++) {
    g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 4, 5);
    m->partial_write_stages = cases[c].pw;
    m->l2_partial_write_stages = cases[c].l2pw;
    m->l2_words = 100;
    m->l2_latency = 5;
    m->l2_rate = 1;
    MtTrace *t = mt_trace_new(4, 4);
    t->global_words = cases[c].l2 ? 8 : 1000;
    static const gint64 addr[2][4] = {{0, 1, 2, 3}, {0, 2, 4, 6}};
    for (int s = 0; s < 2; s++) {
      gint64 *a = mt_mem(t, cases[c].read ? MS_OP_READ : MS_OP_WRITE, MS_SPACE_GLOBAL);
      for (int i = 0; i < 4; i++) a[i] = addr[s][i];
    }
    MsSimOptions opt = {0};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, cases[c].want, "case %zu: %" G_GUINT64_FORMAT " time units", c, r->time_units);
    cr_expect_eq(r->stages, cases[c].stages, "case %zu: %" G_GUINT64_FORMAT " stages", c, r->stages);
    mt_trace_free(t);
  }
}

/* docs/models.md, "The L2 cache": one set of one way, a read miss, a hit, a partial write
 * miss that evicts group 0 (fill + dirty), and group 0 read again (a miss): 18 time units;
 * without l2_ways the footprint rule alone runs every step at DRAM latency: 20. */
Test(gpu, l2_cache_worked_example) {
  const gint64 addr[4][4] = {{0, 1, 2, 3}, {0, 1, 2, 3}, {8, 9, -1, -1}, {0, 1, 2, 3}};
  for (int ways = 0; ways <= 1; ways++) {
    g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 4, 5);
    m->l2_words = 8;
    m->l2_latency = 2;
    m->l2_rate = 1;
    m->l2_ways = (guint32)ways;
    MtTrace *t = mt_trace_new(4, 4);
    for (int s = 0; s < 4; s++) {
      gint64 *a = mt_mem(t, s == 2 ? MS_OP_WRITE : MS_OP_READ, MS_SPACE_GLOBAL);
      for (int i = 0; i < 4; i++) a[i] = addr[s][i] < 0 ? MS_ADDR_NONE : addr[s][i];
    }
    MsSimOptions opt = {0};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, ways ? 18u : 20u, "ways %d: %" G_GUINT64_FORMAT " time units", ways, r->time_units);
    cr_expect_eq(r->stages, 4u);
    cr_expect_eq(r->l2_cached, ways == 1);
    cr_expect_eq(r->l2_hits, ways ? 1u : 0u);
    cr_expect_eq(r->l2_misses, ways ? 3u : 0u);
    cr_expect_eq(r->dram_stages, ways ? 4u : 0u);
    mt_trace_free(t);
  }
}

/* docs/models.md, "DRAM rows": one warp reads groups 0, 2, 4, 6 (four rows of two groups:
 * each alone in its row), then 8, 9, 10, 11 (two rows, two groups each), all misses.  With
 * global_rate 2 and dram_lone_rate 1 the first step's four slots take 1 time unit each
 * (DRAM busy to 4, complete at 3 + 5 - 1 = 7), the second's half a unit each (from 8, complete
 * at 9 + 4 = 13): 14 time units against 12 without rows (models/extensions/umm-dram-rows.json,
 * traces/dram-rows.json). */
Test(gpu, dram_rows_worked_example) {
  const gint64 addr[2][4] = {{0, 8, 16, 24}, {32, 36, 40, 44}};
  for (int rows = 0; rows <= 1; rows++) {
    g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 4, 5);
    m->global_rate = 2;
    m->l2_words = 32;
    m->l2_latency = 2;
    m->l2_rate = 1;
    m->l2_ways = 1;
    m->dram_row_words = rows ? 8 : 0;
    m->dram_lone_rate = rows ? 1 : 0;
    MtTrace *t = mt_trace_new(4, 4);
    for (int s = 0; s < 2; s++) {
      gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
      for (int i = 0; i < 4; i++) a[i] = addr[s][i];
    }
    MsSimOptions opt = {0};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, rows ? 14u : 12u, "rows %d: %" G_GUINT64_FORMAT " time units", rows, r->time_units);
    cr_expect_eq(r->l2_misses, 8u);
    cr_expect_eq(r->dram_stages, 8u);
    cr_expect_eq(r->dram_lone_stages, rows ? 4u : 0u);
    cr_expect_eq(r->dram_busy, rows ? 6u : 4u);
    mt_trace_free(t);
  }
}

/* docs/models.md, "A warm L2" (models/extensions/umm-l2-warm.json, traces/l2-warm.json): UMM
 * w = 4, latency 5, an L2 of two one-way sets (l2_words 8, group_words 4); one warp reads
 * groups 0, 1, 2 (a 12-word footprint: beyond l2_words, so a cold cache without the key).
 * Cold: three misses, complete at 4, 9, 14: 15 time units.  Warm: the first run leaves group 2
 * in set 0 and group 1 in set 1; group 0 misses (complete at 4), group 1 hits (at 5, complete
 * at 6), group 2 misses (at 7, complete at 11): 12 time units, 1 hit, 2 misses. */
Test(gpu, l2_warm_worked_example) {
  for (int warm = 0; warm <= 1; warm++) {
    g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 4, 5);
    m->global_rate = 1;
    m->l2_words = 8;
    m->l2_latency = 2;
    m->l2_rate = 1;
    m->l2_ways = 1;
    m->l2_warm = warm;
    MtTrace *t = mt_trace_new(4, 4);
    t->global_words = 12;
    for (int s = 0; s < 3; s++) {
      gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
      for (int i = 0; i < 4; i++) a[i] = 4 * s + i;
    }
    g_autoptr(MsResult) r = mt_run(m, t, NULL);
    cr_expect_eq(r->time_units, warm ? 12u : 15u, "warm %d: %" G_GUINT64_FORMAT " time units", warm, r->time_units);
    cr_expect_eq(r->l2_hits, warm ? 1u : 0u);
    cr_expect_eq(r->l2_misses, warm ? 2u : 3u);
    cr_expect_eq(r->l2_warm, warm);
    mt_trace_free(t);
  }
}

/* The same model with a footprint that fits: without the key it runs in L2 (no cache, every
 * access a hit); warm, through the cache, where the first run left both groups: the same 4
 * time units, and the cache's 2 hits. */
Test(gpu, l2_warm_runs_fitting_traces_through_the_cache) {
  for (int warm = 0; warm <= 1; warm++) {
    g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 4, 5);
    m->global_rate = 1;
    m->l2_words = 8;
    m->l2_latency = 2;
    m->l2_rate = 1;
    m->l2_ways = 1;
    m->l2_warm = warm;
    MtTrace *t = mt_trace_new(4, 4);
    t->global_words = 8;
    for (int s = 0; s < 2; s++) {
      gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
      for (int i = 0; i < 4; i++) a[i] = 4 * s + i;
    }
    g_autoptr(MsResult) r = mt_run(m, t, NULL);
    cr_expect_eq(r->time_units, 4u, "warm %d: %" G_GUINT64_FORMAT " time units", warm, r->time_units);
    cr_expect_eq(r->l2_resident, !warm);
    cr_expect_eq(r->l2_cached, warm);
    cr_expect_eq(r->l2_hits, warm ? 2u : 0u);
    mt_trace_free(t);
  }
}

/* docs/models.md, "Home partitions" (models/extensions/hmm-l2-home.json, traces/l2-home.json):
 * HMM d = 2, w = 4, global latency 5, an L2 of two partitions of two one-way sets; two blocks
 * of one warp (partitions 0 and 1) read group 0, whose home is partition 0 (floor(0 / 2) mod 2).
 * Without the key each partition misses: DRAM slots 0 and 1, complete at 4 and 5: 6 time
 * units.  With it the second warp's read misses its own set and hits the home copy: no DRAM,
 * complete at 1 + 2 - 1 = 2; 5 time units, 1 hit, 1 miss. */
Test(gpu, l2_home_partitions_worked_example) {
  for (int home = 0; home <= 1; home++) {
    g_autoptr(MsModel) m = mt_hmm(MS_MODEL_HMM, 4, 2, 1, 5);
    m->global_rate = 1;
    m->l2_words = 16;
    m->l2_latency = 2;
    m->l2_rate = 1;
    m->l2_ways = 1;
    m->l2_partitions = 2;
    m->l2_home_partitions = home;
    MtTrace *t = mt_trace_new(8, 4);
    t->global_words = 32;
    gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
    for (int i = 0; i < 8; i++) a[i] = i % 4;
    g_autoptr(MsResult) r = mt_run(m, t, NULL);
    cr_expect_eq(r->time_units, home ? 5u : 6u, "home %d: %" G_GUINT64_FORMAT " time units", home, r->time_units);
    cr_expect_eq(r->l2_hits, home ? 1u : 0u);
    cr_expect_eq(r->l2_misses, home ? 1u : 2u);
    cr_expect_eq(r->dram_stages, home ? 1u : 2u);
    mt_trace_free(t);
  }
}

/* docs/models.md, "DRAM rows", the write rate: the same model (global_rate 2, dram_lone_rate
 * 1, rows of two groups); one warp writes words 0, 8, 16, 24: four partial writes that miss,
 * each alone in its row, two lone slots each (fill, write-back).  At dram_lone_rate the eight
 * slots take 8 time units (complete at 7 + 5 - 1 = 11: 12 time units); with
 * dram_lone_write_rate 2 half a unit each (complete at 3 + 5 - 1 = 7: 8 time units). */
Test(gpu, dram_lone_write_rate_worked_example) {
  for (int rw = 0; rw <= 2; rw += 2) {
    g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 4, 5);
    m->global_rate = 2;
    m->l2_words = 32;
    m->l2_latency = 2;
    m->l2_rate = 1;
    m->l2_ways = 1;
    m->dram_row_words = 8;
    m->dram_lone_rate = 1;
    m->dram_lone_write_rate = (guint32)rw;
    MtTrace *t = mt_trace_new(4, 4);
    gint64 *a = mt_mem(t, MS_OP_WRITE, MS_SPACE_GLOBAL);
    for (int i = 0; i < 4; i++) a[i] = 8 * i;
    g_autoptr(MsResult) r = mt_run(m, t, NULL);
    cr_expect_eq(r->time_units, rw ? 8u : 12u, "rw %d: %" G_GUINT64_FORMAT " time units", rw, r->time_units);
    cr_expect_eq(r->dram_lone_stages, 8u);
    cr_expect_eq(r->dram_busy, rw ? 4u : 8u);
    mt_trace_free(t);
  }
}

/* docs/models.md, "Posted write-backs": the L2 cache's worked example with
 * l2_posted_write_backs.  The partial write at 7 still takes DRAM slots 7 and 8 but completes
 * at 7 + 2 - 1 = 8, when the L2 has it; the read at 9 misses, DRAM slot 9, complete at 13:
 * 14 time units, against 18 (models/extensions/umm-l2-posted-write-backs.json). */
Test(gpu, l2_posted_write_backs_worked_example) {
  const gint64 addr[4][4] = {{0, 1, 2, 3}, {0, 1, 2, 3}, {8, 9, -1, -1}, {0, 1, 2, 3}};
  for (int posted = 0; posted <= 1; posted++) {
    g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 4, 5);
    m->l2_words = 8;
    m->l2_latency = 2;
    m->l2_rate = 1;
    m->l2_ways = 1;
    m->l2_posted_write_backs = posted;
    MtTrace *t = mt_trace_new(4, 4);
    for (int s = 0; s < 4; s++) {
      gint64 *a = mt_mem(t, s == 2 ? MS_OP_WRITE : MS_OP_READ, MS_SPACE_GLOBAL);
      for (int i = 0; i < 4; i++) a[i] = addr[s][i] < 0 ? MS_ADDR_NONE : addr[s][i];
    }
    MsSimOptions opt = {0};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, posted ? 14u : 18u, "posted %d: %" G_GUINT64_FORMAT " time units", posted, r->time_units);
    cr_expect_eq(r->dram_stages, 4u, "the write-backs still take their DRAM slots");
    mt_trace_free(t);
  }
}

/* docs/models.md, "Barrier time" (models/extensions/dmm-barrier-time.json,
 * traces/barrier-time.json): DMM w = 4, l = 5; one block of two warps reads, passes a block
 * barrier and reads again.  The warps arrive at 5 and 6; without barrier time the block is
 * released at 6 and the reads complete at 10 and 11: 12 time units.  With barrier_units 3 and
 * barrier_warp_units 2 the barrier serves them at 5 .. 7 and 7 .. 9 and releases at 12: the
 * reads at 12 and 13, complete at 17: 18. */
Test(gpu, barrier_time_worked_example) {
  for (int cost = 0; cost <= 1; cost++) {
    g_autoptr(MsModel) m = mt_model(MS_MODEL_DMM, 4, 5);
    m->barrier_units = cost ? 3 : 0;
    m->barrier_warp_units = cost ? 2 : 0;
    MtTrace *t = mt_trace_new(8, 8);
    for (int s = 0; s < 2; s++) {
      if (s) mt_sync(t, MS_SCOPE_BLOCK);
      gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_SHARED);
      for (int i = 0; i < 8; i++) a[i] = i;
    }
    MsSimOptions opt = {.per_step = TRUE};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, cost ? 18u : 12u, "cost %d: %" G_GUINT64_FORMAT " time units", cost, r->time_units);
    const MsStepResult *rd = &g_array_index(r->per_step, MsStepResult, 2);
    cr_expect_eq(rd->first_dispatch, cost ? 12 : 6, "the read after the barrier: %" G_GINT64_FORMAT, rd->first_dispatch);
    mt_trace_free(t);
  }
}

/* docs/models.md, "Posted fences" (models/extensions/umm-l2-posted-fences.json,
 * traces/posted-fence.json): UMM w = 4, l = 5, group_words 4, an L2 cache of two groups
 * (l2_latency 2), posted writes.  Warp 0 writes group 0 (a miss: L2 at 0 .. 1, its DRAM slot
 * 0 .. 4) and signals flag 0; warp 1 waits for it and reads group 4 (a miss).  Without the
 * key the flag is set at 5, the read's DRAM slot 5 completes at 9: 10 time units; with it the
 * flag is set at 2 (the L2 has the write at 1), the read's DRAM slot is 2 .. 6: 7. */
Test(gpu, l2_posted_fences_worked_example) {
  for (int fences = 0; fences <= 1; fences++) {
    g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 4, 5);
    m->group_words = 4;
    m->l2_words = 8;
    m->l2_latency = 2;
    m->l2_rate = 1;
    m->l2_ways = 1;
    m->posted_writes = TRUE;
    m->l2_posted_fences = fences;
    MtTrace *t = mt_trace_new(8, 4);
    gint64 *a = mt_mem(t, MS_OP_WRITE, MS_SPACE_GLOBAL);
    for (int i = 0; i < 4; i++) a[i] = i;
    mt_mem(t, MS_OP_SIGNAL, MS_SPACE_GLOBAL)[0] = 0;
    mt_mem(t, MS_OP_WAIT, MS_SPACE_GLOBAL)[4] = 0;
    a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
    for (int i = 4; i < 8; i++) a[i] = 12 + i;
    MsSimOptions opt = {.per_step = TRUE};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, fences ? 7u : 10u, "fences %d: %" G_GUINT64_FORMAT " time units", fences, r->time_units);
    const MsStepResult *rd = &g_array_index(r->per_step, MsStepResult, 3);
    cr_expect_eq(rd->first_dispatch, fences ? 2 : 5, "the read after the wait: %" G_GINT64_FORMAT, rd->first_dispatch);
    cr_expect_eq(r->dram_stages, 2u, "the write still takes its DRAM slot");
    mt_trace_free(t);
  }
}

/* docs/models.md, "L2 partitions": HMM d = 2, w = 4, global latency 5, group_words 4,
 * l2_words 8, l2_latency 2, l2_rate 1, l2_ways 1; two blocks of one warp read group 0 twice.
 * One cache: warp 1 hits what warp 0 brought in, 7 time units; two partitions: each block's
 * first read misses in its own, 8 (models/extensions/hmm-l2-partitions.json,
 * traces/l2-partitions.json). */
Test(gpu, l2_partitions_worked_example) {
  for (guint32 parts = 1; parts <= 2; parts++) {
    g_autoptr(MsModel) m = mt_hmm(MS_MODEL_HMM, 4, 2, 1, 5);
    m->group_words = 4;
    m->l2_words = 8;
    m->l2_latency = 2;
    m->l2_rate = 1;
    m->l2_ways = 1;
    m->l2_partitions = parts;
    MtTrace *t = mt_trace_new(8, 4);
    for (int s = 0; s < 2; s++) {
      gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
      for (int i = 0; i < 8; i++) a[i] = i % 4;
    }
    MsSimOptions opt = {0};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, parts == 2 ? 8u : 7u, "partitions %u: %" G_GUINT64_FORMAT " time units", parts, r->time_units);
    cr_expect_eq(r->l2_hits, parts == 2 ? 2u : 3u);
    cr_expect_eq(r->l2_misses, parts == 2 ? 2u : 1u);
    cr_expect_eq(r->dram_stages, parts == 2 ? 2u : 1u);
    mt_trace_free(t);
  }
}

/* docs/models.md, "A DMM's port": HMM w = 4, global latency 5, group_words 4, global_rate
 * 8; two blocks of one warp read 4 groups each: 5 time units without a port, 8 with
 * dmm_global_rate 1 on two DMMs, 12 on one (models/extensions/hmm-dmm-port.json,
 * traces/dmm-port.json). */
Test(gpu, dmm_port_worked_example) {
  const struct { guint32 d, rate; guint64 want; } cases[] = {{2, 0, 5}, {2, 1, 8}, {1, 1, 12}, {1, 0, 5}};
  for (gsize c = 0; c < G_N_ELEMENTS(cases); c++) {
    g_autoptr(MsModel) m = mt_hmm(MS_MODEL_HMM, 4, cases[c].d, 1, 5);
    m->group_words = 4;
    m->global_rate = 8;
    m->dmm_global_rate = cases[c].rate;
    MtTrace *t = mt_trace_new(8, 4);
    gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
    for (int i = 0; i < 8; i++) a[i] = 4 * i;
    MsSimOptions opt = {0};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, cases[c].want, "d %u rate %u: %" G_GUINT64_FORMAT " time units", cases[c].d,
                 cases[c].rate, r->time_units);
    mt_trace_free(t);
  }
}

/* docs/models.md, "A DMM's port, by banks": the same HMM on one DMM, dmm_global_rate 1; one
 * block of two warps whose lanes are each in their own group and their own bank (0 5 10 15,
 * 16 21 26 31): 4 stages, bank degree 1.  By stages the port takes slots 0-3 and 4-7 (12 time
 * units); with dmm_port_banks 2 a read takes max(2, 1) = 2 slots, 0-1 and 2-3, complete at 5
 * and 7: 8 time units (dmm_port_banks 1: 1 slot each, complete at 4 and 5: 6); with
 * dmm_port_banks 4, 4 slots each: 12 again
 * (models/extensions/hmm-dmm-port-banks.json, traces/dmm-port-banks.json). */
Test(gpu, dmm_port_banks_worked_example) {
  const struct { guint32 banks; guint64 want; } cases[] = {{0, 12}, {2, 8}, {1, 6}, {4, 12}};
  for (gsize c = 0; c < G_N_ELEMENTS(cases); c++) {
    g_autoptr(MsModel) m = mt_hmm(MS_MODEL_HMM, 4, 1, 1, 5);
    m->group_words = 4;
    m->global_rate = 8;
    m->dmm_global_rate = 1;
    m->dmm_port_banks = cases[c].banks;
    MtTrace *t = mt_trace_new(8, 8);
    gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
    for (int i = 0; i < 8; i++) a[i] = 5 * (i % 4) + 16 * (i / 4);
    MsSimOptions opt = {0};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, cases[c].want, "banks %u: %" G_GUINT64_FORMAT " time units", cases[c].banks,
                 r->time_units);
    mt_trace_free(t);
  }
}

/* docs/models.md, "Shared and global reads on one port": the HMM above (dmm_port_banks 2) on one
 * DMM; one block of two warps: W0 reads a global group twice, W1 a shared word per lane twice.
 * Without dmm_port_shared W0's reads take port slots 0-1 (complete 5) and 6-7 (complete 11),
 * W1's complete at 0 and 1: 12 time units.  With it, at 0 W1's shared read takes the DMM's
 * stage 0 and port slot 0; W0's global read port slots 1-2 (complete 2 + 5 - 1 = 6) and the
 * DMM's stage 1; W1's second read at 1 waits for stage 2 and port slot 3 (complete 3); W0's
 * second at 7 takes port slots 7-8 and stage 7, complete 12: 13 time units
 * (models/extensions/hmm-port-shared.json, traces/port-shared.json). */
Test(gpu, port_shared_worked_example) {
  const gint64 want[2][4] = {{5, 0, 11, 1}, {6, 0, 12, 3}};
  for (int c = 0; c < 2; c++) {
    g_autoptr(MsModel) m = mt_hmm(MS_MODEL_HMM, 4, 1, 1, 5);
    m->group_words = 4;
    m->global_rate = 8;
    m->dmm_global_rate = 1;
    m->dmm_port_banks = 2;
    m->dmm_port_shared = c == 1;
    MtTrace *t = mt_trace_new(8, 8);
    for (int s = 0; s < 4; s++) {
      gint64 *a = mt_mem(t, MS_OP_READ, s % 2 ? MS_SPACE_SHARED : MS_SPACE_GLOBAL);
      for (int i = 0; i < 8; i++) a[i] = (s % 2) == (i / 4) ? 4 * (s / 2) + i % 4 : -1;
    }
    MsSimOptions opt = {.per_step = TRUE};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, (guint64)(c ? 13 : 12), "port_shared %d: %" G_GUINT64_FORMAT " time units", c, r->time_units);
    for (int s = 0; s < 4; s++) {
      const MsStepResult *ps = &g_array_index(r->per_step, MsStepResult, s);
      cr_expect_eq(ps->last_complete, want[c][s], "port_shared %d step %d: complete %" G_GINT64_FORMAT, c, s,
                   ps->last_complete);
    }
    mt_trace_free(t);
  }
}

/* docs/models.md, "Loaded latency": UMM w = 4, l = 4, global_loaded_latency [[0, 4],
 * [500, 8]] (a window of 4 time units of 1 slot); four warps each read one group
 * (traces/loaded-latency.json).  W0 at 0: 0 stages in the window, u = 0, latency 4,
 * complete 3; W1 at 1: 1 stage, u = 250, latency 6, complete 6; W2 at 2: u = 500, latency 8,
 * complete 9; W3 at 3: u = 750, latency 8, complete 10: 11 time units (7 without). */
Test(gpu, loaded_latency_worked_example) {
  const gint64 want_done[4] = {3, 6, 9, 10};
  for (int c = 0; c < 2; c++) {
    MsModel *m = ms_model_new(MS_MODEL_UMM, 4, 4, 1, 1, 1);
    if (c) {
      m->global_loaded_latency.n = 2;
      m->global_loaded_latency.u[1] = 500;
      m->global_loaded_latency.lat[0] = 4;
      m->global_loaded_latency.lat[1] = 8;
    }
    MtTrace *t = mt_trace_new(16, 0);
    gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
    for (int i = 0; i < 16; i++) a[i] = i;
    MsSimOptions opt = {.max_events = 100};
    MsResult *r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, c ? 11u : 7u, "case %d: %" G_GUINT64_FORMAT " time units", c, r->time_units);
    if (c) {
      cr_assert_eq(r->events->len, 4);
      for (guint i = 0; i < 4; i++) {
        const MsEvent *e = &g_array_index(r->events, MsEvent, i);
        cr_expect_eq(e->time, (gint64)i, "W%u dispatched at %" G_GINT64_FORMAT, i, e->time);
        cr_expect_eq(e->complete, want_done[i], "W%u completes at %" G_GINT64_FORMAT, i, e->complete);
      }
    }
    ms_result_free(r);
    mt_trace_free(t);
    ms_model_free(m);
  }
}

/* docs/models.md, "Warp shuffles": UMM w = 4, l = 5; two warps read, shuffle, shuffle
 * (warp 0 only), write (traces/shuffles.json).  Without shuffle_units the shuffles cost
 * nothing: 11 time units, as without them.  With 3: W0 reads at 0, ready at 5, shuffles
 * 5-7 and 8-10; W1 reads at 1, ready at 6, shuffles 6-8; W1 writes at 9 (complete 13),
 * W0 at 11 (complete 15): 16 time units (models/extensions/umm-shuffles.json). */
/* docs/models.md, "The L1 cache": one warp (w = 4, global latency 5, l1_words 8: two groups
 * of 4 words, one set of 2 ways, l1_latency 2) reads group 0 (miss: 0 .. 4), group 0 (hit: no
 * stage, 5 .. 6), group 1 (miss: 7 .. 11), groups 0, 1, 2 (two hits, one stage: 12 .. 16):
 * 17 time units; without the L1, 22. */
/* docs/models.md, "The L1 cache", hits at the port: the example above with dmm_global_rate 1
 * and dmm_port_banks 2.  Step 1's read hits and still takes its 2 port slots (6 and 7): it
 * completes at 7 + 2 - 1 = 8, not 6 + 2 - 1 = 7 (the rule before), and every later step one
 * time unit later: 22 time units against 21. */
Test(gpu, l1_hits_at_the_port_worked_example) {
  const guint64 want[2] = {21, 22}; /* without the hit's slots (the rule before), with them */
  static const gint64 addr[4][4] = {{0, 1, 2, 3}, {0, 1, 2, 3}, {4, 5, 6, 7}, {0, 4, 8, 9}};
  g_autoptr(MsModel) m = ms_model_new(MS_MODEL_HMM, 4, 0, 1, 1, 5);
  m->l1_words = 8;
  m->l1_latency = 2;
  m->l1_ways = 16;
  m->dmm_global_rate = 1;
  m->dmm_port_banks = 2;
  MtTrace *t = mt_trace_new(4, 4);
  for (int s = 0; s < 4; s++) {
    gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
    for (int i = 0; i < 4; i++) a[i] = addr[s][i];
  }
  MsSimOptions opt = {.per_step = TRUE};
  g_autoptr(MsResult) r = mt_run(m, t, &opt);
  cr_expect_eq(r->time_units, want[1], "%" G_GUINT64_FORMAT " time units", r->time_units);
  cr_expect_neq(r->time_units, want[0]);
  cr_expect_eq(r->stages, 3, "a hit takes no stage");
  cr_expect_eq(r->l1_hits, 3);
  const MsStepResult *s1 = &g_array_index(r->per_step, MsStepResult, 1);
  cr_expect_eq(s1->first_dispatch, 6);
  cr_expect_eq(s1->last_complete, 8, "its data l1_latency after its last port slot");
  mt_trace_free(t);
}

Test(gpu, l1_cache_worked_example) {
  const guint64 want[2] = {22, 17};
  static const gint64 addr[4][4] = {{0, 1, 2, 3}, {0, 1, 2, 3}, {4, 5, 6, 7}, {0, 4, 8, 9}};
  for (int c = 0; c < 2; c++) {
    g_autoptr(MsModel) m = ms_model_new(MS_MODEL_HMM, 4, 0, 1, 1, 5);
    if (c) {
      m->l1_words = 8;
      m->l1_latency = 2;
      m->l1_ways = 16;
    }
    MtTrace *t = mt_trace_new(4, 4);
    for (int s = 0; s < 4; s++) {
      gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
      for (int i = 0; i < 4; i++) a[i] = addr[s][i];
    }
    MsSimOptions opt = {.per_step = TRUE};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, want[c], "l1 %d: %" G_GUINT64_FORMAT " time units", c, r->time_units);
    cr_expect_eq(r->requests, 16, "hits are requests");
    cr_expect_eq(r->stages, c ? 3 : 6);
    if (c) {
      cr_expect_eq(r->l1_hits, 3);
      cr_expect_eq(r->l1_misses, 3);
      const MsStepResult *s1 = &g_array_index(r->per_step, MsStepResult, 1);
      cr_expect_eq(s1->first_dispatch, 5);
      cr_expect_eq(s1->last_complete, 6, "an L1 hit completes l1_latency after it issues");
    }
    mt_trace_free(t);
  }
}

Test(gpu, shuffle_units_worked_example) {
  const guint64 want[2] = {11, 16};
  for (int c = 0; c < 2; c++) {
    g_autoptr(MsModel) m = ms_model_new(MS_MODEL_UMM, 4, 5, 1, 0, 0);
    m->shuffle_units = c ? 3 : 0;
    MtTrace *t = mt_trace_new(8, 8);
    gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
    for (int i = 0; i < 8; i++) a[i] = i;
    a = mt_mem(t, MS_OP_SHUFFLE, MS_SPACE_GLOBAL);
    for (int i = 0; i < 8; i++) a[i] = 0;
    a = mt_mem(t, MS_OP_SHUFFLE, MS_SPACE_GLOBAL);
    for (int i = 0; i < 4; i++) a[i] = 0;
    a = mt_mem(t, MS_OP_WRITE, MS_SPACE_GLOBAL);
    for (int i = 0; i < 8; i++) a[i] = 8 + i;
    MsSimOptions opt = {.per_step = TRUE};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, want[c], "shuffle_units %d: %" G_GUINT64_FORMAT " time units", c ? 3 : 0, r->time_units);
    cr_expect_eq(r->shuffle_steps, 2);
    cr_expect_eq(r->shuffles, 3);
    cr_expect_eq(r->stages, 4, "a shuffle takes no stage");
    cr_expect_eq(r->memory_steps, 2);
    const MsStepResult *s2 = &g_array_index(r->per_step, MsStepResult, 2);
    cr_expect_eq(s2->requests, 4, "the second shuffle's threads");
    cr_expect_eq(s2->dispatches, 1, "the second shuffle's warps");
    mt_trace_free(t);
  }
}

/* docs/models.md, "Instructions", the issue limit (traces/issue.json on
 * models/extensions/hmm-issue.json): HMM w = 4, d = 1, global_latency 5, instruction_units 1;
 * two warps compute 10 instructions each (0 .. 9), then write a group each at 10 and 11
 * (complete 14, 15): 16 time units without issue_rate.  issue_rate 1: the one phase issued
 * 20 instructions on DMM 0, so it ends no earlier than 0 + 20: 20 time units, bound "issue".
 * issue_rate 2: 10, below the 16 of the warps: 16. */
Test(gpu, issue_rate_worked_example) {
  const guint32 rate[3] = {0, 1, 2};
  const guint64 want[3] = {16, 20, 16}, units[3] = {0, 20, 10};
  for (int c = 0; c < 3; c++) {
    g_autoptr(MsModel) m = ms_model_new(MS_MODEL_HMM, 4, 0, 1, 1, 5);
    m->group_words = 4;
    m->instruction_units = 1;
    m->issue_rate = rate[c];
    MtTrace *t = mt_trace_new(8, 8);
    gint64 *a = mt_mem(t, MS_OP_COMPUTE, MS_SPACE_GLOBAL);
    for (int i = 0; i < 8; i++) a[i] = 10;
    a = mt_mem(t, MS_OP_WRITE, MS_SPACE_GLOBAL);
    for (int i = 0; i < 8; i++) a[i] = i;
    MsSimOptions opt = {.per_step = TRUE};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, want[c], "issue_rate %u: %" G_GUINT64_FORMAT " time units", rate[c], r->time_units);
    cr_expect_eq(r->issue_units, units[c], "issue_rate %u: %" G_GUINT64_FORMAT " issue units", rate[c], r->issue_units);
    cr_expect_str_eq(ms_result_bound(r), c ? "issue" : "latency", "issue_rate %u", rate[c]);
    const MsStepResult *s1 = &g_array_index(r->per_step, MsStepResult, 1);
    cr_expect_eq(s1->first_dispatch, 10, "the first write, as without the key");
    mt_trace_free(t);
  }
}

/* A grid barrier ends a phase: each phase is held to its own issue (issue_rate 1, d = 1):
 * a phase of 10 + 10 instructions and a write (16 units on its own, bound 20), then a phase
 * with the same: 20 + 20 = 40 time units, issue units 40. */
Test(gpu, issue_rate_per_phase) {
  g_autoptr(MsModel) m = ms_model_new(MS_MODEL_HMM, 4, 0, 1, 1, 5);
  m->group_words = 4;
  m->instruction_units = 1;
  m->issue_rate = 1;
  MtTrace *t = mt_trace_new(8, 8);
  for (int ph = 0; ph < 2; ph++) {
    gint64 *a = mt_mem(t, MS_OP_COMPUTE, MS_SPACE_GLOBAL);
    for (int i = 0; i < 8; i++) a[i] = 10;
    a = mt_mem(t, MS_OP_WRITE, MS_SPACE_GLOBAL);
    for (int i = 0; i < 8; i++) a[i] = i;
    if (ph == 0) mt_sync(t, MS_SCOPE_GRID);
  }
  MsSimOptions opt = {0};
  g_autoptr(MsResult) r = mt_run(m, t, &opt);
  cr_expect_eq(r->time_units, 40, "%" G_GUINT64_FORMAT " time units", r->time_units);
  cr_expect_eq(r->issue_units, 40);
  mt_trace_free(t);
}

/* Without instruction_units a compute step changes nothing: the warp neither waits for its
 * reads in flight nor holds (read_window 4: the reads before and after it overlap alike). */
Test(gpu, compute_steps_without_instruction_units_change_nothing) {
  guint64 t[2];
  for (int c = 0; c < 2; c++) {
    g_autoptr(MsModel) m = ms_model_new(MS_MODEL_UMM, 4, 20, 1, 0, 0);
    m->read_window = 4;
    MtTrace *tr = mt_trace_new(8, 8);
    for (int k = 0; k < 3; k++) {
      gint64 *a = mt_mem(tr, MS_OP_READ, MS_SPACE_GLOBAL);
      for (int i = 0; i < 8; i++) a[i] = 16 * k + i;
      if (c && k == 1) {
        a = mt_mem(tr, MS_OP_COMPUTE, MS_SPACE_GLOBAL);
        for (int i = 0; i < 8; i++) a[i] = 7;
      }
    }
    MsSimOptions opt = {0};
    g_autoptr(MsResult) r = mt_run(m, tr, &opt);
    t[c] = r->time_units;
    mt_trace_free(tr);
  }
  cr_expect_eq(t[1], t[0], "with a compute step %" G_GUINT64_FORMAT ", without %" G_GUINT64_FORMAT, t[1], t[0]);
}

/* Whole writes in L2 (docs/models.md): UMM w = 4, l = 5, group_words 4, l2_words 64, l2_latency
 * 3, l2_rate 2; a footprint of 16 words runs in L2.  Two warps read a group each, then write
 * one.  Without l2_write_rate: both reads enter at 0 (two a time unit), complete at 2; both
 * writes enter at 3, complete at 5: 6 time units, the global entry busy 2.  l2_write_rate 1: a
 * write takes a whole time unit, so W0's enters at 3 (complete 5) and W1's at 4 (complete 6):
 * 7 time units, busy 3. */
Test(gpu, l2_write_rate_worked_example) {
  const guint64 want[2] = {6, 7}, busy[2] = {2, 3};
  for (int c = 0; c < 2; c++) {
    g_autoptr(MsModel) m = ms_model_new(MS_MODEL_UMM, 4, 5, 1, 0, 0);
    m->l2_words = 64;
    m->l2_latency = 3;
    m->l2_rate = 2;
    m->l2_write_rate = c ? 1 : 0;
    MtTrace *t = mt_trace_new(8, 8);
    t->global_words = 16;
    gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
    for (int i = 0; i < 8; i++) a[i] = i;
    a = mt_mem(t, MS_OP_WRITE, MS_SPACE_GLOBAL);
    for (int i = 0; i < 8; i++) a[i] = 8 + i;
    MsSimOptions opt = {.per_step = TRUE};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, want[c], "l2_write_rate %d: %" G_GUINT64_FORMAT " time units", c, r->time_units);
    cr_expect_eq(r->global_busy, busy[c], "global busy %" G_GUINT64_FORMAT, r->global_busy);
    cr_expect_eq(r->stages, 4, "the write rate changes no stage count");
    const MsStepResult *s1 = &g_array_index(r->per_step, MsStepResult, 1);
    cr_expect_eq(s1->first_dispatch, 3, "the first write");
    cr_expect_eq(s1->last_complete, c ? 6 : 5);
    mt_trace_free(t);
  }
}

/* The same with writes to part of a group (traces/l2-write-rate-partial.json: each warp writes
 * 3 of its group's 4 words) and l2_partial_write_stages 1: a group written in part keeps its
 * 1 + 1 stages at the read rate, with the key as without it.  W0's write takes slots 6, 7 of
 * 1 / 2 time unit (enters at 3, complete 5), W1's 8, 9 (enters at 4, complete 6): 7 time
 * units, busy 3, both ways (charged at the write rate, 9). */
Test(gpu, l2_write_rate_leaves_partial_writes) {
  for (int c = 0; c < 2; c++) {
    g_autoptr(MsModel) m = ms_model_new(MS_MODEL_UMM, 4, 5, 1, 0, 0);
    m->l2_words = 64;
    m->l2_latency = 3;
    m->l2_rate = 2;
    m->l2_partial_write_stages = 1;
    m->l2_write_rate = c ? 1 : 0;
    MtTrace *t = mt_trace_new(8, 8);
    t->global_words = 16;
    gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
    for (int i = 0; i < 8; i++) a[i] = i;
    a = mt_mem(t, MS_OP_WRITE, MS_SPACE_GLOBAL);
    for (int i = 0; i < 8; i++) a[i] = i % 4 == 3 ? MS_ADDR_NONE : 8 + i;
    MsSimOptions opt = {.per_step = TRUE};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, 7, "l2_write_rate %d: %" G_GUINT64_FORMAT " time units", c, r->time_units);
    cr_expect_eq(r->global_busy, 3, "global busy %" G_GUINT64_FORMAT, r->global_busy);
    cr_expect_eq(r->stages, 6, "two read stages, two writes of 1 + 1");
    mt_trace_free(t);
  }
}

/* docs/models.md, "Instructions" (traces/compute.json): UMM w = 4, l = 5; two warps read a
 * coalesced group each (complete at 4 and 5), compute 3 and 2 instructions (warp 1's lanes
 * 1 and 2: its largest), write a group each.  instruction_units 2: W0 computes over 5 .. 10,
 * W1 over 6 .. 9; W1 writes at 10 (complete 14), W0 at 11 (complete 15): 16 time units, 11
 * without (the writes at 5 and 6, as with no compute step). */
Test(gpu, instruction_units_worked_example) {
  const guint64 want[2] = {11, 16};
  for (int c = 0; c < 2; c++) {
    g_autoptr(MsModel) m = ms_model_new(MS_MODEL_UMM, 4, 5, 1, 0, 0);
    m->instruction_units = c ? 2 : 0;
    MtTrace *t = mt_trace_new(8, 8);
    gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
    for (int i = 0; i < 8; i++) a[i] = i;
    a = mt_mem(t, MS_OP_COMPUTE, MS_SPACE_GLOBAL);
    const gint64 n[8] = {3, 3, 3, 3, 1, 2, MS_ADDR_NONE, MS_ADDR_NONE};
    for (int i = 0; i < 8; i++) a[i] = n[i];
    a = mt_mem(t, MS_OP_WRITE, MS_SPACE_GLOBAL);
    for (int i = 0; i < 8; i++) a[i] = 8 + i;
    MsSimOptions opt = {.per_step = TRUE};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, want[c], "instruction_units %d: %" G_GUINT64_FORMAT " time units", c ? 2 : 0, r->time_units);
    cr_expect_eq(r->compute_steps, 1);
    cr_expect_eq(r->instructions, 5, "each warp's largest count, summed: 3 + 2");
    cr_expect_eq(r->stages, 4, "a compute step takes no stage");
    cr_expect_eq(r->memory_steps, 2);
    const MsStepResult *s2 = &g_array_index(r->per_step, MsStepResult, 2);
    cr_expect_eq(s2->first_dispatch, c ? 10 : 5, "the first write");
    cr_expect_eq(s2->last_complete, c ? 15 : 10);
    mt_trace_free(t);
  }
}

/* docs/models.md, "Block starts": HMM d = 1, w = 4, global latency 5, resident_blocks 2;
 * three blocks of one warp read one group each.  Block 2 waits for block 0 to retire (at
 * 5); with block_start_units 3, block 1 starts at 3 and block 2 at max(5, 3 + 3) = 6:
 * 11 time units, 10 without (models/extensions/hmm-block-starts.json,
 * traces/block-starts.json). */
Test(gpu, block_starts_worked_example) {
  for (guint64 u = 0; u <= 3; u += 3) {
    g_autoptr(MsModel) m = mt_hmm(MS_MODEL_HMM, 4, 1, 1, 5);
    m->resident_blocks = 2;
    m->block_start_units = u;
    MtTrace *t = mt_trace_new(12, 4);
    gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
    for (int i = 0; i < 12; i++) a[i] = i;
    MsSimOptions opt = {0};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, u ? 11u : 10u, "block_start_units %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT " time units",
                 u, r->time_units);
    mt_trace_free(t);
  }
}

/* One warp of 32 (UMM, l = 5, groups of 8 words) through each of umm_stages' and
 * umm_write_stages' paths (docs/performance.md, "Counting and dispatch"), against counts by
 * hand.  Writes are under partial_write_stages 1: a group written in part costs 2. */
static gint64 cp_addr(int c, int i) {
  switch (c) {
  case 0: return 5 + i;                          /* consecutive from 5: groups 0 .. 4 */
  case 1: return ((i * 7) % 16) * 8;             /* scattered, lanes i and i + 16 share: 16 */
  case 2: return (i / 4) * 8 + i % 4;            /* ascending runs of 4: 8 groups */
  case 3: return i % 2 ? N_ : 1000 - 8 * i;      /* odd lanes inactive, descending: 16 */
  case 4: return i == 5 ? N_ : (i % 2) * 64;     /* two groups, alternating: 2 */
  case 5: return 4 + i;                          /* write 4 .. 35: 5 groups, first and last in part */
  case 6: return 8 + i;                          /* write 8 .. 39: 4 whole groups */
  case 7: return 31 - i;                         /* write 31 .. 0 backwards: 4 whole groups */
  case 8: return 2 * i;                          /* write every other word: 8 groups in half */
  case 9: return i % 8;                          /* write words 0 .. 7 four times: 1 whole group */
  case 10: return i % 3 ? 64 + i : N_;          /* write, lanes missing: 64 .. 95 in part */
  case 11: return 64 * i;                        /* write at stride 64: 32 groups, one word each */
  case 12: return 64 * (31 - i);                 /* the same, descending */
  default: { /* write groups 1, 0, then 1 again: 2 groups in part */
    static const gint64 v[] = {8, 0, 9};
    return i < 3 ? v[i] : N_;
  }
  }
}

Test(stages, counting_paths_should_match_hand_counts) {
  static const guint64 want[] = {5, 16, 8, 16, 2, 7, 4, 4, 16, 1, 8, 64, 64, 4};
  for (int c = 0; c < (int)G_N_ELEMENTS(want); c++) {
    g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 32, 5);
    m->group_words = 8;
    m->partial_write_stages = 1;
    MtTrace *t = mt_trace_new(32, 0);
    gint64 *a = mt_mem(t, c >= 5 ? MS_OP_WRITE : MS_OP_READ, MS_SPACE_GLOBAL);
    for (int i = 0; i < 32; i++) a[i] = cp_addr(c, i);
    g_autoptr(MsResult) r = mt_run(m, t, NULL);
    cr_expect_eq(r->stages, want[c], "case %d: %" G_GUINT64_FORMAT " stages, want %" G_GUINT64_FORMAT, c,
                 r->stages, want[c]);
    cr_expect_eq(r->time_units, want[c] + 4, "case %d", c);
    mt_trace_free(t);
  }
}

/* docs/models.md, "Flags": traces/flags.json on the textbook UMM (w = 4, l = 5).  W0 writes at
 * 0 (complete 4) and sets flag 0 at 5; W1 waits for it, writes at 5 (complete 9), sets flag 1
 * at 10; W2 writes at 10 (complete 14): 15 time units, against 7 without the waits. */
/* docs/models.md, "Asynchronous copies": one warp copies a ahead, passes a block barrier,
 * reads b, awaits a and writes c; on the textbook UMM 11 time units (a 0..4, b 1..5, the
 * write at 6 .. 10), 15 with a plain read (a 0..4, b 5..9, the write 10..14); the same with
 * read_window 2 and posted writes (the barrier waits for the plain read a). */
Test(async, worked_example) {
  for (int ext = 0; ext < 2; ext++) {
    g_autoptr(MsModel) m = ms_model_new(MS_MODEL_UMM, 4, 5, 1, 0, 0);
    if (ext) {
      m->read_window = 2;
      m->posted_writes = TRUE;
    }
    for (int async = 0; async < 2; async++) {
      MtTrace *t = mt_trace_new(4, 4);
      gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
      for (int i = 0; i < 4; i++) a[i] = i;
      g_array_index(t->steps, MsStep, 0).async = async;
      mt_sync(t, MS_SCOPE_BLOCK);
      a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
      for (int i = 0; i < 4; i++) a[i] = 4 + i;
      if (async) {
        a = mt_mem(t, MS_OP_AWAIT, MS_SPACE_GLOBAL);
        for (int i = 0; i < 4; i++) a[i] = 0;
      }
      a = mt_mem(t, MS_OP_WRITE, MS_SPACE_GLOBAL);
      for (int i = 0; i < 4; i++) a[i] = 8 + i;
      MsSimOptions opt = {.per_step = TRUE};
      g_autoptr(MsResult) r = mt_run(m, t, &opt);
      cr_expect_eq(r->time_units, async ? 11 : 15, "ext %d async %d: %" G_GUINT64_FORMAT " time units", ext, async,
                   r->time_units);
      cr_expect_eq(r->stages, 3, "an await takes no stage");
      cr_expect_eq(r->async_reads, (guint64)async);
      cr_expect_eq(r->awaits, (guint64)async);
      if (async) {
        const MsStepResult *w = &g_array_index(r->per_step, MsStepResult, 4);
        cr_expect_eq(w->first_dispatch, 6, "the write after the await: %" G_GINT64_FORMAT, w->first_dispatch);
      }
      mt_trace_free(t);
    }
  }
  /* the shipped file */
  g_autoptr(MsModel) m = ms_model_new(MS_MODEL_UMM, 4, 5, 1, 0, 0);
  g_autofree char *path = g_build_filename(g_getenv("MEMSIM_SRCDIR") ? g_getenv("MEMSIM_SRCDIR") : ".", "traces",
                                           "async-copy.json", NULL);
  GError *err = NULL;
  MsSource *src = ms_trace_open(path, &err);
  cr_assert_not_null(src, "%s", err ? err->message : "?");
  g_autoptr(MsResult) r = mt_run_source(m, src, NULL);
  cr_expect_eq(r->time_units, 11);
  ms_source_free(src);
}

Test(flags, worked_example) {
  g_autoptr(MsModel) m = ms_model_new(MS_MODEL_UMM, 4, 5, 1, 0, 0);
  for (int waits = 0; waits < 2; waits++) {
    MtTrace *t = mt_trace_new(12, 4);
    gint64 *a;
    if (waits) {
      a = mt_mem(t, MS_OP_WAIT, MS_SPACE_GLOBAL);
      a[4] = 0;
      a[8] = 1;
    }
    a = mt_mem(t, MS_OP_WRITE, MS_SPACE_GLOBAL);
    for (int i = 0; i < 12; i++) a[i] = i;
    a = mt_mem(t, MS_OP_SIGNAL, MS_SPACE_GLOBAL);
    for (int j = 0; j < 3; j++) a[4 * j] = j;
    MsSimOptions opt = {.per_step = TRUE};
    g_autoptr(MsResult) r = mt_run(m, t, &opt);
    cr_expect_eq(r->time_units, waits ? 15 : 7, "waits %d: %" G_GUINT64_FORMAT " time units", waits, r->time_units);
    cr_expect_eq(r->signals, 3);
    cr_expect_eq(r->waits, waits ? 2 : 0);
    cr_expect_eq(r->stages, 3, "a flag step takes no stage");
    cr_expect_eq(r->memory_steps, 1);
    cr_expect_eq(r->round_sum, 7, "flags add nothing to the per-round bound");
    mt_trace_free(t);
  }
  /* the same from the shipped file */
  g_autofree char *path = g_build_filename(g_getenv("MEMSIM_SRCDIR") ? g_getenv("MEMSIM_SRCDIR") : ".", "traces",
                                           "flags.json", NULL);
  GError *err = NULL;
  MsSource *src = ms_trace_open(path, &err);
  cr_assert_not_null(src, "%s", err ? err->message : "?");
  g_autoptr(MsResult) r = mt_run_source(m, src, NULL);
  cr_expect_eq(r->time_units, 15);
  ms_source_free(src);
}

/* Repeated kernel counts trust a source's kernel keys: a source that gives two kernels with
 * different steps the same key is caught when the second loads as ghosts of the first (its
 * steps are compared with the kept kernel's), with an error naming the source, not a wrong
 * result.  Kernels: [read a, sync] three times, then [read a, read b, sync], every one keyed 7. */
typedef struct {
  MsSource *in;
} Liar;

static MsNext liar_next(gpointer self, MsStep *step, GError **error) {
  return ms_source_next(((Liar *)self)->in, step, error);
}
static gboolean liar_fill(gpointer self, guint64 first, guint64 count, gint64 *addr, GError **error) {
  return ms_source_fill(((Liar *)self)->in, first, count, addr, error);
}
static void liar_free(gpointer self) {
  ms_source_free(((Liar *)self)->in);
  g_free(self);
}
static gboolean liar_key(gpointer self, guint64 *key) {
  (void)self;
  *key = 7;
  return TRUE;
}

Test(errors, kernel_keys_that_lie_are_caught) {
  MtTrace *t = mt_trace_new(64, 64);
  for (int k = 0; k < 4; k++) {
    gint64 *a = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
    for (guint64 i = 0; i < 64; i++) a[i] = (gint64)i;
    if (k == 3) {
      gint64 *b = mt_mem(t, MS_OP_READ, MS_SPACE_GLOBAL);
      for (guint64 i = 0; i < 64; i++) b[i] = 64 + (gint64)i;
    }
    mt_sync(t, MS_SCOPE_GRID);
  }
  MsModel *m = mt_model(MS_MODEL_UMM, 32, 4);
  static const MsSourceFuncs f = {liar_next, liar_fill, liar_free, .kernel_key = liar_key};
  for (int every = 0; every < 2; every++) {
    Liar *l = g_new0(Liar, 1);
    l->in = mt_source(t, "test");
    MsSource *s = ms_source_new("liar", 64, 64, &f, l);
    MsSimOptions o = {.count_every_kernel = every};
    GError *err = NULL;
    MsResult *r = ms_simulate(m, s, &o, &err);
    if (every) { /* counted, the key is never used */
      cr_assert_not_null(r, "%s", err ? err->message : "");
      cr_expect_eq(r->kernels_not_counted, 0);
      ms_result_free(r);
    } else {
      cr_assert_null(r);
      cr_assert_not_null(err);
      cr_expect_str_eq(err->message, "liar: two kernels the source gives the same key (7) have different steps");
      g_error_free(err);
    }
    ms_source_free(s);
  }
  ms_model_free(m);
  mt_trace_free(t);
}
