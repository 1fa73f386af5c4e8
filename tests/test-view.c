/* test-view.c: the classroom view (ms-view.h): the result is the engine's, every stage is
 * drawn where the view is small enough and the view is summarised beyond, the picture's
 * numbers are the result's, the file is self-contained and escapes what it quotes. */
#include "ms-test-util.h"
#include "ms-view.h"
#include <criterion/criterion.h>
#include <string.h>

static const gint64 fig33[8] = {7, 5, 15, 0, 10, 11, 12, 9};

typedef struct {
  const MtTrace *trace;
  const char *name;
  guint opened;
} Opener;

static MsSource *open_mt(gpointer data, GError **error) {
  (void)error;
  Opener *o = data;
  o->opened++;
  return mt_source(o->trace, o->name);
}

static MsView *view_of(const MsModel *m, const MtTrace *t, const char *name, const MsSimOptions *opt, Opener *o) {
  MsSimOptions none = {0};
  o->trace = t, o->name = name, o->opened = 0;
  GError *err = NULL;
  MsView *v = ms_view_simulate(m, open_mt, o, opt ? opt : &none, &err);
  cr_assert_not_null(v, "view failed: %s", err ? err->message : "?");
  return v;
}

static guint count(const char *hay, const char *needle) {
  guint n = 0;
  for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) n++;
  return n;
}

static MtTrace *fig33_trace(void) {
  MtTrace *t = mt_trace_new(8, 0);
  mt_mem_arr(t, MS_OP_READ, MS_SPACE_SHARED, fig33);
  return t;
}

Test(view, fig3_3_dmm_should_draw_every_stage_and_mark_bank_3) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_DMM, 4, 5);
  MtTrace *t = fig33_trace();
  Opener o;
  g_autoptr(MsView) v = view_of(m, t, "fig33.json", NULL, &o);
  cr_expect_null(ms_view_summarised(v));
  cr_expect_eq(o.opened, 1);
  const MsResult *r = ms_view_result(v);
  cr_expect_eq(r->time_units, 7);
  cr_expect_null(r->per_step, "per-step results were not asked for");
  cr_expect_null(r->events, "events were not asked for");
  g_autofree char *svg = ms_view_render(v, MS_VIEW_SVG);
  cr_expect(strstr(svg, "data-time-units=\"7\" data-stages=\"3\" data-dispatches=\"2\" data-requests=\"8\" "
                        "data-extra-stages=\"1\" data-round-sum=\"7\""), "totals: %.400s", svg);
  cr_expect_eq(count(svg, "data-d=\"1\""), 3, "one entry box per stage");
  cr_expect_eq(count(svg, "<rect class=\"st"), 15, "every depth of l = 5");
  cr_expect_eq(count(svg, "<rect class=\"st x\""), 5, "W0's second stage, at each depth");
  cr_expect_eq(count(svg, "class=\"req x\""), 2, "7 and 15 share bank 3");
  cr_expect(strstr(svg, "bank 3 holds 2 addresses: 7, 15"));
  cr_expect(strstr(svg, "idle 4 of 7 time units"));
  mt_trace_free(t);
}

Test(view, fig3_3_umm_should_mark_the_requests_outside_the_first_group) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 4, 5);
  MtTrace *t = fig33_trace();
  Opener o;
  g_autoptr(MsView) v = view_of(m, t, "fig33.json", NULL, &o);
  g_autofree char *svg = ms_view_render(v, MS_VIEW_SVG);
  cr_expect(strstr(svg, "data-time-units=\"9\" data-stages=\"5\""));
  cr_expect_eq(count(svg, "data-d=\"1\""), 5);
  /* W0: 7, 5 in group 1 (its first), 15 in 3, 0 in 0; W1: 10, 11, 9 in 2, 12 in 3 */
  cr_expect_eq(count(svg, "class=\"req x\""), 3);
  cr_expect(strstr(svg, "groups 1, 3, 0"));
  cr_expect(strstr(svg, "groups 2, 3"));
  mt_trace_free(t);
}

Test(view, should_keep_what_the_options_ask_for) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_DMM, 4, 5);
  MtTrace *t = fig33_trace();
  Opener o;
  MsSimOptions opt = {.per_step = TRUE, .max_events = MS_TIMELINE_MAX_EVENTS};
  g_autoptr(MsView) v = view_of(m, t, "fig33.json", &opt, &o);
  const MsResult *r = ms_view_result(v);
  cr_assert_not_null(r->per_step);
  cr_expect_eq(r->per_step->len, 1);
  cr_assert_not_null(r->events);
  cr_expect_eq(r->events->len, 2);
  g_autofree char *html = ms_view_render(v, MS_VIEW_HTML);
  cr_expect(strstr(html, "\"mode\":\"boxes\""));
  mt_trace_free(t);
}

static gint64 ident(guint64 i, gpointer data) {
  (void)data;
  return (gint64)i;
}

