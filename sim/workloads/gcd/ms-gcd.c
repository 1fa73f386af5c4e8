/* ms-gcd.c: bulk GCD on the UMM (seed 000 chapters 3-4).
 *
 * P threads each compute the GCD of their own pair of odd S-bit integers X, Y held in two
 * arrays of S/32 words (array 0 starts as X, array 1 as Y; swap(X, Y) exchanges pointers
 * and costs no access).  The instances run in SIMT lockstep: every do-while iteration is the
 * same list of *phases* for every thread (the branches of an if-else are consecutive
 * phases, as a warp executes the true case and then the false case), and a phase is a loop
 * over k whose body has up to four access slots.  A thread takes part in slot s of
 * iteration k iff start <= k < start + count for its own (start, count), and then accesses
 * word base + dir * (k - start) of X or Y.  The data are real (GMP), so the loop lengths,
 * the branch taken and the arrays holding X and Y differ between threads exactly where the
 * data make them differ.
 *
 * Access patterns (section 4.4): X <- rshift(X - Y*alpha) is one LSB-first pass reading
 * X[k] and Y[k] and writing X[k - 1 - ws] (ws = whole zero words removed by rshift: the
 * result word is known once the next source word is read); approx reads the two most
 * significant words of X and of Y; X < Y reads x1 and y1 (then x2 and y2, ...) only when
 * l_X = l_Y; lengths l_X, l_Y are kept in registers. */
#include "gcd/ms-gcd.h"
#include "ms-perm.h"
#include <gmp.h>
#include <math.h>
#include <string.h>

const char *const ms_gcd_algorithms[] = {"original", "fast", "binary", "fast-binary", "approximate", NULL};

typedef enum { ALG_ORIGINAL, ALG_FAST, ALG_BINARY, ALG_FAST_BINARY, ALG_APPROX } Alg;

enum { ROLE_X = 0, ROLE_Y = 1 };
#define MAX_SLOTS 4

typedef struct {
  MsOp op;
  int role;
  int dir;
  gboolean fixed; /* word position independent of the data */
} SlotDef;

/* 8 bytes: fill() reads one per thread at every step, so its size is the fill's memory
 * traffic.  start and count are at most words + 1 <= 2^15 + 1 (bits <= 2^20). */
typedef struct {
  guint16 start, count;
  gint32 base;
} SlotUse;

typedef struct {
  guint nslots;
  const SlotDef *def; /* the phase's slots: one of the static DEF_ tables */
  SlotUse *use[MAX_SLOTS]; /* per planned thread */
  guint32 slot_len[MAX_SLOTS];
  guint32 len;
  /* per slot, what next() needs without a pass over the threads: act[s][k] the threads
   * active at word k (a difference array until plan_iteration sums it), and whether every
   * thread using the slot is at the same logical word for a given k (ukey: arr * W + base -
   * dir * start; logical word = ukey + dir * k) */
  gint32 *act[MAX_SLOTS];
  gint64 ukey[MAX_SLOTS];
  gboolean uall[MAX_SLOTS];
  guint64 nuse[MAX_SLOTS];
  guint idx; /* its place in the pool */
} Phase;

/* Planning on several threads (set_workers): each chunk of threads sums its uses of a phase
 * slot here, as use() sums them into the phase on one thread; plan_iteration adds the chunks
 * in thread order, which gives the phase the same values. */
#define PLAN_PHASES 6 /* binary's phases: the most of the algorithms planned in parallel */
typedef struct {
  gint32 *act[MAX_SLOTS];
  gint64 ukey[MAX_SLOTS];
  gboolean uall[MAX_SLOTS];
  guint64 nuse[MAX_SLOTS];
  guint32 slot_len[MAX_SLOTS];
  guint32 len;
} PhaseSum;

typedef struct _Gcd Gcd;
typedef struct {
  Gcd *G;
  guint64 t0, t1; /* its threads */
  PhaseSum sum[PLAN_PHASES];
  mpz_t tmp;
  guint64 approx_calls, beta_positive;
} Chunk;

struct _Gcd {
  Alg alg;
  guint32 bits, words;
  guint64 P;
  guint64 nd; /* threads with their own data: P, or 1 when oblivious */
  gboolean row, oblivious;
  mpz_t *x, *y, *g;
  guint8 *xa;      /* array holding X now */
  guint8 *xa_iter; /* array holding X during the current iteration */
  guint64 *iters;
  gboolean *done;
  guint64 live;
  /* phases of the current iteration */
  GPtrArray *pool;
  guint nphases;
  guint ph, slot;
  guint32 k;
  gboolean prologue_done, finished;
  /* the step next() returned, for fill() */
  const Phase *cur;
  guint cur_slot;
  guint32 cur_k;
  mpz_t tmp, q;
  MsGcdStats local, *stats;
  /* planning on several threads (set_workers) */
  guint workers, nchunks;
  Chunk *chunks;
  GThreadPool *tp;
  GMutex lock;
  GCond cond;
  guint pending;
};

