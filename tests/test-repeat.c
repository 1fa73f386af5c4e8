/* test-repeat.c: repeated blocks (docs/performance.md).  Where a step's blocks are one
 * block's addresses shifted, the engine counts one block per shift class and copies the
 * rest; the result must be the one of filling every block, to the unit, and a trace that
 * fails must fail with the same message.  Random compact traces mix expressions the
 * reuse applies to (F(bid) + G(ltid), predicates of ranges, blocks and lanes) with ones it
 * does not (tid % C, products of bid and ltid, data arrays), on every model kind with and
 * without the GPU extensions. */
#include "memsim.h"
#include <criterion/criterion.h>
#include <string.h>

/* terms of an address: separable ones first */
static const char *const sep_terms[] = {
    "ltid", "ltid % 7", "ltid / 3", "(ltid * 5) % 11", "bid * 3", "bid % 4 * 9", "bid / 2 * 5", "tid",
    "tid * 2", "k * 3", "(ltid + k) % 5", "bid * bt", "(bid % 3) * 32 + ltid % 32", "ltid << 1",
    "(bid / 3 + ltid / 8) * 16", "min(ltid, 9)", "(k + bid) * 4", "ltid % 32 * 33",
};
static const char *const other_terms[] = {"tid % 13", "bid * 288230376151711744 + ltid * 288230376151711744", "bid * ltid", "(tid % 3) * 8", "ltid * tid / 4", "(bid * ltid) % 17", "p[ltid % 8]", "p[bid % 8]",
                                          "(tid / 5) % 7", "bid * ltid / 64"};
/* conjuncts of a predicate: ranges, block-uniform, of ltid alone, then others */
static const char *const conjs[] = {"tid < T1",       "tid >= T0",     "bid % 3 != 1", "bid > 1",
                                    "ltid < 24",      "ltid % 2 == 0", "k + bid < 9",  "ltid >= k",
                                    "tid % 5 != 0",   "bid < 7 || ltid < 3"};

static char *random_expr(GRand *g, gboolean *sep) {
  GString *s = g_string_new(NULL);
  guint n = (guint)g_rand_int_range(g, 1, 4);
  *sep = TRUE;
  for (guint i = 0; i < n; i++) {
    const char *t;
    if (g_rand_int_range(g, 0, 5) == 0) {
      t = other_terms[g_rand_int_range(g, 0, G_N_ELEMENTS(other_terms))];
      *sep = FALSE;
    } else {
      t = sep_terms[g_rand_int_range(g, 0, G_N_ELEMENTS(sep_terms))];
    }
    g_string_append_printf(s, "%s(%s)", i ? " + " : "", t);
  }
  return g_string_free(s, FALSE);
}

/* instruction counts of a compute step: uniform, or of the block or the lane (some blocks
 * the same as others, some not); 0 is out of range (an error) */
static const char *const instr_terms[] = {"1", "3", "1 + (k + bid) % 3", "1 + ltid % 4", "2 + bid / 5", "(bid % 2) * 2 + 1",
                                          "1 + (bid + ltid) % 2", "bid % 7"};

static char *random_trace_comp(GRand *g, guint w, gboolean bad_ok, gboolean comp_ok);
static char *random_trace(GRand *g, guint w, gboolean bad_ok) { return random_trace_comp(g, w, bad_ok, FALSE); }

/* comp_ok: also compute steps (draws the generator only then, so the traces of the tests
 * without them stay as they were) */
