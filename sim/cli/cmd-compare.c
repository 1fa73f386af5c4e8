/* cmd-compare.c: `memsim compare`: predicted versus measured time (docs/validation.md). */
#include "ms-cli.h"
#include "../compare/ms-compare.h"
#include <string.h>

int ms_cmd_compare(int argc, char **argv) {
  char *model = NULL, *train = NULL, *format = NULL, *plot = NULL, *counters = NULL, *launch_log = NULL;
  char *cache = NULL, *write_model = NULL, *output = NULL, *tl_trace = NULL, *tl_model = NULL;
  char **measured = NULL;
  gboolean exact = FALSE, skip_unmatched = FALSE;
  gint threads = 1;
  GOptionEntry entries[] = {
      {"model", 'm', 0, G_OPTION_ARG_FILENAME, &model, "Model file (models/*.json)", "MODEL"},
      {"measured", 'M', 0, G_OPTION_ARG_FILENAME_ARRAY, &measured, "Measurement file (memsim measure -o); repeatable, more may follow as arguments", "FILE"},
      {"train", 't', 0, G_OPTION_ARG_STRING, &train, "Training records: every:K (default every:2), family:A,B, algorithm:A,B, all, or none (the model's calibration)", "SPEC"},
      {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "text (default), csv, json or markdown", "FORM"},
      {"plot", 'p', 0, G_OPTION_ARG_FILENAME, &plot, "Write scatter.png and families.png (and timeline.png with --timeline) to DIR", "DIR"},
      {"timeline", 0, 0, G_OPTION_ARG_FILENAME, &tl_trace, "With --plot: draw this small trace's pipeline timeline", "TRACE"},
      {"timeline-model", 0, 0, G_OPTION_ARG_FILENAME, &tl_model, "Model for --timeline (default: --model)", "MODEL"},
      {"counters", 'c', 0, G_OPTION_ARG_FILENAME, &counters, "ncu --csv --page raw output (kernels/ncu-counters.sh) to set beside the model", "CSV"},
      {"launch-log", 0, 0, G_OPTION_ARG_FILENAME, &launch_log, "Launch log of --counters (default: ncu-launches.csv beside it)", "CSV"},
      {"write-model", 'w', 0, G_OPTION_ARG_FILENAME, &write_model, "Write the calibrated model (with a \"calibration\" object) to FILE", "FILE"},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the report to FILE (default stdout)", "FILE"},
      {"cache", 0, 0, G_OPTION_ARG_FILENAME, &cache, "Reuse and update simulated results in FILE (delete it to recompute)", "FILE"},
      {"exact", 0, 0, G_OPTION_ARG_NONE, &exact, "Simulate every record at its recorded size (no reduced simulations; slow)", NULL},
      {"skip-unmatched", 0, 0, G_OPTION_ARG_NONE, &skip_unmatched, "Skip records that match no workload (with a note) instead of failing", NULL},
      {"threads", 'j', 0, G_OPTION_ARG_INT, &threads, "Simulate N records at a time (default 1)", "N"},
      {NULL}};
  GOptionContext *ctx = g_option_context_new("[FILE...] - set the model's predictions beside measured GPU times");
  g_option_context_set_summary(ctx, "Builds each measured record's trace (same workload, algorithm, parameters), simulates it,\n"
                                    "fits ns per time unit and per launch on the training records and reports\n"
                                    "the held-out error (docs/validation.md).");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int code = MS_EXIT_OK;
  MsCompare *cmp = NULL;
  GError *err = NULL;
  GPtrArray *files = g_ptr_array_new();
  MsCmpFormat fmt = MS_CMP_TEXT;
  char *text = NULL;
  if (!ms_cli_parse(ctx, "compare", &argc, &argv, &code)) goto out;
  for (int i = 0; measured && measured[i]; i++) g_ptr_array_add(files, measured[i]);
  for (int i = 1; i < argc; i++) g_ptr_array_add(files, argv[i]);
  g_ptr_array_add(files, NULL);
  if (!model || files->len == 1) {
    fprintf(stderr, "memsim compare: %s\nTry 'memsim compare --help'\n", !model ? "--model is required" : "--measured is required");
    code = MS_EXIT_INPUT;
    goto out;
  }
  if (format) {
    if (strcmp(format, "text") == 0) fmt = MS_CMP_TEXT;
    else if (strcmp(format, "csv") == 0) fmt = MS_CMP_CSV;
    else if (strcmp(format, "json") == 0) fmt = MS_CMP_JSON;
    else if (strcmp(format, "markdown") == 0) fmt = MS_CMP_MARKDOWN;
    else {
      fprintf(stderr, "memsim compare: --format: expected text, csv, json or markdown, got \"%s\"\nTry 'memsim compare --help'\n", format);
      code = MS_EXIT_INPUT;
      goto out;
    }
  }
  if (threads < 1 || threads > 256) {
    fprintf(stderr, "memsim compare: --threads: %d is not in [1, 256]\nTry 'memsim compare --help'\n", threads);
    code = MS_EXIT_INPUT;
    goto out;
  }
  cmp = ms_cmp_new(model, &err);
  if (!cmp) goto fail;
  cmp->exact = exact;
  cmp->skip_unmatched = skip_unmatched;
  cmp->threads = (guint)threads;
  for (guint i = 0; files->pdata[i]; i++)
    if (!ms_cmp_read_measurements(cmp, files->pdata[i], &err)) goto fail;
  /* Check the training spec before the (long) simulations. */
  if (!ms_cmp_select_train(cmp, train ? train : "every:2", &err)) goto fail;
  if (cache && !ms_cmp_load_cache(cmp, cache, &err)) goto fail;
  if (!ms_cmp_simulate(cmp, &err)) goto fail;
  if (cache && !ms_cmp_save_cache(cmp, cache, &err)) goto fail;
  if (!ms_cmp_select_train(cmp, train ? train : "every:2", &err) || !ms_cmp_fit(cmp, &err)) goto fail;
  for (guint i = 0; i < cmp->notes->len; i++) fprintf(stderr, "memsim compare: note: %s\n", (char *)cmp->notes->pdata[i]);
  if (counters) {
    char *dir = g_path_get_dirname(counters);
    char *log = launch_log ? g_strdup(launch_log) : g_build_filename(dir, "ncu-launches.csv", NULL);
    gboolean ok = ms_cmp_read_counters(cmp, counters, log, &err);
    g_free(dir);
    g_free(log);
    if (!ok) goto fail;
  }
  text = ms_cmp_format(cmp, fmt);
  code = ms_cli_write_text("compare", text, output);
  if (code != MS_EXIT_OK) goto out;
  if (write_model) {
    GString *cmd = g_string_new("memsim compare");
    g_string_append_printf(cmd, " --model %s --train %s", model, train ? train : "every:2");
    for (guint i = 0; files->pdata[i]; i++) g_string_append_printf(cmd, " --measured %s", (char *)files->pdata[i]);
    if (exact) g_string_append(cmd, " --exact");
    if (skip_unmatched) g_string_append(cmd, " --skip-unmatched");
    char *mj = ms_cmp_model_json(cmp, (const char *const *)files->pdata, cmd->str);
    g_string_free(cmd, TRUE);
    code = ms_cli_write_text("compare", mj, write_model);
    g_free(mj);
    if (code != MS_EXIT_OK) goto out;
  }
  if (plot) {
    if (!ms_cmp_plot(cmp, plot, &err)) goto fail;
    if (tl_trace) {
      char *png = g_build_filename(plot, "timeline.png", NULL);
      gboolean ok = ms_cmp_plot_timeline(tl_model ? tl_model : model, tl_trace, png, &err);
      g_free(png);
      if (!ok) goto fail;
    }
  }
  goto out;
fail:
  code = ms_cli_fail("compare", err);
out:
  g_free(text);
  ms_cmp_free(cmp);
  g_ptr_array_free(files, TRUE);
  g_strfreev(measured);
  g_free(model);
  g_free(train);
  g_free(format);
  g_free(plot);
  g_free(counters);
  g_free(launch_log);
  g_free(write_model);
  g_free(cache);
  g_free(output);
  g_free(tl_trace);
  g_free(tl_model);
  g_option_context_free(ctx);
  return code;
}
