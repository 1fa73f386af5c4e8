/* ms-view.c: the classroom view (ms-view.h).
 *
 * Design.  The engine reduces each step to stage counts and drops its addresses, so the view
 * puts a recorder between the trace and the engine: it copies each step's addresses (up to
 * MS_VIEW_MAX_ADDRESSES) while the engine reads them, and counts steps to refuse a trace
 * too long to view.  The first run also records the dispatch events (what --timeline
 * draws) up to MS_VIEW_MAX_DISPATCHES; a trace with more is run again without them and
 * summarised from its per-step results.  Either way the result is the engine's own: the
 * view never recomputes a count, it only draws the events (a stage entering at t sits at
 * depth d at time t + d - 1 and completes at depth l) and, for the colours and the red
 * marks, the bank (address mod w) or group (address / group_words) of each request.
 *
 * The SVG is static (CSS in it, no script) and carries the totals as data-* attributes on
 * its root; the HTML page inlines the same SVG and adds a slider, whose state also follows
 * the URL fragment #t=N so a headless browser can be asked for any time unit. */
#include "ms-view.h"
#include "ms-private.h"
#include <errno.h>
#include <math.h>
#include <string.h>

typedef struct {
  MsStep step;
  gint64 addr_off; /* its addresses in MsView.addrs; -1: sync step, or not recorded */
} ViewStep;

struct _MsView {
  MsModel *model;
  MsSource *source;
  MsResult *result;
  GArray *steps;    /* ViewStep, every step (detailed view) */
  GArray *addrs;    /* gint64, `threads` per recorded memory step */
  GArray *per_step; /* MsStepResult, every step */
  GArray *events;   /* MsEvent, NULL when not recorded */
  char *summarised; /* why the boxes are not drawn, NULL if they are */
};

/* ---- the recorder: a source in front of the trace ---- */

typedef struct {
  MsSource *inner; /* not owned */
  guint64 threads, steps;
  gboolean record, overflow, too_many;
  GArray *steps_rec, *addrs;
  gint64 cur_off;
} Recorder;

static MsNext rec_next(gpointer self, MsStep *step, GError **error) {
  Recorder *r = self;
  MsNext n = ms_source_next(r->inner, step, error);
  if (n != MS_NEXT_STEP) return n;
  if (++r->steps > MS_VIEW_MAX_STEPS) {
    r->too_many = TRUE;
    g_set_error(error, MS_ERROR, MS_ERROR_LIMIT,
                "%s: more than %d steps: too long for a view (try --per-step, or a shorter trace)",
                ms_source_name(r->inner), MS_VIEW_MAX_STEPS);
    return MS_NEXT_ERROR;
  }
  r->cur_off = -1;
  if (!r->record) return n;
  if (step->op != MS_OP_SYNC && !r->overflow) {
    if (r->addrs->len + r->threads > MS_VIEW_MAX_ADDRESSES) {
      r->overflow = TRUE; /* the engine goes on; only the listing is given up */
      g_array_set_size(r->addrs, 0);
    } else {
      r->cur_off = r->addrs->len;
      g_array_set_size(r->addrs, r->addrs->len + (guint)r->threads);
      gint64 *a = &g_array_index(r->addrs, gint64, r->cur_off);
      for (guint64 i = 0; i < r->threads; i++) a[i] = MS_ADDR_NONE; /* threads outside the active range */
    }
  }
  ViewStep vs = {*step, r->cur_off};
  g_array_append_val(r->steps_rec, vs);
  return n;
}

static gboolean rec_fill(gpointer self, guint64 first, guint64 count, gint64 *addr, GError **error) {
  Recorder *r = self;
  if (!ms_source_fill(r->inner, first, count, addr, error)) return FALSE;
  if (r->cur_off >= 0 && first < r->threads)
    memcpy(&g_array_index(r->addrs, gint64, (guint)r->cur_off + first), addr,
           MIN(count, r->threads - first) * sizeof(gint64));
  return TRUE;
}

static gboolean rec_fill_worker(gpointer self, guint worker, guint64 first, guint64 count, gint64 *addr,
                                GError **error) {
  Recorder *r = self; /* counting only: nothing to record, the trace's own workers fill */
  return ms_source_fill_worker(r->inner, worker, first, count, addr, error);
}

static void rec_active_range(gpointer self, guint64 *first, guint64 *end) {
  Recorder *r = self;
  ms_source_active_range(r->inner, first, end);
}

static void rec_destroy(gpointer self) {
  Recorder *r = self;
  if (r->steps_rec) g_array_free(r->steps_rec, TRUE);
  if (r->addrs) g_array_free(r->addrs, TRUE);
  g_free(r);
}

/* Recording copies addresses from one thread only, so it offers no fill_worker. */
static void rec_set_workers(gpointer self, guint n) { ms_source_set_workers(((Recorder *)self)->inner, n); }
static const MsSourceFuncs rec_funcs = {rec_next, rec_fill, rec_destroy, rec_active_range, .set_workers = rec_set_workers};
static const MsSourceFuncs count_funcs = {rec_next, rec_fill,         rec_destroy, rec_active_range, rec_fill_worker,
                                          NULL,     NULL,             rec_set_workers};

static MsSource *recorder_new(MsSource *inner, gboolean record, Recorder **out) {
  Recorder *r = g_new0(Recorder, 1);
  r->inner = inner;
  r->threads = ms_source_threads(inner);
  r->record = record;
  r->cur_off = -1;
  if (record) {
    r->steps_rec = g_array_new(FALSE, FALSE, sizeof(ViewStep));
    r->addrs = g_array_new(FALSE, FALSE, sizeof(gint64));
  }
  const MsSourceFuncs *f = record || !ms_source_has_fill_worker(inner) ? &rec_funcs : &count_funcs;
  MsSource *s = ms_source_new(ms_source_name(inner), r->threads, ms_source_block_threads(inner), f, r);
  ms_source_set_shared_words(s, ms_source_shared_words(inner));
  ms_source_set_global_words(s, ms_source_global_words(inner));
  *out = r;
  return s;
}

/* ---- simulation ---- */

static guint64 view_lanes(const MsView *v) {
  guint P = ms_model_pipelines(v->model);
  gboolean *used = g_new0(gboolean, P);
  guint64 n = 0;
  for (guint i = 0; i < v->events->len; i++) {
    guint p = g_array_index(v->events, MsEvent, i).pipeline;
    if (p < P && !used[p]) used[p] = TRUE, n++;
  }
  g_free(used);
  return n;
}

/* Why every stage cannot be drawn, or NULL. */
static char *summary_reason(const MsView *v, gboolean overflow) {
  const MsResult *r = v->result;
  if (!v->events)
    return g_strdup_printf("more than %d dispatches", MS_VIEW_MAX_DISPATCHES);
  if (r->time_units > MS_VIEW_MAX_TIME_UNITS)
    return g_strdup_printf("%" G_GUINT64_FORMAT " time units, more than %d", r->time_units, MS_VIEW_MAX_TIME_UNITS);
  if (r->stages > MS_VIEW_MAX_STAGES)
    return g_strdup_printf("%" G_GUINT64_FORMAT " stages, more than %d", r->stages, MS_VIEW_MAX_STAGES);
  if (v->per_step->len > MS_VIEW_MAX_LISTED_STEPS)
    return g_strdup_printf("%u steps, more than %d", v->per_step->len, MS_VIEW_MAX_LISTED_STEPS);
  if (overflow)
    return g_strdup_printf("more than %d thread requests to list", MS_VIEW_MAX_ADDRESSES);
  guint64 lanes = view_lanes(v);
  if (lanes > MS_VIEW_MAX_LANES)
    return g_strdup_printf("%" G_GUINT64_FORMAT " busy pipelines, more than %d", lanes, MS_VIEW_MAX_LANES);
  return NULL;
}

