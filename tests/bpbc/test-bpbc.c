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
