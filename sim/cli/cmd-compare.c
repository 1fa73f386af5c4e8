/* cmd-compare.c: `memsim compare`: predicted versus measured time (docs/validation.md). */
#include "ms-cli.h"
#include "../compare/ms-compare.h"
#include <string.h>
#include <unistd.h>

typedef struct {
  char *model, *train, *format, *plot, *counters, *launch_log;
  char *cache, *write_model, *output, *tl_trace, *tl_model, *timing;
  char **measured;
  gboolean exact, reduced, skip_unmatched, cached_only, quiet, show_progress;
  gint jobs;
} Opts;

/* The progress line on stderr: refreshed in place on a terminal, else one line per tenth. */
typedef struct {
  gboolean tty;
  guint last_tenth;
} Progress;

static void progress(guint done, guint total, double elapsed, gpointer data) {
  Progress *p = data;
  if (p->tty) {
    fprintf(stderr, "\rcompare: %u/%u records simulated, %.1f s", done, total, elapsed);
    if (done == total) fputc('\n', stderr);
  } else {
    guint tenth = total ? done * 10 / total : 10;
    if (tenth == p->last_tenth && done != total) return;
    if (done == total && p->last_tenth == 10) return;
    p->last_tenth = tenth;
    fprintf(stderr, "compare: %u/%u records simulated, %.1f s\n", done, total, elapsed);
  }
  fflush(stderr);
}

static gboolean parse_format(const char *format, MsCmpFormat *fmt) {
  static const struct { const char *name; MsCmpFormat f; } forms[] = {
      {"text", MS_CMP_TEXT}, {"csv", MS_CMP_CSV}, {"json", MS_CMP_JSON}, {"markdown", MS_CMP_MARKDOWN}};
  *fmt = MS_CMP_TEXT;
  if (!format) return TRUE;
  for (gsize i = 0; i < G_N_ELEMENTS(forms); i++)
    if (strcmp(format, forms[i].name) == 0) {
      *fmt = forms[i].f;
      return TRUE;
    }
  return FALSE;
}

/* The command that reproduces the fitted model, for its "calibration" object. */
static char *command_line(const Opts *o, GPtrArray *files) {
  GString *cmd = g_string_new("memsim compare");
  g_string_append_printf(cmd, " --model %s --train %s", o->model, o->train ? o->train : "every:2");
  for (guint i = 0; files->pdata[i]; i++) g_string_append_printf(cmd, " --measured %s", (char *)files->pdata[i]);
  if (o->reduced) g_string_append(cmd, " --reduced");
  if (o->skip_unmatched) g_string_append(cmd, " --skip-unmatched");
  return g_string_free(cmd, FALSE);
}

/* Everything after the report: the fitted model, the plots, the timing table. */
static int write_extras(const Opts *o, MsCompare *cmp, GPtrArray *files, GError **err) {
  int code = MS_EXIT_OK;
  if (o->write_model) {
    char *cmd = command_line(o, files);
    char *mj = ms_cmp_model_json(cmp, (const char *const *)files->pdata, cmd);
    g_free(cmd);
    code = ms_cli_write_text("compare", mj, o->write_model);
    g_free(mj);
    if (code != MS_EXIT_OK) return code;
  }
  if (o->timing) {
    char *t = ms_cmp_timing_tsv(cmp);
    code = ms_cli_write_text("compare", t, o->timing);
    g_free(t);
    if (code != MS_EXIT_OK) return code;
  }
  if (o->plot) {
    if (!ms_cmp_plot(cmp, o->plot, err)) return -1;
    if (o->tl_trace) {
      char *png = g_build_filename(o->plot, "timeline.png", NULL);
      gboolean ok = ms_cmp_plot_timeline(o->tl_model ? o->tl_model : o->model, o->tl_trace, png, err);
      g_free(png);
      if (!ok) return -1;
    }
  }
  return code;
}

