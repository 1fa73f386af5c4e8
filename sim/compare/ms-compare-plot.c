/* ms-compare-plot.c: PNG plots of `memsim compare --plot DIR` through PLplot's pngcairo
 * device: predicted versus measured (log axes, y = x), per-family MAPE bars, and the
 * pipeline timeline of a small trace for teaching. */
#include "ms-compare.h"
#include <math.h>
#include <string.h>

#ifdef MS_HAVE_PLPLOT
#include <plplot.h>

static const char *const fam_order[] = {"permutation", "sat", "gcd", "bpbc", "simple", "bulk", "gf2", NULL};
static const int fam_rgb[][3] = {{31, 119, 180}, {214, 39, 40}, {44, 160, 44}, {148, 103, 189}, {255, 127, 14}};

static void begin(const char *png, int w, int h) {
  plsdev("pngcairo");
  plsfnam(png);
  char geo[32];
  g_snprintf(geo, sizeof geo, "%dx%d", w, h);
  plsetopt("geometry", geo);
  plscolbg(255, 255, 255);
  plscol0(1, 0, 0, 0);
  plscol0(2, 150, 150, 150);
  for (int i = 0; i < 5; i++) plscol0(3 + i, fam_rgb[i][0], fam_rgb[i][1], fam_rgb[i][2]);
  plinit();
  plfontld(1);
  plcol0(1);
}

static int fam_index(const char *f) {
  for (int i = 0; fam_order[i]; i++)
    if (strcmp(f, fam_order[i]) == 0) return i;
  return 4;
}

static gboolean scatter(const MsCompare *c, const char *png) {
  double lo = INFINITY, hi = -INFINITY;
  guint n = 0;
  for (guint i = 0; i < c->records->len; i++) {
    const MsCmpRecord *r = g_ptr_array_index(c->records, i);
    if (r->skip || r->predicted_ns <= 0) continue;
    lo = MIN(lo, MIN(log10(r->predicted_ns), log10(r->median_ns)));
    hi = MAX(hi, MAX(log10(r->predicted_ns), log10(r->median_ns)));
    n++;
  }
  if (!n) return FALSE;
  lo = floor(lo);
  hi = ceil(hi);
  begin(png, 900, 800);
  plschr(0, 1.1);
  plenv(lo, hi, lo, hi, 1, 30);
  char *title = g_strdup_printf("predicted vs measured (%s)", ((MsCmpRecord *)g_ptr_array_index(c->records, 0))->device);
  pllab("measured median time (ns)", "predicted time (ns)", title);
  g_free(title);
  plcol0(2);
  pllsty(2);
  PLFLT lx[2] = {lo, hi}, ly[2] = {lo, hi};
  plline(2, lx, ly);
  pllsty(1);
  for (guint i = 0; i < c->records->len; i++) {
    const MsCmpRecord *r = g_ptr_array_index(c->records, i);
    if (r->skip || r->predicted_ns <= 0) continue;
    PLFLT x = log10(r->median_ns), y = log10(r->predicted_ns);
    plcol0(3 + fam_index(r->workload));
    plssym(0, r->train ? 0.9 : 1.3);
    plpoin(1, &x, &y, r->train ? 1 : 4); /* training: dot; held-out: circle */
  }
  /* legend */
  plssym(0, 1.3);
  plschr(0, 0.9);
  int k = 0;
  for (int f = 0; fam_order[f]; f++) {
    if (!g_hash_table_contains(c->families, fam_order[f])) continue;
    PLFLT x = lo + 0.05 * (hi - lo), y = hi - (0.06 + 0.05 * k) * (hi - lo);
    plcol0(3 + f);
    plpoin(1, &x, &y, 4);
    plcol0(1);
    plptex(x + 0.03 * (hi - lo), y, 1, 0, 0, fam_order[f]);
    k++;
  }
  plcol0(1);
  PLFLT x = lo + 0.05 * (hi - lo), y = hi - (0.06 + 0.05 * k) * (hi - lo);
  plptex(x, y, 1, 0, 0, "circle: held out, dot: training; dashed: y = x");
  plend();
  return TRUE;
}

