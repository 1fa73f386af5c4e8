/* ms-sat.c: summed area table algorithms on the asynchronous HMM (seed 001 chapter 6):
 * 2R2W, 4R4W, 4R1W, 2R1W (with recursion on the tile-sum matrix), 1R1W and (1+r)R1W.
 *
 * One description per algorithm, held as a small program of items (memory steps with an
 * address expression, a `when` predicate and a data action on per-thread registers; block
 * and grid barriers; loops).  It is printed as a compact JSON trace, and that text is parsed
 * back by the project's compact reader and executed step by step on real 64-bit data: the
 * addresses the reader produces drive the data actions, so the verified access sequence is
 * the one the simulator sees.  Registers are zeroed and shared memory is poisoned at every
 * grid barrier (a kernel boundary).  Docs: docs/workloads/sat.md. */
#include "ms-sat.h"
#include "ms-perm.h"
#include "../../formats/ms-formats.h"
#include <math.h>
#include <string.h>

enum { K_MEM, K_BSYNC, K_GSYNC, K_LOOP, K_COMP };
enum { A_LD, A_ADD, A_SUB, A_ST, A_LDADD, A_ACCST };
/* RU0 .. RU0 + MAX_UNROLL - 1: the loads of an unrolled prefix loop's group */
#define MAX_UNROLL 8
enum { RX, RS, RT, RU0, NREG = RU0 + MAX_UNROLL };

typedef struct {
  int kind;
  MsOp op;
  MsSpace space;
  char *addr, *when;
  int act, r1, r2;
  guint64 count;
  char *var;
  GPtrArray *body;
  guint64 lo, hi; /* the threads that may be active (a team's range) */
} Item;

static void item_free(gpointer p) {
  Item *it = p;
  g_free(it->addr);
  g_free(it->when);
  g_free(it->var);
  if (it->body) g_ptr_array_free(it->body, TRUE);
  g_free(it);
}

static GPtrArray *list_new(void) { return g_ptr_array_new_with_free_func(item_free); }

static gboolean uses_shared(const GPtrArray *l) {
  for (guint i = 0; i < l->len; i++) {
    const Item *it = g_ptr_array_index(l, i);
    if ((it->kind == K_MEM && it->space == MS_SPACE_SHARED) || (it->body && uses_shared(it->body))) return TRUE;
  }
  return FALSE;
}

static Item *item_new(int kind) {
  Item *it = g_new0(Item, 1);
  it->kind = kind;
  it->hi = G_MAXUINT64;
  return it;
}

/* Mark the items of l from index `from` on (loop bodies included) as active only in
 * threads [lo, hi): the simulator's and the verifier's fill skip the other threads. */
static void set_range(GPtrArray *l, guint from, guint64 lo, guint64 hi) {
  for (guint i = from; i < l->len; i++) {
    Item *it = g_ptr_array_index(l, i);
    it->lo = lo;
    it->hi = hi;
    if (it->body) set_range(it->body, 0, lo, hi);
  }
}

/* Walks a program's steps in order, loops expanded. */
typedef struct {
  GPtrArray *l;
  guint idx;
  guint64 iter, count;
} IterFrame;

typedef struct {
  IterFrame f[64];
  int d;
} Iter;

static void iter_init(Iter *it, GPtrArray *top) {
  it->d = 0;
  it->f[0].l = top;
  it->f[0].idx = 0;
  it->f[0].iter = 0;
  it->f[0].count = 1;
}

static Item *iter_next(Iter *it) {
  for (;;) {
    IterFrame *f = &it->f[it->d];
    if (f->idx >= f->l->len) {
      if (it->d == 0) return NULL;
      if (++f->iter < f->count) f->idx = 0;
      else it->d--;
      continue;
    }
    Item *x = g_ptr_array_index(f->l, f->idx++);
    if (x->kind != K_LOOP) return x;
    if (x->count == 0) continue;
    it->d++;
    it->f[it->d].l = x->body;
    it->f[it->d].idx = 0;
    it->f[it->d].iter = 0;
    it->f[it->d].count = x->count;
  }
}

/* A memory step; takes ownership of addr and when (when may be NULL). */
static void mem(GPtrArray *l, MsOp op, MsSpace sp, int act, int r1, int r2, char *addr, char *when) {
  Item *it = item_new(K_MEM);
  it->op = op;
  it->space = sp;
  it->act = act;
  it->r1 = r1;
  it->r2 = r2;
  it->addr = addr;
  it->when = when;
  g_ptr_array_add(l, it);
}

/* A compute step of `count` dependent instructions (chains, below); takes ownership of when. */
static void comp(GPtrArray *l, guint64 count, char *when) {
  Item *it = item_new(K_COMP);
  it->op = MS_OP_COMPUTE;
  it->count = count;
  it->when = when;
  g_ptr_array_add(l, it);
}

static void sync_(GPtrArray *l, int kind) {
  g_ptr_array_add(l, item_new(kind));
}

/* A loop of `count` iterations; returns its body (NULL-safe: count 0 gives a detached list). */
static GPtrArray *loop(GPtrArray *l, guint64 count, const char *var) {
  Item *it = item_new(K_LOOP);
  it->count = count;
  it->var = g_strdup(var);
  it->body = list_new();
  g_ptr_array_add(l, it);
  return it->body;
}

#define F(...) g_strdup_printf(__VA_ARGS__)

/* ---- the program being built -------------------------------------------------------------- */
typedef struct {
  GPtrArray *items;
  guint64 threads;
} Kernel;

typedef struct {
  guint64 N, W, m, n;
  guint64 T; /* threads per block: W, or the tile kernels' copy threads (2R1W, 1R1W, 1+r) */
  guint64 qa; /* 1+r: tile diagonals done by 2R1W before the 1R1W stages (triangle A) */
  guint64 qb; /* 1+r: tile diagonals done by 2R1W after them (triangle B) */
  GString *arrays;
  guint64 next_base;
  GPtrArray *kernels; /* Kernel* */
  GPtrArray *tail;    /* items after the kernels (stage loops) */
  guint64 tail_threads;
  guint64 sh_words;
  guint64 unroll; /* 2R2W, 4R4W prefix loops: reads per group (1: the paper's order) */
  gboolean chains; /* a compute step of one instruction between a scan step's read and its write
                    * (the running sum's add, kernels/sat.cu's SASS; docs/workloads/sat.md) */
} Prog;

static void add_array(Prog *p, const char *name, guint64 len) {
  /* bases aligned to max(W, 32) words, so that a row of an array starts an address group */
  guint64 al = MAX(p->W, 32);
  p->next_base = (p->next_base + al - 1) / al * al;
  g_string_append_printf(p->arrays, "%s\"%s\": {\"base\": %" G_GUINT64_FORMAT ", \"length\": %" G_GUINT64_FORMAT "}",
                         p->arrays->len ? ", " : "", name, p->next_base, MAX(len, 1));
  p->next_base += MAX(len, 1);
}

static Kernel *kernel_at(Prog *p, guint k) {
  while (p->kernels->len <= k) {
    Kernel *kn = g_new0(Kernel, 1);
    kn->items = list_new();
    g_ptr_array_add(p->kernels, kn);
  }
  return g_ptr_array_index(p->kernels, k);
}

/* Reserve `count` threads (whole blocks) in kernel k; returns the first. */
static guint64 team(Prog *p, Kernel *kn, guint64 count) {
  guint64 f = (kn->threads + p->T - 1) / p->T * p->T;
  kn->threads = f + count;
  return f;
}

static char *range(guint64 f, guint64 c) {
  return F("tid >= %" G_GUINT64_FORMAT " && tid < %" G_GUINT64_FORMAT, f, f + c);
}

/* The loop of a one-thread-per-line prefix sum over elements 1 .. count of a line (element
 * 0 is loaded before it): each element read and added, the running sum written back.
 * The element's address is pre, the element's index, post.  unroll u > 1 is the
 * order nvcc gives kernels/sat.cu's `#pragma unroll 8` loops (SASS: 8 loads, then 8
 * stores; the rest one by one, traces/measured/h100/sass-order.txt): groups of u reads into
 * registers, then u writes of the running sum. */
static void prefix_loop(GPtrArray *l, guint64 count, guint64 u, const char *pre, const char *post, const char *rg) {
  guint64 groups = u > 1 ? count / u : 0, rest = count - groups * u;
  if (groups) {
    GPtrArray *b = loop(l, groups, "q");
    for (guint64 k = 0; k < u; k++) {
      char *e = F("q * %" G_GUINT64_FORMAT " + %" G_GUINT64_FORMAT, u, k + 1);
      mem(b, MS_OP_READ, MS_SPACE_GLOBAL, A_LD, RU0 + (int)k, 0, g_strconcat(pre, e, post, NULL), g_strdup(rg));
      g_free(e);
    }
    for (guint64 k = 0; k < u; k++) {
      char *e = F("q * %" G_GUINT64_FORMAT " + %" G_GUINT64_FORMAT, u, k + 1);
      mem(b, MS_OP_WRITE, MS_SPACE_GLOBAL, A_ACCST, RX, RU0 + (int)k, g_strconcat(pre, e, post, NULL), g_strdup(rg));
      g_free(e);
    }
  }
  if (rest) {
    GPtrArray *b = loop(l, rest, "j");
    char *e = F("j + %" G_GUINT64_FORMAT, groups * u + 1);
    char *a = g_strconcat(pre, e, post, NULL);
    g_free(e);
    mem(b, MS_OP_READ, MS_SPACE_GLOBAL, A_ADD, RX, 0, g_strdup(a), g_strdup(rg));
    mem(b, MS_OP_WRITE, MS_SPACE_GLOBAL, A_ST, RX, 0, a, g_strdup(rg));
  }
}

/* Column-wise prefix sums of arr (rows x cols, row-major), one thread per column (2R2W). */
static void colprefix(Prog *p, Kernel *kn, const char *arr, guint64 rows, guint64 cols) {
  guint64 f = team(p, kn, cols);
  guint start_ = kn->items->len;
  char *rg = range(f, cols);
  mem(kn->items, MS_OP_READ, MS_SPACE_GLOBAL, A_LD, RX, 0, F("%s[tid - %" G_GUINT64_FORMAT "]", arr, f), g_strdup(rg));
  char *pre = F("%s[(", arr), *post = F(") * %" G_GUINT64_FORMAT " + tid - %" G_GUINT64_FORMAT "]", cols, f);
  prefix_loop(kn->items, rows - 1, p->unroll, pre, post, rg);
  g_free(pre);
  g_free(post);
  g_free(rg);
  set_range(kn->items, start_, f, f + (cols));
}