/* Read, simulate, fit and report.  Returns the exit code, or -1 with *err set. */
static int run(const Opts *o, GPtrArray *files, MsCmpFormat fmt, GError **err) {
  const char *train = o->train ? o->train : "every:2";
  MsCompare *cmp = ms_cmp_new(o->model, err);
  if (!cmp) return -1;
  Progress prog = {isatty(fileno(stderr)), 11};
  int code = -1;
  char *text = NULL;
  cmp->exact = !o->reduced;
  cmp->skip_unmatched = o->skip_unmatched;
  cmp->cached_only = o->cached_only;
  cmp->jobs = (guint)o->jobs;
  /* on a terminal by default; to a file or pipe only when asked (--progress) */
  if (!o->quiet && (prog.tty || o->show_progress)) {
    cmp->progress = progress;
    cmp->progress_data = &prog;
  }
  for (guint i = 0; files->pdata[i]; i++)
    if (!ms_cmp_read_measurements(cmp, files->pdata[i], err)) goto out;
  /* Check the training spec before the (long) simulations. */
  if (!ms_cmp_select_train(cmp, train, err)) goto out;
  if (o->cache && !ms_cmp_load_cache(cmp, o->cache, err)) goto out;
  if (!ms_cmp_simulate(cmp, err)) goto out;
  if (o->cache && !ms_cmp_save_cache(cmp, o->cache, err)) goto out;
  if (!ms_cmp_select_train(cmp, train, err) || !ms_cmp_fit(cmp, err)) goto out;
  for (guint i = 0; i < cmp->notes->len; i++) fprintf(stderr, "memsim compare: note: %s\n", (char *)cmp->notes->pdata[i]);
  if (o->counters) {
    char *dir = g_path_get_dirname(o->counters);
    char *log = o->launch_log ? g_strdup(o->launch_log) : g_build_filename(dir, "ncu-launches.csv", NULL);
    gboolean ok = ms_cmp_read_counters(cmp, o->counters, log, err);
    g_free(dir);
    g_free(log);
    if (!ok) goto out;
  }
  text = ms_cmp_format(cmp, fmt);
  code = ms_cli_write_text("compare", text, o->output);
  if (code == MS_EXIT_OK) code = write_extras(o, cmp, files, err);
out:
  g_free(text);
  ms_cmp_free(cmp);
  return code;
}

static void opts_free(Opts *o) {
  g_strfreev(o->measured);
  g_free(o->model);
  g_free(o->train);
  g_free(o->format);
  g_free(o->plot);
  g_free(o->counters);
  g_free(o->launch_log);
  g_free(o->write_model);
  g_free(o->cache);
  g_free(o->output);
  g_free(o->tl_trace);
  g_free(o->tl_model);
  g_free(o->timing);
}

