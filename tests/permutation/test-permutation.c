/* test-permutation.c: the offline permutation family against seed 001 (Table 4.3, section
 * 5.2's distributions, Table 5.1's rounds), the in-place formulas for every power of two
 * they hold for, the edge colouring, and properties over many random permutations. */
#include "memsim.h"
#include "permutation/ms-permutation-private.h"
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

static MsSource *source(const char *alg, const char *perm, guint64 n, guint32 w, guint64 seed, guint64 ew,
                        GError **error) {
  GHashTable *p = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
  g_hash_table_insert(p, "permutation", g_strdup(perm));
  g_hash_table_insert(p, "n", g_strdup_printf("%" G_GUINT64_FORMAT, n));
  g_hash_table_insert(p, "width", g_strdup_printf("%u", w));
  g_hash_table_insert(p, "seed", g_strdup_printf("%" G_GUINT64_FORMAT, seed));
  g_hash_table_insert(p, "elem-words", g_strdup_printf("%" G_GUINT64_FORMAT, ew));
  MsSource *s = ms_permutation_source(alg, p, error);
  g_hash_table_destroy(p);
  return s;
}

static MsResult *run(const MsModel *m, const char *alg, const char *perm, guint64 n, guint64 seed, guint64 ew) {
  GError *e = NULL;
  MsSource *s = source(alg, perm, n, m->width, seed, ew, &e);
  cr_assert(s, "%s %s n=%" G_GUINT64_FORMAT ": %s", alg, perm, n, e ? e->message : "");
  MsSimOptions o = {0};
  o.per_step = TRUE;
  MsResult *r = ms_simulate(m, s, &o, &e);
  cr_assert(r, "%s", e ? e->message : "");
  ms_source_free(s);
  return r;
}

/* ---- Table 4.3 (64-bit mode: one element = one bank word), DMM w = 32, l = 1, n = 1024 ---- */

typedef struct {
  const char *alg, *perm;
  double a, b;    /* per-warp stages of the read of a and the write of b */
  guint64 total;  /* per-warp total cost (array-use or in-place) */
} T43;

static const T43 t43[] = {
    {"d-designated", "identical", 1, 1, 3},     {"d-designated", "transpose", 1, 32, 34},
    {"d-designated", "shuffle", 1, 2, 4},       {"d-designated", "bit-reversal", 1, 32, 34},
    {"s-designated", "identical", 1, 1, 3},     {"s-designated", "transpose", 32, 1, 34},
    {"s-designated", "shuffle", 2, 1, 4},       {"s-designated", "bit-reversal", 32, 1, 34},
    {"conflict-free", "identical", 1, 1, 4},    {"conflict-free", "random", 1, 1, 4},
    {"conflict-free", "transpose", 1, 1, 4},    {"conflict-free", "shuffle", 1, 1, 4},
    {"conflict-free", "bit-reversal", 1, 1, 4}, {"d-designated-inplace", "transpose", 1, 32, 33},
    {"d-designated-inplace", "shuffle", 1, 2, 3}, {"d-designated-inplace", "bit-reversal", 1, 32, 33},
    {"s-designated-inplace", "transpose", 32, 1, 33}, {"s-designated-inplace", "shuffle", 2, 1, 3},
    {"s-designated-inplace", "bit-reversal", 32, 1, 33}, {"conflict-free-inplace", "transpose", 1, 1, 2},
    {"conflict-free-inplace", "shuffle", 1, 1, 2}, {"conflict-free-inplace", "bit-reversal", 1, 1, 2},
    {"copy", "identical", 1, 1, 2},
};

Test(table4_3, per_warp_costs_should_match_seed001) {
  g_autoptr(MsModel) m = ms_model_new(MS_MODEL_DMM, 32, 1, 1, 1, 1);
  for (gsize k = 0; k < G_N_ELEMENTS(t43); k++) {
    MsResult *r = run(m, t43[k].alg, t43[k].perm, 1024, 1, 1);
    /* the last two memory steps are the read of a and the write of b */
    guint len = r->per_step->len;
    MsStepResult *ra = &g_array_index(r->per_step, MsStepResult, len - 2);
    MsStepResult *wb = &g_array_index(r->per_step, MsStepResult, len - 1);
    cr_expect(ra->step.op == MS_OP_READ && wb->step.op == MS_OP_WRITE);
    cr_expect_eq(ra->stages, (guint64)(t43[k].a * 32), "%s %s: a", t43[k].alg, t43[k].perm);
    cr_expect_eq(wb->stages, (guint64)(t43[k].b * 32), "%s %s: b", t43[k].alg, t43[k].perm);
    cr_expect_eq(r->stages, t43[k].total * 32, "%s %s: total", t43[k].alg, t43[k].perm);
    /* l = 1: the pipeline never idles, time = stages */
    cr_expect_eq(r->time_units, r->stages);
    ms_result_free(r);
  }
}

Test(table4_3, random_permutation_costs_the_mean_bank_conflict) {
  g_autoptr(MsModel) m = ms_model_new(MS_MODEL_DMM, 32, 1, 1, 1, 1);
  GError *e = NULL;
  guint64 n = 1024;
  gint64 *P = ms_perm_load("random", &n, 1, &e);
  gint64 *Q = ms_perm_inverse(P, n);
  guint64 sp = 0, sq = 0;
  for (guint64 j = 0; j < n; j += 32) {
    sp += ms_perm_warp_dmm_stages(P + j, 32, 32);
    sq += ms_perm_warp_dmm_stages(Q + j, 32, 32);
  }
  MsResult *d = run(m, "d-designated", "random", n, 1, 1), *s = run(m, "s-designated", "random", n, 1, 1);
  cr_expect_eq(d->stages, 64 + sp);
  cr_expect_eq(s->stages, 64 + sq);
  /* seed 001 measured 3.46 on its random permutation; ours (seed 1) lies close */
  cr_expect(sp / 32.0 > 3.0 && sp / 32.0 < 4.0, "%f", sp / 32.0);
  ms_result_free(d);
  ms_result_free(s);
  g_free(P);
  g_free(Q);
}

/* The 32-bit-mode column: floats in Kepler's 32-bit bank mode.  Float x lies in 64-bit bank
 * word (x mod w) + w * floor(x / 2w); two floats of one 64-bit word are served together.  In
 * memsim's DMM this is a one-word-per-element trace whose addresses are those 64-bit words
 * (merged requests to one address cost one stage). */
static gint64 word32(gint64 x) { return x % 32 + 32 * (x / 64); }

