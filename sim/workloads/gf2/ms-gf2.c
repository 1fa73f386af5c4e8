/* ms-gf2.c: GF(2) Gaussian elimination (seed 004), the trace of kernels/gf2.cu. */
#include "ms-gf2.h"
#include <string.h>

const char *const ms_gf2_algorithms[] = {"eliminate", NULL};

#define MAX_SYMBOLS 65536u
#define MAX_LENGTH (1u << 20)

/* kernels/measure.h's MsRng: the kernel builds the same matrix from the same seed. */
typedef struct {
  guint64 s;
} Rng;
static void rng_init(Rng *r, guint64 seed) { r->s = seed * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15) + 1; }
static guint32 rng_u32(Rng *r) {
  guint64 z = (r->s += G_GUINT64_CONSTANT(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT(0x94D049BB133111EB);
  return (guint32)((z ^ (z >> 31)) >> 32);
}

/* Step kinds of one pivot, in the kernels' order. */
typedef enum {
  S_SEARCH,  /* pivot: read A(i + c*T + t, i/32)                      (loop c) */
  S_BSYNC,   /* pivot: __syncthreads_or; after the search: the minimum's barrier */
  S_SW_RP,   /* pivot: read A(p, k)            k = q*T + t            (loop q) */
  S_SW_WPR,  /*        write pivrow[k] */
  S_SW_RI,   /*        read A(i, k)              p != i */
  S_SW_WP,   /*        write A(p, k)             p != i */
  S_GSYNC,   /* kernel boundary */
  S_TEST,    /* eliminate: read A(t, i/32)     t < R, t != i */
  S_X_RA,    /* eliminate: read A(t, k)        bit i of row t set      (loop k) */
  S_X_RP,    /*            read pivrow[k] */
  S_X_WA,    /*            write A(t, k) */
  S_R_RP,    /* replace: read pivrow[k]        k = q*T + t            (loop q) */
  S_R_WA,    /*          write A(i, k) */
} Kind;

typedef struct {
  guint8 kind;
  guint32 var; /* c, q or k */
} PStep;

typedef struct {
  guint64 n, L, R, Wg, Wx, W, T, TH, seed, QW;
  gboolean column;
  char *name;
  guint32 *P;      /* pivot row of each i */
  guint32 *NC;     /* search blocks read at each i */
  guint32 *mask;   /* bit i * R + r: row r XORs pivrow at pivot i */
  guint32 *msg;    /* the message, n rows of Wx words (verification) */
  guint32 *a0;     /* the received rows [G | X], row layout */
  guint32 C;       /* most search blocks of any pivot */
  /* iteration */
  GArray *steps;   /* of PStep: one pivot's steps */
  guint64 i;       /* current pivot */
  guint cur;       /* next step of it */
  PStep now;       /* the step filled */
} Gf2;

static void gf2_free(gpointer self) {
  Gf2 *g = self;
  if (!g) return;
  g_free(g->name);
  g_free(g->P);
  g_free(g->NC);
  g_free(g->mask);
  g_free(g->msg);
  g_free(g->a0);
  if (g->steps) g_array_free(g->steps, TRUE);
  g_free(g);
}

static inline guint64 A(const Gf2 *g, guint64 r, guint64 k) { return g->column ? k * g->R + r : r * g->W + k; }
static inline gboolean mask_bit(const Gf2 *g, guint64 i, guint64 r) {
  guint64 b = i * g->R + r;
  return (g->mask[b >> 5] >> (b & 31)) & 1;
}

/* The received rows: G random (R x n), the message random (n x L), X = G * message. */
static void make_instance(Gf2 *g) {
  Rng rng;
  rng_init(&rng, g->seed);
  const guint32 gl = g->n % 32 ? (1u << (g->n % 32)) - 1 : 0xffffffffu;
  const guint32 xl = g->L % 32 ? (1u << (g->L % 32)) - 1 : 0xffffffffu;
  g->a0 = g_new0(guint32, g->R * g->W);
  g->msg = g_new0(guint32, g->n * g->Wx);
  for (guint64 r = 0; r < g->R; r++)
    for (guint64 k = 0; k < g->Wg; k++) g->a0[r * g->W + k] = rng_u32(&rng) & (k + 1 == g->Wg ? gl : 0xffffffffu);
  for (guint64 j = 0; j < g->n; j++)
    for (guint64 k = 0; k < g->Wx; k++) g->msg[j * g->Wx + k] = rng_u32(&rng) & (k + 1 == g->Wx ? xl : 0xffffffffu);
  for (guint64 r = 0; r < g->R; r++) {
    guint32 *x = g->a0 + r * g->W + g->Wg;
    for (guint64 j = 0; j < g->n; j++)
      if ((g->a0[r * g->W + j / 32] >> (j % 32)) & 1)
        for (guint64 k = 0; k < g->Wx; k++) x[k] ^= g->msg[j * g->Wx + k];
  }
}

/* Gauss-Jordan on the host, as the kernels do it: records the pivots, the search blocks and
 * the XOR rows.  FALSE if G is singular. */
static gboolean host_eliminate(Gf2 *g, GError **error) {
  const guint64 R = g->R, W = g->W, T = g->T;
  guint32 *a = g_memdup2(g->a0, sizeof(guint32) * R * W), *pr = g_new(guint32, W);
  g->P = g_new(guint32, g->n);
  g->NC = g_new(guint32, g->n);
  g->mask = g_new0(guint32, (g->n * R + 31) / 32);
  g->C = 1;
  gboolean ok = TRUE;
  for (guint64 i = 0; i < g->n && ok; i++) {
    const guint64 wi = i / 32, bi = i % 32;
    guint64 p = R, c = 0;
    for (;; c++) { /* a block of T rows at a time, as __syncthreads_or sees them */
      for (guint64 r = i + c * T; r < MIN(R, i + (c + 1) * T) && p == R; r++)
        if ((a[r * W + wi] >> bi) & 1) p = r;
      if (p < R || i + (c + 1) * T >= R) break;
    }
    if (p == R) {
      g_set_error(error, MS_ERROR, MS_ERROR_VERIFY,
                  "gf2: seed %" G_GUINT64_FORMAT " gives a singular generator matrix (no pivot in column %" G_GUINT64_FORMAT
                  " of %" G_GUINT64_FORMAT " rows); choose another seed",
                  g->seed, i, R);
      ok = FALSE;
      break;
    }
    g->P[i] = (guint32)p;
    g->NC[i] = (guint32)(c + 1);
    g->C = MAX(g->C, (guint32)(c + 1));
    memcpy(pr, a + p * W, sizeof(guint32) * W);
    if (p != i) memcpy(a + p * W, a + i * W, sizeof(guint32) * W);
    for (guint64 r = 0; r < R; r++) {
      if (r == i || !((a[r * W + wi] >> bi) & 1)) continue;
      guint64 b = i * R + r;
      g->mask[b >> 5] |= 1u << (b & 31);
      guint32 *row = a + r * W;
      for (guint64 k = 0; k < W; k++) row[k] ^= pr[k];
    }
    memcpy(a + i * W, pr, sizeof(guint32) * W);
  }
  /* the host's own result: identity beside the message */
  for (guint64 j = 0; j < g->n && ok; j++)
    for (guint64 k = 0; k < W && ok; k++) {
      guint32 want = k < g->Wg ? (k == j / 32 ? 1u << (j % 32) : 0) : g->msg[j * g->Wx + k - g->Wg];
      if (a[j * W + k] != want) {
        g_set_error(error, MS_ERROR, MS_ERROR_VERIFY, "gf2: the host elimination did not decode row %" G_GUINT64_FORMAT, j);
        ok = FALSE;
      }
    }
  g_free(a);
  g_free(pr);
  return ok;
}

/* One pivot's steps (the search loop has C blocks; blocks past NC[i] are inactive). */
static void build_steps(Gf2 *g) {
  GArray *s = g_array_new(FALSE, FALSE, sizeof(PStep));
#define ADD(k, v) do { PStep x_ = {(guint8)(k), (guint32)(v)}; g_array_append_val(s, x_); } while (0)
  for (guint32 c = 0; c < g->C; c++) {
    ADD(S_SEARCH, c);
    ADD(S_BSYNC, 0);
  }
  ADD(S_BSYNC, 0);
  for (guint64 q = 0; q < g->QW; q++) {
    ADD(S_SW_RP, q);
    ADD(S_SW_WPR, q);
    ADD(S_SW_RI, q);
    ADD(S_SW_WP, q);
  }
  ADD(S_GSYNC, 0);
  ADD(S_TEST, 0);
  for (guint64 k = 0; k < g->W; k++) {
    ADD(S_X_RA, k);
    ADD(S_X_RP, k);
    ADD(S_X_WA, k);
  }
  ADD(S_GSYNC, 0);
  for (guint64 q = 0; q < g->QW; q++) {
    ADD(S_R_RP, q);
    ADD(S_R_WA, q);
  }
  ADD(S_GSYNC, 0); /* dropped after the last pivot */
#undef ADD
  g->steps = s;
}

static MsNext gf2_next(gpointer self, MsStep *step, GError **error) {
  (void)error;
  Gf2 *g = self;
  if (g->cur >= g->steps->len) {
    g->cur = 0;
    g->i++;
  }
  if (g->i >= g->n || (g->i + 1 == g->n && g->cur + 1 == g->steps->len)) return MS_NEXT_END;
  g->now = g_array_index(g->steps, PStep, g->cur++);
  switch (g->now.kind) {
  case S_BSYNC: *step = (MsStep){MS_OP_SYNC, MS_SPACE_GLOBAL, MS_SCOPE_BLOCK}; break;
  case S_GSYNC: *step = (MsStep){MS_OP_SYNC, MS_SPACE_GLOBAL, MS_SCOPE_GRID}; break;
  case S_SW_WPR: case S_SW_WP: case S_X_WA: case S_R_WA:
    *step = (MsStep){MS_OP_WRITE, MS_SPACE_GLOBAL, MS_SCOPE_GRID};
    break;
  default: *step = (MsStep){MS_OP_READ, MS_SPACE_GLOBAL, MS_SCOPE_GRID};
  }
  return MS_NEXT_STEP;
}

/* Address of thread t in the current step, or MS_ADDR_NONE. */
static inline gint64 addr_of(const Gf2 *g, guint64 t) {
  const guint64 i = g->i, v = g->now.var, PR = g->R * g->W;
  switch ((Kind)g->now.kind) {
  case S_SEARCH: {
    guint64 r = i + v * g->T + t;
    return t < g->T && v < g->NC[i] && r < g->R ? (gint64)A(g, r, i / 32) : MS_ADDR_NONE;
  }
  case S_SW_RP: case S_SW_WPR: case S_SW_RI: case S_SW_WP: case S_R_RP: case S_R_WA: {
    guint64 k = v * g->T + t;
    if (t >= g->T || k >= g->W) return MS_ADDR_NONE;
    switch ((Kind)g->now.kind) {
    case S_SW_RP: return (gint64)A(g, g->P[i], k);
    case S_SW_WPR: case S_R_RP: return (gint64)(PR + k);
    case S_SW_RI: return g->P[i] != i ? (gint64)A(g, i, k) : MS_ADDR_NONE;
    case S_SW_WP: return g->P[i] != i ? (gint64)A(g, g->P[i], k) : MS_ADDR_NONE;
    default: return (gint64)A(g, i, k); /* S_R_WA */
    }
  }
  case S_TEST: return t < g->R && t != i ? (gint64)A(g, t, i / 32) : MS_ADDR_NONE;
  case S_X_RA: case S_X_RP: case S_X_WA:
    if (t >= g->R || t == i || !mask_bit(g, i, t)) return MS_ADDR_NONE;
    return g->now.kind == S_X_RP ? (gint64)(PR + v) : (gint64)A(g, t, v);
  default: return MS_ADDR_NONE;
  }
}

/* addr_of over a range of threads.  The eliminate steps (3 W of every pivot's steps, most of
 * the trace) take the switch out of the lane loop and read the mask a word at a time: the
 * same addresses as addr_of, which the other kinds still use lane by lane. */
static gboolean gf2_fill(gpointer self, guint64 first, guint64 count, gint64 *addr, GError **error) {
  (void)error;
  const Gf2 *g = self;
  const Kind kind = (Kind)g->now.kind;
  if (kind != S_X_RA && kind != S_X_RP && kind != S_X_WA) {
    for (guint64 x = 0; x < count; x++) addr[x] = addr_of(g, first + x);
    return TRUE;
  }
  const guint64 i = g->i, v = g->now.var, R = g->R, end = MIN(first + count, R);
  const gint64 pr = (gint64)(R * g->W + v);
  /* A(t, v) = a0 + t * da */
  const gint64 a0 = g->column ? (gint64)(v * R) : (gint64)v, da = g->column ? 1 : (gint64)g->W;
  guint64 t = first;
  for (; t < end; t++) {
    const guint64 b = i * R + t;
    const gboolean on = t != i && ((g->mask[b >> 5] >> (b & 31)) & 1);
    addr[t - first] = !on ? MS_ADDR_NONE : kind == S_X_RP ? pr : a0 + (gint64)t * da;
  }
  for (; t < first + count; t++) addr[t - first] = MS_ADDR_NONE;
  return TRUE;
}

static gboolean gf2_fill_worker(gpointer self, guint worker, guint64 first, guint64 count, gint64 *addr, GError **error) {
  (void)worker;
  return gf2_fill(self, first, count, addr, error);
}

static void gf2_range(gpointer self, guint64 *first, guint64 *end) {
  const Gf2 *g = self;
  *first = 0;
  switch ((Kind)g->now.kind) {
  case S_TEST: case S_X_RA: case S_X_RP: case S_X_WA: *end = g->R; break;
  default: *end = g->T;
  }
}

static const MsSourceFuncs gf2_funcs = {gf2_next, gf2_fill, gf2_free, gf2_range, gf2_fill_worker, NULL, NULL};
/* The same over a borrowed instance (the verification pass): freeing it frees nothing. */
static void gf2_keep(gpointer self) { (void)self; }
static const MsSourceFuncs gf2_borrowed = {gf2_next, gf2_fill, gf2_keep, gf2_range, gf2_fill_worker, NULL, NULL};

/* ---- parameters --------------------------------------------------------------------- */

static gboolean gf2_params(const char *algorithm, GHashTable *params, Gf2 *g, GError **error) {
  static const char *const known[] = {"symbols", "length", "arrangement", "seed", "threads_per_block", "threads-per-block", NULL};
  if (!algorithm || !g_strv_contains(ms_gf2_algorithms, algorithm)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "gf2: unknown algorithm \"%s\" (eliminate)", algorithm ? algorithm : "");
    return FALSE;
  }
  if (!ms_param_check(params, known, "gf2", error)) return FALSE;
  const char *tk = params && g_hash_table_contains(params, "threads-per-block") ? "threads-per-block" : "threads_per_block";
  if (!ms_param_uint(params, "symbols", 256, 1, MAX_SYMBOLS, &g->n, error) ||
      !ms_param_uint(params, "length", 1024, 1, MAX_LENGTH, &g->L, error) ||
      !ms_param_uint(params, "seed", 1, 0, G_MAXUINT64, &g->seed, error) ||
      !ms_param_uint(params, tk, 256, 1, 1024, &g->T, error))
    return FALSE;
  const char *arr = ms_param_str(params, "arrangement", "row");
  if (strcmp(arr, "row") && strcmp(arr, "column")) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "gf2: --arrangement must be row or column, got \"%s\"", arr);
    return FALSE;
  }
  g->column = strcmp(arr, "column") == 0;
  g->R = g->n + 10;
  g->Wg = (g->n + 31) / 32;
  g->Wx = (g->L + 31) / 32;
  g->W = g->Wg + g->Wx;
  g->QW = (g->W + g->T - 1) / g->T;
  g->TH = (g->R + g->T - 1) / g->T * g->T;
  double bytes = 4.0 * (2.0 * g->R * g->W + g->n * g->Wx) + g->n * (double)g->R / 8.0;
  if (!ms_workload_memory_check("gf2: the matrix and its XOR rows", bytes, error)) return FALSE;
  g->name = g_strdup_printf("GF(2) Gauss-Jordan elimination of %" G_GUINT64_FORMAT " symbols of %" G_GUINT64_FORMAT
                            " bits (%" G_GUINT64_FORMAT " rows of %" G_GUINT64_FORMAT " words, %s arrangement)",
                            g->n, g->L, g->R, g->W, g->column ? "column" : "row");
  return TRUE;
}