/* Row-wise prefix sums, one thread per row: stride access (2R2W). */
static void rowprefix(Prog *p, Kernel *kn, const char *arr, guint64 N) {
  guint64 f = team(p, kn, N);
  guint start_ = kn->items->len;
  char *rg = range(f, N);
  mem(kn->items, MS_OP_READ, MS_SPACE_GLOBAL, A_LD, RX, 0, F("%s[(tid - %" G_GUINT64_FORMAT ") * %" G_GUINT64_FORMAT "]", arr, f, N), g_strdup(rg));
  char *pre = F("%s[(tid - %" G_GUINT64_FORMAT ") * %" G_GUINT64_FORMAT " + ", arr, f, N);
  prefix_loop(kn->items, N - 1, p->unroll, pre, "]", rg);
  g_free(pre);
  g_free(rg);
  set_range(kn->items, start_, f, f + (N));
}

/* Diagonal arrangement of a W x W tile in shared memory: (r, c) at sh[r*W + (r+c) % W]. */
static char *diag(guint64 W, const char *r, const char *c) {
  return F("sh[(%s) * %" G_GUINT64_FORMAT " + ((%s) + (%s)) %% %" G_GUINT64_FORMAT "]", r, W, r, c, W);
}

/* Transpose src -> dst (N x N) through shared memory, one block of W threads per tile
 * (4R4W): thread c reads column c of the tile row by row, then writes row c of the tile's
 * transpose position from the diagonal arrangement. */
static void transpose(Prog *p, Kernel *kn, const char *src, const char *dst) {
  guint64 W = p->W, m = p->m, N = p->N;
  guint64 f = team(p, kn, m * m * W);
  guint64 b0 = f / W;
  guint start_ = kn->items->len;
  char *rg = range(f, m * m * W);
  char *bi = F("((bid - %" G_GUINT64_FORMAT ") / %" G_GUINT64_FORMAT ")", b0, m);
  char *bj = F("((bid - %" G_GUINT64_FORMAT ") %% %" G_GUINT64_FORMAT ")", b0, m);
  GPtrArray *b = loop(kn->items, W, "r");
  mem(b, MS_OP_READ, MS_SPACE_GLOBAL, A_LD, RX, 0,
      F("%s[(%s * %" G_GUINT64_FORMAT " + r) * %" G_GUINT64_FORMAT " + %s * %" G_GUINT64_FORMAT " + ltid]", src, bi, W, N, bj, W),
      g_strdup(rg));
  mem(b, MS_OP_WRITE, MS_SPACE_SHARED, A_ST, RX, 0, diag(W, "r", "ltid"), g_strdup(rg));
  sync_(kn->items, K_BSYNC);
  b = loop(kn->items, W, "r");
  mem(b, MS_OP_READ, MS_SPACE_SHARED, A_LD, RX, 0, diag(W, "ltid", "r"), g_strdup(rg));
  mem(b, MS_OP_WRITE, MS_SPACE_GLOBAL, A_ST, RX, 0,
      F("%s[(%s * %" G_GUINT64_FORMAT " + r) * %" G_GUINT64_FORMAT " + %s * %" G_GUINT64_FORMAT " + ltid]", dst, bj, W, N, bi, W),
      g_strdup(rg));
  g_free(rg);
  g_free(bi);
  g_free(bj);
  set_range(kn->items, start_, f, f + (m * m * W));
}

static char *and_(const char *a, const char *b) { return F("(%s) && (%s)", a, b); }

/* The threads [f + lo*T, f + hi*T) of a team of mm x mm tiles (tile bid = bi*mm + bj) that
 * hold every tile with dmin <= bi + bj < dlim: the range the simulator and verifier visit
 * (1+r's triangles are a small part of their teams). */
static void tile_span(const Prog *p, guint64 f, guint64 mm, guint64 dmin, guint64 dlim, guint64 *lo, guint64 *hi) {
  guint64 a = G_MAXUINT64, b = 0;
  for (guint64 bi = 0; bi < mm; bi++) {
    /* bj in [max(0, dmin - bi), min(mm, dlim - bi)) */
    guint64 j0 = dmin > bi ? dmin - bi : 0, j1 = dlim > bi ? MIN(mm, dlim - bi) : 0;
    if (j0 >= j1) continue;
    a = MIN(a, bi * mm + j0);
    b = MAX(b, bi * mm + j1);
  }
  if (a == G_MAXUINT64) a = b = 0;
  *lo = f + a * p->T;
  *hi = f + b * p->T;
}

/* ---- 2R1W ------------------------------------------------------------------------------ */
typedef struct {
  int level;
  guint64 M, mm; /* side of the matrix, tiles per side */
  char X[16], RS[16], U[16];
  guint64 dlim; /* only tiles with bi + bj < dlim (1+r's triangle (A)); 2*mm-1 = all */
  guint64 dmin; /* and bi + bj >= dmin (1+r's triangle (B), Step 1 only); 0 = all */
  const char *tag; /* array name prefix ("" or "B") */
  gboolean colt; /* step 3 also writes the row prefixes at tile edges to ColT (1+r) */
} Level;

/* Tile copies with all T threads of a tile's block (seed 001 section 6.6: 128 threads copy a
 * 32 x 32 tile, 32 of them compute): with c = T/W warps per tile, thread ltid moves row
 * q*c + ltid/W, column ltid%W, for q = 0 .. W/c-1; each warp-step is one coalesced row.
 * Shared memory holds the tile in the diagonal arrangement. */
static char *tile_row(const Prog *p, const char *q) {
  return F("(%s) * %" G_GUINT64_FORMAT " + ltid / %" G_GUINT64_FORMAT, q, p->T / p->W, p->W);
}

static char *tile_gaddr(const Prog *p, const char *X, guint64 M, const char *bi, const char *bj, const char *row) {
  return F("%s[(%s * %" G_GUINT64_FORMAT " + %s) * %" G_GUINT64_FORMAT " + %s * %" G_GUINT64_FORMAT " + ltid %% %" G_GUINT64_FORMAT "]", X,
           bi, p->W, row, M, bj, p->W, p->W);
}

/* Global -> shared.  With add_first the first copy is an add into RX: the compute threads'
 * row-0 corrections are there; the other threads' RX is still 0 from the kernel start
 * (the verifier zeroes registers at every kernel boundary and would catch a wrong sum). */
static void tile_copy_in(Prog *p, GPtrArray *l, const char *X, guint64 M, const char *bi, const char *bj, const char *act,
                         gboolean add_first) {
  guint64 W = p->W, reps = W / (p->T / W);
  char *col = F("ltid %% %" G_GUINT64_FORMAT, W);
  if (add_first) {
    char *r0 = tile_row(p, "0");
    mem(l, MS_OP_READ, MS_SPACE_GLOBAL, A_ADD, RX, 0, tile_gaddr(p, X, M, bi, bj, r0), g_strdup(act));
    mem(l, MS_OP_WRITE, MS_SPACE_SHARED, A_ST, RX, 0, diag(W, r0, col), g_strdup(act));
    g_free(r0);
  }
  if (reps > (add_first ? 1u : 0u)) {
    GPtrArray *b = loop(l, reps - (add_first ? 1 : 0), "q");
    char *row = tile_row(p, add_first ? "q + 1" : "q");
    mem(b, MS_OP_READ, MS_SPACE_GLOBAL, A_LD, RX, 0, tile_gaddr(p, X, M, bi, bj, row), g_strdup(act));
    mem(b, MS_OP_WRITE, MS_SPACE_SHARED, A_ST, RX, 0, diag(W, row, col), g_strdup(act));
    g_free(row);
  }
  g_free(col);
}

/* Shared -> global, all T threads. */
static void tile_copy_out(Prog *p, GPtrArray *l, const char *X, guint64 M, const char *bi, const char *bj, const char *act) {
  guint64 W = p->W, reps = W / (p->T / W);
  GPtrArray *b = loop(l, reps, "q");
  char *row = tile_row(p, "q");
  char *col = F("ltid %% %" G_GUINT64_FORMAT, W);
  mem(b, MS_OP_READ, MS_SPACE_SHARED, A_LD, RX, 0, diag(W, row, col), g_strdup(act));
  mem(b, MS_OP_WRITE, MS_SPACE_GLOBAL, A_ST, RX, 0, tile_gaddr(p, X, M, bi, bj, row), g_strdup(act));
  g_free(row);
  g_free(col);
}

/* Step 1: per tile, the tile is copied into shared memory; its W compute threads take
 * column sums -> Rm (tile rows 0..mm-2), row sums -> St (St = S^T, tile columns 0..mm-2),
 * and the tile sum -> U (tree reduction in shared memory). */