static gboolean bars(const MsCompare *c, const char *png) {
  GPtrArray *names = g_ptr_array_new();
  for (int f = 0; fam_order[f]; f++)
    if (g_hash_table_contains(c->families, fam_order[f])) g_ptr_array_add(names, (gpointer)fam_order[f]);
  if (!names->len) {
    g_ptr_array_free(names, TRUE);
    return FALSE;
  }
  double top = 0.2;
  for (guint i = 0; i < names->len; i++) {
    const MsCmpStats *s = g_hash_table_lookup(c->families, names->pdata[i]);
    if (!isnan(s->mape)) top = MAX(top, s->mape * 100 * 1.15);
  }
  top = MAX(top, 20);
  begin(png, 900, 600);
  plenv(0, names->len + 1, 0, top, 0, 0);
  pllab("family", "MAPE on held-out records (%)", "per-family error (dashed: 15% target)");
  for (guint i = 0; i < names->len; i++) {
    const MsCmpStats *s = g_hash_table_lookup(c->families, names->pdata[i]);
    double v = isnan(s->mape) ? 0 : s->mape * 100;
    PLFLT x[4] = {i + 0.6, i + 0.6, i + 1.4, i + 1.4}, y[4] = {0, v, v, 0};
    plcol0(3 + fam_index(names->pdata[i]));
    plfill(4, x, y);
    plcol0(1);
    plline(4, x, y);
    char lab[96];
    g_snprintf(lab, sizeof lab, "%s", (char *)names->pdata[i]);
    plptex(i + 1, -0.04 * top, 1, 0, 0.5, lab);
    g_snprintf(lab, sizeof lab, "%.1f%% (n=%u, %.0f%% pairs)", v, s->n, isnan(s->pairs_ordered) ? 0 : s->pairs_ordered * 100);
    plptex(i + 1, v + 0.02 * top, 1, 0, 0.5, lab);
  }
  plcol0(2);
  pllsty(2);
  PLFLT tx[2] = {0, names->len + 1}, ty[2] = {15, 15};
  plline(2, tx, ty);
  pllsty(1);
  plend();
  g_ptr_array_free(names, TRUE);
  return TRUE;
}

gboolean ms_cmp_plot_timeline(const char *model_path, const char *trace_path, const char *png, GError **error) {
  MsModel *m = ms_model_load(model_path, error);
  if (!m) return FALSE;
  MsSource *s = ms_trace_open(trace_path, error);
  if (!s) {
    ms_model_free(m);
    return FALSE;
  }
  MsSimOptions opt = {0};
  opt.max_events = MS_TIMELINE_MAX_EVENTS;
  opt.threads = 1;
  MsResult *r = ms_simulate(m, s, &opt, error);
  if (!r) {
    ms_source_free(s);
    ms_model_free(m);
    return FALSE;
  }
  guint64 warps = MAX(r->warps, 1);
  guint64 lat = ms_model_is_hmm(m) ? m->shared_latency : m->latency;
  begin(png, 1000, 200 + 70 * (int)MIN(warps, 16));
  plenv(0, (double)r->time_units, -0.5, (double)warps - 0.5, 0, 0);
  char *title = g_strdup_printf("%s on %s: %" G_GUINT64_FORMAT " time units", ms_source_name(s), m->name && *m->name ? m->name : ms_model_kind_name(m->kind),
                                r->time_units);
  pllab("time unit", "warp", title);
  g_free(title);
  for (guint i = 0; i < r->events->len; i++) {
    const MsEvent *e = &g_array_index(r->events, MsEvent, i);
    double y = (double)e->warp;
    /* stages entering the pipeline: solid box; in flight until completion: light box */
    PLFLT fx[4] = {(double)e->time, (double)e->time, (double)(e->time + e->stages), (double)(e->time + e->stages)};
    PLFLT fy[4] = {y - 0.35, y + 0.35, y + 0.35, y - 0.35};
    plcol0(3 + (int)(e->step % 5));
    plfill(4, fx, fy);
    plcol0(1);
    plline(4, fx, fy);
    PLFLT gx[4] = {(double)(e->time + e->stages), (double)(e->time + e->stages), (double)(e->complete + 1), (double)(e->complete + 1)};
    PLFLT gy[4] = {y - 0.12, y + 0.12, y + 0.12, y - 0.12};
    plcol0(2);
    plline(4, gx, gy);
    char lab[64];
    g_snprintf(lab, sizeof lab, "step %" G_GUINT64_FORMAT ": %u stage%s", e->step, e->stages, e->stages == 1 ? "" : "s");
    plcol0(1);
    plschr(0, 0.8);
    plptex((double)e->time + 0.1, y + 0.42, 1, 0, 0, lab);
  }
  char *foot = g_strdup_printf("box: stages entering the pipeline (one per time unit); thin box: in flight until complete (latency %" G_GUINT64_FORMAT ")", lat);
  plmtex("b", 6.2, 0.0, 0.0, foot);
  g_free(foot);
  plend();
  ms_result_free(r);
  ms_source_free(s);
  ms_model_free(m);
  return TRUE;
}

gboolean ms_cmp_plot(const MsCompare *c, const char *dir, GError **error) {
  if (g_mkdir_with_parents(dir, 0755) != 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_IO, "%s: cannot create the directory", dir);
    return FALSE;
  }
  char *a = g_build_filename(dir, "scatter.png", NULL), *b = g_build_filename(dir, "families.png", NULL);
  scatter(c, a);
  bars(c, b);
  g_free(a);
  g_free(b);
  return TRUE;
}

#else

gboolean ms_cmp_plot(const MsCompare *c, const char *dir, GError **error) {
  (void)c;
  (void)dir;
  g_set_error(error, MS_ERROR, MS_ERROR_IO, "plots need PLplot (Debian libplplot-dev plplot-driver-cairo); this build has none");
  return FALSE;
}

gboolean ms_cmp_plot_timeline(const char *model_path, const char *trace_path, const char *png, GError **error) {
  (void)model_path;
  (void)trace_path;
  (void)png;
  return ms_cmp_plot(NULL, NULL, error);
}

#endif