Test(table4_3, the_32_bit_mode_column_is_the_64_bit_word_mapping) {
  static const struct { const char *perm; guint32 d_b, s_a; } t[] = {
      {"identical", 1, 1}, {"transpose", 16, 16}, {"shuffle", 1, 2}, {"bit-reversal", 16, 16}};
  for (gsize k = 0; k < G_N_ELEMENTS(t); k++) {
    GError *e = NULL;
    guint64 n = 1024;
    gint64 *P = ms_perm_load(t[k].perm, &n, 1, &e), *Q = ms_perm_inverse(P, n);
    guint32 md = 0, ms = 0;
    for (guint64 j = 0; j < n; j += 32) {
      gint64 a[32], b[32];
      for (int x = 0; x < 32; x++) {
        a[x] = word32(P[j + x]);
        b[x] = word32(Q[j + x]);
      }
      md = MAX(md, ms_perm_warp_dmm_stages(a, 32, 32));
      ms = MAX(ms, ms_perm_warp_dmm_stages(b, 32, 32));
    }
    cr_expect_eq(md, t[k].d_b, "%s D-designated write", t[k].perm);
    cr_expect_eq(ms, t[k].s_a, "%s S-designated read", t[k].perm);
    g_free(P);
    g_free(Q);
  }
}

Test(elem_words, two_word_elements_double_the_contiguous_stages) {
  g_autoptr(MsModel) m = ms_model_new(MS_MODEL_DMM, 32, 1, 1, 1, 1);
  MsResult *r = run(m, "copy", "identical", 1024, 1, 2);
  cr_expect_eq(r->stages, 2 * 64); /* a[tid] at 2*tid: each bank twice per warp */
  ms_result_free(r);
}

/* ---- section 5.2: the distribution D_w(P) ---- */

Test(distribution, named_permutations_should_have_seed001_values) {
  static const guint64 ns[] = {1024, 4096, 16384, 65536, 1 << 20};
  for (gsize k = 0; k < G_N_ELEMENTS(ns); k++) {
    guint64 n = ns[k];
    GError *e = NULL;
    const char *names[] = {"identical", "shuffle", "transpose", "bit-reversal"};
    guint64 want[] = {n / 32, 2 * n / 32, n, n};
    for (int j = 0; j < 4; j++) {
      guint64 nn = n;
      gint64 *P = ms_perm_load(names[j], &nn, 1, &e);
      cr_assert(P);
      gint64 *Q = ms_perm_inverse(P, n);
      cr_expect_eq(ms_perm_distribution(P, n, 32), want[j], "%s n=%" G_GUINT64_FORMAT, names[j], n);
      cr_expect_eq(ms_perm_distribution(Q, n, 32), want[j], "%s^-1", names[j]);
      g_free(P);
      g_free(Q);
    }
  }
}

Test(distribution, inverse_has_the_same_distribution) {
  /* D_w(P) counts the distinct pairs (warp of i, group of P(i)); D_w(P^-1) the same pairs
   * transposed, so they are equal for every P. */
  for (guint64 seed = 1; seed <= 20; seed++) {
    guint64 n = 32 * (1 + seed * 7);
    GError *e = NULL;
    gint64 *P = ms_perm_load("random", &n, seed, &e), *Q = ms_perm_inverse(P, n);
    cr_expect_eq(ms_perm_distribution(P, n, 32), ms_perm_distribution(Q, n, 32));
    g_free(P);
    g_free(Q);
  }
}

/* ---- Table 5.1: rounds of each HMM algorithm ---- */

typedef struct {
  const char *alg, *perm;
  guint casual_r, casual_w, coal_r, coal_w, cf_r, cf_w, grid_barriers;
} T51;

static const T51 t51[] = {
    {"hmm-d-designated", "random", 0, 1, 2, 0, 0, 0, 0},
    {"hmm-s-designated", "random", 1, 0, 1, 1, 0, 0, 0},
    {"hmm-transpose", "transpose", 0, 0, 1, 1, 1, 1, 0},
    {"hmm-row-wise", "identical", 0, 0, 3, 1, 2, 2, 0},
    {"hmm-column-wise", "identical", 0, 0, 5, 3, 4, 4, 2},
    {"hmm-scheduled", "random", 0, 0, 11, 5, 8, 8, 4},
    {"hmm-scheduled", "bit-reversal", 0, 0, 11, 5, 8, 8, 4},
};

Test(table5_1, rounds_should_match_seed001) {
  g_autoptr(MsModel) m = ms_model_new(MS_MODEL_ASYNC_HMM, 32, 1, 8, 1, 400);
  guint64 n = 256 * 256, warps = n / 32;
  for (gsize k = 0; k < G_N_ELEMENTS(t51); k++) {
    MsResult *r = run(m, t51[k].alg, t51[k].perm, n, 1, 1);
    guint c[6] = {0};
    for (guint i = 0; i < r->per_step->len; i++) {
      MsStepResult *s = &g_array_index(r->per_step, MsStepResult, i);
      if (s->step.op == MS_OP_SYNC) continue;
      cr_expect_eq(s->requests, n, "every round is by all n threads");
      gboolean rd = s->step.op == MS_OP_READ;
      if (s->step.space == MS_SPACE_SHARED) {
        cr_expect_eq(s->stages, warps, "%s: shared rounds are conflict-free", t51[k].alg);
        c[rd ? 4 : 5]++;
      } else if (s->stages == warps) c[rd ? 2 : 3]++;
      else c[rd ? 0 : 1]++;
    }
    guint want[6] = {t51[k].casual_r, t51[k].casual_w, t51[k].coal_r, t51[k].coal_w, t51[k].cf_r, t51[k].cf_w};
    for (int j = 0; j < 6; j++) cr_expect_eq(c[j], want[j], "%s column %d", t51[k].alg, j);
    cr_expect_eq(r->grid_barriers, t51[k].grid_barriers, "%s", t51[k].alg);
    ms_result_free(r);
  }
}

Test(table5_1, conventional_casual_round_costs_the_distribution) {
  g_autoptr(MsModel) m = ms_model_new(MS_MODEL_HMM, 32, 1, 8, 1, 400);
  const char *perms[] = {"identical", "random", "transpose", "shuffle", "bit-reversal"};
  guint64 n = 256 * 256;
  for (int k = 0; k < 5; k++) {
    GError *e = NULL;
    guint64 nn = n;
    gint64 *P = ms_perm_load(perms[k], &nn, 1, &e);
    guint64 D = ms_perm_distribution(P, n, 32);
    MsResult *r = run(m, "hmm-d-designated", perms[k], n, 1, 1);
    cr_expect_eq(r->global.stages, D + 2 * n / 32, "%s", perms[k]);
    /* the papers' per-round sum D_w(P) + 2n/w + 3L - 3 */
    cr_expect_eq(r->round_sum, D + 2 * n / 32 + 3 * 400 - 3, "%s", perms[k]);
    ms_result_free(r);
    g_free(P);
  }
}

