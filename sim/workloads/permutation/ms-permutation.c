/* ms-permutation.c: the offline permutation family (seed 001 chapters 4 and 5;
 * docs/workloads/permutation.md).
 *
 * Every algorithm is built as a small program of SIMD steps whose addresses are computed per
 * thread from an index kind and (for the data-dependent ones) a table.  The program is first
 * executed on real data (each thread's register carries an element through the reads and
 * writes of the trace itself) and checked to land a[i] in b[P(i)]; only then is it handed
 * out as an MsSource that streams the same steps. */
#include "ms-permutation-private.h"
#include <errno.h>
#include <string.h>

const char *const ms_permutation_algorithms[] = {
    "copy", "d-designated", "s-designated", "conflict-free", "d-designated-inplace",
    "s-designated-inplace", "conflict-free-inplace", "hmm-d-designated", "hmm-s-designated",
    "hmm-transpose", "hmm-row-wise", "hmm-column-wise", "hmm-scheduled", NULL};

#define MAX_N (G_GUINT64_CONSTANT(1) << 28)

/* ---- permutations ------------------------------------------------------------------- */

static gint64 *perm_read_file(const char *path, guint64 *n, GError **error) {
  gchar *text = NULL;
  gsize len = 0;
  GError *e = NULL;
  if (!ms_file_check(path, error)) return NULL;
  if (!g_file_get_contents(path, &text, &len, &e)) {
    g_set_error(error, MS_ERROR, MS_ERROR_IO, "%s: %s", path, e->message);
    g_error_free(e);
    return NULL;
  }
  GArray *v = g_array_new(FALSE, FALSE, sizeof(gint64));
  gboolean ok = TRUE;
  if (g_str_has_suffix(path, ".bin") || g_str_has_suffix(path, ".u32")) {
    if (len % 4) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                  "%s: a binary permutation is little-endian u32, but the file has %" G_GSIZE_FORMAT " bytes (not a multiple of 4)", path, len);
      ok = FALSE;
    }
    for (gsize k = 0; ok && k < len; k += 4) {
      const guint8 *b = (const guint8 *)text + k;
      gint64 x = (gint64)((guint32)b[0] | (guint32)b[1] << 8 | (guint32)b[2] << 16 | (guint32)b[3] << 24);
      g_array_append_val(v, x);
    }
  } else {
    guint line = 1;
    const char *s = text;
    while (ok && s < text + len) {
      if (*s == '\n') line++;
      if (g_ascii_isspace(*s)) {
        s++;
        continue;
      }
      if (!g_ascii_isdigit(*s)) {
        g_set_error(error, MS_ERROR, MS_ERROR_SYNTAX, "%s:%u: expected a non-negative integer, got '%c'", path, line, *s);
        ok = FALSE;
        break;
      }
      char *end = NULL;
      errno = 0;
      guint64 x = g_ascii_strtoull(s, &end, 10);
      if (errno == ERANGE || x >= MAX_N) { /* ERANGE only: see ms_param_uint */
        g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s:%u: value out of range", path, line);
        ok = FALSE;
        break;
      }
      gint64 xi = (gint64)x;
      g_array_append_val(v, xi);
      s = end;
    }
  }
  g_free(text);
  if (ok && v->len == 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: the permutation is empty", path);
    ok = FALSE;
  }
  if (ok && *n && v->len != *n) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: holds %u values, but --n is %" G_GUINT64_FORMAT, path, v->len, *n);
    ok = FALSE;
  }
  if (ok) {
    *n = v->len;
    gint64 *p = (gint64 *)(void *)g_array_free(v, FALSE);
    guint8 *seen = g_new0(guint8, *n);
    for (guint64 i = 0; i < *n && ok; i++) {
      if (p[i] < 0 || (guint64)p[i] >= *n) {
        g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                    "%s: value %" G_GINT64_FORMAT " at position %" G_GUINT64_FORMAT " is out of range [0, %" G_GUINT64_FORMAT "): not a permutation",
                    path, p[i], i, *n);
        ok = FALSE;
      } else if (seen[p[i]]++) {
        g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                    "%s: value %" G_GINT64_FORMAT " appears twice (again at position %" G_GUINT64_FORMAT "): not a bijection", path, p[i], i);
        ok = FALSE;
      }
    }
    g_free(seen);
    if (ok) return p;
    g_free(p);
    return NULL;
  }
  g_array_free(v, TRUE);
  return NULL;
}

gint64 *ms_perm_load(const char *spec, guint64 *n, guint64 seed, GError **error) {
  if (g_str_has_prefix(spec, "file:")) return perm_read_file(spec + 5, n, error);
  if (*n == 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "--n is required for the %s permutation", spec);
    return NULL;
  }
  if (*n > MAX_N) {
    g_set_error(error, MS_ERROR, MS_ERROR_LIMIT, "--n: %" G_GUINT64_FORMAT " is beyond the limit 2^28", *n);
    return NULL;
  }
  return ms_perm_generate(spec, *n, seed, error);
}

guint32 ms_perm_warp_dmm_stages(const gint64 *addr, guint32 count, guint32 w) {
  guint32 best = 0;
  for (guint32 a = 0; a < count; a++) {
    gboolean first = TRUE;
    for (guint32 b = 0; b < a; b++)
      if (addr[b] == addr[a]) first = FALSE;
    if (!first) continue;
    guint32 c = 0; /* distinct addresses in the bank of addr[a] up to a (counts addr[a] once) */
    for (guint32 b = 0; b <= a; b++) {
      if ((guint64)addr[b] % w != (guint64)addr[a] % w) continue;
      gboolean dup = FALSE;
      for (guint32 x = 0; x < b; x++)
        if (addr[x] == addr[b]) dup = TRUE;
      if (!dup) c++;
    }
    if (c > best) best = c;
  }
  return best;
}

guint32 ms_perm_warp_umm_stages(const gint64 *addr, guint32 count, guint32 w) {
  guint32 c = 0;
  for (guint32 a = 0; a < count; a++) {
    gboolean first = TRUE;
    for (guint32 b = 0; b < a && first; b++)
      if ((guint64)addr[b] / w == (guint64)addr[a] / w) first = FALSE;
    c += first;
  }
  return c;
}

guint64 ms_perm_distribution(const gint64 *p, guint64 n, guint32 w) {
  guint64 total = 0;
  for (guint64 j = 0; j < n; j += w) total += ms_perm_warp_umm_stages(p + j, (guint32)MIN((guint64)w, n - j), w);
  return total;
}

static int log2_exact(guint64 n) {
  if (n == 0 || (n & (n - 1))) return -1;
  int m = 0;
  while ((G_GUINT64_CONSTANT(1) << m) < n) m++;
  return m;
}

static guint64 isqrt_exact(guint64 n) {
  guint64 r = 0;
  while ((r + 1) * (r + 1) <= n) r++;
  return r * r == n ? r : 0;
}

/* Formulas (seed 001 section 4.4 for n = 1024, w = 32, generalised to n = 2^m, w = 2^k;
 * docs/workloads/permutation.md derives them):
 *   transpose (n = r^2):  P = Q = (i mod r) r + i / r;  S = i ^ ((i mod w) << log r), r >= w
 *   shuffle:  P = rotl_m(i) = (i >> (m-1)) | ((i & (n/2-1)) << 1),  Q = rotr_m(i);
 *             S = i ^ ((i mod w) << (m-k)) for m >= 2k,
 *             S = i ^ (bit_{k-1}(i) << (m-1)) for k < m < 2k
 *   bit-reversal:  P = Q = rev_m(i);  S = i ^ ((i mod w) << (m-k)) for m >= 2k
 *   identical:  P = Q = S = i
 * and S = i whenever n <= w (one warp: distinct addresses below w are distinct banks).
 * D = P(S(i)) always. */
