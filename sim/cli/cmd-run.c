/* cmd-run.c: `memsim run MODEL TRACE`. */
#include "ms-cli.h"
#include <string.h>

int ms_cmd_run(int argc, char **argv) {
  gboolean json = FALSE, per_step = FALSE, show_progress = FALSE, quiet = FALSE, timeline = FALSE, timing = FALSE;
  gint threads = 0;
  GOptionEntry entries[] = {
      {"json", 'j', 0, G_OPTION_ARG_NONE, &json, "Print one JSON object instead of the summary", NULL},
      {"per-step", 's', 0, G_OPTION_ARG_NONE, &per_step, "Add the per-step breakdown", NULL},
      {"timeline", 't', 0, G_OPTION_ARG_NONE, &timeline, "Draw the pipeline timeline (small traces)", NULL},
      {"progress", 'p', 0, G_OPTION_ARG_NONE, &show_progress,
       "Report progress on stderr (default: on a terminal, once the run takes a second)", NULL},
      {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "No progress on stderr", NULL},
      {"threads", 0, 0, G_OPTION_ARG_INT, &threads,
       "Threads that fill and count large steps (compact traces; default: the processors, at most 64); 1: one thread. Same result for any N", "N"},
      {"timing", 0, 0, G_OPTION_ARG_NONE, &timing, "Report open and simulation times and requests/s on stderr", NULL},
      {NULL}};
  GOptionContext *ctx = g_option_context_new("MODEL TRACE - simulate a trace on a memory machine model");
  g_option_context_set_summary(ctx, "MODEL is a model file (models/*.json), TRACE a trace file in any form\n"
                                    "(explicit JSON, compact JSON, binary; - reads standard input).");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int code = MS_EXIT_OK;
  MsModel *model = NULL;
  MsSource *src = NULL;
  MsResult *res = NULL;
  GError *err = NULL;
  if (!ms_cli_parse(ctx, "run", &argc, &argv, &code)) goto out;
  if (argc != 3) {
    fprintf(stderr, "memsim run: expected MODEL and TRACE, got %d argument%s\nTry 'memsim run --help'\n",
            argc - 1, argc == 2 ? "" : "s");
    code = MS_EXIT_INPUT;
    goto out;
  }
  model = ms_model_load(argv[1], &err);
  if (!model) {
    code = ms_cli_fail("run", err);
    goto out;
  }
  gint64 topen = g_get_monotonic_time();
  src = ms_trace_open(argv[2], &err);
  if (!src) {
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
  MsCliProgress prog;
  ms_cli_progress_begin(&prog, "run", show_progress, quiet, &opt);
  res = ms_simulate(model, src, &opt, &err);
  ms_cli_progress_end(&prog);
  if (timing && res) {
    double o = (double)(t0 - topen) / 1e6, sim = (double)(g_get_monotonic_time() - t0) / 1e6;
    fprintf(stderr, "memsim run: open %.3f s, simulate %.3f s, %.1f M requests/s\n", o, sim,
            sim > 0 ? (double)res->requests / sim / 1e6 : 0.0);
  }
  if (!res) {
    code = ms_cli_fail("run", err);
    goto out;
  }
  if (json) {
    char *s = ms_result_to_json(res, model, src, FALSE);
    puts(s);
    g_free(s);
  } else {
    ms_result_print_text(res, model, src, stdout);
  }
  if (timeline && !json && !ms_result_print_timeline(res, model, stdout, &err)) code = ms_cli_fail("run", err);
out:
  ms_result_free(res);
  ms_source_free(src);
  ms_model_free(model);
  g_option_context_free(ctx);
  return code;
}