/* ---- properties over many permutations and sizes ---- */

Test(property, conflict_free_has_no_extra_stage_and_verifies) {
  static const guint32 ws[] = {2, 4, 5, 8, 32};
  for (gsize a = 0; a < G_N_ELEMENTS(ws); a++)
    for (guint64 seed = 1; seed <= 12; seed++) {
      guint32 w = ws[a];
      g_autoptr(MsModel) m = ms_model_new(MS_MODEL_DMM, w, 3, 1, 1, 1);
      guint64 n = (guint64)w * (1 + (seed * 13) % 40);
      MsResult *r = run(m, "conflict-free", "random", n, seed, 1);
      cr_expect_eq(r->extra_stages, 0, "w=%u n=%" G_GUINT64_FORMAT " seed=%" G_GUINT64_FORMAT, w, n, seed);
      cr_expect_eq(r->stages, 4 * n / w);
      ms_result_free(r);
    }
}

Test(property, scheduled_global_stages_are_its_16_coalesced_rounds) {
  static const struct { guint32 w; guint64 nbar; } sz[] = {{4, 4}, {4, 8}, {4, 12}, {8, 24}, {8, 32}, {32, 64}, {32, 96}};
  const char *perms[] = {"random", "identical", "transpose"};
  for (gsize a = 0; a < G_N_ELEMENTS(sz); a++)
    for (int k = 0; k < 3; k++)
      for (guint64 seed = 1; seed <= (k ? 1u : 4u); seed++) {
        g_autoptr(MsModel) m = ms_model_new(MS_MODEL_ASYNC_HMM, sz[a].w, 1, 4, 1, 50);
        guint64 n = sz[a].nbar * sz[a].nbar;
        MsResult *r = run(m, "hmm-scheduled", perms[k], n, seed, 1 + (seed & 1));
        guint64 ew = 1 + (seed & 1), rounds = n / sz[a].w;
        /* 16 coalesced rounds: 10 move elements of ew words (ew stages a warp), 6 read the
         * one-word S and D tables of the three row-wise permutations */
        cr_expect_eq(r->global.dispatches, 16 * rounds);
        cr_expect_eq(r->global.stages, (10 * ew + 6) * rounds, "w=%u nbar=%" G_GUINT64_FORMAT, sz[a].w, sz[a].nbar);
        if (ew == 1) cr_expect_eq(r->extra_stages, 0);
        cr_expect_eq(r->shared.dispatches, 16 * rounds);
        cr_expect_eq(r->grid_barriers, 4);
        ms_result_free(r);
      }
}

Test(property, every_algorithm_verifies_on_every_permutation_it_takes) {
  const char *perms[] = {"identical", "random", "transpose", "shuffle", "bit-reversal"};
  for (int a = 0; ms_permutation_algorithms[a]; a++)
    for (int k = 0; k < 5; k++) {
      const char *alg = ms_permutation_algorithms[a];
      gboolean hmm = g_str_has_prefix(alg, "hmm-");
      guint64 n = hmm ? 64 * 64 : 1024;
      GError *e = NULL;
      MsSource *s = source(alg, perms[k], n, hmm ? 16 : 32, 7, 1, &e);
      if (!s) { /* only refusals of the algorithm's domain, never a failed verification */
        cr_expect(e->code == MS_ERROR_INVALID, "%s %s: %s", alg, perms[k], e->message);
        g_error_free(e);
        continue;
      }
      ms_source_free(s);
    }
}

/* ---- in-place formulas ---- */

static gboolean banks_distinct(const guint64 *x, guint64 c, guint32 w) {
  for (guint64 a = 0; a < c; a++)
    for (guint64 b = 0; b < a; b++)
      if (x[a] % w == x[b] % w) return FALSE;
  return TRUE;
}

Test(formulas, hold_for_every_power_of_two_they_claim) {
  const char *kinds[] = {"identical", "transpose", "shuffle", "bit-reversal"};
  for (int m = 0; m <= 14; m++)
    for (int kw = 0; kw <= 6; kw++)
      for (int k = 0; k < 4; k++) {
        guint64 n = G_GUINT64_CONSTANT(1) << m;
        guint32 w = 1u << kw;
        if (!ms_perm_formula_holds(kinds[k], 'p', n, w)) {
          cr_expect(k == 1 && m % 2, "P formula of %s n=%" G_GUINT64_FORMAT, kinds[k], n);
          continue;
        }
        GError *e = NULL;
        gint64 *P = ms_perm_generate(kinds[k], n, 1, &e);
        for (guint64 i = 0; i < n; i++) {
          cr_assert_eq(ms_perm_formula(kinds[k], 'p', n, w, i), (guint64)P[i]);
          cr_assert_eq((guint64)P[ms_perm_formula(kinds[k], 'q', n, w, i)], i);
        }
        /* claimed: transpose r >= w, shuffle m > log w, bit-reversal m >= 2 log w, or n <= w */
        gboolean claim = n <= w || k == 0 || (k == 1 && m / 2 >= kw) || (k == 2 && m > kw) || (k == 3 && m >= 2 * kw);
        cr_expect_eq(ms_perm_formula_holds(kinds[k], 's', n, w), claim, "%s n=%" G_GUINT64_FORMAT " w=%u", kinds[k], n, w);
        if (claim) {
          guint8 *seen = g_new0(guint8, n);
          guint64 *sv = g_new(guint64, w), *dv = g_new(guint64, w);
          for (guint64 j = 0; j < n; j += w) {
            guint64 c = MIN((guint64)w, n - j);
            for (guint64 x = 0; x < c; x++) {
              sv[x] = ms_perm_formula(kinds[k], 's', n, w, j + x);
              dv[x] = ms_perm_formula(kinds[k], 'd', n, w, j + x);
              cr_assert(sv[x] < n && !seen[sv[x]]++, "S is a permutation");
              cr_assert_eq(dv[x], (guint64)P[sv[x]], "D = P o S");
            }
            cr_assert(banks_distinct(sv, c, w) && banks_distinct(dv, c, w), "%s n=%" G_GUINT64_FORMAT " w=%u warp %" G_GUINT64_FORMAT,
                      kinds[k], n, w, j / w);
          }
          g_free(seen);
          g_free(sv);
          g_free(dv);
        }
        g_free(P);
      }
}

