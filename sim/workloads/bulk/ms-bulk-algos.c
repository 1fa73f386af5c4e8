/* ms-bulk-algos.c: the built-in bulk programs (docs/workloads/bulk.md).  Each is written
 * twice on purpose: as a bulk program (the addresses, in the trace) and as a register
 * machine that only says load, store and what it computes (ms_bulk_load/store take the
 * addresses from the trace).  A wrong address in the program gives a wrong result, which
 * the check against an independent reference (qsort, Dijkstra, GMP, a plain sum) finds. */
#include "ms-bulk-private.h"
#include "ms-perm.h"
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#define MASK32 G_GUINT64_CONSTANT(0xffffffff)
#define FW_INF (G_GUINT64_CONSTANT(1) << 40)

#define LOAD(v)                                                                                                         \
  do {                                                                                                                  \
    if (!ms_bulk_load(c, v, error)) return FALSE;                                                                       \
  } while (0)
#define STORE(v)                                                                                                        \
  do {                                                                                                                  \
    if (!ms_bulk_store(c, v, error)) return FALSE;                                                                      \
  } while (0)
#define LANES(k) for (guint k = 0; k < c->lanes; k++)

static gboolean pow2(guint64 v) { return v && !(v & (v - 1)); }
static gboolean mult32(guint64 v) { return v % 32 == 0; }

static guint log2u(guint64 v) {
  guint r = 0;
  while ((G_GUINT64_CONSTANT(1) << r) < v) r++;
  return r;
}

static void random_words(guint64 *state, guint64 *mem, guint64 n) {
  for (guint64 i = 0; i < n; i++) mem[i] = ms_rand_next(state) & MASK32;
}

/* ---- prefix-sums: a[i] = a[0] + ... + a[i] (mod 2^32), one read and one write a word --- */

static void ps_setup(MsBulkCfg *cfg) { cfg->words = cfg->n; }

static char *ps_text(const MsBulkCfg *cfg) {
  return g_strdup_printf("{\"memsim_bulk\": 1, \"name\": \"prefix sums of %" G_GUINT64_FORMAT " words\",\n"
                         " \"words\": %" G_GUINT64_FORMAT ", \"constants\": {\"n\": %" G_GUINT64_FORMAT "},\n"
                         " \"steps\": [\n"
                         "  {\"repeat\": \"n\", \"var\": \"x\", \"steps\": [\n"
                         "    {\"op\": \"read\", \"addr\": \"x\"},\n"
                         "    {\"op\": \"write\", \"addr\": \"x\"}]}]}\n",
                         cfg->n, cfg->words, cfg->n);
}

static void ps_init(const MsBulkCfg *cfg, guint64 *state, guint64 *mem) { random_words(state, mem, cfg->n); }

static gboolean ps_run(const MsBulkCfg *cfg, MsBulkCursor *c, GError **error) {
  guint64 acc[MS_BULK_LANES] = {0}, v[MS_BULK_LANES];
  for (guint64 i = 0; i < cfg->n; i++) {
    LOAD(v);
    LANES(k) acc[k] = (acc[k] + v[k]) & MASK32;
    STORE(acc);
  }
  return TRUE;
}

static char *ps_check(const MsBulkCfg *cfg, const guint64 *before, const guint64 *after) {
  guint64 s = 0;
  for (guint64 i = 0; i < cfg->n; i++) {
    s = (s + before[i]) & MASK32;
    if (after[i] != s)
      return g_strdup_printf("word %" G_GUINT64_FORMAT " is %" G_GUINT64_FORMAT ", the prefix sum is %" G_GUINT64_FORMAT,
                             i, after[i], s);
  }
  return NULL;
}

/* ---- bitonic sort of n words (Batcher): comparator (lo, hi), lo gets the minimum --------- */

static void bit_setup(MsBulkCfg *cfg) { cfg->words = cfg->n; }

/* Stage a (k = 2 << a), phase b (j = 1 << (a - b)), comparator c of n / 2: i has bit j
 * clear, partner i + j; ascending where i & k == 0.  The program reads first the word
 * that gets the minimum, so the data machine needs no direction. */
