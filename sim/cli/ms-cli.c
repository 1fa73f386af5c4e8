/* ms-cli.c: helpers shared by the verbs. */
#include "ms-cli.h"
#include <unistd.h>

gboolean ms_cli_parse(GOptionContext *ctx, const char *verb, int *argc, char ***argv, int *code) {
  GError *err = NULL;
  if (!g_option_context_parse(ctx, argc, argv, &err)) {
    fprintf(stderr, "memsim %s: %s\nTry 'memsim %s --help'\n", verb, err->message, verb);
    g_error_free(err);
    *code = MS_EXIT_INPUT;
    return FALSE;
  }
  return TRUE;
}

int ms_cli_fail(const char *verb, GError *error) {
  int code = MS_EXIT_INPUT;
  if (error->domain == MS_ERROR && error->code == MS_ERROR_VERIFY) code = MS_EXIT_FAILURE;
  if (error->domain == MS_ERROR && error->code == MS_ERROR_GPU) code = MS_EXIT_GPU;
  fprintf(stderr, "memsim %s: %s\n", verb, error->message);
  g_error_free(error);
  return code;
}

static void progress_step(guint64 steps, gpointer data) {
  MsCliProgress *p = data;
  if (!p->force && g_get_monotonic_time() - p->t0 < G_USEC_PER_SEC) return;
  fprintf(stderr, "%smemsim %s: %" G_GUINT64_FORMAT " steps, %.0f s", p->tty ? "\r" : "", p->verb, steps,
          (double)(g_get_monotonic_time() - p->t0) / G_USEC_PER_SEC);
  if (!p->tty) fputc('\n', stderr);
  fflush(stderr);
  p->shown = TRUE;
}

void ms_cli_progress_begin(MsCliProgress *p, const char *verb, gboolean force, gboolean quiet, MsSimOptions *opt) {
  p->verb = verb;
  p->force = force;
  p->tty = isatty(fileno(stderr));
  p->shown = FALSE;
  p->t0 = g_get_monotonic_time();
  if (quiet || (!force && !p->tty)) return;
  opt->progress = progress_step;
  opt->progress_data = p;
  opt->progress_every = 1000;
}

void ms_cli_progress_end(MsCliProgress *p) {
  if (p->shown && p->tty) fputc('\n', stderr);
}