Test(formulas, equal_seed001_section_4_4_for_n_1024) {
  for (guint64 t = 0; t < 1024; t++) {
    guint64 u = (t >> 5) | ((t & 0x1f) << 5);
    guint64 v = ((u & 0x318) >> 3) | ((u & 0x63) << 3);
    guint64 br = ((v & 0x252) >> 1) | ((v & 0x129) << 1) | (u & 0x84);
    guint64 s = t ^ ((t & 0x1f) << 5);
    cr_assert_eq(ms_perm_formula("transpose", 'p', 1024, 32, t), u);
    cr_assert_eq(ms_perm_formula("shuffle", 'p', 1024, 32, t), (t >> 9) | ((t & 0x1ff) << 1));
    cr_assert_eq(ms_perm_formula("shuffle", 'q', 1024, 32, t), (t >> 1) | ((t & 0x1) << 9));
    cr_assert_eq(ms_perm_formula("bit-reversal", 'p', 1024, 32, t), br);
    const char *kinds[] = {"transpose", "shuffle", "bit-reversal"};
    for (int k = 0; k < 3; k++) cr_assert_eq(ms_perm_formula(kinds[k], 's', 1024, 32, t), s);
    cr_assert_eq(ms_perm_formula("transpose", 'd', 1024, 32, t), (s >> 5) | ((s & 0x1f) << 5));
  }
}

Test(formulas, random_has_none) {
  GError *e = NULL;
  MsSource *s = source("conflict-free-inplace", "random", 1024, 32, 1, 1, &e);
  cr_expect_null(s);
  cr_expect(e && strstr(e->message, "no in-place formula"));
  g_clear_error(&e);
  s = source("conflict-free-inplace", "bit-reversal", 256, 32, 1, 1, &e); /* m = 8 < 2 log w */
  cr_expect_null(s);
  g_clear_error(&e);
}

/* ---- edge colouring ---- */

Test(colouring, is_exact_on_random_regular_multigraphs) {
  for (guint64 seed = 1; seed <= 60; seed++) {
    guint64 st = seed;
    guint32 nodes = 1 + (guint32)ms_rand_below(&st, 40);
    guint64 d = 1 + ms_rand_below(&st, 70), n = nodes * d;
    gint64 *P = ms_perm_generate("random", n, seed, NULL);
    guint32 *l = g_new(guint32, n), *r = g_new(guint32, n), *c = g_new(guint32, n);
    for (guint64 i = 0; i < n; i++) {
      l[i] = (guint32)(i % nodes);
      r[i] = (guint32)((guint64)P[i] % nodes);
    }
    GError *e = NULL;
    cr_assert(ms_bipartite_colour(nodes, n, l, r, c, &e));
    cr_expect(ms_colouring_is_exact(nodes, n, l, r, c), "nodes=%u d=%" G_GUINT64_FORMAT, nodes, d);
    g_free(P);
    g_free(l);
    g_free(r);
    g_free(c);
  }
}

Test(colouring, rejects_an_irregular_graph) {
  guint32 l[] = {0, 0, 1, 1}, r[] = {0, 0, 0, 1}, c[4];
  GError *e = NULL;
  cr_expect_not(ms_bipartite_colour(2, 4, l, r, c, &e));
  cr_expect(e && strstr(e->message, "not 2-regular"));
  g_clear_error(&e);
}

/* ---- permutation files and parameters ---- */

static char *write_tmp(const char *suffix, const void *data, gsize len) {
  char *path = g_strdup_printf("%s/ms-perm-test-%d-%s", g_get_tmp_dir(), (int)getpid(), suffix);
  g_file_set_contents(path, data, (gssize)len, NULL);
  return path;
}

Test(files, text_and_binary_permutations_load) {
  const char *txt = "3 0\n2\t1\n";
  const guint8 bin[] = {3, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0};
  char *a = write_tmp("p.txt", txt, strlen(txt)), *b = write_tmp("p.bin", bin, sizeof bin);
  char *sa = g_strconcat("file:", a, NULL), *sb = g_strconcat("file:", b, NULL);
  GError *e = NULL;
  guint64 n = 0;
  gint64 *p = ms_perm_load(sa, &n, 0, &e);
  cr_assert(p, "%s", e ? e->message : "");
  cr_expect(n == 4 && p[0] == 3 && p[1] == 0 && p[2] == 2 && p[3] == 1);
  g_free(p);
  n = 4;
  p = ms_perm_load(sb, &n, 0, &e);
  cr_assert(p);
  cr_expect(p[0] == 3 && p[3] == 1);
  g_free(p);
  remove(a);
  remove(b);
  g_free(a);
  g_free(b);
  g_free(sa);
  g_free(sb);
}

Test(files, bad_permutations_are_clear_errors) {
  static const struct { const char *suffix, *text, *msg; } t[] = {
      {"dup.txt", "0 1 1 3", "appears twice"},
      {"range.txt", "0 1 2 4", "out of range"},
      {"junk.txt", "0 1 x 3", ":1: expected a non-negative integer"},
      {"empty.txt", "  \n", "empty"},
      {"odd.bin", "abc", "not a multiple of 4"},
  };
  for (gsize k = 0; k < G_N_ELEMENTS(t); k++) {
    char *path = write_tmp(t[k].suffix, t[k].text, strlen(t[k].text));
    char *spec = g_strconcat("file:", path, NULL);
    GError *e = NULL;
    guint64 n = 0;
    gint64 *p = ms_perm_load(spec, &n, 0, &e);
    cr_expect_null(p);
    cr_expect(e && strstr(e->message, t[k].msg), "%s: %s", t[k].suffix, e ? e->message : "(no error)");
    g_clear_error(&e);
    g_free(p);
    remove(path);
    g_free(path);
    g_free(spec);
  }
  GError *e = NULL;
  guint64 n = 0;
  cr_expect_null(ms_perm_load("file:/nonexistent/perm.txt", &n, 0, &e));
  cr_expect(e && e->code == MS_ERROR_IO);
  g_clear_error(&e);
}