static char *bit_text(const MsBulkCfg *cfg) {
  const char *I = "((c >> (a - b)) << (a - b + 1)) + (c & ((1 << (a - b)) - 1))";
  const char *J = "(1 << (a - b))";
  char *lo = g_strdup_printf("((%s) & (2 << a)) == 0 ? %s : %s + %s", I, I, I, J);
  char *hi = g_strdup_printf("((%s) & (2 << a)) == 0 ? %s + %s : %s", I, I, J, I);
  char *t = g_strdup_printf("{\"memsim_bulk\": 1, \"name\": \"bitonic sort of %" G_GUINT64_FORMAT " words\",\n"
                            " \"words\": %" G_GUINT64_FORMAT ", \"constants\": {\"n\": %" G_GUINT64_FORMAT
                            ", \"lg\": %u},\n"
                            " \"steps\": [\n"
                            "  {\"repeat\": \"lg\", \"var\": \"a\", \"steps\": [\n"
                            "    {\"repeat\": \"a + 1\", \"var\": \"b\", \"steps\": [\n"
                            "      {\"repeat\": \"n / 2\", \"var\": \"c\", \"steps\": [\n"
                            "        {\"op\": \"read\", \"addr\": \"%s\"},\n"
                            "        {\"op\": \"read\", \"addr\": \"%s\"},\n"
                            "        {\"op\": \"write\", \"addr\": \"%s\"},\n"
                            "        {\"op\": \"write\", \"addr\": \"%s\"}]}]}]}]}\n",
                            cfg->n, cfg->words, cfg->n, log2u(cfg->n), lo, hi, lo, hi);
  g_free(lo);
  g_free(hi);
  return t;
}

static void bit_init(const MsBulkCfg *cfg, guint64 *state, guint64 *mem) { random_words(state, mem, cfg->n); }

static gboolean bit_run(const MsBulkCfg *cfg, MsBulkCursor *c, GError **error) {
  const guint lg = log2u(cfg->n);
  const guint64 comparators = cfg->n / 2 * lg * (lg + 1) / 2;
  guint64 x[MS_BULK_LANES], y[MS_BULK_LANES], lo[MS_BULK_LANES], hi[MS_BULK_LANES];
  for (guint64 i = 0; i < comparators; i++) {
    LOAD(x);
    LOAD(y);
    LANES(k) {
      lo[k] = MIN(x[k], y[k]);
      hi[k] = MAX(x[k], y[k]);
    }
    STORE(lo);
    STORE(hi);
  }
  return TRUE;
}

static int cmp_u64(const void *a, const void *b) {
  const guint64 x = *(const guint64 *)a, y = *(const guint64 *)b;
  return (x > y) - (x < y);
}

static char *bit_check(const MsBulkCfg *cfg, const guint64 *before, const guint64 *after) {
  guint64 *ref = g_memdup2(before, cfg->n * sizeof(guint64));
  qsort(ref, cfg->n, sizeof(guint64), cmp_u64);
  char *why = NULL;
  for (guint64 i = 0; i < cfg->n && !why; i++)
    if (after[i] != ref[i])
      why = g_strdup_printf("not sorted: word %" G_GUINT64_FORMAT " is %" G_GUINT64_FORMAT ", sorted it is %"
                            G_GUINT64_FORMAT, i, after[i], ref[i]);
  g_free(ref);
  return why;
}

/* ---- Floyd-Warshall on n nodes: d[i][j] = min(d[i][j], d[i][k] + d[k][j]) ---------------- */

static void fw_setup(MsBulkCfg *cfg) { cfg->words = cfg->n * cfg->n; }

static char *fw_text(const MsBulkCfg *cfg) {
  return g_strdup_printf("{\"memsim_bulk\": 1, \"name\": \"Floyd-Warshall on %" G_GUINT64_FORMAT " nodes\",\n"
                         " \"words\": %" G_GUINT64_FORMAT ", \"constants\": {\"n\": %" G_GUINT64_FORMAT "},\n"
                         " \"steps\": [\n"
                         "  {\"repeat\": \"n\", \"var\": \"k\", \"steps\": [\n"
                         "    {\"repeat\": \"n\", \"var\": \"r\", \"steps\": [\n"
                         "      {\"repeat\": \"n\", \"var\": \"c\", \"steps\": [\n"
                         "        {\"op\": \"read\", \"addr\": \"r * n + k\"},\n"
                         "        {\"op\": \"read\", \"addr\": \"k * n + c\"},\n"
                         "        {\"op\": \"read\", \"addr\": \"r * n + c\"},\n"
                         "        {\"op\": \"write\", \"addr\": \"r * n + c\"}]}]}]}]}\n",
                         cfg->n, cfg->words, cfg->n);
}

/* A random digraph: each arc present with probability 1/4, weights 1 .. 1000, no arc INF. */
static void fw_init(const MsBulkCfg *cfg, guint64 *state, guint64 *mem) {
  for (guint64 i = 0; i < cfg->n; i++)
    for (guint64 j = 0; j < cfg->n; j++)
      mem[i * cfg->n + j] = i == j ? 0 : ms_rand_below(state, 4) == 0 ? 1 + ms_rand_below(state, 1000) : FW_INF;
}

static gboolean fw_run(const MsBulkCfg *cfg, MsBulkCursor *c, GError **error) {
  guint64 a[MS_BULK_LANES], b[MS_BULK_LANES], d[MS_BULK_LANES];
  for (guint64 s = 0; s < cfg->n * cfg->n * cfg->n; s++) {
    LOAD(a);
    LOAD(b);
    LOAD(d);
    LANES(k) if (a[k] < FW_INF && b[k] < FW_INF && a[k] + b[k] < d[k]) d[k] = a[k] + b[k];
    STORE(d);
  }
  return TRUE;
}