gboolean ms_perm_formula_holds(const char *kind, char which, guint64 n, guint32 w) {
  int m = log2_exact(n), k = log2_exact(w);
  gboolean named = strcmp(kind, "identical") == 0 || strcmp(kind, "transpose") == 0 ||
                   strcmp(kind, "shuffle") == 0 || strcmp(kind, "bit-reversal") == 0;
  if (!named || n == 0 || w == 0) return FALSE;
  if (kind[0] == 't' && !isqrt_exact(n)) return FALSE;
  if ((kind[0] == 's' || kind[0] == 'b') && m < 0) return FALSE;
  if (which == 'p' || which == 'q' || kind[0] == 'i') return TRUE;
  if (k < 0) return FALSE;
  if (n <= w) return TRUE;
  if (kind[0] == 't') {
    int lr = log2_exact(isqrt_exact(n));
    return lr >= k;
  }
  if (kind[0] == 's') return m > k;
  return m >= 2 * k;
}

static guint64 rev_bits(guint64 x, int m) {
  guint64 v = 0;
  for (int b = 0; b < m; b++) v |= ((x >> b) & 1) << (m - 1 - b);
  return v;
}

static guint64 formula_p(const char *kind, char which, guint64 n, int m, guint64 i) {
  if (kind[0] == 'i') return i;
  if (kind[0] == 't') {
    guint64 r = isqrt_exact(n);
    return (i % r) * r + i / r;
  }
  if (kind[0] == 'b') return rev_bits(i, m);
  if (m == 0) return 0;
  if (which == 'p') return (i >> (m - 1)) | ((i & ((n >> 1) - 1)) << 1);
  return (i >> 1) | ((i & 1) << (m - 1));
}

guint64 ms_perm_formula(const char *kind, char which, guint64 n, guint32 w, guint64 i) {
  int m = log2_exact(n), k = log2_exact(w);
  if (which == 'p' || which == 'q') return formula_p(kind, which, n, m, i);
  guint64 s = i;
  if (kind[0] != 'i' && n > w) {
    guint64 j = i & (w - 1);
    if (kind[0] == 't') s = i ^ (j << log2_exact(isqrt_exact(n)));
    else if (m >= 2 * k) s = i ^ (j << (m - k));
    else s = i ^ (((i >> (k - 1)) & 1) << (m - 1)); /* shuffle, k < m < 2k */
  }
  return which == 's' ? s : formula_p(kind, 'p', n, m, s);
}

gboolean ms_perm_conflict_free_tables(const gint64 *q, guint64 len, guint32 w, guint32 *s,
                                      guint32 *d, GError **error) {
  guint32 *l = g_new(guint32, len), *r = g_new(guint32, len), *c = g_new(guint32, len);
  for (guint64 j = 0; j < len; j++) {
    l[j] = (guint32)(j % w);
    r[j] = (guint32)((guint64)q[j] % w);
  }
  gboolean ok = ms_bipartite_colour(w, len, l, r, c, error);
  if (ok)
    for (guint64 j = 0; j < len; j++) {
      guint64 t = (guint64)c[j] * w + l[j];
      s[t] = (guint32)j;
      d[t] = (guint32)q[j];
    }
  g_free(l);
  g_free(r);
  g_free(c);
  return ok;
}

/* ---- programs ---------------------------------------------------------------------- */

typedef enum {
  IX_TID,      /* t */
  IX_TAB,      /* tab[t] */
  IX_LOCAL,    /* t mod B (block-local shared memory) */
  IX_ROWTAB,   /* (t mod B) - (t mod nbar) + tab[t]: a row's shared array, indexed by tab */
  IX_TG_IN,    /* transpose: global element read by tile thread t */
  IX_TG_OUT,   /* transpose: global element written */
  IX_TS_IN,    /* transpose: diagonal arrangement, alpha[i, j] */
  IX_TS_OUT,   /* transpose: alpha[j, i] */
  /* column strips (one kernel for the column round, kernels/permutation.cu
   * hmm_column_strip): block b holds columns b C .. b C + C - 1; element e = ltid + slot B of
   * the strip is row e / C, column e % C; in shared memory column c at c nbar, row r rotated
   * to (r + c w / C) mod nbar; table entry e is column e / nbar, entry e mod nbar */
  IX_CS_GLOBAL, /* r nbar + b C + c */
  IX_CS_SHARED, /* c nbar + (r + c w / C) mod nbar */
  IX_CS_TAB,    /* b C nbar + e: the strip's packed table word */
  IX_CS_ROWTAB, /* column e / nbar at tab[(b C + e / nbar) nbar + e mod nbar], rotated */
} IxKind;

typedef struct {
  MsStep step;
  IxKind ix;
  guint64 base, ew;
  const guint32 *tab;
  gboolean data; /* moves the element: a read loads the thread's register, a write stores it */
  guint slot;    /* which of the thread's registers (column strips: one per element) */
} PStep;

typedef struct {
  guint64 threads, block;
  guint32 w;
  guint64 nbar;
  GArray *steps;    /* of PStep */
  GPtrArray *tabs;  /* owned tables */
  guint64 global_elems, shared_elems; /* data elements each space holds (verification) */
  guint64 global_words;               /* data and index words in global memory */
  guint64 a_base, b_base, ew;         /* a and b (global or shared per algorithm) */
  guint64 n;                          /* elements permuted */
  MsSpace data_space;
  gboolean packed;                    /* one index array s | d << 16 per row-wise kernel */
  guint64 strip;                      /* columns per strip (column strips), else 0 */
  guint slots;                        /* registers per thread (verification) */
  guint cur;
} Prog;

static void prog_free(gpointer self) {
  Prog *p = self;
  if (!p) return;
  g_array_free(p->steps, TRUE);
  g_ptr_array_free(p->tabs, TRUE);
  g_free(p);
}

static Prog *prog_new(guint64 threads, guint64 block, guint32 w, guint64 nbar) {
  Prog *p = g_new0(Prog, 1);
  p->threads = threads;
  p->block = block;
  p->w = w;
  p->nbar = nbar;
  p->steps = g_array_new(FALSE, TRUE, sizeof(PStep));
  p->tabs = g_ptr_array_new_with_free_func(g_free);
  p->slots = 1;
  return p;
}

static void add_mem(Prog *p, MsOp op, MsSpace space, IxKind ix, guint64 base, guint64 ew,
                    const guint32 *tab, gboolean data) {
  PStep s = {{op, space, MS_SCOPE_GRID}, ix, base, ew, tab, data, 0};
  g_array_append_val(p->steps, s);
}

static void add_slot(Prog *p, MsOp op, MsSpace space, IxKind ix, guint64 base, guint64 ew,
                     const guint32 *tab, gboolean data, guint slot) {
  add_mem(p, op, space, ix, base, ew, tab, data);
  g_array_index(p->steps, PStep, p->steps->len - 1).slot = slot;
  p->slots = MAX(p->slots, slot + 1);
}

static void add_sync(Prog *p, MsScope scope) {
  PStep s = {{MS_OP_SYNC, MS_SPACE_GLOBAL, scope}, IX_TID, 0, 1, NULL, FALSE, 0};
  g_array_append_val(p->steps, s);
}