/* ---- verification: execute the trace on the matrix ----------------------------------- */

#define EXEC_CHUNK 4096

/* Run every step of `src` (a trace of this instance: the in-process source or the compact
 * text) on the received rows through its addresses, and check that rows 0 .. n-1 end as the
 * identity beside the message, that the search finds the pivots and that the rows that XOR
 * are those with bit i.  `steps` are one pivot's step kinds, in order. */
static gboolean execute(const Gf2 *g, MsSource *src, GError **error) {
  const guint64 R = g->R, W = g->W, words = R * W + W;
  guint32 *mem = g_new0(guint32, words + 1), *r0 = g_new0(guint32, g->TH), *r1 = g_new0(guint32, g->TH);
  gint64 *ad = g_new(gint64, EXEC_CHUNK);
  for (guint64 r = 0; r < R; r++)
    for (guint64 k = 0; k < W; k++) mem[A(g, r, k)] = g->a0[r * W + k];
  for (guint64 k = 0; k < W; k++) mem[R * W + k] = 0xdeadbeefu;
  gboolean ok = TRUE;
  const char *why = NULL;
  guint64 bad_t = 0;
  for (guint64 i = 0; i < g->n && ok; i++) {
    guint64 found = R;
    for (guint s = 0; s < g->steps->len && ok; s++) {
      if (i + 1 == g->n && s + 1 == g->steps->len) break;
      const PStep *ps = &g_array_index(g->steps, PStep, s);
      MsStep st;
      MsNext nx = ms_source_next(src, &st, error);
      if (nx != MS_NEXT_STEP) {
        if (nx == MS_NEXT_END) why = "the trace ends early";
        ok = FALSE;
        break;
      }
      gboolean sync = ps->kind == S_BSYNC || ps->kind == S_GSYNC;
      if (sync != (st.op == MS_OP_SYNC) ||
          (sync && st.scope != (ps->kind == S_BSYNC ? MS_SCOPE_BLOCK : MS_SCOPE_GRID))) {
        why = "the trace's steps are not the kernels' (a barrier differs)";
        ok = FALSE;
        break;
      }
      if (sync) continue;
      for (guint64 f = 0; f < g->TH && ok; f += EXEC_CHUNK) {
        guint64 cnt = MIN((guint64)EXEC_CHUNK, g->TH - f);
        if (!ms_source_fill(src, f, cnt, ad, error)) {
          ok = FALSE;
          break;
        }
        /* The checks every lane needs, branch-free (the active lanes follow the random
         * mask), then one loop per kind: an inactive lane reads and writes the spare word
         * mem[words] and keeps its registers, so the loops have no branch either.  Same
         * effects as lane by lane in order; a failing step is done again lane by lane to
         * name its first failing lane. */
        gboolean bad = FALSE;
        const gboolean xra = ps->kind == S_X_RA;
        if (xra) {
          for (guint64 x = 0; x < cnt; x++) {
            const gint64 a = ad[x];
            const guint64 t = f + x, b = i * R + MIN(t, R - 1);
            const gboolean want = t < R && t != i && ((g->mask[b >> 5] >> (b & 31)) & 1);
            bad |= (a < 0 && want) | (a >= 0 && (guint64)a >= words);
          }
        } else {
          guint64 over = 0;
          for (guint64 x = 0; x < cnt; x++) over |= (guint64)(ad[x] >= 0) & ((guint64)ad[x] >= words);
          bad = over != 0;
        }
        if (bad) {
          for (guint64 x = 0; x < cnt && ok; x++) {
            const gint64 a = ad[x];
            const guint64 t = f + x;
            if (a < 0) {
              if (xra && t < R && t != i && mask_bit(g, i, t)) {
                why = "a row whose bit i is set does not XOR";
                bad_t = t;
                ok = FALSE;
              }
            } else if ((guint64)a >= words) {
              why = "an address beyond the matrix and pivrow";
              bad_t = t;
              ok = FALSE;
            }
          }
          break;
        }
#define LANES(BODY)                                                   \
  for (guint64 x = 0; x < cnt; x++) {                                 \
    const gboolean on = ad[x] >= 0;                                   \
    const guint64 t = f + x;                                          \
    guint32 *cell = &mem[on ? (guint64)ad[x] : words];                \
    (void)t;                                                          \
    BODY;                                                             \
  }
        switch ((Kind)ps->kind) {
        case S_SEARCH:
          LANES(if (on && ((*cell >> (i % 32)) & 1) && t < g->T) found = MIN(found, i + ps->var * g->T + t));
          break;
        case S_SW_RP: case S_X_RA: case S_R_RP: LANES(r0[t] = on ? *cell : r0[t]); break;
        case S_SW_RI: case S_X_RP: LANES(r1[t] = on ? *cell : r1[t]); break;
        case S_SW_WPR: case S_R_WA: LANES(*cell = r0[t]); break;
        case S_SW_WP: LANES(*cell = r1[t]); break;
        case S_X_WA: LANES(*cell = r0[t] ^ r1[t]); break;
        case S_TEST:
          for (guint64 x = 0; x < cnt && ok; x++) {
            if (ad[x] < 0) continue;
            const guint64 t = f + x;
            if (((mem[ad[x]] >> (i % 32)) & 1) != (guint32)mask_bit(g, i, t)) {
              why = "the rows that XOR are not those whose bit i is set";
              bad_t = t;
              ok = FALSE;
            }
          }
          break;
        default: break;
        }
#undef LANES
      }
      if (ok && ps->kind == S_SW_RP && ps->var == 0 && found != g->P[i]) {
        why = "the search does not find the pivot row";
        ok = FALSE;
      }
    }
  }
  if (ok) {
    MsStep st;
    MsNext nx = ms_source_next(src, &st, error);
    if (nx == MS_NEXT_STEP) why = "the trace has steps past the kernels'";
    ok = nx == MS_NEXT_END;
  }
  for (guint64 j = 0; j < g->n && ok; j++)
    for (guint64 k = 0; k < W && ok; k++) {
      guint32 want = k < g->Wg ? (k == j / 32 ? 1u << (j % 32) : 0) : g->msg[j * g->Wx + k - g->Wg];
      if (mem[A(g, j, k)] != want) {
        why = k < g->Wg ? "the generator part is not the identity" : "the decoded symbol is not the message";
        bad_t = j;
        ok = FALSE;
      }
    }
  if (!ok && why && !(error && *error))
    g_set_error(error, MS_ERROR, MS_ERROR_VERIFY, "gf2: verification failed at pivot or row %" G_GUINT64_FORMAT ": %s", bad_t, why);
  g_free(mem);
  g_free(r0);
  g_free(r1);
  g_free(ad);
  return ok;
}