Test(params, aliases_blocks_and_unknown_keys) {
  GHashTable *p = g_hash_table_new(g_str_hash, g_str_equal);
  g_hash_table_insert(p, "n", "1024");
  g_hash_table_insert(p, "permutation", "shuffle");
  g_hash_table_insert(p, "elem_words", "2");
  g_hash_table_insert(p, "blocks", "1000");
  GError *e = NULL;
  MsSource *s = ms_permutation_source("conflict-free", p, &e);
  cr_expect(s, "%s", e ? e->message : "");
  ms_source_free(s);
  g_hash_table_insert(p, "nbar", "4");
  cr_expect_null(ms_permutation_source("conflict-free", p, &e));
  cr_expect(e && strstr(e->message, "unknown parameter \"nbar\""));
  g_clear_error(&e);
  g_hash_table_remove(p, "nbar");
  cr_expect_null(ms_permutation_source("bogus", p, &e));
  cr_expect(e && strstr(e->message, "unknown algorithm"));
  g_clear_error(&e);
  g_hash_table_destroy(p);
}

/* ---- the compact trace form (issue 4: gen writes the compact form by default) -------------- */

/* Both sources give the same steps and the same address for every thread. */
static void expect_same_stream(MsSource *x, MsSource *y, const char *what) {
  cr_assert_not_null(x);
  cr_assert_not_null(y, "%s", what);
  guint64 p = ms_source_threads(x);
  cr_assert_eq(ms_source_threads(y), p, "%s", what);
  cr_expect_eq(ms_source_block_threads(y), ms_source_block_threads(x), "%s", what);
  gint64 *ax = g_new(gint64, p), *ay = g_new(gint64, p);
  GError *err = NULL;
  guint64 steps = 0;
  for (;;) {
    MsStep sx, sy;
    MsNext nx = ms_source_next(x, &sx, &err), ny = ms_source_next(y, &sy, &err);
    cr_assert_eq(nx, ny, "%s: step %" G_GUINT64_FORMAT ": %s", what, steps, err ? err->message : "");
    if (nx != MS_NEXT_STEP) break;
    cr_assert_eq(sx.op, sy.op, "%s: step %" G_GUINT64_FORMAT, what, steps);
    if (sx.op == MS_OP_SYNC) {
      cr_assert_eq(sx.scope, sy.scope);
    } else {
      cr_assert_eq(sx.space, sy.space, "%s: step %" G_GUINT64_FORMAT, what, steps);
      cr_assert(ms_source_fill(x, 0, p, ax, &err));
      cr_assert(ms_source_fill(y, 0, p, ay, &err), "%s", err ? err->message : "");
      cr_assert(memcmp(ax, ay, p * sizeof(gint64)) == 0, "%s: step %" G_GUINT64_FORMAT " addresses differ", what, steps);
    }
    steps++;
  }
  cr_expect_gt(steps, 0);
  g_free(ax);
  g_free(ay);
}

static GHashTable *params_of(const char *perm, const char *n, const char *w, const char *ew) {
  GHashTable *h = g_hash_table_new(g_str_hash, g_str_equal);
  g_hash_table_insert(h, "permutation", (char *)perm);
  g_hash_table_insert(h, "n", (char *)n);
  g_hash_table_insert(h, "width", (char *)w);
  g_hash_table_insert(h, "elem-words", (char *)ew);
  return h;
}

/* For every algorithm and a few permutations, sizes and element widths: the compact text
 * (inline tables), its explicit conversion, and the in-process source are the same trace. */
Test(compact, every_algorithm_matches_the_in_process_source_and_its_explicit_form) {
  static const struct { const char *alg, *perm, *n, *w; } rows[] = {
      {"copy", "identical", "64", "8"},
      {"d-designated", "random", "256", "32"},
      {"d-designated", "transpose", "1024", "32"},
      {"s-designated", "shuffle", "256", "16"},
      {"s-designated", "random", "96", "8"},
      {"conflict-free", "random", "256", "32"},
      {"conflict-free", "bit-reversal", "1024", "32"},
      {"d-designated-inplace", "transpose", "1024", "32"},
      {"s-designated-inplace", "shuffle", "256", "16"},
      {"conflict-free-inplace", "bit-reversal", "1024", "32"},
      {"hmm-d-designated", "random", "4096", "32"},
      {"hmm-s-designated", "bit-reversal", "1024", "16"},
      {"hmm-transpose", "transpose", "4096", "32"},
      {"hmm-transpose", "transpose", "2304", "16"},
      {"hmm-column-wise", "identical", "1024", "16"},
      {"hmm-row-wise", "identical", "4096", "32"},
      {"hmm-scheduled", "random", "4096", "32"},
      {"hmm-scheduled", "random", "2304", "16"},
      {"hmm-scheduled", "shuffle", "1024", "16"},
  };
  static const char *const ews[] = {"1", "2"};
  int tested = 0;
  for (gsize i = 0; i < G_N_ELEMENTS(rows); i++)
    for (gsize e = 0; e < G_N_ELEMENTS(ews); e++) {
      GHashTable *h = params_of(rows[i].perm, rows[i].n, rows[i].w, ews[e]);
      GError *err = NULL;
      gchar *what = g_strdup_printf("%s %s n=%s w=%s ew=%s", rows[i].alg, rows[i].perm, rows[i].n, rows[i].w, ews[e]);
      gchar *text = ms_permutation_compact(rows[i].alg, h, NULL, &err);
      cr_assert_not_null(text, "%s: %s", what, err ? err->message : "");
      cr_expect(strstr(text, "\"form\": \"compact\"") != NULL);
      MsSource *ref = ms_permutation_source(rows[i].alg, h, &err);
      MsSource *cmp = ms_trace_open_memory(text, strlen(text), "compact.json", &err);
      cr_assert_not_null(cmp, "%s: %s", what, err ? err->message : "");
      expect_same_stream(ref, cmp, what);
      ms_source_free(ref);
      ms_source_free(cmp);
      /* explicit conversion of the compact text */
      cmp = ms_trace_open_memory(text, strlen(text), "compact.json", &err);
      char *buf = NULL;
      size_t len = 0;
      FILE *f = open_memstream(&buf, &len);
      cr_assert(ms_trace_write(cmp, MS_FORMAT_EXPLICIT, f, "x.json", &err), "%s", err ? err->message : "");
      fclose(f);
      ms_source_free(cmp);
      MsSource *ex = ms_trace_open_memory(buf, len, "explicit.json", &err);
      ref = ms_permutation_source(rows[i].alg, h, &err);
      expect_same_stream(ref, ex, what);
      ms_source_free(ref);
      ms_source_free(ex);
      free(buf);
      g_free(text);
      g_free(what);
      g_hash_table_unref(h);
      tested++;
    }
  cr_expect_eq(tested, 38);
}