/* Dijkstra (O(n^2), array scan) from every node on the input arcs. */
static char *fw_check(const MsBulkCfg *cfg, const guint64 *before, const guint64 *after) {
  const guint64 n = cfg->n;
  guint64 *dist = g_new(guint64, n);
  gboolean *done = g_new(gboolean, n);
  char *why = NULL;
  for (guint64 src = 0; src < n && !why; src++) {
    for (guint64 v = 0; v < n; v++) {
      dist[v] = v == src ? 0 : FW_INF;
      done[v] = FALSE;
    }
    for (;;) {
      guint64 u = n;
      for (guint64 v = 0; v < n; v++)
        if (!done[v] && dist[v] < FW_INF && (u == n || dist[v] < dist[u])) u = v;
      if (u == n) break;
      done[u] = TRUE;
      for (guint64 v = 0; v < n; v++)
        if (v != u && before[u * n + v] < FW_INF && dist[u] + before[u * n + v] < dist[v]) dist[v] = dist[u] + before[u * n + v];
    }
    for (guint64 v = 0; v < n && !why; v++)
      if (after[src * n + v] != dist[v])
        why = g_strdup_printf("d[%" G_GUINT64_FORMAT "][%" G_GUINT64_FORMAT "] = %" G_GUINT64_FORMAT
                              ", Dijkstra's shortest path is %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " = none)",
                              src, v, after[src * n + v], dist[v], FW_INF);
  }
  g_free(dist);
  g_free(done);
  return why;
}

/* ---- Montgomery multiplication X * Y * 2^-bits mod M, s = bits / 32 words (CIOS) ---------- */
/* Layout: X, Y, M (s words each), MP = -M^-1 mod 2^32, T (s + 2), D (s: T - M), Z (s: the
 * result, T or D chosen by the borrow: the addresses stay oblivious, only values depend on
 * the data). */
enum { MG_X, MG_Y, MG_M, MG_MP, MG_T, MG_D, MG_Z };

static guint64 mg_base(const MsBulkCfg *cfg, int part) {
  const guint64 s = cfg->s;
  const guint64 base[] = {0, s, 2 * s, 3 * s, 3 * s + 1, 4 * s + 3, 5 * s + 3};
  return base[part];
}

static void mg_setup(MsBulkCfg *cfg) {
  cfg->s = cfg->bits / 32;
  cfg->words = 6 * cfg->s + 3;
}

static char *mg_text(const MsBulkCfg *cfg) {
  GString *t = g_string_new(NULL);
  g_string_append_printf(t, "{\"memsim_bulk\": 1, \"name\": \"Montgomery multiplication of %" G_GUINT64_FORMAT " bits\",\n"
                         " \"words\": %" G_GUINT64_FORMAT ",\n \"constants\": {\"s\": %" G_GUINT64_FORMAT,
                         cfg->bits, cfg->words, cfg->s);
  static const char *const names[] = {"X", "Y", "M", "MP", "T", "D", "Z"};
  for (int i = MG_X; i <= MG_Z; i++) g_string_append_printf(t, ", \"%s\": %" G_GUINT64_FORMAT, names[i], mg_base(cfg, i));
#define R(a) "{\"op\": \"read\", \"addr\": \"" a "\"}"
#define W(a) "{\"op\": \"write\", \"addr\": \"" a "\"}"
  g_string_append(t, "},\n \"steps\": [\n"
                     "  {\"repeat\": \"s + 2\", \"var\": \"j\", \"steps\": [" W("T + j") "]},\n"
                     "  {\"repeat\": \"s\", \"var\": \"q\", \"steps\": [\n"
                     "    " R("Y + q") ",\n"
                     "    {\"repeat\": \"s\", \"var\": \"j\", \"steps\": [" R("T + j") ", " R("X + j") ", " W("T + j") "]},\n"
                     "    " R("T + s") ", " W("T + s") ", " W("T + s + 1") ",\n"
                     "    " R("T") ", " R("MP") ", " R("M") ",\n"
                     "    {\"repeat\": \"s - 1\", \"var\": \"j\", \"steps\": [" R("T + j + 1") ", " R("M + j + 1") ", "
                     W("T + j") "]},\n"
                     "    " R("T + s") ", " W("T + s - 1") ", " R("T + s + 1") ", " W("T + s") "]},\n"
                     "  {\"repeat\": \"s\", \"var\": \"j\", \"steps\": [" R("T + j") ", " R("M + j") ", " W("D + j") "]},\n"
                     "  " R("T + s") ",\n"
                     "  {\"repeat\": \"s\", \"var\": \"j\", \"steps\": [" R("T + j") ", " R("D + j") ", " W("Z + j") "]}]}\n");
#undef R
#undef W
  return g_string_free(t, FALSE);
}