static guint64 r2_step1(Prog *p, Kernel *kn, const Level *L) {
  guint64 W = p->W, T = p->T, M = L->M, mm = L->mm;
  guint64 f = team(p, kn, mm * mm * T);
  guint64 b0 = f / T;
  guint start_ = kn->items->len;
  char *bi = F("((bid - %" G_GUINT64_FORMAT ") / %" G_GUINT64_FORMAT ")", b0, mm);
  char *bj = F("((bid - %" G_GUINT64_FORMAT ") %% %" G_GUINT64_FORMAT ")", b0, mm);
  char *r0 = range(f, mm * mm * T);
  char *dl = L->dmin ? F("%s + %s < %" G_GUINT64_FORMAT " && %s + %s >= %" G_GUINT64_FORMAT, bi, bj, L->dlim, bi, bj, L->dmin)
                     : F("%s + %s < %" G_GUINT64_FORMAT, bi, bj, L->dlim);
  char *rg = and_(r0, dl);
  char *cw = F("ltid < %" G_GUINT64_FORMAT, W);
  char *cg = and_(rg, cw); /* the compute threads */
  tile_copy_in(p, kn->items, L->X, M, bi, bj, rg, FALSE);
  sync_(kn->items, K_BSYNC);
  GPtrArray *b = loop(kn->items, W, "r");
  mem(b, MS_OP_READ, MS_SPACE_SHARED, A_ADD, RS, 0, diag(W, "r", "ltid"), g_strdup(cg));
  char *c1 = F("%s < %" G_GUINT64_FORMAT, bi, mm - 1);
  mem(kn->items, MS_OP_WRITE, MS_SPACE_GLOBAL, A_ST, RS, 0,
      F("%s[%s * %" G_GUINT64_FORMAT " + %s * %" G_GUINT64_FORMAT " + ltid]", L->RS, bi, M, bj, W), and_(cg, c1));
  b = loop(kn->items, W, "c");
  mem(b, MS_OP_READ, MS_SPACE_SHARED, A_ADD, RT, 0, diag(W, "ltid", "c"), g_strdup(cg));
  char *c2 = F("%s < %" G_GUINT64_FORMAT, bj, mm - 1);
  mem(kn->items, MS_OP_WRITE, MS_SPACE_GLOBAL, A_ST, RT, 0,
      F("%s[%" G_GUINT64_FORMAT " + %s * %" G_GUINT64_FORMAT " + %s * %" G_GUINT64_FORMAT " + ltid]", L->RS,
        (mm - 1) * M, bj, M, bi, W),
      and_(cg, c2));
  /* tile sum: the W row sums reduced in a tree */
  mem(kn->items, MS_OP_WRITE, MS_SPACE_SHARED, A_ST, RT, 0, F("sh[%" G_GUINT64_FORMAT " + ltid]", W * W), g_strdup(cg));
  guint64 lg = 0;
  while ((G_GUINT64_CONSTANT(1) << lg) < W) lg++;
  b = loop(kn->items, lg, "h");
  sync_(b, K_BSYNC);
  char *half = F("ltid < (%" G_GUINT64_FORMAT " >> (h + 1))", W);
  mem(b, MS_OP_READ, MS_SPACE_SHARED, A_ADD, RT, 0, F("sh[%" G_GUINT64_FORMAT " + ltid + (%" G_GUINT64_FORMAT " >> (h + 1))]", W * W, W),
      and_(rg, half));
  mem(b, MS_OP_WRITE, MS_SPACE_SHARED, A_ST, RT, 0, F("sh[%" G_GUINT64_FORMAT " + ltid]", W * W), and_(rg, half));
  mem(kn->items, MS_OP_WRITE, MS_SPACE_GLOBAL, A_ST, RT, 0, F("%s[%s * %" G_GUINT64_FORMAT " + %s]", L->U, bi, mm, bj),
      and_(rg, "ltid == 0"));
  g_free(half);
  g_free(c1);
  g_free(c2);
  g_free(bi);
  g_free(bj);
  g_free(r0);
  g_free(dl);
  g_free(rg);
  g_free(cw);
  g_free(cg);
  guint64 lo, hi;
  tile_span(p, f, mm, L->dmin, L->dlim, &lo, &hi);
  set_range(kn->items, start_, lo, hi);
  return f;
}

/* Step 2 (the prefix part): column-wise prefix sums of Rm and of St (= row-wise prefix sums
 * of S), one thread per column of the 2(mm-1) x M array RS. */
static void r2_step2(Prog *p, Kernel *kn, const Level *L) {
  guint64 W = p->W, M = L->M, mm = L->mm, rows = mm - 1;
  guint64 f = team(p, kn, 2 * M);
  guint start_ = kn->items->len;
  char *r0 = range(f, 2 * M);
  char *j = F("(tid - %" G_GUINT64_FORMAT ")", f);
  /* the prefix of row q is needed by tile (q+1, col) (Rm) or (row, q+1) (St) */
  char *blk = F("((%s %% %" G_GUINT64_FORMAT ") / %" G_GUINT64_FORMAT ")", j, M, W);
  char *c0 = F("%s && 1 + %s < %" G_GUINT64_FORMAT, r0, blk, L->dlim);
  mem(kn->items, MS_OP_READ, MS_SPACE_GLOBAL, A_LD, RX, 0,
      F("%s[(%s / %" G_GUINT64_FORMAT ") * %" G_GUINT64_FORMAT " + %s %% %" G_GUINT64_FORMAT "]", L->RS, j, M, rows * M, j, M),
      g_strdup(c0));
  if (rows > 1) {
    GPtrArray *b = loop(kn->items, rows - 1, "q");
    char *a = F("%s[(%s / %" G_GUINT64_FORMAT ") * %" G_GUINT64_FORMAT " + (q + 1) * %" G_GUINT64_FORMAT " + %s %% %" G_GUINT64_FORMAT "]",
                L->RS, j, M, rows * M, M, j, M);
    char *c = F("%s && q + 2 + %s < %" G_GUINT64_FORMAT, r0, blk, L->dlim);
    mem(b, MS_OP_READ, MS_SPACE_GLOBAL, A_ADD, RX, 0, g_strdup(a), g_strdup(c));
    mem(b, MS_OP_WRITE, MS_SPACE_GLOBAL, A_ST, RX, 0, a, c);
  }
  g_free(r0);
  g_free(j);
  g_free(blk);
  g_free(c0);
  set_range(kn->items, start_, f, f + (2 * M));
}

/* SAT of an mm x mm matrix (mm <= W) by one block: rows into shared memory (diagonal
 * arrangement), row-wise prefix, column-wise prefix written back. */
static void small_sat(Prog *p, Kernel *kn, const char *U, guint64 mm) {
  guint64 W = p->W;
  guint64 f = team(p, kn, W);
  guint start_ = kn->items->len;
  char *r0 = range(f, W);
  char *c = F("%s && ltid < %" G_GUINT64_FORMAT, r0, mm);
  GPtrArray *b = loop(kn->items, mm, "r");
  mem(b, MS_OP_READ, MS_SPACE_GLOBAL, A_LD, RX, 0, F("%s[r * %" G_GUINT64_FORMAT " + ltid]", U, mm), g_strdup(c));
  mem(b, MS_OP_WRITE, MS_SPACE_SHARED, A_ST, RX, 0, diag(W, "r", "ltid"), g_strdup(c));
  sync_(kn->items, K_BSYNC);
  b = loop(kn->items, mm, "k");
  mem(b, MS_OP_READ, MS_SPACE_SHARED, A_ADD, RT, 0, diag(W, "ltid", "k"), g_strdup(c));
  if (p->chains) comp(b, 1, g_strdup(c));
  mem(b, MS_OP_WRITE, MS_SPACE_SHARED, A_ST, RT, 0, diag(W, "ltid", "k"), g_strdup(c));
  sync_(kn->items, K_BSYNC);
  b = loop(kn->items, mm, "r");
  mem(b, MS_OP_READ, MS_SPACE_SHARED, A_ADD, RS, 0, diag(W, "r", "ltid"), g_strdup(c));
  if (p->chains) comp(b, 1, g_strdup(c));
  mem(b, MS_OP_WRITE, MS_SPACE_GLOBAL, A_ST, RS, 0, F("%s[r * %" G_GUINT64_FORMAT " + ltid]", U, mm), g_strdup(c));
  g_free(r0);
  g_free(c);
  set_range(kn->items, start_, f, f + (W));
}

/* The SAT of one tile in shared memory, shared by 2R1W Step 3 and the 1R1W stages.
 * `pre` leaves, in the compute threads (ltid < W, act_c), the row-0 corrections of column
 * ltid in RX, the row-pass start of row ltid in RT and the column-pass start of column ltid
 * in RS.  All T threads copy the tile in (row 0 added to RX), the compute threads do the
 * row-wise prefix of row ltid from RT (optionally writing t, the row prefix up to the tile's
 * right edge, to ColT[bj][row]) and the column-wise prefix of column ltid from RS, in place,
 * and all T threads copy the tile out to X. */
typedef struct {
  const char *X;
  guint64 M;
  const char *bi, *bj, *act, *act_c;
} Tile;

static void tile_sat(Prog *p, GPtrArray *l, const Tile *T, void (*pre)(Prog *, GPtrArray *, const Tile *, gpointer),
                     gpointer data, gboolean colt) {
  guint64 W = p->W;
  if (pre) pre(p, l, T, data);
  tile_copy_in(p, l, T->X, T->M, T->bi, T->bj, T->act, TRUE);
  sync_(l, K_BSYNC);
  GPtrArray *b = loop(l, W, "c");
  mem(b, MS_OP_READ, MS_SPACE_SHARED, A_ADD, RT, 0, diag(W, "ltid", "c"), g_strdup(T->act_c));
  if (p->chains) comp(b, 1, g_strdup(T->act_c));
  mem(b, MS_OP_WRITE, MS_SPACE_SHARED, A_ST, RT, 0, diag(W, "ltid", "c"), g_strdup(T->act_c));
  if (colt) {
    char *c = F("%s < %" G_GUINT64_FORMAT, T->bj, p->m - 1);
    mem(l, MS_OP_WRITE, MS_SPACE_GLOBAL, A_ST, RT, 0,
        F("ColT[%s * %" G_GUINT64_FORMAT " + %s * %" G_GUINT64_FORMAT " + ltid]", T->bj, p->N, T->bi, W), and_(T->act_c, c));
    g_free(c);
  }
  sync_(l, K_BSYNC);
  b = loop(l, W, "r");
  mem(b, MS_OP_READ, MS_SPACE_SHARED, A_ADD, RS, 0, diag(W, "r", "ltid"), g_strdup(T->act_c));
  if (p->chains) comp(b, 1, g_strdup(T->act_c));
  mem(b, MS_OP_WRITE, MS_SPACE_SHARED, A_ST, RS, 0, diag(W, "r", "ltid"), g_strdup(T->act_c));
  sync_(l, K_BSYNC);
  tile_copy_out(p, l, T->X, T->M, T->bi, T->bj, T->act);
}


/* 2R1W Step 3 corrections: column sums above (Rm prefix) and the corner block sum (U SAT)
 * are added to row 0; the row sums to the left (St prefix) start the row pass. */
static void pre_2r1w(Prog *p, GPtrArray *l, const Tile *T, gpointer data) {
  const Level *L = data;
  guint64 W = p->W, M = L->M, mm = L->mm;
  char *c = F("%s > 0", T->bi);
  mem(l, MS_OP_READ, MS_SPACE_GLOBAL, A_ADD, RX, 0,
      F("%s[(%s - 1) * %" G_GUINT64_FORMAT " + %s * %" G_GUINT64_FORMAT " + ltid]", L->RS, T->bi, M, T->bj, W), and_(T->act_c, c));
  g_free(c);
  c = F("ltid == 0 && %s > 0 && %s > 0", T->bi, T->bj);
  mem(l, MS_OP_READ, MS_SPACE_GLOBAL, A_ADD, RX, 0, F("%s[(%s - 1) * %" G_GUINT64_FORMAT " + %s - 1]", L->U, T->bi, mm, T->bj),
      and_(T->act_c, c));
  g_free(c);
  c = F("%s > 0", T->bj);
  mem(l, MS_OP_READ, MS_SPACE_GLOBAL, A_LD, RT, 0,
      F("%s[%" G_GUINT64_FORMAT " + (%s - 1) * %" G_GUINT64_FORMAT " + %s * %" G_GUINT64_FORMAT " + ltid]", L->RS, (mm - 1) * M,
        T->bj, M, T->bi, W),
      and_(T->act_c, c));
  g_free(c);
}

