/* cmd-run.c: `memsim run MODEL TRACE`. */
#include "ms-cli.h"
#include "ms-view.h"
#include <string.h>

/* l2_warm's earlier run: the trace file opened again */
static MsSource *reopen_path(gpointer path, GError **error) { return ms_trace_open(path, error); }

int ms_cmd_run(int argc, char **argv) {
  gboolean json = FALSE, per_step = FALSE, show_progress = FALSE, quiet = FALSE, timeline = FALSE, timing = FALSE,
           every_block = FALSE, every_kernel = FALSE, every_count = FALSE;
  gint threads = 0;
  char *view = NULL;
  GOptionEntry entries[] = {
      {"json", 'j', 0, G_OPTION_ARG_NONE, &json, "Print one JSON object instead of the summary", NULL},
      {"per-step", 's', 0, G_OPTION_ARG_NONE, &per_step, "Add the per-step breakdown", NULL},
      {"timeline", 't', 0, G_OPTION_ARG_NONE, &timeline, "Draw the pipeline timeline (small traces)", NULL},
      {"progress", 'p', 0, G_OPTION_ARG_NONE, &show_progress,
       "Report progress on stderr (default: on a terminal, once the run takes a second)", NULL},
      {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "No progress on stderr", NULL},
      {"threads", 0, 0, G_OPTION_ARG_INT, &threads,
       "Threads that fill and count large steps (compact traces; default: the processors, at most 64); 1: one thread. Same result for any N", "N"},
      {"fill-every-block", 0, 0, G_OPTION_ARG_NONE, &every_block,
       "Fill and count every block, even where a step's blocks repeat one pattern (slower; same result)", NULL},
      {"dispatch-every-kernel", 0, 0, G_OPTION_ARG_NONE, &every_kernel,
       "Dispatch every kernel, even one that repeats an earlier kernel from the same state (slower; same result)", NULL},
      {"count-every-kernel", 0, 0, G_OPTION_ARG_NONE, &every_count,
       "Count every kernel's steps, even a kernel with the addresses and L2 state of an earlier one (slower; same result)", NULL},
      {"timing", 0, 0, G_OPTION_ARG_NONE, &timing, "Report open and simulation times and requests/s on stderr", NULL},
      {"view", 0, 0, G_OPTION_ARG_FILENAME, &view,
       "Also write the classroom view: FILE.html (a page with a time slider) or FILE.svg (a picture)", "FILE"},
      {NULL}};
  GOptionContext *ctx = g_option_context_new("MODEL TRACE - simulate a trace on a memory machine model");
  g_option_context_set_summary(ctx, "MODEL is a model file (models/*.json), TRACE a trace file in any form\n"
                                    "(explicit JSON, compact JSON, binary; - reads standard input).");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int code = MS_EXIT_OK;
  MsModel *model = NULL;
  MsSource *src = NULL;
  MsResult *res = NULL;
  MsView *mv = NULL;
  const MsResult *r = NULL;
  const MsSource *s = NULL;
  MsViewFormat vformat = MS_VIEW_HTML;
  GError *err = NULL;
  if (!ms_cli_parse(ctx, "run", &argc, &argv, &code)) goto out;
  if (argc != 3) {
    fprintf(stderr, "memsim run: expected MODEL and TRACE, got %d argument%s\nTry 'memsim run --help'\n",
            argc - 1, argc == 2 ? "" : "s");
    code = MS_EXIT_INPUT;
    goto out;
  }
  if (view && !ms_view_format_from_path(view, &vformat, &err)) {
    fprintf(stderr, "memsim run: %s\nTry 'memsim run --help'\n", err->message);
    g_clear_error(&err);
    code = MS_EXIT_INPUT;
    goto out;
  }
  model = ms_model_load(argv[1], &err);
  if (!model) {
    code = ms_cli_fail("run", err);
    goto out;
  }
  gint64 topen = g_get_monotonic_time();
  if (!view && !(src = ms_trace_open(argv[2], &err))) {
    code = ms_cli_fail("run", err);
    goto out;
  }
  gint64 t0 = g_get_monotonic_time();
  MsSimOptions opt = {0};
  if (timeline) opt.max_events = MS_TIMELINE_MAX_EVENTS;
  if (threads < 0 || threads > (int)MS_MAX_WORKERS) {
    fprintf(stderr, "memsim run: --threads: %d is not in 0 .. %u (0: the processors)\nTry 'memsim run --help'\n", threads,
            MS_MAX_WORKERS);
    code = MS_EXIT_INPUT;
    goto out;
  }
  opt.threads = (guint)threads;
  opt.per_step = per_step;
  opt.fill_every_block = every_block;
  opt.dispatch_every_kernel = every_kernel;
  opt.count_every_kernel = every_count;
  if (strcmp(argv[2], "-") != 0) {
    opt.reopen = reopen_path;
    opt.reopen_data = argv[2];
  }
  MsCliProgress prog;
  ms_cli_progress_begin(&prog, "run", show_progress, quiet, &opt);
  if (view) { /* the view opens the trace itself: it may need to read it twice */
    mv = ms_view_simulate_file(model, argv[2], &opt, &err);
    r = mv ? ms_view_result(mv) : NULL;
    s = mv ? ms_view_source(mv) : NULL;
  } else {
    r = res = ms_simulate(model, src, &opt, &err);
    s = src;
  }
  ms_cli_progress_end(&prog);
  if (timing && r) {
    double o = (double)(t0 - topen) / 1e6, sim = (double)(g_get_monotonic_time() - t0) / 1e6;
    fprintf(stderr, "memsim run: open %.3f s, simulate %.3f s, %.1f M requests/s, %" G_GUINT64_FORMAT
            " repeated blocks, %" G_GUINT64_FORMAT " repeated kernels (%" G_GUINT64_FORMAT
            " not counted), engine threads %.3f s of CPU\n", o, sim, sim > 0 ? (double)r->requests / sim / 1e6 : 0.0,
            r->repeated_blocks, r->repeated_kernels, r->kernels_not_counted, r->helper_cpu_s);
  }
  if (!r) {
    code = ms_cli_fail("run", err);
    goto out;
  }
  if (view) { /* before the summary: a file that cannot be written leaves stdout empty */
    char *page = ms_view_render(mv, vformat);
    code = ms_cli_write_text("run", page, view);
    g_free(page);
    if (code != MS_EXIT_OK) goto out;
    if (ms_view_summarised(mv))
      fprintf(stderr, "memsim run: %s: a summarised view (%s)\n", view, ms_view_summarised(mv));
  }
  if (json) {
    char *j = ms_result_to_json(r, model, s, FALSE);
    puts(j);
    g_free(j);
  } else {
    ms_result_print_text(r, model, s, stdout);
  }
  if (timeline && !json && !ms_result_print_timeline(r, model, stdout, &err)) code = ms_cli_fail("run", err);
out:
  ms_view_free(mv);
  g_free(view);
  ms_result_free(res);
  ms_source_free(src);
  ms_model_free(model);
  g_option_context_free(ctx);
  return code;
}
