/* ms-compare-traces.c: the traces `memsim compare` builds itself, for kernels whose launch
 * shape no workload generator describes (docs/validation.md, "From a record to a trace").
 *
 * Two kinds:
 *   - kernel traces written here in the compact form (sat_copy, life_multistep,
 *     life_multistep_shuffle of kernels/sat.cu and kernels/bpbc.cu): their addresses are
 *     fixed functions of the thread index, so the kernel's loops are written out as they are;
 *   - wrappers around a generator's verified trace: the DMM permutation kernel (the
 *     generator's one pass, repeated, with the kernel's global load and store around it, in
 *     every block of the launch) and a regrouping of threads into the kernel's blocks.
 * A 64-bit word is one request at its even 32-bit word address, as in the bpbc family. */
#include "ms-compare.h"
#include <string.h>

static MsSource *open_text(char *text, const char *name, guint64 shared_words, guint64 global_words,
                           GError **error) {
  MsSource *s = ms_trace_open_memory(text, strlen(text), name, error);
  g_free(text);
  if (s && shared_words) ms_source_set_shared_words(s, shared_words);
  if (s && global_words) ms_source_set_global_words(s, global_words);
  return s;
}

#define U "%" G_GUINT64_FORMAT

/* kernels/sat.cu sat_copy: the n x n matrix as n4 = n^2 / 4 16-byte vectors, grid-stride
 * over min(ceil(n4 / 256), 132 x 64) blocks of 256 threads (the kernel's launch).  Per turn k
 * of its loop, thread t copies vector i = k G + t (G the grid's threads) while i < n4: one
 * 16-byte load, which the GPU serves as 4 requests of 32 consecutive words (a warp's 512
 * bytes; lane l's j-th is word 4 (i - l) + 32 j + l), then the store, the same 4 requests.
 * (Until 2026-11-25 the trace was one thread per 32-bit word, n^2 threads of one load and
 * one store: the same stages, but a warp's loads in flight were a quarter of the kernel's.) */
MsSource *ms_cmp_sat_copy(guint64 n, GError **error) {
  const guint64 n4 = n * n / 4, blocks = MIN((n4 + 255) / 256, 132 * 64), G = blocks * 256;
  const guint64 K = (n4 + G - 1) / G;
  GString *st = g_string_new(NULL);
  for (int w = 0; w < 2; w++)
    for (int j = 0; j < 4; j++)
      g_string_append_printf(st, "%s{\"op\": \"%s\", \"addr\": \"%s[4 * (k * G + tid) - 3 * (tid %% 32) + %d]\","
                                 " \"when\": \"k * G + tid < n4\"}",
                             st->len ? ", " : "", w ? "write" : "read", w ? "b" : "a", 32 * j);
  char *t = g_strdup_printf(
      "{\"memsim_trace\": 1, \"form\": \"compact\", \"name\": \"sat copy of a " U " x " U " matrix\","
      " \"threads\": " U ", \"block_threads\": 256, \"constants\": {\"n4\": " U ", \"G\": " U "},"
      " \"arrays\": {\"a\": {\"base\": 0, \"length\": " U "}, \"b\": {\"length\": " U "}},"
      " \"steps\": [{\"repeat\": " U ", \"var\": \"k\", \"steps\": [%s]}]}",
      n, n, G, n4, G, n * n, n * n, K, st->str);
  g_string_free(st, TRUE);
  return open_text(t, "sat copy", 0, 2 * n * n, error);
}

/* kernels/permutation.cu hmm_transpose<<<(nbar / 32, nbar / 32), (32, 8)>>>: a block of 256
 * threads (tx = ltid % 32, ty = ltid / 32) per 32 x 32 tile (bx = bid % T, by = bid / T, T =
 * nbar / 32), 4 rows per thread: 4 loads a[(32 by + ty + 8k) nbar + 32 bx + tx] (nvcc issues
 * them together), their stores to the skewed shared tile t[r 32 + ((r + tx) & 31)], the
 * block barrier, then 4 shared loads t[tx 32 + ((tx + c) & 31)] and their stores to
 * b[(32 bx + c) nbar + 32 by + tx], c = ty + 8k.  (The generator's trace is one thread per
 * element in tiles of 1024 threads, the seed's algorithm: the same requests with a quarter
 * of the kernel's loads in flight per warp.) */
MsSource *ms_cmp_hmm_transpose(guint64 n, GError **error) {
  guint64 nb = 0;
  while ((nb + 1) * (nb + 1) <= n) nb++;
  if (nb * nb != n || nb % 32) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "hmm-transpose kernel: n " U " is not nbar x nbar with nbar a multiple of 32", n);
    return NULL;
  }
  GString *st = g_string_new(NULL);
  for (int k = 0; k < 4; k++)
    g_string_append_printf(st, "{\"op\": \"read\", \"addr\": \"(bid / T * 32 + ltid / 32 + %d) * N + bid %% T * 32 + ltid %% 32\"}, ", 8 * k);
  for (int k = 0; k < 4; k++)
    g_string_append_printf(st, "{\"op\": \"write\", \"space\": \"shared\", \"addr\": \"(ltid / 32 + %d) * 32 + ((ltid / 32 + %d + ltid %% 32) & 31)\"}, ",
                           8 * k, 8 * k);
  g_string_append(st, "{\"op\": \"sync\", \"scope\": \"block\"}");
  for (int k = 0; k < 4; k++)
    g_string_append_printf(st, ", {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"ltid %% 32 * 32 + ((ltid %% 32 + ltid / 32 + %d) & 31)\"}", 8 * k);
  for (int k = 0; k < 4; k++)
    g_string_append_printf(st, ", {\"op\": \"write\", \"addr\": \"N * N + (bid %% T * 32 + ltid / 32 + %d) * N + bid / T * 32 + ltid %% 32\"}", 8 * k);
  char *t = g_strdup_printf(
      "{\"memsim_trace\": 1, \"form\": \"compact\", \"name\": \"hmm-transpose kernel, " U " x " U "\","
      " \"threads\": " U ", \"block_threads\": 256, \"constants\": {\"N\": " U ", \"T\": " U "},"
      " \"steps\": [%s]}",
      nb, nb, (nb / 32) * (nb / 32) * 256, nb, nb / 32, st->str);
  g_string_free(st, TRUE);
  return open_text(t, "hmm-transpose kernel", 1024, 2 * n, error);
}

/* kernels/sat.cu sat_1r1w_lookback<V, H> (H = 32, V = 2 since 2026-11-26; H = 16, V = 4
 * the kernel of 2026-11-25; the record says which, strip_rows and cols_per_thread): one
 * block of 256 threads per strip of H rows (the strip from an atomic ticket, taken here as
 * the block index), walking chunks of C = 256 V columns left to right.
 * A global V-word vector access of a warp is V requests of 32 consecutive words (the warp's
 * 128 V bytes, whole groups, as in ms_cmp_sat_copy); a shared one is one request at the
 * thread's first word (lanes V words apart: V-way in the banks, the wavefronts of a wide
 * shared access).  The row totals' table T has rows of NSEG = 256 / H segments of H
 * threads, H + 4 words apart (RS = NSEG (H + 4)).  Per chunk, thread t: H loads of its V
 * words of each row, its V column sums to aggv (strip 0: incv), barrier A; thread 0 stores the
 * chunk's flag and (strips > 0) warp 0 reads the 32 flags above it once (the look-back finding the
 * strip above inclusive); each thread stores its H row totals in T (thread t at
 * t + 4 (t / H)); barrier B; strips > 0 read the strip above's
 * incv and store their own; lane 31 of each warp stores its excl total; barrier C; the flag;
 * thread (r, g) = (t / NSEG, t % NSEG) reads its H totals of row r (H / 4 16-byte reads), the
 * row's carry, writes the H offsets back, and (g = NSEG - 1) the new carry;
 * every thread reads excl's carry and the excl totals of the warps before it; barrier D;
 * thread 255 stores excl's carry; H reads of its offsets and H stores of the result.  The
 * spin on the strip above: thread 0 signals flag (strip, chunk) when its first flag store
 * (the chunk's aggregate) has completed, and warp 0 of the strip below waits for it before
 * its look-back reads (docs/models.md, "Flags"; since 2026-11-26, before that strips ran as
 * if independent).  The kernel may also need an inclusive flag further up; in its steady
 * state, strips a chunk apart, those are set.  The flags' release and acquire are orderings,
 * not accesses. */
