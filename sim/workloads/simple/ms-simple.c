/* ms-simple.c: the held-out family "simple" (docs/workloads/simple.md): the traces of the
 * kernels of kernels/simple.cu.
 *
 * One description per algorithm, held as a small program of items: memory steps (an address
 * expression over tid/ltid/bid, an optional `when` predicate, and a data action on the
 * thread's registers), block and grid barriers, loops.  It is printed as a compact JSON
 * trace; that text is opened with the project's reader and executed on real 32-bit data,
 * step by step, with the addresses the reader produces: a read loads (or adds) the
 * addressed word into a register, a write stores one.  Registers are zeroed and shared
 * memory is poisoned at each kernel start (the trace's start and every grid barrier).  The
 * global arrays then hold the kernel's output, which is checked against the CPU's; the
 * inputs must be unchanged.
 *
 * Threads run in chunks of whole blocks.  Blocks of one kernel share nothing but global
 * memory and none of these kernels reads in a kernel what another block writes in it, so
 * running a chunk through the whole kernel before the next chunk gives the result of the
 * step order.  Without a grid barrier the chunks run one after the other, each through its
 * own reader; with one (reduce), all chunks' readers stay open and the chunks go kernel by
 * kernel. */
#include "ms-simple.h"
#include "ms-perm.h"
#include <string.h>
#include <unistd.h>


const char *const ms_simple_algorithms[] = {"copy",           "strided-read",     "gather",
                                            "transpose-naive", "transpose-tiled", "transpose-padded",
                                            "shared-stride",  "reduce",           NULL};

typedef enum { ALG_COPY, ALG_STRIDED, ALG_GATHER, ALG_NAIVE, ALG_TILED, ALG_PADDED, ALG_SSTRIDE, ALG_REDUCE } Alg;

/* The keys each algorithm takes (records and CLI alike). */
static const char *const keys_1d[] = {"n", "threads_per_block", "seed", NULL};
static const char *const keys_strided[] = {"n", "s", "threads_per_block", "seed", NULL};
static const char *const keys_naive[] = {"n", "block_x", "block_y", "threads_per_block", "seed", NULL};
static const char *const keys_tiled[] = {"n",   "tile", "block_y", "pitch", "threads_per_block", "shared_words",
                                         "seed", NULL};
static const char *const keys_sstride[] = {"s", "repeats", "blocks", "threads_per_block", "shared_words", "seed", NULL};
static const char *const keys_reduce[] = {"n", "threads_per_block", "shared_words", "seed", NULL};
static const char *const *const alg_keys[] = {keys_1d,    keys_strided, keys_1d,      keys_naive,
                                              keys_tiled, keys_tiled,   keys_sstride, keys_reduce};

#define MAX_N_1D (G_GUINT64_CONSTANT(1) << 28)
#define MAX_SIDE (G_GUINT64_CONSTANT(1) << 14)
#define MAX_LEVELS 16
#define POISON 0xdeadbeefu
#define FILL_MUL 2654435761u /* shared-stride: sm[j] = j * FILL_MUL + blockIdx.x */

/* ---- parameters ----------------------------------------------------------------------- */

typedef struct {
  Alg alg;
  const char *name;
  guint64 n, s, tpb, bx, by, tile, pitch, repeats, blocks, shared_words, seed;
} Cfg;

static gboolean fail_invalid(GError **error, const Cfg *c, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static gboolean fail_invalid(GError **error, const Cfg *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "simple %s: %s", c->name, msg);
  g_free(msg);
  return FALSE;
}

/* The params with dashes spelled as underscores; FALSE if a key is given both ways or is
 * not one the algorithm takes. */
static GHashTable *norm_params(const Cfg *c, GHashTable *params, GError **error) {
  GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  if (!params) return h;
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init(&it, params);
  while (g_hash_table_iter_next(&it, &k, &v)) {
    char *key = g_strdup(k);
    for (char *q = key; *q; q++)
      if (*q == '-') *q = '_';
    if (!g_strv_contains(alg_keys[c->alg], key)) {
      char *list = g_strjoinv(", ", (char **)alg_keys[c->alg]);
      fail_invalid(error, c, "unknown parameter \"%s\" (%s takes %s)", (const char *)k, c->name, list);
      g_free(list);
      g_free(key);
      g_hash_table_destroy(h);
      return NULL;
    }
    if (g_hash_table_contains(h, key)) {
      fail_invalid(error, c, "parameter \"%s\" is given twice", key);
      g_free(key);
      g_hash_table_destroy(h);
      return NULL;
    }
    g_hash_table_insert(h, key, v);
  }
  return h;
}

static gboolean get(GHashTable *h, const Cfg *c, const char *key, guint64 def, guint64 min, guint64 max,
                    guint64 *out, GError **error) {
  if (ms_param_uint(h, key, def, min, max, out, error)) return TRUE;
  g_prefix_error(error, "simple %s: ", c->name);
  return FALSE;
}

static gboolean pow2(guint64 x) { return x && !(x & (x - 1)); }

/* A derived value the caller may state: it must then agree. */
static gboolean agree(GHashTable *h, const Cfg *c, const char *key, guint64 want, GError **error) {
  guint64 got;
  if (!get(h, c, key, want, 0, G_MAXUINT64, &got, error)) return FALSE;
  if (got != want)
    return fail_invalid(error, c, "%s = %" G_GUINT64_FORMAT " does not fit the kernel (it is %" G_GUINT64_FORMAT ")",
                        key, got, want);
  return TRUE;
}

