/* cmd-compare.c: `memsim compare` (placeholder until its issue lands). */
#include "ms-cli.h"

int ms_cmd_compare(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "memsim compare: not available in this build\n");
  return MS_EXIT_INPUT;
}
