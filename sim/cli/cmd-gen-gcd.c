/* cmd-gen-gcd.c: `memsim gen gcd` (placeholder until its issue lands). */
#include "ms-cli.h"

int ms_cmd_gen_gcd(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "memsim gen gcd: not available in this build\n");
  return MS_EXIT_INPUT;
}
