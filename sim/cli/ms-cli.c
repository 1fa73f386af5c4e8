/* ms-cli.c: helpers shared by the verbs. */
#include "ms-cli.h"

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