MsView *ms_view_simulate(const MsModel *model, MsViewOpenFunc open, gpointer data, const MsSimOptions *options,
                         GError **error) {
  MsSimOptions opt = *options;
  opt.per_step = TRUE;
  opt.max_events = MAX(options->max_events, (guint64)MS_VIEW_MAX_DISPATCHES);
  MsSource *src = open(data, error);
  if (!src) return NULL;
  Recorder *rec;
  MsSource *wrap = recorder_new(src, TRUE, &rec);
  GError *err = NULL;
  MsResult *res = ms_simulate(model, wrap, &opt, &err);
  gboolean overflow = rec->overflow;
  GArray *steps = NULL, *addrs = NULL;
  if (res) {
    steps = rec->steps_rec, addrs = rec->addrs;
    rec->steps_rec = rec->addrs = NULL;
  } else if (err->domain == MS_ERROR && err->code == MS_ERROR_LIMIT && !rec->too_many) {
    /* too many dispatches to record, most likely: again, per-step results only */
    g_clear_error(&err);
    ms_source_free(wrap);
    ms_source_free(src);
    wrap = NULL;
    if (!(src = open(data, error))) return NULL;
    wrap = recorder_new(src, FALSE, &rec);
    opt.max_events = options->max_events;
    res = ms_simulate(model, wrap, &opt, &err);
  }
  ms_source_free(wrap);
  if (res && options->max_events && res->events && res->events->len > options->max_events) {
    /* the caller's own limit (--timeline), as ms_simulate would have applied it */
    g_set_error(&err, MS_ERROR, MS_ERROR_LIMIT,
                "%s: more than %" G_GUINT64_FORMAT " dispatches: too large to draw a timeline", ms_source_name(src),
                options->max_events);
    g_clear_pointer(&res, ms_result_free);
    g_clear_pointer(&steps, g_array_unref);
    g_clear_pointer(&addrs, g_array_unref);
  }
  if (!res) {
    g_propagate_error(error, err);
    ms_source_free(src);
    return NULL;
  }
  MsView *v = g_new0(MsView, 1);
  v->model = ms_model_copy(model);
  v->source = src;
  v->result = res;
  v->per_step = res->per_step;
  if (!options->per_step) res->per_step = NULL; /* the view keeps them; the result is as asked */
  else v->per_step = g_array_copy(res->per_step);
  if (steps) { /* the first run: events recorded */
    v->events = res->events;
    if (!options->max_events) res->events = NULL;
    else v->events = g_array_copy(res->events);
  }
  v->steps = steps ? steps : g_array_new(FALSE, FALSE, sizeof(ViewStep));
  v->addrs = addrs ? addrs : g_array_new(FALSE, FALSE, sizeof(gint64));
  v->summarised = summary_reason(v, overflow);
  return v;
}

static MsSource *open_path(gpointer data, GError **error) { return ms_trace_open(data, error); }

typedef struct {
  char *data;
  gsize len;
} Bytes;

static MsSource *open_stdin(gpointer data, GError **error) {
  Bytes *b = data;
  return ms_trace_open_memory(b->data, b->len, "-", error);
}

MsView *ms_view_simulate_file(const MsModel *model, const char *path, const MsSimOptions *options,
                              GError **error) {
  if (strcmp(path, "-") != 0) return ms_view_simulate(model, open_path, (gpointer)path, options, error);
  /* standard input cannot be read twice: keep it */
  Bytes hold;
  GString *buf = g_string_new(NULL);
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0) {
    if (buf->len + n > ms_memory_limit() / 2) {
      g_set_error(error, MS_ERROR, MS_ERROR_LIMIT, "-: standard input is larger than half the memory (%" G_GUINT64_FORMAT
                  " bytes)", ms_memory_limit() / 2);
      g_string_free(buf, TRUE);
      return NULL;
    }
    g_string_append_len(buf, chunk, (gssize)n);
  }
  if (ferror(stdin)) {
    g_set_error(error, MS_ERROR, MS_ERROR_IO, "-: read error: %s", g_strerror(errno));
    g_string_free(buf, TRUE);
    return NULL;
  }
  hold.len = buf->len;
  hold.data = g_string_free(buf, FALSE);
  MsView *v = ms_view_simulate(model, open_stdin, &hold, options, error);
  g_free(hold.data);
  return v;
}

const MsResult *ms_view_result(const MsView *v) { return v->result; }
const MsSource *ms_view_source(const MsView *v) { return v->source; }
const char *ms_view_summarised(const MsView *v) { return v->summarised; }

void ms_view_free(MsView *v) {
  if (!v) return;
  ms_model_free(v->model);
  ms_source_free(v->source);
  ms_result_free(v->result);
  g_array_free(v->steps, TRUE);
  g_array_free(v->addrs, TRUE);
  if (v->per_step) g_array_free(v->per_step, TRUE);
  if (v->events) g_array_free(v->events, TRUE);
  g_free(v->summarised);
  g_free(v);
}

gboolean ms_view_format_from_path(const char *path, MsViewFormat *format, GError **error) {
  char *low = g_ascii_strdown(path, -1);
  gboolean ok = TRUE;
  if (g_str_has_suffix(low, ".html") || g_str_has_suffix(low, ".htm")) *format = MS_VIEW_HTML;
  else if (g_str_has_suffix(low, ".svg")) *format = MS_VIEW_SVG;
  else {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "--view: %s: expected a file name ending in .html (the page) or .svg (the picture)", path);
    ok = FALSE;
  }
  g_free(low);
  return ok;
}

/* ---- drawing helpers ---- */

#define MARGIN 16.0
#define LABEL_W 170.0 /* left of the time axis: pipeline names and depths */
#define CELLS_PER_ROW 32
#define SVG_LISTED_WARPS 8 /* warps of a step the SVG lists */

typedef struct {
  const MsView *v;
  GString *s;
  double y, width; /* next free y, widest x drawn */
  gboolean page;   /* the HTML page: tooltips and every warp; the SVG stays small */
} Pic;

static void text(Pic *p, double x, double y, const char *attrs, const char *fmt, ...) G_GNUC_PRINTF(5, 6);
static void text(Pic *p, double x, double y, const char *attrs, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *raw = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  char *esc = g_markup_escape_text(raw, -1);
  g_string_append_printf(p->s, "<text x=\"%.1f\" y=\"%.1f\"%s%s>%s</text>\n", x, y, attrs ? " " : "",
                         attrs ? attrs : "", esc);
  g_free(esc);
  g_free(raw);
}

/* Golden-angle hues keep neighbouring warps, banks and groups apart. */
static double hue(guint64 key) { return fmod((double)(key % 100003) * 137.508, 360.0); }
/* Ten hues 30 degrees apart, neighbours far apart, two shades: warps avoid the reds, which
 * mark the extra stages. */
static void warp_colour(guint64 warp, char *buf, gsize n) {
  g_snprintf(buf, n, "hsl(%u,62%%,%u%%)", (guint)(30 + 30 * ((warp * 7) % 10)), (warp / 10) % 2 ? 52u : 38u);
}

static guint64 lane_latency(const MsView *v, guint p) {
  const MsModel *m = v->model;
  if (!ms_model_is_hmm(m)) return m->kind == MS_MODEL_UMM && v->result->l2_resident ? m->l2_latency : m->latency;
  if (p < m->dmms) return m->shared_latency;
  return v->result->l2_resident ? m->l2_latency : m->global_latency;
}

static void lane_name(const MsModel *m, guint p, char *buf, gsize n) {
  if (!ms_model_is_hmm(m)) g_snprintf(buf, n, "%s", m->kind == MS_MODEL_DMM ? "shared (DMM)" : "global (UMM)");
  else if (p == m->dmms) g_snprintf(buf, n, "global (UMM)");
  else g_snprintf(buf, n, "shared DMM %u", p);
}

/* Banks (DMM rule) for a shared step, groups (UMM rule) for a global one. */
static gboolean uses_banks(const MsModel *m, const MsStep *st) {
  if (m->kind == MS_MODEL_DMM) return TRUE;
  if (m->kind == MS_MODEL_UMM) return FALSE;
  return st->space == MS_SPACE_SHARED;
}

static const char *extra_name(const MsModel *m) {
  return m->kind == MS_MODEL_DMM ? "bank conflicts" : m->kind == MS_MODEL_UMM ? "uncoalesced groups" : "conflicts and uncoalesced groups";
}

/* The grid barriers that end a kernel (async-hmm, or hmm with residency limits). */
static gboolean grid_is_kernel(const MsModel *m) {
  return m->kind == MS_MODEL_ASYNC_HMM || (m->kind == MS_MODEL_HMM && ms_model_has_residency(m));
}

static void draw_header(Pic *p) {
  const MsResult *r = p->v->result;
  const MsModel *m = p->v->model;
  char *base = g_path_get_basename(ms_source_name(p->v->source));
  char *desc = ms_model_describe(m);
  text(p, MARGIN, 24, "class=\"title\"", "memsim view: %s", base);
  text(p, MARGIN, 42, NULL, "model %s%s%s%s; %" G_GUINT64_FORMAT " threads, %" G_GUINT64_FORMAT " warps, %" G_GUINT64_FORMAT
       " blocks, %" G_GUINT64_FORMAT " steps", desc, m->name && *m->name ? " (" : "", m->name ? m->name : "",
       m->name && *m->name ? ")" : "", r->threads, r->warps, r->blocks, r->steps);
  text(p, MARGIN, 62, "id=\"totals\" class=\"h\"",
       "%" G_GUINT64_FORMAT " time units · %" G_GUINT64_FORMAT " stages · %" G_GUINT64_FORMAT " dispatches · %" G_GUINT64_FORMAT
       " requests · %" G_GUINT64_FORMAT " extra stage%s (%s) · round sum %" G_GUINT64_FORMAT,
       r->time_units, r->stages, r->dispatches, r->requests, r->extra_stages, r->extra_stages == 1 ? "" : "s", extra_name(m),
       r->round_sum);
  if (ms_model_is_hmm(m))
    text(p, MARGIN, 80, NULL,
         "shared: %" G_GUINT64_FORMAT " stages, %" G_GUINT64_FORMAT " extra · global: %" G_GUINT64_FORMAT
         " stages, %" G_GUINT64_FORMAT " extra · %" G_GUINT64_FORMAT " kernel%s · bound: %s",
         r->shared.stages, r->shared.stages - r->shared.dispatches, r->global.stages,
         r->global.stages - r->global.dispatches, r->kernels, r->kernels == 1 ? "" : "s", ms_result_bound(r));
  p->y = ms_model_is_hmm(m) ? 100 : 84;
  p->width = MAX(p->width, 900);
  g_free(desc);
  g_free(base);
}