static gboolean cfg_read(Cfg *c, GHashTable *params, GError **error) {
  GHashTable *h = norm_params(c, params, error);
  if (!h) return FALSE;
  gboolean ok = get(h, c, "seed", 1, 0, MS_MAX_JSON_INT, &c->seed, error);
  switch (c->alg) {
  case ALG_COPY:
  case ALG_STRIDED:
  case ALG_GATHER:
    ok = ok && get(h, c, "n", 4096, 1, MAX_N_1D, &c->n, error) &&
         get(h, c, "threads_per_block", 256, 32, 1024, &c->tpb, error) &&
         get(h, c, "s", 8, 1, 1u << 16, &c->s, error);
    if (ok && c->tpb % 32) ok = fail_invalid(error, c, "threads_per_block = %" G_GUINT64_FORMAT " is not a multiple of 32", c->tpb);
    if (ok && c->n % c->tpb)
      ok = fail_invalid(error, c, "n = %" G_GUINT64_FORMAT " is not a multiple of threads_per_block = %" G_GUINT64_FORMAT
                        " (one element per thread, no bounds test)", c->n, c->tpb);
    if (ok && c->alg == ALG_STRIDED && (c->n - 1) * c->s >= (G_GUINT64_CONSTANT(1) << 32))
      ok = fail_invalid(error, c, "(n - 1) * s overflows the kernel's 32-bit index");
    break;
  case ALG_NAIVE:
    ok = ok && get(h, c, "n", 64, 1, MAX_SIDE, &c->n, error) && get(h, c, "block_x", 32, 1, 1024, &c->bx, error) &&
         get(h, c, "block_y", 8, 1, 1024, &c->by, error);
    if (ok && (c->bx * c->by > 1024 || (c->bx * c->by) % 32))
      ok = fail_invalid(error, c, "block_x * block_y = %" G_GUINT64_FORMAT " must be a multiple of 32, at most 1024", c->bx * c->by);
    if (ok && (c->n % c->bx || c->n % c->by))
      ok = fail_invalid(error, c, "n = %" G_GUINT64_FORMAT " must be a multiple of block_x and block_y", c->n);
    c->tpb = c->bx * c->by;
    ok = ok && agree(h, c, "threads_per_block", c->tpb, error);
    break;
  case ALG_TILED:
  case ALG_PADDED:
    ok = ok && get(h, c, "n", 64, 1, MAX_SIDE, &c->n, error) && get(h, c, "tile", 32, 1, 1024, &c->tile, error) &&
         get(h, c, "block_y", 8, 1, 1024, &c->by, error);
    if (ok && (c->tile % c->by || c->tile * c->by > 1024 || (c->tile * c->by) % 32))
      ok = fail_invalid(error, c, "tile = %" G_GUINT64_FORMAT " must be a multiple of block_y = %" G_GUINT64_FORMAT
                        ", tile * block_y a multiple of 32, at most 1024", c->tile, c->by);
    if (ok && c->n % c->tile) ok = fail_invalid(error, c, "n = %" G_GUINT64_FORMAT " is not a multiple of tile", c->n);
    c->bx = c->tile;
    c->tpb = c->tile * c->by;
    c->pitch = c->tile + (c->alg == ALG_PADDED);
    c->shared_words = c->tile * c->pitch;
    ok = ok && agree(h, c, "pitch", c->pitch, error) && agree(h, c, "threads_per_block", c->tpb, error) &&
         agree(h, c, "shared_words", c->shared_words, error);
    break;
  case ALG_SSTRIDE:
    ok = ok && get(h, c, "s", 2, 1, 1024, &c->s, error) && get(h, c, "repeats", 256, 1, 1u << 16, &c->repeats, error) &&
         get(h, c, "blocks", 4, 1, 1u << 20, &c->blocks, error) &&
         get(h, c, "threads_per_block", 256, 32, 1024, &c->tpb, error) &&
         get(h, c, "shared_words", 1024, 1, 1u << 14, &c->shared_words, error);
    if (ok && c->tpb % 32) ok = fail_invalid(error, c, "threads_per_block = %" G_GUINT64_FORMAT " is not a multiple of 32", c->tpb);
    if (ok && (!pow2(c->shared_words) || c->shared_words % c->tpb))
      ok = fail_invalid(error, c, "shared_words = %" G_GUINT64_FORMAT " must be a power of two (the index mask) and a multiple of threads_per_block",
                        c->shared_words);
    break;
  case ALG_REDUCE:
    ok = ok && get(h, c, "n", 4096, 2, MAX_N_1D, &c->n, error) &&
         get(h, c, "threads_per_block", 256, 32, 1024, &c->tpb, error);
    if (ok && !pow2(c->tpb)) ok = fail_invalid(error, c, "threads_per_block = %" G_GUINT64_FORMAT " is not a power of two (the tree halves it)", c->tpb);
    c->shared_words = c->tpb;
    ok = ok && agree(h, c, "shared_words", c->shared_words, error);
    break;
  }
  g_hash_table_destroy(h);
  return ok;
}

/* ---- programs ------------------------------------------------------------------------- */

enum { K_MEM, K_BSYNC, K_GSYNC, K_LOOP };
/* Data actions: reg = word, reg += word, word = reg, word = fill value (shared-stride), and
 * reg = word at an address that must be `at`'s base + the index register (gather). */
typedef enum { A_LD, A_ADD, A_ST, A_FILL, A_LD_AT } Act;
enum { RV, RX, NREG };
enum { INIT_OUT, INIT_IN, INIT_IDX };

typedef struct {
  char *name;
  guint64 base, length;
  gboolean shared;
  int init;
} Arr;

typedef struct {
  int kind;
  MsOp op;
  MsSpace space;
  char *addr, *when;
  Act act;
  int reg;
  const Arr *at;
  guint64 count;
  char *var;
  GPtrArray *body;
  guint64 hi; /* threads from hi on are inactive in the step (the launch has fewer blocks) */
} Item;

typedef struct {
  Cfg c;
  char *name;
  guint64 threads, block, shared_words, global_words;
  GString *consts;
  GPtrArray *arrays; /* Arr* */
  GPtrArray *top;    /* Item* */
  gboolean grid;
  guint32 *perm;     /* gather: P */
  guint levels;      /* reduce: m[k] elements in, nb[k] blocks at level k */
  guint64 m[MAX_LEVELS], nb[MAX_LEVELS];
} Prog;