/* kernels/sat.cu sat_1r1w_stage<<<tiles, 128>>>(a, b, n, k), k = 0 … 2T − 2 (T = n / 32): block
 * q of call k is tile (I, J) = (max(0, k − T + 1) + q, k − I) (tile_of).  Per tile, as its SASS
 * (`cuobjdump -sass`, 2026-11-27) runs it: tile_load's 8 rounds, each a load of row 4q + warp
 * (LDG) and its store to the padded tile t[32][33] (STS) before the next load; the borders,
 * warp 0 the row above (I > 0), warp 1 the column to the left (J > 0: one word of each of 32
 * rows), thread 64 the corner, each stored to shared memory (top, left, corner after t; 0 where
 * there is none); the barrier; the column pass of warp 0 (its 32 reads of t[r][ltid] hoisted
 * above the adds by the compiler: 32 reads, then the 32 writes); the barrier; the row pass
 * the same over t[ltid][c]; the barrier; the corner read once, then 8 rounds of t[r][c],
 * top[c] and left[r] (a broadcast) read and b's element stored.  (The generator's `1r1w`, which
 * the comparer ran until 2026-11-27, is the seed's stage: the left border from ColT, serial
 * passes; docs/validation.md, "The SAT tile kernels".) */
static char *stage_1r1w(const char *k, gboolean chains) {
  char *I = g_strdup_printf("(max(0, %s - T + 1) + bid)", k);
  char *J = g_strdup_printf("(%s - %s)", k, I);
  char *act = g_strdup_printf("bid <= min(%s, 2 * T - 2 - %s)", k, k);
  /* chains: the running sum's add before each write of a pass (the SASS: the 32 reads, then a
   * chain of 32 IADD, each followed by its STS) */
  char *cp = chains ? g_strdup_printf("{\"op\": \"compute\", \"instructions\": \"1\", \"when\": \"%s && ltid < 32\"}, ", act)
                    : g_strdup("");
  char *t = g_strdup_printf(
      "{\"repeat\": 8, \"var\": \"q\", \"steps\": ["
      " {\"op\": \"read\", \"addr\": \"a[(%s * 32 + q * 4 + ltid / 32) * N + %s * 32 + ltid %% 32]\", \"when\": \"%s\"},"
      " {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"(q * 4 + ltid / 32) * 33 + ltid %% 32\", \"when\": \"%s\"}]},"
      "{\"op\": \"read\", \"addr\": \"b[(%s * 32 - 1) * N + %s * 32 + ltid]\", \"when\": \"%s && ltid < 32 && %s > 0\"},"
      "{\"op\": \"read\", \"addr\": \"b[(%s * 32 + ltid - 32) * N + %s * 32 - 1]\", \"when\": \"%s && ltid >= 32 && ltid < 64 && %s > 0\"},"
      "{\"op\": \"read\", \"addr\": \"b[(%s * 32 - 1) * N + %s * 32 - 1]\", \"when\": \"%s && ltid == 64 && %s > 0 && %s > 0\"},"
      "{\"op\": \"write\", \"space\": \"shared\", \"addr\": \"1056 + ltid\", \"when\": \"%s && ltid < 65\"},"
      "{\"op\": \"sync\", \"scope\": \"block\"},"
      "{\"repeat\": 32, \"var\": \"r\", \"steps\": [{\"op\": \"read\", \"space\": \"shared\", \"addr\": \"r * 33 + ltid\", \"when\": \"%s && ltid < 32\"}]},"
      "{\"repeat\": 32, \"var\": \"r\", \"steps\": [%s{\"op\": \"write\", \"space\": \"shared\", \"addr\": \"r * 33 + ltid\", \"when\": \"%s && ltid < 32\"}]},"
      "{\"op\": \"sync\", \"scope\": \"block\"},"
      "{\"repeat\": 32, \"var\": \"c\", \"steps\": [{\"op\": \"read\", \"space\": \"shared\", \"addr\": \"ltid * 33 + c\", \"when\": \"%s && ltid < 32\"}]},"
      "{\"repeat\": 32, \"var\": \"c\", \"steps\": [%s{\"op\": \"write\", \"space\": \"shared\", \"addr\": \"ltid * 33 + c\", \"when\": \"%s && ltid < 32\"}]},"
      "{\"op\": \"sync\", \"scope\": \"block\"},"
      "{\"op\": \"read\", \"space\": \"shared\", \"addr\": \"1120\", \"when\": \"%s\"},"
      "{\"repeat\": 8, \"var\": \"q\", \"steps\": ["
      " {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"(q * 4 + ltid / 32) * 33 + ltid %% 32\", \"when\": \"%s\"},"
      " {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"1056 + ltid %% 32\", \"when\": \"%s\"},"
      " {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"1088 + q * 4 + ltid / 32\", \"when\": \"%s\"},"
      " {\"op\": \"write\", \"addr\": \"b[(%s * 32 + q * 4 + ltid / 32) * N + %s * 32 + ltid %% 32]\", \"when\": \"%s\"}]}",
      I, J, act, act, I, J, act, I, I, J, act, J, I, J, act, I, J, act, act, cp, act, act, cp, act, act, act, act, act, I, J,
      act);
  g_free(I);
  g_free(J);
  g_free(act);
  g_free(cp);
  return t;
}

MsSource *ms_cmp_sat_1r1w_stages(guint64 n, gboolean chains, GError **error) {
  const guint64 W = 32, T = n / W;
  if (n < W || n % W) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "1r1w stage kernels: n " U " is not a multiple of 32", n);
    return NULL;
  }
  char *body = stage_1r1w("k", chains), *last = stage_1r1w("(2 * T - 2)", chains);
  char *t = g_strdup_printf(
      "{\"memsim_trace\": 1, \"form\": \"compact\", \"name\": \"sat 1r1w stage kernels n=" U "\","
      " \"threads\": " U ", \"block_threads\": 128, \"shared_words\": 1121,"
      " \"constants\": {\"N\": " U ", \"T\": " U "},"
      " \"arrays\": {\"a\": {\"base\": 0, \"length\": " U "}, \"b\": {\"length\": " U "}},"
      " \"steps\": [%s%s%s%s]}",
      n, T * 128, n, T, n * n, n * n,
      T > 1 ? "{\"repeat\": \"2 * T - 2\", \"var\": \"k\", \"steps\": [" : "", T > 1 ? body : "",
      T > 1 ? ", {\"op\": \"sync\", \"scope\": \"grid\"}]}, " : "", last);
  g_free(body);
  g_free(last);
  return open_text(t, "sat 1r1w stage kernels", 1121, 2 * n * n, error);
}

/* kernels/sat.cu sat_1r1w_ordered: one block of TT = 128 threads per 32 x 32 tile, the tiles
 * taken by ticket in anti-diagonal order from diagonal m on (m = 0: 1r1w-ordered; 1+r-ordered
 * runs 2R1W on the first m diagonals before, whose borders this kernel reads from b).  Block q
 * (the ticket, taken in block order) is tile (TI[q], TJ[q]) of tile_of_diag.  Warp w holds rows
 * 8w .. 8w + 7 of the tile in registers: 8 row loads, the warp scans (40 shuffles), the warps'
 * totals through shared memory (wsum), then the borders: warp 0 the row above (from b if
 * that tile is on a diagonal below m, else rowb once the tile above has published it), warp
 * 1 the column to the left (colb, whose entries warp w' of the left tile published), thread
 * 64 the corner; a barrier; each thread reads its border values; warp 3 publishes the tile's
 * bottom row in rowb, every warp its 8 right-column values in colb (64-bit words: value and
 * flag in one store, one request at the even word as everywhere here); then the 8 row stores.  Flags (docs/models.md, "Flags"): R(I, J) = I T
 * + J, set by warp 3 after its rowb store; C(I, J, w) = T^2 + 4 (I T + J) + w, by warp w after
 * its colb store; the pollers wait for them before their reads. */