/* ---- the trace: each warp's addresses per step ---- */

/* Marks the requests that cost the extra stages and says why in `why`: on banks, every
 * request whose bank holds another distinct address; on groups, every request outside the
 * warp's first group (one stage per further group). */
static void analyse_warp(const gint64 *a, guint n, gboolean banks, guint64 w, guint64 gw, gboolean *extra,
                         GString *why) {
  guint64 *key = g_new(guint64, n);
  guint *cnt = g_new0(guint, n); /* banks: distinct addresses in the bank of request i */
  for (guint i = 0; i < n; i++) {
    extra[i] = FALSE;
    key[i] = a[i] < 0 ? 0 : banks ? (guint64)a[i] % w : (guint64)a[i] / gw;
  }
  if (banks) {
    for (guint i = 0; i < n; i++) {
      if (a[i] < 0) continue;
      gboolean dup = FALSE;
      for (guint j = 0; j < i && !dup; j++) dup = a[j] == a[i];
      if (dup) continue;
      for (guint j = 0; j < n; j++)
        if (a[j] >= 0 && key[j] == key[i]) cnt[j]++;
    }
    guint shown = 0;
    for (guint i = 0; i < n; i++) {
      if (a[i] < 0 || cnt[i] < 2) continue;
      extra[i] = TRUE;
      gboolean first = TRUE; /* describe each conflicting bank once, at its first request */
      for (guint j = 0; j < i && first; j++) first = !(a[j] >= 0 && key[j] == key[i]);
      if (!first || shown++ >= 3) continue;
      g_string_append_printf(why, "%sbank %" G_GUINT64_FORMAT " holds %u addresses:", shown > 1 ? "; " : "", key[i], cnt[i]);
      guint listed = 0;
      for (guint j = i; j < n && listed <= 4; j++) {
        gboolean dup = FALSE;
        for (guint q = 0; q < j && !dup; q++) dup = a[q] == a[j];
        if (a[j] < 0 || key[j] != key[i] || dup) continue;
        if (listed++ < 4) g_string_append_printf(why, "%s %" G_GINT64_FORMAT, listed > 1 ? "," : "", a[j]);
        else g_string_append(why, ", …");
      }
    }
    if (shown > 3) g_string_append(why, "; …");
  } else {
    gint64 first = -1;
    guint groups = 0;
    for (guint i = 0; i < n; i++) {
      if (a[i] < 0) continue;
      if (first < 0) first = (gint64)key[i];
      extra[i] = key[i] != (guint64)first;
      gboolean seen = FALSE;
      for (guint j = 0; j < i && !seen; j++) seen = a[j] >= 0 && key[j] == key[i];
      if (seen) continue;
      if (groups < 8) g_string_append_printf(why, "%s%" G_GUINT64_FORMAT, groups ? ", " : "groups ", key[i]);
      else if (groups == 8) g_string_append(why, ", …");
      groups++;
    }
    if (groups == 1) g_string_printf(why, "group %" G_GINT64_FORMAT, first);
  }
  g_free(cnt);
  g_free(key);
}

typedef struct {
  GHashTable *by_ws; /* (warp, step) -> event index + 1 */
  gint64 *keys;
} EventIndex;

static void index_events(const MsView *v, EventIndex *ix) {
  guint n = v->events->len;
  guint64 S = MAX(v->per_step->len, 1);
  ix->keys = g_new(gint64, MAX(n, 1));
  ix->by_ws = g_hash_table_new(g_int64_hash, g_int64_equal);
  for (guint i = 0; i < n; i++) {
    const MsEvent *e = &g_array_index(v->events, MsEvent, i);
    ix->keys[i] = (gint64)(e->warp * S + e->step);
    g_hash_table_insert(ix->by_ws, &ix->keys[i], GUINT_TO_POINTER(i + 1));
  }
}

static const MsEvent *find_event(const MsView *v, const EventIndex *ix, guint64 warp, guint64 step) {
  gint64 k = (gint64)(warp * MAX(v->per_step->len, 1) + step);
  guint i = GPOINTER_TO_UINT(g_hash_table_lookup(ix->by_ws, &k));
  return i ? &g_array_index(v->events, MsEvent, i - 1) : NULL;
}

static void draw_warp_row(Pic *p, const gint64 *a, guint n, guint64 j, guint64 si, const ViewStep *vs,
                          const MsEvent *e, double cellw) {
  const MsModel *m = p->v->model;
  gboolean banks = uses_banks(m, &vs->step);
  gboolean *extra = g_new(gboolean, n);
  GString *why = g_string_new(NULL);
  analyse_warp(a, n, banks, m->width, m->group_words ? m->group_words : m->width, extra, why);
  guint rows = (n + CELLS_PER_ROW - 1) / CELLS_PER_ROW;
  double h = 30.0 * rows;
  g_string_append_printf(p->s, "<g class=\"wrow\" data-w=\"%" G_GUINT64_FORMAT "\" data-s=\"%" G_GUINT64_FORMAT
                         "\" data-t0=\"%" G_GINT64_FORMAT "\" data-t1=\"%" G_GINT64_FORMAT "\">\n",
                         j, si, e ? e->time : -1, e ? e->complete : -1);
  double cx = MARGIN + 56, right = cx + MIN(n, CELLS_PER_ROW) * cellw;
  g_string_append_printf(p->s, "<rect class=\"wbg\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
                         MARGIN - 4, p->y - 2, right + 430 - MARGIN, h);
  char col[40];
  warp_colour(j, col, sizeof col);
  g_string_append_printf(p->s, "<rect class=\"wl\" x=\"%.1f\" y=\"%.1f\" width=\"48\" height=\"26\" rx=\"3\" "
                         "fill=\"%s\"/>\n", MARGIN, p->y, col);
  text(p, MARGIN + 24, p->y + 17, "class=\"wt\" text-anchor=\"middle\"", "W%" G_GUINT64_FORMAT, j);
  for (guint i = 0; i < n; i++) {
    double x = cx + (i % CELLS_PER_ROW) * cellw, y = p->y + 30.0 * (i / CELLS_PER_ROW);
    if (a[i] < 0) {
      g_string_append_printf(p->s, "<rect class=\"off\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"26\"/>\n", x, y,
                             cellw - 2);
      continue;
    }
    guint64 key = banks ? (guint64)a[i] % m->width : (guint64)a[i] / (m->group_words ? m->group_words : m->width);
    g_string_append_printf(p->s, "<rect class=\"req%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"26\" "
                           "fill=\"hsl(%.0f,75%%,84%%)\">", extra[i] ? " x" : "", x, y, cellw - 2, hue(key));
    if (p->page)
      g_string_append_printf(p->s, "<title>thread %" G_GUINT64_FORMAT ": address %" G_GINT64_FORMAT ", %s %" G_GUINT64_FORMAT
                             "%s</title>", j * m->width + i, a[i], banks ? "bank" : "group", key,
                             extra[i] ? ": an extra stage" : "");
    g_string_append(p->s, "</rect>\n");
    text(p, x + (cellw - 2) / 2, y + 12, "class=\"mono\" text-anchor=\"middle\"", "%" G_GINT64_FORMAT, a[i]);
    text(p, x + (cellw - 2) / 2, y + 23, "class=\"small\" text-anchor=\"middle\"", "%s%" G_GUINT64_FORMAT,
         banks ? "b" : "g", key);
  }
  guint32 k = e ? e->stages : 0;
  text(p, right + 8, p->y + 17, NULL, "%u stage%s%s%s", k, k == 1 ? "" : "s", why->len ? ": " : "", why->str);
  g_string_append(p->s, "</g>\n");
  p->y += h + 2;
  p->width = MAX(p->width, right + 430);
  g_string_free(why, TRUE);
  g_free(extra);
}

