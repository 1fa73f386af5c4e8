/* main.c: memsim's entry point: verb dispatch from a table. */
#include "ms-cli.h"
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <string.h>

static int cmd_version(int argc, char **argv) {
  (void)argc;
  (void)argv;
  printf("memsim %s\n", MEMSIM_VERSION);
  return MS_EXIT_OK;
}

static const MsVerb verbs[] = {
    {"run", ms_cmd_run, "simulate a trace on a model and print time units, stages, conflicts"},
    {"convert", ms_cmd_convert, "convert a trace between forms (explicit JSON, binary)"},
    {"gen", ms_cmd_gen, "generate the trace of a verified workload algorithm"},
    {"perm-info", ms_cmd_perm_info, "print the distribution D_w(P) and per-warp stages of a permutation"},
    {"sat-best", ms_cmd_sat_best, "search (1+r)R1W's r for the lowest predicted SAT time"},
    {"measure", ms_cmd_measure, "run the CUDA kernels and record their times (needs a GPU)"},
    {"compare", ms_cmd_compare, "set predicted beside measured time, calibrate, report"},
    {"calibrate", ms_cmd_calibrate, "derive a GPU-grounded HMM model from calibration records"},
    {"sweep", ms_cmd_sweep, "run a grid of model keys and workload parameters, one CSV row per point"},
    {"version", cmd_version, "print the version"},
};

static void usage(FILE *out) {
  fprintf(out, "Usage: memsim VERB [OPTIONS...] [ARGS...]\n\n"
               "memsim simulates the parallel memory machine models of Nakano et al. (UMM, DMM,\n"
               "HMM, asynchronous HMM) and predicts the time of GPU memory access patterns.\n\n"
               "Verbs:\n");
  for (gsize i = 0; i < G_N_ELEMENTS(verbs); i++)
    fprintf(out, "  %-12s %s\n", verbs[i].name, verbs[i].summary);
  fprintf(out, "\nRun 'memsim VERB --help' for a verb's options.  Documentation: docs/cli.md.\n"
               "Exit status: 0 success, 1 verification failed, 2 bad input or usage, 3 no GPU.\n");
}

int main(int argc, char **argv) {
  setlocale(LC_ALL, "");
  if (argc < 2) {
    usage(stderr);
    return MS_EXIT_INPUT;
  }
  const char *verb = argv[1];
  if (strcmp(verb, "--help") == 0 || strcmp(verb, "-h") == 0 || strcmp(verb, "help") == 0) {
    usage(stdout);
    return MS_EXIT_OK;
  }
  if (strcmp(verb, "--version") == 0 || strcmp(verb, "-V") == 0) return cmd_version(0, NULL);
  /* a closed pipe is a write error (exit 2), not a silent death by SIGPIPE */
  signal(SIGPIPE, SIG_IGN);
  for (gsize i = 0; i < G_N_ELEMENTS(verbs); i++)
    if (strcmp(verbs[i].name, verb) == 0) {
      int code = verbs[i].fn(argc - 1, argv + 1);
      /* results on standard output that did not all arrive (a full disk, a closed pipe) */
      errno = 0;
      if ((fflush(stdout) != 0 || ferror(stdout)) && code == MS_EXIT_OK) {
        fprintf(stderr, "memsim %s: <stdout>: write error: %s\n", verb, errno ? g_strerror(errno) : "output lost");
        return MS_EXIT_INPUT;
      }
      return code;
    }
  fprintf(stderr, "memsim: unknown verb '%s'\nTry 'memsim --help'\n", verb);
  return MS_EXIT_INPUT;
}