/* 1R1W: the SAT row above the tile starts the column pass; the row prefixes at the left
 * edge (ColT of the tile to the left) start the row pass. */
static void pre_1r1w(Prog *p, GPtrArray *l, const Tile *T, gpointer data) {
  (void)data;
  guint64 W = p->W, N = p->N;
  char *c = F("%s > 0", T->bj);
  mem(l, MS_OP_READ, MS_SPACE_GLOBAL, A_LD, RT, 0,
      F("ColT[(%s - 1) * %" G_GUINT64_FORMAT " + %s * %" G_GUINT64_FORMAT " + ltid]", T->bj, N, T->bi, W), and_(T->act_c, c));
  g_free(c);
  if (p->qa > 0) {
    /* a left neighbour done by 2R1W wrote its row 0 with the corrections of its row 0
     * (the SAT value above its top-right corner, = our top-left corner): take it off */
    c = F("ltid == 0 && %s > 0 && %s > 0 && %s + %s - 1 < %" G_GUINT64_FORMAT, T->bi, T->bj, T->bi, T->bj, p->qa);
    mem(l, MS_OP_READ, MS_SPACE_GLOBAL, A_SUB, RT, 0,
        F("a[(%s * %" G_GUINT64_FORMAT " - 1) * %" G_GUINT64_FORMAT " + %s * %" G_GUINT64_FORMAT " - 1]", T->bi, W, N, T->bj, W),
        and_(T->act_c, c));
    g_free(c);
  }
  c = F("%s > 0", T->bi);
  mem(l, MS_OP_READ, MS_SPACE_GLOBAL, A_LD, RS, 0,
      F("a[(%s * %" G_GUINT64_FORMAT " - 1) * %" G_GUINT64_FORMAT " + %s * %" G_GUINT64_FORMAT " + ltid]", T->bi, W, N, T->bj, W),
      and_(T->act_c, c));
  g_free(c);
}

static void r2_step3(Prog *p, Kernel *kn, const Level *L) {
  guint64 T_ = p->T, mm = L->mm;
  guint64 f = team(p, kn, mm * mm * T_);
  guint64 b0 = f / T_;
  guint start_ = kn->items->len;
  char *bi = F("((bid - %" G_GUINT64_FORMAT ") / %" G_GUINT64_FORMAT ")", b0, mm);
  char *bj = F("((bid - %" G_GUINT64_FORMAT ") %% %" G_GUINT64_FORMAT ")", b0, mm);
  char *r0 = range(f, mm * mm * T_);
  char *dl = F("%s + %s < %" G_GUINT64_FORMAT, bi, bj, L->dlim);
  char *act = and_(r0, dl);
  char *act_c = F("%s && ltid < %" G_GUINT64_FORMAT, act, p->W);
  Tile T = {L->X, L->M, bi, bj, act, act_c};
  tile_sat(p, kn->items, &T, mm > 1 ? pre_2r1w : NULL, (gpointer)L, L->colt);
  g_free(bi);
  g_free(bj);
  g_free(r0);
  g_free(dl);
  g_free(act);
  g_free(act_c);
  guint64 lo, hi;
  tile_span(p, f, mm, 0, L->dlim, &lo, &hi);
  set_range(kn->items, start_, lo, hi);
}

/* 2R1W on L from kernel k0; returns the last kernel used.  Recursion (seed 001 section 6.3
 * Step 2): if the tile-sum matrix is larger than one tile, 2R1W runs on it, its Step 1 in
 * the same kernel as this level's prefix sums. */
static guint r2_emit(Prog *p, Level *L, guint k0, GError **error) {
  if (L->mm == 1) { /* one tile: Step 3 alone */
    r2_step3(p, kernel_at(p, k0), L);
    return k0;
  }
  g_snprintf(L->RS, sizeof L->RS, "RS%s%d", L->tag ? L->tag : "", L->level);
  g_snprintf(L->U, sizeof L->U, "U%s%d", L->tag ? L->tag : "", L->level);
  add_array(p, L->RS, 2 * (L->mm - 1) * L->M);
  add_array(p, L->U, L->mm * L->mm);
  r2_step1(p, kernel_at(p, k0), L);
  r2_step2(p, kernel_at(p, k0 + 1), L);
  guint e = k0 + 1;
  if (L->mm <= p->W) {
    small_sat(p, kernel_at(p, k0 + 1), L->U, L->mm);
  } else {
    if (L->mm % p->W != 0) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                  "sat: 2r1w: the %" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT " tile-sum matrix is larger than one block "
                  "and not a multiple of --block %" G_GUINT64_FORMAT " (recursion needs n/W <= W or a multiple of W)",
                  L->mm, L->mm, p->W);
      return G_MAXUINT;
    }
    Level in = {.level = L->level + 1, .M = L->mm, .mm = L->mm / p->W, .dlim = 2 * (L->mm / p->W), .tag = L->tag};
    g_strlcpy(in.X, L->U, sizeof in.X);
    e = r2_emit(p, &in, k0 + 1, error);
    if (e == G_MAXUINT) return e;
  }
  r2_step3(p, kernel_at(p, e + 1), L);
  return e + 1;
}

/* ---- (1+r)R1W triangle (B): 2R1W after the 1R1W stages --------------------------------- */
/* B is the tiles with bi + bj >= D0 = 2m - 1 - qb (qb <= m - 1, so every tile column of B has
 * a finished tile above it and every tile row a finished tile to its left).  For (x, y) in
 * tile (bi, bj) of B, with bt the first row of B in tile column bj and L[x] the sum of row x
 * left of the tile:
 *   b[x][y] = b[bt-1][y]                                   (finished SAT row above B: RS)
 *           + sum_{y'=left..y} sum_{x'=bt..top-1} a[x'][y']  (column sums of the B tiles
 *                                                         above, prefixed from 0: row 0)
 *           + sum_{x'=bt..top-1} L[x']                     (corner Q, added at (0, 0))
 *           + sum_{x'=top..x} (L[x'] + sum_{y'=left..y} a[x'][y'])   (the tile itself, row
 *                                                         pass from L: RT).
 * L comes from the row-wise prefix of the B tiles' row sums starting at ColT of the finished
 * tile left of B; Q(bi, bj) is the SAT at (bi-1, bj-1) of the tile-sum matrix U' that holds
 * B's tile sums, and in the cell left of B in each tile row the sum of that row's ColT
 * values (a difference of two finished SAT values), zeros elsewhere. */
typedef struct {
  guint64 D0;
  char RS[16], U[16];
} BRegion;

/* Step 1 extras: the boundary cell of U' for each tile row of B (thread 0 of the first B
 * tile of the row) and the zero cells (a team of m^2 threads, one per cell). */
static void b_step1_extra(Prog *p, Kernel *kn, guint64 f, const BRegion *B) {
  guint64 W = p->W, m = p->m, N = p->N, b0 = f / p->T;
  guint start_ = kn->items->len;
  char *bi = F("((bid - %" G_GUINT64_FORMAT ") / %" G_GUINT64_FORMAT ")", b0, m);
  char *bj = F("((bid - %" G_GUINT64_FORMAT ") %% %" G_GUINT64_FORMAT ")", b0, m);
  char *c = F("tid >= %" G_GUINT64_FORMAT " && tid < %" G_GUINT64_FORMAT " && ltid == 0 && %s + %s == %" G_GUINT64_FORMAT, f,
              f + m * m * p->T, bi, bj, B->D0);
  mem(kn->items, MS_OP_READ, MS_SPACE_GLOBAL, A_LD, RX, 0,
      F("a[(%s * %" G_GUINT64_FORMAT " + %" G_GUINT64_FORMAT ") * %" G_GUINT64_FORMAT " + %s * %" G_GUINT64_FORMAT " - 1]", bi, W, W - 1,
        N, bj, W),
      g_strdup(c));
  mem(kn->items, MS_OP_READ, MS_SPACE_GLOBAL, A_SUB, RX, 0,
      F("a[(%s * %" G_GUINT64_FORMAT " - 1) * %" G_GUINT64_FORMAT " + %s * %" G_GUINT64_FORMAT " - 1]", bi, W, N, bj, W), g_strdup(c));
  mem(kn->items, MS_OP_WRITE, MS_SPACE_GLOBAL, A_ST, RX, 0, F("%s[%s * %" G_GUINT64_FORMAT " + %s - 1]", B->U, bi, m, bj), c);
  set_range(kn->items, start_, f, f + m * m * p->T);
  g_free(bi);
  g_free(bj);
  /* zeros: the cells before the boundary diagonal, and (m-1-qb, m-1) on it */
  guint64 z = team(p, kn, m * m);
  start_ = kn->items->len;
  char *e = F("(tid - %" G_GUINT64_FORMAT ")", z);
  mem(kn->items, MS_OP_WRITE, MS_SPACE_GLOBAL, A_ST, RX, 0, F("%s[%s]", B->U, e),
      F("tid >= %" G_GUINT64_FORMAT " && tid < %" G_GUINT64_FORMAT " && (%s / %" G_GUINT64_FORMAT " + %s %% %" G_GUINT64_FORMAT
        " + 1 < %" G_GUINT64_FORMAT " || %s %% %" G_GUINT64_FORMAT " == %" G_GUINT64_FORMAT " && %s / %" G_GUINT64_FORMAT
        " + %" G_GUINT64_FORMAT " == %" G_GUINT64_FORMAT ")",
        z, z + m * m, e, m, e, m, B->D0, e, m, m - 1, e, m, m, B->D0));
  set_range(kn->items, start_, z, z + m * m);
  g_free(e);
}

/* Step 2: column-wise prefix of the B tiles' column sums from 0 (one thread per column), and
 * row-wise prefix of their row sums from ColT left of B (one thread per row), in place. */