static guint32 *prog_tab(Prog *p, guint64 n) {
  guint32 *t = g_new(guint32, n);
  g_ptr_array_add(p->tabs, t);
  return t;
}

static void fill_addr(const Prog *p, const PStep *s, guint64 first, guint64 count, gint64 *out) {
  guint64 B = p->block, w = p->w, nbar = p->nbar, ww = w * w;
  for (guint64 k = 0; k < count; k++) {
    guint64 t = first + k, x;
    switch (s->ix) {
    case IX_TID: x = t; break;
    case IX_TAB: x = s->tab[t]; break;
    case IX_LOCAL: x = t % B; break;
    case IX_ROWTAB: x = t % B - t % nbar + s->tab[t]; break;
    case IX_CS_GLOBAL:
    case IX_CS_SHARED:
    case IX_CS_TAB:
    case IX_CS_ROWTAB: {
      guint64 C = p->strip, R = w / C, b = t / B, e = t % B + s->slot * B, r = e / C, c = e % C;
      if (b >= nbar / C) {
        out[k] = MS_ADDR_NONE; /* more blocks than strips: this block has none */
        continue;
      }
      if (s->ix == IX_CS_GLOBAL) x = r * nbar + b * C + c;
      else if (s->ix == IX_CS_SHARED) x = c * nbar + (r + c * R) % nbar;
      else if (s->ix == IX_CS_TAB) x = b * C * nbar + e;
      else {
        guint64 col = e / nbar;
        x = col * nbar + (s->tab[(b * C + col) * nbar + e % nbar] + col * R) % nbar;
      }
      break;
    }
    default: {
      guint64 e = t % ww, T = t / ww, nt = nbar / w, TI = T / nt, TJ = T % nt, i = e / w, j = e % w;
      if (s->ix == IX_TG_IN) x = (TI * w + i) * nbar + TJ * w + j;
      else if (s->ix == IX_TG_OUT) x = (TJ * w + i) * nbar + TI * w + j;
      else if (s->ix == IX_TS_IN) x = t % B - e + i * w + (i + j) % w;
      else x = t % B - e + j * w + (j + i) % w;
    }
    }
    out[k] = (gint64)(s->base + s->ew * x);
  }
}

static MsNext prog_next(gpointer self, MsStep *step, GError **error) {
  (void)error;
  Prog *p = self;
  if (p->cur >= p->steps->len) return MS_NEXT_END;
  *step = g_array_index(p->steps, PStep, p->cur).step;
  p->cur++;
  return MS_NEXT_STEP;
}

static gboolean prog_fill(gpointer self, guint64 first, guint64 count, gint64 *addr, GError **error) {
  (void)error;
  Prog *p = self;
  fill_addr(p, &g_array_index(p->steps, PStep, p->cur - 1), first, count, addr);
  return TRUE;
}

/* fill() is a function of the step and the thread: safe on several workers at once. */
static gboolean prog_fill_worker(gpointer self, guint worker, guint64 first, guint64 count, gint64 *addr,
                              GError **error) {
  (void)worker;
  return prog_fill(self, first, count, addr, error);
}

static const MsSourceFuncs prog_funcs = {prog_next, prog_fill, prog_free, NULL, prog_fill_worker};

/* Execute the program on data: a[i] = i initially; every data read loads the addressed
 * element into the thread's register, every data write stores it.  Then b[P(i)] must be i. */
static gboolean prog_verify(const Prog *p, const gint64 *P, guint64 n, GError **error) {
  guint64 blocks = (p->threads + p->block - 1) / p->block;
  guint32 *glob = g_new(guint32, p->global_elems ? p->global_elems : 1);
  guint32 *shar = g_new(guint32, p->shared_elems ? p->shared_elems * blocks : 1);
  guint32 *reg = g_new(guint32, p->threads * p->slots);
  memset(glob, 0xff, sizeof(guint32) * (p->global_elems ? p->global_elems : 1));
  memset(shar, 0xff, sizeof(guint32) * (p->shared_elems ? p->shared_elems * blocks : 1));
  memset(reg, 0xff, sizeof(guint32) * p->threads * p->slots);
  guint32 *mem0 = p->data_space == MS_SPACE_GLOBAL ? glob : shar;
  for (guint64 i = 0; i < n; i++) mem0[p->a_base / p->ew + i] = (guint32)i;
  enum { CH = 4096 };
  gint64 addr[CH];
  gboolean ok = TRUE;
  for (guint k = 0; k < p->steps->len && ok; k++) {
    const PStep *s = &g_array_index(p->steps, PStep, k);
    if (s->step.op == MS_OP_SYNC || !s->data) continue;
    for (guint64 f = 0; f < p->threads && ok; f += CH) {
      guint64 c = MIN((guint64)CH, p->threads - f);
      fill_addr(p, s, f, c, addr);
      for (guint64 x = 0; x < c; x++) {
        if (addr[x] == MS_ADDR_NONE) continue;
        guint64 t = f + x, e = (guint64)addr[x] / s->ew;
        guint32 *cell;
        if (s->step.space == MS_SPACE_GLOBAL) {
          if (e >= p->global_elems) {
            ok = FALSE;
            break;
          }
          cell = &glob[e];
        } else {
          if (e >= p->shared_elems) {
            ok = FALSE;
            break;
          }
          cell = &shar[(t / p->block) * p->shared_elems + e];
        }
        if (s->step.op == MS_OP_READ) reg[t * p->slots + s->slot] = *cell;
        else *cell = reg[t * p->slots + s->slot];
      }
    }
  }
  guint64 bad = n;
  for (guint64 i = 0; i < n && ok; i++)
    if (mem0[p->b_base / p->ew + (guint64)P[i]] != (guint32)i) {
      bad = i;
      ok = FALSE;
    }
  g_free(glob);
  g_free(shar);
  g_free(reg);
  if (!ok) {
    if (bad < n)
      g_set_error(error, MS_ERROR, MS_ERROR_VERIFY,
                  "permutation: verification failed: a[%" G_GUINT64_FORMAT "] did not land in b[%" G_GINT64_FORMAT "]", bad, P[bad]);
    else
      g_set_error(error, MS_ERROR, MS_ERROR_VERIFY, "permutation: verification failed: an address fell outside its array");
  }
  return ok;
}

/* ---- DMM algorithms (seed 001 chapter 4): one block of n threads, shared memory ------ */

/* `reg`: table = register: each thread holds its table entries (P, Q, or S and D) in
 * registers, loaded once before the passes; the trace is one pass without the table reads
 * (what a kernel repeating the permutation repeats).  The in-place algorithms and the copy
 * read no table, so reg changes nothing for them. */