static void item_free(gpointer p) {
  Item *it = p;
  g_free(it->addr);
  g_free(it->when);
  g_free(it->var);
  if (it->body) g_ptr_array_free(it->body, TRUE);
  g_free(it);
}

static void arr_free(gpointer p) {
  Arr *a = p;
  g_free(a->name);
  g_free(a);
}

static void prog_free(Prog *p) {
  if (!p) return;
  g_free(p->name);
  g_string_free(p->consts, TRUE);
  g_ptr_array_free(p->arrays, TRUE);
  g_ptr_array_free(p->top, TRUE);
  g_free(p->perm);
  g_free(p);
}

#define F g_strdup_printf

static void mem(GPtrArray *l, MsOp op, MsSpace sp, Act act, int reg, char *addr, char *when) {
  Item *it = g_new0(Item, 1);
  it->kind = K_MEM;
  it->op = op;
  it->space = sp;
  it->act = act;
  it->reg = reg;
  it->addr = addr;
  it->when = when;
  it->hi = G_MAXUINT64;
  g_ptr_array_add(l, it);
}

static void rd(GPtrArray *l, MsSpace sp, Act act, int reg, char *addr, char *when) { mem(l, MS_OP_READ, sp, act, reg, addr, when); }
static void wr(GPtrArray *l, MsSpace sp, Act act, int reg, char *addr, char *when) { mem(l, MS_OP_WRITE, sp, act, reg, addr, when); }

static void sync_(GPtrArray *l, int kind) {
  Item *it = g_new0(Item, 1);
  it->kind = kind;
  it->hi = G_MAXUINT64;
  g_ptr_array_add(l, it);
}

static GPtrArray *loop(GPtrArray *l, guint64 count, const char *var) {
  Item *it = g_new0(Item, 1);
  it->kind = K_LOOP;
  it->count = count;
  it->var = g_strdup(var);
  it->body = g_ptr_array_new_with_free_func(item_free);
  it->hi = G_MAXUINT64;
  g_ptr_array_add(l, it);
  return it->body;
}

/* Mark the items of l from `from` on (loop bodies included) active only below thread hi. */
static void set_hi(GPtrArray *l, guint from, guint64 hi) {
  for (guint i = from; i < l->len; i++) {
    Item *it = g_ptr_array_index(l, i);
    it->hi = hi;
    if (it->body) set_hi(it->body, 0, hi);
  }
}

static const Arr *array(Prog *p, const char *name, guint64 length, gboolean shared, int init) {
  Arr *a = g_new0(Arr, 1);
  a->name = g_strdup(name);
  a->length = length;
  a->shared = shared;
  a->init = init;
  if (!shared) {
    a->base = p->global_words;
    p->global_words += length;
  } else {
    p->shared_words = length;
  }
  g_ptr_array_add(p->arrays, a);
  return a;
}

static const Arr *arr(const Prog *p, const char *name) {
  for (guint i = 0; i < p->arrays->len; i++) {
    const Arr *a = g_ptr_array_index(p->arrays, i);
    if (strcmp(a->name, name) == 0) return a;
  }
  g_assert_not_reached();
}

static void constant(Prog *p, const char *name, guint64 v) {
  g_string_append_printf(p->consts, "%s\"%s\": %" G_GUINT64_FORMAT, p->consts->len ? ", " : "", name, v);
}

/* "(a) && (b)", either may be NULL; takes both. */
static char *and_(char *a, char *b) {
  if (!a) return b;
  if (!b) return a;
  char *r = F("(%s) && (%s)", a, b);
  g_free(a);
  g_free(b);
  return r;
}

/* copy, strided-read, gather: one element per thread, n threads. */
static void build_1d(Prog *p) {
  const Cfg *c = &p->c;
  p->threads = c->n;
  p->block = c->tpb;
  constant(p, "n", c->n);
  array(p, "in", c->n, FALSE, INIT_IN);
  if (c->alg == ALG_GATHER) array(p, "idx", c->n, FALSE, INIT_IDX);
  array(p, "out", c->n, FALSE, INIT_OUT);
  GPtrArray *l = p->top;
  if (c->alg == ALG_COPY) {
    rd(l, MS_SPACE_GLOBAL, A_LD, RV, F("in[tid]"), NULL);
  } else if (c->alg == ALG_STRIDED) {
    constant(p, "s", c->s);
    rd(l, MS_SPACE_GLOBAL, A_LD, RV, F("in[tid * s %% n]"), NULL);
  } else {
    rd(l, MS_SPACE_GLOBAL, A_LD, RX, F("idx[tid]"), NULL);
    rd(l, MS_SPACE_GLOBAL, A_LD_AT, RV, F("in[P[tid]]"), NULL);
    ((Item *)g_ptr_array_index(l, l->len - 1))->at = arr(p, "in");
  }
  wr(l, MS_SPACE_GLOBAL, A_ST, RV, F("out[tid]"), NULL);
}

/* out[j*n + i] = in[i*n + j]; block (bx, by) of grid (n/bx, n/by): thread (tx, ty) of block
 * (BX, BY) is ltid = ty*bx + tx of block bid = BY*gx + BX; it reads row i = BY*by + ty,
 * column j = BX*bx + tx. */
static void build_naive(Prog *p) {
  const Cfg *c = &p->c;
  p->threads = c->n * c->n;
  p->block = c->bx * c->by;
  constant(p, "n", c->n);
  constant(p, "bx", c->bx);
  constant(p, "by", c->by);
  constant(p, "gx", c->n / c->bx);
  array(p, "in", c->n * c->n, FALSE, INIT_IN);
  array(p, "out", c->n * c->n, FALSE, INIT_OUT);
  rd(p->top, MS_SPACE_GLOBAL, A_LD, RV, F("in[(bid / gx * by + ltid / bx) * n + bid %% gx * bx + ltid %% bx]"), NULL);
  wr(p->top, MS_SPACE_GLOBAL, A_ST, RV, F("out[(bid %% gx * bx + ltid %% bx) * n + bid / gx * by + ltid / bx]"), NULL);
}