static void tile_of_diag(guint64 T, guint64 q, guint64 *I, guint64 *J) {
  const gboolean mirror = q >= T * (T + 1) / 2;
  if (mirror) q = T * T - 1 - q;
  guint64 k = 0;
  while ((k + 1) * (k + 2) / 2 <= q) k++;
  *I = q - k * (k + 1) / 2;
  *J = k - *I;
  if (mirror) {
    *I = T - 1 - *I;
    *J = T - 1 - *J;
  }
}

MsSource *ms_cmp_sat_ordered(guint64 n, guint64 m, GError **error) {
  const guint64 W = 32, T = n / W;
  if (n < W || n % W || m > T) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "1r1w-ordered kernel: n " U " is not a multiple of 32, or m " U " is beyond its " U " tile diagonals", n, m, T);
    return NULL;
  }
  const guint64 first = m * (m + 1) / 2, tiles = T * T - first;
  GString *ti = g_string_sized_new(T * T * 5), *tj = g_string_sized_new(T * T * 5);
  guint64 kk = 0; /* the diagonal walk, incremental (tile_of_diag's closed form per tile) */
  for (guint64 x = 0; x < T * T; x++) { /* every tile in diagonal order: the triangle's first */
    guint64 I, J;
    if (x < T * (T + 1) / 2) {
      while ((kk + 1) * (kk + 2) / 2 <= x) kk++;
      I = x - kk * (kk + 1) / 2;
      J = kk - I;
    } else {
      tile_of_diag(T, x, &I, &J);
    }
    g_string_append_printf(ti, "%s" U, x ? "," : "", I);
    g_string_append_printf(tj, "%s" U, x ? "," : "", J);
  }
  /* shared words: wsum 4 x 32, top 32, left 32, corner, the ticket; 2R1W's tiles 32 x 33 */
  const guint64 sw = m ? W * (W + 1) : 4 * W + 2 * W + 2;
  /* every kernel's threads; each step names its own (bid < NT: the ordered kernel's tiles) */
  const guint64 threads = MAX(MAX(tiles, first) * 128, m ? 2 * n : 0);
  /* 1+r-ordered: launch_2r1w(B, 0, m - 1) first, five kernels over the triangle's F tiles
   * (TI[bid], TJ[bid], bid < F): sums (each tile's column sums, row sums and total), the
   * exclusive prefixes of the sums down the tiles (2n threads, loads in eights, then the
   * stores), the two passes over the tile totals U (T threads; blocks of 64 in the kernel, of
   * 128 here), and the tiles' SATs with those offsets; tile_load reads row 4q + warp, q < 8. */
  char *tri = m == 0 ? g_strdup("") : g_strdup_printf(
      "  {\"repeat\": 8, \"var\": \"q\", \"steps\": ["
      "   {\"op\": \"read\", \"addr\": \"a[(TI[bid] * 32 + q * 4 + ltid / 32) * N + TJ[bid] * 32 + ltid %% 32]\", \"when\": \"bid < F\"},"
      "   {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"(q * 4 + ltid / 32) * 33 + ltid %% 32\", \"when\": \"bid < F\"}]},"
      "  {\"op\": \"sync\", \"scope\": \"block\"},"
      "  {\"repeat\": 32, \"var\": \"q\", \"steps\": ["
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"q * 33 + ltid\", \"when\": \"bid < F && ltid < 32\"},"
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"(ltid - 32) * 33 + q\", \"when\": \"bid < F && ltid >= 32 && ltid < 64\"}]},"
      "  {\"op\": \"write\", \"addr\": \"colsum[TI[bid] * N + TJ[bid] * 32 + ltid]\", \"when\": \"bid < F && ltid < 32\"},"
      "  {\"op\": \"write\", \"addr\": \"rowsumT[TJ[bid] * N + TI[bid] * 32 + ltid - 32]\", \"when\": \"bid < F && ltid >= 32 && ltid < 64\"},"
      "  {\"repeat\": 5, \"var\": \"q\", \"steps\": [{\"op\": \"shuffle\", \"when\": \"bid < F && ltid >= 32 && ltid < 64\"}]},"
      "  {\"op\": \"write\", \"addr\": \"Ut[TI[bid] * T + TJ[bid]]\", \"when\": \"bid < F && ltid == 32\"},"
      "  {\"op\": \"sync\", \"scope\": \"grid\"},"
      "  {\"repeat\": \"T / 8\", \"var\": \"g\", \"steps\": ["
      "   {\"repeat\": 8, \"var\": \"u\", \"steps\": [{\"op\": \"read\", \"addr\":"
      "     \"tid < N ? colsum[(g * 8 + u) * N + tid] : rowsumT[(g * 8 + u) * N + tid - N]\", \"when\": \"tid < 2 * N\"}]},"
      "   {\"repeat\": 8, \"var\": \"u\", \"steps\": [{\"op\": \"write\", \"addr\":"
      "     \"tid < N ? colpre[(g * 8 + u) * N + tid] : rowpre[(g * 8 + u) * N + tid - N]\", \"when\": \"tid < 2 * N\"}]}]},"
      "  {\"op\": \"sync\", \"scope\": \"grid\"},"
      "  {\"repeat\": \"T\", \"var\": \"k\", \"steps\": ["
      "   {\"op\": \"write\", \"addr\": \"V[k * T + tid]\", \"when\": \"tid < T\"},"
      "   {\"op\": \"read\", \"addr\": \"Ut[k * T + tid]\", \"when\": \"tid < T\"}]},"
      "  {\"op\": \"sync\", \"scope\": \"grid\"},"
      "  {\"repeat\": \"T\", \"var\": \"k\", \"steps\": ["
      "   {\"op\": \"write\", \"addr\": \"Upre[tid * T + k]\", \"when\": \"tid < T\"},"
      "   {\"op\": \"read\", \"addr\": \"V[tid * T + k]\", \"when\": \"tid < T\"}]},"
      "  {\"op\": \"sync\", \"scope\": \"grid\"},"
      "  {\"repeat\": 8, \"var\": \"q\", \"steps\": ["
      "   {\"op\": \"read\", \"addr\": \"a[(TI[bid] * 32 + q * 4 + ltid / 32) * N + TJ[bid] * 32 + ltid %% 32]\", \"when\": \"bid < F\"},"
      "   {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"(q * 4 + ltid / 32) * 33 + ltid %% 32\", \"when\": \"bid < F\"}]},"
      "  {\"op\": \"sync\", \"scope\": \"block\"},"
      "  {\"op\": \"read\", \"addr\": \"colpre[TI[bid] * N + TJ[bid] * 32 + ltid]\", \"when\": \"bid < F && ltid < 32\"},"
      "  {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"ltid\", \"when\": \"bid < F && ltid < 32\"},"
      "  {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"ltid\", \"when\": \"bid < F && ltid < 32\"},"
      "  {\"op\": \"sync\", \"scope\": \"block\"},"
      "  {\"op\": \"read\", \"addr\": \"rowpre[TJ[bid] * N + TI[bid] * 32 + ltid]\", \"when\": \"bid < F && ltid < 32\"},"
      "  {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"ltid * 33\", \"when\": \"bid < F && ltid < 32\"},"
      "  {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"ltid * 33\", \"when\": \"bid < F && ltid < 32\"},"
      "  {\"op\": \"read\", \"addr\": \"Upre[TI[bid] * T + TJ[bid]]\", \"when\": \"bid < F && ltid == 0\"},"
      "  {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"0\", \"when\": \"bid < F && ltid == 0\"},"
      "  {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"0\", \"when\": \"bid < F && ltid == 0\"},"
      "  {\"op\": \"sync\", \"scope\": \"block\"},"
      "  {\"repeat\": 32, \"var\": \"q\", \"steps\": ["
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"q * 33 + ltid\", \"when\": \"bid < F && ltid < 32\"},"
      "   {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"q * 33 + ltid\", \"when\": \"bid < F && ltid < 32\"}]},"
      "  {\"op\": \"sync\", \"scope\": \"block\"},"
      "  {\"repeat\": 32, \"var\": \"q\", \"steps\": ["
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"ltid * 33 + q\", \"when\": \"bid < F && ltid < 32\"},"
      "   {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"ltid * 33 + q\", \"when\": \"bid < F && ltid < 32\"}]},"
      "  {\"op\": \"sync\", \"scope\": \"block\"},"
      "  {\"repeat\": 8, \"var\": \"q\", \"steps\": ["
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"(q * 4 + ltid / 32) * 33 + ltid %% 32\", \"when\": \"bid < F\"},"
      "   {\"op\": \"write\", \"addr\": \"b[(TI[bid] * 32 + q * 4 + ltid / 32) * N + TJ[bid] * 32 + ltid %% 32]\", \"when\": \"bid < F\"}]},"
      "  {\"op\": \"sync\", \"scope\": \"grid\"},");
  char *t = g_strdup_printf(
      "{\"memsim_trace\": 1, \"form\": \"compact\","
      " \"name\": \"sat 1r1w-ordered kernel n=" U " from tile diagonal " U "\","
      " \"threads\": " U ", \"block_threads\": 128, \"shared_words\": " U ","
      " \"constants\": {\"N\": " U ", \"T\": " U ", \"M\": " U ", \"F\": " U ", \"NT\": " U "},"
      " \"arrays\": {\"a\": {\"base\": 0, \"length\": " U "}, \"b\": {\"length\": " U "},"
      "  \"rowb\": {\"length\": " U "}, \"colb\": {\"length\": " U "},"
      "  \"ticket\": {\"length\": 1}, \"colsum\": {\"length\": " U "}, \"rowsumT\": {\"length\": " U "},"
      "  \"colpre\": {\"length\": " U "}, \"rowpre\": {\"length\": " U "}, \"Ut\": {\"length\": " U "},"
      "  \"V\": {\"length\": " U "}, \"Upre\": {\"length\": " U "},"
      "  \"TI\": {\"data\": [%s]}, \"TJ\": {\"data\": [%s]}},"
      " \"steps\": [%s"
      "  {\"op\": \"read\", \"addr\": \"ticket[0]\", \"when\": \"bid < NT && ltid == 0\"},"
      "  {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"193\", \"when\": \"bid < NT && ltid == 0\"},"
      "  {\"op\": \"sync\", \"scope\": \"block\"},"
      "  {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"193\", \"when\": \"bid < NT\"},"
      "  {\"repeat\": 8, \"var\": \"q\", \"steps\": ["
      "   {\"op\": \"read\", \"addr\": \"a[(TI[bid + F] * 32 + ltid / 32 * 8 + q) * N + TJ[bid + F] * 32 + ltid %% 32]\", \"when\": \"bid < NT\"}]},"
      "  {\"repeat\": 40, \"var\": \"q\", \"steps\": [{\"op\": \"shuffle\", \"when\": \"bid < NT\"}]},"
      "  {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"ltid\", \"when\": \"bid < NT\"},"
      "  {\"op\": \"sync\", \"scope\": \"block\"},"
      "  {\"repeat\": 3, \"var\": \"w\", \"steps\": ["
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"w * 32 + ltid %% 32\", \"when\": \"bid < NT && w < ltid / 32\"}]},"
      "  {\"op\": \"read\", \"addr\": \"b[(TI[bid + F] * 32 - 1) * N + TJ[bid + F] * 32 + ltid]\","
      "   \"when\": \"bid < NT && ltid < 32 && TI[bid + F] > 0 && TI[bid + F] - 1 + TJ[bid + F] < M\"},"
      "  {\"op\": \"wait\", \"flag\": \"(TI[bid + F] - 1) * T + TJ[bid + F]\","
      "   \"when\": \"bid < NT && ltid < 32 && TI[bid + F] > 0 && TI[bid + F] - 1 + TJ[bid + F] >= M\"},"
      "  {\"op\": \"read\", \"addr\": \"rowb[2 * ((TI[bid + F] - 1) * N + TJ[bid + F] * 32 + ltid)]\","
      "   \"when\": \"bid < NT && ltid < 32 && TI[bid + F] > 0 && TI[bid + F] - 1 + TJ[bid + F] >= M\"},"
      "  {\"op\": \"read\", \"addr\": \"b[(TI[bid + F] * 32 + ltid - 32) * N + TJ[bid + F] * 32 - 1]\","
      "   \"when\": \"bid < NT && ltid >= 32 && ltid < 64 && TJ[bid + F] > 0 && TI[bid + F] + TJ[bid + F] - 1 < M\"},"
      "  {\"op\": \"wait\", \"flag\": \"T * T + 4 * (TI[bid + F] * T + TJ[bid + F] - 1) + (ltid - 32) / 8\","
      "   \"when\": \"bid < NT && ltid >= 32 && ltid < 64 && TJ[bid + F] > 0 && TI[bid + F] + TJ[bid + F] - 1 >= M\"},"
      "  {\"op\": \"read\", \"addr\": \"colb[2 * ((TJ[bid + F] - 1) * N + TI[bid + F] * 32 + ltid - 32)]\","
      "   \"when\": \"bid < NT && ltid >= 32 && ltid < 64 && TJ[bid + F] > 0 && TI[bid + F] + TJ[bid + F] - 1 >= M\"},"
      "  {\"op\": \"read\", \"addr\": \"b[(TI[bid + F] * 32 - 1) * N + TJ[bid + F] * 32 - 1]\","
      "   \"when\": \"bid < NT && ltid == 64 && TI[bid + F] > 0 && TJ[bid + F] > 0 && TI[bid + F] + TJ[bid + F] - 2 < M\"},"
      "  {\"op\": \"wait\", \"flag\": \"(TI[bid + F] - 1) * T + TJ[bid + F] - 1\","
      "   \"when\": \"bid < NT && ltid == 64 && TI[bid + F] > 0 && TJ[bid + F] > 0 && TI[bid + F] + TJ[bid + F] - 2 >= M\"},"
      "  {\"op\": \"read\", \"addr\": \"rowb[2 * ((TI[bid + F] - 1) * N + TJ[bid + F] * 32 - 1)]\","
      "   \"when\": \"bid < NT && ltid == 64 && TI[bid + F] > 0 && TJ[bid + F] > 0 && TI[bid + F] + TJ[bid + F] - 2 >= M\"},"
      "  {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"128 + ltid\", \"when\": \"bid < NT && ltid < 32\"},"
      "  {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"128 + ltid\", \"when\": \"bid < NT && ltid >= 32 && ltid < 64\"},"
      "  {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"192\", \"when\": \"bid < NT && ltid == 64\"},"
      "  {\"op\": \"sync\", \"scope\": \"block\"},"
      "  {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"128 + ltid %% 32\", \"when\": \"bid < NT\"},"
      "  {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"192\", \"when\": \"bid < NT\"},"
      "  {\"repeat\": 8, \"var\": \"q\", \"steps\": ["
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"160 + ltid / 32 * 8 + q\", \"when\": \"bid < NT\"}]},"
      "  {\"op\": \"write\", \"addr\": \"rowb[2 * (TI[bid + F] * N + TJ[bid + F] * 32 + ltid - 96)]\", \"when\": \"bid < NT && ltid >= 96\"},"
      "  {\"op\": \"signal\", \"flag\": \"TI[bid + F] * T + TJ[bid + F]\", \"when\": \"bid < NT && ltid >= 96\"},"
      "  {\"repeat\": 8, \"var\": \"q\", \"steps\": [{\"op\": \"shuffle\", \"when\": \"bid < NT\"}]},"
      "  {\"op\": \"write\", \"addr\": \"colb[2 * (TJ[bid + F] * N + TI[bid + F] * 32 + ltid / 32 * 8 + ltid %% 32)]\", \"when\": \"bid < NT && ltid %% 32 < 8\"},"
      "  {\"op\": \"signal\", \"flag\": \"T * T + 4 * (TI[bid + F] * T + TJ[bid + F]) + ltid / 32\", \"when\": \"bid < NT && ltid %% 32 < 8\"},"
      "  {\"repeat\": 8, \"var\": \"q\", \"steps\": ["
      "   {\"op\": \"write\", \"addr\": \"b[(TI[bid + F] * 32 + ltid / 32 * 8 + q) * N + TJ[bid + F] * 32 + ltid %% 32]\", \"when\": \"bid < NT\"}]}]}",
      n, m, threads, sw, n, T, m, first, tiles, n * n, n * n, 2 * T * n, 2 * T * n, T * n, T * n, T * n, T * n, T * T, T * T,
      T * T, ti->str, tj->str, tri);
  g_string_free(ti, TRUE);
  g_string_free(tj, TRUE);
  g_free(tri);
  return open_text(t, m ? "1+r-ordered kernels" : "1r1w-ordered kernel", 0,
                   2 * n * n + 4 * T * n + 1 + (m ? 4 * T * n + 3 * T * T : 0), error);
}