/* M odd with its top bit set, X and Y below M; T, D and Z hold garbage (written first). */
static void mg_init(const MsBulkCfg *cfg, guint64 *state, guint64 *mem) {
  const guint64 s = cfg->s;
  random_words(state, mem, cfg->words);
  guint64 *m = mem + mg_base(cfg, MG_M);
  m[0] |= 1;
  m[s - 1] |= G_GUINT64_CONSTANT(1) << 31;
  mem[mg_base(cfg, MG_X) + s - 1] %= m[s - 1];
  mem[mg_base(cfg, MG_Y) + s - 1] %= m[s - 1];
  guint64 inv = m[0]; /* Newton: inv = M0^-1 mod 2^32 (correct to 3 bits, doubling) */
  for (int i = 0; i < 5; i++) inv = (inv * (2 - m[0] * inv)) & MASK32;
  mem[mg_base(cfg, MG_MP)] = (0 - inv) & MASK32;
}

/* One CIOS outer iteration i (Koc, Acar, Kaliski 1996), in the program's order. */
static gboolean mg_outer(const MsBulkCfg *cfg, MsBulkCursor *c, GError **error) {
  const guint64 s = cfg->s;
  guint64 yi[MS_BULK_LANES], C[MS_BULK_LANES] = {0}, t[MS_BULK_LANES], u[MS_BULK_LANES], v[MS_BULK_LANES];
  guint64 m[MS_BULK_LANES], t0[MS_BULK_LANES];
  LOAD(yi);
  for (guint64 j = 0; j < s; j++) {
    LOAD(t);
    LOAD(u);
    LANES(k) {
      const guint64 z = t[k] + u[k] * yi[k] + C[k];
      v[k] = z & MASK32;
      C[k] = z >> 32;
    }
    STORE(v);
  }
  LOAD(t);
  LANES(k) {
    v[k] = (t[k] + C[k]) & MASK32;
    u[k] = (t[k] + C[k]) >> 32;
  }
  STORE(v);
  STORE(u);
  LOAD(t0);
  LOAD(u);
  LANES(k) m[k] = (t0[k] * u[k]) & MASK32;
  LOAD(u);
  LANES(k) C[k] = (t0[k] + m[k] * u[k]) >> 32;
  for (guint64 j = 1; j < s; j++) {
    LOAD(t);
    LOAD(u);
    LANES(k) {
      const guint64 z = t[k] + m[k] * u[k] + C[k];
      v[k] = z & MASK32;
      C[k] = z >> 32;
    }
    STORE(v);
  }
  LOAD(t);
  LANES(k) {
    v[k] = (t[k] + C[k]) & MASK32;
    C[k] = (t[k] + C[k]) >> 32;
  }
  STORE(v);
  LOAD(t);
  LANES(k) v[k] = t[k] + C[k];
  STORE(v);
  return TRUE;
}

static gboolean mg_run(const MsBulkCfg *cfg, MsBulkCursor *c, GError **error) {
  const guint64 s = cfg->s;
  guint64 zero[MS_BULK_LANES] = {0}, borrow[MS_BULK_LANES] = {0}, t[MS_BULK_LANES], u[MS_BULK_LANES];
  guint64 v[MS_BULK_LANES], top[MS_BULK_LANES];
  for (guint64 j = 0; j < s + 2; j++) STORE(zero);
  for (guint64 i = 0; i < s; i++)
    if (!mg_outer(cfg, c, error)) return FALSE;
  for (guint64 j = 0; j < s; j++) { /* D = T - M */
    LOAD(t);
    LOAD(u);
    LANES(k) {
      v[k] = (t[k] - u[k] - borrow[k]) & MASK32;
      borrow[k] = t[k] < u[k] + borrow[k];
    }
    STORE(v);
  }
  LOAD(top); /* T >= M unless the subtraction borrowed past T's top word */
  for (guint64 j = 0; j < s; j++) {
    LOAD(t);
    LOAD(u);
    LANES(k) v[k] = top[k] < borrow[k] ? t[k] : u[k];
    STORE(v);
  }
  return TRUE;
}

static void mg_import(mpz_t z, const guint64 *w, guint64 s) {
  guint32 *buf = g_new(guint32, s);
  for (guint64 i = 0; i < s; i++) buf[i] = (guint32)w[i];
  mpz_import(z, s, -1, sizeof(guint32), 0, 0, buf);
  g_free(buf);
}

