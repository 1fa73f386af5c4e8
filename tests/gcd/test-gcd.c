/* test-gcd.c: the bulk GCD workload (seed 000 chapter 4). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include "gcd/ms-gcd.h"

static GHashTable *params(guint64 bits, guint64 P, guint64 seed, const char *arr, gboolean obl) {
  GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
  g_hash_table_insert(h, "bits", g_strdup_printf("%" G_GUINT64_FORMAT, bits));
  g_hash_table_insert(h, "instances", g_strdup_printf("%" G_GUINT64_FORMAT, P));
  g_hash_table_insert(h, "seed", g_strdup_printf("%" G_GUINT64_FORMAT, seed));
  g_hash_table_insert(h, "arrangement", g_strdup(arr));
  g_hash_table_insert(h, "oblivious", g_strdup(obl ? "1" : "0"));
  return h;
}

static MsGcdStats run_stats(const char *alg, guint64 bits, guint64 P, guint64 seed) {
  MsGcdStats st;
  GError *err = NULL;
  GHashTable *h = params(bits, P, seed, "column", FALSE);
  MsSource *s = ms_gcd_source_with_stats(alg, h, &st, &err);
  cr_assert_not_null(s, "%s", err ? err->message : "");
  cr_assert(ms_gcd_drain(s, &err), "%s", err ? err->message : "");
  ms_source_free(s);
  g_hash_table_unref(h);
  cr_assert(st.complete, "every GCD equals mpz_gcd");
  return st;
}

static MsResult *simulate(const char *alg, guint64 bits, guint64 P, const char *arr, gboolean obl) {
  GError *err = NULL;
  GHashTable *h = params(bits, P, 7, arr, obl);
  MsSource *s = ms_gcd_source(alg, h, &err);
  cr_assert_not_null(s);
  MsModel *m = ms_model_new(MS_MODEL_UMM, 32, 100, 1, 1, 100);
  MsResult *r = ms_simulate(m, s, NULL, &err);
  cr_assert_not_null(r, "%s", err ? err->message : "");
  ms_model_free(m);
  ms_source_free(s);
  g_hash_table_unref(h);
  return r;
}

Test(gcd, every_algorithm_agrees_with_gmp_over_sizes_and_seeds) {
  static const guint64 sizes[] = {32, 64, 96, 256, 512};
  for (int a = 0; ms_gcd_algorithms[a]; a++)
    for (gsize i = 0; i < G_N_ELEMENTS(sizes); i++)
      for (guint64 seed = 1; seed <= 3; seed++) {
        MsGcdStats st = run_stats(ms_gcd_algorithms[a], sizes[i], 64, seed);
        cr_expect_gt(st.iterations_min, 0);
        cr_expect_leq(st.iterations_max, 2 * sizes[i] + 1, "at most 2s iterations (section 4.1)");
      }
}

/* Table 4.4, s = 1024: the mean within 4 standard errors (plus the table's rounding). */
Test(gcd, iterations_for_1024_bits_match_table_4_4) {
  static const struct { const char *alg; double paper; } rows[] = {
      {"original", 598.5}, {"fast", 380.9}, {"binary", 1444.8}, {"fast-binary", 723.4}, {"approximate", 380.9}};
  const guint64 P = 512;
  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++) {
    MsGcdStats st = run_stats(rows[i].alg, 1024, P, 11);
    double se = st.iterations_sd / sqrt((double)P);
    fprintf(stderr, "gcd %-12s 1024 bits: mean %.2f (Table 4.4: %.1f), sd %.2f, min %" G_GUINT64_FORMAT
            ", max %" G_GUINT64_FORMAT ", gamma %.4f, steps not oblivious %.4f\n",
            rows[i].alg, st.iterations_mean, rows[i].paper, st.iterations_sd, st.iterations_min,
            st.iterations_max, st.gamma, (double)st.nonuniform_steps / (double)st.steps);
    cr_expect_lt(fabs(st.iterations_mean - rows[i].paper), 4 * se + 0.05, "%s: %.2f vs %.1f (se %.2f)",
                 rows[i].alg, st.iterations_mean, rows[i].paper, se);
  }
}