/* ---- helpers on multi-word numbers ------------------------------------------------------ */
static guint32 nwords(const mpz_t x) {
  return mpz_sgn(x) == 0 ? 0 : (guint32)((mpz_sizeinbase(x, 2) + 31) / 32);
}

static guint32 word(const mpz_t x, guint32 k) {
  const unsigned per = GMP_NUMB_BITS / 32;
  mp_limb_t l = mpz_getlimbn(x, (mp_size_t)(k / per));
  return (guint32)(l >> (32 * (k % per)));
}

/* Word pairs X < Y reads from the top: none unless the lengths are equal. */
static guint32 cmp_reads(const mpz_t x, guint32 lx, const mpz_t y, guint32 ly) {
  if (lx != ly) return 0;
  guint32 c = 0;
  for (guint32 m = 0; m < lx; m++) {
    c++;
    if (word(x, lx - 1 - m) != word(y, ly - 1 - m)) break;
  }
  return c;
}

/* rshift: remove trailing zero bits; returns the whole words removed. */
static guint32 rshift(mpz_t x) {
  if (mpz_sgn(x) == 0) return 0;
  mp_bitcnt_t z = mpz_scan1(x, 0);
  mpz_tdiv_q_2exp(x, x, z);
  return (guint32)(z / 32);
}

/* ---- phases ------------------------------------------------------------------------------- */
static void phase_open(Gcd *G, guint idx);

/* Called once per planned thread and phase: the common case (the phase exists) is a lookup
 * and two stores, the slot definitions being static tables referred to, not copied. */
static inline Phase *phase_get(Gcd *G, guint idx, const SlotDef *defs, guint n) {
  if (G_UNLIKELY(G->nphases <= idx)) phase_open(G, idx);
  Phase *p = g_ptr_array_index(G->pool, idx);
  p->nslots = n;
  p->def = defs;
  return p;
}

static void phase_open(Gcd *G, guint idx) {
  while (G->nphases <= idx) {
    Phase *p;
    if (G->nphases < G->pool->len) {
      p = g_ptr_array_index(G->pool, G->nphases);
    } else {
      p = g_new0(Phase, 1);
      p->idx = G->pool->len;
      for (guint s = 0; s < MAX_SLOTS; s++) {
        p->use[s] = g_new0(SlotUse, G->nd);
        p->act[s] = g_new0(gint32, G->words + 3);
      }
      g_ptr_array_add(G->pool, p);
    }
    for (guint s = 0; s < MAX_SLOTS; s++) {
      if (p->slot_len[s]) memset(p->use[s], 0, G->nd * sizeof(SlotUse));
      if (p->slot_len[s] || p->nuse[s]) memset(p->act[s], 0, (G->words + 3) * sizeof(gint32));
      p->slot_len[s] = 0;
      p->nuse[s] = 0;
      p->uall[s] = TRUE;
    }
    p->len = 0;
    p->nslots = 0;
    G->nphases++;
  }
}

/* Thread t uses slot s of phase p for count words from start: into the phase, or into its
 * chunk's sums when planning on several threads (ch). */
static void use(const Gcd *G, Chunk *ch, Phase *p, guint s, guint64 t, guint32 start, guint32 count, gint32 base) {
  if (!count) return;
  p->use[s][t] = (SlotUse){(guint16)start, (guint16)count, base};
  guint32 end = start + count;
  const gint64 key = (gint64)(G->xa_iter[t] ^ (guint8)p->def[s].role) * (gint64)G->words + (gint64)base -
                     (gint64)p->def[s].dir * (gint64)start;
  if (ch) {
    PhaseSum *a = &ch->sum[p->idx];
    a->act[s][start]++;
    a->act[s][end]--;
    if (a->nuse[s]++ == 0) a->ukey[s] = key;
    else if (key != a->ukey[s]) a->uall[s] = FALSE;
    if (end > a->slot_len[s]) a->slot_len[s] = end;
    if (end > a->len) a->len = end;
    return;
  }
  p->act[s][start]++;
  p->act[s][end]--;
  if (p->nuse[s]++ == 0) p->ukey[s] = key;
  else if (key != p->ukey[s]) p->uall[s] = FALSE;
  if (end > p->slot_len[s]) p->slot_len[s] = end;
  if (end > p->len) p->len = end;
}

/* phase_get(), or on a planning chunk the phase plan_iteration opened before (no writes) */
static inline Phase *pget(Gcd *G, Chunk *ch, guint idx, const SlotDef *defs, guint n) {
  return ch ? g_ptr_array_index(G->pool, idx) : phase_get(G, idx, defs, n);
}

static const SlotDef DEF_POINT[4] = {{MS_OP_READ, ROLE_X, -1, FALSE}, {MS_OP_READ, ROLE_X, -1, FALSE},
                                     {MS_OP_READ, ROLE_Y, -1, FALSE}, {MS_OP_READ, ROLE_Y, -1, FALSE}};