static char *random_trace_comp(GRand *g, guint w, gboolean bad_ok, gboolean comp_ok) {
  const guint64 bt = (guint64)w * (guint64)g_rand_int_range(g, 1, 5);
  const guint64 blocks = (guint64)g_rand_int_range(g, 2, 24);
  guint64 threads = bt * blocks;
  if (g_rand_int_range(g, 0, 4) == 0) threads -= (guint64)g_rand_int_range(g, 1, (gint32)bt); /* a partial last block */
  /* the array: long enough for every address, or sometimes not (an error in a late block) */
  guint64 alen = bad_ok && g_rand_int_range(g, 0, 6) == 0 ? (guint64)g_rand_int_range(g, 50, 400) : 1u << 20;
  GString *s = g_string_new(NULL);
  g_string_append_printf(s,
                         "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":%" G_GUINT64_FORMAT
                         ",\"block_threads\":%" G_GUINT64_FORMAT ",\"constants\":{\"bt\":%" G_GUINT64_FORMAT
                         ",\"T0\":%d,\"T1\":%" G_GUINT64_FORMAT "},"
                         "\"arrays\":{\"a\":{\"base\":%d,\"length\":%" G_GUINT64_FORMAT
                         "},\"p\":{\"data\":[3,1,4,1,5,9,2,6]}},\"steps\":[{\"repeat\":%d,\"var\":\"k\",\"steps\":[",
                         threads, bt, bt, g_rand_int_range(g, 0, (gint32)(2 * bt)),
                         threads - (guint64)g_rand_int_range(g, 0, (gint32)(2 * bt)), g_rand_int_range(g, 0, 3) * 100,
                         alen, g_rand_int_range(g, 1, 4));
  guint nsteps = (guint)g_rand_int_range(g, 1, 7);
  for (guint i = 0; i < nsteps; i++) {
    if (i) g_string_append_c(s, ',');
    if (g_rand_int_range(g, 0, 8) == 0) {
      g_string_append_printf(s, "{\"op\":\"sync\",\"scope\":\"%s\"}", g_rand_boolean(g) ? "block" : "grid");
      continue;
    }
    if (comp_ok && g_rand_int_range(g, 0, 3) == 0) {
      const guint nt = bad_ok ? G_N_ELEMENTS(instr_terms) : G_N_ELEMENTS(instr_terms) - 1;
      g_string_append_printf(s, "{\"op\":\"compute\",\"instructions\":\"%s\"", instr_terms[g_rand_int_range(g, 0, (gint32)nt)]);
      guint nc = (guint)g_rand_int_range(g, 0, 3);
      for (guint c = 0; c < nc; c++)
        g_string_append_printf(s, "%s%s", c ? " && " : ",\"when\":\"", conjs[g_rand_int_range(g, 0, G_N_ELEMENTS(conjs))]);
      g_string_append_printf(s, "%s}", nc ? "\"" : "");
      continue;
    }
    gboolean sep;
    g_autofree char *e = random_expr(g, &sep);
    const gboolean arr = g_rand_boolean(g);
    g_string_append_printf(s, "{\"op\":\"%s\",\"space\":\"%s\",\"addr\":\"%s%s%s\"",
                           g_rand_boolean(g) ? "read" : "write", g_rand_boolean(g) ? "global" : "shared",
                           arr ? "a[" : "", e, arr ? "]" : "");
    guint nc = (guint)g_rand_int_range(g, 0, 4);
    for (guint c = 0; c < nc; c++)
      g_string_append_printf(s, "%s%s", c ? " && " : ",\"when\":\"", conjs[g_rand_int_range(g, 0, G_N_ELEMENTS(conjs))]);
    g_string_append_printf(s, "%s}", nc ? "\"" : "");
  }
  g_string_append(s, "]}]}");
  return g_string_free(s, FALSE);
}

static MsModel *random_model(GRand *g, gboolean ext) {
  static const guint widths[] = {2, 4, 8, 32};
  MsModelKind kind = (MsModelKind)g_rand_int_range(g, 0, 4);
  guint w = widths[g_rand_int_range(g, 0, G_N_ELEMENTS(widths))];
  MsModel *m;
  if (kind == MS_MODEL_HMM || kind == MS_MODEL_ASYNC_HMM)
    m = ms_model_new(kind, w, 0, (guint32)g_rand_int_range(g, 1, 5), (guint64)g_rand_int_range(g, 1, 9),
                     (guint64)g_rand_int_range(g, 1, 9));
  else
    m = ms_model_new(kind, w, (guint64)g_rand_int_range(g, 1, 9), 1, 0, 0);
  if (kind != MS_MODEL_DMM && g_rand_int_range(g, 0, 3) == 0) m->group_words = (guint64)g_rand_int_range(g, 1, 12);
  if (ext) {
    if (kind != MS_MODEL_DMM) m->global_rate = (guint32)g_rand_int_range(g, 1, 4);
    if (kind != MS_MODEL_DMM && g_rand_boolean(g)) m->partial_write_stages = (guint32)g_rand_int_range(g, 1, 4);
    if (ms_model_is_hmm(m) && g_rand_boolean(g)) m->resident_blocks = (guint64)g_rand_int_range(g, 1, 4);
    if (g_rand_boolean(g)) m->read_window = (guint32)g_rand_int_range(g, 1, 4);
    if (g_rand_boolean(g)) m->posted_writes = TRUE;
  }
  return m;
}

static MsResult *run(const MsModel *m, const char *text, gboolean every, guint threads, GError **err) {
  MsSource *src = ms_trace_open_memory(text, strlen(text), "r.json", err);
  if (!src) return NULL;
  MsSimOptions opt = {.per_step = TRUE, .threads = threads, .fill_every_block = every};
  MsResult *r = ms_simulate(m, src, &opt, err);
  ms_source_free(src);
  return r;
}

