/* bench/page-faults.c: what a first touch of fresh memory costs on this machine, on 4 KiB
 * pages and with MADV_HUGEPAGE (the engine's per-warp arrays, sim/core/ms-mem.c).
 *   cc -O2 -o pf bench/page-faults.c && ./pf [MiB]
 * Prints ns per 4 KiB touched and the AnonHugePages the process held after the touch. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static long anon_huge_kb(void) {
  FILE *f = fopen("/proc/self/smaps_rollup", "r");
  char line[256];
  long kb = -1;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "AnonHugePages: %ld kB", &kb) == 1) break;
  if (f) fclose(f);
  return kb;
}

int main(int argc, char **argv) {
  size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 256, len = mib << 20, huge = 2u << 20;
  for (int mode = 0; mode < 2; mode++)
    for (int rep = 0; rep < 3; rep++) {
      char *b = mmap(NULL, len + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (b == MAP_FAILED) return 1;
      char *p = (char *)(((unsigned long)b + huge - 1) & ~(unsigned long)(huge - 1));
      if (mode) madvise(p, len, MADV_HUGEPAGE);
      double t = now();
      for (size_t i = 0; i < len; i += 4096) p[i] = 1;
      t = now() - t;
      printf("%s %zu MiB: %.1f ns per 4 KiB page, AnonHugePages %ld kB\n", mode ? "MADV_HUGEPAGE" : "4 KiB pages  ",
             mib, t * 1e9 / (len / 4096), anon_huge_kb());
      munmap(b, len + huge);
    }
  return 0;
}
