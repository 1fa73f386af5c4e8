/* test-bpbc.c: the bitwise parallel bulk computation workloads (seed 000 chapters 5-6). */
#include <criterion/criterion.h>
#include <stdio.h>
#include "ms-workloads.h"

static MsSource *source(const char *alg, const char *k1, const char *v1, const char *k2, const char *v2,
                        const char *k3, const char *v3, GError **err) {
  GHashTable *h = g_hash_table_new(g_str_hash, g_str_equal);
  if (k1) g_hash_table_insert(h, (char *)k1, (char *)v1);
  if (k2) g_hash_table_insert(h, (char *)k2, (char *)v2);
  if (k3) g_hash_table_insert(h, (char *)k3, (char *)v3);
  MsSource *s = ms_bpbc_source(alg, h, err);
  g_hash_table_unref(h);
  return s;
}

static MsResult *simulate(MsSource *s, guint64 latency) {
  cr_assert_not_null(s);
  MsModel *m = ms_model_new(MS_MODEL_UMM, 32, latency, 1, 1, latency);
  GError *err = NULL;
  MsResult *r = ms_simulate(m, s, NULL, &err);
  cr_assert_not_null(r, "%s", err ? err->message : "");
  ms_model_free(m);
  ms_source_free(s);
  return r;
}

/* Table 5.1's workload: the k-bit ripple-carry adder reads 2k and writes k (+1 carry) words
 * per 32 instances: O(k) per instance, every access coalesced. */
Test(bpbc, pairwise_sum_words_per_instance_grow_linearly_in_k) {
  const guint64 M = 1 << 20, G = M / 32; /* Table 5.1: 1048576 pairs */
  static const guint64 ks[] = {1, 2, 3, 5, 8, 13, 16, 21, 29, 31, 32};
  for (gsize ki = 0; ki < G_N_ELEMENTS(ks); ki++) {
    const guint64 k = ks[ki];
    char kb[8];
    g_snprintf(kb, sizeof kb, "%" G_GUINT64_FORMAT, k);
    MsResult *r = simulate(source("pairwise-sum", "bits", kb, "instances", "1048576", NULL, NULL, NULL), 400);
    guint64 per_thread = 3 * k + (k < 32);
    cr_expect_eq(r->requests, per_thread * G, "k=%" G_GUINT64_FORMAT, k);
    cr_expect_eq(r->memory_steps, per_thread);
    cr_expect_eq(r->extra_stages, 0);
    cr_expect_eq(r->stages, per_thread * G / 32);
    /* G/w = 1024 warps >= l: pipelined, r rounds of G/w stages plus one latency (MODELS.md) */
    cr_expect_eq(r->time_units, per_thread * G / 32 + 400 - 1);
    ms_result_free(r);
  }
  MsResult *n = simulate(source("pairwise-sum-naive", "instances", "1048576", NULL, NULL, NULL, NULL, NULL), 400);
  cr_expect_eq(n->requests, 3 * M);
  cr_expect_eq(n->extra_stages, 0);
  ms_result_free(n);
}

Test(bpbc, k_is_an_alias_of_bits) {
  MsResult *a = simulate(source("pairwise-sum", "k", "7", "instances", "4096", NULL, NULL, NULL), 10);
  cr_expect_eq(a->memory_steps, 22);
  ms_result_free(a);
}

/* Every life algorithm runs itself on random universes and compares with the naive
 * simulator; a source exists only if they agree. */
Test(bpbc, life_agrees_with_the_naive_simulator) {
  static const char *const algs[] = {"life-word", "life-single", "life-double"};
  static const char *const sizes[] = {"64", "128"};
  static const char *const bounds[] = {"wrap", "dead"};
  int runs = 0;
  for (gsize a = 0; a < G_N_ELEMENTS(algs); a++)
    for (gsize n = 0; n < G_N_ELEMENTS(sizes); n++)
      for (gsize b = 0; b < G_N_ELEMENTS(bounds); b++)
        for (int steps = 1; steps <= 6; steps += 5)
          for (int seed = 1; seed <= 2; seed++) {
            char st[8], sd[8];
            g_snprintf(st, sizeof st, "%d", steps);
            g_snprintf(sd, sizeof sd, "%d", seed);
            GHashTable *h = g_hash_table_new(g_str_hash, g_str_equal);
            g_hash_table_insert(h, "size", (char *)sizes[n]);
            g_hash_table_insert(h, "steps", st);
            g_hash_table_insert(h, "seed", sd);
            g_hash_table_insert(h, "boundary", (char *)bounds[b]);
            GError *err = NULL;
            MsSource *s = ms_bpbc_source(algs[a], h, &err);
            cr_expect_not_null(s, "%s: %s", algs[a], err ? err->message : "");
            g_clear_error(&err);
            ms_source_free(s);
            g_hash_table_unref(h);
            runs++;
          }
  cr_expect_eq(runs, 48);
}