static const SlotDef DEF_CMP[2] = {{MS_OP_READ, ROLE_X, -1, FALSE}, {MS_OP_READ, ROLE_Y, -1, FALSE}};
/* X <- f(X, Y) LSB first: read X[k], read Y[k], write X[k - lag] */
static const SlotDef DEF_PASS[3] = {{MS_OP_READ, ROLE_X, 1, TRUE}, {MS_OP_READ, ROLE_Y, 1, TRUE},
                                    {MS_OP_WRITE, ROLE_X, 1, TRUE}};
/* beta > 0: read X[k], Y[k - beta], Y[k] (the "+Y"), write X[k - 1 - ws] */
static const SlotDef DEF_PASS_BETA[4] = {{MS_OP_READ, ROLE_X, 1, TRUE}, {MS_OP_READ, ROLE_Y, 1, TRUE},
                                         {MS_OP_READ, ROLE_Y, 1, TRUE}, {MS_OP_WRITE, ROLE_X, 1, TRUE}};
static const SlotDef DEF_HALF_X[2] = {{MS_OP_READ, ROLE_X, 1, TRUE}, {MS_OP_WRITE, ROLE_X, 1, TRUE}};
static const SlotDef DEF_HALF_Y[2] = {{MS_OP_READ, ROLE_Y, 1, TRUE}, {MS_OP_WRITE, ROLE_Y, 1, TRUE}};
static const SlotDef DEF_TEST_X[1] = {{MS_OP_READ, ROLE_X, 1, TRUE}};
static const SlotDef DEF_TEST_Y[1] = {{MS_OP_READ, ROLE_Y, 1, TRUE}};

static void point_reads(const Gcd *G, Chunk *ch, Phase *p, guint64 t, guint32 lx, guint32 ly) {
  use(G, ch, p, 0, t, 0, 1, (gint32)lx - 1);
  use(G, ch, p, 1, t, 0, lx >= 2, (gint32)lx - 2);
  use(G, ch, p, 2, t, 0, 1, (gint32)ly - 1);
  use(G, ch, p, 3, t, 0, ly >= 2, (gint32)ly - 2);
}

/* The end of every iteration but the original algorithm's: if (X < Y) swap(X, Y). */
static void compare_swap(Gcd *G, Chunk *ch, Phase *p, guint64 t) {
  mpz_ptr x = G->x[t], y = G->y[t];
  guint32 lx = nwords(x), ly = nwords(y);
  guint32 c = cmp_reads(x, lx, y, ly);
  use(G, ch, p, 0, t, 0, c, (gint32)lx - 1);
  use(G, ch, p, 1, t, 0, c, (gint32)ly - 1);
  if (mpz_cmp(x, y) < 0) {
    mpz_swap(x, y);
    G->xa[t] ^= 1;
  }
}

/* approx(X, Y) of section 4.2: cases 1-4. */
static void approx(const mpz_t X, guint32 lx, const mpz_t Y, guint32 ly, guint64 *alpha, guint32 *beta) {
  const guint64 D = G_GUINT64_CONSTANT(1) << 32;
  guint64 x1 = word(X, lx - 1), x2 = lx >= 2 ? word(X, lx - 2) : 0;
  guint64 y1 = word(Y, ly - 1), y2 = ly >= 2 ? word(Y, ly - 2) : 0;
  guint64 x12 = x1 * D + x2, y12 = y1 * D + y2;
  if (lx <= 2) { /* case 1: X and Y fit in 64 bits */
    guint64 xv = lx == 2 ? x12 : x1, yv = ly == 2 ? y12 : y1;
    *alpha = xv / yv;
    *beta = 0;
  } else if (ly == 1) { /* case 2 */
    if (x1 >= y1) *alpha = x1 / y1, *beta = lx - 1;
    else *alpha = x12 / y1, *beta = lx - 2;
  } else if (ly == 2) { /* case 3 */
    if (x12 >= y12) *alpha = x12 / y12, *beta = lx - 2;
    else *alpha = x12 / (y1 + 1), *beta = lx - 3;
  } else if (x12 > y12) { /* case 4-A: y12 + 1 <= D^2 - 1 */
    *alpha = x12 / (y12 + 1), *beta = lx - ly;
  } else if (lx > ly) { /* case 4-B */
    *alpha = x12 / (y1 + 1), *beta = lx - ly - 1;
  } else { /* case 4-C */
    *alpha = 1, *beta = 0;
  }
}

/* Plan one iteration of thread t (its data advance; its accesses go to the phases, or to its
 * chunk's sums: ch, planning on several threads, only the algorithms of PLAN_PHASES phases). */