MsSource *ms_cmp_sat_lookback(guint64 n, guint64 H, guint64 V, guint64 ahead, GError **error) {
  const guint64 T = 256;
  if ((H != 16 && H != 32) || (V != 2 && V != 4)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "1r1w-lookback kernel: strips of " U " rows with " U " columns per thread: kernels/sat.cu has 16 or 32 rows, 2 or 4 columns",
                H, V);
    return NULL;
  }
  if (ahead && (H != 32 || V != 2)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "1r1w-lookback kernel: loads a chunk ahead with strips of " U " rows and " U " columns per thread: kernels/sat.cu has them with 32 and 2",
                H, V);
    return NULL;
  }
  if (n < H || n % (T * V)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "1r1w-lookback kernel: n " U " is not a multiple of " U, n, T * V);
    return NULL;
  }
  const guint64 NSEG = T / H, RS = NSEG * (H + 4);

  const guint64 C = T * V, NC = n / C, S = n / H, NW = T / 32;
  const guint64 sw0 = H * RS + NW + 2 * (H + 1), sw = sw0 + (ahead ? H * C : 0);
  /* ahead (sat_1r1w_lookback_bulk, since 2026-11-27): the copy engine fetches chunk c + 1 into
   * the chunk buffer AB while the block works on chunk c: thread 0 issues the chunk's H row
   * copies after barrier A (and its flag), and every thread waits on the mbarrier before it
   * reads its V words of each row from AB.  The trace states the copies as async reads
   * (docs/models.md, "Asynchronous copies", since 2026-11-27, ninth session), each warp
   * its own columns' share (the same requests as the H bulk copies), chunk 0's before the
   * loop, and an await at each chunk's start.  The segment scan of T runs between barriers
   * B and C, and barrier D is gone. */
  static const char *const scan =
      "  {\"repeat\": \"H / 4\", \"var\": \"q\", \"steps\": ["
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"ltid / NSEG * RS + ltid %% NSEG * (H + 4) + 4 * q\"}]},"
      "  {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"CA + c %% 2 * (H + 1) + ltid / NSEG\"},"
      "  {\"repeat\": \"H / 4\", \"var\": \"q\", \"steps\": ["
      "   {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"ltid / NSEG * RS + ltid %% NSEG * (H + 4) + 4 * q\"}]},"
      "  {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"CA + (c + 1) %% 2 * (H + 1) + ltid / NSEG\", \"when\": \"ltid %% NSEG == NSEG - 1\"},";
  static const char *const abuf =
      "  {\"op\": \"await\"},"
      "  {\"repeat\": \"H\", \"var\": \"r\", \"steps\": [{\"repeat\": \"V\", \"var\": \"q\", \"steps\": ["
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"AB + r * C + ltid / 32 * 32 * V + ltid %% 32 + q * 32\"}]}]},";
  static const char *const load =
      "  {\"repeat\": \"H\", \"var\": \"r\", \"steps\": [{\"repeat\": \"V\", \"var\": \"q\", \"steps\": ["
      "   {\"op\": \"read\", \"addr\": \"(bid * H + r) * N + c * C + ltid / 32 * 32 * V + ltid %% 32 + q * 32\"}]}]},";
  static const char *const copy0 = /* chunk 0, before the loop */
      "  {\"repeat\": \"H\", \"var\": \"r\", \"steps\": [{\"repeat\": \"V\", \"var\": \"q\", \"steps\": ["
      "   {\"op\": \"read\", \"async\": true, \"addr\": \"(bid * H + r) * N + ltid / 32 * 32 * V + ltid %% 32 + q * 32\"}]}]},";
  static const char *const copy1 = /* chunk c + 1, after barrier A and the flag */
      "  {\"repeat\": \"H\", \"var\": \"r\", \"steps\": [{\"repeat\": \"V\", \"var\": \"q\", \"steps\": ["
      "   {\"op\": \"read\", \"async\": true, \"addr\": \"(bid * H + r) * N + (c + 1) * C + ltid / 32 * 32 * V + ltid %% 32 + q * 32\","
      "    \"when\": \"c + 1 < NC\"}]}]},";
  /* a, b: n x n; aggv, incv: S x n; flags: S x NC.  Shared: T, then WX (the excl totals),
   * then CA (the carries, two rows of H + 1), then (ahead) AB */
  char *fmt = g_strconcat(
      "{\"memsim_trace\": 1, \"form\": \"compact\","
      " \"name\": \"sat 1r1w-lookback kernel (strips of " U " rows, chunks of " U " columns%s) n=" U "\","
      " \"threads\": " U ", \"block_threads\": " U ", \"shared_words\": " U ", \"global_words\": " U ","
      " \"constants\": {\"N\": " U ", \"H\": " U ", \"V\": " U ", \"C\": " U ", \"NC\": " U ", \"S\": " U ","
      "  \"B\": \"N * N\", \"AGG\": \"2 * N * N\", \"INC\": \"2 * N * N + S * N\", \"FL\": \"2 * N * N + 2 * S * N\","
      "  \"RS\": " U ", \"NSEG\": " U ", \"WX\": \"H * RS\", \"CA\": \"H * RS + " U "\", \"AB\": " U "},"
      " \"steps\": [",
      ahead ? copy0 : "",
      "  {\"repeat\": \"NC\", \"var\": \"c\", \"steps\": [",
      ahead ? abuf : load,
      "  {\"repeat\": \"V\", \"var\": \"q\", \"steps\": ["
      "   {\"op\": \"write\", \"addr\": \"INC + c * C + ltid / 32 * 32 * V + ltid %% 32 + q * 32\", \"when\": \"bid == 0\"},"
      "   {\"op\": \"write\", \"addr\": \"AGG + bid * N + c * C + ltid / 32 * 32 * V + ltid %% 32 + q * 32\", \"when\": \"bid > 0\"}]},"
      "  {\"op\": \"sync\", \"scope\": \"block\"},"
      "  {\"op\": \"write\", \"addr\": \"FL + bid * NC + c\", \"when\": \"ltid == 0\"},"
      "  {\"op\": \"signal\", \"flag\": \"bid * NC + c\", \"when\": \"ltid == 0\"},",
      ahead ? copy1 : "",
      "  {\"op\": \"wait\", \"flag\": \"(bid - 1) * NC + c\", \"when\": \"ltid == 0 && bid > 0\"},"
      "  {\"op\": \"read\", \"addr\": \"FL + (bid - 1 - ltid) * NC + c\", \"when\": \"ltid < 32 && bid > ltid\"},"
      "  {\"repeat\": \"H\", \"var\": \"r\", \"steps\": ["
      "   {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"r * RS + ltid + ltid / H * 4\"}]},"
      "  {\"op\": \"sync\", \"scope\": \"block\"},",
      ahead ? scan : "",
      "  {\"repeat\": \"V\", \"var\": \"q\", \"steps\": ["
      "   {\"op\": \"read\", \"addr\": \"INC + (bid - 1) * N + c * C + ltid / 32 * 32 * V + ltid %% 32 + q * 32\", \"when\": \"bid > 0\"}]},"
      "  {\"repeat\": \"V\", \"var\": \"q\", \"steps\": ["
      "   {\"op\": \"write\", \"addr\": \"INC + bid * N + c * C + ltid / 32 * 32 * V + ltid %% 32 + q * 32\", \"when\": \"bid > 0\"}]},"
      "  {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"WX + ltid / 32\", \"when\": \"ltid %% 32 == 31\"},"
      "  {\"op\": \"sync\", \"scope\": \"block\"},"
      "  {\"op\": \"write\", \"addr\": \"FL + bid * NC + c\", \"when\": \"ltid == 0 && bid > 0\"},",
      ahead ? "" : scan,
      "  {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"CA + c %% 2 * (H + 1) + H\"},"
      "  {\"repeat\": \"" U "\", \"var\": \"w\", \"steps\": ["
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"WX + w\", \"when\": \"w < ltid / 32\"}]},",
      ahead ? "" : "  {\"op\": \"sync\", \"scope\": \"block\"},",
      "  {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"CA + (c + 1) %% 2 * (H + 1) + H\", \"when\": \"ltid == 255\"},"
      "  {\"repeat\": \"H\", \"var\": \"r\", \"steps\": ["
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"r * RS + ltid + ltid / H * 4\"},"
      "   {\"repeat\": \"V\", \"var\": \"q\", \"steps\": ["
      "    {\"op\": \"write\", \"addr\": \"B + (bid * H + r) * N + c * C + ltid / 32 * 32 * V + ltid %% 32 + q * 32\"}]}]}]}]}",
      NULL);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  char *t = g_strdup_printf(fmt, H, C, ahead ? ", loads a chunk ahead" : "", n, S * T, T, sw, 2 * n * n + 2 * S * n + S * NC, n,
                            H, V, C, NC, S, RS, NSEG, NW, sw0, NW - 1);