static char *mg_check(const MsBulkCfg *cfg, const guint64 *before, const guint64 *after) {
  const guint64 s = cfg->s;
  mpz_t x, y, m, r, ref, got;
  mpz_inits(x, y, m, r, ref, got, NULL);
  mg_import(x, before + mg_base(cfg, MG_X), s);
  mg_import(y, before + mg_base(cfg, MG_Y), s);
  mg_import(m, before + mg_base(cfg, MG_M), s);
  mg_import(got, after + mg_base(cfg, MG_Z), s);
  mpz_set_ui(r, 1);
  mpz_mul_2exp(r, r, cfg->bits);
  mpz_invert(r, r, m); /* M odd: 2^bits is invertible */
  mpz_mul(ref, x, y);
  mpz_mul(ref, ref, r);
  mpz_mod(ref, ref, m);
  char *why = NULL;
  if (mpz_cmp(ref, got) != 0) {
    char *a = mpz_get_str(NULL, 16, got), *b = mpz_get_str(NULL, 16, ref);
    why = g_strdup_printf("Z = 0x%.40s%s, GMP's X * Y * 2^-%" G_GUINT64_FORMAT " mod M = 0x%.40s%s", a,
                          strlen(a) > 40 ? "..." : "", cfg->bits, b, strlen(b) > 40 ? "..." : "");
    void (*freefn)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &freefn);
    freefn(a, strlen(a) + 1);
    freefn(b, strlen(b) + 1);
  }
  mpz_clears(x, y, m, r, ref, got, NULL);
  return why;
}

/* ---- multiple-length multiplication C = A * B, w = bits / 32 words (seed 002 ch. 3) -------- */
/* Layout: A (w words), B (w), C (2 w), least significant word first.  The reads and writes
 * are Table 3.1's: an operand register is loaded again only when its index differs from the
 * one it holds.  School (Algorithm 1): b_j once per row, a_i every product, c_{i+j} read
 * from row 1 on (row 0 writes C <- 0's words without reading them): 2 w^2 reads, w^2 + w
 * writes.  Comba (Algorithm 2, column order): a_j and b_{i-j} every product, except a_0
 * from column 0 into column 1 and a_{w-1} from column 2w-3 into column 2w-2, which the
 * register still holds: 2 w^2 - 2 reads (w >= 2), 2 w writes. */

static void mul_setup(MsBulkCfg *cfg) {
  cfg->s = cfg->bits / 32;
  cfg->words = 4 * cfg->s;
}

static void mul_init(const MsBulkCfg *cfg, guint64 *state, guint64 *mem) { random_words(state, mem, cfg->words); }

#define R(a) "{\"op\": \"read\", \"addr\": \"" a "\"}"
#define W(a) "{\"op\": \"write\", \"addr\": \"" a "\"}"
static GString *mul_head(const MsBulkCfg *cfg, const char *method) {
  GString *t = g_string_new(NULL);
  g_string_append_printf(t, "{\"memsim_bulk\": 1, \"name\": \"%s multiplication of %" G_GUINT64_FORMAT " bits\",\n"
                         " \"words\": %" G_GUINT64_FORMAT ",\n \"constants\": {\"s\": %" G_GUINT64_FORMAT
                         ", \"A\": 0, \"B\": %" G_GUINT64_FORMAT ", \"C\": %" G_GUINT64_FORMAT "},\n \"steps\": [\n",
                         method, cfg->bits, cfg->words, cfg->s, cfg->s, 2 * cfg->s);
  return t;
}

static char *school_text(const MsBulkCfg *cfg) {
  GString *t = mul_head(cfg, "School");
  g_string_append(t, "  " R("B") ",\n"
                     "  {\"repeat\": \"s\", \"var\": \"x\", \"steps\": [" R("A + x") ", " W("C + x") "]},\n"
                     "  " W("C + s") ",\n"
                     "  {\"repeat\": \"s - 1\", \"var\": \"q\", \"steps\": [\n"
                     "    " R("B + q + 1") ",\n"
                     "    {\"repeat\": \"s\", \"var\": \"x\", \"steps\": [" R("A + x") ", " R("C + x + q + 1") ", "
                     W("C + x + q + 1") "]},\n"
                     "    " W("C + s + q + 1") "]}]}\n");
  return g_string_free(t, FALSE);
}

static char *comba_text(const MsBulkCfg *cfg) {
  GString *t = mul_head(cfg, "Comba");
  g_string_append(t, "  " R("A") ", " R("B") ", " W("C") ",\n");
  if (cfg->s >= 2)
    g_string_append(t, "  " R("B + 1") ", " R("A + 1") ", " R("B") ", " W("C + 1") ",\n"
                       "  {\"repeat\": \"s - 2\", \"var\": \"q\", \"steps\": [\n"
                       "    {\"repeat\": \"q + 3\", \"var\": \"j\", \"steps\": [" R("A + j") ", " R("B + q + 2 - j") "]},\n"
                       "    " W("C + q + 2") "]},\n"
                       "  {\"repeat\": \"s - 2\", \"var\": \"q\", \"steps\": [\n"
                       "    {\"repeat\": \"s - 1 - q\", \"var\": \"r\", \"steps\": [" R("A + q + 1 + r") ", " R("B + s - 1 - r") "]},\n"
                       "    " W("C + s + q") "]},\n"
                       "  " R("B + s - 1") ", " W("C + 2 * s - 2") ",\n");
  g_string_append(t, "  " W("C + 2 * s - 1") "]}\n");
  return g_string_free(t, FALSE);
}
#undef R
#undef W

