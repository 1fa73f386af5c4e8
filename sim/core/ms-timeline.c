/* ms-timeline.c: the pipeline picture of seed 001 Figure 3.3, in text. */
#include "ms-private.h"
#include <string.h>

#define CELL 8
#define MAX_DEPTH_COLUMNS 12

static const char *pipe_name(const MsModel *m, guint p, char *buf, gsize n) {
  if (!ms_model_is_hmm(m)) g_snprintf(buf, n, "%s", m->kind == MS_MODEL_DMM ? "shared (DMM)" : "global (UMM)");
  else if (p == m->dmms) g_snprintf(buf, n, "global (UMM)");
  else g_snprintf(buf, n, "shared DMM %u", p);
  return buf;
}

gboolean ms_result_print_timeline(const MsResult *r, const MsModel *m, FILE *out, GError **error) {
  if (!r->events) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "no events were recorded for the timeline");
    return FALSE;
  }
  if (r->time_units > MS_TIMELINE_MAX_ROWS) {
    g_set_error(error, MS_ERROR, MS_ERROR_LIMIT,
                "the trace takes %" G_GUINT64_FORMAT " time units; a timeline is drawn for at most %d "
                "(try a smaller trace, or --per-step)",
                r->time_units, MS_TIMELINE_MAX_ROWS);
    return FALSE;
  }
  guint P = ms_model_pipelines(m);
  for (guint p = 0; p < P; p++) {
    guint64 l = ms_model_is_hmm(m) ? (p == m->dmms ? m->global_latency : m->shared_latency) : m->latency;
    /* entered[t] = the stages that entered at t on this pipeline ("W1.0"; with global_rate > 1
     * several: "W0.0x2 W1.0" is two stages of warp 0 and one of warp 1); stage i of an event enters at (slot + i) / rate */
    /* loaded latency (docs/models.md): each request has its own latency, so the picture has
     * two columns, the stages entering and each request completing (done[t]) */
    const gboolean global = ms_model_is_hmm(m) ? p == m->dmms : m->kind == MS_MODEL_UMM;
    const gboolean loaded = global && (m->global_loaded_latency.n || m->l2_loaded_latency.n);
    GPtrArray *cells = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *done = g_ptr_array_new_with_free_func(g_free);
    for (guint64 t = 0; t <= r->time_units; t++) {
      g_ptr_array_add(cells, NULL);
      g_ptr_array_add(done, NULL);
    }
    gboolean any = FALSE;
    int width = CELL - 1;
    for (guint i = 0; i < r->events->len; i++) {
      const MsEvent *e = &g_array_index(r->events, MsEvent, i);
      if (e->pipeline != p) continue;
      any = TRUE;
      if (loaded && e->complete >= 0 && e->complete <= (gint64)r->time_units) {
        char lab[64];
        g_snprintf(lab, sizeof lab, "W%" G_GUINT64_FORMAT ".%" G_GUINT64_FORMAT, e->warp, e->step);
        char **cell = (char **)&g_ptr_array_index(done, (guint)e->complete);
        char *joined = *cell ? g_strconcat(*cell, " ", lab, NULL) : g_strdup(lab);
        g_free(*cell);
        *cell = joined;
        width = MAX(width, (int)strlen(joined));
      }
      guint64 rate = e->rate ? e->rate : 1;
      for (guint32 k = 0; k < e->stages;) {
        gint64 t = e->rate ? (e->slot + k) / (gint64)rate : e->time + k;
        guint32 n = 1; /* stages of this warp entering in the same time unit */
        while (k + n < e->stages && e->rate && (e->slot + k + n) / (gint64)rate == t) n++;
        k += n;
        if (t > (gint64)r->time_units) continue;
        char lab[64];
        if (n > 1)
          g_snprintf(lab, sizeof lab, "W%" G_GUINT64_FORMAT ".%" G_GUINT64_FORMAT "x%u", e->warp, e->step, n);
        else
          g_snprintf(lab, sizeof lab, "W%" G_GUINT64_FORMAT ".%" G_GUINT64_FORMAT, e->warp, e->step);
        char **cell = (char **)&g_ptr_array_index(cells, (guint)t);
        char *joined = *cell ? g_strconcat(*cell, " ", lab, NULL) : g_strdup(lab);
        g_free(*cell);
        *cell = joined;
        width = MAX(width, (int)strlen(joined));
      }
    }
    if (!any) {
      g_ptr_array_free(cells, TRUE);
      g_ptr_array_free(done, TRUE);
      continue;
    }
    char nb[48];
    gboolean full = l <= MAX_DEPTH_COLUMNS && !loaded;
    if (loaded)
      fprintf(out, "\n%s, loaded latency: Wj.s is a stage of warp j's step s; \"done\" is when its request completes\n",
              pipe_name(m, p, nb, sizeof nb));
    else
      fprintf(out, "\n%s, latency l = %" G_GUINT64_FORMAT ": Wj.s is a stage of warp j's step s%s\n",
              pipe_name(m, p, nb, sizeof nb), l,
              full ? "; it enters at depth 1 and completes at depth l" : "");
    if (ms_model_is_hmm(m) ? p == m->dmms : m->kind == MS_MODEL_UMM)
      if (m->global_rate > 1)
        fprintf(out, "global_rate g = %u: up to %u stages enter per time unit\n", m->global_rate, m->global_rate);
    fprintf(out, "%5s |", "t");
    if (full)
      for (guint64 d = 1; d <= l; d++) fprintf(out, " %-*s", width, d == l ? "done" : (g_snprintf(nb, sizeof nb, "%" G_GUINT64_FORMAT, d), nb));
    else
      fprintf(out, " %-*s %-*s", width, "enters", width, "done");
    fprintf(out, "\n");
    for (guint64 t = 0; t < r->time_units; t++) {
      GString *row = g_string_new(NULL);
      gboolean nonempty = FALSE;
      for (guint64 d = 0; d < (full ? l : 2); d++) {
        guint64 depth = full ? d : (d == 0 ? 0 : l - 1);
        const char *c = loaded ? g_ptr_array_index(d == 0 ? cells : done, (guint)t)
                        : t >= depth ? g_ptr_array_index(cells, (guint)(t - depth)) : NULL;
        if (c) nonempty = TRUE;
        g_string_append_printf(row, " %-*s", width, c ? c : (full ? "." : ""));
      }
      if (nonempty || full) fprintf(out, "%5" G_GUINT64_FORMAT " |%s\n", t, row->str);
      g_string_free(row, TRUE);
    }
    g_ptr_array_free(cells, TRUE);
    g_ptr_array_free(done, TRUE);
  }
  fprintf(out, "\ntotal: %" G_GUINT64_FORMAT " time units (the last completion + 1)\n", r->time_units);
  return TRUE;
}