static void b_step2(Prog *p, Kernel *kn, const BRegion *B) {
  guint64 W = p->W, m = p->m, N = p->N, D0 = B->D0;
  guint64 f = team(p, kn, 2 * N);
  guint start_ = kn->items->len;
  char *y = F("(tid - %" G_GUINT64_FORMAT ")", f);
  char *cr = F("tid >= %" G_GUINT64_FORMAT " && tid < %" G_GUINT64_FORMAT, f, f + N);
  GPtrArray *b = loop(kn->items, m - 1, "q");
  char *a = F("%s[q * %" G_GUINT64_FORMAT " + %s]", B->RS, N, y);
  char *c = F("%s && q + %s / %" G_GUINT64_FORMAT " >= %" G_GUINT64_FORMAT, cr, y, W, D0);
  mem(b, MS_OP_READ, MS_SPACE_GLOBAL, A_ADD, RX, 0, g_strdup(a), g_strdup(c));
  mem(b, MS_OP_WRITE, MS_SPACE_GLOBAL, A_ST, RX, 0, a, c);
  g_free(cr);
  g_free(y);
  /* rows: x in tile row bi of B has its first B tile at bj0 = D0 - bi */
  char *x = F("(tid - %" G_GUINT64_FORMAT ")", f + N);
  char *bi = F("(%s / %" G_GUINT64_FORMAT ")", x, W);
  char *rr = F("tid >= %" G_GUINT64_FORMAT " && tid < %" G_GUINT64_FORMAT " && %s + %" G_GUINT64_FORMAT " >= %" G_GUINT64_FORMAT,
               f + N, f + 2 * N, bi, m - 1, D0);
  mem(kn->items, MS_OP_READ, MS_SPACE_GLOBAL, A_LD, RX, 0,
      F("ColT[(%" G_GUINT64_FORMAT " - %s) * %" G_GUINT64_FORMAT " + %s]", D0 - 1, bi, N, x), g_strdup(rr));
  if (D0 - 1 < p->qa) {
    /* the tile left of B was done by 2R1W (A): its row 0 ColT holds the SAT value above
     * its top-right corner too (see pre_1r1w) */
    c = F("%s && %s %% %" G_GUINT64_FORMAT " == 0 && %s > 0", rr, x, W, bi);
    mem(kn->items, MS_OP_READ, MS_SPACE_GLOBAL, A_SUB, RX, 0,
        F("a[(%s * %" G_GUINT64_FORMAT " - 1) * %" G_GUINT64_FORMAT " + (%" G_GUINT64_FORMAT " - %s) * %" G_GUINT64_FORMAT " - 1]", bi, W, N,
          D0, bi, W),
        c);
  }
  mem(kn->items, MS_OP_WRITE, MS_SPACE_GLOBAL, A_ST, RX, 0,
      F("%s[%" G_GUINT64_FORMAT " + (%" G_GUINT64_FORMAT " - %s) * %" G_GUINT64_FORMAT " + %s]", B->RS, (m - 1) * N, D0 - 1, bi, N, x),
      g_strdup(rr));
  b = loop(kn->items, m - 1, "q");
  a = F("%s[%" G_GUINT64_FORMAT " + q * %" G_GUINT64_FORMAT " + %s]", B->RS, (m - 1) * N, N, x);
  c = F("%s && q + %s >= %" G_GUINT64_FORMAT, rr, bi, D0);
  mem(b, MS_OP_READ, MS_SPACE_GLOBAL, A_ADD, RX, 0, g_strdup(a), g_strdup(c));
  mem(b, MS_OP_WRITE, MS_SPACE_GLOBAL, A_ST, RX, 0, a, c);
  g_free(rr);
  g_free(bi);
  g_free(x);
  set_range(kn->items, start_, f, f + 2 * N);
}

static void pre_b(Prog *p, GPtrArray *l, const Tile *T, gpointer data) {
  const BRegion *B = data;
  guint64 W = p->W, N = p->N, m = p->m, D0 = B->D0;
  char *c = F("%s && %s + %s > %" G_GUINT64_FORMAT, T->act_c, T->bi, T->bj, D0);
  mem(l, MS_OP_READ, MS_SPACE_GLOBAL, A_ADD, RX, 0,
      F("%s[(%s - 1) * %" G_GUINT64_FORMAT " + %s * %" G_GUINT64_FORMAT " + ltid]", B->RS, T->bi, N, T->bj, W), g_strdup(c));
  char *c0 = F("%s && ltid == 0", c);
  mem(l, MS_OP_READ, MS_SPACE_GLOBAL, A_ADD, RX, 0, F("%s[(%s - 1) * %" G_GUINT64_FORMAT " + %s - 1]", B->U, T->bi, m, T->bj), c0);
  g_free(c);
  mem(l, MS_OP_READ, MS_SPACE_GLOBAL, A_LD, RT, 0,
      F("%s[%" G_GUINT64_FORMAT " + (%s - 1) * %" G_GUINT64_FORMAT " + %s * %" G_GUINT64_FORMAT " + ltid]", B->RS, (m - 1) * N, T->bj, N,
        T->bi, W),
      g_strdup(T->act_c));
  mem(l, MS_OP_READ, MS_SPACE_GLOBAL, A_LD, RS, 0,
      F("a[((%" G_GUINT64_FORMAT " - %s) * %" G_GUINT64_FORMAT " - 1) * %" G_GUINT64_FORMAT " + %s * %" G_GUINT64_FORMAT " + ltid]", D0,
        T->bj, W, N, T->bj, W),
      g_strdup(T->act_c));
}

/* Triangle B in its own kernels (from 0); returns FALSE with error set. */
static gboolean b_emit(Prog *p, GError **error) {
  guint64 m = p->m, W = p->W, D0 = 2 * m - 1 - p->qb;
  BRegion B = {.D0 = D0};
  g_strlcpy(B.RS, "RSB0", sizeof B.RS);
  g_strlcpy(B.U, "UB0", sizeof B.U);
  add_array(p, B.RS, 2 * (m - 1) * p->N);
  add_array(p, B.U, m * m);
  Level L = {.level = 0, .M = p->N, .mm = m, .dlim = 2 * m, .dmin = D0, .tag = "B"};
  g_strlcpy(L.X, "a", sizeof L.X);
  g_strlcpy(L.RS, B.RS, sizeof L.RS);
  g_strlcpy(L.U, B.U, sizeof L.U);
  Kernel *k0 = kernel_at(p, 0);
  guint64 f = r2_step1(p, k0, &L);
  b_step1_extra(p, k0, f, &B);
  b_step2(p, kernel_at(p, 1), &B);
  guint e = 1;
  if (m <= W) {
    small_sat(p, kernel_at(p, 1), B.U, m);
  } else {
    if (m % W != 0) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                  "sat: 1+r: the %" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT " tile-sum matrix of triangle B is larger than one "
                  "block and not a multiple of --block %" G_GUINT64_FORMAT,
                  m, m, W);
      return FALSE;
    }
    Level in = {.level = 1, .M = m, .mm = m / W, .dlim = 2 * (m / W), .tag = "B"};
    g_strlcpy(in.X, B.U, sizeof in.X);
    e = r2_emit(p, &in, 1, error);
    if (e == G_MAXUINT) return FALSE;
  }
  Kernel *kn = kernel_at(p, e + 1);
  guint64 t = team(p, kn, m * m * p->T);
  guint start_ = kn->items->len;
  char *bi = F("((bid - %" G_GUINT64_FORMAT ") / %" G_GUINT64_FORMAT ")", t / p->T, m);
  char *bj = F("((bid - %" G_GUINT64_FORMAT ") %% %" G_GUINT64_FORMAT ")", t / p->T, m);
  char *act = F("tid >= %" G_GUINT64_FORMAT " && tid < %" G_GUINT64_FORMAT " && %s + %s >= %" G_GUINT64_FORMAT, t, t + m * m * p->T,
                bi, bj, D0);
  char *act_c = F("%s && ltid < %" G_GUINT64_FORMAT, act, W);
  Tile T = {"a", p->N, bi, bj, act, act_c};
  tile_sat(p, kn->items, &T, pre_b, &B, FALSE);
  guint64 lo, hi;
  tile_span(p, t, m, D0, 2 * m, &lo, &hi);
  set_range(kn->items, start_, lo, hi);
  g_free(bi);
  g_free(bj);
  g_free(act);
  g_free(act_c);
  return TRUE;
}

/* ---- stage algorithms (a loop of kernels) ------------------------------------------------ */
/* 4R1W Stage K: Formula (6.1) for all (i, j) with i + j = K, one thread per element, in
 * place (a holds b where already computed). */
static void stage_4r1w(Prog *p, GPtrArray *l, const char *K) {
  guint64 N = p->N;
  char *i0 = F("max(0, %s - %" G_GUINT64_FORMAT ")", K, N - 1);
  char *i = F("(%s + tid)", i0);
  char *j = F("(%s - %s)", K, i);
  char *act = F("tid <= min(%s, %" G_GUINT64_FORMAT ") - %s", K, N - 1, i0);
  mem(l, MS_OP_READ, MS_SPACE_GLOBAL, A_LD, RX, 0, F("a[%s * %" G_GUINT64_FORMAT " + %s]", i, N, j), g_strdup(act));
  mem(l, MS_OP_READ, MS_SPACE_GLOBAL, A_ADD, RX, 0, F("a[%s * %" G_GUINT64_FORMAT " + %s - 1]", i, N, j), F("%s && %s > 0", act, j));
  mem(l, MS_OP_READ, MS_SPACE_GLOBAL, A_ADD, RX, 0, F("a[(%s - 1) * %" G_GUINT64_FORMAT " + %s]", i, N, j), F("%s && %s > 0", act, i));
  mem(l, MS_OP_READ, MS_SPACE_GLOBAL, A_SUB, RX, 0, F("a[(%s - 1) * %" G_GUINT64_FORMAT " + %s - 1]", i, N, j),
      F("%s && %s > 0 && %s > 0", act, i, j));
  mem(l, MS_OP_WRITE, MS_SPACE_GLOBAL, A_ST, RX, 0, F("a[%s * %" G_GUINT64_FORMAT " + %s]", i, N, j), g_strdup(act));
  g_free(i0);
  g_free(i);
  g_free(j);
  g_free(act);
}

/* 1R1W Stage K: the SAT of the tiles (bi, bj) with bi + bj = K, one block of T threads
 * per tile (block t takes the t-th tile of the anti-diagonal from the top). */