Test(view, many_dispatches_should_give_a_summarised_view_of_the_same_result) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 1, 1);
  MtTrace *t = mt_trace_new(MS_VIEW_MAX_DISPATCHES + 1, 0);
  mt_mem_fn(t, MS_OP_READ, MS_SPACE_GLOBAL, ident, NULL);
  Opener o;
  g_autoptr(MsView) v = view_of(m, t, "many.json", NULL, &o);
  cr_expect_eq(o.opened, 2, "the second run keeps the per-step results only");
  cr_expect_str_eq(ms_view_summarised(v), "more than 4000 dispatches");
  g_autoptr(MsResult) direct = mt_run(m, t, NULL);
  const MsResult *r = ms_view_result(v);
  cr_expect_eq(r->time_units, direct->time_units);
  cr_expect_eq(r->stages, direct->stages);
  g_autofree char *svg = ms_view_render(v, MS_VIEW_SVG);
  cr_expect(strstr(svg, "data-mode=\"summary\""));
  g_autofree char *want = g_strdup_printf("data-time-units=\"%" G_GUINT64_FORMAT "\"", direct->time_units);
  cr_expect(strstr(svg, want));
  cr_expect_eq(count(svg, "class=\"bin\""), 1, "one step, one bar");
  g_autofree char *html = ms_view_render(v, MS_VIEW_HTML);
  cr_expect(strstr(html, "\"mode\":\"summary\""));
  mt_trace_free(t);
}

Test(view, too_many_requests_to_list_should_summarise) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_DMM, 32, 1);
  MtTrace *t = mt_trace_new(MS_VIEW_MAX_ADDRESSES + 32, 0);
  mt_mem_fn(t, MS_OP_READ, MS_SPACE_SHARED, ident, NULL);
  Opener o;
  g_autoptr(MsView) v = view_of(m, t, "wide.json", NULL, &o);
  cr_expect_eq(o.opened, 1);
  cr_expect_str_eq(ms_view_summarised(v), "more than 8192 thread requests to list");
  mt_trace_free(t);
}

Test(view, long_latency_should_summarise_past_the_time_limit) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 4, MS_VIEW_MAX_TIME_UNITS + 10);
  MtTrace *t = fig33_trace();
  Opener o;
  g_autoptr(MsView) v = view_of(m, t, "fig33.json", NULL, &o);
  cr_expect_str_eq(ms_view_summarised(v), "2014 time units, more than 2000");
  mt_trace_free(t);
}

/* A source of endless barriers. */
static MsNext syncs_next(gpointer self, MsStep *step, GError **error) {
  (void)self, (void)error;
  step->op = MS_OP_SYNC;
  step->scope = MS_SCOPE_GRID;
  return MS_NEXT_STEP;
}
static gboolean syncs_fill(gpointer self, guint64 first, guint64 count, gint64 *addr, GError **error) {
  (void)self, (void)first, (void)count, (void)addr, (void)error;
  return TRUE;
}
static MsSource *open_syncs(gpointer data, GError **error) {
  (void)data, (void)error;
  static const MsSourceFuncs f = {syncs_next, syncs_fill, NULL, NULL, NULL};
  return ms_source_new("endless.json", 4, 4, &f, NULL);
}

Test(view, too_many_steps_should_be_refused_naming_the_limit, .timeout = 60) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_DMM, 4, 1);
  MsSimOptions opt = {0};
  GError *err = NULL;
  MsView *v = ms_view_simulate(m, open_syncs, NULL, &opt, &err);
  cr_assert_null(v);
  cr_assert_not_null(err);
  cr_expect_eq(err->code, MS_ERROR_LIMIT);
  cr_expect_str_eq(err->message,
                   "endless.json: more than 1000000 steps: too long for a view (try --per-step, or a shorter trace)");
  g_error_free(err);
}

Test(view, hmm_should_draw_each_busy_pipeline_and_the_barriers) {
  g_autoptr(MsModel) m = mt_hmm(MS_MODEL_HMM, 4, 2, 2, 5);
  MtTrace *t = mt_trace_new(16, 4);
  mt_mem_fn(t, MS_OP_READ, MS_SPACE_GLOBAL, ident, NULL);
  mt_sync(t, MS_SCOPE_BLOCK);
  mt_mem_fn(t, MS_OP_WRITE, MS_SPACE_SHARED, ident, NULL);
  mt_sync(t, MS_SCOPE_GRID);
  mt_mem_fn(t, MS_OP_WRITE, MS_SPACE_GLOBAL, ident, NULL);
  Opener o;
  g_autoptr(MsView) v = view_of(m, t, "hmm.json", NULL, &o);
  cr_expect_null(ms_view_summarised(v));
  g_autofree char *svg = ms_view_render(v, MS_VIEW_SVG);
  for (int p = 0; p < 3; p++) {
    g_autofree char *lane = g_strdup_printf("<g class=\"pipe\" data-p=\"%d\"", p);
    cr_expect(strstr(svg, lane), "no lane %d", p);
  }
  cr_expect_eq(count(svg, "<line class=\"gbar\""), 1);
  cr_expect_geq(count(svg, "<line class=\"bbar\""), 1);
  cr_expect_eq(count(svg, "data-d=\"1\""), ms_view_result(v)->stages);
  mt_trace_free(t);
}

