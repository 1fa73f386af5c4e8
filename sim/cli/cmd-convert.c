/* cmd-convert.c: `memsim convert TRACE [--to explicit|binary] [-o FILE]`. */
#include "ms-cli.h"
#include <errno.h>
#include <string.h>

int ms_cmd_convert(int argc, char **argv) {
  char *to = NULL, *output = NULL;
  GOptionEntry entries[] = {
      {"to", 't', 0, G_OPTION_ARG_STRING, &to, "Target form: explicit (default) or binary", "FORM"},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write to FILE instead of standard output ('-': standard output)", "FILE"},
      {NULL}};
  GOptionContext *ctx = g_option_context_new("TRACE - convert a trace to the explicit or binary form");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int code = MS_EXIT_OK;
  FILE *out = NULL;
  MsSource *src = NULL;
  if (!ms_cli_parse(ctx, "convert", &argc, &argv, &code)) goto done;
  if (argc != 2) {
    fprintf(stderr, "memsim convert: expected one TRACE\nTry 'memsim convert --help'\n");
    code = MS_EXIT_INPUT;
    goto done;
  }
  MsFormat fmt = MS_FORMAT_EXPLICIT;
  if (to && strcmp(to, "binary") == 0) fmt = MS_FORMAT_BINARY;
  else if (to && strcmp(to, "explicit") != 0) {
    fprintf(stderr, "memsim convert: --to: unknown form '%s' (explicit or binary)\nTry 'memsim convert --help'\n", to);
    code = MS_EXIT_INPUT;
    goto done;
  }
  GError *err = NULL;
  src = ms_trace_open(argv[1], &err);
  if (!src) {
    code = ms_cli_fail("convert", err);
    goto done;
  }
  if (output && strcmp(output, "-") == 0) g_clear_pointer(&output, g_free); /* "-": standard output */
  out = output ? fopen(output, "wb") : stdout;
  if (!out) {
    fprintf(stderr, "memsim convert: %s: cannot create: %s\n", output, g_strerror(errno));
    code = MS_EXIT_INPUT;
    goto done;
  }
  if (!ms_trace_write(src, fmt, out, output ? output : "<stdout>", &err)) {
    code = ms_cli_fail("convert", err);
    if (output) {
      fclose(out);
      out = NULL;
      remove(output);
    }
  }
done:
  if (out && out != stdout) fclose(out);
  ms_source_free(src);
  g_free(to);
  g_free(output);
  g_option_context_free(ctx);
  return code;
}