/* The tile transpose (tile x tile shared tile with a row pitch, blocks of tile x by threads,
 * each moving tile/by elements in, then tile/by out). */
static void build_tiled(Prog *p) {
  const Cfg *c = &p->c;
  const guint64 g = c->n / c->tile;
  p->threads = g * g * c->tile * c->by;
  p->block = c->tile * c->by;
  constant(p, "n", c->n);
  constant(p, "t", c->tile);
  constant(p, "by", c->by);
  constant(p, "pitch", c->pitch);
  constant(p, "gx", g);
  array(p, "in", c->n * c->n, FALSE, INIT_IN);
  array(p, "out", c->n * c->n, FALSE, INIT_OUT);
  array(p, "tile", c->tile * c->pitch, TRUE, INIT_OUT);
  GPtrArray *b = loop(p->top, c->tile / c->by, "k");
  rd(b, MS_SPACE_GLOBAL, A_LD, RV, F("in[(bid / gx * t + ltid / t + k * by) * n + bid %% gx * t + ltid %% t]"), NULL);
  wr(b, MS_SPACE_SHARED, A_ST, RV, F("tile[(ltid / t + k * by) * pitch + ltid %% t]"), NULL);
  sync_(p->top, K_BSYNC);
  b = loop(p->top, c->tile / c->by, "k");
  rd(b, MS_SPACE_SHARED, A_LD, RV, F("tile[ltid %% t * pitch + ltid / t + k * by]"), NULL);
  wr(b, MS_SPACE_GLOBAL, A_ST, RV, F("out[(bid %% gx * t + ltid / t + k * by) * n + bid / gx * t + ltid %% t]"), NULL);
}

/* Fill sm[j] = j * FILL_MUL + bid (a block-stride loop), then R times acc += sm[(ltid*s + r)
 * & (W-1)], then out[tid] = acc. */
static void build_sstride(Prog *p) {
  const Cfg *c = &p->c;
  p->threads = c->blocks * c->tpb;
  p->block = c->tpb;
  constant(p, "s", c->s);
  constant(p, "R", c->repeats);
  constant(p, "W", c->shared_words);
  constant(p, "B", c->tpb);
  array(p, "out", p->threads, FALSE, INIT_OUT);
  array(p, "sm", c->shared_words, TRUE, INIT_OUT);
  GPtrArray *b = loop(p->top, c->shared_words / c->tpb, "k");
  wr(b, MS_SPACE_SHARED, A_FILL, RV, F("sm[ltid + k * B]"), NULL);
  sync_(p->top, K_BSYNC);
  b = loop(p->top, c->repeats, "r");
  rd(b, MS_SPACE_SHARED, A_ADD, RV, F("sm[(ltid * s + r) & (W - 1)]"), NULL);
  wr(p->top, MS_SPACE_GLOBAL, A_ST, RV, F("out[tid]"), NULL);
}

/* The classic tree (sequential addressing, first add during the load), launched until one
 * value is left: level k reads m[k] elements with nb[k] = ceil(m[k] / 2B) blocks and writes
 * their partials to p<k+1>; a grid barrier separates the launches. */
static void build_reduce(Prog *p) {
  const Cfg *c = &p->c;
  const guint64 B = c->tpb;
  guint64 m = c->n;
  p->levels = 0;
  do {
    p->m[p->levels] = m;
    p->nb[p->levels] = (m + 2 * B - 1) / (2 * B);
    m = p->nb[p->levels++];
  } while (m > 1);
  p->threads = p->nb[0] * B;
  p->block = B;
  constant(p, "B", B);
  array(p, "in", c->n, FALSE, INIT_IN);
  for (guint k = 0; k < p->levels; k++) {
    char *nm = F("p%u", k + 1);
    array(p, nm, p->nb[k], FALSE, INIT_OUT);
    g_free(nm);
  }
  array(p, "sm", B, TRUE, INIT_OUT);
  guint lg = 0;
  while ((G_GUINT64_CONSTANT(1) << lg) < B) lg++;
  for (guint k = 0; k < p->levels; k++) {
    char *cm = F("m%u", k), *cb = F("nb%u", k);
    constant(p, cm, p->m[k]);
    constant(p, cb, p->nb[k]);
    char *src = k ? F("p%u", k) : g_strdup("in");
    const gboolean all = p->nb[k] == p->nb[0], whole = p->m[k] % (2 * B) == 0;
#define GUARD() (all ? NULL : F("bid < %s", cb))
    GPtrArray *l = p->top;
    const guint first = l->len;
    rd(l, MS_SPACE_GLOBAL, A_LD, RV, F("%s[bid * 2 * B + ltid]", src), and_(GUARD(), whole ? NULL : F("bid * 2 * B + ltid < %s", cm)));
    rd(l, MS_SPACE_GLOBAL, A_ADD, RV, F("%s[bid * 2 * B + ltid + B]", src),
       and_(GUARD(), whole ? NULL : F("bid * 2 * B + ltid + B < %s", cm)));
    wr(l, MS_SPACE_SHARED, A_ST, RV, F("sm[ltid]"), GUARD());
    sync_(l, K_BSYNC);
    GPtrArray *b = loop(l, lg, "k");
    rd(b, MS_SPACE_SHARED, A_LD, RV, F("sm[ltid]"), and_(GUARD(), F("ltid < (B / 2 >> k)")));
    rd(b, MS_SPACE_SHARED, A_ADD, RV, F("sm[ltid + (B / 2 >> k)]"), and_(GUARD(), F("ltid < (B / 2 >> k)")));
    wr(b, MS_SPACE_SHARED, A_ST, RV, F("sm[ltid]"), and_(GUARD(), F("ltid < (B / 2 >> k)")));
    sync_(b, K_BSYNC);
    rd(l, MS_SPACE_SHARED, A_LD, RV, F("sm[0]"), and_(GUARD(), F("ltid == 0")));
    wr(l, MS_SPACE_GLOBAL, A_ST, RV, F("p%u[bid]", k + 1), and_(GUARD(), F("ltid == 0")));
#undef GUARD
    set_hi(l, first, p->nb[k] * B);
    if (k + 1 < p->levels) {
      sync_(l, K_GSYNC);
      p->grid = TRUE;
    }
    g_free(src);
    g_free(cm);
    g_free(cb);
  }
}