/* Parameters, instance, host elimination, step list. */
static Gf2 *gf2_build(const char *algorithm, GHashTable *params, GError **error) {
  Gf2 *g = g_new0(Gf2, 1);
  if (!gf2_params(algorithm, params, g, error)) {
    gf2_free(g);
    return NULL;
  }
  make_instance(g);
  if (!host_eliminate(g, error)) {
    gf2_free(g);
    return NULL;
  }
  build_steps(g);
  return g;
}

static MsSource *gf2_wrap(Gf2 *g) {
  MsSource *src = ms_source_new(g->name, g->TH, g->T, &gf2_funcs, g);
  ms_source_set_global_words(src, g->R * g->W + g->W);
  return src;
}

MsSource *ms_gf2_source(const char *algorithm, GHashTable *params, GError **error) {
  Gf2 *g = gf2_build(algorithm, params, error);
  if (!g) return NULL;
  /* execute the source's own steps on the matrix, then rewind it */
  MsSource *t = ms_source_new(g->name, g->TH, g->T, &gf2_borrowed, g);
  gboolean ok = execute(g, t, error);
  ms_source_free(t);
  g->i = 0;
  g->cur = 0;
  if (!ok) {
    gf2_free(g);
    return NULL;
  }
  return gf2_wrap(g);
}

