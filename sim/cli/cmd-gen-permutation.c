/* cmd-gen-permutation.c: `memsim gen permutation` (placeholder until its issue lands). */
#include "ms-cli.h"

int ms_cmd_gen_permutation(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "memsim gen permutation: not available in this build\n");
  return MS_EXIT_INPUT;
}

int ms_cmd_perm_info(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "memsim perm-info: not available in this build\n");
  return MS_EXIT_INPUT;
}