static Prog *build_dmm(const char *alg, const char *pname, const gint64 *P, guint64 n,
                       guint32 w, guint64 ew, gboolean reg, GError **error) {
  Prog *p = prog_new(n, n, w, n);
  p->ew = ew;
  p->a_base = 0;
  p->b_base = n * ew;
  p->data_space = MS_SPACE_SHARED;
  p->shared_elems = 2 * n;
  guint64 ix = 2 * n * ew; /* index arrays p / q / s / d, one word per entry */
  const MsSpace sh = MS_SPACE_SHARED;
  gboolean inplace = g_str_has_suffix(alg, "-inplace");
  gboolean tabread = !inplace && !reg; /* the pass reads its table from shared memory */
  if (inplace) {
    char which = alg[0] == 'd' ? 'p' : alg[0] == 's' ? 'q' : 's';
    if (!ms_perm_formula_holds(pname, which, n, w) || !ms_perm_formula_holds(pname, 'p', n, w)) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                  "%s: no in-place formula for the %s permutation with n = %" G_GUINT64_FORMAT ", w = %u "
                  "(formulas exist for identical, transpose, shuffle, bit-reversal; see docs/workloads/permutation.md)",
                  alg, pname, n, w);
      prog_free(p);
      return NULL;
    }
    /* The formula must be the permutation. */
    for (guint64 i = 0; i < n; i++)
      if (ms_perm_formula(pname, 'p', n, w, i) != (guint64)P[i]) {
        g_set_error(error, MS_ERROR, MS_ERROR_VERIFY, "%s: the formula of %s differs from the permutation at %" G_GUINT64_FORMAT,
                    alg, pname, i);
        prog_free(p);
        return NULL;
      }
  }
  if (strcmp(alg, "copy") == 0) {
    for (guint64 i = 0; i < n; i++)
      if (P[i] != (gint64)i) {
        g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "copy: performs the identical permutation only (got %s)", pname);
        prog_free(p);
        return NULL;
      }
    add_mem(p, MS_OP_READ, sh, IX_TID, 0, ew, NULL, TRUE);
    add_mem(p, MS_OP_WRITE, sh, IX_TID, n * ew, ew, NULL, TRUE);
  } else if (strcmp(alg, "d-designated") == 0 || strcmp(alg, "d-designated-inplace") == 0) {
    guint32 *t = prog_tab(p, n);
    for (guint64 i = 0; i < n; i++) t[i] = (guint32)(inplace ? ms_perm_formula(pname, 'p', n, w, i) : (guint64)P[i]);
    add_mem(p, MS_OP_READ, sh, IX_TID, 0, ew, NULL, TRUE);
    if (tabread) add_mem(p, MS_OP_READ, sh, IX_TID, ix, 1, NULL, FALSE);
    add_mem(p, MS_OP_WRITE, sh, IX_TAB, n * ew, ew, t, TRUE);
  } else if (strcmp(alg, "s-designated") == 0 || strcmp(alg, "s-designated-inplace") == 0) {
    guint32 *t = prog_tab(p, n);
    if (inplace)
      for (guint64 i = 0; i < n; i++) t[i] = (guint32)ms_perm_formula(pname, 'q', n, w, i);
    else
      for (guint64 i = 0; i < n; i++) t[P[i]] = (guint32)i;
    if (tabread) add_mem(p, MS_OP_READ, sh, IX_TID, ix, 1, NULL, FALSE);
    add_mem(p, MS_OP_READ, sh, IX_TAB, 0, ew, t, TRUE);
    add_mem(p, MS_OP_WRITE, sh, IX_TID, n * ew, ew, NULL, TRUE);
  } else if (strcmp(alg, "conflict-free") == 0 || strcmp(alg, "conflict-free-inplace") == 0) {
    if (n % w) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: n = %" G_GUINT64_FORMAT " must be a multiple of w = %u (the bank graph is regular of degree n/w)",
                  alg, n, w);
      prog_free(p);
      return NULL;
    }
    guint32 *s = prog_tab(p, n), *d = prog_tab(p, n);
    if (inplace) {
      for (guint64 i = 0; i < n; i++) {
        s[i] = (guint32)ms_perm_formula(pname, 's', n, w, i);
        d[i] = (guint32)ms_perm_formula(pname, 'd', n, w, i);
      }
    } else if (!ms_perm_conflict_free_tables(P, n, w, s, d, error)) {
      prog_free(p);
      return NULL;
    }
    if (tabread) {
      add_mem(p, MS_OP_READ, sh, IX_TID, ix, 1, NULL, FALSE);
      add_mem(p, MS_OP_READ, sh, IX_TID, ix + n, 1, NULL, FALSE);
    }
    add_mem(p, MS_OP_READ, sh, IX_TAB, 0, ew, s, TRUE);
    add_mem(p, MS_OP_WRITE, sh, IX_TAB, n * ew, ew, d, TRUE);
  } else {
    g_assert_not_reached();
  }
  return p;
}

/* ---- HMM algorithms (seed 001 chapter 5): n = nbar x nbar in global memory ----------- */

typedef struct {
  Prog *p;
  guint64 n, nbar, ew;
  guint64 next_data;  /* next free global data element */
  guint64 next_index; /* next free global index word (after the data, set at the end) */
  GPtrArray *index_steps; /* PStep indices whose base is relative to the index region */
  gboolean packed;        /* table "packed": kernels/permutation.cu's row-wise tables and scratch */
  guint64 strip;          /* column "strips": the present kernels (strips of this many columns) */
} Hmm;