/* ---- the compact form ----------------------------------------------------------------- */

static void u32_list(GString *s, const guint32 *v, guint64 n) {
  g_string_append_c(s, '[');
  for (guint64 j = 0; j < n; j++) g_string_append_printf(s, "%s%u", j ? (j % 16 ? ", " : ",\n    ") : "", v[j]);
  g_string_append_c(s, ']');
}

/* A(r, k) as a compact expression. */
static char *ax(const Gf2 *g, const char *r, const char *k) {
  return g->column ? g_strdup_printf("A[(%s) * R + (%s)]", k, r) : g_strdup_printf("A[(%s) * W + (%s)]", r, k);
}

static char *compact_text(const Gf2 *g) {
  GString *s = g_string_new(NULL);
#define AX(r, k) ax(g, r, k)
  g_string_append_printf(s, "{\"memsim_trace\": 1, \"form\": \"compact\",\n \"name\": \"%s\",\n", g->name);
  g_string_append_printf(s, " \"threads\": %" G_GUINT64_FORMAT ", \"block_threads\": %" G_GUINT64_FORMAT
                            ", \"global_words\": %" G_GUINT64_FORMAT ",\n",
                         g->TH, g->T, g->R * g->W + g->W);
  g_string_append_printf(s, " \"constants\": {\"n\": %" G_GUINT64_FORMAT ", \"R\": %" G_GUINT64_FORMAT ", \"W\": %" G_GUINT64_FORMAT
                            ", \"T\": %" G_GUINT64_FORMAT "},\n",
                         g->n, g->R, g->W, g->T);
  g_string_append_printf(s, " \"arrays\": {\"A\": {\"base\": 0, \"length\": %" G_GUINT64_FORMAT "}, \"pivrow\": {\"length\": %" G_GUINT64_FORMAT "},\n",
                         g->R * g->W, g->W);
  g_string_append(s, "  \"P\": {\"data\": ");
  u32_list(s, g->P, g->n);
  g_string_append(s, "},\n  \"NC\": {\"data\": ");
  u32_list(s, g->NC, g->n);
  g_string_append(s, "},\n  \"X\": {\"data\": ");
  u32_list(s, g->mask, (g->n * g->R + 31) / 32);
  g_string_append(s, "}},\n \"steps\": [\n");
  /* all pivots but the last end with a kernel boundary: the last pivot is written apart */
  for (int last = 0; last < 2; last++) {
    if (!last) g_string_append_printf(s, "  {\"repeat\": %" G_GUINT64_FORMAT ", \"var\": \"v\", \"steps\": [\n", g->n - 1);
    else g_string_append(s, "  {\"repeat\": 1, \"var\": \"j\", \"steps\": [\n");
    const char *I = last ? "(n - 1)" : "v"; /* the pivot ("i" is tid's other name) */
    char *e;
    g_string_append_printf(s, "   {\"repeat\": %u, \"var\": \"c\", \"steps\": [\n", g->C);
    char *rr = g_strdup_printf("%s + c * T + tid", I), *wi = g_strdup_printf("%s / 32", I);
    e = AX(rr, wi);
    g_string_append_printf(s, "    {\"op\": \"read\", \"space\": \"global\", \"addr\": \"%s\", \"when\": \"tid < T && c < NC[%s] && %s < R\"},\n", e, I, rr);
    g_free(e);
    g_string_append(s, "    {\"op\": \"sync\", \"scope\": \"block\"}]},\n");
    g_string_append(s, "   {\"op\": \"sync\", \"scope\": \"block\"},\n");
    char *pk = g_strdup_printf("P[%s]", I);
    const char *k1 = "q * T + tid", *w1 = "tid < T && q * T + tid < W";
    g_string_append_printf(s, "   {\"repeat\": %" G_GUINT64_FORMAT ", \"var\": \"q\", \"steps\": [\n", g->QW);
    e = AX(pk, k1);
    g_string_append_printf(s, "    {\"op\": \"read\", \"space\": \"global\", \"addr\": \"%s\", \"when\": \"%s\"},\n", e, w1);
    g_string_append_printf(s, "    {\"op\": \"write\", \"space\": \"global\", \"addr\": \"pivrow[%s]\", \"when\": \"%s\"},\n", k1, w1);
    char *ea = AX(I, k1);
    g_string_append_printf(s, "    {\"op\": \"read\", \"space\": \"global\", \"addr\": \"%s\", \"when\": \"%s && %s != %s\"},\n", ea, w1, pk, I);
    g_string_append_printf(s, "    {\"op\": \"write\", \"space\": \"global\", \"addr\": \"%s\", \"when\": \"%s && %s != %s\"}]},\n", e, w1, pk, I);
    g_free(e);
    g_string_append(s, "   {\"op\": \"sync\", \"scope\": \"grid\"},\n");
    e = AX("tid", wi);
    g_string_append_printf(s, "   {\"op\": \"read\", \"space\": \"global\", \"addr\": \"%s\", \"when\": \"tid < R && tid != %s\"},\n", e, I);
    g_free(e);
    char *xm = g_strdup_printf("tid < R && tid != %s && (X[(%s * R + tid) >> 5] >> ((%s * R + tid) & 31)) & 1", I, I, I);
    g_string_append_printf(s, "   {\"repeat\": %" G_GUINT64_FORMAT ", \"var\": \"k\", \"steps\": [\n", g->W);
    e = AX("tid", "k");
    g_string_append_printf(s, "    {\"op\": \"read\", \"space\": \"global\", \"addr\": \"%s\", \"when\": \"%s\"},\n", e, xm);
    g_string_append_printf(s, "    {\"op\": \"read\", \"space\": \"global\", \"addr\": \"pivrow[k]\", \"when\": \"%s\"},\n", xm);
    g_string_append_printf(s, "    {\"op\": \"write\", \"space\": \"global\", \"addr\": \"%s\", \"when\": \"%s\"}]},\n", e, xm);
    g_free(e);
    g_string_append(s, "   {\"op\": \"sync\", \"scope\": \"grid\"},\n");
    g_string_append_printf(s, "   {\"repeat\": %" G_GUINT64_FORMAT ", \"var\": \"q\", \"steps\": [\n", g->QW);
    g_string_append_printf(s, "    {\"op\": \"read\", \"space\": \"global\", \"addr\": \"pivrow[%s]\", \"when\": \"%s\"},\n", k1, w1);
    g_string_append_printf(s, "    {\"op\": \"write\", \"space\": \"global\", \"addr\": \"%s\", \"when\": \"%s\"}]}", ea, w1);
    g_free(ea);
    g_string_append(s, last ? "]}\n" : ",\n   {\"op\": \"sync\", \"scope\": \"grid\"}]},\n");
    g_free(rr);
    g_free(wi);
    g_free(pk);
    g_free(xm);
  }
  g_string_append(s, " ]}\n");
#undef AX
  return g_string_free(s, FALSE);
}

char *ms_gf2_compact(const char *algorithm, GHashTable *params, MsGf2Info *info, GError **error) {
  Gf2 *g = gf2_build(algorithm, params, error);
  if (!g) return NULL;
  char *text = compact_text(g);
  MsSource *src = ms_trace_open_memory(text, strlen(text), "gf2", error);
  gboolean ok = src && execute(g, src, error);
  ms_source_free(src);
  if (ok && info) {
    *info = (MsGf2Info){g->n, g->L, g->R, g->W, g->T, g->TH, g->column, TRUE};
  }
  gf2_free(g);
  if (!ok) {
    g_free(text);
    return NULL;
  }
  return text;
}

gboolean ms_gf2_verify_text(const char *algorithm, GHashTable *params, const char *text, GError **error) {
  Gf2 *g = gf2_build(algorithm, params, error);
  if (!g) return FALSE;
  MsSource *src = ms_trace_open_memory(text, strlen(text), "gf2", error);
  gboolean ok = src && execute(g, src, error);
  ms_source_free(src);
  gf2_free(g);
  return ok;
}