static void plan_thread(Gcd *G, Chunk *ch, guint64 t) {
  mpz_ptr x = G->x[t], y = G->y[t];
  guint32 lx = nwords(x), ly = nwords(y);
  Phase *p;
  switch (G->alg) {
  case ALG_APPROX: {
    point_reads(G, ch, pget(G, ch, 0, DEF_POINT, 4), t, lx, ly);
    guint64 alpha;
    guint32 beta;
    approx(x, lx, y, ly, &alpha, &beta);
    if (ch) ch->approx_calls++;
    else G->local.approx_calls++;
    if (beta == 0) {
      if (!(alpha & 1)) alpha--;
      mpz_submul_ui(x, y, alpha);
      guint32 ws = rshift(x);
      p = pget(G, ch, 1, DEF_PASS, 3);
      use(G, ch, p, 0, t, 0, lx, 0);
      use(G, ch, p, 1, t, 0, ly, 0);
      use(G, ch, p, 2, t, 1 + ws, lx - ws, 0);
    } else {
      if (ch) ch->beta_positive++;
      else G->local.beta_positive++;
      mpz_ptr tmp = ch ? ch->tmp : G->tmp;
      mpz_mul_ui(tmp, y, alpha);
      mpz_mul_2exp(tmp, tmp, 32 * (mp_bitcnt_t)beta);
      mpz_sub(x, x, tmp);
      mpz_add(x, x, y);
      guint32 ws = rshift(x);
      pget(G, ch, 1, DEF_PASS, 3);
      p = pget(G, ch, 2, DEF_PASS_BETA, 4);
      use(G, ch, p, 0, t, 0, lx, 0);
      use(G, ch, p, 1, t, beta, ly, 0);
      use(G, ch, p, 2, t, 0, ly, 0);
      use(G, ch, p, 3, t, 1 + ws, lx - ws, 0);
    }
    compare_swap(G, ch, pget(G, ch, 3, DEF_CMP, 2), t);
    break;
  }
  case ALG_FAST_BINARY: {
    mpz_sub(x, x, y);
    guint32 ws = rshift(x);
    p = pget(G, ch, 0, DEF_PASS, 3);
    use(G, ch, p, 0, t, 0, lx, 0);
    use(G, ch, p, 1, t, 0, ly, 0);
    use(G, ch, p, 2, t, 1 + ws, lx - ws, 0);
    compare_swap(G, ch, pget(G, ch, 1, DEF_CMP, 2), t);
    break;
  }
  case ALG_BINARY: {
    use(G, ch, pget(G, ch, 0, DEF_TEST_X, 1), 0, t, 0, 1, 0);
    if (mpz_even_p(x)) {
      mpz_tdiv_q_2exp(x, x, 1);
      p = pget(G, ch, 1, DEF_HALF_X, 2);
      use(G, ch, p, 0, t, 0, lx, 0);
      use(G, ch, p, 1, t, 1, lx, 0);
    } else {
      use(G, ch, pget(G, ch, 2, DEF_TEST_Y, 1), 0, t, 0, 1, 0);
      if (mpz_even_p(y)) {
        mpz_tdiv_q_2exp(y, y, 1);
        p = pget(G, ch, 3, DEF_HALF_Y, 2);
        use(G, ch, p, 0, t, 0, ly, 0);
        use(G, ch, p, 1, t, 1, ly, 0);
      } else {
        mpz_sub(x, x, y);
        mpz_tdiv_q_2exp(x, x, 1);
        p = pget(G, ch, 4, DEF_PASS, 3);
        use(G, ch, p, 0, t, 0, lx, 0);
        use(G, ch, p, 1, t, 0, ly, 0);
        use(G, ch, p, 2, t, 1, lx, 0);
      }
    }
    compare_swap(G, ch, pget(G, ch, 5, DEF_CMP, 2), t);
    break;
  }
  case ALG_ORIGINAL:
  case ALG_FAST: {
    /* Q = X div Y by schoolbook division, one round per 32-bit quotient word from the top:
     * read the leading words of X and Y to estimate it, then X -= q_i * Y * D^i over the
     * window X[i..].  The fast algorithm uses Q - 1 for even Q and fuses rshift into the
     * last round (i = 0). */
    const gboolean fast = G->alg == ALG_FAST;
    const guint per = fast ? 3 : 2;
    mpz_tdiv_q(G->q, x, y);
    if (fast && mpz_even_p(G->q)) mpz_sub_ui(G->q, G->q, 1);
    guint32 nq = nwords(G->q);
    for (guint32 r = 0; r < nq; r++) {
      guint32 i = nq - 1 - r, cur = nwords(x);
      point_reads(G, NULL, phase_get(G, per * r, DEF_POINT, 4), t, cur, ly);
      mpz_mul_ui(G->tmp, y, word(G->q, i));
      mpz_mul_2exp(G->tmp, G->tmp, 32 * (mp_bitcnt_t)i);
      mpz_sub(x, x, G->tmp);
      if (fast && i == 0) {
        guint32 ws = rshift(x);
        phase_get(G, per * r + 1, DEF_PASS, 3);
        p = phase_get(G, per * r + 2, DEF_PASS, 3);
        use(G, NULL, p, 0, t, 0, cur, 0);
        use(G, NULL, p, 1, t, 0, ly, 0);
        use(G, NULL, p, 2, t, 1 + ws, cur - ws, 0);
      } else {
        p = phase_get(G, per * r + 1, DEF_PASS, 3);
        use(G, NULL, p, 0, t, 0, cur - i, (gint32)i);
        use(G, NULL, p, 1, t, 0, ly, 0);
        use(G, NULL, p, 2, t, 0, cur - i, (gint32)i);
      }
    }
    if (fast) {
      /* the compare comes after the longest round loop of all threads: plan it later */
      break;
    }
    mpz_swap(x, y); /* X mod Y < Y always */
    G->xa[t] ^= 1;
    break;
  }
  }
}