static guint64 gcd64(guint64 a, guint64 b) {
  while (b) {
    guint64 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* One transpose kernel (section 5.3): tiles of w x w through a diagonal arrangement. */
static void k_transpose(Hmm *h, guint64 in, guint64 out) {
  Prog *p = h->p;
  guint64 ew = h->ew;
  add_mem(p, MS_OP_READ, MS_SPACE_GLOBAL, IX_TG_IN, in * ew, ew, NULL, TRUE);
  add_mem(p, MS_OP_WRITE, MS_SPACE_SHARED, IX_TS_IN, 0, ew, NULL, TRUE);
  add_sync(p, MS_SCOPE_BLOCK);
  add_mem(p, MS_OP_READ, MS_SPACE_SHARED, IX_TS_OUT, 0, ew, NULL, TRUE);
  add_mem(p, MS_OP_WRITE, MS_SPACE_GLOBAL, IX_TG_OUT, out * ew, ew, NULL, TRUE);
}

/* One row-wise kernel (section 5.4): q[r*nbar + j] = destination column of a[r][j].  The
 * paper's layout reads the tables s and d from global memory before the barrier; packed, as
 * kernels/permutation.cu hmm_row_wise does, each thread reads one word s | d << 16 after it. */
static gboolean k_row_wise(Hmm *h, guint64 in, guint64 out, const gint64 *q, GError **error) {
  Prog *p = h->p;
  guint64 n = h->n, nbar = h->nbar, ew = h->ew, B = p->block;
  guint32 *s = prog_tab(p, n), *d = prog_tab(p, n);
  for (guint64 r = 0; r < nbar; r++)
    if (!ms_perm_conflict_free_tables(q + r * nbar, nbar, p->w, s + r * nbar, d + r * nbar, error)) return FALSE;
  if (h->strip) {
    /* kernels/permutation.cu hmm_row_wise since 2026-11-25: the packed table word with the
     * data, before the barrier; v = alpha[s], barrier, alpha[d] = v in place, barrier */
    guint64 ti = h->next_index;
    h->next_index += n;
    add_mem(p, MS_OP_READ, MS_SPACE_GLOBAL, IX_TID, in * ew, ew, NULL, TRUE);
    g_ptr_array_add(h->index_steps, GUINT_TO_POINTER(p->steps->len));
    add_mem(p, MS_OP_READ, MS_SPACE_GLOBAL, IX_TID, ti, 1, NULL, FALSE);
    add_mem(p, MS_OP_WRITE, MS_SPACE_SHARED, IX_LOCAL, 0, ew, NULL, TRUE);
    add_sync(p, MS_SCOPE_BLOCK);
    add_mem(p, MS_OP_READ, MS_SPACE_SHARED, IX_ROWTAB, 0, ew, s, TRUE);
    add_sync(p, MS_SCOPE_BLOCK);
    add_mem(p, MS_OP_WRITE, MS_SPACE_SHARED, IX_ROWTAB, 0, ew, d, TRUE);
    add_sync(p, MS_SCOPE_BLOCK);
    add_mem(p, MS_OP_READ, MS_SPACE_SHARED, IX_LOCAL, 0, ew, NULL, TRUE);
    add_mem(p, MS_OP_WRITE, MS_SPACE_GLOBAL, IX_TID, out * ew, ew, NULL, TRUE);
    return TRUE;
  }
  add_mem(p, MS_OP_READ, MS_SPACE_GLOBAL, IX_TID, in * ew, ew, NULL, TRUE);
  add_mem(p, MS_OP_WRITE, MS_SPACE_SHARED, IX_LOCAL, 0, ew, NULL, TRUE);
  if (h->packed) {
    guint64 ti = h->next_index;
    h->next_index += n;
    add_sync(p, MS_SCOPE_BLOCK);
    g_ptr_array_add(h->index_steps, GUINT_TO_POINTER(p->steps->len));
    add_mem(p, MS_OP_READ, MS_SPACE_GLOBAL, IX_TID, ti, 1, NULL, FALSE);
  } else {
    guint64 si = h->next_index, di = si + n;
    h->next_index += 2 * n;
    g_ptr_array_add(h->index_steps, GUINT_TO_POINTER(p->steps->len));
    add_mem(p, MS_OP_READ, MS_SPACE_GLOBAL, IX_TID, si, 1, NULL, FALSE);
    g_ptr_array_add(h->index_steps, GUINT_TO_POINTER(p->steps->len));
    add_mem(p, MS_OP_READ, MS_SPACE_GLOBAL, IX_TID, di, 1, NULL, FALSE);
    add_sync(p, MS_SCOPE_BLOCK);
  }
  add_mem(p, MS_OP_READ, MS_SPACE_SHARED, IX_ROWTAB, 0, ew, s, TRUE);
  add_mem(p, MS_OP_WRITE, MS_SPACE_SHARED, IX_ROWTAB, B * ew, ew, d, TRUE);
  add_sync(p, MS_SCOPE_BLOCK);
  add_mem(p, MS_OP_READ, MS_SPACE_SHARED, IX_LOCAL, B * ew, ew, NULL, TRUE);
  add_mem(p, MS_OP_WRITE, MS_SPACE_GLOBAL, IX_TID, out * ew, ew, NULL, TRUE);
  return TRUE;
}

/* The column round as one kernel (kernels/permutation.cu hmm_column_strip): block b permutes
 * the strip of C = h->strip columns b C .. b C + C - 1 through shared memory, each thread
 * E = C nbar / B of its elements (one register each). q[c nbar + r] = destination row of the
 * element at row r, column c; each column's conflict-free tables come from it as a row's do.
 * Order as the kernel's: the strip's rows loaded (all loads, then all shared stores), barrier;
 * the packed table words (kept in registers when the kernel's 1024 threads hold at most 16
 * entries each, else read again before the scatter), the gather v = s[S], barrier, the
 * scatter s[D] = v in place, barrier; the strip stored (all shared loads, then all stores). */
static gboolean k_column_strips(Hmm *h, guint64 in, guint64 out, const gint64 *q, GError **error) {
  Prog *p = h->p;
  guint64 n = h->n, nbar = h->nbar, ew = h->ew, B = p->block, C = h->strip;
  if (p->w % C || nbar % C || (C * nbar) % B) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "column strips of %" G_GUINT64_FORMAT ": need C to divide w = %u and nbar = %" G_GUINT64_FORMAT
                ", and a strip (C nbar = %" G_GUINT64_FORMAT " elements) to be whole blocks of %" G_GUINT64_FORMAT,
                C, p->w, nbar, C * nbar, B);
    return FALSE;
  }
  guint32 *s = prog_tab(p, n), *d = prog_tab(p, n);
  for (guint64 c = 0; c < nbar; c++)
    if (!ms_perm_conflict_free_tables(q + c * nbar, nbar, p->w, s + c * nbar, d + c * nbar, error)) return FALSE;
  const guint E = (guint)(C * nbar / B);
  const gboolean kept = C * nbar / 1024 <= 16; /* the kernel's entries per thread */
  guint64 ti = h->next_index;
  h->next_index += n;
  const MsSpace gl = MS_SPACE_GLOBAL, sh = MS_SPACE_SHARED;
  for (guint k = 0; k < E; k++) add_slot(p, MS_OP_READ, gl, IX_CS_GLOBAL, in * ew, ew, NULL, TRUE, k);
  for (guint k = 0; k < E; k++) add_slot(p, MS_OP_WRITE, sh, IX_CS_SHARED, 0, ew, NULL, TRUE, k);
  add_sync(p, MS_SCOPE_BLOCK);
  for (guint k = 0; k < E && kept; k++) {
    g_ptr_array_add(h->index_steps, GUINT_TO_POINTER(p->steps->len));
    add_slot(p, MS_OP_READ, gl, IX_CS_TAB, ti, 1, NULL, FALSE, k);
  }
  for (guint k = 0; k < E; k++) {
    if (!kept) {
      g_ptr_array_add(h->index_steps, GUINT_TO_POINTER(p->steps->len));
      add_slot(p, MS_OP_READ, gl, IX_CS_TAB, ti, 1, NULL, FALSE, k);
    }
    add_slot(p, MS_OP_READ, sh, IX_CS_ROWTAB, 0, ew, s, TRUE, k);
  }
  add_sync(p, MS_SCOPE_BLOCK);
  for (guint k = 0; k < E; k++) {
    if (!kept) {
      g_ptr_array_add(h->index_steps, GUINT_TO_POINTER(p->steps->len));
      add_slot(p, MS_OP_READ, gl, IX_CS_TAB, ti, 1, NULL, FALSE, k);
    }
    add_slot(p, MS_OP_WRITE, sh, IX_CS_ROWTAB, 0, ew, d, TRUE, k);
  }
  add_sync(p, MS_SCOPE_BLOCK);
  for (guint k = 0; k < E; k++) add_slot(p, MS_OP_READ, sh, IX_CS_SHARED, 0, ew, NULL, TRUE, k);
  for (guint k = 0; k < E; k++) add_slot(p, MS_OP_WRITE, gl, IX_CS_GLOBAL, out * ew, ew, NULL, TRUE, k);
  p->strip = C;
  p->shared_elems = MAX(p->shared_elems, C * nbar);
  return TRUE;
}

static guint64 h_alloc(Hmm *h) {
  guint64 x = h->next_data;
  h->next_data += h->n;
  return x;
}