/* Large tables go to little-endian u32 side files next to the trace; the file runs the same. */
Test(compact, large_tables_are_side_files) {
  gchar *dir = g_dir_make_tmp("perm-compact-XXXXXX", NULL);
  cr_assert_not_null(dir);
  gchar *path = g_build_filename(dir, "sched.json", NULL);
  GHashTable *h = params_of("random", "16384", "32", "1");
  GError *err = NULL;
  gchar *text = ms_permutation_compact("hmm-scheduled", h, path, &err);
  cr_assert_not_null(text, "%s", err ? err->message : "");
  cr_expect(strstr(text, "\"file\": \"sched.S1.u32\"") != NULL);
  cr_assert(g_file_set_contents(path, text, -1, NULL));
  gchar *side = g_build_filename(dir, "sched.S1.u32", NULL);
  gchar *bytes = NULL;
  gsize len = 0;
  cr_assert(g_file_get_contents(side, &bytes, &len, NULL));
  cr_expect_eq(len, 4 * 16384);
  MsSource *ref = ms_permutation_source("hmm-scheduled", h, &err);
  MsSource *cmp = ms_trace_open(path, &err);
  cr_assert_not_null(cmp, "%s", err ? err->message : "");
  expect_same_stream(ref, cmp, "side files");
  ms_source_free(ref);
  ms_source_free(cmp);
  /* remove the trace and its side files */
  GDir *d = g_dir_open(dir, 0, NULL);
  const char *nm;
  while ((nm = g_dir_read_name(d))) {
    gchar *f = g_build_filename(dir, nm, NULL);
    g_unlink(f);
    g_free(f);
  }
  g_dir_close(d);
  g_rmdir(dir);
  g_free(bytes);
  g_free(side);
  g_free(text);
  g_free(path);
  g_free(dir);
  g_hash_table_unref(h);
}

/* The verification still guards the compact form: a bad request is an error, not a trace. */
Test(compact, refused_like_the_source) {
  GHashTable *h = params_of("random", "64", "8", "1");
  GError *err = NULL;
  cr_expect_null(ms_permutation_compact("copy", h, NULL, &err));
  cr_expect(err != NULL);
  g_clear_error(&err);
  g_hash_table_unref(h);
}

/* ---- table = register (the GPU kernels' form: tables in registers, loaded once) ---------- */

static MsResult *run_table(const MsModel *m, const char *alg, const char *perm, const char *table, guint64 ew) {
  GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
  g_hash_table_insert(h, "permutation", g_strdup(perm));
  g_hash_table_insert(h, "n", g_strdup("1024"));
  g_hash_table_insert(h, "elem-words", g_strdup_printf("%" G_GUINT64_FORMAT, ew));
  g_hash_table_insert(h, "table", g_strdup(table));
  GError *e = NULL;
  MsSource *s = ms_permutation_source(alg, h, &e);
  g_hash_table_destroy(h);
  cr_assert(s, "%s %s %s: %s", alg, perm, table, e ? e->message : "");
  MsSimOptions o = {0};
  o.per_step = TRUE;
  MsResult *r = ms_simulate(m, s, &o, &e);
  cr_assert(r, "%s", e ? e->message : "");
  ms_source_free(s);
  return r;
}

static const char *const all_perms[] = {"identical", "random", "transpose", "shuffle", "bit-reversal"};

/* Conflict-free with its S and D in registers is one read of a and one write of b, both
 * conflict-free: exactly the copy's stages, on every permutation and element width. */
Test(table_register, conflict_free_costs_the_copy_on_every_permutation) {
  g_autoptr(MsModel) m = ms_model_new(MS_MODEL_DMM, 32, 1, 1, 1, 1);
  for (guint64 ew = 1; ew <= 2; ew++) {
    MsResult *c = run_table(m, "copy", "identical", "register", ew);
    MsResult *cs = run_table(m, "copy", "identical", "shared", ew);
    cr_expect_eq(c->stages, cs->stages, "the copy reads no table");
    cr_expect_eq(c->stages, 64 * ew);
    for (gsize k = 0; k < G_N_ELEMENTS(all_perms); k++) {
      MsResult *r = run_table(m, "conflict-free", all_perms[k], "register", ew);
      MsResult *sh = run_table(m, "conflict-free", all_perms[k], "shared", ew);
      cr_expect_eq(r->per_step->len, 2, "%s: read a, write b", all_perms[k]);
      cr_expect_eq(r->stages, c->stages, "%s ew=%" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT, all_perms[k], ew, r->stages);
      cr_expect_eq(sh->stages, c->stages + 64, "%s: shared adds the reads of S and D (32 stages each)", all_perms[k]);
      ms_result_free(r);
      ms_result_free(sh);
    }
    ms_result_free(c);
    ms_result_free(cs);
  }
}

/* D-designated and S-designated lose only the read of their table: the conflicts of the
 * permuted access (the write b[P(i)], the read a[P^-1(i)]) are unchanged. */
Test(table_register, designated_keep_their_conflicts) {
  g_autoptr(MsModel) m = ms_model_new(MS_MODEL_DMM, 32, 1, 1, 1, 1);
  for (gsize k = 0; k < G_N_ELEMENTS(all_perms); k++)
    for (int d = 0; d < 2; d++) {
      const char *alg = d ? "d-designated" : "s-designated";
      MsResult *r = run_table(m, alg, all_perms[k], "register", 1);
      MsResult *sh = run_table(m, alg, all_perms[k], "shared", 1);
      cr_assert_eq(r->per_step->len, 2);
      cr_assert_eq(sh->per_step->len, 3);
      /* the permuted access is the write (D) or the read (S) */
      guint ir = d ? 1 : 0, is = d ? 2 : 1;
      MsStepResult *a = &g_array_index(r->per_step, MsStepResult, ir);
      MsStepResult *b = &g_array_index(sh->per_step, MsStepResult, is);
      cr_expect_eq(a->step.op, b->step.op);
      cr_expect_eq(a->stages, b->stages, "%s %s", alg, all_perms[k]);
      cr_expect_eq(r->extra_stages, sh->extra_stages, "%s %s", alg, all_perms[k]);
      cr_expect_eq(r->stages + 32, sh->stages, "%s %s: one conflict-free table read less", alg, all_perms[k]);
      ms_result_free(r);
      ms_result_free(sh);
    }
  /* Table 4.3's transpose: the D-designated write keeps its 32 stages per warp */
  MsResult *t = run_table(m, "d-designated", "transpose", "register", 1);
  cr_expect_eq(t->stages, 32 + 32 * 32);
  ms_result_free(t);
}