static gboolean verify(Gcd *G, GError **error) {
  for (guint64 t = 0; t < G->nd; t++) {
    if (mpz_cmp(G->x[t], G->g[t]) != 0 || mpz_sgn(G->y[t]) != 0) {
      g_set_error(error, MS_ERROR, MS_ERROR_VERIFY,
                  "gcd %s: instance %" G_GUINT64_FORMAT ": the result differs from mpz_gcd",
                  ms_gcd_algorithms[G->alg], t);
      return FALSE;
    }
  }
  return TRUE;
}

static void finish_stats(Gcd *G) {
  MsGcdStats *s = &G->local;
  s->instances = G->P;
  guint64 mn = G_MAXUINT64, mx = 0;
  double sum = 0, sq = 0;
  for (guint64 t = 0; t < G->nd; t++) {
    guint64 v = G->iters[t];
    mn = MIN(mn, v);
    mx = MAX(mx, v);
    sum += (double)v;
    sq += (double)v * (double)v;
  }
  double n = (double)G->nd;
  s->iterations_min = mn;
  s->iterations_max = mx;
  s->iterations_mean = sum / n;
  s->iterations_sd = G->nd > 1 ? sqrt(MAX(0.0, (sq - sum * sum / n) / (n - 1))) : 0.0;
  if (G->oblivious) {
    s->approx_calls *= G->P;
    s->beta_positive *= G->P;
  }
  s->gamma = s->accesses ? (double)s->data_dependent / (double)s->accesses : 0.0;
  s->complete = TRUE;
  if (G->stats) *G->stats = *s;
}

/* After planning: each slot's difference array becomes its active threads per word. */
static void phases_sum(Gcd *G) {
  for (guint i = 0; i < G->nphases; i++) {
    Phase *p = g_ptr_array_index(G->pool, i);
    for (guint s = 0; s < p->nslots; s++) {
      gint32 *a = p->act[s], run = 0;
      for (guint32 k = 0; k <= p->slot_len[s]; k++) a[k] = run += a[k];
    }
  }
}

static void plan_chunk(Gcd *G, Chunk *ch) {
  for (guint64 t = ch->t0; t < ch->t1; t++)
    if (!G->done[t]) plan_thread(G, ch, t);
}

static void plan_task(gpointer data, gpointer user) {
  Gcd *G = user;
  plan_chunk(G, data);
  g_mutex_lock(&G->lock);
  if (--G->pending == 0) g_cond_signal(&G->cond);
  g_mutex_unlock(&G->lock);
}

/* The phases an iteration of alg opens, in order, with their slots. */
static guint plan_phases(Alg alg, const SlotDef **defs, guint *n) {
  static const SlotDef *const ap[] = {DEF_POINT, DEF_PASS, DEF_PASS_BETA, DEF_CMP};
  static const guint an[] = {4, 3, 4, 2};
  static const SlotDef *const bp[] = {DEF_TEST_X, DEF_HALF_X, DEF_TEST_Y, DEF_HALF_Y, DEF_PASS, DEF_CMP};
  static const guint bn[] = {1, 2, 1, 2, 3, 2};
  static const SlotDef *const fp[] = {DEF_PASS, DEF_CMP};
  static const guint fn[] = {3, 2};
  const SlotDef *const *d = alg == ALG_APPROX ? ap : alg == ALG_BINARY ? bp : fp;
  const guint *c = alg == ALG_APPROX ? an : alg == ALG_BINARY ? bn : fn;
  const guint k = alg == ALG_APPROX ? 4 : alg == ALG_BINARY ? 6 : 2;
  for (guint i = 0; i < k; i++) {
    defs[i] = d[i];
    n[i] = c[i];
  }
  return k;
}

/* plan_thread over every live thread on G->nchunks threads: the phases are opened first (with
 * the slots plan_thread gives them; a phase no thread uses keeps len 0 and is skipped as
 * before), each chunk sums its uses, and the sums go into the phases in thread order. */
