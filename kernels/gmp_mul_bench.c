/* gmp_mul_bench: GMP's mpz_mul on one CPU core, the CPU side of seed 002's Table 3.4
 * (10240 multiple-length multiplications of 64 to 65536 bits), for the multiplication
 * records of kernels/bulk.cu (MEMSIM_BULK_SWEEP=mul; docs/workloads/mul.md).
 *
 *   cc -O2 -o /tmp/gmp_mul_bench kernels/gmp_mul_bench.c -lgmp
 *   /tmp/gmp_mul_bench [-o FILE.json] [--products N] [--reps R] [--seed S]
 *
 * For each size, N random pairs of full-length operands (splitmix64 from the seed); R
 * passes of N products, timed with CLOCK_MONOTONIC; the median pass, its min and max.
 * Every product is checked modulo the prime 2^32 - 5 against the operands' residues.
 * Runs single-threaded; the JSON record names the CPU, GMP's version and the date. */
#define _POSIX_C_SOURCE 200809L
#include <gmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng_s;
static void rng_seed(uint64_t seed) { rng_s = seed * 0x9E3779B97F4A7C15ull + 1; }
static uint64_t rng_next(void) {
  uint64_t z = (rng_s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  static const int sizes[] = {64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
  const char *out = NULL;
  long n = 10240;
  int reps = 11;
  uint64_t seed = 1;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
    else if (!strcmp(argv[i], "--products") && i + 1 < argc) n = atol(argv[++i]);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
    else {
      fprintf(stderr, "usage: %s [-o FILE.json] [--products N] [--reps R] [--seed S]\n", argv[0]);
      return 2;
    }
  }
  if (n < 1 || reps < 1) {
    fprintf(stderr, "gmp_mul_bench: --products and --reps must be at least 1\n");
    return 2;
  }
  char cpu[256] = "unknown";
  FILE *ci = fopen("/proc/cpuinfo", "r");
  if (ci) {
    char line[512];
    while (fgets(line, sizeof line, ci))
      if (!strncmp(line, "model name", 10)) {
        char *p = strchr(line, ':');
        if (p) {
          p += 2;
          p[strcspn(p, "\n")] = 0;
          snprintf(cpu, sizeof cpu, "%s", p);
        }
        break;
      }
    fclose(ci);
  }
  char date[64];
  time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  FILE *f = out ? fopen(out, "w") : NULL;
  if (out && !f) {
    perror(out);
    return 1;
  }
  if (f)
    fprintf(f, "{\"memsim_cpu_baseline\": 1, \"what\": \"GMP mpz_mul, one core\", \"cpu\": \"%s\", \"gmp\": \"%s\", "
               "\"date\": \"%s\", \"products\": %ld, \"reps\": %d, \"seed\": %llu,\n \"records\": [",
            cpu, gmp_version, date, n, reps, (unsigned long long)seed);
  const uint32_t P = 4294967291u; /* 2^32 - 5 */
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
    const int bits = sizes[si], words = bits / 32;
    mpz_t *a = malloc(sizeof(mpz_t) * (size_t)n), *b = malloc(sizeof(mpz_t) * (size_t)n), *c = malloc(sizeof(mpz_t) * (size_t)n);
    uint32_t *w = malloc(sizeof(uint32_t) * (size_t)words);
    rng_seed(seed * 1000003ull + (uint64_t)bits);
    for (long t = 0; t < n; t++) {
      mpz_t *z[2] = {&a[t], &b[t]};
      for (int s = 0; s < 2; s++) {
        for (int k = 0; k < words; k++) w[k] = (uint32_t)(rng_next() >> 32);
        w[words - 1] |= 0x80000000u; /* full length */
        mpz_init(*z[s]);
        mpz_import(*z[s], (size_t)words, -1, sizeof(uint32_t), 0, 0, w);
      }
      mpz_init2(c[t], (mp_bitcnt_t)(2 * bits));
    }
    double *pass = malloc(sizeof(double) * (size_t)reps);
    for (int k = 0; k < reps; k++) {
      double t0 = now_ns();
      for (long t = 0; t < n; t++) mpz_mul(c[t], a[t], b[t]);
      pass[k] = now_ns() - t0;
    }
    for (long t = 0; t < n; t++) {
      uint64_t ra = mpz_fdiv_ui(a[t], P), rb = mpz_fdiv_ui(b[t], P), rc = mpz_fdiv_ui(c[t], P);
      if (ra * rb % P != rc) {
        fprintf(stderr, "gmp_mul_bench: %d bits, product %ld: wrong modulo 2^32 - 5\n", bits, t);
        return 1;
      }
    }
    qsort(pass, (size_t)reps, sizeof(double), cmp_d);
    const double med = pass[reps / 2];
    printf("%-6d bits: %ld products in %.3f ms (median of %d; min %.3f, max %.3f), %.1f ns a product, checked\n", bits, n,
           med / 1e6, reps, pass[0] / 1e6, pass[reps - 1] / 1e6, med / (double)n);
    if (f)
      fprintf(f, "%s\n  {\"bits\": %d, \"median_ns\": %.0f, \"min_ns\": %.0f, \"max_ns\": %.0f, \"ns_per_product\": %.2f, \"verified\": true}",
              si ? "," : "", bits, med, pass[0], pass[reps - 1], med / (double)n);
    for (long t = 0; t < n; t++) {
      mpz_clear(a[t]);
      mpz_clear(b[t]);
      mpz_clear(c[t]);
    }
    free(a);
    free(b);
    free(c);
    free(w);
    free(pass);
  }
  if (f) {
    fprintf(f, "\n ]}\n");
    fclose(f);
  }
  return 0;
}