static void draw_trace(Pic *p) {
  const MsView *v = p->v;
  const MsModel *m = v->model;
  guint64 w = m->width, T = ms_source_threads(v->source);
  gint64 amax = 0;
  for (guint i = 0; i < v->addrs->len; i++) amax = MAX(amax, g_array_index(v->addrs, gint64, i));
  char digits[32];
  double cellw = MAX(30.0, 7.0 * g_snprintf(digits, sizeof digits, "%" G_GINT64_FORMAT, amax) + 8);
  EventIndex ix;
  index_events(v, &ix);
  p->y += 16;
  text(p, MARGIN, p->y, "class=\"h\"", "The trace: each warp's addresses per step");
  text(p, MARGIN, p->y + 16, "class=\"small\"",
       "colour: the bank (b = address mod %" G_GUINT64_FORMAT ") of a shared request, the group (g = address / %" G_GUINT64_FORMAT
       ") of a global one; red outline: a request that costs an extra stage", w, m->group_words ? m->group_words : w);
  p->y += 30;
  for (guint si = 0; si < v->steps->len; si++) {
    const ViewStep *vs = &g_array_index(v->steps, ViewStep, si);
    if (vs->step.op == MS_OP_SYNC) {
      gboolean kernel = vs->step.scope == MS_SCOPE_GRID && grid_is_kernel(m);
      text(p, MARGIN, p->y + 12, "class=\"h2\"", "step %u: sync, %s barrier%s", si, ms_scope_name(vs->step.scope),
           kernel ? " (a kernel boundary)" : "");
      p->y += 22;
      continue;
    }
    if (vs->step.op == MS_OP_SHUFFLE) {
      text(p, MARGIN, p->y + 12, "class=\"h2\"", "step %u: shuffle (registers within a warp: no memory stage)", si);
      p->y += 22;
      continue;
    }
    if (vs->step.op == MS_OP_COMPUTE) {
      text(p, MARGIN, p->y + 12, "class=\"h2\"", "step %u: compute (a warp's instructions: no memory stage)", si);
      p->y += 22;
      continue;
    }
    if (vs->step.op == MS_OP_AWAIT) {
      text(p, MARGIN, p->y + 12, "class=\"h2\"", "step %u: await (a warp waits for its asynchronous copies: no memory stage)", si);
      p->y += 22;
      continue;
    }
    if (MS_OP_IS_FLAG(vs->step.op)) {
      text(p, MARGIN, p->y + 12, "class=\"h2\"", "step %u: %s (flags between warps: no memory stage)", si,
           ms_op_name(vs->step.op));
      p->y += 22;
      continue;
    }
    gboolean banks = uses_banks(m, &vs->step);
    text(p, MARGIN, p->y + 12, "class=\"h2\"", "step %u: %s%s %s (%s)", si, ms_op_name(vs->step.op),
         vs->step.async ? " (asynchronous)" : "",
         ms_model_is_hmm(m) ? ms_space_name(vs->step.space) : m->kind == MS_MODEL_DMM ? "shared" : "global",
         banks ? "banks" : "address groups");
    p->y += 20;
    if (vs->addr_off < 0) continue;
    const gint64 *a = &g_array_index(v->addrs, gint64, (guint)vs->addr_off);
    guint64 listed = 0, more = 0, kmin = G_MAXUINT64, kmax = 0, jmin = 0, jmax = 0;
    for (guint64 j = 0; j * w < T; j++) {
      guint n = (guint)MIN(w, T - j * w);
      gboolean any = FALSE;
      for (guint i = 0; i < n && !any; i++) any = a[j * w + i] >= 0;
      if (!any) continue;
      const MsEvent *e = find_event(v, &ix, j, si);
      if (p->page || listed < SVG_LISTED_WARPS) {
        draw_warp_row(p, a + j * w, n, j, si, vs, e, cellw);
        listed++;
        continue;
      }
      /* the picture lists a few warps a step; the rest in one line, their stages from the run */
      guint64 k = e ? e->stages : 0;
      if (!more++) jmin = j;
      jmax = j, kmin = MIN(kmin, k), kmax = MAX(kmax, k);
    }
    if (more) {
      char ks[64];
      g_snprintf(ks, sizeof ks, kmin == kmax ? "%" G_GUINT64_FORMAT : "%" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT, kmin, kmax);
      text(p, MARGIN + 56, p->y + 14, "class=\"small\"", "and %" G_GUINT64_FORMAT " more warps, W%" G_GUINT64_FORMAT
           " to W%" G_GUINT64_FORMAT ", of %s stage%s each (the .html page lists them all)", more, jmin, jmax, ks,
           kmax == 1 ? "" : "s");
      p->y += 20;
    }
    p->y += 4;
  }
  g_hash_table_destroy(ix.by_ws);
  g_free(ix.keys);
}

/* ---- the pipelines over time ---- */

typedef struct {
  gint64 t;         /* the time unit the warps are released at */
  gboolean grid, kernel;
  char *label;
} Barrier;

typedef struct {
  double x0, cw; /* x of time 0, pixels per time unit */
  guint64 T;
  GArray *bars;  /* Barrier */
} Axis;

static double axis_tick(double cw) {
  static const int ticks[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000};
  for (guint i = 0; i < G_N_ELEMENTS(ticks); i++)
    if (ticks[i] * cw >= 40) return ticks[i];
  return 2000;
}

static gint cmp_i64(gconstpointer a, gconstpointer b) {
  gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;
  return x < y ? -1 : x > y;
}

/* Where each barrier releases its warps: the latest completion of their earlier requests + 1
 * (docs/models.md, Barriers); a block barrier releases each block on its own. */
static void find_barriers(const MsView *v, Axis *ax) {
  const MsModel *m = v->model;
  guint64 wpb = MAX(1, ms_source_block_threads(v->source) / m->width), B = MAX(1, v->result->blocks);
  gint64 *rel = g_new(gint64, B);
  for (guint si = 0; si < v->steps->len; si++) {
    const ViewStep *vs = &g_array_index(v->steps, ViewStep, si);
    if (vs->step.op != MS_OP_SYNC) continue;
    gboolean grid = vs->step.scope == MS_SCOPE_GRID;
    for (guint64 b = 0; b < B; b++) rel[b] = -1;
    for (guint i = 0; i < v->events->len; i++) {
      const MsEvent *e = &g_array_index(v->events, MsEvent, i);
      guint64 b = grid ? 0 : MIN(e->warp / wpb, B - 1);
      if (e->step < si) rel[b] = MAX(rel[b], e->complete + 1);
    }
    guint64 nb = grid ? 1 : B;
    gint64 *sorted = g_memdup2(rel, nb * sizeof(gint64));
    qsort(sorted, nb, sizeof(gint64), cmp_i64);
    for (guint64 i = 0; i < nb; i++) {
      if (sorted[i] < 0 || (i && sorted[i] == sorted[i - 1])) continue;
      Barrier bar = {sorted[i], grid, grid && grid_is_kernel(m), NULL};
      GString *lab = g_string_new(NULL);
      g_string_printf(lab, "step %u: %s", si, bar.kernel ? "kernel boundary" : grid ? "grid barrier" : "block barrier");
      if (!grid) {
        guint listed = 0;
        for (guint64 b = 0; b < B; b++) {
          if (rel[b] != sorted[i]) continue;
          if (listed < 4) g_string_append_printf(lab, "%s%" G_GUINT64_FORMAT, listed ? ", " : ", block ", b);
          else if (listed == 4) g_string_append(lab, ", …");
          listed++;
        }
      }
      bar.label = g_string_free(lab, FALSE);
      g_array_append_val(ax->bars, bar);
    }
    g_free(sorted);
  }
  g_free(rel);
}

/* Entry time and slot position of stage i of event e. */
static gint64 stage_time(const MsEvent *e, guint32 i, guint32 *pos) {
  guint32 rate = e->rate ? e->rate : 1;
  gint64 s = e->rate ? e->slot + i : e->time + i;
  *pos = e->rate ? (guint32)(s % rate) : 0;
  return e->rate ? s / rate : s;
}

static void draw_lane_frame(Pic *p, const Axis *ax, guint pi, guint rows, double rh, gboolean full, guint64 l,
                            guint32 rate, const gboolean *entered) {
  const MsModel *m = p->v->model;
  char name[48];
  lane_name(m, pi, name, sizeof name);
  text(p, MARGIN, p->y + 12, "class=\"h2\"", "%s", name);
  text(p, MARGIN, p->y + 26, "class=\"small\"", "latency l = %" G_GUINT64_FORMAT, l);
  if (rate > 1) text(p, MARGIN, p->y + 38, "class=\"small\"", "%u stages enter per time unit", rate);
  double wdt = (double)ax->T * ax->cw;
  g_string_append_printf(p->s, "<rect class=\"lane\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n", ax->x0,
                         p->y, wdt, rows * rh);
  for (guint i = 0; i < ax->bars->len; i++) { /* the next kernel's launch */
    const Barrier *b = &g_array_index(ax->bars, Barrier, i);
    if (b->kernel && m->launch_units)
      g_string_append_printf(p->s, "<rect class=\"launch\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
                             ax->x0 + b->t * ax->cw, p->y, MIN(m->launch_units, ax->T) * ax->cw, rows * rh);
  }
  if (m->launch_units)
    g_string_append_printf(p->s, "<rect class=\"launch\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
                           ax->x0, p->y, MIN(m->launch_units, ax->T) * ax->cw, rows * rh);
  double tick = axis_tick(ax->cw);
  for (double t = tick; t < (double)ax->T; t += tick)
    g_string_append_printf(p->s, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
                           ax->x0 + t * ax->cw, p->y, ax->x0 + t * ax->cw, p->y + rows * rh);
  for (guint d = 0; d < rows; d++) {
    char lab[48];
    if (full) g_snprintf(lab, sizeof lab, d + 1 == l ? "depth %u done" : "depth %u", d + 1);
    else g_snprintf(lab, sizeof lab, "%s", d == 0 ? "enters" : d == 1 ? "in flight" : "completes");
    text(p, ax->x0 - 6, p->y + d * rh + rh - 5, "class=\"small\" text-anchor=\"end\"", "%s", lab);
  }
  for (guint64 t = 0; t < ax->T;) { /* idle entry: runs of time units in which no stage entered */
    if (entered[t]) {
      t++;
      continue;
    }
    guint64 t1 = t;
    while (t1 < ax->T && !entered[t1]) t1++;
    g_string_append_printf(p->s, "<rect class=\"idle\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>entry idle "
                           "at t = %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT "</title></rect>\n",
                           ax->x0 + t * ax->cw, p->y, (t1 - t) * ax->cw, rh, t, t1 - 1);
    t = t1;
  }
}