static void stage_1r1w(Prog *p, GPtrArray *l, const char *K) {
  guint64 m = p->m;
  char *i0 = F("max(0, %s - %" G_GUINT64_FORMAT ")", K, m - 1);
  char *bi = F("(%s + bid)", i0);
  char *bj = F("(%s - %s)", K, bi);
  char *act = F("bid <= min(%s, %" G_GUINT64_FORMAT ") - %s", K, m - 1, i0);
  char *act_c = F("%s && ltid < %" G_GUINT64_FORMAT, act, p->W);
  Tile T = {"a", p->N, bi, bj, act, act_c};
  tile_sat(p, l, &T, pre_1r1w, NULL, TRUE);
  g_free(i0);
  g_free(bi);
  g_free(bj);
  g_free(act);
  g_free(act_c);
}

/* Stages kfrom..kto of a stage algorithm; `after` is TRUE if kernels precede them. */
static void stages(Prog *p, gboolean after, guint64 kfrom, guint64 kto, guint64 threads,
                   void (*stage)(Prog *, GPtrArray *, const char *)) {
  if (kfrom > kto) return;
  guint start = p->tail->len;
  p->tail_threads = MAX(p->tail_threads, threads);
  if (!after) {
    char *K = F("%" G_GUINT64_FORMAT, kfrom);
    stage(p, p->tail, K);
    g_free(K);
    kfrom++;
  }
  if (kfrom > kto) {
    set_range(p->tail, start, 0, threads);
    return;
  }
  GPtrArray *b = loop(p->tail, kto - kfrom + 1, "k");
  sync_(b, K_GSYNC);
  char *K = F("(k + %" G_GUINT64_FORMAT ")", kfrom);
  stage(p, b, K);
  g_free(K);
  set_range(p->tail, start, 0, threads);
}

/* ---- JSON text ---------------------------------------------------------------------------- */
static const char *const act_names[] = {"load", "add", "subtract", "store", "load+accumulate"};

static void print_items(GString *s, GPtrArray *l, int ind, gboolean *first) {
  for (guint i = 0; i < l->len; i++) {
    Item *it = g_ptr_array_index(l, i);
    g_string_append_printf(s, "%s\n%*s", *first ? "" : ",", ind, "");
    *first = FALSE;
    if (it->kind == K_BSYNC) g_string_append(s, "{\"op\": \"sync\", \"scope\": \"block\"}");
    else if (it->kind == K_GSYNC) g_string_append(s, "{\"op\": \"sync\", \"scope\": \"grid\"}");
    else if (it->kind == K_COMP) {
      g_string_append_printf(s, "{\"op\": \"compute\", \"instructions\": \"%" G_GUINT64_FORMAT "\"", it->count);
      if (it->when) g_string_append_printf(s, ", \"when\": \"%s\"", it->when);
      g_string_append(s, "}");
    } else if (it->kind == K_LOOP) {
      g_string_append_printf(s, "{\"repeat\": %" G_GUINT64_FORMAT ", \"var\": \"%s\", \"steps\": [", it->count, it->var);
      gboolean f2 = TRUE;
      print_items(s, it->body, ind + 2, &f2);
      g_string_append(s, "]}");
    } else {
      (void)act_names;
      g_string_append_printf(s, "{\"op\": \"%s\", \"space\": \"%s\", \"addr\": \"%s\"", ms_op_name(it->op),
                             ms_space_name(it->space), it->addr);
      if (it->when) g_string_append_printf(s, ", \"when\": \"%s\"", it->when);
      g_string_append(s, "}");
    }
  }
}

/* ---- verification: execute the parsed trace on real data ---------------------------------- */
/* Words are 32-bit, arithmetic modulo 2^32 (the reference too).  Threads run in chunks of
 * whole blocks: within a kernel, each chunk runs all of the kernel's steps before the next
 * chunk starts, each chunk reading the trace through its own parsed source.  Blocks of one
 * kernel share nothing but global memory, and none of these algorithms reads in a kernel
 * what another block writes in it, so the result is that of the step order; only one
 * chunk's shared memory and registers are held (shared memory dies at a kernel boundary).
 * By default there is one chunk unless all blocks' shared tiles exceed 256 MB, then four. */
typedef guint32 Word;

typedef struct {
  MsSource *src;
  Iter iter;
  gboolean done;
} Chunk;

typedef struct {
  guint64 P, W, T, G, SH, CT; /* threads, warp and tile width, block threads, global words, shared words per block,
                                 chunk threads */
  guint64 c_lo, c_hi;      /* the chunk running now */
  Word *gmem, *smem, *reg[NREG];
  int nreg; /* registers in use: RU0 + the unroll when it is above 1 */
  guint32 *sh_epoch, epoch;
  guint32 *rg_epoch; /* per block of the chunk: the epoch its registers were zeroed in */
  gint64 *addr;
  MsSatStats st;
  GError **error;
} Exec;

#define POISON 0xdeadbeefu

static gboolean ex_fail(Exec *x, const char *msg, guint64 tid, gint64 a) {
  g_set_error(x->error, MS_ERROR, MS_ERROR_VERIFY, "sat: verification: %s (thread %" G_GUINT64_FORMAT ", address %" G_GINT64_FORMAT ")",
              msg, tid, a);
  return FALSE;
}

static gboolean ex_mem(Exec *x, MsSource *src, const Item *it) {
  const guint64 chunk = 1 << 16;
  guint64 lo = MAX(it->lo, x->c_lo), hi = MIN(MIN(it->hi, x->P), x->c_hi);
  guint64 alo, ahi; /* the threads the trace's `when` can make active (the engine's range too) */
  ms_source_active_range(src, &alo, &ahi);
  lo = MAX(lo, alo);
  hi = MIN(hi, ahi);
  for (guint64 first = lo; first < hi; first += chunk) {
    guint64 cnt = MIN(chunk, hi - first);
    if (!ms_source_fill_repeated(src, first, cnt, x->addr, x->error)) return FALSE;
    /* warps: groups of W threads aligned to W (T is a multiple of W: one block each) */
    const gboolean glob = it->space == MS_SPACE_GLOBAL;
    const int wsh = __builtin_ctzll(x->W);
    Word *r1 = x->reg[it->r1], *r2 = x->reg[it->r2];
    for (guint64 w0 = 0; w0 < cnt;) {
      guint64 wn = MIN(x->W - (first + w0) % x->W, cnt - w0), act = 0;
      gint64 g = -1;
      gboolean one = TRUE;
      Word *mem = x->gmem;
      guint64 lim = x->G;
      guint64 k0 = w0;
      while (k0 < w0 + wn && x->addr[k0] < 0) k0++;
      if (k0 == w0 + wn) { /* no active lane */
        w0 += wn;
        continue;
      }
      const guint64 blk = (first + w0 - x->c_lo) / x->T;
      if (x->rg_epoch[blk] != x->epoch) { /* the block's registers, zeroed at its first use in the kernel */
        const guint64 t0 = blk * x->T, tn = MIN(x->T, x->c_hi - x->c_lo - t0);
        for (int r = 0; r < x->nreg; r++) memset(x->reg[r] + t0, 0, sizeof(Word) * tn);
        x->rg_epoch[blk] = x->epoch;
      }
      if (!glob) { /* the block's shared memory, poisoned at its first use in the kernel */
        if (x->sh_epoch[blk] != x->epoch) {
          for (guint64 q = 0; q < x->SH; q++) x->smem[blk * x->SH + q] = POISON;
          x->sh_epoch[blk] = x->epoch;
        }
        mem = x->smem + blk * x->SH;
        lim = x->SH;
      }
      const gint64 *ad = x->addr;
      for (guint64 k = k0; k < w0 + wn; k++) { /* the addresses' checks, then the actions */
        const gint64 a = ad[k];
        if (a < 0) continue;
        act++;
        if ((guint64)a >= lim)
          return ex_fail(x, glob ? "global address beyond the arrays" : "shared address beyond the block's shared memory",
                         first + k, a);
        if (glob) { /* W is a power of two (sat_build), a >= 0 */
          if (g < 0) g = a >> wsh;
          else if (a >> wsh != g) one = FALSE;
        }
      }
      Word *q1 = r1 + (first - x->c_lo), *q2 = r2 + (first - x->c_lo); /* lane k's registers: q[k] */
#define ACT(STMT)                                      \
  for (guint64 k = k0; k < w0 + wn; k++) {             \
    const gint64 a = ad[k];                            \
    if (a >= 0) { STMT; }                              \
  }
      switch (it->act) {
      case A_LD: ACT(q1[k] = mem[a]); break;
      case A_ADD: ACT(q1[k] += mem[a]); break;
      case A_SUB: ACT(q1[k] -= mem[a]); break;
      case A_ST: ACT(mem[a] = q1[k]); break;
      case A_ACCST: ACT(mem[a] = q1[k] += q2[k]); break;
      default: ACT(q1[k] = mem[a]; q2[k] += mem[a]); break;
      }
#undef ACT
      w0 += wn;
      if (!act) continue;
      gboolean rd = it->op == MS_OP_READ;
      if (it->space == MS_SPACE_SHARED) *(rd ? &x->st.shared_reads : &x->st.shared_writes) += act;
      else if (one) *(rd ? &x->st.coalesced_reads : &x->st.coalesced_writes) += act;
      else *(rd ? &x->st.stride_reads : &x->st.stride_writes) += act;
    }
  }
  return TRUE;
}

/* Run chunk c through the steps of one kernel (up to and including the next grid barrier,
 * or the end); `count` says whether barriers and steps are counted (the first chunk). */
static gboolean ex_kernel(Exec *x, Chunk *c, gboolean count) {
  x->epoch++; /* registers zeroed and shared memory poisoned, block by block as they are used (ex_mem) */
  for (;;) {
    Item *it = iter_next(&c->iter);
    MsStep st;
    MsNext nx = ms_source_next(c->src, &st, x->error);
    if (nx == MS_NEXT_ERROR) return FALSE;
    if (!it) {
      if (nx != MS_NEXT_END) return ex_fail(x, "the parsed trace has steps past the description", 0, -1);
      c->done = TRUE;
      return TRUE;
    }
    gboolean ok = nx == MS_NEXT_STEP;
    if (ok && it->kind == K_MEM) ok = st.op == it->op && st.space == it->space;
    else if (ok && it->kind == K_COMP) ok = st.op == MS_OP_COMPUTE;
    else if (ok) ok = st.op == MS_OP_SYNC && st.scope == (it->kind == K_BSYNC ? MS_SCOPE_BLOCK : MS_SCOPE_GRID);
    if (!ok) return ex_fail(x, "the parsed trace does not follow the description", 0, -1);
    if (count) x->st.steps++;
    if (it->kind == K_GSYNC) { /* kernel boundary: registers and shared memory are lost */
      if (count) x->st.grid_barriers++;
      return TRUE;
    } else if (it->kind == K_BSYNC) {
      if (count) x->st.block_barriers++;
    } else if (it->kind == K_COMP) {
      /* an instruction count: no memory, nothing to execute */
    } else if (!ex_mem(x, c->src, it)) {
      return FALSE;
    }
  }
}