static void plan_parallel(Gcd *G) {
  const SlotDef *defs[PLAN_PHASES];
  guint n[PLAN_PHASES];
  const guint k = plan_phases(G->alg, defs, n);
  for (guint i = 0; i < k; i++) phase_get(G, i, defs[i], n[i]);
  for (guint c = 0; c < G->nchunks; c++) {
    Chunk *ch = &G->chunks[c];
    for (guint i = 0; i < k; i++) {
      PhaseSum *a = &ch->sum[i];
      for (guint s = 0; s < MAX_SLOTS; s++) {
        if (a->nuse[s]) memset(a->act[s], 0, (G->words + 3) * sizeof(gint32));
        a->nuse[s] = 0;
        a->uall[s] = TRUE;
        a->slot_len[s] = 0;
      }
      a->len = 0;
    }
    ch->approx_calls = ch->beta_positive = 0;
  }
  G->pending = G->nchunks - 1;
  for (guint c = 1; c < G->nchunks; c++) g_thread_pool_push(G->tp, &G->chunks[c], NULL);
  plan_chunk(G, &G->chunks[0]);
  g_mutex_lock(&G->lock);
  while (G->pending) g_cond_wait(&G->cond, &G->lock);
  g_mutex_unlock(&G->lock);
  for (guint c = 0; c < G->nchunks; c++) {
    const Chunk *ch = &G->chunks[c];
    G->local.approx_calls += ch->approx_calls;
    G->local.beta_positive += ch->beta_positive;
    for (guint i = 0; i < k; i++) {
      Phase *p = g_ptr_array_index(G->pool, i);
      const PhaseSum *a = &ch->sum[i];
      for (guint s = 0; s < MAX_SLOTS; s++) {
        if (!a->nuse[s]) continue;
        for (guint32 w = 0; w < G->words + 3; w++) p->act[s][w] += a->act[s][w];
        if (p->nuse[s] == 0) {
          p->ukey[s] = a->ukey[s];
          p->uall[s] = a->uall[s];
        } else if (!a->uall[s] || a->ukey[s] != p->ukey[s]) {
          p->uall[s] = FALSE;
        }
        p->nuse[s] += a->nuse[s];
        p->slot_len[s] = MAX(p->slot_len[s], a->slot_len[s]);
      }
      p->len = MAX(p->len, a->len);
    }
  }
}

/* MsSourceFuncs.set_workers: plan on n threads, for the algorithms of a fixed list of phases
 * and threads with data of their own (not oblivious), in chunks of at least 1024 threads. */
static void gcd_set_workers(gpointer self, guint n) {
  Gcd *G = self;
  if (G->tp || G->alg == ALG_ORIGINAL || G->alg == ALG_FAST || G->oblivious) return;
  n = (guint)MIN((guint64)n, G->nd / 1024);
  if (n <= 1) return;
  G->workers = G->nchunks = n;
  G->chunks = g_new0(Chunk, n);
  for (guint c = 0; c < n; c++) {
    Chunk *ch = &G->chunks[c];
    ch->G = G;
    ch->t0 = G->nd * c / n;
    ch->t1 = G->nd * (c + 1) / n;
    mpz_init(ch->tmp);
    for (guint i = 0; i < PLAN_PHASES; i++)
      for (guint s = 0; s < MAX_SLOTS; s++) ch->sum[i].act[s] = g_new0(gint32, G->words + 3);
  }
  g_mutex_init(&G->lock);
  g_cond_init(&G->cond);
  G->tp = g_thread_pool_new(plan_task, G, (gint)n - 1, TRUE, NULL);
}

/* Plan the next iteration of every live thread; FALSE at the end (or on error). */
static gboolean plan_iteration(Gcd *G, GError **error, gboolean *end) {
  G->nphases = 0;
  G->ph = 0;
  G->k = 0;
  G->slot = 0;
  *end = FALSE;
  memcpy(G->xa_iter, G->xa, G->nd);
  if (!G->prologue_done) { /* X >= Y is assumed: if (X < Y) swap(X, Y) */
    G->prologue_done = TRUE;
    Phase *p = phase_get(G, 0, DEF_CMP, 2);
    for (guint64 t = 0; t < G->nd; t++) compare_swap(G, NULL, p, t);
    phases_sum(G);
    return TRUE;
  }
  if (G->live == 0) {
    if (!verify(G, error)) return FALSE;
    finish_stats(G);
    *end = TRUE;
    return TRUE;
  }
  if (G->nchunks > 1) plan_parallel(G);
  else
    for (guint64 t = 0; t < G->nd; t++)
      if (!G->done[t]) plan_thread(G, NULL, t);
  if (G->alg == ALG_FAST) {
    Phase *p = phase_get(G, G->nphases, DEF_CMP, 2);
    for (guint64 t = 0; t < G->nd; t++)
      if (!G->done[t]) compare_swap(G, NULL, p, t);
  }
  for (guint64 t = 0; t < G->nd; t++) {
    if (G->done[t]) continue;
    G->iters[t]++;
    if (mpz_sgn(G->y[t]) == 0) {
      G->done[t] = TRUE;
      G->live--;
    }
  }
  phases_sum(G);
  return TRUE;
}

