#!/usr/bin/env bash
# permutation-colouring.sh: time the exact edge colouring of seed 001's regular bipartite
# multigraphs at the 4M (2^22) scale, and check every colour class is a perfect matching.
#   bank graph (DMM conflict-free):   w + w nodes, degree n/w   (edge i: i mod w -> P(i) mod w)
#   row graph  (HMM scheduled):       nbar + nbar nodes, degree nbar (edge i: i/nbar -> P(i)/nbar)
# Usage: bench/permutation-colouring.sh [BUILD_DIR]   (default build-permutation)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-permutation}
ninja -C "$build" sim/libmemsim.a >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/bench.c" <<'C'
#include "permutation/ms-permutation-private.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static void run(const char *what, const char *perm, guint64 n, guint32 nodes, int rows, guint64 seed) {
  GError *e = NULL;
  gint64 *P = ms_perm_generate(perm, n, seed, &e);
  if (!P) { fprintf(stderr, "%s\n", e->message); exit(1); }
  guint32 *l = g_new(guint32, n), *r = g_new(guint32, n), *c = g_new(guint32, n);
  guint64 nb = n / nodes;
  for (guint64 i = 0; i < n; i++) {
    l[i] = (guint32)(rows ? i / nb : i % nodes);
    r[i] = (guint32)(rows ? (guint64)P[i] / nb : (guint64)P[i] % nodes);
  }
  gint64 t0 = g_get_monotonic_time();
  if (!ms_bipartite_colour(nodes, n, l, r, c, &e)) { fprintf(stderr, "%s\n", e->message); exit(1); }
  gint64 t1 = g_get_monotonic_time();
  gboolean ok = ms_colouring_is_exact(nodes, n, l, r, c);
  printf("%-10s %-13s n = %8" G_GUINT64_FORMAT "  nodes = %4u + %-4u degree = %7" G_GUINT64_FORMAT "  %8.3f s  %s\n",
         what, perm, n, nodes, nodes, n / nodes, (double)(t1 - t0) / 1e6, ok ? "exact" : "NOT EXACT");
  g_free(P); g_free(l); g_free(r); g_free(c);
  if (!ok) exit(1);
}
int main(void) {
  const char *perms[] = {"random", "transpose", "bit-reversal", "shuffle"};
  for (int k = 0; k < 4; k++) run("bank", perms[k], 1u << 22, 32, 0, 1);
  for (int k = 0; k < 4; k++) run("row", perms[k], 1u << 22, 2048, 1, 1);
  /* degrees that are not powers of two: odd steps take a perfect matching first */
  run("bank", "random", 32u * 3u * 43691u, 32, 0, 2);   /* degree 131073 = 3 * 43691 (odd) */
  run("row", "random", 2016u * 2016u, 2016, 1, 3);     /* nbar = 63 * 32 */
  run("row", "transpose", 2016u * 2016u, 2016, 1, 3);
  return 0;
}
C
cc -O2 -o "$tmp/bench" "$tmp/bench.c" -I"$root/sim/include" -I"$root/sim/workloads" \
  "$build/sim/libmemsim.a" $(pkg-config --cflags --libs glib-2.0 libcjson gmp) -lm -lpthread
echo "machine: $(nproc) cores, $(uname -m); build: $build"
"$tmp/bench"
