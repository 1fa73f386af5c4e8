/* cmd-measure.c: `memsim measure`: run the CUDA harness memsim-measure (built from
 * kernels/ when nvcc is found).  It is a separate program because the GPU machine has the
 * CUDA toolkit but not GLib or cJSON; this verb finds it and passes the arguments on. */
#include "ms-cli.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>

/* memsim-measure next to this memsim (build/sim/memsim -> build/kernels/memsim-measure,
 * or an installed bin/), then $MEMSIM_MEASURE, then the PATH. */
static char *find_harness(void) {
  const char *env = g_getenv("MEMSIM_MEASURE");
  if (env && g_file_test(env, G_FILE_TEST_IS_EXECUTABLE)) return g_strdup(env);
  char *self = g_file_read_link("/proc/self/exe", NULL);
  if (self) {
    char *dir = g_path_get_dirname(self);
    const char *const rel[] = {"memsim-measure", "../kernels/memsim-measure", NULL};
    for (const char *const *r = rel; *r; r++) {
      char *p = g_build_filename(dir, *r, NULL);
      if (g_file_test(p, G_FILE_TEST_IS_EXECUTABLE)) {
        g_free(dir);
        g_free(self);
        return p;
      }
      g_free(p);
    }
    g_free(dir);
    g_free(self);
  }
  return g_find_program_in_path("memsim-measure");
}

int ms_cmd_measure(int argc, char **argv) {
  if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    printf("Usage: memsim measure [--workload permutation|sat|gcd|bpbc|all] [--quick] [-o FILE.json] [--csv FILE]\n\n"
           "Run the CUDA kernels of the workload families on the GPU, verify each output against a\n"
           "CPU reference and record kernel durations (CUPTI activity records, as nvprof did; CUDA\n"
           "events as a fallback).  Runs memsim-measure (built from kernels/ when nvcc is found;\n"
           "set MEMSIM_MEASURE to use another).  Its own options: memsim-measure --help.\n"
           "Schema of the records: docs/measurements.md.  Exit status 3 without a GPU.\n");
    return MS_EXIT_OK;
  }
  char *harness = find_harness();
  if (!harness) {
    fprintf(stderr, "memsim measure: memsim-measure was not built (it needs nvcc: see docs/measurements.md)\n");
    return MS_EXIT_GPU;
  }
  char **args = g_new0(char *, (gsize)argc + 1);
  args[0] = harness;
  for (int i = 1; i < argc; i++) args[i] = argv[i];
  fflush(stdout);
  execv(harness, args);
  fprintf(stderr, "memsim measure: cannot run %s: %s\n", harness, g_strerror(errno));
  g_free(args);
  g_free(harness);
  return MS_EXIT_GPU;
}