/* Stages in the pipeline at each time unit (entered, not yet past depth l), as runs of bars
 * in the middle row of a deep pipeline: what Lemma 5.1.1's idle pipeline looks like. */
static void draw_in_flight(Pic *p, const Axis *ax, guint pi, guint64 l, double y, double rh) {
  const MsView *v = p->v;
  gint64 *diff = g_new0(gint64, ax->T + 2);
  for (guint i = 0; i < v->events->len; i++) {
    const MsEvent *e = &g_array_index(v->events, MsEvent, i);
    if (e->pipeline != pi) continue;
    for (guint32 k = 0; k < e->stages; k++) {
      guint32 pos;
      gint64 t = stage_time(e, k, &pos);
      if (t < 0 || (guint64)t >= ax->T) continue;
      diff[t]++;
      diff[MIN((guint64)t + l, ax->T)]--;
    }
  }
  gint64 most = (gint64)(l * MAX(v->model->global_rate, 1)), run = 0; /* the pipeline's capacity: bar height */
  for (guint64 t = 0; t < ax->T; t++) most = MAX(most, run += diff[t]);
  run = 0;
  for (guint64 t = 0; t < ax->T;) {
    gint64 n = run += diff[t];
    guint64 t1 = t + 1;
    while (t1 < ax->T && diff[t1] == 0) t1++;
    if (n > 0) {
      double h = (rh - 2) * (double)n / (double)most;
      g_string_append_printf(p->s, "<rect class=\"fl\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"><title>t = %"
                             G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT ": %" G_GINT64_FORMAT " stage%s in flight, of %" G_GINT64_FORMAT " places</title></rect>\n",
                             ax->x0 + t * ax->cw, y + rh - 1 - h, (t1 - t) * ax->cw, h, t, t1 - 1, n, n == 1 ? "" : "s", most);
    }
    t = t1;
  }
  g_free(diff);
}

/* Stages k .. k+n-1 of event e (n > 1: consecutive time units, one box each row, data-n). */
static void draw_stage(Pic *p, const Axis *ax, const MsEvent *e, guint32 k, guint32 n, guint rows, gboolean full, guint64 l,
                       double top, double rh) {
  guint32 pos, rate = e->rate ? e->rate : 1;
  gint64 t = stage_time(e, k, &pos);
  double bw = ax->cw / rate, wn = bw * n;
  gboolean thin = bw < 6; /* too narrow for an outline: extra stages get a red foot instead */
  char col[40], nattr[32] = "";
  if (n > 1) g_snprintf(nattr, sizeof nattr, " data-n=\"%u\"", n);
  warp_colour(e->warp, col, sizeof col);
  for (guint d = 0; d < rows; d++) {
    if (!full && d == 1) continue; /* the in-flight row */
    guint64 depth = full ? d + 1 : (d == 0 ? 1 : l);
    gint64 c = t + (gint64)depth - 1;
    if (c < 0 || (guint64)c >= ax->T) continue;
    double x = ax->x0 + c * ax->cw + pos * bw, y = top + d * rh + 1;
    g_string_append_printf(p->s, "<rect class=\"st%s\" data-c=\"%" G_GINT64_FORMAT "\" data-d=\"%" G_GUINT64_FORMAT
                           "\"%s x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\">", k && !thin ? " x" : "",
                           c, depth, nattr, x, y, wn, rh - 2, col);
    if (p->page)
      g_string_append_printf(p->s, "<title>W%" G_GUINT64_FORMAT ".%" G_GUINT64_FORMAT ": stage %u of %u, enters at t = %"
                             G_GINT64_FORMAT ", completes at t = %" G_GINT64_FORMAT "</title>",
                             e->warp, e->step, k + 1, e->stages, t, t + (gint64)l - 1);
    g_string_append(p->s, "</rect>\n");
    if (k && thin)
      g_string_append_printf(p->s, "<rect class=\"st xm\" data-c=\"%" G_GINT64_FORMAT "\" x=\"%.2f\" y=\"%.1f\" "
                             "width=\"%.2f\" height=\"4\"/>\n", c, x, y + rh - 6, wn);
    if (bw >= 30)
      text(p, x + bw / 2, y + rh - 6, "class=\"bt\" text-anchor=\"middle\"", "W%" G_GUINT64_FORMAT ".%" G_GUINT64_FORMAT,
           e->warp, e->step);
    else if (bw >= 14)
      text(p, x + bw / 2, y + rh - 6, "class=\"bt\" text-anchor=\"middle\"", "%" G_GUINT64_FORMAT, e->warp);
  }
}

static void draw_lane(Pic *p, const Axis *ax, guint pi) {
  const MsView *v = p->v;
  guint64 l = lane_latency(v, pi), stages = 0, idle = 0;
  guint32 rate = 1;
  gboolean *entered = g_new0(gboolean, ax->T + 1);
  for (guint i = 0; i < v->events->len; i++) {
    const MsEvent *e = &g_array_index(v->events, MsEvent, i);
    if (e->pipeline != pi) continue;
    rate = MAX(rate, e->rate);
    for (guint32 k = 0; k < e->stages; k++) {
      guint32 pos;
      gint64 t = stage_time(e, k, &pos);
      if (t >= 0 && (guint64)t < ax->T) entered[t] = TRUE;
      stages++;
    }
  }
  for (guint64 t = 0; t < ax->T; t++) idle += !entered[t];
  /* every depth of the pipeline, as in seed 001 Figure 3.3, while that stays small; else
   * the stages entering, the count in flight, and the stages completing */
  gboolean full = l <= 8 && stages * l <= MS_VIEW_MAX_STAGES;
  guint rows = full ? (guint)l : 3;
  double rh = 18, top = p->y;
  g_string_append_printf(p->s, "<g class=\"pipe\" data-p=\"%u\" data-l=\"%" G_GUINT64_FORMAT "\" data-stages=\"%" G_GUINT64_FORMAT
                         "\" data-idle=\"%" G_GUINT64_FORMAT "\">\n", pi, l, stages, idle);
  draw_lane_frame(p, ax, pi, rows, rh, full, l, rate, entered);
  if (!full) draw_in_flight(p, ax, pi, l, top + rh, rh);
  for (guint i = 0; i < v->events->len; i++) {
    const MsEvent *e = &g_array_index(v->events, MsEvent, i);
    if (e->pipeline != pi) continue;
    /* the picture draws a narrow warp's extra stages as one box: they enter one a time unit */
    gboolean merge = !p->page && ax->cw < 6 && e->rate <= 1;
    for (guint32 k = 0; k < e->stages; k++) {
      guint32 n = merge && k ? e->stages - k : 1;
      draw_stage(p, ax, e, k, n, rows, full, l, top, rh);
      k += n - 1;
    }
  }
  p->y = top + MAX(rows * rh, rate > 1 ? 42.0 : 30.0) + 4;
  text(p, ax->x0, p->y + 6, "class=\"small\"", "%" G_GUINT64_FORMAT " stages entered; the entry was idle %" G_GUINT64_FORMAT
       " of %" G_GUINT64_FORMAT " time units", stages, idle, ax->T);
  p->y += 16;
  g_string_append(p->s, "</g>\n");
  g_free(entered);
}

static gint cmp_barrier(gconstpointer a, gconstpointer b) {
  const Barrier *x = a, *y = b;
  return x->t < y->t ? -1 : x->t > y->t;
}

/* A barrier's line ends in a small number under the lanes (in the first row where it
 * stays clear of the others); the numbers are explained in a legend below. */
