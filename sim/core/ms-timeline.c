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
    /* entered[t] = the event whose stage entered at t on this pipeline */
    GArray *ev = g_array_new(FALSE, TRUE, sizeof(const MsEvent *));
    g_array_set_size(ev, (guint)r->time_units + 1);
    gboolean any = FALSE;
    for (guint i = 0; i < r->events->len; i++) {
      const MsEvent *e = &g_array_index(r->events, MsEvent, i);
      if (e->pipeline != p) continue;
      any = TRUE;
      for (guint32 k = 0; k < e->stages; k++)
        if ((guint64)e->time + k <= r->time_units) g_array_index(ev, const MsEvent *, (guint)e->time + k) = e;
    }
    if (!any) {
      g_array_free(ev, TRUE);
      continue;
    }
    char nb[48];
    gboolean full = l <= MAX_DEPTH_COLUMNS;
    fprintf(out, "\n%s, latency l = %" G_GUINT64_FORMAT ": Wj.s is a stage of warp j's step s%s\n",
            pipe_name(m, p, nb, sizeof nb), l,
            full ? "; it enters at depth 1 and completes at depth l" : "");
    fprintf(out, "%5s |", "t");
    if (full)
      for (guint64 d = 1; d <= l; d++) fprintf(out, " %-*s", CELL - 1, d == l ? "done" : (g_snprintf(nb, sizeof nb, "%" G_GUINT64_FORMAT, d), nb));
    else
      fprintf(out, " %-*s %-*s", CELL - 1, "enters", CELL - 1, "done");
    fprintf(out, "\n");
    for (guint64 t = 0; t < r->time_units; t++) {
      GString *row = g_string_new(NULL);
      gboolean nonempty = FALSE;
      for (guint64 d = 0; d < (full ? l : 2); d++) {
        guint64 depth = full ? d : (d == 0 ? 0 : l - 1);
        const MsEvent *e = t >= depth ? g_array_index(ev, const MsEvent *, (guint)(t - depth)) : NULL;
        char cell[32] = "";
        if (e) {
          g_snprintf(cell, sizeof cell, "W%" G_GUINT64_FORMAT ".%" G_GUINT64_FORMAT, e->warp, e->step);
          nonempty = TRUE;
        } else if (full) {
          g_snprintf(cell, sizeof cell, ".");
        }
        g_string_append_printf(row, " %-*s", CELL - 1, cell);
      }
      if (nonempty || full) fprintf(out, "%5" G_GUINT64_FORMAT " |%s\n", t, row->str);
      g_string_free(row, TRUE);
    }
    g_array_free(ev, TRUE);
  }
  fprintf(out, "\ntotal: %" G_GUINT64_FORMAT " time units (the last completion + 1)\n", r->time_units);
  return TRUE;
}
