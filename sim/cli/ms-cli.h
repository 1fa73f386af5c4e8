/* ms-cli.h: the memsim command's verbs (one file each) and their shared helpers. */
#ifndef MS_CLI_H
#define MS_CLI_H

#include "memsim.h"

/* Exit codes (docs/cli.md). */
enum {
  MS_EXIT_OK = 0,
  MS_EXIT_FAILURE = 1, /* a run that worked but found a failure (e.g. a verification) */
  MS_EXIT_INPUT = 2,   /* bad command line, bad model, trace or other input */
  MS_EXIT_GPU = 3,     /* no GPU, or GPU-side failure */
};

typedef int (*MsVerbFunc)(int argc, char **argv);

typedef struct {
  const char *name;
  MsVerbFunc fn;
  const char *summary;
} MsVerb;

int ms_cmd_run(int argc, char **argv);
int ms_cmd_convert(int argc, char **argv);

/* Parse a verb's options; prints the error and "Try 'memsim VERB --help'" on failure.
 * Returns FALSE on error (exit code in *code). */
gboolean ms_cli_parse(GOptionContext *ctx, const char *verb, int *argc, char ***argv, int *code);
/* Print an error (message, no prefix when it names a file already) and return the exit code
 * for it. */
int ms_cli_fail(const char *verb, GError *error);

#endif