static Prog *build_hmm(const char *alg, const char *pname, const gint64 *P, guint64 n,
                       guint32 w, guint64 ew, gboolean packed, guint64 strip, GError **error) {
  guint64 nbar = isqrt_exact(n);
  if (!nbar || nbar % w) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "%s: n = %" G_GUINT64_FORMAT " must be nbar x nbar with nbar a multiple of w = %u", alg, n, w);
    return NULL;
  }
  guint64 ww = (guint64)w * w;
  guint64 B = nbar / gcd64(nbar, ww) * ww; /* lcm(nbar, w^2): whole rows and whole tiles */
  Hmm h = {prog_new(n, B, w, nbar), n, nbar, ew, 0, 0, g_ptr_array_new(), packed, strip};
  Prog *p = h.p;
  p->ew = ew;
  p->packed = packed;
  p->data_space = MS_SPACE_GLOBAL;
  guint64 a = h_alloc(&h), b = h_alloc(&h);
  p->a_base = a * ew;
  p->b_base = b * ew;
  p->shared_elems = 2 * B;
  gboolean ok = TRUE;
  const MsSpace gl = MS_SPACE_GLOBAL;
  if (strcmp(alg, "hmm-d-designated") == 0 || strcmp(alg, "hmm-s-designated") == 0) {
    guint32 *t = prog_tab(p, n);
    guint64 pi = h.next_index;
    h.next_index += n;
    if (alg[4] == 'd') {
      for (guint64 i = 0; i < n; i++) t[i] = (guint32)P[i];
      add_mem(p, MS_OP_READ, gl, IX_TID, a * ew, ew, NULL, TRUE);
      g_ptr_array_add(h.index_steps, GUINT_TO_POINTER(p->steps->len));
      add_mem(p, MS_OP_READ, gl, IX_TID, pi, 1, NULL, FALSE);
      add_mem(p, MS_OP_WRITE, gl, IX_TAB, b * ew, ew, t, TRUE);
    } else {
      for (guint64 i = 0; i < n; i++) t[P[i]] = (guint32)i;
      g_ptr_array_add(h.index_steps, GUINT_TO_POINTER(p->steps->len));
      add_mem(p, MS_OP_READ, gl, IX_TID, pi, 1, NULL, FALSE);
      add_mem(p, MS_OP_READ, gl, IX_TAB, a * ew, ew, t, TRUE);
      add_mem(p, MS_OP_WRITE, gl, IX_TID, b * ew, ew, NULL, TRUE);
    }
  } else if (strcmp(alg, "hmm-transpose") == 0) {
    for (guint64 i = 0; i < n && ok; i++)
      if ((guint64)P[i] != (i % nbar) * nbar + i / nbar) ok = FALSE;
    if (!ok)
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "hmm-transpose: performs the transpose permutation only (got %s)", pname);
    else
      k_transpose(&h, a, b);
  } else if (strcmp(alg, "hmm-row-wise") == 0) {
    gint64 *q = g_new(gint64, n);
    for (guint64 i = 0; i < n && ok; i++) {
      if ((guint64)P[i] / nbar != i / nbar) ok = FALSE;
      q[i] = (gint64)((guint64)P[i] % nbar);
    }
    if (!ok)
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                  "hmm-row-wise: the %s permutation moves elements between rows (use hmm-scheduled, or a row-wise permutation: docs/workloads/permutation.md)", pname);
    else
      ok = k_row_wise(&h, a, b, q, error);
    g_free(q);
  } else if (strcmp(alg, "hmm-column-wise") == 0) {
    /* transpose, row-wise permutation of the transposed rows, transpose */
    gint64 *q = g_new(gint64, n);
    for (guint64 i = 0; i < n && ok; i++) {
      guint64 r = i / nbar, c = i % nbar;
      if ((guint64)P[i] % nbar != c) ok = FALSE;
      q[c * nbar + r] = (gint64)((guint64)P[i] / nbar);
    }
    if (!ok)
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                  "hmm-column-wise: the %s permutation moves elements between columns (use hmm-scheduled, or a column-wise permutation: docs/workloads/permutation.md)", pname);
    else {
      if (strip) {
        /* q as the strips want it: column c, row r -> destination row */
        gint64 *qc = g_new(gint64, n);
        for (guint64 i = 0; i < n; i++) qc[(i % nbar) * nbar + i / nbar] = (gint64)((guint64)P[i] / nbar);
        ok = k_column_strips(&h, a, b, qc, error);
        g_free(qc);
      } else {
        guint64 t1 = h_alloc(&h), t2 = h_alloc(&h);
        k_transpose(&h, a, t1);
        add_sync(p, MS_SCOPE_GRID);
        ok = k_row_wise(&h, t1, t2, q, error);
        add_sync(p, MS_SCOPE_GRID);
        k_transpose(&h, t2, b);
      }
    }
    g_free(q);
  } else if (strcmp(alg, "hmm-scheduled") == 0) {
    /* Section 5.5: colour the row graph (row of a -> row of b) with nbar colours; the element
     * of colour c goes to column c (row-wise), then to its destination row (column-wise),
     * then to its destination column (row-wise). */
    guint32 *l = g_new(guint32, n), *r = g_new(guint32, n), *col = g_new(guint32, n);
    for (guint64 i = 0; i < n; i++) {
      l[i] = (guint32)(i / nbar);
      r[i] = (guint32)((guint64)P[i] / nbar);
    }
    ok = ms_bipartite_colour((guint32)nbar, n, l, r, col, error);
    g_free(l);
    g_free(r);
    if (ok) {
      gint64 *q = g_new(gint64, n);
      guint64 t[4];
      /* packed: two scratch arrays in turn, as the kernel allocates them */
      for (int k = 0; k < 4; k++) t[k] = packed && k >= 2 ? t[k - 2] : h_alloc(&h);
      for (guint64 i = 0; i < n; i++) q[i] = col[i];
      ok = k_row_wise(&h, a, t[0], q, error);
      add_sync(p, MS_SCOPE_GRID);
      /* element i sits at row i / nbar, column col[i]; goes to row P(i)/nbar (down its
       * column). The transposed matrix's row col[i] holds it at column i / nbar. */
      for (guint64 i = 0; i < n && ok; i++) q[(guint64)col[i] * nbar + i / nbar] = (gint64)((guint64)P[i] / nbar);
      if (ok && strip) {
        /* one kernel for the column round: t[0] -> t[1] (q is already column-major) */
        ok = k_column_strips(&h, t[0], t[1], q, error);
        t[3] = t[1];
      } else if (ok) {
        k_transpose(&h, t[0], t[1]);
        add_sync(p, MS_SCOPE_GRID);
        ok = k_row_wise(&h, t[1], t[2], q, error);
        add_sync(p, MS_SCOPE_GRID);
        k_transpose(&h, t[2], t[3]);
      }
      add_sync(p, MS_SCOPE_GRID);
      /* element i sits at row P(i)/nbar, column col[i]; goes to column P(i) mod nbar */
      for (guint64 i = 0; i < n && ok; i++) q[((guint64)P[i] / nbar) * nbar + col[i]] = (gint64)((guint64)P[i] % nbar);
      if (ok) ok = k_row_wise(&h, t[3], b, q, error);
      g_free(q);
    }
    g_free(col);
  } else {
    g_assert_not_reached();
  }
  /* Index arrays live after the data arrays. */
  for (guint k = 0; k < h.index_steps->len; k++)
    g_array_index(p->steps, PStep, GPOINTER_TO_UINT(h.index_steps->pdata[k])).base += h.next_data * ew;
  g_ptr_array_free(h.index_steps, TRUE);
  p->global_elems = h.next_data;
  p->global_words = h.next_data * ew + h.next_index;
  if (!ok) {
    prog_free(p);
    return NULL;
  }
  return p;
}

/* ---- the family entry point -------------------------------------------------------- */