Test(view, should_escape_the_file_name_and_need_no_network) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_DMM, 4, 5);
  MtTrace *t = fig33_trace();
  Opener o;
  g_autoptr(MsView) v = view_of(m, t, "dir/a<b>&c\"d.json", NULL, &o);
  g_autofree char *html = ms_view_render(v, MS_VIEW_HTML);
  cr_expect(strstr(html, "a&lt;b&gt;&amp;c&quot;d.json"));
  cr_expect_null(strstr(html, "<b>"));
  cr_expect_eq(count(html, "</script>"), 3, "the error hook, the data and the script");
  /* the SVG namespace is a name, not a fetch; nothing else may point outside the file */
  cr_expect_eq(count(html, "http"), 1);
  cr_expect_null(strstr(html, "src="));
  cr_expect_null(strstr(html, "href="));
  cr_expect_null(strstr(html, "@import"));
  mt_trace_free(t);
}

Test(view, format_should_follow_the_file_name) {
  MsViewFormat f;
  GError *err = NULL;
  cr_expect(ms_view_format_from_path("a/b.HTML", &f, NULL) && f == MS_VIEW_HTML);
  cr_expect(ms_view_format_from_path("b.htm", &f, NULL) && f == MS_VIEW_HTML);
  cr_expect(ms_view_format_from_path("fig.svg", &f, NULL) && f == MS_VIEW_SVG);
  cr_assert_not(ms_view_format_from_path("fig.png", &f, &err));
  cr_expect_str_eq(err->message, "--view: fig.png: expected a file name ending in .html (the page) or .svg (the picture)");
  g_error_free(err);
}

Test(view, the_callers_event_limit_should_hold_as_in_ms_simulate) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_DMM, 4, 5);
  MtTrace *t = fig33_trace();
  Opener o = {t, "fig33.json", 0};
  MsSimOptions opt = {.max_events = 1};
  GError *err = NULL;
  MsView *v = ms_view_simulate(m, open_mt, &o, &opt, &err);
  cr_assert_null(v);
  cr_expect_str_eq(err->message, "fig33.json: more than 1 dispatches: too large to draw a timeline");
  g_error_free(err);
  mt_trace_free(t);
}

Test(view, kernel_boundaries_should_be_lines_with_the_launch_shaded) {
  g_autoptr(MsModel) m = mt_hmm(MS_MODEL_ASYNC_HMM, 4, 2, 2, 5);
  m->launch_units = 3;
  MtTrace *t = mt_trace_new(8, 4);
  mt_mem_fn(t, MS_OP_READ, MS_SPACE_GLOBAL, ident, NULL);
  mt_sync(t, MS_SCOPE_GRID);
  mt_mem_fn(t, MS_OP_READ, MS_SPACE_GLOBAL, ident, NULL);
  Opener o;
  g_autoptr(MsView) v = view_of(m, t, "kernels.json", NULL, &o);
  /* kernel 1 from 3: stages at 3, 4, complete at 8; kernel 2 from 9 + 3: stages at 12, 13 */
  cr_expect_eq(ms_view_result(v)->time_units, 18);
  g_autofree char *svg = ms_view_render(v, MS_VIEW_SVG);
  cr_expect_eq(count(svg, "<line class=\"kernel\" data-t=\"9\""), 1);
  cr_expect_eq(count(svg, "<rect class=\"launch\""), 2, "before each kernel");
  cr_expect(strstr(svg, "step 1: sync, grid barrier (a kernel boundary)"));
  mt_trace_free(t);
}

Test(view, a_global_rate_should_put_several_stages_in_a_time_unit) {
  g_autoptr(MsModel) m = mt_model(MS_MODEL_UMM, 4, 5);
  m->global_rate = 2;
  MtTrace *t = fig33_trace();
  Opener o;
  g_autoptr(MsView) v = view_of(m, t, "fig33.json", NULL, &o);
  cr_expect_eq(ms_view_result(v)->time_units, 7);
  g_autofree char *svg = ms_view_render(v, MS_VIEW_SVG);
  cr_expect_eq(count(svg, "data-d=\"1\""), 5);
  cr_expect_eq(count(svg, "data-c=\"0\" data-d=\"1\""), 2, "slots 0 and 1 enter at t = 0");
  cr_expect(strstr(svg, "2 stages enter per time unit"));
  mt_trace_free(t);
}