static gboolean school_run(const MsBulkCfg *cfg, MsBulkCursor *c, GError **error) {
  const guint64 s = cfg->s;
  guint64 a[MS_BULK_LANES], b[MS_BULK_LANES], x[MS_BULK_LANES], u[MS_BULK_LANES], v[MS_BULK_LANES];
  for (guint64 j = 0; j < s; j++) {
    LOAD(b);
    LANES(k) u[k] = 0;
    for (guint64 i = 0; i < s; i++) {
      LOAD(a);
      if (j) LOAD(x);
      LANES(k) {
        const guint64 z = a[k] * b[k] + (j ? x[k] : 0) + u[k]; /* < 2^64 */
        v[k] = z & MASK32;
        u[k] = z >> 32;
      }
      STORE(v);
    }
    STORE(u);
  }
  return TRUE;
}

/* {t, u, v} += a * b, 96 bits as hi:lo */
static void acc_add(guint64 *lo, guint64 *hi, guint64 p) {
  *lo += p;
  *hi += *lo < p;
}

static gboolean comba_run(const MsBulkCfg *cfg, MsBulkCursor *c, GError **error) {
  const guint64 s = cfg->s;
  guint64 a[MS_BULK_LANES], b[MS_BULK_LANES], lo[MS_BULK_LANES] = {0}, hi[MS_BULK_LANES] = {0}, v[MS_BULK_LANES];
#define OUT()                                                                                                           \
  do {                                                                                                                  \
    LANES(k) v[k] = lo[k] & MASK32;                                                                                     \
    STORE(v);                                                                                                           \
    LANES(k) {                                                                                                          \
      lo[k] = (lo[k] >> 32) | (hi[k] << 32);                                                                            \
      hi[k] = 0;                                                                                                        \
    }                                                                                                                   \
  } while (0)
  LOAD(a);
  LOAD(b);
  LANES(k) acc_add(&lo[k], &hi[k], a[k] * b[k]);
  OUT();
  if (s >= 2) {
    LOAD(b); /* b_1 with a_0 still held */
    LANES(k) acc_add(&lo[k], &hi[k], a[k] * b[k]);
    LOAD(a);
    LOAD(b);
    LANES(k) acc_add(&lo[k], &hi[k], a[k] * b[k]);
    OUT();
    for (guint64 i = 2; i + 1 <= 2 * s - 2; i++) { /* columns 2 .. 2s-3 */
      const guint64 j0 = i >= s ? i - s + 1 : 0, j1 = MIN(i, s - 1);
      for (guint64 j = j0; j <= j1; j++) {
        LOAD(a);
        LOAD(b);
        LANES(k) acc_add(&lo[k], &hi[k], a[k] * b[k]);
      }
      OUT();
    }
    LOAD(b); /* b_{s-1} with a_{s-1} still held */
    LANES(k) acc_add(&lo[k], &hi[k], a[k] * b[k]);
    OUT();
  }
  LANES(k) v[k] = lo[k] & MASK32;
  STORE(v);
#undef OUT
  return TRUE;
}

static char *mul_check(const MsBulkCfg *cfg, const guint64 *before, const guint64 *after) {
  const guint64 s = cfg->s;
  mpz_t a, b, ref, got;
  mpz_inits(a, b, ref, got, NULL);
  mg_import(a, before, s);
  mg_import(b, before + s, s);
  mg_import(got, after + 2 * s, 2 * s);
  mpz_mul(ref, a, b);
  char *why = NULL;
  if (mpz_cmp(ref, got) != 0) {
    char *x = mpz_get_str(NULL, 16, got), *y = mpz_get_str(NULL, 16, ref);
    why = g_strdup_printf("C = 0x%.40s%s, GMP's A * B = 0x%.40s%s", x, strlen(x) > 40 ? "..." : "", y, strlen(y) > 40 ? "..." : "");
    void (*freefn)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &freefn);
    freefn(x, strlen(x) + 1);
    freefn(y, strlen(y) + 1);
  }
  mpz_clears(a, b, ref, got, NULL);
  return why;
}