/* Requests per step of the universe: word 9 + 1 per cell, single 9 + 1 per 32 cells,
 * double 12 + 2 per 128 cells; T steps = T kernels (T - 1 grid barriers). */
Test(bpbc, life_request_counts) {
  static const struct { const char *alg; guint64 per_step; } rows[] = {
      {"life-word", 10 * 256 * 256}, {"life-single", 10 * 256 * 256 / 32}, {"life-double", 14 * 256 * 256 / 128}};
  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++) {
    MsResult *r = simulate(source(rows[i].alg, "size", "256", "steps", "3", NULL, NULL, NULL), 100);
    cr_expect_eq(r->requests, 3 * rows[i].per_step, "%s", rows[i].alg);
    cr_expect_eq(r->grid_barriers, 2);
    ms_result_free(r);
  }
}

/* Bit-per-cell needs far fewer stages than byte-per-cell for the same universe. */
Test(bpbc, bit_per_cell_beats_word_per_cell) {
  MsResult *w = simulate(source("life-word", "size", "1024", NULL, NULL, NULL, NULL, NULL), 400);
  MsResult *s = simulate(source("life-single", "size", "1024", NULL, NULL, NULL, NULL, NULL), 400);
  MsResult *d = simulate(source("life-double", "size", "1024", NULL, NULL, NULL, NULL, NULL), 400);
  cr_expect_lt(s->time_units * 8, w->time_units);
  cr_expect_lt(d->stages, s->stages);
  ms_result_free(w);
  ms_result_free(s);
  ms_result_free(d);
}

Test(bpbc, bad_parameters_are_refused) {
  GError *err = NULL;
  cr_expect_null(source("life-quad", NULL, NULL, NULL, NULL, NULL, NULL, &err));
  g_clear_error(&err);
  cr_expect_null(source("life-single", "size", "100", NULL, NULL, NULL, NULL, &err));
  g_clear_error(&err);
  cr_expect_null(source("pairwise-sum", "bits", "33", NULL, NULL, NULL, NULL, &err));
  g_clear_error(&err);
  cr_expect_null(source("pairwise-sum", "colour", "red", NULL, NULL, NULL, NULL, &err));
  cr_expect(err && err->code == MS_ERROR_INVALID);
  g_clear_error(&err);
}

/* ---- life-multistep (section 6.4, Figure 6.8) on the HMM ---------------------------------- */
static MsSource *multistep(const char *size, const char *steps, const char *spk, const char *boundary,
                           const char *arr, const char *seed, GError **err) {
  GHashTable *h = g_hash_table_new(g_str_hash, g_str_equal);
  g_hash_table_insert(h, "size", (char *)size);
  g_hash_table_insert(h, "steps", (char *)steps);
  if (spk) g_hash_table_insert(h, "steps-per-kernel", (char *)spk);
  if (boundary) g_hash_table_insert(h, "boundary", (char *)boundary);
  if (arr) g_hash_table_insert(h, "arrangement", (char *)arr);
  if (seed) g_hash_table_insert(h, "seed", (char *)seed);
  MsSource *s = ms_bpbc_source("life-multistep", h, err);
  g_hash_table_unref(h);
  return s;
}

static MsResult *simulate_hmm(MsSource *s) {
  cr_assert_not_null(s);
  MsModel *m = ms_model_new(MS_MODEL_HMM, 32, 1, 8, 1, 400);
  GError *err = NULL;
  MsResult *r = ms_simulate(m, s, NULL, &err);
  cr_assert_not_null(r, "%s", err ? err->message : "");
  ms_model_free(m);
  ms_source_free(s);
  return r;
}

/* The algorithm (block extraction by shifts, t DOUBLE-WORD steps per block, clean-slice
 * write-back) runs on random universes and must equal the naive simulator after T steps. */