#pragma GCC diagnostic pop
  g_free(fmt);
  return open_text(t, "1r1w-lookback kernel", 0, 0, error);
}

/* kernels/bpbc.cu life_multistep: a block of EW x EH = 6 x 80 threads holds a tile of 4 x 64
 * 64-bit words with a halo of one word left and right and T = 8 rows above and below in a
 * shared buffer buf[2][EH + 2][EW + 2] (a zero ring around it); per launch: zero the buffer
 * (3 strided rounds), block barrier, each thread loads its word (global) into buf[0],
 * barrier, T steps (9 shared reads of the neighbourhood in buf[c], one write into
 * buf[c ^ 1], barrier), and the centre threads store their word (shared read, global
 * write).  Launches alternate the two universes.  `steps` is rounded up to whole launches. */
MsSource *ms_cmp_life_tile(guint64 size, guint64 steps, GError **error) {
  const guint64 T = 8, TW = 4, TH = 64, EW = TW + 2, EH = TH + 2 * T, wpr = size / 64;
  if (size % 256 || size < 256) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "life-multistep kernel: size " U " is not a multiple of 256", size);
    return NULL;
  }
  const guint64 gx = wpr / TW, gy = size / TH, bt = EW * EH, sw = 2 * 2 * (EH + 2) * (EW + 2);
  const guint64 launches = (steps + T - 1) / T;
  /* c = buffer, y = row 1..EH, x = column 1..EW of the padded buffer */