/* ---- BPBC CKY parsing (seed 000 ch. 7): 32 strings per word ------------------------------ */
/* Instance memory: the CKY table of 32 strings of n symbols at once (bit s of a word is
 * string s), cell (i, j) (0 <= i <= j < n, the substring i..j) at (j (j + 1) / 2 + i) * b,
 * one word per non-terminal.  The diagonal is the input (the non-terminals A -> x_i of each
 * string's symbol); every other cell is written, bottom row first and right to left in a
 * row, as the union over k of T[i, k] (x) T[k + 1, j]: b reads of each, then b writes.  The
 * grammar (b non-terminals, `rules` distinct binary rules A -> BC, two terminals each
 * derived by about a quarter of the non-terminals) comes from the seed alone, so it is the
 * same for every instance; the strings are the instance's data. */

#define CKY_CELL(i, j) ((j) * ((j) + 1) / 2 + (i))

static void cky_setup(MsBulkCfg *cfg) { cfg->words = cfg->nonterminals * (cfg->n * (cfg->n + 1) / 2); }

static char *cky_text(const MsBulkCfg *cfg) {
  return g_strdup_printf(
      "{\"memsim_bulk\": 1, \"name\": \"BPBC CKY parsing of 32 strings of %" G_GUINT64_FORMAT " symbols, %" G_GUINT64_FORMAT
      " non-terminals (seed 000 ch. 7)\",\n"
      " \"words\": %" G_GUINT64_FORMAT ", \"constants\": {\"n\": %" G_GUINT64_FORMAT ", \"b\": %" G_GUINT64_FORMAT "},\n"
      " \"steps\": [\n"
      "  {\"repeat\": \"n - 1\", \"var\": \"jj\", \"steps\": [\n"
      "    {\"repeat\": \"jj + 1\", \"var\": \"ii\", \"steps\": [\n"
      "      {\"repeat\": \"ii + 1\", \"var\": \"kk\", \"steps\": [\n"
      "        {\"repeat\": \"b\", \"var\": \"a\", \"steps\": [{\"op\": \"read\", \"addr\": "
      "\"((jj - ii + kk) * (jj - ii + kk + 1) / 2 + jj - ii) * b + a\"}]},\n"
      "        {\"repeat\": \"b\", \"var\": \"a\", \"steps\": [{\"op\": \"read\", \"addr\": "
      "\"((jj + 1) * (jj + 2) / 2 + jj - ii + kk + 1) * b + a\"}]}]},\n"
      "      {\"repeat\": \"b\", \"var\": \"a\", \"steps\": [{\"op\": \"write\", \"addr\": "
      "\"((jj + 1) * (jj + 2) / 2 + jj - ii) * b + a\"}]}]}]}]}\n",
      cfg->n, cfg->nonterminals, cfg->words, cfg->n, cfg->nonterminals);
}

/* The grammar: rule r is A[r] -> B[r] C[r] (distinct), term[t * b + A] = 1 if A -> t. */
typedef struct {
  guint32 *A, *B, *C;
  guint8 *term;
} CkyGrammar;

static CkyGrammar cky_grammar(const MsBulkCfg *cfg) {
  const guint64 b = cfg->nonterminals, n3 = b * b * b;
  guint64 st = cfg->seed * 0x2545f4914f6cdd1du + 0x9e3779b97f4a7c15u;
  CkyGrammar g = {g_new(guint32, cfg->rules), g_new(guint32, cfg->rules), g_new(guint32, cfg->rules),
                  g_new0(guint8, 2 * b)};
  GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
  for (guint64 r = 0; r < cfg->rules;) {
    const guint64 x = ms_rand_next(&st) % n3;
    if (g_hash_table_contains(seen, GSIZE_TO_POINTER(x + 1))) continue;
    g_hash_table_add(seen, GSIZE_TO_POINTER(x + 1));
    g.A[r] = (guint32)(x / (b * b));
    g.B[r] = (guint32)(x / b % b);
    g.C[r] = (guint32)(x % b);
    r++;
  }
  g_hash_table_destroy(seen);
  for (guint64 i = 0; i < 2 * b; i++) g.term[i] = ms_rand_next(&st) % 4 == 0;
  return g;
}

static void cky_grammar_free(CkyGrammar *g) {
  g_free(g->A);
  g_free(g->B);
  g_free(g->C);
  g_free(g->term);
}

static void cky_init(const MsBulkCfg *cfg, guint64 *state, guint64 *mem) {
  const guint64 b = cfg->nonterminals;
  CkyGrammar g = cky_grammar(cfg);
  random_words(state, mem, cfg->words); /* cells above the diagonal: written before read */
  for (guint64 i = 0; i < cfg->n; i++) {
    guint64 *cell = mem + CKY_CELL(i, i) * b;
    for (guint64 a = 0; a < b; a++) cell[a] = 0;
    for (guint s = 0; s < 32; s++) {
      const guint64 t = ms_rand_next(state) & 1; /* string s's symbol i */
      for (guint64 a = 0; a < b; a++) cell[a] |= (guint64)g.term[t * b + a] << s;
    }
  }
  cky_grammar_free(&g);
}