/* (E) - (B) is 0.0059 per instance in Table 4.4: approx's quotient is almost always exact. */
Test(gcd, approximate_takes_almost_exactly_the_iterations_of_fast) {
  MsGcdStats e = run_stats("approximate", 1024, 256, 5), b = run_stats("fast", 1024, 256, 5);
  cr_expect_lt(fabs(e.iterations_mean - b.iterations_mean), 0.1);
  cr_expect_geq(e.iterations_mean, b.iterations_mean - 0.1);
  cr_expect_eq(e.beta_positive, 0, "beta > 0 has probability < 1e-8 (Table 4.5)");
}

/* Semi-obliviousness: the data-dependent requests (MSB reads of approx and X < Y) are a
 * fraction of order d/s of all requests (section 4.4), so gamma shrinks as s grows. */
Test(gcd, gamma_shrinks_with_the_number_of_bits) {
  double g256 = run_stats("approximate", 256, 64, 3).gamma;
  double g1024 = run_stats("approximate", 1024, 64, 3).gamma;
  fprintf(stderr, "gcd approximate gamma: 256 bits %.4f, 1024 bits %.4f\n", g256, g1024);
  cr_expect_gt(g1024, 0.0);
  cr_expect_lt(g1024, g256);
  cr_expect_lt(g1024, 0.2);
}

Test(gcd, oblivious_column_wise_has_no_extra_stages) {
  for (int a = 0; ms_gcd_algorithms[a]; a++) {
    MsResult *r = simulate(ms_gcd_algorithms[a], 256, 128, "column", TRUE);
    cr_expect_eq(r->extra_stages, 0, "%s", ms_gcd_algorithms[a]);
    cr_expect_eq(r->stages, r->dispatches);
    cr_expect_eq(r->requests, 32 * r->dispatches, "every warp fully active in every step");
    ms_result_free(r);
  }
}

/* Row-wise with S/32 >= w words per number: every request of a warp is in its own group. */
Test(gcd, row_wise_costs_one_stage_per_request) {
  MsResult *r = simulate("approximate", 1024, 128, "row", TRUE);
  cr_expect_eq(r->stages, r->requests);
  cr_expect_eq(r->extra_stages, r->requests - r->dispatches);
  MsResult *c = simulate("approximate", 1024, 128, "column", TRUE);
  cr_expect_eq(c->requests, r->requests, "same accesses, other placement");
  cr_expect_lt(c->time_units, r->time_units);
  ms_result_free(r);
  ms_result_free(c);
}

/* Random pairs: the warps diverge (pointer swaps put X in either array, so a pass step
 * touches up to two rows; the MSB reads of X < Y fall anywhere), so there are extra stages,
 * but far fewer than one per request: semi-oblivious, not scattered. */
Test(gcd, semi_oblivious_column_wise_costs_some_extra_stages) {
  MsResult *r = simulate("fast-binary", 512, 256, "column", FALSE);
  fprintf(stderr, "gcd fast-binary 512 bits P=256: stages %" G_GUINT64_FORMAT ", dispatches %" G_GUINT64_FORMAT
          ", requests %" G_GUINT64_FORMAT "\n", r->stages, r->dispatches, r->requests);
  cr_expect_gt(r->extra_stages, 0);
  cr_expect_lt(r->stages, 3 * r->dispatches);
  cr_expect_lt(r->stages * 8, r->requests);
  ms_result_free(r);
}