#define SLOT(c, y, x) "2 * ((" c ") * " "(EH + 2) * (EW + 2) + (" y ") * (EW + 2) + (" x "))"
  char *head = g_strdup_printf(
      "{\"memsim_trace\": 1, \"form\": \"compact\","
      " \"name\": \"bpbc life-multistep kernel (tiles of 4 x 64 words, T = 8 steps per launch) size=" U " steps=" U "\","
      " \"threads\": " U ", \"block_threads\": " U ", \"shared_words\": " U ","
      " \"constants\": {\"S\": " U ", \"wpr\": " U ", \"GX\": " U ", \"EW\": " U ", \"EH\": " U ", \"T\": " U ","
      "  \"NB\": \"2 * (EH + 2) * (EW + 2)\", \"A\": \"2 * S * wpr\", \"L\": " U "},",
      size, steps, gx * gy * bt, bt, sw, size, wpr, gx, EW, EH, T, launches);
  static const char *const steps_json =
      " \"steps\": [{\"repeat\": \"L\", \"var\": \"k\", \"steps\": ["
      "  {\"repeat\": \"k > 0\", \"steps\": [{\"op\": \"sync\", \"scope\": \"grid\"}]},"
      "  {\"repeat\": \"(NB + block_threads - 1) / block_threads\", \"var\": \"z\", \"steps\": ["
      "   {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"2 * (ltid + z * block_threads)\", \"when\": \"ltid + z * block_threads < NB\"}]},"
      "  {\"op\": \"sync\", \"scope\": \"block\"},"
      "  {\"op\": \"read\", \"space\": \"global\","
      "   \"addr\": \"k % 2 * A + 2 * ((bid / GX * 64 + ltid / EW - T) * wpr + bid % GX * 4 + ltid % EW - 1)\","
      "   \"when\": \"bid % GX * 4 + ltid % EW >= 1 && bid % GX * 4 + ltid % EW - 1 < wpr && bid / GX * 64 + ltid / EW >= T && bid / GX * 64 + ltid / EW - T < S\"},"
      "  {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"" SLOT("0", "ltid / EW + 1", "ltid % EW + 1") "\"},"
      "  {\"op\": \"sync\", \"scope\": \"block\"},"
      "  {\"repeat\": \"T\", \"var\": \"s\", \"steps\": ["
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"" SLOT("s % 2", "ltid / EW", "ltid % EW + 1") "\"},"
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"" SLOT("s % 2", "ltid / EW + 1", "ltid % EW + 1") "\"},"
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"" SLOT("s % 2", "ltid / EW + 2", "ltid % EW + 1") "\"},"
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"" SLOT("s % 2", "ltid / EW", "ltid % EW") "\"},"
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"" SLOT("s % 2", "ltid / EW", "ltid % EW + 2") "\"},"
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"" SLOT("s % 2", "ltid / EW + 1", "ltid % EW") "\"},"
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"" SLOT("s % 2", "ltid / EW + 1", "ltid % EW + 2") "\"},"
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"" SLOT("s % 2", "ltid / EW + 2", "ltid % EW") "\"},"
      "   {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"" SLOT("s % 2", "ltid / EW + 2", "ltid % EW + 2") "\"},"
      "   {\"op\": \"write\", \"space\": \"shared\", \"addr\": \"" SLOT("(s + 1) % 2", "ltid / EW + 1", "ltid % EW + 1") "\"},"
      "   {\"op\": \"sync\", \"scope\": \"block\"}]},"
      "  {\"op\": \"read\", \"space\": \"shared\", \"addr\": \"" SLOT("T % 2", "ltid / EW + 1", "ltid % EW + 1") "\","
      "   \"when\": \"ltid % EW >= 1 && ltid % EW <= 4 && ltid / EW >= T && ltid / EW < T + 64 && bid % GX * 4 + ltid % EW - 1 < wpr && bid / GX * 64 + ltid / EW - T < S\"},"
      "  {\"op\": \"write\", \"space\": \"global\","
      "   \"addr\": \"(k + 1) % 2 * A + 2 * ((bid / GX * 64 + ltid / EW - T) * wpr + bid % GX * 4 + ltid % EW - 1)\","
      "   \"when\": \"ltid % EW >= 1 && ltid % EW <= 4 && ltid / EW >= T && ltid / EW < T + 64 && bid % GX * 4 + ltid % EW - 1 < wpr && bid / GX * 64 + ltid / EW - T < S\"}]}]}";
  char *t = g_strconcat(head, steps_json, NULL);
  g_free(head);