/* Execute the whole program, kernel after kernel, chunk after chunk. */
static gboolean ex_run(Exec *x, cJSON *root, GPtrArray *top) {
  guint64 nc = (x->P + x->CT - 1) / x->CT;
  Chunk *cs = g_new0(Chunk, nc);
  gboolean ok = TRUE;
  for (guint64 c = 0; c < nc && ok; c++) {
    cs[c].src = ms_trace_compact_from_json(root, "sat", x->error);
    ok = cs[c].src != NULL;
    iter_init(&cs[c].iter, top);
  }
  while (ok && !cs[0].done) {
    for (guint64 c = 0; c < nc && ok; c++) {
      x->c_lo = c * x->CT;
      x->c_hi = MIN(x->P, x->c_lo + x->CT);
      ok = ex_kernel(x, &cs[c], c == 0);
      if (ok && cs[c].done != cs[0].done) ok = ex_fail(x, "chunks disagree on the end of the trace", x->c_lo, -1);
    }
  }
  for (guint64 c = 0; c < nc; c++) ms_source_free(cs[c].src);
  g_free(cs);
  return ok;
}

static guint64 input_value(guint64 seed, guint64 idx, int values) {
  guint64 s = seed ^ (idx * G_GUINT64_CONSTANT(0x9e3779b97f4a7c15));
  guint64 v = ms_rand_next(&s);
  switch (values) {
  case 0: return v & 0xfffff;               /* random 20-bit */
  case 1: return v | (G_GUINT64_CONSTANT(1) << 31); /* large (>= 2^31 in the 32-bit words): sums wrap */
  default: return 1;                        /* ones */
  }
}

/* ---- the family entry points --------------------------------------------------------------- */
guint64 ms_sat_diagonals_for_r(guint64 m, double r) {
  /* (A) has qa(qa+1)/2 tiles, about r m^2 / 2 (seed 001 section 6.5). */
  guint64 qa = (guint64)llround((double)m * sqrt(r));
  return MIN(qa, m);
}

static void prog_free(Prog *p) {
  for (guint i = 0; i < p->kernels->len; i++) {
    Kernel *k = g_ptr_array_index(p->kernels, i);
    g_ptr_array_free(k->items, TRUE);
    g_free(k);
  }
  g_ptr_array_free(p->kernels, TRUE);
  g_ptr_array_free(p->tail, TRUE);
  g_string_free(p->arrays, TRUE);
}

static char *sat_build(const char *algorithm, GHashTable *params, MsSatStats *stats, GPtrArray **top_out,
                       GError **error) {
  static const char *const known[] = {"n", "block", "tile-threads", "r", "seed", "values", "verify-chunk", "unroll", "chains", NULL};
  static const char *const algs[] = {"2r2w", "4r4w", "4r1w", "2r1w", "1r1w", "1+r", NULL};
  if (!ms_param_check(params, known, "sat", error)) return NULL;
  if (!algorithm || !g_strv_contains(algs, algorithm)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "sat: unknown algorithm \"%s\" (2r2w, 4r4w, 4r1w, 2r1w, 1r1w, 1+r)",
                algorithm ? algorithm : "");
    return NULL;
  }
  guint64 N, W, seed, vchunk, unroll, chains;
  if (!ms_param_uint(params, "block", 32, 2, 1024, &W, error) ||
      !ms_param_uint(params, "chains", 0, 0, 1, &chains, error) ||
      !ms_param_uint(params, "unroll", 1, 1, MAX_UNROLL, &unroll, error) ||
      !ms_param_uint(params, "verify-chunk", G_GUINT64_CONSTANT(1) << 17, 1, G_MAXUINT32, &vchunk, error) ||
      !ms_param_uint(params, "n", 0, 1, G_GUINT64_CONSTANT(1) << 16, &N, error) ||
      !ms_param_uint(params, "seed", 1, 0, G_MAXUINT64, &seed, error))
    return NULL;
  if (!ms_param_str(params, "n", NULL)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "sat: --n is required");
    return NULL;
  }
  if (W & (W - 1)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "sat: --block %" G_GUINT64_FORMAT " is not a power of two", W);
    return NULL;
  }
  if (N % W) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "sat: --n %" G_GUINT64_FORMAT " is not a multiple of --block %" G_GUINT64_FORMAT, N, W);
    return NULL;
  }
  const char *vs = ms_param_str(params, "values", "random");
  int values = strcmp(vs, "random") == 0 ? 0 : strcmp(vs, "large") == 0 ? 1 : strcmp(vs, "ones") == 0 ? 2 : -1;
  if (values < 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "sat: --values: unknown kind \"%s\" (random, large, ones)", vs);
    return NULL;
  }
  /* The tile kernels' blocks (2R1W, 1R1W, 1+r): T threads copy a tile, W of them compute
   * (seed 001 section 6.6 uses 128 threads per 32 x 32 tile); default 4W, at most W^2. */
  gboolean tiled = strcmp(algorithm, "2r1w") == 0 || strcmp(algorithm, "1r1w") == 0 || strcmp(algorithm, "1+r") == 0;
  guint64 T = W;
  if (tiled && !ms_param_uint(params, "tile-threads", MIN(4 * W, W * W), W, W * W, &T, error)) return NULL;
  if (!tiled && ms_param_str(params, "tile-threads", NULL)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "sat: --tile-threads applies to 2r1w, 1r1w and 1+r only");
    return NULL;
  }
  if (T % W || ((T / W) & (T / W - 1))) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "sat: --tile-threads %" G_GUINT64_FORMAT " is not --block %" G_GUINT64_FORMAT " times a power of two", T, W);
    return NULL;
  }
  double r = 0.25;
  const char *rs = ms_param_str(params, "r", NULL);
  if (rs) {
    char *end = NULL;
    r = g_ascii_strtod(rs, &end);
    if (!*rs || *end || !(r >= 0.0 && r <= 1.0)) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "sat: --r: expected a decimal in [0, 1], got \"%s\"", rs);
      return NULL;
    }
    if (strcmp(algorithm, "1+r") != 0) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "sat: --r applies to algorithm 1+r only");
      return NULL;
    }
  }
  Prog P = {0};
  Prog *p = &P;
  p->N = N;
  p->W = W;
  p->T = T;
  p->m = N / W;
  p->n = N * N;
  p->arrays = g_string_new(NULL);
  p->kernels = g_ptr_array_new();
  p->tail = list_new();
  p->sh_words = W * W + W;
  p->unroll = unroll;
  p->chains = chains != 0;
  if (unroll > 1 && strcmp(algorithm, "2r2w") != 0 && strcmp(algorithm, "4r4w") != 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "sat: --unroll applies to 2r2w and 4r4w only");
    g_string_free(p->arrays, TRUE);
    g_ptr_array_free(p->kernels, TRUE);
    g_ptr_array_free(p->tail, TRUE);
    return NULL;
  }
  add_array(p, "a", p->n);
  char *name = NULL;
  gboolean ok = TRUE;
  GPtrArray *bk = NULL; /* 1+r: triangle B's kernels */
  if (strcmp(algorithm, "2r2w") == 0) {
    colprefix(p, kernel_at(p, 0), "a", N, N);
    rowprefix(p, kernel_at(p, 1), "a", N);
    name = F("2R2W SAT of a %" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT " matrix (seed 001 section 6.2)", N, N);
  } else if (strcmp(algorithm, "4r4w") == 0) {
    add_array(p, "b", p->n);
    colprefix(p, kernel_at(p, 0), "a", N, N);
    transpose(p, kernel_at(p, 1), "a", "b");
    colprefix(p, kernel_at(p, 2), "b", N, N);
    transpose(p, kernel_at(p, 3), "b", "a");
    name = F("4R4W SAT of a %" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT " matrix, transposes through diagonal arrangement (seed 001 section 6.2)", N, N);
  } else if (strcmp(algorithm, "4r1w") == 0) {
    stages(p, FALSE, 0, 2 * N - 2, N, stage_4r1w);
    name = F("4R1W SAT of a %" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT " matrix: %" G_GUINT64_FORMAT " anti-diagonal stages (seed 001 section 6.4)", N, N, 2 * N - 1);
  } else if (strcmp(algorithm, "2r1w") == 0) {
    Level L = {.level = 0, .M = N, .mm = p->m, .dlim = 2 * p->m};
    g_strlcpy(L.X, "a", sizeof L.X);
    ok = r2_emit(p, &L, 0, error) != G_MAXUINT;
    name = F("2R1W SAT of a %" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT " matrix, %" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT " tiles (seed 001 section 6.3)", N, N, W, W);
  } else {
    /* 1r1w is 1+r with r = 0 */
    gboolean one = strcmp(algorithm, "1r1w") == 0;
    guint64 m = p->m, qa = one ? 0 : ms_sat_diagonals_for_r(m, r);
    p->qa = qa;
    add_array(p, "ColT", m > 1 ? (m - 1) * N : 1);
    if (qa > 0) {
      Level L = {.level = 0, .M = N, .mm = m, .dlim = qa, .colt = TRUE};
      g_strlcpy(L.X, "a", sizeof L.X);
      ok = r2_emit(p, &L, 0, error) != G_MAXUINT;
    }
    p->qb = MIN(qa, 2 * m - 1 - qa);
    stages(p, qa > 0, qa, 2 * m - 2 - p->qb, m * p->T, stage_1r1w);
    if (ok && p->qb > 0) {
      /* triangle B: its own kernels, after the stages */
      GPtrArray *ka = p->kernels;
      p->kernels = g_ptr_array_new();
      ok = b_emit(p, error);
      bk = p->kernels;
      p->kernels = ka;
    }
    if (one)
      name = F("1R1W SAT of a %" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT " matrix: %" G_GUINT64_FORMAT " tile anti-diagonal stages (seed 001 section 6.4)", N, N, 2 * m - 1);
    else
      name = F("(1+r)R1W SAT of a %" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT " matrix, r = %s: 2R1W on the first %" G_GUINT64_FORMAT
               " tile diagonals, 1R1W stages, 2R1W on the last %" G_GUINT64_FORMAT " (seed 001 section 6.5)",
               N, N, rs ? rs : "0.25", qa, p->qb);
  }
  guint na = p->kernels->len; /* kernels before the stages; B's follow them */
  if (bk) {
    /* prog_free frees p->kernels: hand it B's kernels too */
    while (bk->len) g_ptr_array_add(p->kernels, g_ptr_array_steal_index(bk, 0));
    g_ptr_array_free(bk, TRUE);
    bk = NULL;
  }
  if (!ok) {
    g_free(name);
    prog_free(p);
    return NULL;
  }
  /* flatten: kernels separated by grid barriers, then the stage loops */
  GPtrArray *top = list_new();
  guint64 threads = p->tail_threads;
  for (guint k = 0; k < na; k++) {
    Kernel *kn = g_ptr_array_index(p->kernels, k);
    if (k > 0) sync_(top, K_GSYNC);
    while (kn->items->len) g_ptr_array_add(top, g_ptr_array_steal_index(kn->items, 0));
    threads = MAX(threads, kn->threads);
  }
  while (p->tail->len) g_ptr_array_add(top, g_ptr_array_steal_index(p->tail, 0));
  for (guint k = na; k < p->kernels->len; k++) {
    Kernel *kn = g_ptr_array_index(p->kernels, k);
    sync_(top, K_GSYNC);
    while (kn->items->len) g_ptr_array_add(top, g_ptr_array_steal_index(kn->items, 0));
    threads = MAX(threads, kn->threads);
  }
  threads = (threads + T - 1) / T * T;

  GString *s = g_string_new(NULL);
  g_string_append_printf(s, "{\"memsim_trace\": 1, \"form\": \"compact\",\n \"name\": \"%s\",\n \"threads\": %" G_GUINT64_FORMAT
                            ", \"block_threads\": %" G_GUINT64_FORMAT ",\n", name, threads, T);
  /* the shared tile one block holds (kernels/sat.cu: u32 t[W][W + 1]) */
  if (uses_shared(top)) g_string_append_printf(s, " \"shared_words\": %" G_GUINT64_FORMAT ",\n", p->sh_words);
  /* every global array, alignment included (the L2 extension, docs/models.md) */
  g_string_append_printf(s, " \"global_words\": %" G_GUINT64_FORMAT ",\n", p->next_base);
  g_string_append_printf(s, " \"arrays\": {%s, \"sh\": {\"base\": 0, \"length\": %" G_GUINT64_FORMAT "}},\n \"steps\": [",
                         p->arrays->str, p->sh_words);
  gboolean first = TRUE;
  print_items(s, top, 2, &first);
  g_string_append(s, "]}\n");
  g_free(name);

  /* verify */
  Exec x = {0};
  x.error = error;
  x.P = threads;
  x.W = W;
  x.T = T;
  x.G = p->next_base;
  x.nreg = p->unroll > 1 ? RU0 + (int)p->unroll : RU0;
  x.SH = p->sh_words;
  /* by default one chunk while all blocks' shared tiles fit in 256 MB, else 4 chunks (each
   * chunk's parsed source holds its own expression buffers, ~100 MB) */
  x.CT = MAX(T, vchunk / T * T);
  if (!ms_param_str(params, "verify-chunk", NULL))
    x.CT = threads / T * x.SH * sizeof(guint32) <= (G_GUINT64_CONSTANT(256) << 20) ? threads : ((threads + 3) / 4 + T - 1) / T * T;
  {
    /* the verifier's memory: global words, the chunk's shared tiles and registers */
    guint64 ct = MIN(x.CT, threads), blocks = (ct + T - 1) / T;
    char *what = g_strdup_printf("sat %s n=%" G_GUINT64_FORMAT ": verifying", algorithm, N);
    ok = ms_workload_memory_check(what, 4.0 * ((double)x.G + (double)(blocks * x.SH) + (double)x.nreg * (double)ct + (double)N), error);
    g_free(what);
  }
  cJSON *root = ok ? ms_json_parse(s->str, s->len, "sat", error) : NULL;
  ok = root != NULL;
  if (ok) {
    guint64 ct = MIN(x.CT, threads);
    x.gmem = g_new0(Word, x.G);
    guint64 blocks = (ct + T - 1) / T;
    x.smem = g_new(Word, blocks * x.SH);
    x.sh_epoch = g_new0(guint32, blocks);
    x.rg_epoch = g_new0(guint32, blocks);
    for (int q = 0; q < x.nreg; q++) x.reg[q] = g_new0(Word, ct);
    x.addr = g_new(gint64, 1 << 16);
    for (guint64 i = 0; i < p->n; i++) x.gmem[i] = (Word)input_value(seed, i, values);
    ok = ex_run(&x, root, top);
    /* a straightforward SAT, streamed from the regenerated input */
    if (ok) {
      Word *col = g_new0(Word, N);
      for (guint64 i = 0; i < N && ok; i++) {
        Word run = 0;
        for (guint64 j = 0; j < N; j++) {
          run += (Word)input_value(seed, i * N + j, values);
          col[j] += run;
          if (x.gmem[i * N + j] != col[j]) {
            g_set_error(error, MS_ERROR, MS_ERROR_VERIFY,
                        "sat: verification: %s result at (%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ") is %u, the SAT is %u (mod 2^32)",
                        algorithm, i, j, x.gmem[i * N + j], col[j]);
            ok = FALSE;
            break;
          }
        }
      }
      g_free(col);
    }
    g_free(x.gmem);
    g_free(x.smem);
    g_free(x.sh_epoch);
    g_free(x.rg_epoch);
    for (int q = 0; q < x.nreg; q++) g_free(x.reg[q]);
    g_free(x.addr);
  }
  cJSON_Delete(root);
  x.st.threads = threads;
  x.st.block_threads = T;
  if (ok && stats) *stats = x.st;
  if (ok && top_out) *top_out = top;
  else g_ptr_array_free(top, TRUE);
  prog_free(p);
  if (!ok) {
    g_string_free(s, TRUE);
    return NULL;
  }
  return g_string_free(s, FALSE);
}