static Prog *prog_build(const char *algorithm, GHashTable *params, GError **error) {
  int a = -1;
  for (int i = 0; algorithm && ms_simple_algorithms[i]; i++)
    if (strcmp(algorithm, ms_simple_algorithms[i]) == 0) a = i;
  if (a < 0) {
    char *list = g_strjoinv(", ", (char **)ms_simple_algorithms);
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "simple: unknown algorithm \"%s\" (%s)", algorithm ? algorithm : "", list);
    g_free(list);
    return NULL;
  }
  Prog *p = g_new0(Prog, 1);
  p->c.alg = (Alg)a;
  p->c.name = ms_simple_algorithms[a];
  p->consts = g_string_new(NULL);
  p->arrays = g_ptr_array_new_with_free_func(arr_free);
  p->top = g_ptr_array_new_with_free_func(item_free);
  if (!cfg_read(&p->c, params, error)) {
    prog_free(p);
    return NULL;
  }
  const Cfg *c = &p->c;
  switch (c->alg) {
  case ALG_COPY:
  case ALG_STRIDED:
  case ALG_GATHER: build_1d(p); break;
  case ALG_NAIVE: build_naive(p); break;
  case ALG_TILED:
  case ALG_PADDED: build_tiled(p); break;
  case ALG_SSTRIDE: build_sstride(p); break;
  case ALG_REDUCE: build_reduce(p); break;
  }
  /* the verifier holds every global word as 4 bytes (gather: P twice more, as 8 and 4
   * bytes, and two registers per thread) */
  guint64 phys = ms_memory_limit(); /* physical memory, or ulimit -v when lower */
  guint64 need = 4 * p->global_words + (c->alg == ALG_GATHER ? 20 * c->n : 0);
  if (phys > 0 && need > phys / 2) {
    g_set_error(error, MS_ERROR, MS_ERROR_LIMIT, "simple %s: verifying needs %.1f GiB, more than half the memory this process may use",
                c->name, (double)need / (1 << 30));
    prog_free(p);
    return NULL;
  }
  if (c->alg == ALG_GATHER) {
    gint64 *P = ms_perm_generate("random", c->n, c->seed, error);
    if (!P) {
      prog_free(p);
      return NULL;
    }
    p->perm = g_new(guint32, c->n);
    for (guint64 i = 0; i < c->n; i++) p->perm[i] = (guint32)P[i];
    g_free(P);
  }
  switch (c->alg) {
  case ALG_COPY:
  case ALG_GATHER: p->name = F("simple %s, n = %" G_GUINT64_FORMAT, c->name, c->n); break;
  case ALG_REDUCE:
    p->name = F("simple reduce, n = %" G_GUINT64_FORMAT ", %u launches", c->n, p->levels);
    break;
  case ALG_STRIDED: p->name = F("simple strided-read, n = %" G_GUINT64_FORMAT ", s = %" G_GUINT64_FORMAT, c->n, c->s); break;
  case ALG_NAIVE:
    p->name = F("simple transpose-naive, %" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT ", blocks of %" G_GUINT64_FORMAT
                " x %" G_GUINT64_FORMAT, c->n, c->n, c->bx, c->by);
    break;
  case ALG_TILED:
  case ALG_PADDED:
    p->name = F("simple %s, %" G_GUINT64_FORMAT " x %" G_GUINT64_FORMAT ", tile %" G_GUINT64_FORMAT ", pitch %" G_GUINT64_FORMAT,
                c->name, c->n, c->n, c->tile, c->pitch);
    break;
  case ALG_SSTRIDE:
    p->name = F("simple shared-stride, s = %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT " repeats, %" G_GUINT64_FORMAT " blocks",
                c->s, c->repeats, c->blocks);
    break;
  }
  return p;
}

/* ---- JSON text ------------------------------------------------------------------------ */

static void print_items(GString *s, GPtrArray *l, int ind) {
  for (guint i = 0; i < l->len; i++) {
    const Item *it = g_ptr_array_index(l, i);
    g_string_append_printf(s, "%s\n%*s", i ? "," : "", ind, "");
    if (it->kind == K_BSYNC) g_string_append(s, "{\"op\": \"sync\", \"scope\": \"block\"}");
    else if (it->kind == K_GSYNC) g_string_append(s, "{\"op\": \"sync\", \"scope\": \"grid\"}");
    else if (it->kind == K_LOOP) {
      g_string_append_printf(s, "{\"repeat\": %" G_GUINT64_FORMAT ", \"var\": \"%s\", \"steps\": [", it->count, it->var);
      print_items(s, it->body, ind + 2);
      g_string_append(s, "]}");
    } else {
      g_string_append_printf(s, "{\"op\": \"%s\", \"space\": \"%s\", \"addr\": \"%s\"", ms_op_name(it->op),
                             ms_space_name(it->space), it->addr);
      if (it->when) g_string_append_printf(s, ", \"when\": \"%s\"", it->when);
      g_string_append(s, "}");
    }
  }
}