Test(bpbc, life_multistep_agrees_with_the_naive_simulator) {
  static const char *const sizes[] = {"64", "192"};
  static const char *const steps[] = {"1", "7", "16"};
  static const char *const spks[] = {"1", "3", "8", "31"};
  static const char *const bounds[] = {"wrap", "dead"};
  int runs = 0;
  for (gsize n = 0; n < G_N_ELEMENTS(sizes); n++)
    for (gsize t = 0; t < G_N_ELEMENTS(steps); t++)
      for (gsize k = 0; k < G_N_ELEMENTS(spks); k++)
        for (gsize b = 0; b < G_N_ELEMENTS(bounds); b++) {
          GError *err = NULL;
          MsSource *s = multistep(sizes[n], steps[t], spks[k], bounds[b], NULL, steps[t], &err);
          cr_expect_not_null(s, "%s %s %s %s: %s", sizes[n], steps[t], spks[k], bounds[b], err ? err->message : "");
          g_clear_error(&err);
          ms_source_free(s);
          runs++;
        }
  cr_expect_eq(runs, 48);
}

/* Words a range of cells [lo, hi) touches. */
static guint64 words_of(gint64 lo, gint64 hi) { return (guint64)((hi - 1) / 64 - lo / 64 + 1); }

/* Exact traffic: global reads of every block (64 rows x 1 or 2 words, clipped at the universe
 * with boundary=dead), global writes of every clean slice row (1 or 2 words), shared stores
 * 64, per step 4*32 - 2 reads (no dummy rows) + 64 writes; tk + 1 block barriers per kernel
 * and kernels - 1 grid barriers.  Counted here from the geometry, independently of the source. */
Test(bpbc, life_multistep_exact_traffic) {
  static const struct { guint64 N, T, t; gboolean dead; } rows[] = {
      {256, 8, 8, FALSE}, {256, 13, 8, TRUE}, {320, 5, 2, FALSE}, {192, 31, 31, TRUE}, {128, 3, 1, TRUE}};
  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++) {
    const gint64 N = (gint64)rows[i].N, t = (gint64)rows[i].t, m = 64 - 2 * t, ns = (N + m - 1) / m;
    const guint64 kernels = (rows[i].T + rows[i].t - 1) / rows[i].t;
    guint64 reads = 0, writes = 0, shared = 0, bsync = 0;
    for (gint64 sy = 0; sy < ns; sy++)
      for (gint64 sx = 0; sx < ns; sx++) {
        gint64 c0 = sx * m - t, lo = c0, hi = c0 + 64;
        if (rows[i].dead) lo = MAX(lo, 0), hi = MIN(hi, N);
        for (gint64 r = sy * m - t; r < sy * m - t + 64; r++)
          if (!rows[i].dead || (r >= 0 && r < N)) reads += words_of(lo + 64 * 1024, hi + 64 * 1024);
        for (gint64 r = sy * m; r < MIN(sy * m + m, N); r++) writes += words_of(sx * m, MIN(sx * m + m, N));
      }
    for (guint64 k = 0; k < kernels; k++) {
      guint64 tk = MIN(rows[i].t, rows[i].T - k * rows[i].t);
      shared += (guint64)(ns * ns) * (64 + tk * (126 + 64));
      bsync += tk + 1;
    }
    char n[16], T[16], tt[16];
    g_snprintf(n, sizeof n, "%" G_GUINT64_FORMAT, rows[i].N);
    g_snprintf(T, sizeof T, "%" G_GUINT64_FORMAT, rows[i].T);
    g_snprintf(tt, sizeof tt, "%" G_GUINT64_FORMAT, rows[i].t);
    MsResult *r = simulate_hmm(multistep(n, T, tt, rows[i].dead ? "dead" : "wrap", NULL, NULL, NULL));
    cr_expect_eq(r->global.requests, kernels * (reads + writes), "row %zu: %" G_GUINT64_FORMAT, i,
                 r->global.requests);
    cr_expect_eq(r->shared.requests, shared, "row %zu", i);
    cr_expect_eq(r->grid_barriers, kernels - 1);
    cr_expect_eq(r->block_barriers, bsync);
    cr_expect_eq(r->blocks, (guint64)(ns * ns));
    ms_result_free(r);
  }
}

/* Figure 6.8: with the shift arrangement every shared step puts exactly 2 of the warp's 64-bit
 * requests on each of the 16 two-bank pairs (2 stages per dispatch, the minimum: no bank
 * conflict); the regular arrangement of Figure 6.7 puts 4 on each of 8 pairs. */