static gboolean cky_run(const MsBulkCfg *cfg, MsBulkCursor *c, GError **error) {
  const guint64 b = cfg->nonterminals;
  CkyGrammar g = cky_grammar(cfg);
  typedef guint64 Lanes[MS_BULK_LANES];
  Lanes *U = g_new(Lanes, b), *V = g_new(Lanes, b), *acc = g_new(Lanes, b);
  gboolean ok = TRUE;
  for (guint64 j = 1; j < cfg->n && ok; j++)
    for (guint64 i = j; i-- > 0 && ok;) {
      memset(acc, 0, b * sizeof *acc);
      for (guint64 k = i; k < j && ok; k++) {
        for (guint64 a = 0; a < b && ok; a++) ok = ms_bulk_load(c, U[a], error);
        for (guint64 a = 0; a < b && ok; a++) ok = ms_bulk_load(c, V[a], error);
        for (guint64 r = 0; r < cfg->rules && ok; r++) LANES(k2) acc[g.A[r]][k2] |= U[g.B[r]][k2] & V[g.C[r]][k2];
      }
      for (guint64 a = 0; a < b && ok; a++) ok = ms_bulk_store(c, acc[a], error);
    }
  g_free(U);
  g_free(V);
  g_free(acc);
  cky_grammar_free(&g);
  return ok;
}

/* A straightforward CKY parser (seed 000 section 7.1, sets as byte arrays), for strings 0,
 * 1, 16 and 31 of the instance, every cell compared. */
static char *cky_check(const MsBulkCfg *cfg, const guint64 *before, const guint64 *after) {
  const guint64 b = cfg->nonterminals, n = cfg->n;
  CkyGrammar g = cky_grammar(cfg);
  guint8 *T = g_new(guint8, n * n * b);
  char *why = NULL;
  static const guint strings[] = {0, 1, 16, 31};
  for (guint si = 0; si < G_N_ELEMENTS(strings) && !why; si++) {
    const guint s = strings[si];
#define TS(i, j) (T + ((i) * n + (j)) * b)
    memset(T, 0, n * n * b);
    for (guint64 i = 0; i < n; i++)
      for (guint64 a = 0; a < b; a++) TS(i, i)[a] = (before[CKY_CELL(i, i) * b + a] >> s) & 1;
    for (guint64 j = 1; j < n; j++)
      for (guint64 i = j; i-- > 0;)
        for (guint64 k = i; k < j; k++)
          for (guint64 r = 0; r < cfg->rules; r++)
            if (TS(i, k)[g.B[r]] && TS(k + 1, j)[g.C[r]]) TS(i, j)[g.A[r]] = 1;
    for (guint64 j = 0; j < n && !why; j++)
      for (guint64 i = 0; i <= j && !why; i++)
        for (guint64 a = 0; a < b && !why; a++) {
          const guint got = (after[CKY_CELL(i, j) * b + a] >> s) & 1;
          if (got != TS(i, j)[a])
            why = g_strdup_printf("string %u: non-terminal %" G_GUINT64_FORMAT " %s in T[%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
                                  "], the CKY parser says it %s", s, a, got ? "is" : "is not", i, j, got ? "is not" : "is");
        }
#undef TS
  }
  g_free(T);
  cky_grammar_free(&g);
  return why;
}

/* ---- the table -------------------------------------------------------------------------- */

static const MsBulkAlgo algos[] = {
    {"prefix-sums", "n", 1024, 1, 1u << 24, NULL, NULL, ps_setup, ps_text, ps_init, ps_run, ps_check},
    {"bitonic", "n", 1024, 2, 1u << 16, pow2, "a power of two", bit_setup, bit_text, bit_init, bit_run, bit_check},
    {"floyd-warshall", "n", 32, 1, 256, NULL, NULL, fw_setup, fw_text, fw_init, fw_run, fw_check},
    {"montgomery", "bits", 1024, 32, 8192, mult32, "a multiple of 32", mg_setup, mg_text, mg_init, mg_run, mg_check},
    {"cky", "n", 32, 1, 64, NULL, NULL, cky_setup, cky_text, cky_init, cky_run, cky_check, TRUE},
    {"school", "bits", 1024, 32, 8192, mult32, "a multiple of 32", mul_setup, school_text, mul_init, school_run, mul_check},
    {"comba", "bits", 1024, 32, 8192, mult32, "a multiple of 32", mul_setup, comba_text, mul_init, comba_run, mul_check},
};

const MsBulkAlgo *ms_bulk_algo(const char *name) {
  for (gsize i = 0; i < G_N_ELEMENTS(algos); i++)
    if (strcmp(algos[i].name, name) == 0) return &algos[i];
  return NULL;
}