#undef SLOT
  return open_text(t, "life-multistep kernel", 0, 4 * size * wpr, error); /* two universes */
}

/* kernels/bpbc.cu life_multistep_shuffle (kernels/life_shuffle.h): blocks of `warps` warps,
 * warp (bx, strip) owns words bx * out_words - 1 .. bx * out_words + out_words of the rows
 * strip * H .. strip * H + H - 1 (lanes 0 and 31 are halo); per launch each lane walks down
 * its word column: it reads row r0 - T, then in iteration q = 0 .. H + 3T - 2 reads row
 * r0 - T + q + 1 and (q >= 3T - 1, lanes 1 .. out_words) writes row r0 + q - 3T + 1: T steps
 * in registers, neighbours by warp shuffles, no shared memory.  Rows and words outside the
 * universe are not read or written. */
MsSource *ms_cmp_life_shuffle(guint64 size, guint64 steps, guint64 T, guint64 H, guint64 out_words, guint64 warps,
                              GError **error) {
  if (size % 64 || size < 64 || T < 1 || H < 1 || out_words < 1 || out_words > 30 || warps < 1 || warps > 32) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "life-multistep-shuffle kernel: size " U " (a multiple of 64), steps_per_launch " U ", strip_rows " U
                ", words_per_warp " U " (1 .. 30) or warps per block " U " out of range",
                size, T, H, out_words, warps);
    return NULL;
  }
  const guint64 wpr = size / 64, gx = (wpr + out_words - 1) / out_words, strips = (size + H - 1) / H;
  const guint64 gy = (strips + warps - 1) / warps, bt = 32 * warps, launches = (steps + T - 1) / T;
  /* strip = bid / GX * WB + ltid / 32, gw = bid % GX * OW + tid % 32 - 1, r0 = strip * H */
#define STRIP "(bid / GX * WB + ltid / 32)"
#define GW "(bid % GX * OW + tid % 32 - 1)"
#define INW "(" STRIP " * H < S && " GW " >= 0 && " GW " < wpr)"
  char *head = g_strdup_printf(
      "{\"memsim_trace\": 1, \"form\": \"compact\","
      " \"name\": \"bpbc life-multistep-shuffle kernel (T = " U " steps per launch, strips of " U " rows) size=" U " steps=" U "\","
      " \"threads\": " U ", \"block_threads\": " U ","
      " \"constants\": {\"S\": " U ", \"wpr\": " U ", \"GX\": " U ", \"WB\": " U ", \"OW\": " U ", \"T\": " U ", \"H\": " U ","
      "  \"A\": \"2 * S * wpr\", \"L\": " U "},",
      T, H, size, steps, gx * gy * bt, bt, size, wpr, gx, warps, out_words, T, H, launches);
  static const char *const steps_json =
      " \"steps\": [{\"repeat\": \"L\", \"var\": \"k\", \"steps\": ["
      "  {\"repeat\": \"k > 0\", \"steps\": [{\"op\": \"sync\", \"scope\": \"grid\"}]},"
      "  {\"op\": \"read\", \"addr\": \"k % 2 * A + 2 * ((" STRIP " * H - T) * wpr + " GW ")\","
      "   \"when\": \"" INW " && " STRIP " * H >= T\"},"
      "  {\"repeat\": \"H + 3 * T - 1\", \"var\": \"q\", \"steps\": ["
      "   {\"op\": \"read\", \"addr\": \"k % 2 * A + 2 * ((" STRIP " * H - T + q + 1) * wpr + " GW ")\","
      "    \"when\": \"" INW " && " STRIP " * H + q + 1 >= T && " STRIP " * H + q + 1 - T < S\"},"
      "   {\"op\": \"write\", \"addr\": \"(k + 1) % 2 * A + 2 * ((" STRIP " * H + q + 1 - 3 * T) * wpr + " GW ")\","
      "    \"when\": \"" INW " && q >= 3 * T - 1 && tid % 32 >= 1 && tid % 32 <= OW && " STRIP " * H + q + 1 - 3 * T < S\"}]}]}]}";
  char *t = g_strconcat(head, steps_json, NULL);
  g_free(head);
#undef STRIP
#undef GW
#undef INW
  return open_text(t, "life-multistep-shuffle kernel", 0, 4 * size * wpr, error); /* two universes */
}

/* ---- the DMM permutation kernel around the generator's pass ------------------------------ */

/* kernels/permutation.cu dmm_permute: every block loads its n elements of `in` (global) into
 * shared a and its table entry (one global word per thread, the same table for every
 * block), barrier, then `repeats` times the pass (the generator's trace: b[dst] = a[src])
 * and a barrier, and stores shared b to `out`.  The pass is read from the generator once and
 * replayed; block b's shared addresses are its own (REPLICA_OFFSET apart). */
#define REPLICA_OFFSET (G_GINT64_CONSTANT(1) << 34)
#define KW 32 /* the GPU's warp */

typedef enum { K_IN, K_TAB, K_STORE_A, K_SYNC, K_PASS, K_LOAD_B, K_OUT, K_END } KPhase;

typedef struct {
  guint64 n, ew, blocks, repeats;
  GArray *steps;   /* of MsStep: the pass */
  GPtrArray *addr; /* gint64[n] per pass step (NULL for a sync) */
  /* cursor */
  KPhase phase;
  guint64 word, rep, pos;
  gboolean after_pass; /* the sync after a pass */
  /* step being filled */
  KPhase cur;
  guint64 cur_word, cur_pos;
} Dmm;

static MsNext dmm_next(gpointer self, MsStep *step, GError **error) {
  (void)error;
  Dmm *d = self;
  memset(step, 0, sizeof *step);
  for (;;) {
    d->cur = d->phase;
    d->cur_word = d->word;
    d->cur_pos = d->pos;
    switch (d->phase) {
    case K_IN:
      step->op = MS_OP_READ;
      step->space = MS_SPACE_GLOBAL;
      if (++d->word == d->ew) d->word = 0, d->phase = K_TAB;
      return MS_NEXT_STEP;
    case K_TAB:
      step->op = MS_OP_READ;
      step->space = MS_SPACE_GLOBAL;
      d->phase = K_STORE_A;
      return MS_NEXT_STEP;
    case K_STORE_A:
      step->op = MS_OP_WRITE;
      step->space = MS_SPACE_SHARED;
      if (++d->word == d->ew) d->word = 0, d->phase = K_SYNC;
      return MS_NEXT_STEP;
    case K_SYNC:
      step->op = MS_OP_SYNC;
      step->scope = MS_SCOPE_BLOCK;
      d->phase = d->rep < d->repeats ? K_PASS : K_LOAD_B;
      return MS_NEXT_STEP;
    case K_PASS:
      if (d->pos == d->steps->len) {
        d->pos = 0;
        d->rep++;
        d->phase = K_SYNC;
        continue;
      }
      *step = g_array_index(d->steps, MsStep, d->pos);
      d->pos++;
      return MS_NEXT_STEP;
    case K_LOAD_B:
      step->op = MS_OP_READ;
      step->space = MS_SPACE_SHARED;
      if (++d->word == d->ew) d->word = 0, d->phase = K_OUT;
      return MS_NEXT_STEP;
    case K_OUT:
      step->op = MS_OP_WRITE;
      step->space = MS_SPACE_GLOBAL;
      if (++d->word == d->ew) d->word = 0, d->phase = K_END;
      return MS_NEXT_STEP;
    case K_END:
      return MS_NEXT_END;
    }
  }
}