Test(bpbc, life_multistep_shift_arrangement_is_conflict_free) {
  MsResult *s = simulate_hmm(multistep("256", "10", "4", NULL, "shift", NULL, NULL));
  MsResult *g = simulate_hmm(multistep("256", "10", "4", NULL, "regular", NULL, NULL));
  cr_expect_gt(s->shared.dispatches, 0);
  cr_expect_eq(s->shared.stages, 2 * s->shared.dispatches);
  cr_expect_eq(g->shared.stages, 4 * g->shared.dispatches);
  cr_expect_eq(s->global.stages, g->global.stages);
  ms_result_free(s);
  ms_result_free(g);
}

/* The GPU records carry params {size, steps} only (steps_per_launch = 8 is an extra): the
 * default t is 8; steps_per_launch is accepted as an alias; bad t is refused. */
Test(bpbc, life_multistep_parameters) {
  MsResult *r = simulate_hmm(multistep("128", "32", NULL, NULL, NULL, NULL, NULL));
  cr_expect_eq(r->grid_barriers, 3);
  ms_result_free(r);
  GHashTable *h = g_hash_table_new(g_str_hash, g_str_equal);
  g_hash_table_insert(h, "size", "128");
  g_hash_table_insert(h, "steps", "12");
  g_hash_table_insert(h, "steps_per_launch", "4");
  r = simulate_hmm(ms_bpbc_source("life-multistep", h, NULL));
  cr_expect_eq(r->grid_barriers, 2);
  ms_result_free(r);
  g_hash_table_unref(h);
  GError *err = NULL;
  cr_expect_null(multistep("128", "4", "32", NULL, NULL, NULL, &err));
  g_clear_error(&err);
  cr_expect_null(multistep("128", "4", "4", NULL, "diagonal", NULL, &err));
  cr_expect(err && err->code == MS_ERROR_INVALID);
  g_clear_error(&err);
}

/* pairwise-sum with unroll U: the same requests in the compiled kernel's order (U planes'
 * reads, then their writes).  Under the papers' rules (one request at a time per warp) the
 * time is that of U = 1 when the pipeline is full; with reads in flight (read_window) and
 * posted writes a warp overlaps the reads of a group, so the latency-bound case is faster. */
Test(bpbc, pairwise_unroll_keeps_requests_and_overlaps_reads) {
  static const char *const us[] = {"1", "2", "4", "8"};
  guint64 t_window[4] = {0};
  for (int i = 0; i < 4; i++) {
    MsResult *r = simulate(source("pairwise-sum", "bits", "16", "instances", "1048576", "unroll", us[i], NULL), 400);
    cr_expect_eq(r->requests, (3 * 16 + 1) * 32768, "U=%s", us[i]);
    cr_expect_eq(r->memory_steps, 3 * 16 + 1);
    cr_expect_eq(r->time_units, (3 * 16 + 1) * 32768 / 32 + 400 - 1, "U=%s: a full pipeline is order-blind", us[i]);
    ms_result_free(r);
    /* one warp, latency-bound: reads of a group in flight together */
    MsSource *s = source("pairwise-sum", "bits", "16", "instances", "1024", "unroll", us[i], NULL);
    MsModel *m = ms_model_new(MS_MODEL_UMM, 32, 100, 1, 1, 100);
    m->read_window = 8;
    m->posted_writes = TRUE;
    GError *err = NULL;
    MsResult *w = ms_simulate(m, s, NULL, &err);
    cr_assert_not_null(w, "%s", err ? err->message : "");
    t_window[i] = w->time_units;
    ms_result_free(w);
    ms_model_free(m);
    ms_source_free(s);
  }
  /* 8 reads in flight: U = 2 and 4 overlap more reads than U = 1 and 2; U = 8 (16 reads per
   * group) fills the window twice per group, as U = 4 fills it once per group */
  cr_expect_lt(t_window[1], t_window[0]);
  cr_expect_lt(t_window[2], t_window[1]);
  cr_expect_leq(t_window[3], t_window[2] + 100, "%lu %lu %lu %lu", (unsigned long)t_window[0], (unsigned long)t_window[1], (unsigned long)t_window[2], (unsigned long)t_window[3]);
  GError *err = NULL;
  cr_expect_null(source("life-single", "unroll", "2", NULL, NULL, NULL, NULL, &err));
  cr_expect_str_eq(err ? err->message : "", "bpbc: --unroll applies to pairwise-sum only");
  g_clear_error(&err);
  cr_expect_null(source("pairwise-sum", "unroll", "9", NULL, NULL, NULL, NULL, &err));
  cr_expect_str_eq(err ? err->message : "", "--unroll: 9 is out of range [1, 8]");
  g_clear_error(&err);
}