int ms_cmd_compare(int argc, char **argv) {
  Opts o = {0};
  o.jobs = (gint)g_get_num_processors();
  GOptionEntry entries[] = {
      {"model", 'm', 0, G_OPTION_ARG_FILENAME, &o.model, "Model file (models/*.json)", "MODEL"},
      {"measured", 'M', 0, G_OPTION_ARG_FILENAME_ARRAY, &o.measured, "Measurement file (memsim measure -o); repeatable, more may follow as arguments; a record of a later file replaces the same record of an earlier one", "FILE"},
      {"train", 't', 0, G_OPTION_ARG_STRING, &o.train, "Training records: every:K (default every:2), family:A,B, algorithm:A,B, all, or none (the model's own prediction)", "SPEC"},
      {"format", 'f', 0, G_OPTION_ARG_STRING, &o.format, "text (default), csv, json or markdown", "FORM"},
      {"plot", 'p', 0, G_OPTION_ARG_FILENAME, &o.plot, "Write scatter.png and families.png (and timeline.png with --timeline) to DIR", "DIR"},
      {"timeline", 0, 0, G_OPTION_ARG_FILENAME, &o.tl_trace, "With --plot: draw this small trace's pipeline timeline", "TRACE"},
      {"timeline-model", 0, 0, G_OPTION_ARG_FILENAME, &o.tl_model, "Model for --timeline (default: --model)", "MODEL"},
      {"counters", 'c', 0, G_OPTION_ARG_FILENAME, &o.counters, "ncu --csv --page raw output (kernels/ncu-counters.sh) to set beside the model", "CSV"},
      {"launch-log", 0, 0, G_OPTION_ARG_FILENAME, &o.launch_log, "Launch log of --counters (default: ncu-launches.csv beside it)", "CSV"},
      {"write-model", 'w', 0, G_OPTION_ARG_FILENAME, &o.write_model, "Write the calibrated model (with a \"calibration\" object) to FILE", "FILE"},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, "Write the report to FILE (default stdout)", "FILE"},
      {"cache", 0, 0, G_OPTION_ARG_FILENAME, &o.cache, "Reuse and update simulated results in FILE (delete it to recompute)", "FILE"},
      {"reduced", 0, 0, G_OPTION_ARG_NONE, &o.reduced, "Quick look: simulate large records at a reduced size and scale (latency-bound artefacts, docs/validation.md)", NULL},
      {"exact", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &o.exact, "Full size (the default; kept for old scripts)", NULL},
      {"cached-only", 0, 0, G_OPTION_ARG_NONE, &o.cached_only, "With --cache: report only the records whose results are cached (a run cut off part way); skip the others with a note", NULL},
      {"skip-unmatched", 0, 0, G_OPTION_ARG_NONE, &o.skip_unmatched, "Skip records that match no workload or that the model cannot run (with a note) instead of failing", NULL},
      {"jobs", 'j', 0, G_OPTION_ARG_INT, &o.jobs, "Simulate N records at a time (default: the processors, here)", "N"},
      {"threads", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &o.jobs, "Old name of --jobs", "N"},
      {"quiet", 'q', 0, G_OPTION_ARG_NONE, &o.quiet, "No progress line on stderr", NULL},
      {"progress", 'P', 0, G_OPTION_ARG_NONE, &o.show_progress,
       "Progress also when stderr is a file or pipe (one line per tenth of the records; default: on a terminal only)", NULL},
      {"timing", 0, 0, G_OPTION_ARG_FILENAME, &o.timing, "Write each record's simulation time (CPU and wall s, requests) as TSV to FILE, slowest first", "FILE"},
      {NULL}};
  GOptionContext *ctx = g_option_context_new("[FILE...] - set the model's predictions beside measured GPU times");
  g_option_context_set_summary(ctx, "Builds each measured record's trace (same workload, algorithm, parameters, at the\n"
                                    "recorded size), simulates it, and sets the model's prediction (--train none)\n"
                                    "or a calibration fitted on training records beside the measured time\n"
                                    "(docs/validation.md).");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int code = MS_EXIT_OK;
  GError *err = NULL;
  GPtrArray *files = g_ptr_array_new();
  MsCmpFormat fmt = MS_CMP_TEXT;
  if (!ms_cli_parse(ctx, "compare", &argc, &argv, &code)) goto out;
  for (int i = 0; o.measured && o.measured[i]; i++) g_ptr_array_add(files, o.measured[i]);
  for (int i = 1; i < argc; i++) g_ptr_array_add(files, argv[i]);
  g_ptr_array_add(files, NULL);
  const char *bad = !o.model ? "--model is required" : files->len == 1 ? "--measured is required"
                    : o.exact && o.reduced ? "--exact and --reduced exclude each other"
                    : o.cached_only && !o.cache ? "--cached-only needs --cache FILE" : NULL;
  if (bad) {
    fprintf(stderr, "memsim compare: %s\nTry 'memsim compare --help'\n", bad);
    code = MS_EXIT_INPUT;
    goto out;
  }
  if (!parse_format(o.format, &fmt)) {
    fprintf(stderr, "memsim compare: --format: expected text, csv, json or markdown, got \"%s\"\nTry 'memsim compare --help'\n", o.format);
    code = MS_EXIT_INPUT;
    goto out;
  }
  if (o.jobs < 1 || o.jobs > 1024) {
    fprintf(stderr, "memsim compare: --jobs: %d is not in [1, 1024]\nTry 'memsim compare --help'\n", o.jobs);
    code = MS_EXIT_INPUT;
    goto out;
  }
  code = run(&o, files, fmt, &err);
  if (code < 0) code = ms_cli_fail("compare", err);
out:
  g_ptr_array_free(files, TRUE);
  opts_free(&o);
  g_option_context_free(ctx);
  return code;
}