static char *prog_text(const Prog *p) {
  GString *s = g_string_new(NULL);
  g_string_append_printf(s, "{\"memsim_trace\": 1, \"form\": \"compact\",\n \"name\": \"%s\",\n \"threads\": %" G_GUINT64_FORMAT
                            ", \"block_threads\": %" G_GUINT64_FORMAT ",\n",
                         p->name, p->threads, p->block);
  if (p->shared_words) g_string_append_printf(s, " \"shared_words\": %" G_GUINT64_FORMAT ",\n", p->shared_words);
  g_string_append_printf(s, " \"global_words\": %" G_GUINT64_FORMAT ",\n", p->global_words);
  g_string_append_printf(s, " \"constants\": {%s},\n \"arrays\": {", p->consts->str);
  for (guint i = 0; i < p->arrays->len; i++) {
    const Arr *a = g_ptr_array_index(p->arrays, i);
    g_string_append_printf(s, "%s\n   \"%s\": {\"base\": %" G_GUINT64_FORMAT ", \"length\": %" G_GUINT64_FORMAT "}",
                           i ? "," : "", a->name, a->base, a->length);
  }
  if (p->c.alg == ALG_GATHER)
    g_string_append_printf(s, ",\n   \"P\": {\"data\": {\"generate\": \"random\", \"n\": %" G_GUINT64_FORMAT ", \"seed\": %" G_GUINT64_FORMAT "}}",
                           p->c.n, p->c.seed);
  g_string_append(s, "},\n \"steps\": [");
  print_items(s, p->top, 3);
  g_string_append(s, "\n ]}\n");
  return g_string_free(s, FALSE);
}

/* ---- verification: execute the parsed trace on real data ------------------------------ */

typedef struct {
  GPtrArray *l;
  guint idx;
  guint64 iter, count;
} Frame;

typedef struct {
  Frame f[8];
  int d;
} Iter;

static void iter_init(Iter *it, GPtrArray *top) {
  it->d = 0;
  it->f[0] = (Frame){top, 0, 0, 1};
}

/* The next memory or sync item, loops expanded; NULL at the end. */
static const Item *iter_next(Iter *it) {
  for (;;) {
    Frame *f = &it->f[it->d];
    if (f->idx >= f->l->len) {
      if (it->d == 0) return NULL;
      if (++f->iter < f->count) f->idx = 0;
      else it->d--;
      continue;
    }
    const Item *x = g_ptr_array_index(f->l, f->idx++);
    if (x->kind != K_LOOP) return x;
    if (x->count) it->f[++it->d] = (Frame){x->body, 0, 0, x->count};
  }
}

typedef struct {
  MsSource *src;
  Iter iter;
  gboolean done;
} Chunk;

typedef struct {
  const Prog *p;
  guint64 CT, c_lo, c_hi; /* threads per chunk, the chunk running now */
  guint32 *gmem, *smem, *reg[NREG];
  gint64 *addr;
  GError **error;
} Exec;

#define FILL_CHUNK 65536

static gboolean ex_fail(Exec *x, const char *msg, guint64 tid, gint64 a) {
  g_set_error(x->error, MS_ERROR, MS_ERROR_VERIFY, "simple %s: verification: %s (thread %" G_GUINT64_FORMAT ", address %" G_GINT64_FORMAT ")",
              x->p->c.name, msg, tid, a);
  return FALSE;
}

static gboolean ex_mem(Exec *x, MsSource *src, const Item *it) {
  const Prog *p = x->p;
  const guint64 hi = MIN(x->c_hi, it->hi);
  for (guint64 first = x->c_lo; first < hi; first += FILL_CHUNK) {
    guint64 cnt = MIN((guint64)FILL_CHUNK, hi - first);
    if (!ms_source_fill(src, first, cnt, x->addr, x->error)) return FALSE;
    for (guint64 k = 0; k < cnt; k++) {
      gint64 a = x->addr[k];
      if (a < 0) continue;
      guint64 t = first + k, lt = t - x->c_lo;
      guint32 *cell;
      if (it->space == MS_SPACE_GLOBAL) {
        if ((guint64)a >= p->global_words) return ex_fail(x, "global address beyond the arrays", t, a);
        cell = &x->gmem[a];
      } else {
        if ((guint64)a >= p->shared_words) return ex_fail(x, "shared address beyond the block's shared memory", t, a);
        cell = &x->smem[lt / p->block * p->shared_words + (guint64)a];
      }
      guint32 *r = &x->reg[it->reg][lt];
      switch (it->act) {
      case A_LD: *r = *cell; break;
      case A_ADD: *r += *cell; break;
      case A_ST: *cell = *r; break;
      case A_FILL: *cell = (guint32)a * FILL_MUL + (guint32)(t / p->block); break;
      case A_LD_AT:
        if ((guint64)a != it->at->base + x->reg[RX][lt])
          return ex_fail(x, "the gathered address is not in[idx[tid]] of the index data", t, a);
        *r = *cell;
        break;
      }
    }
  }
  return TRUE;
}

/* Run chunk c through one kernel: up to and including the next grid barrier, or the end. */
static gboolean ex_kernel(Exec *x, Chunk *c) {
  const Prog *p = x->p;
  guint64 nt = x->c_hi - x->c_lo, nblk = (nt + p->block - 1) / p->block;
  for (int r = 0; r < NREG; r++) memset(x->reg[r], 0, sizeof(guint32) * nt);
  for (guint64 q = 0; q < nblk * p->shared_words; q++) x->smem[q] = POISON;
  for (;;) {
    const Item *it = iter_next(&c->iter);
    MsStep st;
    MsNext nx = ms_source_next(c->src, &st, x->error);
    if (nx == MS_NEXT_ERROR) return FALSE;
    if (!it) {
      if (nx != MS_NEXT_END) return ex_fail(x, "the trace has steps past the kernel's", x->c_lo, -1);
      c->done = TRUE;
      return TRUE;
    }
    gboolean ok = nx == MS_NEXT_STEP;
    if (ok && it->kind == K_MEM) ok = st.op == it->op && st.space == it->space;
    else if (ok) ok = st.op == MS_OP_SYNC && st.scope == (it->kind == K_BSYNC ? MS_SCOPE_BLOCK : MS_SCOPE_GRID);
    if (!ok) return ex_fail(x, "the trace's steps are not the kernel's (op, space or barrier differs)", x->c_lo, -1);
    if (it->kind == K_GSYNC) return TRUE;
    if (it->kind == K_MEM && !ex_mem(x, c->src, it)) return FALSE;
  }
}