static gboolean dmm_fill(gpointer self, guint64 first, guint64 count, gint64 *addr, GError **error) {
  (void)error;
  Dmm *d = self;
  const gint64 n = (gint64)d->n, ew = (gint64)d->ew, j = (gint64)d->cur_word;
  const gint64 data = (gint64)d->blocks * n * ew; /* words of `in` (and of `out`) */
  const gint64 *pass = d->cur == K_PASS ? g_ptr_array_index(d->addr, d->cur_pos) : NULL;
  /* a warp's global load or store of ew-word elements (one 8-byte access a thread) is served
   * as ew requests of KW consecutive words each, not as ew requests at stride ew: the
   * j-th step is the j-th KW words of the warp's ew x KW (same groups, same bytes) */
  const gboolean half = ew > 1 && n % KW == 0;
  for (guint64 g = 0; g < count; g++) {
    const gint64 th = (gint64)(first + g), blk = th / n, i = th % n;
    switch (d->cur) {
    case K_IN: addr[g] = half ? (blk * n + i - i % KW) * ew + j * KW + i % KW : (blk * n + i) * ew + j; break;
    case K_TAB: addr[g] = data + i; break;
    case K_STORE_A: addr[g] = blk * REPLICA_OFFSET + i * ew + j; break;
    case K_PASS: addr[g] = pass[i] == MS_ADDR_NONE ? MS_ADDR_NONE : blk * REPLICA_OFFSET + pass[i]; break;
    case K_LOAD_B: addr[g] = blk * REPLICA_OFFSET + (n + i) * ew + j; break;
    case K_OUT:
      addr[g] = data + n + (half ? (blk * n + i - i % KW) * ew + j * KW + i % KW : (blk * n + i) * ew + j);
      break;
    default: addr[g] = MS_ADDR_NONE; break;
    }
  }
  return TRUE;
}

static void dmm_destroy(gpointer self) {
  Dmm *d = self;
  g_array_free(d->steps, TRUE);
  g_ptr_array_free(d->addr, TRUE);
  g_free(d);
}

/* fill() reads the pass's stored addresses: safe on several workers at once. */
static gboolean dmm_fill_worker(gpointer self, guint worker, guint64 first, guint64 count, gint64 *addr,
                              GError **error) {
  (void)worker;
  return dmm_fill(self, first, count, addr, error);
}

static const MsSourceFuncs dmm_funcs = {dmm_next, dmm_fill, dmm_destroy, NULL, dmm_fill_worker};

MsSource *ms_cmp_dmm_kernel(MsSource *pass, guint64 blocks, guint64 repeats, guint64 ew, GError **error) {
  const guint64 n = ms_source_threads(pass);
  Dmm *d = g_new0(Dmm, 1);
  d->n = n;
  d->ew = ew;
  d->blocks = blocks;
  d->repeats = repeats;
  d->steps = g_array_new(FALSE, FALSE, sizeof(MsStep));
  d->addr = g_ptr_array_new_with_free_func(g_free);
  for (;;) {
    MsStep st;
    MsNext nx = ms_source_next(pass, &st, error);
    if (nx == MS_NEXT_ERROR) goto fail;
    if (nx == MS_NEXT_END) break;
    gint64 *a = NULL;
    if (st.op != MS_OP_SYNC) {
      a = g_new(gint64, n);
      if (!ms_source_fill(pass, 0, n, a, error)) {
        g_free(a);
        goto fail;
      }
    }
    g_array_append_val(d->steps, st);
    g_ptr_array_add(d->addr, a);
  }
  char *name = g_strdup_printf("%s; dmm_permute kernel: %" G_GUINT64_FORMAT " blocks, %" G_GUINT64_FORMAT
                               " passes, global load and store", ms_source_name(pass), blocks, repeats);
  ms_source_free(pass);
  MsSource *s = ms_source_new(name, blocks * n, n, &dmm_funcs, d);
  ms_source_set_shared_words(s, 2 * n * ew); /* __shared__ T a[n], b[n] */
  ms_source_set_global_words(s, 2 * blocks * n * ew + n); /* in, the table, out */
  g_free(name);
  return s;
fail:
  ms_source_free(pass);
  dmm_destroy(d);
  return NULL;
}

/* ---- threads regrouped into the kernel's blocks --------------------------------------- */

typedef struct {
  MsSource *inner;
  guint64 bt;
  gboolean tiles; /* the inner trace's block barriers stay within groups of bt threads */
} Reblock;

static MsNext rb_next(gpointer self, MsStep *step, GError **error) {
  Reblock *r = self;
  MsNext n = ms_source_next(r->inner, step, error);
  if (n == MS_NEXT_STEP && step->op == MS_OP_SYNC && step->scope == MS_SCOPE_BLOCK && !r->tiles) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "%s: a block barrier in a trace regrouped into blocks of %" G_GUINT64_FORMAT " threads",
                ms_source_name(r->inner), r->bt);
    return MS_NEXT_ERROR;
  }
  return n;
}

static gboolean rb_fill(gpointer self, guint64 first, guint64 count, gint64 *addr, GError **error) {
  Reblock *r = self;
  return ms_source_fill(r->inner, first, count, addr, error);
}

static void rb_range(gpointer self, guint64 *first, guint64 *end) {
  Reblock *r = self;
  ms_source_active_range(r->inner, first, end);
}

static void rb_destroy(gpointer self) {
  Reblock *r = self;
  ms_source_free(r->inner);
  g_free(r);
}

/* With an inner source that fills on several workers, so does the regrouping. */
static gboolean rb_fill_worker(gpointer self, guint worker, guint64 first, guint64 count, gint64 *addr,
                               GError **error) {
  Reblock *r = self;
  return ms_source_fill_worker(r->inner, worker, first, count, addr, error);
}

static void rb_set_workers(gpointer self, guint n) { ms_source_set_workers(((Reblock *)self)->inner, n); }
/* (the same steps and addresses in other blocks: the inner source's key) */
static gboolean rb_kernel_key(gpointer self, guint64 *key) { return ms_source_kernel_key(((Reblock *)self)->inner, key); }
static const MsSourceFuncs rb_funcs = {rb_next, rb_fill, rb_destroy, rb_range, .set_workers = rb_set_workers,
                                       .kernel_key = rb_kernel_key};
static const MsSourceFuncs rb_funcs_workers = {rb_next, rb_fill,        rb_destroy,    rb_range, rb_fill_worker,
                                               NULL,    NULL,           rb_set_workers, rb_kernel_key};

MsSource *ms_cmp_reblock(MsSource *inner, guint64 block_threads, gboolean tiles) {
  const guint64 t = ms_source_threads(inner), bt = MIN(block_threads, t);
  if (bt == ms_source_block_threads(inner)) return inner;
  Reblock *r = g_new0(Reblock, 1);
  r->inner = inner;
  r->bt = bt;
  r->tiles = tiles;
  char *name = g_strdup_printf("%s; blocks of %" G_GUINT64_FORMAT " threads", ms_source_name(inner), bt);
  MsSource *s = ms_source_new(name, t, bt, ms_source_has_fill_worker(inner) ? &rb_funcs_workers : &rb_funcs, r);
  /* tiles: a new block holds its share of an old block's shared memory */
  const guint64 old_bt = ms_source_block_threads(inner), sw = ms_source_shared_words(inner);
  ms_source_set_shared_words(s, tiles && old_bt > bt ? sw / (old_bt / bt) : sw);
  ms_source_set_global_words(s, ms_source_global_words(inner));
  g_free(name);
  return s;
}