/* The in-place algorithms read no table: register changes nothing. */
Test(table_register, inplace_is_unchanged) {
  g_autoptr(MsModel) m = ms_model_new(MS_MODEL_DMM, 32, 1, 1, 1, 1);
  static const char *const algs[] = {"d-designated-inplace", "s-designated-inplace", "conflict-free-inplace"};
  for (gsize k = 0; k < G_N_ELEMENTS(algs); k++) {
    MsResult *r = run_table(m, algs[k], "shuffle", "register", 1), *s = run_table(m, algs[k], "shuffle", "shared", 1);
    cr_expect_eq(r->stages, s->stages, "%s", algs[k]);
    ms_result_free(r);
    ms_result_free(s);
  }
}

/* The compact text of a register trace is the in-process source; bad values are errors. */
Test(table_register, compact_matches_and_bad_values_are_refused) {
  static const char *const algs[] = {"d-designated", "s-designated", "conflict-free"};
  for (gsize k = 0; k < G_N_ELEMENTS(algs); k++) {
    GHashTable *h = params_of("random", "256", "32", "2");
    g_hash_table_insert(h, "table", "register");
    GError *err = NULL;
    gchar *text = ms_permutation_compact(algs[k], h, NULL, &err);
    cr_assert_not_null(text, "%s: %s", algs[k], err ? err->message : "");
    cr_expect(strstr(text, "table = register") != NULL);
    MsSource *ref = ms_permutation_source(algs[k], h, &err);
    MsSource *cmp = ms_trace_open_memory(text, strlen(text), "compact.json", &err);
    expect_same_stream(ref, cmp, algs[k]);
    ms_source_free(ref);
    ms_source_free(cmp);
    g_free(text);
    g_hash_table_unref(h);
  }
  GHashTable *h = params_of("random", "1024", "32", "1");
  GError *err = NULL;
  g_hash_table_insert(h, "table", "global");
  cr_expect_null(ms_permutation_source("d-designated", h, &err));
  cr_expect(err && strstr(err->message, "is not shared, register or packed"));
  g_clear_error(&err);
  g_hash_table_insert(h, "table", "register");
  cr_expect_null(ms_permutation_source("hmm-d-designated", h, &err));
  cr_expect(err && strstr(err->message, "DMM algorithms"));
  g_clear_error(&err);
  g_hash_table_insert(h, "table", "shared");
  MsSource *s = ms_permutation_source("hmm-d-designated", h, &err);
  cr_expect_not_null(s, "%s", err ? err->message : "");
  ms_source_free(s);
  g_hash_table_unref(h);
}

/* ---- packed row-wise tables (--table packed: kernels/permutation.cu's hmm-scheduled) ---- */

/* The kernel's hmm_row_wise reads one word s | d << 16 per element, after the barrier, and the
 * five kernels pass the data through two scratch arrays in turn: 13 coalesced rounds (10 move
 * elements, 3 read the packed tables) where the paper's layout has 16, and a global footprint
 * of 4 data arrays and 3 tables where the paper's has 6 and 6. */
Test(table_packed, scheduled_reads_one_table_word_per_row_wise_element) {
  static const struct { guint32 w; guint64 nbar; } sz[] = {{4, 4}, {4, 8}, {8, 24}, {32, 64}};
  const char *perms[] = {"random", "identical", "transpose"};
  for (gsize a = 0; a < G_N_ELEMENTS(sz); a++)
    for (int k = 0; k < 3; k++)
      for (guint64 ew = 1; ew <= 2; ew++) {
        g_autoptr(MsModel) m = ms_model_new(MS_MODEL_ASYNC_HMM, sz[a].w, 1, 4, 1, 50);
        guint64 n = sz[a].nbar * sz[a].nbar, rounds = n / sz[a].w;
        gchar *ns = g_strdup_printf("%" G_GUINT64_FORMAT, n), *ws = g_strdup_printf("%u", sz[a].w),
              *es = g_strdup_printf("%" G_GUINT64_FORMAT, ew);
        GHashTable *h = params_of(perms[k], ns, ws, es);
        g_hash_table_insert(h, "table", "packed");
        GError *err = NULL;
        MsSource *s = ms_permutation_source("hmm-scheduled", h, &err);
        cr_assert_not_null(s, "%s", err ? err->message : "");
        cr_expect_eq(ms_source_global_words(s), 4 * n * ew + 3 * n);
        MsSimOptions o = {0};
        MsResult *r = ms_simulate(m, s, &o, &err);
        cr_assert_not_null(r, "%s", err ? err->message : "");
        cr_expect_eq(r->global.dispatches, 13 * rounds);
        cr_expect_eq(r->global.stages, (10 * ew + 3) * rounds, "w=%u nbar=%" G_GUINT64_FORMAT, sz[a].w, sz[a].nbar);
        cr_expect_eq(r->shared.dispatches, 16 * rounds);
        cr_expect_eq(r->grid_barriers, 4);
        ms_result_free(r);
        ms_source_free(s);
        /* the compact text is the same trace, with tables sd1 .. sd3 */
        gchar *text = ms_permutation_compact("hmm-scheduled", h, NULL, &err);
        cr_assert_not_null(text, "%s", err ? err->message : "");
        cr_expect(strstr(text, "\"sd3\"") && !strstr(text, "\"d1\"") && strstr(text, "table = packed"));
        MsSource *ref = ms_permutation_source("hmm-scheduled", h, &err);
        MsSource *cmp = ms_trace_open_memory(text, strlen(text), "compact.json", &err);
        cr_assert_not_null(cmp, "%s", err ? err->message : "");
        expect_same_stream(ref, cmp, "hmm-scheduled packed");
        ms_source_free(ref);
        ms_source_free(cmp);
        g_free(text);
        g_hash_table_unref(h);
        g_free(ns);
        g_free(ws);
        g_free(es);
      }
}

Test(table_packed, refused_without_row_wise_kernels) {
  GHashTable *h = params_of("random", "1024", "32", "1");
  g_hash_table_insert(h, "table", "packed");
  GError *err = NULL;
  cr_expect_null(ms_permutation_source("hmm-d-designated", h, &err));
  cr_expect(err && strstr(err->message, "--table packed is for the HMM algorithms with row-wise kernels"));
  g_clear_error(&err);
  cr_expect_null(ms_permutation_source("conflict-free", h, &err));
  cr_expect(err && strstr(err->message, "row-wise kernels"));
  g_clear_error(&err);
  g_hash_table_unref(h);
}

/* ---- column strips (--column strips: kernels/permutation.cu's hmm-scheduled since
 * 2026-11-25) ---- */