/* Repeated kernel counts (docs/performance.md): Life's kernels k and k + 2 have the same
 * addresses (the source keys them by parity), so a kernel that starts from an L2 state an
 * earlier one of its parity started from is not counted.  Every figure must be the one of
 * counting every kernel: on the grounded H100 model (no residency limits: the source is one
 * block) with its L2 cut to 1/256 (the universes
 * far beyond it, through the cache) and whole (no cache pass), on one thread and loading ahead
 * on another, and kernels must go uncounted for the test to mean something. */
Test(bpbc, life_kernels_not_counted_give_the_same_result) {
  static const char *const algs[] = {"life-word", "life-single", "life-double"};
  g_autofree char *path = g_build_filename(g_getenv("MEMSIM_SRCDIR") ? g_getenv("MEMSIM_SRCDIR") : ".", "models",
                                           "h100.json", NULL);
  GError *err = NULL;
  guint uncounted = 0, cached = 0;
  for (int small = 0; small < 2; small++) {
    MsModel *m = ms_model_load(path, &err);
    cr_assert_not_null(m, "%s", err ? err->message : "");
    if (small) m->l2_words /= 256;
    m->resident_warps = m->resident_blocks = 0; /* (the source's one block of every thread) */
    for (gsize a = 0; a < G_N_ELEMENTS(algs); a++)
      for (int b = 0; b < 2; b++)
        for (int ahead = 0; ahead < 2; ahead++) {
          MsResult *res[2];
          for (int every = 0; every < 2; every++) {
            GHashTable *h = g_hash_table_new(g_str_hash, g_str_equal);
            g_hash_table_insert(h, "size", a == 0 ? "256" : "1024");
            g_hash_table_insert(h, "steps", "7");
            g_hash_table_insert(h, "boundary", b ? "dead" : "wrap");
            MsSource *s = ms_bpbc_source(algs[a], h, &err);
            g_hash_table_unref(h);
            cr_assert_not_null(s, "%s", err ? err->message : "");
            MsSimOptions o = {.per_step = TRUE, .count_every_kernel = every, .threads = ahead ? 2 : 1,
                              .load_ahead_min_threads = ahead, .par_min_warps = ahead};
            res[every] = ms_simulate(m, s, &o, &err);
            cr_assert_not_null(res[every], "%s", err ? err->message : "");
            ms_source_free(s);
          }
          const MsResult *x = res[0], *y = res[1];
          const char *d = algs[a];
          cr_expect_eq(y->kernels_not_counted, 0, "%s", d);
          cr_expect_eq(x->time_units, y->time_units, "%s small=%d boundary=%d ahead=%d", d, small, b, ahead);
          cr_expect_eq(x->requests, y->requests, "%s", d);
          cr_expect_eq(x->stages, y->stages, "%s", d);
          cr_expect_eq(x->dispatches, y->dispatches, "%s", d);
          cr_expect_eq(x->round_sum, y->round_sum, "%s", d);
          cr_expect_eq(x->global_busy, y->global_busy, "%s", d);
          cr_expect_eq(x->l2_hits, y->l2_hits, "%s", d);
          cr_expect_eq(x->l2_misses, y->l2_misses, "%s", d);
          cr_expect_eq(x->dram_stages, y->dram_stages, "%s", d);
          cr_expect_eq(x->dram_lone_stages, y->dram_lone_stages, "%s", d);
          cr_expect_eq(x->repeated_kernels, y->repeated_kernels, "%s", d);
          cr_assert_eq(x->per_step->len, y->per_step->len, "%s", d);
          cr_expect(memcmp(x->per_step->data, y->per_step->data, x->per_step->len * sizeof(MsStepResult)) == 0, "%s", d);
          uncounted += x->kernels_not_counted > 0;
          cached += x->kernels_not_counted > 0 && x->l2_cached;
          ms_result_free(res[0]);
          ms_result_free(res[1]);
        }
    ms_model_free(m);
  }
  cr_expect_gt(uncounted, 12, "kernels not counted in %u runs", uncounted);
  cr_expect_gt(cached, 6, "kernels not counted through the L2 cache in %u runs", cached);
  cr_log_info("kernels not counted in %u of 24 runs, %u through the L2 cache", uncounted, cached);
}