/* Build and verify the program of `algorithm`; *name gets the trace name. */
static Prog *perm_build(const char *algorithm, GHashTable *params, gchar **name, GError **error) {
  static const char *const known[] = {"n", "permutation", "seed", "width", "elem-words", "elem_words", "blocks", "table", "column", "strip", NULL};
  if (!ms_param_check(params, known, "permutation", error)) return NULL;
  if (!algorithm || !g_strv_contains(ms_permutation_algorithms, algorithm)) {
    gchar *list = g_strjoinv(", ", (gchar **)ms_permutation_algorithms);
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "permutation: unknown algorithm \"%s\" (%s)", algorithm ? algorithm : "", list);
    g_free(list);
    return NULL;
  }
  guint64 n, seed, w, ew, blocks;
  const char *ewkey = params && g_hash_table_contains(params, "elem_words") ? "elem_words" : "elem-words";
  if (!ms_param_uint(params, "n", 0, 0, MAX_N, &n, error) ||
      !ms_param_uint(params, "seed", 1, 0, G_MAXUINT64, &seed, error) ||
      !ms_param_uint(params, "width", 32, 1, MS_MAX_WIDTH, &w, error) ||
      !ms_param_uint(params, ewkey, 1, 1, 2, &ew, error) ||
      !ms_param_uint(params, "blocks", 1, 1, G_MAXUINT64, &blocks, error))
    return NULL;
  const char *tabs = ms_param_str(params, "table", "shared");
  const gboolean hmm = g_str_has_prefix(algorithm, "hmm-");
  if (strcmp(tabs, "shared") != 0 && strcmp(tabs, "register") != 0 && strcmp(tabs, "packed") != 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "permutation: --table: \"%s\" is not shared, register or packed", tabs);
    return NULL;
  }
  const gboolean reg = strcmp(tabs, "register") == 0, packed = strcmp(tabs, "packed") == 0;
  if (reg && hmm) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "%s: --table register is for the DMM algorithms (the HMM algorithms read their tables from global memory)", algorithm);
    return NULL;
  }
  if (packed && strcmp(algorithm, "hmm-scheduled") != 0 && strcmp(algorithm, "hmm-row-wise") != 0 &&
      strcmp(algorithm, "hmm-column-wise") != 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "%s: --table packed is for the HMM algorithms with row-wise kernels (hmm-row-wise, hmm-column-wise, hmm-scheduled)", algorithm);
    return NULL;
  }
  /* column: how the column round runs: "transpose" (section 5.5: transpose, row-wise,
   * transpose) or "strips" (kernels/permutation.cu since 2026-11-25: one kernel over strips
   * of `strip` columns, the row-wise kernels in place) */
  const char *column = ms_param_str(params, "column", "transpose");
  guint64 strip = 0;
  if (strcmp(column, "transpose") != 0 && strcmp(column, "strips") != 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "permutation: --column: \"%s\" is not transpose or strips", column);
    return NULL;
  }
  if (strcmp(column, "strips") == 0) {
    if (strcmp(algorithm, "hmm-scheduled") != 0 && strcmp(algorithm, "hmm-column-wise") != 0) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: --column strips is for the algorithms with a column round (hmm-column-wise, hmm-scheduled)", algorithm);
      return NULL;
    }
    if (!packed) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: --column strips goes with --table packed (the kernels' tables)", algorithm);
      return NULL;
    }
    if (!ms_param_uint(params, "strip", 8, 1, MS_MAX_WIDTH, &strip, error)) return NULL;
  } else if (params && g_hash_table_contains(params, "strip")) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: --strip goes with --column strips", algorithm);
    return NULL;
  }
  const char *pname = ms_param_str(params, "permutation", "identical");
  gint64 *P = ms_perm_load(pname, &n, seed, error);
  if (!P) return NULL;
  Prog *p = hmm ? build_hmm(algorithm, pname, P, n, (guint32)w, ew, packed, strip, error)
                : build_dmm(algorithm, pname, P, n, (guint32)w, ew, reg, error);
  if (p && !prog_verify(p, P, n, error)) {
    prog_free(p);
    p = NULL;
  }
  g_free(P);
  if (!p) return NULL;
  p->n = n;
  gchar *seedstr = strcmp(pname, "random") == 0 ? g_strdup_printf(", seed = %" G_GUINT64_FORMAT, seed) : g_strdup("");
  *name = g_strdup_printf("permutation %s, P = %s, n = %" G_GUINT64_FORMAT ", w = %" G_GUINT64_FORMAT
                          ", elem-words = %" G_GUINT64_FORMAT "%s%s",
                          algorithm, pname, n, w, ew, seedstr, reg ? ", table = register" : packed ? ", table = packed" : "");
  if (strip) {
    gchar *full = g_strdup_printf("%s, column strips of %" G_GUINT64_FORMAT, *name, strip);
    g_free(*name);
    *name = full;
  }
  g_free(seedstr);
  return p;
}

/* The shared words one block holds: the end of the furthest shared array a step uses (each
 * indexes at most the block's elements).  kernels/permutation.cu allocates the same: T a[n],
 * b[n] per DMM block, u32 t[w * w] per transpose tile, 2 * nbar words per row-wise row. */
static guint64 prog_shared_words(const Prog *p) {
  guint64 words = 0;
  for (guint k = 0; k < p->steps->len; k++) {
    const PStep *s = &g_array_index(p->steps, PStep, k);
    if (s->step.op == MS_OP_SYNC || s->step.space != MS_SPACE_SHARED) continue;
    const gboolean cs = s->ix == IX_CS_SHARED || s->ix == IX_CS_ROWTAB; /* a strip of C columns */
    words = MAX(words, s->base + (cs ? p->strip * p->nbar : p->block) * s->ew);
  }
  return words;
}

MsSource *ms_permutation_source(const char *algorithm, GHashTable *params, GError **error) {
  gchar *name = NULL;
  Prog *p = perm_build(algorithm, params, &name, error);
  if (!p) return NULL;
  const guint64 shared_words = prog_shared_words(p);
  MsSource *src = ms_source_new(name, p->threads, p->block, &prog_funcs, p);
  ms_source_set_shared_words(src, shared_words);
  ms_source_set_global_words(src, p->global_words);
  g_free(name);
  return src;
}

/* ---- the compact trace form ---------------------------------------------------------------- */

/* Names of the program's tables, in the order prog_tab made them: P (D-designated), Q = P^-1
 * (S-designated), S and D (conflict-free; S<k>, D<k> for the k-th row-wise kernel). */
static gchar *tab_name(const char *alg, guint ntabs, guint k) {
  if (ntabs == 1) return g_strdup(strstr(alg, "s-designated") ? "Q" : "P");
  if (ntabs == 2) return g_strdup(k == 0 ? "S" : "D");
  return g_strdup_printf("%c%u", k % 2 ? 'D' : 'S', k / 2 + 1);
}

/* The element index a step addresses, as an expression of tid. */
static gchar *ix_expr(const Prog *p, const PStep *s, GPtrArray *names) {
  const char *tn = NULL;
  if (s->tab)
    for (guint k = 0; k < p->tabs->len; k++)
      if (p->tabs->pdata[k] == s->tab) tn = names->pdata[k];
  switch (s->ix) {
  case IX_TID: return g_strdup("tid");
  case IX_TAB: return g_strdup_printf("%s[tid]", tn);
  case IX_LOCAL: return g_strdup("ltid");
  case IX_ROWTAB: return g_strdup_printf("ltid - tid %% nbar + %s[tid]", tn);
  case IX_TG_IN: return g_strdup("(tid / ww / nt * w + tid % ww / w) * nbar + tid / ww % nt * w + tid % w");
  case IX_TG_OUT: return g_strdup("(tid / ww % nt * w + tid % ww / w) * nbar + tid / ww / nt * w + tid % w");
  case IX_TS_IN: return g_strdup("ltid - tid % ww + tid % ww / w * w + (tid % ww / w + tid % w) % w");
  case IX_TS_OUT: return g_strdup("ltid - tid % ww + tid % w * w + (tid % w + tid % ww / w) % w");
  case IX_CS_GLOBAL: /* column strips have no compact form (ms_permutation_compact refuses them) */
  case IX_CS_SHARED:
  case IX_CS_TAB:
  case IX_CS_ROWTAB: break;
  }
  return g_strdup("tid");
}