Test(gcd, bad_parameters_are_refused) {
  static const struct { const char *alg, *key, *val; } bad[] = {
      {"euclid", "bits", "64"}, {"binary", "bits", "100"}, {"binary", "arrangement", "diagonal"},
      {"binary", "oblivious", "2"}, {"binary", "colour", "red"}, {"binary", "instances", "0"}};
  for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
    GHashTable *h = g_hash_table_new(g_str_hash, g_str_equal);
    g_hash_table_insert(h, (char *)bad[i].key, (char *)bad[i].val);
    GError *err = NULL;
    MsSource *s = ms_gcd_source(bad[i].alg, h, &err);
    cr_expect_null(s, "%s %s=%s", bad[i].alg, bad[i].key, bad[i].val);
    cr_expect(err && err->code == MS_ERROR_INVALID);
    g_clear_error(&err);
    ms_source_free(s);
    g_hash_table_unref(h);
  }
}

Test(gcd, boolean_oblivious_from_measurement_records) {
  GHashTable *h = g_hash_table_new(g_str_hash, g_str_equal);
  g_hash_table_insert(h, "oblivious", "true");
  g_hash_table_insert(h, "bits", "64");
  g_hash_table_insert(h, "instances", "32");
  MsSource *s = ms_gcd_source("binary", h, NULL);
  cr_expect_not_null(s);
  ms_source_free(s);
  g_hash_table_unref(h);
}

/* Every step (op, active threads) and every thread's address of a source planned on `workers`
 * threads (set_workers; 0: never told), hashed in stream order, with its statistics. */
static guint64 stream_hash(const char *alg, guint64 bits, guint64 P, guint workers, MsGcdStats *st) {
  GError *err = NULL;
  GHashTable *h = params(bits, P, 3, "column", FALSE);
  MsSource *s = ms_gcd_source_with_stats(alg, h, st, &err);
  cr_assert_not_null(s, "%s", err ? err->message : "");
  if (workers) ms_source_set_workers(s, workers);
  gint64 *addr = g_new(gint64, P);
  guint64 hash = 1469598103934665603u;
  MsStep step;
  MsNext r;
  while ((r = ms_source_next(s, &step, &err)) == MS_NEXT_STEP) {
    hash = (hash ^ (guint64)step.op) * 1099511628211u;
    cr_assert(ms_source_fill(s, 0, P, addr, &err), "%s", err ? err->message : "");
    for (guint64 t = 0; t < P; t++) hash = (hash ^ (guint64)addr[t]) * 1099511628211u;
  }
  cr_assert_eq(r, MS_NEXT_END, "%s", err ? err->message : "");
  g_free(addr);
  ms_source_free(s);
  g_hash_table_unref(h);
  cr_assert(st->complete, "every GCD equals mpz_gcd");
  return hash;
}

/* Planning on several threads (set_workers) gives the same stream as on one: the phases' sums
 * are added in thread order.  A mutation of the merge (uall, act, the lengths) changes it. */
Test(gcd, planning_on_several_threads_gives_the_same_stream) {
  const char *algs[] = {"approximate", "binary", "fast-binary", "fast"};
  for (guint a = 0; a < G_N_ELEMENTS(algs); a++) {
    MsGcdStats s0, s1;
    const guint64 want = stream_hash(algs[a], 128, 8192, 0, &s0);
    const guint ws[] = {1, 2, 3, 7, 8};
    for (guint i = 0; i < G_N_ELEMENTS(ws); i++) {
      const guint64 got = stream_hash(algs[a], 128, 8192, ws[i], &s1);
      cr_assert_eq(got, want, "%s on %u workers: another stream", algs[a], ws[i]);
      cr_assert_eq(s1.steps, s0.steps, "%s on %u workers", algs[a], ws[i]);
      cr_assert_eq(s1.nonuniform_steps, s0.nonuniform_steps, "%s on %u workers", algs[a], ws[i]);
      cr_assert_eq(s1.approx_calls, s0.approx_calls, "%s on %u workers", algs[a], ws[i]);
      cr_assert_eq(s1.beta_positive, s0.beta_positive, "%s on %u workers", algs[a], ws[i]);
      cr_assert_eq(s1.accesses, s0.accesses, "%s on %u workers", algs[a], ws[i]);
    }
  }
}