static MsSource *open_text(const char *text, GError **error) {
  return ms_trace_open_memory(text, strlen(text), "simple", error);
}

static gboolean ex_run(Exec *x, const char *text) {
  const Prog *p = x->p;
  guint64 nc = (p->threads + x->CT - 1) / x->CT;
  gboolean ok = TRUE;
  if (!p->grid) { /* one kernel: chunk after chunk, one reader at a time */
    for (guint64 c = 0; c < nc && ok; c++) {
      Chunk ch = {0};
      ch.src = open_text(text, x->error);
      ok = ch.src != NULL;
      if (ok) {
        iter_init(&ch.iter, p->top);
        x->c_lo = c * x->CT;
        x->c_hi = MIN(p->threads, x->c_lo + x->CT);
        ok = ex_kernel(x, &ch);
        if (ok && !ch.done) ok = ex_fail(x, "the trace has a grid barrier the kernel has not", x->c_lo, -1);
      }
      ms_source_free(ch.src);
    }
    return ok;
  }
  Chunk *cs = g_new0(Chunk, nc);
  for (guint64 c = 0; c < nc && ok; c++) {
    cs[c].src = open_text(text, x->error);
    ok = cs[c].src != NULL;
    iter_init(&cs[c].iter, p->top);
  }
  while (ok && !cs[0].done) {
    for (guint64 c = 0; c < nc && ok; c++) {
      x->c_lo = c * x->CT;
      x->c_hi = MIN(p->threads, x->c_lo + x->CT);
      ok = ex_kernel(x, &cs[c]);
      if (ok && cs[c].done != cs[0].done) ok = ex_fail(x, "chunks disagree on the end of the trace", x->c_lo, -1);
    }
  }
  for (guint64 c = 0; c < nc; c++) ms_source_free(cs[c].src);
  g_free(cs);
  return ok;
}

/* The input words: never POISON (below 2^31). */
static guint32 in_word(guint64 seed, guint64 j) {
  guint64 s = seed ^ (j * G_GUINT64_CONSTANT(0x9e3779b97f4a7c15));
  return (guint32)(ms_rand_next(&s) >> 33);
}

static gboolean check_fail(const Prog *p, GError **error, const char *arr_name, guint64 i, guint32 got, guint32 want) {
  g_set_error(error, MS_ERROR, MS_ERROR_VERIFY,
              "simple %s: verification failed: %s[%" G_GUINT64_FORMAT "] = %u, the kernel's result is %u", p->c.name, arr_name,
              i, got, want);
  return FALSE;
}

/* The kernel's results in the global arrays, against the CPU's. */
static gboolean check(const Prog *p, const guint32 *g, GError **error) {
  const Cfg *c = &p->c;
  for (guint i = 0; i < p->arrays->len; i++) { /* inputs unchanged */
    const Arr *a = g_ptr_array_index(p->arrays, i);
    if (a->shared || a->init == INIT_OUT) continue;
    for (guint64 j = 0; j < a->length; j++) {
      guint32 want = a->init == INIT_IN ? in_word(c->seed, j) : p->perm[j];
      if (g[a->base + j] != want) return check_fail(p, error, a->name, j, g[a->base + j], want);
    }
  }
  if (c->alg == ALG_REDUCE) {
    guint64 m = c->n, B2 = 2 * c->tpb;
    guint32 *v = g_new(guint32, m);
    for (guint64 j = 0; j < m; j++) v[j] = in_word(c->seed, j);
    gboolean ok = TRUE;
    for (guint k = 0; k < p->levels && ok; k++) {
      char *nm = g_strdup_printf("p%u", k + 1);
      const Arr *out = arr(p, nm);
      for (guint64 b = 0; b < p->nb[k]; b++) {
        guint32 sum = 0;
        for (guint64 j = b * B2; j < MIN(m, (b + 1) * B2); j++) sum += v[j];
        v[b] = sum;
        if (ok && g[out->base + b] != sum) ok = check_fail(p, error, nm, b, g[out->base + b], sum);
      }
      m = p->nb[k];
      g_free(nm);
    }
    g_free(v);
    return ok;
  }
  const Arr *out = arr(p, "out");
  for (guint64 i = 0; i < out->length; i++) {
    guint32 want = 0;
    switch (c->alg) {
    case ALG_COPY: want = in_word(c->seed, i); break;
    case ALG_STRIDED: want = in_word(c->seed, i * c->s % c->n); break;
    case ALG_GATHER: want = in_word(c->seed, p->perm[i]); break;
    case ALG_NAIVE:
    case ALG_TILED:
    case ALG_PADDED: want = in_word(c->seed, (i % c->n) * c->n + i / c->n); break;
    case ALG_SSTRIDE: {
      guint64 b = i / c->tpb, t = i % c->tpb;
      for (guint64 r = 0; r < c->repeats; r++)
        want += (guint32)((t * c->s + r) & (c->shared_words - 1)) * FILL_MUL + (guint32)b;
      break;
    }
    case ALG_REDUCE: break;
    }
    if (g[out->base + i] != want) return check_fail(p, error, "out", i, g[out->base + i], want);
  }
  return TRUE;
}