/* The same with compute steps (whose blocks repeat only unshifted) and an L2 cache (whose
 * pass takes the repeated blocks' addresses from the reference block and skips warps with
 * no request): the cache's counts too. */
Test(repeat, reuse_with_compute_steps_and_an_l2_cache_should_give_the_result_of_filling_every_block) {
  GRand *g = g_rand_new_with_seed(20261127u);
  guint reused = 0, failed = 0, total = 0, cached = 0, computed = 0;
  for (guint it = 0; it < 2000; it++) {
    MsModel *m = random_model(g, it % 2);
    if (m->kind != MS_MODEL_DMM && g_rand_int_range(g, 0, 4)) {
      m->l2_ways = (guint32)g_rand_int_range(g, 1, 5);
      m->l2_words = (guint64)g_rand_int_range(g, 16, 400);
      m->l2_latency = (guint64)g_rand_int_range(g, 1, 9);
      m->l2_rate = (guint32)g_rand_int_range(g, 1, 4);
      if (g_rand_boolean(g)) m->l2_partial_write_stages = (guint32)g_rand_int_range(g, 1, 3);
    }
    if (g_rand_boolean(g)) m->instruction_units = (guint32)g_rand_int_range(g, 1, 5);
    g_autofree char *text = random_trace_comp(g, m->width, TRUE, TRUE);
    GError *e1 = NULL, *e2 = NULL;
    MsResult *a = run(m, text, TRUE, 1, &e1);
    MsResult *b = run(m, text, FALSE, 1 + it % 3, &e2);
    cr_assert_eq(a == NULL, b == NULL, "it %u: one run failed (%s)\n%s", it, e1 ? e1->message : e2->message, text);
    if (!a) {
      cr_assert_str_eq(e1->message, e2->message, "it %u\n%s", it, text);
      failed++;
    } else {
      cr_assert_eq(a->repeated_blocks, 0);
      cr_assert_eq(a->time_units, b->time_units, "it %u\n%s", it, text);
      cr_assert_eq(a->stages, b->stages, "it %u", it);
      cr_assert_eq(a->requests, b->requests, "it %u", it);
      cr_assert_eq(a->dispatches, b->dispatches, "it %u", it);
      cr_assert_eq(a->instructions, b->instructions, "it %u", it);
      cr_assert_eq(a->compute_steps, b->compute_steps, "it %u", it);
      cr_assert_eq(a->l2_hits, b->l2_hits, "it %u\n%s", it, text);
      cr_assert_eq(a->l2_misses, b->l2_misses, "it %u", it);
      cr_assert_eq(a->dram_stages, b->dram_stages, "it %u", it);
      cr_assert_eq(a->round_sum, b->round_sum, "it %u\n%s", it, text);
      cr_assert_eq(a->global_busy, b->global_busy, "it %u", it);
      cr_assert_eq(a->shared_busy, b->shared_busy, "it %u", it);
      cr_assert_eq(a->per_step->len, b->per_step->len, "it %u", it);
      cr_assert(memcmp(a->per_step->data, b->per_step->data, a->per_step->len * sizeof(MsStepResult)) == 0,
                "it %u\n%s", it, text);
      reused += b->repeated_blocks > 0;
      cached += b->l2_hits + b->l2_misses > 0 && b->repeated_blocks > 0;
      computed += b->instructions > 0 && b->repeated_blocks > 0;
      total++;
    }
    g_clear_error(&e1);
    g_clear_error(&e2);
    ms_result_free(a);
    ms_result_free(b);
    ms_model_free(m);
  }
  cr_log_info("reuse in %u of %u traces (%u with the cache, %u with compute steps), %u failing", reused, total, cached,
              computed, failed);
  cr_expect_gt(reused, total / 3, "reuse taken in %u of %u traces", reused, total);
  cr_expect_gt(cached, total / 10, "reuse with the cache in %u of %u traces", cached, total);
  cr_expect_gt(computed, total / 10, "reuse with compute steps in %u of %u traces", computed, total);
  cr_expect_gt(failed, 30, "only %u failing traces", failed);
  g_rand_free(g);
}