static void draw_barriers(Pic *p, Axis *ax, double top, double bottom) {
  g_array_sort(ax->bars, cmp_barrier);
  GArray *ends = g_array_new(FALSE, FALSE, sizeof(double)); /* per row: where its last number ends */
  for (guint i = 0; i < ax->bars->len; i++) {
    const Barrier *b = &g_array_index(ax->bars, Barrier, i);
    double x = ax->x0 + b->t * ax->cw, half = 4 + 3.5 * (i + 1 >= 10) + 3.5 * (i + 1 >= 100);
    guint row = 0;
    while (row < ends->len && g_array_index(ends, double, row) > x - half) row++;
    if (row == ends->len) g_array_append_val(ends, x);
    g_array_index(ends, double, row) = x + half + 2;
    double y = bottom + 14 + row * 12;
    g_string_append_printf(p->s, "<line class=\"%s\" data-t=\"%" G_GINT64_FORMAT "\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                           "y2=\"%.1f\"/>\n", b->kernel ? "kernel" : b->grid ? "gbar" : "bbar", b->t, x, top - 4, x, y - 9);
    text(p, x, y, "class=\"bn\" text-anchor=\"middle\"", "%u", i + 1);
  }
  p->y = bottom + 10 + 12 * ends->len;
  double colw = 330, x = MARGIN;
  guint ncol = (guint)MAX(1, (MAX(p->width, ax->x0 + ax->T * ax->cw) - MARGIN) / colw), col = 0;
  for (guint i = 0; i < ax->bars->len; i++) {
    const Barrier *b = &g_array_index(ax->bars, Barrier, i);
    if (col == 0) p->y += 13;
    text(p, x + col * colw, p->y, "class=\"small\"", "%u: %s, released at t = %" G_GINT64_FORMAT, i + 1, b->label, b->t);
    col = (col + 1) % ncol;
  }
  if (ax->bars->len) p->y += 8;
  g_array_free(ends, TRUE);
}

static void draw_pipelines(Pic *p) {
  const MsView *v = p->v;
  Axis ax = {MARGIN + LABEL_W, 0, v->result->time_units, g_array_new(FALSE, FALSE, sizeof(Barrier))};
  ax.cw = CLAMP(1100.0 / (double)MAX(ax.T, 1), 2.0, 44.0);
  find_barriers(v, &ax);
  p->y += 20;
  text(p, MARGIN, p->y, "class=\"h\"", "The pipelines over time");
  text(p, MARGIN, p->y + 16, "class=\"small\"",
       "a box is one stage in its warp's colour (Wj.s: warp j, step s); a stage entering at t completes at t + l - 1; red "
       "outline: an extra stage; hatched: no stage entered");
  p->y += 44;
  double tick = axis_tick(ax.cw);
  for (double t = 0; t <= (double)ax.T; t += tick)
    if (t < (double)ax.T) text(p, ax.x0 + (t + 0.5) * ax.cw, p->y, "class=\"small\" text-anchor=\"middle\"", "%.0f", t);
  text(p, ax.x0 - 6, p->y, "class=\"small\" text-anchor=\"end\"", "t");
  p->y += 6;
  double top = p->y;
  guint P = ms_model_pipelines(v->model);
  gboolean *used = g_new0(gboolean, P);
  for (guint i = 0; i < v->events->len; i++) used[MIN(g_array_index(v->events, MsEvent, i).pipeline, P - 1)] = TRUE;
  for (guint pi = 0; pi < P; pi++)
    if (used[pi]) draw_lane(p, &ax, pi);
  g_free(used);
  double bottom = p->y;
  draw_barriers(p, &ax, top, bottom);
  for (guint i = 0; i < ax.bars->len; i++) g_free(g_array_index(ax.bars, Barrier, i).label);
  g_string_append_printf(p->s, "<rect id=\"cursor\" visibility=\"hidden\" data-x0=\"%.2f\" data-cw=\"%.3f\" x=\"%.2f\" "
                         "y=\"%.1f\" width=\"%.2f\" height=\"%.1f\"/>\n", ax.x0, ax.cw, ax.x0, top - 4, ax.cw,
                         bottom - top + 4);
  p->width = MAX(p->width, ax.x0 + ax.T * ax.cw + MARGIN);
  g_array_free(ax.bars, TRUE);
  p->y += 8;
}

/* ---- the summarised view: per-step stage histograms ---- */

typedef struct {
  guint64 from, to; /* steps from .. to - 1 */
  guint64 stages, dispatches, requests, shared_stages, syncs;
  gint64 first, last;
} Bin;

#define SUMMARY_BINS 400

static GArray *make_bins(const MsView *v) {
  GArray *bins = g_array_new(FALSE, TRUE, sizeof(Bin));
  guint64 n = v->per_step->len, per = MAX(1, (n + SUMMARY_BINS - 1) / SUMMARY_BINS);
  for (guint64 i = 0; i < n; i++) {
    const MsStepResult *s = &g_array_index(v->per_step, MsStepResult, i);
    if (i % per == 0) {
      Bin b = {i, i, 0, 0, 0, 0, 0, -1, -1};
      g_array_append_val(bins, b);
    }
    Bin *b = &g_array_index(bins, Bin, bins->len - 1);
    b->to = i + 1;
    if (s->step.op == MS_OP_SYNC) {
      b->syncs++;
      continue;
    }
    if (MS_OP_NO_STAGE(s->step.op)) continue; /* no memory stage */
    b->stages += s->stages, b->dispatches += s->dispatches, b->requests += s->requests;
    if (uses_banks(v->model, &s->step)) b->shared_stages += s->stages;
    if (s->first_dispatch >= 0 && (b->first < 0 || s->first_dispatch < b->first)) b->first = s->first_dispatch;
    b->last = MAX(b->last, s->last_complete);
  }
  return bins;
}

static void draw_summary(Pic *p, GArray *bins) {
  const MsView *v = p->v;
  guint nb = bins->len;
  guint64 maxst = 1, T = MAX(v->result->time_units, 1);
  for (guint i = 0; i < nb; i++) maxst = MAX(maxst, g_array_index(bins, Bin, i).stages);
  double x0 = MARGIN + 70, W = 1000, bw = W / MAX(nb, 1), H = 160;
  guint64 per = nb ? g_array_index(bins, Bin, 0).to - g_array_index(bins, Bin, 0).from : 1;
  p->y += 12;
  text(p, MARGIN, p->y, "class=\"h\"", "Summarised view (%s): one bar per %s", v->summarised,
       per == 1 ? "step" : "group of steps");
  text(p, MARGIN, p->y + 16, "class=\"small\"",
       "boxes are drawn for at most %d dispatches, %d time units, %d stages and %d listed requests; %" G_GUINT64_FORMAT
       " step%s a bar", MS_VIEW_MAX_DISPATCHES, MS_VIEW_MAX_TIME_UNITS, MS_VIEW_MAX_STAGES, MS_VIEW_MAX_ADDRESSES, per,
       per == 1 ? "" : "s");
  p->y += 40;
  text(p, MARGIN, p->y, "class=\"h2\"", "Stages per step: one per dispatched warp (shared: teal, global: orange), extra "
       "stages in red; grey ticks: barriers");
  p->y += 10;
  double base = p->y + H;
  text(p, x0 - 6, p->y + 8, "class=\"small\" text-anchor=\"end\"", "%" G_GUINT64_FORMAT, maxst);
  text(p, x0 - 6, base, "class=\"small\" text-anchor=\"end\"", "0");
  g_string_append_printf(p->s, "<rect class=\"lane\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n", x0, p->y,
                         W, H);
  for (guint i = 0; i < nb; i++) {
    const Bin *b = &g_array_index(bins, Bin, i);
    double x = x0 + i * bw, hd = H * (double)b->dispatches / (double)maxst, hx = H * (double)(b->stages - b->dispatches) / (double)maxst;
    gboolean sh = b->shared_stages * 2 > b->stages;
    g_string_append_printf(p->s, "<g class=\"bin\" data-b=\"%u\"><title>steps %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT ": %"
                           G_GUINT64_FORMAT " stages, %" G_GUINT64_FORMAT " dispatches, %" G_GUINT64_FORMAT " extra</title>\n",
                           i, b->from, b->to - 1, b->stages, b->dispatches, b->stages - b->dispatches);
    g_string_append_printf(p->s, "<rect class=\"hl\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\"/>\n", x, p->y, bw, H);
    if (b->stages) {
      g_string_append_printf(p->s, "<rect class=\"%s\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"/>\n",
                             sh ? "sh" : "gl", x, base - hd, MAX(bw - 0.5, 0.5), hd);
      g_string_append_printf(p->s, "<rect class=\"xs\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"/>\n", x,
                             base - hd - hx, MAX(bw - 0.5, 0.5), hx);
    }
    if (b->syncs)
      g_string_append_printf(p->s, "<rect class=\"sync\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"6\"/>\n", x, base + 2,
                             MAX(bw - 0.5, 1.0));
    g_string_append(p->s, "</g>\n");
  }
  for (guint i = 0; i < nb; i += MAX(1, nb / 8)) {
    const Bin *b = &g_array_index(bins, Bin, i);
    text(p, x0 + (i + 0.5) * bw, base + 20, "class=\"small\" text-anchor=\"middle\"", "%" G_GUINT64_FORMAT, b->from);
  }
  text(p, x0 - 6, base + 20, "class=\"small\" text-anchor=\"end\"", "step");
  p->y = base + 44;
  text(p, MARGIN, p->y, "class=\"h2\"", "When each step ran: from its first stage to its last completion");
  p->y += 10;
  double rh = CLAMP(240.0 / MAX(nb, 1), 1.0, 10.0), top = p->y, sx = W / (double)T;
  g_string_append_printf(p->s, "<rect class=\"lane\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n", x0, top, W,
                         rh * nb);
  for (guint i = 0; i < nb; i++) {
    const Bin *b = &g_array_index(bins, Bin, i);
    if (b->first < 0) continue;
    g_string_append_printf(p->s, "<rect class=\"bin run %s\" data-b=\"%u\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"/>\n",
                           b->shared_stages * 2 > b->stages ? "sh" : "gl", i, x0 + b->first * sx, top + i * rh,
                           MAX((b->last + 1 - b->first) * sx, 1.0), MAX(rh - 0.3, 0.7));
  }
  p->y = top + rh * nb + 14;
  for (int i = 0; i <= 5; i++)
    text(p, x0 + W * i / 5, p->y, "class=\"small\" text-anchor=\"middle\"", "%" G_GUINT64_FORMAT, T * (guint64)i / 5);
  text(p, x0 - 6, p->y, "class=\"small\" text-anchor=\"end\"", "t");
  p->y += 16;
  p->width = MAX(p->width, x0 + W + MARGIN + 24); /* room for the last time label */
}