static gboolean prog_verify(const Prog *p, const char *text, GError **error) {
  Exec x = {0};
  x.p = p;
  x.error = error;
  /* chunks of whole blocks: at most 2^22 threads and 2^24 shared words; one chunk for a
   * trace with a data array (gather), which each reader would generate again */
  guint64 bpc = MAX(G_GUINT64_CONSTANT(1), (G_GUINT64_CONSTANT(1) << 22) / p->block);
  if (p->shared_words) bpc = MAX(G_GUINT64_CONSTANT(1), MIN(bpc, (G_GUINT64_CONSTANT(1) << 24) / p->shared_words));
  if (p->perm) bpc = (p->threads + p->block - 1) / p->block;
  x.CT = bpc * p->block;
  guint64 ct = MIN(x.CT, p->threads);
  x.gmem = g_new(guint32, MAX(p->global_words, 1));
  x.smem = g_new(guint32, MAX(bpc * p->shared_words, 1));
  for (int r = 0; r < NREG; r++) x.reg[r] = g_new(guint32, ct);
  x.addr = g_new(gint64, FILL_CHUNK);
  for (guint i = 0; i < p->arrays->len; i++) {
    const Arr *a = g_ptr_array_index(p->arrays, i);
    if (a->shared) continue;
    for (guint64 j = 0; j < a->length; j++)
      x.gmem[a->base + j] = a->init == INIT_IN ? in_word(p->c.seed, j) : a->init == INIT_IDX ? p->perm[j] : POISON;
  }
  gboolean ok = ex_run(&x, text) && check(p, x.gmem, error);
  g_free(x.gmem);
  g_free(x.smem);
  for (int r = 0; r < NREG; r++) g_free(x.reg[r]);
  g_free(x.addr);
  return ok;
}

/* ---- entry points --------------------------------------------------------------------- */

char *ms_simple_compact(const char *algorithm, GHashTable *params, GError **error) {
  Prog *p = prog_build(algorithm, params, error);
  if (!p) return NULL;
  char *text = prog_text(p);
  if (!prog_verify(p, text, error)) {
    g_free(text);
    text = NULL;
  }
  prog_free(p);
  return text;
}

gboolean ms_simple_verify_text(const char *algorithm, GHashTable *params, const char *text, GError **error) {
  Prog *p = prog_build(algorithm, params, error);
  if (!p) return FALSE;
  gboolean ok = prog_verify(p, text, error);
  prog_free(p);
  return ok;
}

/* The parsed trace, walked beside the description so that the engine learns each step's
 * active range (reduce's later launches have few blocks) and skips the other warps. */
typedef struct {
  MsSource *inner;
  Prog *p;
  Iter iter;
  const Item *cur;
} Wrap;

static MsNext wrap_next(gpointer self, MsStep *step, GError **error) {
  Wrap *w = self;
  MsNext nx = ms_source_next(w->inner, step, error);
  if (nx == MS_NEXT_STEP) w->cur = iter_next(&w->iter);
  return nx;
}

static gboolean wrap_fill(gpointer self, guint64 first, guint64 count, gint64 *addr, GError **error) {
  Wrap *w = self;
  guint64 hi = w->cur ? w->cur->hi : G_MAXUINT64;
  guint64 n = first >= hi ? 0 : MIN(count, hi - first);
  for (guint64 i = n; i < count; i++) addr[i] = MS_ADDR_NONE;
  return n == 0 || ms_source_fill(w->inner, first, n, addr, error);
}

/* The same from the engine's workers: the inner compact source fills concurrently. */
static gboolean wrap_fill_worker(gpointer self, guint worker, guint64 first, guint64 count, gint64 *addr,
                                 GError **error) {
  Wrap *w = self;
  guint64 hi = w->cur ? w->cur->hi : G_MAXUINT64;
  guint64 n = first >= hi ? 0 : MIN(count, hi - first);
  for (guint64 i = n; i < count; i++) addr[i] = MS_ADDR_NONE;
  return n == 0 || ms_source_fill_worker(w->inner, worker, first, n, addr, error);
}

static void wrap_free(gpointer self) {
  Wrap *w = self;
  ms_source_free(w->inner);
  prog_free(w->p);
  g_free(w);
}

static void wrap_range(gpointer self, guint64 *first, guint64 *end) {
  Wrap *w = self;
  *first = 0;
  *end = w->cur ? w->cur->hi : G_MAXUINT64; /* clamped to the threads by the caller */
}

/* Repeated blocks: the inner trace's, for the blocks below the step's range (above: idle). */
static gboolean wrap_repeats(gpointer self) {
  Wrap *w = self;
  return ms_source_block_repeats(w->inner);
}

static void wrap_shift(gpointer self, guint64 b0, guint64 n, guint64 lane, guint8 *kind, gint64 *at, gint64 *lo,
                       gint64 *hi) {
  Wrap *w = self;
  const guint64 bt = ms_source_block_threads(w->inner), end = w->cur ? w->cur->hi : G_MAXUINT64;
  ms_source_block_shift(w->inner, b0, n, lane, kind, at, lo, hi);
  for (guint64 i = 0; i < n; i++) {
    const guint64 t0 = (b0 + i) * bt;
    if (t0 >= end) kind[i] = MS_BLOCK_IDLE;
    else if (t0 + bt > end) kind[i] = MS_BLOCK_FILL;
  }
}

static const MsSourceFuncs wrap_funcs = {wrap_next, wrap_fill,    wrap_free, wrap_range,
                                         wrap_fill_worker, wrap_repeats, wrap_shift};

MsSource *ms_simple_source(const char *algorithm, GHashTable *params, GError **error) {
  Prog *p = prog_build(algorithm, params, error);
  if (!p) return NULL;
  char *text = prog_text(p);
  MsSource *inner = prog_verify(p, text, error) ? open_text(text, error) : NULL;
  g_free(text);
  if (!inner) {
    prog_free(p);
    return NULL;
  }
  Wrap *w = g_new0(Wrap, 1);
  w->inner = inner;
  w->p = p;
  iter_init(&w->iter, p->top);
  MsSource *src = ms_source_new(p->name, p->threads, p->block, &wrap_funcs, w);
  ms_source_set_shared_words(src, p->shared_words);
  ms_source_set_global_words(src, p->global_words);
  return src;
}
