/* cmd-gen-bpbc.c: `memsim gen bpbc` (placeholder until its issue lands). */
#include "ms-cli.h"

int ms_cmd_gen_bpbc(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "memsim gen bpbc: not available in this build\n");
  return MS_EXIT_INPUT;
}