/* The source the simulator reads: the parsed compact trace, with fill() asked only for the
 * threads of the step's team (the others are inactive by the step's predicate anyway). */
typedef struct {
  MsSource *inner;
  GPtrArray *top;
  Iter iter;
  Item *cur;
} Wrap;

static MsNext wrap_next(gpointer self, MsStep *step, GError **error) {
  Wrap *w = self;
  MsNext nx = ms_source_next(w->inner, step, error);
  if (nx == MS_NEXT_STEP) w->cur = iter_next(&w->iter);
  return nx;
}

static gboolean wrap_fill_any(Wrap *w, gint worker, guint64 first, guint64 count, gint64 *addr, GError **error) {
  guint64 lo = MAX(first, w->cur->lo), hi = MIN(first + count, w->cur->hi);
  if (lo >= hi) {
    for (guint64 i = 0; i < count; i++) addr[i] = MS_ADDR_NONE;
    return TRUE;
  }
  for (guint64 i = first; i < lo; i++) addr[i - first] = MS_ADDR_NONE;
  for (guint64 i = hi; i < first + count; i++) addr[i - first] = MS_ADDR_NONE;
  return worker < 0 ? ms_source_fill(w->inner, lo, hi - lo, addr + (lo - first), error)
                    : ms_source_fill_worker(w->inner, (guint)worker, lo, hi - lo, addr + (lo - first), error);
}

static gboolean wrap_fill(gpointer self, guint64 first, guint64 count, gint64 *addr, GError **error) {
  return wrap_fill_any(self, -1, first, count, addr, error);
}

/* The same from the engine's workers: the inner compact source fills concurrently. */
static gboolean wrap_fill_worker(gpointer self, guint worker, guint64 first, guint64 count, gint64 *addr,
                                 GError **error) {
  return wrap_fill_any(self, (gint)worker, first, count, addr, error);
}

static void wrap_free(gpointer self) {
  Wrap *w = self;
  ms_source_free(w->inner);
  g_ptr_array_free(w->top, TRUE);
  g_free(w);
}

/* The team's range: the engine skips the warps outside it entirely. */
static void wrap_range(gpointer self, guint64 *first, guint64 *end) {
  Wrap *w = self;
  *first = w->cur->lo;
  *end = w->cur->hi; /* clamped to the threads by the caller */
}

/* Repeated blocks: the inner trace's, for the blocks inside the team (outside: idle). */
static gboolean wrap_repeats(gpointer self) {
  Wrap *w = self;
  return ms_source_block_repeats(w->inner);
}

static void wrap_shift(gpointer self, guint64 b0, guint64 n, guint64 lane, guint8 *kind, gint64 *at, gint64 *lo,
                       gint64 *hi) {
  Wrap *w = self;
  const guint64 bt = ms_source_block_threads(w->inner);
  ms_source_block_shift(w->inner, b0, n, lane, kind, at, lo, hi);
  for (guint64 i = 0; i < n; i++) {
    const guint64 t0 = (b0 + i) * bt;
    if (t0 >= w->cur->hi || t0 + bt <= w->cur->lo) kind[i] = MS_BLOCK_IDLE;
    else if (t0 < w->cur->lo || t0 + bt > w->cur->hi) kind[i] = MS_BLOCK_FILL;
  }
}

static const MsSourceFuncs wrap_funcs = {wrap_next, wrap_fill,    wrap_free, wrap_range,
                                         wrap_fill_worker, wrap_repeats, wrap_shift};

MsSource *ms_sat_source(const char *algorithm, GHashTable *params, GError **error) {
  GPtrArray *top = NULL;
  char *text = sat_build(algorithm, params, NULL, &top, error);
  if (!text) return NULL;
  cJSON *root = ms_json_parse(text, strlen(text), "sat", error);
  g_free(text);
  MsSource *src = root ? ms_trace_compact_from_json(root, "sat", error) : NULL;
  cJSON_Delete(root);
  if (!src) {
    g_ptr_array_free(top, TRUE);
    return NULL;
  }
  Wrap *w = g_new0(Wrap, 1);
  w->inner = src;
  w->top = top;
  iter_init(&w->iter, top);
  char *name = g_strdup(ms_source_name(src));
  MsSource *out = ms_source_new(name, ms_source_threads(src), ms_source_block_threads(src), &wrap_funcs, w);
  ms_source_set_shared_words(out, ms_source_shared_words(src));
  ms_source_set_global_words(out, ms_source_global_words(src));
  g_free(name);
  return out;
}

char *ms_sat_compact(const char *algorithm, GHashTable *params, MsSatStats *stats, GError **error) {
  return sat_build(algorithm, params, stats, NULL, error);
}