static MsNext gcd_next(gpointer self, MsStep *step, GError **error) {
  Gcd *G = self;
  if (G->finished) return MS_NEXT_END;
  for (;;) {
    if (G->ph >= G->nphases) {
      gboolean end;
      if (!plan_iteration(G, error, &end)) return MS_NEXT_ERROR;
      if (end) {
        G->finished = TRUE;
        return MS_NEXT_END;
      }
      continue;
    }
    Phase *p = g_ptr_array_index(G->pool, G->ph);
    if (G->k >= p->len) {
      G->ph++;
      G->k = 0;
      G->slot = 0;
      continue;
    }
    guint s = G->slot;
    guint32 k = G->k;
    if (++G->slot >= p->nslots) {
      G->slot = 0;
      G->k++;
    }
    if (k >= p->slot_len[s]) continue;
    const guint64 P = G->P;
    guint64 active;
    gboolean same;
    if (G->oblivious) { /* one data set: every thread has the same word, or none */
      const SlotUse *v = &p->use[s][0];
      active = k >= v->start && k - v->start < v->count ? P : 0;
      same = TRUE;
    } else { /* counted when planned: no pass over the threads here (fill() makes the addresses) */
      active = (guint64)p->act[s][k];
      same = p->uall[s];
    }
    gboolean uniform = same && active == P;
    if (!active) continue;
    const SlotDef *d = &p->def[s];
    G->cur = p;
    G->cur_slot = s;
    G->cur_k = k;
    G->local.steps++;
    G->local.accesses += active;
    if (!d->fixed) G->local.data_dependent += active;
    if (!uniform) G->local.nonuniform_steps++;
    step->op = d->op;
    step->space = MS_SPACE_GLOBAL;
    step->scope = MS_SCOPE_GRID;
    return MS_NEXT_STEP;
  }
}

/* The addresses of the step next() returned, for threads [first, first + count): reads only
 * what next() and the planning left, so several workers may call it at once. */
static gboolean gcd_fill(gpointer self, guint64 first, guint64 count, gint64 *addr, GError **error) {
  (void)error;
  const Gcd *G = self;
  const Phase *p = G->cur;
  const guint s = G->cur_slot;
  const guint32 k = G->cur_k;
  const SlotDef *d = &p->def[s];
  const SlotUse *u = p->use[s];
  const guint64 P = G->P, W = G->words;
  const gint64 plane = (gint64)(P * W);
  const gint64 dir = d->dir, role = d->role, rowW = G->row ? (gint64)W : 1, colP = G->row ? 1 : (gint64)P;
  if (G->oblivious) {
    const SlotUse *v = &u[0];
    const gint64 w = (gint64)v->base + dir * (gint64)(k - v->start);
    const gint64 arr = (gint64)(G->xa_iter[0] ^ role);
    for (guint64 i = 0; i < count; i++) addr[i] = arr * plane + (gint64)(first + i) * rowW + w * colP;
    return TRUE;
  }
  const guint8 *xa = G->xa_iter;
  for (guint64 i = 0; i < count; i++) { /* no branch on the lane: divergent warps mix them */
    const guint64 t = first + i;
    const SlotUse *v = &u[t];
    const guint32 off = k - v->start;
    const gboolean on = k >= v->start && off < v->count;
    const gint64 w = (gint64)v->base + dir * (gint64)off;
    const gint64 x = (gint64)(xa[t] ^ role) * plane + (gint64)t * rowW + w * colP;
    addr[i] = on ? x : MS_ADDR_NONE;
  }
  return TRUE;
}

static void gcd_destroy(gpointer self) {
  Gcd *G = self;
  if (G->tp) {
    g_thread_pool_free(G->tp, FALSE, TRUE);
    for (guint c = 0; c < G->nchunks; c++) {
      mpz_clear(G->chunks[c].tmp);
      for (guint i = 0; i < PLAN_PHASES; i++)
        for (guint s = 0; s < MAX_SLOTS; s++) g_free(G->chunks[c].sum[i].act[s]);
    }
    g_free(G->chunks);
    g_mutex_clear(&G->lock);
    g_cond_clear(&G->cond);
  }
  for (guint64 t = 0; t < G->nd; t++) {
    mpz_clear(G->x[t]);
    mpz_clear(G->y[t]);
    mpz_clear(G->g[t]);
  }
  g_free(G->x);
  g_free(G->y);
  g_free(G->g);
  mpz_clear(G->tmp);
  mpz_clear(G->q);
  for (guint i = 0; i < G->pool->len; i++) {
    Phase *p = g_ptr_array_index(G->pool, i);
    for (guint s = 0; s < MAX_SLOTS; s++) {
      g_free(p->use[s]);
      g_free(p->act[s]);
    }
    g_free(p);
  }
  g_ptr_array_free(G->pool, TRUE);
  g_free(G->xa);
  g_free(G->xa_iter);
  g_free(G->iters);
  g_free(G->done);
  g_free(G);
}

/* fill() only reads the generator's state: safe on several workers at once. */
static gboolean gcd_fill_worker(gpointer self, guint worker, guint64 first, guint64 count, gint64 *addr,
                              GError **error) {
  (void)worker;
  return gcd_fill(self, first, count, addr, error);
}

static const MsSourceFuncs gcd_funcs = {gcd_next, gcd_fill, gcd_destroy, NULL, gcd_fill_worker,
                                        NULL,     NULL,     gcd_set_workers};

/* A random odd integer in [2^(bits-1), 2^bits). */
static void random_odd(mpz_t x, guint32 words, guint64 *state) {
  guint32 *w = g_new(guint32, words);
  for (guint32 k = 0; k < words; k++) w[k] = (guint32)(ms_rand_next(state) >> 32);
  w[0] |= 1u;
  w[words - 1] |= 0x80000000u;
  mpz_import(x, words, -1, sizeof(guint32), 0, 0, w);
  g_free(w);
}

