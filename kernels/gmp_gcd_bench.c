/* gmp_gcd_bench: GMP's mpz_gcd on one CPU core, on the same inputs as the GPU
 * harness's semi-oblivious GCD records (kernels/gcd.cu, run_gcd: splitmix64
 * seeded with seed * 1000003 + bits; each pair = two odd (bits - 32)-bit
 * cofactors times one planted odd 32-bit factor), for the CPU side of the
 * issue's "GCD per 1024-bit pair against mpz_gcd" ratio.
 *
 *   cc -O2 -o /tmp/gmp_gcd_bench kernels/gmp_gcd_bench.c -lgmp
 *   /tmp/gmp_gcd_bench [-o traces/measured/cpu-gmp.json] [--bits B] [--instances N]
 *                      [--seed S] [--reps R]
 *
 * Runs single-threaded (one core); times R passes over all N pairs with
 * CLOCK_MONOTONIC and reports the median pass divided by N, plus min and
 * max. Checks every GMP result against a planted-factor divisibility test
 * (the planted factor must divide the GCD). Writes a small JSON record. */
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
static uint32_t rng_u32(void) { return (uint32_t)(rng_next() >> 32); }

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void json_escape(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    if ((unsigned char)*s >= 0x20) fputc(*s, f);
  }
  fputc('"', f);
}

int main(int argc, char **argv) {
  int bits = 1024, reps = 11;
  long inst = 65536;
  unsigned long long seed = 1;
  const char *out = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
    else if (!strcmp(argv[i], "--bits") && i + 1 < argc) bits = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--instances") && i + 1 < argc) inst = atol(argv[++i]);
    else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [-o FILE.json] [--bits B] [--instances N] [--seed S] [--reps R]\n", argv[0]);
      return 2;
    }
  }
  if (bits < 64 || bits % 32 || inst < 1 || reps < 1) {
    fprintf(stderr, "gmp_gcd_bench: bits must be a multiple of 32 >= 64\n");
    return 2;
  }
  const int words = bits / 32;
  mpz_t *x = malloc(sizeof(mpz_t) * inst), *y = malloc(sizeof(mpz_t) * inst);
  uint32_t *planted = malloc(sizeof(uint32_t) * inst);
  uint32_t *c = malloc(sizeof(uint32_t) * words);
  rng_seed(seed * 1000003ull + (uint64_t)bits);
  for (long t = 0; t < inst; t++) {
    uint32_t g = rng_u32() | 1u;
    planted[t] = g;
    for (int side = 0; side < 2; side++) {
      for (int k = 0; k < words - 1; k++) c[k] = rng_u32();
      c[0] |= 1u;
      c[words - 2] |= 0x80000000u;
      mpz_t *z = side == 0 ? &x[t] : &y[t];
      mpz_init(*z);
      mpz_import(*z, (size_t)(words - 1), -1, sizeof(uint32_t), 0, 0, c); /* least significant word first */
      mpz_mul_ui(*z, *z, g);
    }
  }
  mpz_t r;
  mpz_init(r);
  /* Check: the planted factor divides every GCD. */
  for (long t = 0; t < inst; t++) {
    mpz_gcd(r, x[t], y[t]);
    if (!mpz_divisible_ui_p(r, planted[t])) {
      fprintf(stderr, "gmp_gcd_bench: instance %ld: planted factor does not divide the gcd\n", t);
      return 1;
    }
  }
  double *pass = malloc(sizeof(double) * reps);
  unsigned long sink = 0;
  for (int k = 0; k < reps; k++) {
    double t0 = now_ns();
    for (long t = 0; t < inst; t++) {
      mpz_gcd(r, x[t], y[t]);
      sink += mpz_getlimbn(r, 0);
    }
    pass[k] = now_ns() - t0;
  }
  qsort(pass, (size_t)reps, sizeof(double), cmp_d);
  const double med = pass[reps / 2] / (double)inst, mn = pass[0] / (double)inst,
               mx = pass[reps - 1] / (double)inst;

  char cpu[256] = "unknown";
  FILE *ci = fopen("/proc/cpuinfo", "r");
  if (ci) {
    char line[512];
    while (fgets(line, sizeof line, ci))
      if (!strncmp(line, "model name", 10)) {
        char *p = strchr(line, ':');
        if (p) {
          p++;
          while (*p == ' ') p++;
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
  printf("gmp_gcd_bench: %s, GMP %s, %d-bit pairs, %ld instances, %d passes: median %.1f ns per GCD"
         " (min %.1f, max %.1f) [%lu]\n", cpu, gmp_version, bits, inst, reps, med, mn, mx, sink & 1);
  if (out) {
    FILE *f = fopen(out, "w");
    if (!f) {
      perror(out);
      return 2;
    }
    fprintf(f, "{\"memsim_cpu_gmp\": 1,\n \"cpu_model\": ");
    json_escape(f, cpu);
    fprintf(f, ",\n \"threads\": 1,\n \"gmp_version\": ");
    json_escape(f, gmp_version);
    fprintf(f, ",\n \"date\": \"%s\",\n \"function\": \"mpz_gcd\",\n"
               " \"inputs\": \"semi-oblivious pairs of kernels/gcd.cu (seed * 1000003 + bits, planted odd 32-bit factor)\",\n"
               " \"bits\": %d, \"instances\": %ld, \"seed\": %llu, \"passes\": %d,\n"
               " \"median_ns_per_gcd\": %.2f, \"min_ns_per_gcd\": %.2f, \"max_ns_per_gcd\": %.2f}\n",
            date, bits, inst, seed, reps, med, mn, mx);
    fclose(f);
  }
  for (long t = 0; t < inst; t++) {
    mpz_clear(x[t]);
    mpz_clear(y[t]);
  }
  mpz_clear(r);
  free(x);
  free(y);
  free(planted);
  free(c);
  free(pass);
  return 0;
}