Test(repeat, reuse_should_give_the_result_of_filling_every_block) {
  GRand *g = g_rand_new_with_seed(20261124u);
  guint reused = 0, failed = 0, total = 0;
  for (guint it = 0; it < 3000; it++) {
    MsModel *m = random_model(g, it % 2);
    g_autofree char *text = random_trace(g, m->width, TRUE);
    GError *e1 = NULL, *e2 = NULL;
    MsResult *a = run(m, text, TRUE, 1, &e1);
    MsResult *b = run(m, text, FALSE, 1 + it % 3, &e2);
    cr_assert_eq(a == NULL, b == NULL, "it %u: one run failed (%s)\n%s", it, e1 ? e1->message : e2->message, text);
    if (!a) {
      cr_assert_str_eq(e1->message, e2->message, "it %u\n%s", it, text);
      failed++;
    } else {
      cr_assert_eq(a->repeated_blocks, 0);
      cr_assert_eq(a->time_units, b->time_units, "it %u\n%s", it, text);
      cr_assert_eq(a->stages, b->stages, "it %u", it);
      cr_assert_eq(a->requests, b->requests, "it %u", it);
      cr_assert_eq(a->dispatches, b->dispatches, "it %u", it);
      cr_assert_eq(a->round_sum, b->round_sum, "it %u\n%s", it, text);
      cr_assert_eq(a->global_busy, b->global_busy, "it %u", it);
      cr_assert_eq(a->shared_busy, b->shared_busy, "it %u", it);
      cr_assert_eq(a->per_step->len, b->per_step->len, "it %u", it);
      cr_assert(memcmp(a->per_step->data, b->per_step->data, a->per_step->len * sizeof(MsStepResult)) == 0,
                "it %u\n%s", it, text);
      reused += b->repeated_blocks > 0;
      total++;
    }
    g_clear_error(&e1);
    g_clear_error(&e2);
    ms_result_free(a);
    ms_result_free(b);
    ms_model_free(m);
  }
  cr_log_info("reuse in %u of %u traces, %u failing", reused, total, failed);
  /* the test means something only if both paths were taken often */
  cr_expect_gt(reused, total / 3, "reuse taken in %u of %u traces", reused, total);
  cr_expect_gt(failed, 50, "only %u failing traces", failed);
  g_rand_free(g);
}

/* More blocks than one block_shift batch (MS_BLOCK_BATCH): the batches' seams, a step whose
 * range starts mid-grid, idle blocks by a block-uniform test, and a late block out of the
 * array (its error must be the one of filling every block). */
Test(repeat, batches_of_blocks_give_the_same_result) {
  static const char *const steps[] = {
      "{\"op\":\"read\",\"addr\":\"a[bid * 40 + (ltid * 3) % 32]\"}",
      "{\"op\":\"write\",\"space\":\"shared\",\"addr\":\"(ltid % 8) * 32 + ltid / 8 + bid % 5\"}",
      "{\"op\":\"read\",\"addr\":\"a[tid * 2]\",\"when\":\"tid >= 70000 && bid % 7 != 3 && ltid < 20\"}",
      "{\"op\":\"write\",\"addr\":\"a[(bid / 3) * 96 + ltid]\",\"when\":\"bid % 3 == 1\"}",
  };
  const guint32 widths[] = {32, 8};
  for (gsize s = 0; s < G_N_ELEMENTS(steps); s++)
    for (gsize wi = 0; wi < G_N_ELEMENTS(widths); wi++)
      for (int bad = 0; bad < 2; bad++) {
        g_autofree char *text = g_strdup_printf(
            "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":%u,\"block_threads\":32,"
            "\"arrays\":{\"a\":{\"base\":0,\"length\":%u}},\"steps\":[%s]}",
            32u * 9000u, bad ? 300000u : 1u << 22, steps[s]);
        for (int kind = 0; kind < 4; kind++) {
          MsModel *m = kind >= 2 ? ms_model_new((MsModelKind)kind, widths[wi], 0, 3, 4, 9)
                                 : ms_model_new((MsModelKind)kind, widths[wi], 7, 1, 0, 0);
          GError *e1 = NULL, *e2 = NULL;
          MsResult *a = run(m, text, TRUE, 1, &e1), *b = run(m, text, FALSE, 1, &e2);
          cr_assert_eq(a == NULL, b == NULL, "step %zu kind %d: %s", s, kind, e1 ? e1->message : e2 ? e2->message : "");
          if (a) {
            cr_assert_eq(a->time_units, b->time_units, "step %zu kind %d w %u", s, kind, widths[wi]);
            cr_assert_eq(a->stages, b->stages);
            cr_assert_eq(a->requests, b->requests);
            cr_assert_eq(a->round_sum, b->round_sum);
            cr_assert_eq(a->per_step->len, b->per_step->len);
            cr_assert(memcmp(a->per_step->data, b->per_step->data, a->per_step->len * sizeof(MsStepResult)) == 0);
            cr_assert_gt(b->repeated_blocks, 2000u, "step %zu: %lu blocks copied", s, (unsigned long)b->repeated_blocks);
          } else {
            cr_assert_str_eq(e1->message, e2->message);
          }
          g_clear_error(&e1);
          g_clear_error(&e2);
          ms_result_free(a);
          ms_result_free(b);
          ms_model_free(m);
        }
      }
}
