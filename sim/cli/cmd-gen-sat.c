/* cmd-gen-sat.c: `memsim gen sat` (placeholder until its issue lands). */
#include "ms-cli.h"

int ms_cmd_gen_sat(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "memsim gen sat: not available in this build\n");
  return MS_EXIT_INPUT;
}

int ms_cmd_sat_best(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "memsim sat-best: not available in this build\n");
  return MS_EXIT_INPUT;
}