/* ---- assembling the picture and the page ---- */

static const char svg_css[] =
    "text{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;font-size:11px;fill:#222}\n"
    ".title{font-size:17px;font-weight:bold}.h{font-size:13px;font-weight:bold}.h2{font-size:12px;font-weight:bold}\n"
    ".small{font-size:9.5px;fill:#555}.mono{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace}\n"
    ".wt,.bt{fill:#fff;font-weight:bold}.bt{font-size:9px}.bn{font-size:10px;font-weight:bold}\n"
    "rect.req{stroke:#aaa;stroke-width:.5}rect.req.x{stroke:#d00;stroke-width:2.2}\n"
    "rect.off{fill:#f3f3f3;stroke:#ddd;stroke-width:.5}rect.wbg{fill:none}\n"
    "rect.lane{fill:#fbfbfb;stroke:#bbb;stroke-width:.6}rect.idle{fill:url(#hatch)}\n"
    "rect.st{stroke:#fff;stroke-width:.5}rect.st.x{stroke:#d00;stroke-width:1.6}\n"
    "rect.launch{fill:#efe2f7}line.grid{stroke:#e6e6e6}rect.fl{fill:#9aa5b1}rect.xm{fill:#d00}\n"
    "line.gbar{stroke:#222;stroke-width:2}line.bbar{stroke:#222;stroke-width:1.2;stroke-dasharray:4 3}\n"
    "line.kernel{stroke:#7a1fa2;stroke-width:3}#cursor{fill:none;stroke:#e0a000;stroke-width:3}\n"
    "rect.sh{fill:#1b9e8f}rect.gl{fill:#e08a1e}rect.xs{fill:#d62728}rect.sync{fill:#888}rect.hl{fill:none}\n"
    /* the page's states */
    ".future{opacity:.12}g.wrow.active rect.wbg{fill:#fff2a8}g.wrow.done{opacity:.45}\n"
    "g.bin.sel rect.hl{fill:#fff2a8}g.bin.sel rect{stroke:#000;stroke-width:1}rect.bin.sel{stroke:#000;stroke-width:1}\n";

static void add_totals_attrs(GString *s, const MsResult *r) {
  g_string_append_printf(s, " data-time-units=\"%" G_GUINT64_FORMAT "\" data-stages=\"%" G_GUINT64_FORMAT
                         "\" data-dispatches=\"%" G_GUINT64_FORMAT "\" data-requests=\"%" G_GUINT64_FORMAT
                         "\" data-extra-stages=\"%" G_GUINT64_FORMAT "\" data-round-sum=\"%" G_GUINT64_FORMAT
                         "\" data-shared-stages=\"%" G_GUINT64_FORMAT "\" data-global-stages=\"%" G_GUINT64_FORMAT
                         "\" data-steps=\"%" G_GUINT64_FORMAT "\" data-warps=\"%" G_GUINT64_FORMAT "\"",
                         r->time_units, r->stages, r->dispatches, r->requests, r->extra_stages, r->round_sum,
                         r->shared.stages, r->global.stages, r->steps, r->warps);
}

static char *render_svg(const MsView *v, GArray *bins, gboolean page) {
  Pic p = {v, g_string_new(NULL), 0, 0, page};
  draw_header(&p);
  if (bins) draw_summary(&p, bins);
  else {
    draw_trace(&p);
    draw_pipelines(&p);
  }
  GString *out = g_string_new(NULL);
  g_string_append_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"memsim-view\" data-mode=\"%s\" width=\"%.0f\" "
                         "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\"", bins ? "summary" : "boxes", p.width, p.y + MARGIN,
                         p.width, p.y + MARGIN);
  add_totals_attrs(out, v->result);
  g_string_append(out, ">\n<style>\n");
  g_string_append(out, svg_css);
  g_string_append(out, "</style>\n<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
                       "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#f1f1f1\"/><line x1=\"0\" "
                       "y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#c4c4c4\" stroke-width=\"2\"/></pattern></defs>\n");
  g_string_append_printf(out, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#fff\"/>\n", p.width, p.y + MARGIN);
  g_string_append_len(out, p.s->str, (gssize)p.s->len);
  g_string_append(out, "</svg>\n");
  g_string_free(p.s, TRUE);
  return g_string_free(out, FALSE);
}

/* The page's script: the slider, the buttons, the arrow keys and #t=N set the time unit (the
 * bar in the summarised view); the panel #now says what each pipeline holds then. */