/* Three kernels: two row-wise ones (data read, packed table word, data written: 3 coalesced
 * rounds each; four shared rounds in place) and one column kernel over strips of C columns
 * (a warp's w lanes are w / C rows of C consecutive words: w / C groups per round, two data
 * rounds and one table round; four shared rounds). Every shared round is conflict-free (the
 * rotation by c w / C, the conflict-free tables), and every element lands (the generator
 * verifies its own trace, so a source at all means b[P(i)] = a[i]). */
Test(column_strips, scheduled_three_kernels_counted) {
  static const struct { guint32 w; guint64 nbar, C; } sz[] = {
      {4, 8, 2}, {4, 8, 4}, {8, 24, 8}, {32, 64, 16}, {32, 256, 8}};
  const char *perms[] = {"random", "identical", "transpose", "bit-reversal"};
  for (gsize a = 0; a < G_N_ELEMENTS(sz); a++)
    for (int k = 0; k < 4; k++)
      for (guint64 ew = 1; ew <= 2; ew++) {
        if (k == 3 && sz[a].nbar == 24) continue; /* bit-reversal needs a power of two */
        g_autoptr(MsModel) m = ms_model_new(MS_MODEL_ASYNC_HMM, sz[a].w, 1, 4, 1, 50);
        guint64 n = sz[a].nbar * sz[a].nbar, rounds = n / sz[a].w, C = sz[a].C;
        gchar *ns = g_strdup_printf("%" G_GUINT64_FORMAT, n), *ws = g_strdup_printf("%u", sz[a].w),
              *es = g_strdup_printf("%" G_GUINT64_FORMAT, ew), *cs = g_strdup_printf("%" G_GUINT64_FORMAT, C);
        GHashTable *h = params_of(perms[k], ns, ws, es);
        g_hash_table_insert(h, "table", "packed");
        g_hash_table_insert(h, "column", "strips");
        g_hash_table_insert(h, "strip", cs);
        GError *err = NULL;
        MsSource *s = ms_permutation_source("hmm-scheduled", h, &err);
        cr_assert_not_null(s, "w=%u nbar=%" G_GUINT64_FORMAT " C=%" G_GUINT64_FORMAT ": %s", sz[a].w, sz[a].nbar, C,
                           err ? err->message : "");
        cr_expect_eq(ms_source_global_words(s), 4 * n * ew + 3 * n);
        MsSimOptions o = {0};
        MsResult *r = ms_simulate(m, s, &o, &err);
        cr_assert_not_null(r, "%s", err ? err->message : "");
        cr_expect_eq(r->global.dispatches, 9 * rounds);
        /* a strip's row piece is C ew words: one group, or ew groups where C = w */
        guint64 piece = (C * ew + sz[a].w - 1) / sz[a].w;
        cr_expect_eq(r->global.stages, (4 * ew + 2 + 2 * (sz[a].w / C) * piece + 1) * rounds, "w=%u nbar=%" G_GUINT64_FORMAT " C=%" G_GUINT64_FORMAT,
                     sz[a].w, sz[a].nbar, C);
        cr_expect_eq(r->shared.dispatches, 12 * rounds);
        if (ew == 1) cr_expect_eq(r->shared.stages, r->shared.dispatches, "bank conflicts: w=%u C=%" G_GUINT64_FORMAT, sz[a].w, C);
        cr_expect_eq(r->grid_barriers, 2);
        ms_result_free(r);
        ms_source_free(s);
        g_hash_table_unref(h);
        g_free(ns);
        g_free(ws);
        g_free(es);
        g_free(cs);
      }
}

Test(column_strips, refused_where_they_do_not_apply) {
  static const struct { const char *alg, *table, *column, *strip, *msg; } bad[] = {
      {"hmm-scheduled", "packed", "rows", NULL, "--column: \"rows\" is not transpose or strips"},
      {"hmm-d-designated", "packed", "strips", NULL, "--table packed is for the HMM algorithms with row-wise kernels"},
      {"hmm-row-wise", "packed", "strips", NULL, "--column strips is for the algorithms with a column round"},
      {"hmm-scheduled", NULL, "strips", NULL, "--column strips goes with --table packed"},
      {"hmm-scheduled", "packed", NULL, "8", "--strip goes with --column strips"},
      {"hmm-scheduled", "packed", "strips", "3", "column strips of 3: need C to divide w = 32"},
      {"hmm-scheduled", "packed", "strips", "64", "column strips of 64: need C to divide w = 32"},
  };
  for (gsize k = 0; k < G_N_ELEMENTS(bad); k++) {
    GHashTable *h = params_of("random", "65536", "32", "1");
    if (bad[k].table) g_hash_table_insert(h, "table", (char *)bad[k].table);
    if (bad[k].column) g_hash_table_insert(h, "column", (char *)bad[k].column);
    if (bad[k].strip) g_hash_table_insert(h, "strip", (char *)bad[k].strip);
    GError *err = NULL;
    cr_expect_null(ms_permutation_source(bad[k].alg, h, &err), "case %zu", k);
    cr_expect(err && strstr(err->message, bad[k].msg), "case %zu: %s", k, err ? err->message : "(no error)");
    g_clear_error(&err);
    g_hash_table_unref(h);
  }
  /* no compact form: the steps hold several elements per thread */
  GHashTable *h = params_of("random", "65536", "32", "1");
  g_hash_table_insert(h, "table", "packed");
  g_hash_table_insert(h, "column", "strips");
  GError *err = NULL;
  cr_expect_null(ms_permutation_compact("hmm-scheduled", h, NULL, &err));
  cr_expect(err && strstr(err->message, "--column strips has no compact form"));
  g_clear_error(&err);
  g_hash_table_unref(h);
}

/* hmm-column-wise with strips: one kernel moves each element down its column. */
Test(column_strips, column_wise_one_kernel) {
  GHashTable *h = params_of("identical", "65536", "32", "1");
  g_hash_table_insert(h, "table", "packed");
  g_hash_table_insert(h, "column", "strips");
  GError *err = NULL;
  MsSource *s = ms_permutation_source("hmm-column-wise", h, &err);
  cr_assert_not_null(s, "%s", err ? err->message : "");
  g_autoptr(MsModel) m = ms_model_new(MS_MODEL_ASYNC_HMM, 32, 1, 4, 1, 50);
  MsSimOptions o = {0};
  MsResult *r = ms_simulate(m, s, &o, &err);
  cr_assert_not_null(r, "%s", err ? err->message : "");
  cr_expect_eq(r->grid_barriers, 0);
  cr_expect_eq(r->global.dispatches, 3 * 65536 / 32);
  cr_expect_eq(r->global.stages, (2 * 4 + 1) * 65536 / 32);
  ms_result_free(r);
  ms_source_free(s);
  g_hash_table_unref(h);
}
