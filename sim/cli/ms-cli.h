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

/* Progress of a long simulation on stderr: always with `force`, else only when stderr is a
 * terminal and the run has taken a second; the line is refreshed in place and ended by
 * ms_cli_progress_end(). */
typedef struct {
  const char *verb;
  gboolean force, tty, shown;
  gint64 t0;
} MsCliProgress;
void ms_cli_progress_begin(MsCliProgress *p, const char *verb, gboolean force, gboolean quiet, MsSimOptions *opt);
void ms_cli_progress_end(MsCliProgress *p);



int ms_cmd_gen(int argc, char **argv);
int ms_cmd_gen_permutation(int argc, char **argv);
int ms_cmd_gen_sat(int argc, char **argv);
int ms_cmd_gen_gcd(int argc, char **argv);
int ms_cmd_gen_bpbc(int argc, char **argv);
int ms_cmd_gen_simple(int argc, char **argv);
int ms_cmd_gen_bulk(int argc, char **argv);
int ms_cmd_gen_gf2(int argc, char **argv);
int ms_cmd_gen_mul(int argc, char **argv);
int ms_cmd_perm_info(int argc, char **argv);
int ms_cmd_sat_best(int argc, char **argv);
int ms_cmd_measure(int argc, char **argv);
int ms_cmd_compare(int argc, char **argv);
int ms_cmd_calibrate(int argc, char **argv);
int ms_cmd_sweep(int argc, char **argv);

/* The end of every `gen` verb: with `run_model`, simulate `src` on it and print the result
 * (JSON if `json`); otherwise write the trace to `output` (NULL: stdout) in `format`
 * ("explicit" or "binary").  Takes ownership of src.  Returns the exit code. */
int ms_cli_gen_finish(const char *verb, MsSource *src, const char *output, const char *format,
                      const char *run_model, gboolean json);
/* Write text (e.g. a compact trace) to `output` (NULL: stdout).  Returns the exit code. */
int ms_cli_write_text(const char *verb, const char *text, const char *output);
#endif