static const char view_js[] =
    "(function () {\n"
    "  'use strict';\n"
    "  var D = JSON.parse(document.getElementById('memsim-data').textContent);\n"
    "  var slider = document.getElementById('slider'), tlabel = document.getElementById('tlabel');\n"
    "  var now = document.getElementById('now'), timer = null;\n"
    "  var boxes = [].slice.call(document.querySelectorAll('#figure rect.st'));\n"
    "  var rows = [].slice.call(document.querySelectorAll('#figure g.wrow'));\n"
    "  var bins = [].slice.call(document.querySelectorAll('#figure .bin'));\n"
    "  var cursor = document.getElementById('cursor');\n"
    "  var last = D.mode === 'boxes' ? Math.max(D.T - 1, 0) : Math.max(D.bins.length - 1, 0);\n"
    "  slider.max = last;\n"
    "\n"
    "  function line(parent, cls, txt) {\n"
    "    var d = document.createElement('div');\n"
    "    d.className = cls;\n"
    "    d.textContent = txt;\n"
    "    parent.appendChild(d);\n"
    "    return d;\n"
    "  }\n"
    "  function stageTime(e, i) { /* e: [time, pipe, warp, step, stages, complete, slot, rate] */\n"
    "    return e[7] ? Math.floor((e[6] + i) / e[7]) : e[0] + i;\n"
    "  }\n"
    "  function showBoxes(t) {\n"
    "    boxes.forEach(function (b) { b.classList.toggle('future', +b.getAttribute('data-c') > t); });\n"
    "    rows.forEach(function (r) {\n"
    "      var t0 = +r.getAttribute('data-t0'), t1 = +r.getAttribute('data-t1');\n"
    "      r.classList.toggle('active', t0 >= 0 && t0 <= t && t <= t1);\n"
    "      r.classList.toggle('done', t1 >= 0 && t1 < t);\n"
    "    });\n"
    "    if (cursor) {\n"
    "      cursor.setAttribute('x', (+cursor.getAttribute('data-x0') + t * +cursor.getAttribute('data-cw')).toFixed(2));\n"
    "      cursor.setAttribute('visibility', 'visible');\n"
    "    }\n"
    "    tlabel.textContent = 't = ' + t + ' (time units 0 to ' + last + ')';\n"
    "    now.textContent = '';\n"
    "    var entered = 0;\n"
    "    D.ev.forEach(function (e) { for (var i = 0; i < e[4]; i++) if (stageTime(e, i) <= t) entered++; });\n"
    "    line(now, 'now-total', 'At t = ' + t + ': ' + entered + ' of ' + D.stages + ' stages have entered a pipeline.');\n"
    "    D.pipes.forEach(function (P) {\n"
    "      var items = [], enters = 0;\n"
    "      D.ev.forEach(function (e) {\n"
    "        if (e[1] !== P.p) return;\n"
    "        for (var i = 0; i < e[4]; i++) {\n"
    "          var d = t - stageTime(e, i) + 1;\n"
    "          if (d < 1 || d > P.l) continue;\n"
    "          if (d === 1) enters++;\n"
    "          items.push([d, 'W' + e[2] + '.' + e[3] + (e[4] > 1 ? ' (stage ' + (i + 1) + ' of ' + e[4] + ')' : '') +\n"
    "                         (d === P.l ? ' completes' : '')]);\n"
    "        }\n"
    "      });\n"
    "      items.sort(function (a, b) { return a[0] - b[0]; });\n"
    "      var shown = items.slice(0, 12).map(function (x) { return 'depth ' + x[0] + ': ' + x[1]; });\n"
    "      if (items.length > 12) shown.push('and ' + (items.length - 12) + ' more');\n"
    "      var txt = P.name + ': ' + (shown.length ? shown.join(' · ') : 'empty') + (enters ? '' : ' · entry idle');\n"
    "      line(now, 'now-pipe', txt).setAttribute('data-p', P.p);\n"
    "    });\n"
    "  }\n"
    "  function showBin(b) {\n"
    "    bins.forEach(function (el) { el.classList.toggle('sel', +el.getAttribute('data-b') === b); });\n"
    "    var x = D.bins[b]; /* [from, to, stages, dispatches, requests, first, last, syncs] */\n"
    "    tlabel.textContent = (D.bins.length && D.bins[0][1] - D.bins[0][0] > 1 ? 'bar ' : 'step ') + b + ' (0 to ' + last + ')';\n"
    "    now.textContent = '';\n"
    "    if (!x) return;\n"
    "    line(now, 'now-total', (x[1] - x[0] === 1 ? 'step ' + x[0] : 'steps ' + x[0] + ' to ' + (x[1] - 1)) + ': ' + x[2] +\n"
    "         ' stages, ' + x[3] + ' dispatches, ' + (x[2] - x[3]) + ' extra stages, ' + x[4] + ' requests' +\n"
    "         (x[7] ? ', ' + x[7] + ' barrier' + (x[7] > 1 ? 's' : '') : '') +\n"
    "         (x[5] >= 0 ? '; ran from t = ' + x[5] + ' to ' + x[6] : ''));\n"
    "  }\n"
    "  function show(t) {\n"
    "    t = Math.max(0, Math.min(last, t | 0));\n"
    "    slider.value = t;\n"
    "    now.setAttribute('data-t', t);\n"
    "    document.body.setAttribute('data-t', t);\n"
    "    if (D.mode === 'boxes') showBoxes(t); else showBin(t);\n"
    "  }\n"
    "  function fromHash() {\n"
    "    var m = /[#&](?:t|s)=(\\d+)/.exec(location.hash);\n"
    "    return m ? +m[1] : 0;\n"
    "  }\n"
    "  function step(dt) { show(+slider.value + dt); }\n"
    "  function play() {\n"
    "    if (timer) { clearInterval(timer); timer = null; document.getElementById('play').textContent = 'play'; return; }\n"
    "    if (+slider.value >= last) show(0);\n"
    "    document.getElementById('play').textContent = 'pause';\n"
    "    timer = setInterval(function () { if (+slider.value >= last) play(); else step(1); }, 700);\n"
    "  }\n"
    "  slider.addEventListener('input', function () { show(+slider.value); });\n"
    "  document.getElementById('prev').addEventListener('click', function () { step(-1); });\n"
    "  document.getElementById('next').addEventListener('click', function () { step(1); });\n"
    "  document.getElementById('play').addEventListener('click', play);\n"
    "  document.addEventListener('keydown', function (ev) {\n"
    "    if (ev.target === slider) return;\n"
    "    if (ev.key === 'ArrowRight') step(1);\n"
    "    else if (ev.key === 'ArrowLeft') step(-1);\n"
    "  });\n"
    "  window.addEventListener('hashchange', function () { show(fromHash()); });\n"
    "  show(fromHash());\n"
    "  document.body.setAttribute('data-ready', '1');\n"
    "})();\n";

static const char page_css[] =
    "body{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;margin:0;color:#222;background:#fff}\n"
    "#controls{position:sticky;top:0;z-index:2;background:#f4f4f4;border-bottom:1px solid #ccc;padding:8px 16px;"
    "display:flex;gap:10px;align-items:center;flex-wrap:wrap}\n"
    "#controls input{width:min(60vw,640px)}#controls button{font-size:14px;padding:2px 10px}\n"
    "#tlabel{font-weight:bold;font-size:14px}\n"
    "#now{padding:6px 16px;font-size:13px;min-height:3em;border-bottom:1px solid #eee}\n"
    ".now-pipe{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:12px;margin-top:2px}\n"
    "#errors{color:#b00;margin:8px 16px}#figure{overflow-x:auto;padding:0 0 16px 0}\n";

/* JSON for a <script> element: no "</" inside it. */
static void append_script_json(GString *s, cJSON *data) {
  char *js = cJSON_PrintUnformatted(data);
  for (const char *c = js; *c; c++) {
    if (*c == '<') g_string_append(s, "\\u003c");
    else g_string_append_c(s, *c);
  }
  cJSON_free(js);
}

static cJSON *page_data(const MsView *v, GArray *bins) {
  cJSON *d = cJSON_CreateObject();
  cJSON_AddStringToObject(d, "mode", bins ? "summary" : "boxes");
  cJSON_AddNumberToObject(d, "T", (double)v->result->time_units);
  cJSON_AddNumberToObject(d, "stages", (double)v->result->stages);
  if (bins) {
    cJSON *a = cJSON_AddArrayToObject(d, "bins");
    for (guint i = 0; i < bins->len; i++) {
      const Bin *b = &g_array_index(bins, Bin, i);
      double x[] = {(double)b->from, (double)b->to, (double)b->stages, (double)b->dispatches, (double)b->requests,
                    (double)b->first, (double)b->last, (double)b->syncs};
      cJSON_AddItemToArray(a, cJSON_CreateDoubleArray(x, G_N_ELEMENTS(x)));
    }
    return d;
  }
  guint P = ms_model_pipelines(v->model);
  gboolean *used = g_new0(gboolean, P);
  cJSON *ev = cJSON_AddArrayToObject(d, "ev");
  for (guint i = 0; i < v->events->len; i++) {
    const MsEvent *e = &g_array_index(v->events, MsEvent, i);
    used[MIN(e->pipeline, P - 1)] = TRUE;
    double x[] = {(double)e->time, e->pipeline, (double)e->warp, (double)e->step, e->stages, (double)e->complete,
                  (double)e->slot, e->rate};
    cJSON_AddItemToArray(ev, cJSON_CreateDoubleArray(x, G_N_ELEMENTS(x)));
  }
  cJSON *pipes = cJSON_AddArrayToObject(d, "pipes");
  for (guint p = 0; p < P; p++) {
    if (!used[p]) continue;
    char name[48];
    lane_name(v->model, p, name, sizeof name);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "p", p);
    cJSON_AddStringToObject(o, "name", name);
    cJSON_AddNumberToObject(o, "l", (double)lane_latency(v, p));
    cJSON_AddItemToArray(pipes, o);
  }
  g_free(used);
  return d;
}

static char *render_html(const MsView *v, GArray *bins, const char *svg) {
  GString *s = g_string_new(NULL);
  char *base = g_path_get_basename(ms_source_name(v->source));
  char *title = g_markup_escape_text(base, -1);
  g_string_append_printf(s, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                         "<title>memsim view: %s</title>\n<style>\n%s</style>\n</head>\n<body data-ready=\"0\">\n", title,
                         page_css);
  /* first, so that an error anywhere in the page is shown (and seen by the tests) */
  g_string_append(s, "<pre id=\"errors\" hidden></pre>\n<script>window.onerror = function (msg, src, line) {\n"
                     "  var e = document.getElementById('errors');\n  e.hidden = false;\n"
                     "  e.textContent += 'error: ' + msg + ' (line ' + line + ')\\n';\n};</script>\n");
  g_string_append_printf(s, "<div id=\"controls\"><button id=\"prev\" type=\"button\" title=\"previous (left arrow)\">&#9664; "
                         "previous</button>\n<input id=\"slider\" type=\"range\" min=\"0\" max=\"0\" value=\"0\" "
                         "aria-label=\"%s\">\n<button id=\"next\" type=\"button\" title=\"next (right arrow)\">next "
                         "&#9654;</button>\n<button id=\"play\" type=\"button\">play</button>\n<span id=\"tlabel\"></span>"
                         "</div>\n<div id=\"now\" data-t=\"0\"></div>\n<div id=\"figure\">\n",
                         bins ? "step" : "time unit");
  g_string_append(s, svg);
  g_string_append(s, "</div>\n<script type=\"application/json\" id=\"memsim-data\">");
  cJSON *data = page_data(v, bins);
  append_script_json(s, data);
  cJSON_Delete(data);
  g_string_append(s, "</script>\n<script>\n");
  g_string_append(s, view_js);
  g_string_append(s, "</script>\n</body>\n</html>\n");
  g_free(title);
  g_free(base);
  return g_string_free(s, FALSE);
}

char *ms_view_render(const MsView *v, MsViewFormat format) {
  GArray *bins = v->summarised ? make_bins(v) : NULL;
  char *svg = render_svg(v, bins, format == MS_VIEW_HTML);
  char *out = svg;
  if (format == MS_VIEW_HTML) {
    out = render_html(v, bins, svg);
    g_free(svg);
  }
  if (bins) g_array_free(bins, TRUE);
  return out;
}
