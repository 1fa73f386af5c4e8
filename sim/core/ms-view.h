/* ms-view.h: the classroom view of a run (`memsim run MODEL TRACE --view FILE`): the trace's
 * warps and addresses per step and every pipeline's stages over time, as one self-contained
 * HTML page (a time slider, no network) or a static SVG picture.  Private to memsim. */
#ifndef MS_VIEW_H
#define MS_VIEW_H

#include "memsim.h"

G_BEGIN_DECLS

/* Every stage is drawn as a box up to these sizes; past any of them the view is summarised
 * (per-step stage histograms and when each step ran). */
#define MS_VIEW_MAX_DISPATCHES 4000
#define MS_VIEW_MAX_TIME_UNITS 2000
#define MS_VIEW_MAX_STAGES 20000
#define MS_VIEW_MAX_ADDRESSES 8192 /* thread requests listed, all steps together */
#define MS_VIEW_MAX_LANES 32       /* pipelines with at least one stage */
#define MS_VIEW_MAX_LISTED_STEPS 1000
/* A trace of more steps gets no view at all (MS_ERROR_LIMIT). */
#define MS_VIEW_MAX_STEPS 1000000

typedef enum { MS_VIEW_HTML, MS_VIEW_SVG } MsViewFormat;

typedef struct _MsView MsView;

/* Opens the trace; called once, or twice when the first run had too many dispatches to
 * record (the second run keeps the per-step results only). */
typedef MsSource *(*MsViewOpenFunc)(gpointer data, GError **error);

/* The format a file name asks for: .html / .htm or .svg (any case); else an error naming it. */
gboolean ms_view_format_from_path(const char *path, MsViewFormat *format, GError **error);

/* Simulate the trace on `model` as `options` ask and keep what the view draws.  The result
 * (ms_view_result) is the one ms_simulate gives with `options`: per_step and events only
 * if asked for.  Returns a new view, or NULL with error set (the simulation's errors, or
 * more than MS_VIEW_MAX_STEPS steps). */
MsView *ms_view_simulate(const MsModel *model, MsViewOpenFunc open, gpointer data, const MsSimOptions *options,
                         GError **error);
/* The same for a trace file ("-": standard input, read into memory first). */
MsView *ms_view_simulate_file(const MsModel *model, const char *path, const MsSimOptions *options,
                              GError **error);
const MsResult *ms_view_result(const MsView *view);
const MsSource *ms_view_source(const MsView *view);
/* NULL when every stage is drawn; otherwise why the view is summarised. */
const char *ms_view_summarised(const MsView *view);
/* The page or picture, a new string. */
char *ms_view_render(const MsView *view, MsViewFormat format);
void ms_view_free(MsView *view);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MsView, ms_view_free)

G_END_DECLS

#endif