static gboolean write_u32_file(const char *path, const guint32 *v, guint64 n, GError **error) {
  guint8 *b = g_new(guint8, 4 * MAX(n, 1));
  for (guint64 i = 0; i < n; i++)
    for (int k = 0; k < 4; k++) b[4 * i + (guint64)k] = (guint8)(v[i] >> (8 * k));
  GError *e = NULL;
  gboolean ok = g_file_set_contents(path, (const gchar *)b, (gssize)(4 * n), &e);
  g_free(b);
  if (!ok) {
    g_set_error(error, MS_ERROR, MS_ERROR_IO, "permutation: cannot write %s: %s", path, e->message);
    g_error_free(e);
  }
  return ok;
}

#define INLINE_MAX 4096 /* tables up to this length inline, larger ones in side files */

gchar *ms_permutation_compact(const char *algorithm, GHashTable *params, const char *path, GError **error) {
  gchar *name = NULL;
  Prog *p = perm_build(algorithm, params, &name, error);
  if (!p) return NULL;
  if (p->strip) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "%s: --column strips has no compact form (its steps hold several elements per thread); "
                "run it with --run or write the binary form", algorithm);
    g_free(name);
    prog_free(p);
    return NULL;
  }
  const gboolean hmm = g_str_has_prefix(algorithm, "hmm-");
  GString *j = g_string_new("{\"memsim_trace\": 1, \"form\": \"compact\",\n \"name\": \"");
  g_string_append_printf(j, "%s\",\n \"threads\": %" G_GUINT64_FORMAT ", \"block_threads\": %" G_GUINT64_FORMAT ",\n",
                         name, p->threads, p->block);
  if (prog_shared_words(p)) g_string_append_printf(j, " \"shared_words\": %" G_GUINT64_FORMAT ",\n", prog_shared_words(p));
  if (p->global_words) g_string_append_printf(j, " \"global_words\": %" G_GUINT64_FORMAT ",\n", p->global_words);
  if (hmm)
    g_string_append_printf(j, " \"constants\": {\"w\": %u, \"ww\": %" G_GUINT64_FORMAT ", \"nbar\": %" G_GUINT64_FORMAT
                              ", \"nt\": %" G_GUINT64_FORMAT "},\n",
                           p->w, (guint64)p->w * p->w, p->nbar, p->nbar / p->w);
  g_string_append(j, " \"arrays\": {");
  /* address arrays: one per (space, base) a step uses */
  GPtrArray *tnames = g_ptr_array_new_with_free_func(g_free);
  for (guint k = 0; k < p->tabs->len; k++) g_ptr_array_add(tnames, tab_name(algorithm, p->tabs->len, k));
  GPtrArray *anames = g_ptr_array_new_with_free_func(g_free); /* per step */
  GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free); /* "space:base" -> name */
  guint nidx = 0, ntmp = 0;
  gboolean first = TRUE, ok = TRUE;
  for (guint k = 0; k < p->steps->len; k++) {
    const PStep *s = &g_array_index(p->steps, PStep, k);
    if (s->step.op == MS_OP_SYNC) {
      g_ptr_array_add(anames, NULL);
      continue;
    }
    gchar *key = g_strdup_printf("%d:%" G_GUINT64_FORMAT, (int)s->step.space, s->base);
    const char *nm = g_hash_table_lookup(seen, key);
    if (nm) {
      g_ptr_array_add(anames, g_strdup(nm));
      g_free(key);
      continue;
    }
    gchar *an;
    guint64 len;
    if (!s->data) { /* an index array: holds the table the algorithm reads next */
      an = p->packed ? g_strdup_printf("sd%u", nidx + 1)
           : nidx < tnames->len ? g_ascii_strdown(tnames->pdata[nidx], -1) : g_strdup_printf("idx%u", nidx);
      nidx++;
      len = p->n;
    } else if (s->step.space == p->data_space && s->base == p->a_base) {
      an = g_strdup("a"), len = p->n * p->ew;
    } else if (s->step.space == p->data_space && s->base == p->b_base) {
      an = g_strdup("b"), len = p->n * p->ew;
    } else if (s->step.space == MS_SPACE_SHARED) {
      an = g_strdup(s->base == 0 ? "sa" : "sb"), len = p->block * p->ew;
    } else {
      an = g_strdup_printf("t%u", ++ntmp), len = p->n * p->ew;
    }
    g_string_append_printf(j, "%s\n   \"%s\": {\"base\": %" G_GUINT64_FORMAT ", \"length\": %" G_GUINT64_FORMAT "}",
                           first ? "" : ",", an, s->base, len);
    first = FALSE;
    g_hash_table_insert(seen, key, g_strdup(an));
    g_ptr_array_add(anames, an);
  }
  /* data arrays: the tables */
  gchar *dir = path ? g_path_get_dirname(path) : NULL, *stem = path ? g_path_get_basename(path) : NULL;
  if (stem && g_str_has_suffix(stem, ".json")) stem[strlen(stem) - 5] = '\0';
  for (guint k = 0; k < p->tabs->len && ok; k++) {
    const guint32 *t = p->tabs->pdata[k];
    const char *tn = tnames->pdata[k];
    g_string_append_printf(j, "%s\n   \"%s\": {\"data\": ", first ? "" : ",", tn);
    first = FALSE;
    if (!path || p->n <= INLINE_MAX) {
      g_string_append_c(j, '[');
      for (guint64 i = 0; i < p->n; i++) g_string_append_printf(j, "%s%u", i ? (i % 32 ? ", " : ",\n     ") : "", t[i]);
      g_string_append(j, "]}");
    } else {
      gchar *fname = g_strdup_printf("%s.%s.u32", stem, tn);
      gchar *full = g_build_filename(dir, fname, NULL);
      ok = write_u32_file(full, t, p->n, error);
      g_string_append_printf(j, "{\"file\": \"%s\", \"type\": \"u32\"}}", fname);
      g_free(fname);
      g_free(full);
    }
  }
  g_free(dir);
  g_free(stem);
  g_string_append(j, "},\n \"steps\": [");
  for (guint k = 0; k < p->steps->len; k++) {
    const PStep *s = &g_array_index(p->steps, PStep, k);
    g_string_append(j, k ? ",\n   " : "\n   ");
    if (s->step.op == MS_OP_SYNC) {
      g_string_append_printf(j, "{\"op\": \"sync\", \"scope\": \"%s\"}", s->step.scope == MS_SCOPE_GRID ? "grid" : "block");
      continue;
    }
    gchar *x = ix_expr(p, s, tnames);
    gchar *addr = s->ew == 1 ? g_strdup_printf("%s[%s]", (char *)anames->pdata[k], x)
                             : g_strdup_printf("%s[%" G_GUINT64_FORMAT " * (%s)]", (char *)anames->pdata[k], s->ew, x);
    g_string_append_printf(j, "{\"op\": \"%s\", \"space\": \"%s\", \"addr\": \"%s\"}",
                           s->step.op == MS_OP_READ ? "read" : "write",
                           s->step.space == MS_SPACE_SHARED ? "shared" : "global", addr);
    g_free(x);
    g_free(addr);
  }
  g_string_append(j, "\n ]}\n");
  g_ptr_array_free(tnames, TRUE);
  g_ptr_array_free(anames, TRUE);
  g_hash_table_destroy(seen);
  g_free(name);
  prog_free(p);
  if (!ok) {
    g_string_free(j, TRUE);
    return NULL;
  }
  return g_string_free(j, FALSE);
}
