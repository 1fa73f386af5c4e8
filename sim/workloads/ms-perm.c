/* ms-perm.c: named permutations.  Definitions from seed 001 section 4.4: with i written in
 * m bits i_m ... i_1, shuffle rotates left by one bit (P(i_m..i_1) = i_{m-1}..i_1 i_m),
 * bit-reversal reverses the bits; transpose maps row r, column c of a sqrt(n) x sqrt(n)
 * matrix to row c, column r. */
#include "ms-perm.h"
#include "memsim.h"
#include <string.h>
#include <unistd.h>

guint64 ms_rand_next(guint64 *s) {
  guint64 z = (*s += G_GUINT64_CONSTANT(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

guint64 ms_rand_below(guint64 *s, guint64 bound) {
  guint64 lim = G_MAXUINT64 - G_MAXUINT64 % bound;
  guint64 r;
  do r = ms_rand_next(s);
  while (r >= lim);
  return r % bound;
}

static int log2_exact(guint64 n) {
  if (n == 0 || (n & (n - 1))) return -1;
  int m = 0;
  while ((G_GUINT64_CONSTANT(1) << m) < n) m++;
  return m;
}

gint64 *ms_perm_generate(const char *kind, guint64 n, guint64 seed, GError **error) {
  if (n == 0 || n > (G_GUINT64_CONSTANT(1) << 32)) {
    g_set_error(error, MS_ERROR, MS_ERROR_LIMIT, "permutation size %" G_GUINT64_FORMAT " is out of range [1, 2^32]", n);
    return NULL;
  }
  /* 8 bytes per element: refuse what would not fit in half the machine's memory */
  guint64 phys = ms_memory_limit(); /* physical memory, or ulimit -v when lower */
  if (phys > 0 && n > phys / 2 / sizeof(gint64)) {
    g_set_error(error, MS_ERROR, MS_ERROR_LIMIT,
                "a permutation of %" G_GUINT64_FORMAT " elements needs %.1f GiB: more than half the memory this process may use",
                n, (double)n * 8 / (1 << 30));
    return NULL;
  }
  int m = log2_exact(n);
  guint64 r = 0;
  if (strcmp(kind, "transpose") == 0) {
    while (r * r < n) r++;
    if (r * r != n) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                  "the transpose permutation needs n to be a perfect square, got %" G_GUINT64_FORMAT, n);
      return NULL;
    }
  } else if ((strcmp(kind, "shuffle") == 0 || strcmp(kind, "bit-reversal") == 0) && m < 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "the %s permutation needs n to be a power of two, got %" G_GUINT64_FORMAT, kind, n);
    return NULL;
  } else if (strcmp(kind, "identical") != 0 && strcmp(kind, "random") != 0 &&
             strcmp(kind, "shuffle") != 0 && strcmp(kind, "bit-reversal") != 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "unknown permutation \"%s\" (identical, random, transpose, shuffle, bit-reversal)", kind);
    return NULL;
  }
  gint64 *p = g_new(gint64, n);
  for (guint64 i = 0; i < n; i++) {
    guint64 v = i;
    if (kind[0] == 't') v = (i % r) * r + i / r;
    else if (kind[0] == 's') v = m ? ((i << 1) | (i >> (m - 1))) & (n - 1) : 0;
    else if (kind[0] == 'b') {
      v = 0;
      for (int b = 0; b < m; b++) v |= ((i >> b) & 1) << (m - 1 - b);
    }
    p[i] = (gint64)v;
  }
  if (kind[0] == 'r') {
    guint64 st = seed;
    for (guint64 i = n - 1; i > 0; i--) {
      guint64 j = ms_rand_below(&st, i + 1);
      gint64 t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
  }
  return p;
}

gboolean ms_perm_is_valid(const gint64 *p, guint64 n) {
  guint8 *seen = g_new0(guint8, n);
  gboolean ok = TRUE;
  for (guint64 i = 0; i < n && ok; i++) {
    if (p[i] < 0 || (guint64)p[i] >= n || seen[p[i]]) ok = FALSE;
    else seen[p[i]] = 1;
  }
  g_free(seen);
  return ok;
}

gint64 *ms_perm_inverse(const gint64 *p, guint64 n) {
  gint64 *q = g_new(gint64, n);
  for (guint64 i = 0; i < n; i++) q[p[i]] = (gint64)i;
  return q;
}
