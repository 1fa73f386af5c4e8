/* cmd-measure.c: `memsim measure` (placeholder until its issue lands). */
#include "ms-cli.h"

int ms_cmd_measure(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "memsim measure: not available in this build\n");
  return MS_EXIT_INPUT;
}