MsSource *ms_gcd_source_with_stats(const char *algorithm, GHashTable *params, MsGcdStats *stats,
                                   GError **error) {
  static const char *const known[] = {"bits", "instances", "seed", "arrangement", "oblivious", "instructions", NULL};
  if (!ms_param_check(params, known, "gcd", error)) return NULL;
  int alg = -1;
  for (int i = 0; algorithm && ms_gcd_algorithms[i]; i++)
    if (strcmp(algorithm, ms_gcd_algorithms[i]) == 0) alg = i;
  if (alg < 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "gcd: unknown algorithm \"%s\" (original, fast, binary, fast-binary, approximate)",
                algorithm ? algorithm : "");
    return NULL;
  }
  guint64 bits, P, seed, obl, instr;
  if (!ms_param_uint(params, "instructions", 0, 0, MS_MAX_INSTRUCTIONS, &instr, error) ||
      !ms_param_uint(params, "bits", 1024, 32, 1u << 20, &bits, error) ||
      !ms_param_uint(params, "instances", 1024, 1, 1u << 24, &P, error) ||
      !ms_param_uint(params, "seed", 1, 0, G_MAXUINT64, &seed, error))
    return NULL;
  const char *ob = ms_param_str(params, "oblivious", "0");
  if (strcmp(ob, "true") == 0) obl = 1; /* measurement records write booleans */
  else if (strcmp(ob, "false") == 0) obl = 0;
  else if (!ms_param_uint(params, "oblivious", 0, 0, 1, &obl, error)) return NULL;
  if (bits % 32) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "--bits: %" G_GUINT64_FORMAT " is not a multiple of 32", bits);
    return NULL;
  }
  const char *arr = ms_param_str(params, "arrangement", "column");
  if (strcmp(arr, "column") != 0 && strcmp(arr, "row") != 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "--arrangement: expected column or row, got \"%s\"", arr);
    return NULL;
  }
  if (P * (bits / 32) > (G_GUINT64_CONSTANT(1) << 31)) {
    g_set_error(error, MS_ERROR, MS_ERROR_LIMIT, "gcd: instances x words = %" G_GUINT64_FORMAT " is beyond 2^31",
                P * (bits / 32));
    return NULL;
  }
  {
    /* the instances' numbers (x, y, their GCD: GMP limbs and headers) and per-thread state */
    const double nd = obl ? 1.0 : (double)P;
    char *what = g_strdup_printf("gcd %s bits=%" G_GUINT64_FORMAT " instances=%" G_GUINT64_FORMAT, algorithm, bits, P);
    gboolean fits = ms_workload_memory_check(what, nd * 3.0 * ((double)bits / 8.0 + 48.0) + (double)P * 48.0, error);
    g_free(what);
    if (!fits) return NULL;
  }
  Gcd *G = g_new0(Gcd, 1);
  G->alg = (Alg)alg;
  G->bits = (guint32)bits;
  G->words = (guint32)(bits / 32);
  G->P = P;
  G->oblivious = obl != 0;
  G->nd = G->oblivious ? 1 : P;
  G->row = strcmp(arr, "row") == 0;
  G->x = g_new(mpz_t, G->nd);
  G->y = g_new(mpz_t, G->nd);
  G->g = g_new(mpz_t, G->nd);
  guint64 state = seed;
  for (guint64 t = 0; t < G->nd; t++) {
    mpz_init(G->x[t]);
    mpz_init(G->y[t]);
    mpz_init(G->g[t]);
    random_odd(G->x[t], G->words, &state);
    random_odd(G->y[t], G->words, &state);
    mpz_gcd(G->g[t], G->x[t], G->y[t]);
  }
  mpz_init(G->tmp);
  mpz_init(G->q);
  G->xa = g_new0(guint8, G->nd);
  G->xa_iter = g_new0(guint8, G->nd);
  G->iters = g_new0(guint64, G->nd);
  G->done = g_new0(gboolean, G->nd);
  G->live = G->nd;
  G->pool = g_ptr_array_new();
  G->stats = stats;
  if (stats) memset(stats, 0, sizeof *stats);
  char *name = g_strdup_printf("gcd %s bits=%" G_GUINT64_FORMAT " instances=%" G_GUINT64_FORMAT
                               " seed=%" G_GUINT64_FORMAT " %s%s",
                               algorithm, bits, P, seed, arr, G->oblivious ? " oblivious" : "");
  MsSource *src = ms_source_new(name, P, P, &gcd_funcs, G);
  ms_source_set_global_words(src, 2 * P * G->words); /* the arrays of X and Y */
  g_free(name);
  /* instructions: a compute step before each memory step, over its threads */
  return instr ? ms_source_with_instructions(src, (guint32)instr) : src;
}

MsSource *ms_gcd_source(const char *algorithm, GHashTable *params, GError **error) {
  return ms_gcd_source_with_stats(algorithm, params, NULL, error);
}

gboolean ms_gcd_drain(MsSource *source, GError **error) {
  MsStep step;
  MsNext r;
  while ((r = ms_source_next(source, &step, error)) == MS_NEXT_STEP) {
  }
  return r == MS_NEXT_END;
}
