/* ms-expr.c: parser (precedence climbing, C operators) and vectorized evaluator. */
#include "ms-expr.h"
#include "memsim.h"
#include <string.h>

typedef enum {
  N_CONST, N_SYM, N_NEG, N_NOT, N_BNOT, N_BIN, N_COND, N_INDEX, N_MIN, N_MAX, N_ABS
} NodeKind;

typedef enum {
  B_ADD, B_SUB, B_MUL, B_DIV, B_MOD, B_SHL, B_SHR, B_AND, B_OR, B_XOR,
  B_LT, B_LE, B_GT, B_GE, B_EQ, B_NE, B_LAND, B_LOR
} BinOp;

enum { E_NONE = 0, E_DIV0, E_OVERFLOW, E_SHIFT, E_INDEX, E_NEGINDEX };
static const char *const err_text[] = {"", "division by zero", "64-bit overflow",
                                       "shift count outside 0..63", "index outside the array",
                                       "negative index"};

typedef struct {
  gboolean safe;
  gint64 lo, hi;
} Bnd;

/* What a step's bounds start from: tid < threads, ltid < block_threads, bid < blocks, the
 * scalars' values. */
typedef struct {
  gint64 threads, block_threads, blocks;
  const gint64 *scalars;
} Leaf;

typedef struct Node Node;
struct Node {
  NodeKind kind;
  BinOp op;
  gint64 value;  /* CONST */
  MsSym sym;     /* SYM, INDEX (array) */
  Node *a, *b, *c;
  int col;       /* 1-based column in the expression text */
  gboolean uniform;
  gboolean buni; /* depends on bid and uniform values only: uniform within one block */
  gboolean u;    /* evaluated as uniform in the current mode (see set_mode) */
  gint64 *val;   /* lane values (1 lane if uniform) */
  guint32 *err;  /* lane errors: (node id << 4) | code, 0 for none */
  guint64 cap;   /* lanes allocated: grown on demand, so a trace of many expressions
                  * evaluated over few threads stays small */
  gboolean anyerr; /* some lane of the last evaluation has an error */
  guint id;
  Bnd st;          /* static: safe = no lane can fail, whatever the thread; lo, hi bound
                    * the value when safe */
  Bnd dy;          /* the same for one step (ms_expr_block_*): the scalars' values known */
  gboolean lonly;  /* depends on ltid and uniform values only: the same in every block */
  gboolean sep;    /* F(bid) + G(ltid) (set_sep) */
};

typedef struct {
  MsSymKind sym; /* MS_SYM_TID or MS_SYM_BID, on the left after normalising */
  BinOp op;      /* B_LT, B_LE, B_GT, B_GE or B_EQ */
  Node *bound;   /* uniform */
} RangeConj;

struct _MsExpr {
  Node *root;
  RangeConj *rc; /* ms_expr_thread_range: the leading conjuncts that bound tid */
  guint nrc;
  gboolean affine; /* value = c0 + c1 * tid: evaluated from endpoints */
  gboolean pat_when; /* as a `when`: each conjunct is a range in rc, block-uniform or of ltid alone */
  gboolean has_buni; /* some non-uniform node is block-uniform: evaluate block by block */
  guint *bconj;      /* ms_expr_block_idle: the ids of the root's block-uniform conjuncts */
  guint nbconj;
  int sb;            /* the mode the nodes' `u` flags are set for: 1 = one block, 0, -1 unset */
  GPtrArray *nodes;
  char *text, *fn, *where;
};

typedef struct {
  const char *text, *p;
  MsExprResolve resolve;
  gpointer rdata;
  const MsExprArray *arrays;
  const char *fn, *where;
  GError **error;
  MsExpr *ex;
  guint64 elem_words;
  int depth;
} Parser;

static Node *node_new(Parser *ps, NodeKind k, int col) {
  Node *n = g_new0(Node, 1);
  n->kind = k;
  n->col = col;
  n->id = ps->ex->nodes->len;
  g_ptr_array_add(ps->ex->nodes, n);
  return n;
}

static int col_of(Parser *ps, const char *at) { return (int)(at - ps->text) + 1; }

static gboolean perr(Parser *ps, const char *at, const char *msg) {
  if (ps->error && !*ps->error)
    g_set_error(ps->error, MS_ERROR, MS_ERROR_SYNTAX, "%s: %s, column %d: %s in \"%s\"", ps->fn,
                ps->where, col_of(ps, at), msg, ps->text);
  return FALSE;
}

static void skip_ws(Parser *ps) {
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r') ps->p++;
}

static Node *parse_expr(Parser *ps);

static Node *parse_primary(Parser *ps) {
  skip_ws(ps);
  const char *at = ps->p;
  if (++ps->depth > 200) {
    perr(ps, at, "expression nested too deeply");
    return NULL;
  }
  Node *n = NULL;
  char c = *ps->p;
  if (c == '(') {
    ps->p++;
    n = parse_expr(ps);
    if (!n) return NULL;
    skip_ws(ps);
    if (*ps->p != ')') {
      perr(ps, ps->p, "expected ')'");
      return NULL;
    }
    ps->p++;
  } else if (c == '-' || c == '!' || c == '~' || c == '+') {
    ps->p++;
    Node *x = parse_primary(ps);
    if (!x) return NULL;
    if (c == '+') n = x;
    else {
      n = node_new(ps, c == '-' ? N_NEG : c == '!' ? N_NOT : N_BNOT, col_of(ps, at));
      n->a = x;
    }
  } else if (g_ascii_isdigit(c)) {
    guint64 v = 0;
    gboolean hex = c == '0' && (ps->p[1] == 'x' || ps->p[1] == 'X');
    if (hex) ps->p += 2;
    const char *d0 = ps->p;
    while (hex ? g_ascii_isxdigit(*ps->p) : g_ascii_isdigit(*ps->p)) {
      guint64 dv = (guint64)(hex ? g_ascii_xdigit_value(*ps->p) : g_ascii_digit_value(*ps->p));
      if (v > (G_MAXUINT64 - dv) / (hex ? 16 : 10) || v * (hex ? 16 : 10) + dv > (guint64)G_MAXINT64) {
        perr(ps, at, "integer constant beyond 2^63 - 1");
        return NULL;
      }
      v = v * (hex ? 16 : 10) + dv;
      ps->p++;
    }
    if (ps->p == d0 || g_ascii_isalpha(*ps->p) || *ps->p == '_') {
      perr(ps, at, "malformed number");
      return NULL;
    }
    n = node_new(ps, N_CONST, col_of(ps, at));
    n->value = (gint64)v;
    n->uniform = TRUE;
  } else if (g_ascii_isalpha(c) || c == '_') {
    while (g_ascii_isalnum(*ps->p) || *ps->p == '_') ps->p++;
    char *name = g_strndup(at, (gsize)(ps->p - at));
    skip_ws(ps);
    if (*ps->p == '(') { /* function call */
      NodeKind k;
      int nargs;
      if (strcmp(name, "min") == 0) k = N_MIN, nargs = 2;
      else if (strcmp(name, "max") == 0) k = N_MAX, nargs = 2;
      else if (strcmp(name, "abs") == 0) k = N_ABS, nargs = 1;
      else {
        char *m = g_strdup_printf("unknown function '%s' (known: min, max, abs)", name);
        perr(ps, at, m);
        g_free(m);
        g_free(name);
        return NULL;
      }
      g_free(name);
      ps->p++;
      n = node_new(ps, k, col_of(ps, at));
      n->a = parse_expr(ps);
      if (!n->a) return NULL;
      skip_ws(ps);
      if (nargs == 2) {
        if (*ps->p != ',') {
          perr(ps, ps->p, "expected ',' (min and max take two arguments)");
          return NULL;
        }
        ps->p++;
        n->b = parse_expr(ps);
        if (!n->b) return NULL;
        skip_ws(ps);
      }
      if (*ps->p != ')') {
        perr(ps, ps->p, "expected ')'");
        return NULL;
      }
      ps->p++;
    } else {
      MsSym sym;
      if (!ps->resolve(ps->rdata, name, &sym)) {
        char *m = g_strdup_printf("unknown name '%s'", name);
        perr(ps, at, m);
        g_free(m);
        g_free(name);
        return NULL;
      }
      if (sym.kind == MS_SYM_DATA || sym.kind == MS_SYM_ADDR) {
        if (*ps->p != '[') {
          char *m = g_strdup_printf("array '%s' needs an index: %s[...]", name, name);
          perr(ps, at, m);
          g_free(m);
          g_free(name);
          return NULL;
        }
        ps->p++;
        n = node_new(ps, N_INDEX, col_of(ps, at));
        n->sym = sym;
        n->a = parse_expr(ps);
        if (!n->a) {
          g_free(name);
          return NULL;
        }
        skip_ws(ps);
        if (*ps->p != ']') {
          g_free(name);
          perr(ps, ps->p, "expected ']'");
          return NULL;
        }
        ps->p++;
        if (sym.kind == MS_SYM_ADDR) {
          guint64 ew = ps->arrays[sym.slot].elem_words;
          if (ps->elem_words != 0 && ps->elem_words != ew) {
            g_free(name);
            perr(ps, at, "address arrays of different element sizes in one expression");
            return NULL;
          }
          ps->elem_words = ew;
        }
      } else {
        n = node_new(ps, N_SYM, col_of(ps, at));
        n->sym = sym;
        n->uniform = sym.kind == MS_SYM_SCALAR;
      }
      g_free(name);
    }
  } else {
    perr(ps, at, *at ? "unexpected character" : "unexpected end of expression");
    return NULL;
  }
  ps->depth--;
  return n;
}

typedef struct {
  const char *tok;
  BinOp op;
  int prec;
} OpInfo;

/* longest tokens first */
static const OpInfo ops[] = {
    {"||", B_LOR, 1}, {"&&", B_LAND, 2}, {"==", B_EQ, 6}, {"!=", B_NE, 6}, {"<=", B_LE, 7},
    {">=", B_GE, 7},  {"<<", B_SHL, 8},  {">>", B_SHR, 8}, {"|", B_OR, 3},  {"^", B_XOR, 4},
    {"&", B_AND, 5},  {"<", B_LT, 7},    {">", B_GT, 7},   {"+", B_ADD, 9}, {"-", B_SUB, 9},
    {"*", B_MUL, 10}, {"/", B_DIV, 10},  {"%", B_MOD, 10},
};

static const OpInfo *peek_op(Parser *ps) {
  skip_ws(ps);
  for (gsize i = 0; i < G_N_ELEMENTS(ops); i++)
    if (strncmp(ps->p, ops[i].tok, strlen(ops[i].tok)) == 0) return &ops[i];
  return NULL;
}

static Node *parse_bin(Parser *ps, int minprec) {
  Node *lhs = parse_primary(ps);
  if (!lhs) return NULL;
  for (;;) {
    const OpInfo *op = peek_op(ps);
    if (!op || op->prec < minprec) return lhs;
    const char *at = ps->p;
    ps->p += strlen(op->tok);
    Node *rhs = parse_bin(ps, op->prec + 1);
    if (!rhs) return NULL;
    Node *n = node_new(ps, N_BIN, col_of(ps, at));
    n->op = op->op;
    n->a = lhs;
    n->b = rhs;
    lhs = n;
  }
}

static Node *parse_expr(Parser *ps) {
  Node *c = parse_bin(ps, 1);
  if (!c) return NULL;
  skip_ws(ps);
  if (*ps->p != '?') return c;
  const char *at = ps->p++;
  Node *n = node_new(ps, N_COND, col_of(ps, at));
  n->a = c;
  n->b = parse_expr(ps);
  if (!n->b) return NULL;
  skip_ws(ps);
  if (*ps->p != ':') {
    perr(ps, ps->p, "expected ':' of '?:'");
    return NULL;
  }
  ps->p++;
  n->c = parse_expr(ps);
  return n->c ? n : NULL;
}

static gboolean is_affine(const Node *n);

static void set_uniform(Node *n) {
  if (!n) return;
  set_uniform(n->a);
  set_uniform(n->b);
  set_uniform(n->c);
  if (n->kind == N_CONST || n->kind == N_SYM) {
    n->buni = n->uniform || (n->kind == N_SYM && n->sym.kind == MS_SYM_BID);
    n->lonly = n->uniform || (n->kind == N_SYM && n->sym.kind == MS_SYM_LTID);
    return;
  }
  n->uniform = (!n->a || n->a->uniform) && (!n->b || n->b->uniform) && (!n->c || n->c->uniform);
  n->buni = (!n->a || n->a->buni) && (!n->b || n->b->buni) && (!n->c || n->c->buni);
  n->lonly = (!n->a || n->a->lonly) && (!n->b || n->b->lonly) && (!n->c || n->c->lonly);
}

/* Separable: the value is F(bid) + G(ltid) with F, G built from uniform values, so that a
 * block's values are another block's shifted by a constant (where no lane can overflow:
 * then the arithmetic is exact and distributes).  tid is bid * block_threads + ltid; sums,
 * differences, negation, products with a uniform factor, left shifts by a uniform count and
 * address-array indexing (base + index * elem_words) keep the form. */
static void set_sep(Node *n) {
  if (!n) return;
  set_sep(n->a);
  set_sep(n->b);
  set_sep(n->c);
  n->sep = n->buni || n->lonly;
  if (n->sep) return;
  switch (n->kind) {
  case N_SYM: n->sep = n->sym.kind == MS_SYM_TID; break;
  case N_NEG: n->sep = n->a->sep; break;
  case N_INDEX: n->sep = n->sym.kind == MS_SYM_ADDR && n->a->sep; break;
  case N_BIN:
    if (n->op == B_ADD || n->op == B_SUB) n->sep = n->a->sep && n->b->sep;
    else if (n->op == B_MUL) n->sep = (n->a->sep && n->b->uniform) || (n->a->uniform && n->b->sep);
    else if (n->op == B_SHL) n->sep = n->a->sep && n->b->uniform;
    break;
  default: break;
  }
}

/* Static bounds, so that a conjunction can skip a part that cannot fail (set_safe).  tid,
 * ltid and bid lie in [0, 2^32] (MS_MAX_THREADS); a scalar (a loop variable, a constant)
 * may be anything.  A node is safe when no lane can raise an error: no indexing, no
 * division by a possibly zero value, no shift or arithmetic that the bounds do not keep
 * inside 64 bits. */
static void set_full(Bnd *n) {
  n->lo = G_MININT64;
  n->hi = G_MAXINT64;
}

/* The bounds of n's value: static (lf NULL: tid, ltid and bid in [0, 2^32], scalars
 * anything) into n->st, or for one step (lf: the trace's threads and the scalars' current
 * values) into n->dy. */
static void set_safe_in(Node *n, const Leaf *lf) {
  if (!n) return;
  set_safe_in(n->a, lf);
  set_safe_in(n->b, lf);
  set_safe_in(n->c, lf);
  Bnd *N = lf ? &n->dy : &n->st;
  const Bnd *A = n->a ? (lf ? &n->a->dy : &n->a->st) : NULL, *B = n->b ? (lf ? &n->b->dy : &n->b->st) : NULL,
            *C = n->c ? (lf ? &n->c->dy : &n->c->st) : NULL;
  N->safe = FALSE;
  set_full(N);
  switch (n->kind) {
  case N_CONST:
    N->safe = TRUE;
    N->lo = N->hi = n->value;
    return;
  case N_SYM:
    N->safe = TRUE;
    if (n->sym.kind == MS_SYM_TID || n->sym.kind == MS_SYM_LTID || n->sym.kind == MS_SYM_BID) {
      N->lo = 0;
      N->hi = !lf ? (gint64)MS_MAX_THREADS
              : n->sym.kind == MS_SYM_TID ? lf->threads - 1
              : n->sym.kind == MS_SYM_LTID ? lf->block_threads - 1
                                            : lf->blocks - 1;
    } else if (lf && n->sym.kind == MS_SYM_SCALAR) {
      N->lo = N->hi = lf->scalars[n->sym.slot];
    }
    return;
  case N_INDEX: return;
  case N_NOT:
    N->safe = A->safe;
    N->lo = 0;
    N->hi = 1;
    return;
  case N_BNOT:
    N->safe = A->safe;
    if (N->safe) {
      N->lo = ~A->hi;
      N->hi = ~A->lo;
    }
    return;
  case N_NEG:
  case N_ABS:
    N->safe = A->safe && A->lo > G_MININT64;
    if (!N->safe) return;
    if (n->kind == N_NEG) {
      N->lo = -A->hi;
      N->hi = -A->lo;
    } else {
      N->lo = A->lo >= 0 ? A->lo : A->hi <= 0 ? -A->hi : 0;
      N->hi = MAX(A->hi, -A->lo);
    }
    return;
  case N_MIN:
  case N_MAX:
    N->safe = A->safe && B->safe;
    if (N->safe) {
      N->lo = n->kind == N_MIN ? MIN(A->lo, B->lo) : MAX(A->lo, B->lo);
      N->hi = n->kind == N_MIN ? MIN(A->hi, B->hi) : MAX(A->hi, B->hi);
    }
    return;
  case N_COND:
    N->safe = A->safe && B->safe && C->safe;
    if (N->safe) {
      N->lo = MIN(B->lo, C->lo);
      N->hi = MAX(B->hi, C->hi);
    }
    return;
  case N_BIN:
    break;
  }
  if (!A->safe || !B->safe) return;
  gint64 r[4];
  gboolean ovf = FALSE;
  switch (n->op) {
  case B_ADD:
    ovf = __builtin_add_overflow(A->lo, B->lo, &N->lo) || __builtin_add_overflow(A->hi, B->hi, &N->hi);
    break;
  case B_SUB:
    ovf = __builtin_sub_overflow(A->lo, B->hi, &N->lo) || __builtin_sub_overflow(A->hi, B->lo, &N->hi);
    break;
  case B_MUL:
    ovf = __builtin_mul_overflow(A->lo, B->lo, &r[0]) || __builtin_mul_overflow(A->lo, B->hi, &r[1]) ||
          __builtin_mul_overflow(A->hi, B->lo, &r[2]) || __builtin_mul_overflow(A->hi, B->hi, &r[3]);
    if (!ovf) {
      N->lo = MIN(MIN(r[0], r[1]), MIN(r[2], r[3]));
      N->hi = MAX(MAX(r[0], r[1]), MAX(r[2], r[3]));
    }
    break;
  case B_DIV:
  case B_MOD: { /* by a constant only */
    if (B->lo != B->hi || B->lo == 0 || (B->lo == -1 && A->lo == G_MININT64)) return;
    gint64 y = B->lo;
    if (n->op == B_DIV) {
      N->lo = y > 0 ? A->lo / y : A->hi / y;
      N->hi = y > 0 ? A->hi / y : A->lo / y;
    } else {
      gint64 m = y > 0 ? y - 1 : -(y + 1); /* |y| - 1 */
      N->lo = A->lo >= 0 ? 0 : -m;
      N->hi = A->hi <= 0 ? 0 : MIN(A->hi, m);
    }
    break;
  }
  case B_SHL:
    if (B->lo != B->hi || B->lo < 0 || B->lo > 63 || A->lo < 0 || (B->lo > 0 && (A->hi >> (63 - B->lo)) != 0)) return;
    N->lo = A->lo << B->lo;
    N->hi = A->hi << B->lo;
    break;
  case B_SHR:
    if (B->lo < 0 || B->hi > 63) return;
    if (A->lo >= 0) {
      N->lo = A->lo >> B->hi;
      N->hi = A->hi >> B->lo;
    }
    break;
  case B_AND:
    if (A->lo >= 0 && B->lo >= 0) {
      N->lo = 0;
      N->hi = MIN(A->hi, B->hi);
    }
    break;
  case B_OR:
  case B_XOR:
    break;
  default: /* comparisons and logic */
    N->lo = 0;
    N->hi = 1;
    break;
  }
  if (ovf) {
    set_full(N);
    return;
  }
  N->safe = TRUE;
}

static void set_safe(Node *n) { set_safe_in(n, NULL); }

/* The conjuncts c1 && c2 && ... of the root, in evaluation order. */
static void conj_collect(Node *n, GPtrArray *out) {
  if (n->kind == N_BIN && n->op == B_LAND) {
    conj_collect(n->a, out);
    conj_collect(n->b, out);
  } else {
    g_ptr_array_add(out, n);
  }
}

/* Conjuncts "tid OP E" or "bid OP E" (E uniform, OP < <= > >= ==, either side) that every
 * lane reaches without a possible error: all conjuncts before them are safe, so a lane that
 * one of them excludes is inactive and raises no error (&& stops there). */
static void set_range_conj(MsExpr *ex) {
  GPtrArray *cj = g_ptr_array_new();
  conj_collect(ex->root, cj);
  ex->rc = g_new(RangeConj, cj->len);
  ex->nrc = 0;
  ex->pat_when = TRUE;
  for (guint i = 0; i < cj->len; i++) {
    Node *n = g_ptr_array_index(cj, i);
    if (n->kind == N_BIN && (n->op == B_LT || n->op == B_LE || n->op == B_GT || n->op == B_GE || n->op == B_EQ)) {
      Node *var = n->a, *bound = n->b;
      BinOp op = n->op;
      if (!(var->kind == N_SYM && (var->sym.kind == MS_SYM_TID || var->sym.kind == MS_SYM_BID))) {
        var = n->b;
        bound = n->a;
        op = op == B_LT ? B_GT : op == B_LE ? B_GE : op == B_GT ? B_LT : op == B_GE ? B_LE : op;
      }
      if (var->kind == N_SYM && (var->sym.kind == MS_SYM_TID || var->sym.kind == MS_SYM_BID) && bound->uniform)
        ex->rc[ex->nrc++] = (RangeConj){var->sym.kind, op, bound};
    }
    if (!n->st.safe) break; /* later conjuncts are not reached without a possible error */
  }
  /* repeated blocks: every conjunct is the same for all lanes of a block, the same in every
   * block, or a range in rc (one past that point would not be covered by the thread range) */
  ex->bconj = g_new(guint, cj->len);
  ex->nbconj = 0;
  for (guint i = 0; i < cj->len; i++) {
    const Node *n = g_ptr_array_index(cj, i);
    if (n->buni) ex->bconj[ex->nbconj++] = n->id;
  }
  for (guint i = 0; i < cj->len && ex->pat_when; i++) {
    Node *n = g_ptr_array_index(cj, i);
    if (!n->buni && !n->lonly) {
      gboolean in_rc = FALSE;
      for (guint k = 0; k < ex->nrc; k++)
        in_rc |= ex->rc[k].bound == n->a || ex->rc[k].bound == n->b;
      ex->pat_when = in_rc;
    }
  }
  g_ptr_array_free(cj, TRUE);
}

/* Within one block, bid is uniform: nodes built from it and uniform values are evaluated
 * once for the block's lanes instead of once per lane. */
static void set_mode(MsExpr *ex, int sb) {
  if (ex->sb == sb) return;
  for (guint i = 0; i < ex->nodes->len; i++) {
    Node *n = g_ptr_array_index(ex->nodes, i);
    n->u = n->uniform || (sb && n->buni);
  }
  ex->sb = sb;
}

void ms_expr_free(MsExpr *e) {
  if (!e) return;
  g_free(e->rc);
  g_free(e->bconj);
  for (guint i = 0; i < e->nodes->len; i++) {
    Node *n = g_ptr_array_index(e->nodes, i);
    g_free(n->val);
    g_free(n->err);
    g_free(n);
  }
  g_ptr_array_free(e->nodes, TRUE);
  g_free(e->text);
  g_free(e->fn);
  g_free(e->where);
  g_free(e);
}

MsExpr *ms_expr_parse(const char *text, MsExprResolve resolve, gpointer rdata,
                      const MsExprArray *arrays, const char *fn, const char *where,
                      guint64 *elem_words, GError **error) {
  MsExpr *ex = g_new0(MsExpr, 1);
  ex->nodes = g_ptr_array_new();
  ex->text = g_strdup(text);
  ex->fn = g_strdup(fn);
  ex->where = g_strdup(where);
  Parser ps = {ex->text, ex->text, resolve, rdata, arrays, fn, where, error, ex, 0, 0};
  if (strlen(text) > 4096) {
    g_set_error(error, MS_ERROR, MS_ERROR_LIMIT, "%s: %s: expression longer than 4096 characters", fn, where);
    ms_expr_free(ex);
    return NULL;
  }
  ex->root = parse_expr(&ps);
  if (ex->root) {
    skip_ws(&ps);
    if (*ps.p) {
      perr(&ps, ps.p, "unexpected text after the expression");
      ex->root = NULL;
    }
  }
  if (!ex->root) {
    ms_expr_free(ex);
    return NULL;
  }
  set_uniform(ex->root);
  set_safe(ex->root);
  set_sep(ex->root);
  set_range_conj(ex);
  ex->affine = is_affine(ex->root) && !ex->root->uniform;
  ex->sb = -1;
  set_mode(ex, 0);
  for (guint i = 0; i < ex->nodes->len; i++) {
    Node *n = g_ptr_array_index(ex->nodes, i);
    if (n->buni && !n->uniform) ex->has_buni = TRUE;
    n->cap = 1;
    n->val = g_new(gint64, 1);
    n->err = g_new(guint32, 1);
  }
  if (elem_words) *elem_words = ps.elem_words ? ps.elem_words : 1;
  return ex;
}

/* A copy with its own evaluation buffers (the nodes hold each evaluation's lanes). */
MsExpr *ms_expr_clone(const MsExpr *e) {
  MsExpr *c = g_new0(MsExpr, 1);
  *c = *e;
  c->nodes = g_ptr_array_sized_new(e->nodes->len);
  for (guint i = 0; i < e->nodes->len; i++) {
    const Node *o = g_ptr_array_index(e->nodes, i);
    Node *n = g_new(Node, 1);
    *n = *o;
    n->cap = 1;
    n->val = g_new(gint64, 1);
    n->err = g_new(guint32, 1);
    n->anyerr = FALSE;
    g_ptr_array_add(c->nodes, n);
  }
  /* children by id: node ids are their indices */
  for (guint i = 0; i < c->nodes->len; i++) {
    Node *n = g_ptr_array_index(c->nodes, i);
    if (n->a) n->a = g_ptr_array_index(c->nodes, n->a->id);
    if (n->b) n->b = g_ptr_array_index(c->nodes, n->b->id);
    if (n->c) n->c = g_ptr_array_index(c->nodes, n->c->id);
  }
  c->root = g_ptr_array_index(c->nodes, e->root->id);
  c->rc = g_memdup2(e->rc, sizeof(RangeConj) * e->nrc);
  for (guint i = 0; i < e->nrc; i++) c->rc[i].bound = g_ptr_array_index(c->nodes, e->rc[i].bound->id);
  c->bconj = g_memdup2(e->bconj, sizeof(guint) * e->nbconj);
  c->text = g_strdup(e->text);
  c->fn = g_strdup(e->fn);
  c->where = g_strdup(e->where);
  return c;
}

gboolean ms_expr_is_uniform(const MsExpr *e) { return e->root->uniform; }
gboolean ms_expr_is_affine(const MsExpr *e) { return e->root->uniform || e->affine; }

/* Affine in tid: built from tid, uniform values, + - negation, products with a uniform
 * factor, and address-array indexing (base + index * elem_words).  Such a value is monotonic
 * over a range of threads, so checking both ends covers overflow and bounds in between. */
static gboolean is_affine(const Node *n) {
  if (n->uniform) return TRUE;
  switch (n->kind) {
  case N_SYM: return n->sym.kind == MS_SYM_TID;
  case N_NEG: return is_affine(n->a);
  case N_INDEX: return n->sym.kind == MS_SYM_ADDR && is_affine(n->a);
  case N_BIN:
    if (n->op == B_ADD || n->op == B_SUB) return is_affine(n->a) && is_affine(n->b);
    if (n->op == B_MUL) return (n->a->uniform && is_affine(n->b)) || (n->b->uniform && is_affine(n->a));
    return FALSE;
  default: return FALSE;
  }
}

#define ERR(n, code) (((n)->id + 1) << 4 | (code))

/* Lane errors are written only where some lane may have one: a node whose lanes all
 * succeeded may leave its err[] unwritten and says so by anyerr = FALSE; its readers then
 * take errs()'s zero lane (stride 0) instead. */
static const guint32 zero_err[1] = {0};

/* n's lane errors and their stride (0 or 1). */
static inline const guint32 *errs(const Node *n, guint64 *stride) {
  if (!n->anyerr) {
    *stride = 0;
    return zero_err;
  }
  *stride = !n->u;
  return n->err;
}

/* The error of lane i of n (after eval). */
static inline guint32 err_at(const Node *n, guint64 i) { return n->anyerr ? n->err[n->u ? 0 : i] : 0; }

/* Evaluate into n->val and, where lanes may fail, n->err; returns FALSE if every lane
 * succeeded and err[] was not written. */
static gboolean eval_node(Node *n, const MsExprEnv *env, guint64 first, guint64 count);

/* Evaluate, then note whether any lane failed (INDEX nodes note it themselves). */
static void eval(Node *n, const MsExprEnv *env, guint64 first, guint64 count) {
  if (!eval_node(n, env, first, count)) {
    n->anyerr = FALSE;
    return;
  }
  if (n->kind == N_INDEX) return;
  guint64 cnt = n->u ? 1 : count;
  guint32 any = 0;
  for (guint64 i = 0; i < cnt; i++) any |= n->err[i];
  n->anyerr = any != 0;
}

/* A binary operator over lanes none of whose operands failed: TRUE (v written, no lane
 * fails) or FALSE (some lane fails: the caller evaluates again with the lanes' errors). */
static gboolean bin_clean(const Node *n, gint64 *restrict v, const gint64 *restrict av, guint64 as,
                          const gint64 *restrict bv, guint64 bs, guint64 cnt) {
  guint64 bad = 0;
#define CLEAN(EXPR)                                                      \
  for (guint64 i = 0; i < cnt; i++) {                                    \
    const gint64 x = av[i * as], y = bv[i * bs];                         \
    EXPR;                                                                \
  }
  switch (n->op) {
  case B_ADD:
    CLEAN(const guint64 r = (guint64)x + (guint64)y; bad |= ((guint64)x ^ r) & ((guint64)y ^ r); v[i] = (gint64)r);
    return (bad >> 63) == 0;
  case B_SUB:
    CLEAN(const guint64 r = (guint64)x - (guint64)y; bad |= ((guint64)x ^ (guint64)y) & ((guint64)x ^ r); v[i] = (gint64)r);
    return (bad >> 63) == 0;
  case B_MUL:
    CLEAN(gint64 r; bad |= __builtin_mul_overflow(x, y, &r); v[i] = r);
    return bad == 0;
  case B_DIV:
  case B_MOD:
    CLEAN(bad |= y == 0 || (x == G_MININT64 && y == -1));
    if (bad) return FALSE;
    if (n->op == B_DIV) {
      CLEAN(v[i] = x / y);
    } else {
      CLEAN(v[i] = x % y);
    }
    return TRUE;
  case B_SHL:
    CLEAN(bad |= (guint64)y > 63 || x < 0 || (y > 0 && (x >> (63 - (y & 63))) != 0));
    if (bad) return FALSE;
    CLEAN(v[i] = x << y);
    return TRUE;
  case B_SHR:
    CLEAN((void)x; bad |= (guint64)y > 63);
    if (bad) return FALSE;
    CLEAN(v[i] = x >> y);
    return TRUE;
  case B_AND: CLEAN(v[i] = x & y); return TRUE;
  case B_OR: CLEAN(v[i] = x | y); return TRUE;
  case B_XOR: CLEAN(v[i] = x ^ y); return TRUE;
  case B_LT: CLEAN(v[i] = x < y); return TRUE;
  case B_LE: CLEAN(v[i] = x <= y); return TRUE;
  case B_GT: CLEAN(v[i] = x > y); return TRUE;
  case B_GE: CLEAN(v[i] = x >= y); return TRUE;
  case B_EQ: CLEAN(v[i] = x == y); return TRUE;
  case B_NE: CLEAN(v[i] = x != y); return TRUE;
  case B_LAND: CLEAN(v[i] = x && y); return TRUE;
  case B_LOR: CLEAN(v[i] = x || y); return TRUE;
  }
#undef CLEAN
  return FALSE;
}

static gboolean eval_node(Node *n, const MsExprEnv *env, guint64 first, guint64 count) {
  guint64 cnt = n->u ? 1 : count;
  if (cnt > n->cap) {
    n->cap = cnt;
    n->val = g_renew(gint64, n->val, cnt);
    n->err = g_renew(guint32, n->err, cnt);
  }
  gint64 *v = n->val;
  guint32 *er = n->err;
  if (n->kind == N_BIN && (n->op == B_LAND || n->op == B_LOR) && !n->u) {
    /* a && b with b the same for all lanes here (a tile test on bid in one block): when b
     * decides the result and a cannot fail, a is not evaluated (most blocks of a diagonal
     * kernel are idle).  When a is evaluated and decides every lane, b is not. */
    const gint64 decide = n->op == B_LOR; /* the value that decides: 1 for ||, 0 for && */
    if (n->b->u && n->a->st.safe) {
      eval(n->b, env, first, count);
      if (!err_at(n->b, 0) && (n->b->val[0] != 0) == decide) {
        for (guint64 i = 0; i < cnt; i++) v[i] = decide;
        return FALSE;
      }
    }
    eval(n->a, env, first, count);
    const gint64 *av = n->a->val;
    guint64 aes;
    const guint32 *ae = errs(n->a, &aes);
    const guint64 as = !n->a->u;
    gboolean all = TRUE;
    for (guint64 i = 0; i < cnt && all; i++) all = ae[i * aes] || (av[i * as] != 0) == decide;
    if (all) {
      if (!n->a->anyerr) {
        for (guint64 i = 0; i < cnt; i++) v[i] = decide;
        return FALSE;
      }
      for (guint64 i = 0; i < cnt; i++) {
        er[i] = ae[i * aes];
        v[i] = ae[i * aes] ? 0 : decide;
      }
      return TRUE;
    }
    if (!n->b->u || !n->a->st.safe) eval(n->b, env, first, count);
    const gint64 *bv = n->b->val;
    guint64 bes;
    const guint32 *be = errs(n->b, &bes);
    guint64 bs = !n->b->u;
    if (!n->a->anyerr && !n->b->anyerr) {
      if (decide) for (guint64 i = 0; i < cnt; i++) v[i] = av[i * as] || bv[i * bs];
      else for (guint64 i = 0; i < cnt; i++) v[i] = av[i * as] && bv[i * bs];
      return FALSE;
    }
    for (guint64 i = 0; i < cnt; i++) {
      gint64 x = av[i * as], y = bv[i * bs];
      guint32 e = ae[i * aes] ? ae[i * aes] : be[i * bes];
      if (!ae[i * aes] && (x != 0) == decide) e = 0; /* short circuit: b's error does not count */
      gint64 r = decide ? (x || y) : (x && y);
      v[i] = e ? 0 : r;
      er[i] = e;
    }
    return TRUE;
  }
  if (n->a) eval(n->a, env, first, count);
  if (n->b) eval(n->b, env, first, count);
  if (n->c) eval(n->c, env, first, count);
  const gint64 *av = n->a ? n->a->val : NULL, *bv = n->b ? n->b->val : NULL;
  guint64 aes = 0, bes = 0;
  const guint32 *ae = n->a ? errs(n->a, &aes) : NULL, *be = n->b ? errs(n->b, &bes) : NULL;
  const gboolean clean = (!n->a || !n->a->anyerr) && (!n->b || !n->b->anyerr) && (!n->c || !n->c->anyerr);
  guint64 as = n->a && !n->a->u, bs = n->b && !n->b->u; /* strides 0 or 1 */
  switch (n->kind) {
  case N_CONST:
    v[0] = n->value;
    return FALSE;
  case N_SYM:
    switch (n->sym.kind) {
    case MS_SYM_SCALAR:
      v[0] = env->scalars[n->sym.slot];
      return FALSE;
    case MS_SYM_TID:
      if (env->stride > 1) {
        for (guint64 i = 0; i < cnt; i++) v[i] = (gint64)(first + i * env->stride);
        break;
      }
      for (guint64 i = 0; i < cnt; i++) v[i] = (gint64)(first + i);
      break;
    case MS_SYM_LTID:
    case MS_SYM_BID:
      if (env->stride > 1) { /* lanes in different blocks (ms_expr_eval_strided) */
        const guint64 bt = env->block_threads;
        if (bt && env->stride % bt == 0) { /* the same lane of blocks stride / bt apart */
          const guint64 l = first % bt, b = first / bt, sb = env->stride / bt;
          if (n->sym.kind == MS_SYM_LTID) for (guint64 i = 0; i < cnt; i++) v[i] = (gint64)l;
          else for (guint64 i = 0; i < cnt; i++) v[i] = (gint64)(b + i * sb);
          break;
        }
        for (guint64 i = 0; i < cnt; i++) {
          const guint64 t = first + i * env->stride;
          v[i] = (gint64)(n->sym.kind == MS_SYM_LTID ? t % bt : t / bt);
        }
        break;
      }
      { /* incremental: no division per lane */
      guint64 bt = env->block_threads, l = first % bt, b = first / bt;
      gboolean want_l = n->sym.kind == MS_SYM_LTID;
      for (guint64 i = 0; i < cnt; i++) {
        v[i] = (gint64)(want_l ? l : b);
        if (++l == bt) {
          l = 0;
          b++;
        }
      }
      break;
    }
    default:
      break;
    }
    return FALSE;
  case N_NEG:
  case N_NOT:
  case N_BNOT:
  case N_ABS:
    if (clean && (n->kind == N_NOT || n->kind == N_BNOT)) {
      if (n->kind == N_NOT) for (guint64 i = 0; i < cnt; i++) v[i] = !av[i * as];
      else for (guint64 i = 0; i < cnt; i++) v[i] = ~av[i * as];
      return FALSE;
    }
    if (clean) {
      gboolean bad = FALSE;
      for (guint64 i = 0; i < cnt; i++) bad |= av[i * as] == G_MININT64;
      if (!bad) {
        if (n->kind == N_NEG) for (guint64 i = 0; i < cnt; i++) v[i] = -av[i * as];
        else for (guint64 i = 0; i < cnt; i++) v[i] = av[i * as] < 0 ? -av[i * as] : av[i * as];
        return FALSE;
      }
    }
    for (guint64 i = 0; i < cnt; i++) {
      gint64 x = av[i * as];
      er[i] = ae[i * aes];
      if (n->kind == N_NOT) v[i] = !x;
      else if (n->kind == N_BNOT) v[i] = ~x;
      else if (x == G_MININT64) {
        v[i] = 0;
        if (!er[i]) er[i] = ERR(n, E_OVERFLOW);
      } else v[i] = n->kind == N_NEG ? -x : (x < 0 ? -x : x);
    }
    return TRUE;
  case N_MIN:
  case N_MAX:
    for (guint64 i = 0; i < cnt; i++) {
      gint64 x = av[i * as], y = bv[i * bs];
      v[i] = n->kind == N_MIN ? MIN(x, y) : MAX(x, y);
    }
    if (clean) return FALSE;
    for (guint64 i = 0; i < cnt; i++) er[i] = ae[i * aes] ? ae[i * aes] : be[i * bes];
    return TRUE;
  case N_COND: {
    guint64 cs = !n->c->u, ces;
    const gint64 *cv = n->c->val;
    const guint32 *ce = errs(n->c, &ces);
    if (clean) {
      for (guint64 i = 0; i < cnt; i++) v[i] = av[i * as] ? bv[i * bs] : cv[i * cs];
      return FALSE;
    }
    for (guint64 i = 0; i < cnt; i++) {
      if (ae[i * aes]) {
        er[i] = ae[i * aes];
        v[i] = 0;
      } else if (av[i * as]) {
        v[i] = bv[i * bs];
        er[i] = be[i * bes];
      } else {
        v[i] = cv[i * cs];
        er[i] = ce[i * ces];
      }
    }
    return TRUE;
  }
  case N_INDEX: {
    const MsExprArray *arr = &env->arrays[n->sym.kind == MS_SYM_DATA || n->sym.kind == MS_SYM_ADDR ? n->sym.slot : 0];
    gboolean child_err = n->a->anyerr;
    guint32 any = 0;
    if (n->sym.kind == MS_SYM_DATA && !child_err && n->a->kind == N_SYM && n->a->sym.kind == MS_SYM_TID &&
        env->stride <= 1 && cnt && first + cnt <= arr->length) {
      /* d[tid] over consecutive threads, all within the array: a copy of the slice */
      memcpy(v, arr->values + first, cnt * sizeof *v);
      n->anyerr = FALSE;
      return FALSE;
    } else if (n->sym.kind == MS_SYM_DATA) {
      guint64 len = arr->length;
      for (guint64 i = 0; i < cnt; i++) {
        gint64 x = av[i * as];
        gboolean ok = (guint64)x < len; /* a negative index is a huge unsigned one */
        guint32 e = ok ? 0 : ERR(n, x < 0 ? E_NEGINDEX : E_INDEX);
        if (child_err && ae[i * aes]) e = ae[i * aes];
        v[i] = ok && !e ? arr->values[x] : 0;
        er[i] = e;
        any |= e;
      }
    } else {
      /* base + x * elem_words + word: the largest valid x is fixed for the call, so one
       * unsigned comparison per lane covers the bound, negative indices and overflow */
      gint64 off;
      guint64 lim;
      gboolean off_ok = !__builtin_add_overflow(arr->base, env->word, &off);
      lim = off_ok ? (guint64)(G_MAXINT64 - off) / arr->elem_words + 1 : 0; /* x < lim fits */
      guint64 bound = arr->bounded ? MIN(arr->length, lim) : lim;
      if (!child_err && as == 1) { /* one pass: the addresses, and whether any lane is out of range
                                     * (then the lanes are done again below, with their errors) */
        const gint64 ew = (gint64)arr->elem_words;
        guint64 bad = 0;
        if (ew == 1) {
          for (guint64 i = 0; i < cnt; i++) {
            bad |= (guint64)av[i] >= bound;
            v[i] = (gint64)((guint64)off + (guint64)av[i]); /* unsigned: a bad lane wraps, defined */
          }
        } else {
          for (guint64 i = 0; i < cnt; i++) {
            bad |= (guint64)av[i] >= bound;
            v[i] = (gint64)((guint64)off + (guint64)av[i] * (guint64)ew);
          }
        }
        if (!bad) {
          n->anyerr = FALSE;
          return FALSE;
        }
      }
      guint64 hi = 0; /* every lane in range and no error below: no per-lane error logic */
      for (guint64 i = 0; i < cnt && !child_err; i++) hi = MAX(hi, (guint64)av[i * as]);
      if (!child_err && hi < bound) {
        const gint64 ew = (gint64)arr->elem_words;
        for (guint64 i = 0; i < cnt; i++) v[i] = off + av[i * as] * ew;
        n->anyerr = FALSE;
        return FALSE;
      }
      for (guint64 i = 0; i < cnt; i++) {
        gint64 x = av[i * as];
        gboolean ok = (guint64)x < bound;
        guint32 e = ok ? 0
                    : ERR(n, x < 0 ? E_NEGINDEX
                             : (arr->bounded && (guint64)x >= arr->length) ? E_INDEX : E_OVERFLOW);
        if (child_err && ae[i * aes]) e = ae[i * aes];
        v[i] = ok && !e ? off + x * (gint64)arr->elem_words : 0;
        er[i] = e;
        any |= e;
      }
    }
    n->anyerr = any != 0;
    return TRUE;
  }
  case N_BIN:
    break;
  }
  /* Binary operators: the operator switch is outside the lane loops, and a uniform
   * power-of-two divisor becomes a shift or mask (the common case: % w, / w). */
  if ((n->op == B_DIV || n->op == B_MOD) && !bs && !be[0] && bv[0] > 0 && (bv[0] & (bv[0] - 1)) == 0) {
    gint64 y = bv[0];
    int k = __builtin_ctzll((guint64)y);
    for (guint64 i = 0; i < cnt; i++) {
      gint64 x = av[i * as];
      if (x >= 0) v[i] = n->op == B_DIV ? x >> k : x & (y - 1);
      else v[i] = n->op == B_DIV ? x / y : x % y;
    }
    if (!n->a->anyerr) return FALSE;
    for (guint64 i = 0; i < cnt; i++) er[i] = ae[i * aes];
    return TRUE;
  }
  if (clean && bin_clean(n, v, av, as, bv, bs, cnt)) return FALSE;
#define LANES(EXPR)                                                      \
  for (guint64 i = 0; i < cnt; i++) {                                    \
    gint64 x = av[i * as], y = bv[i * bs], r = 0;                        \
    guint32 e = ae[i * aes] ? ae[i * aes] : be[i * bes];                 \
    EXPR;                                                                \
    v[i] = e ? 0 : r;                                                    \
    er[i] = e;                                                           \
  }
  switch (n->op) {
  case B_ADD: LANES(if (__builtin_add_overflow(x, y, &r) && !e) e = ERR(n, E_OVERFLOW)); break;
  case B_SUB: LANES(if (__builtin_sub_overflow(x, y, &r) && !e) e = ERR(n, E_OVERFLOW)); break;
  case B_MUL: LANES(if (__builtin_mul_overflow(x, y, &r) && !e) e = ERR(n, E_OVERFLOW)); break;
  case B_DIV:
  case B_MOD:
    LANES(if (!e) {
      if (y == 0) e = ERR(n, E_DIV0);
      else if (x == G_MININT64 && y == -1) e = ERR(n, E_OVERFLOW);
      else r = n->op == B_DIV ? x / y : x % y;
    });
    break;
  case B_SHL:
    LANES(if (!e) {
      if (y < 0 || y > 63) e = ERR(n, E_SHIFT);
      else if (x < 0 || (y > 0 && (x >> (63 - y)) != 0)) e = ERR(n, E_OVERFLOW);
      else r = x << y;
    });
    break;
  case B_SHR:
    LANES(if (!e) {
      if (y < 0 || y > 63) e = ERR(n, E_SHIFT);
      else r = x >> y;
    });
    break;
  case B_AND: LANES(r = x & y); break;
  case B_OR: LANES(r = x | y); break;
  case B_XOR: LANES(r = x ^ y); break;
  case B_LT: LANES(r = x < y); break;
  case B_LE: LANES(r = x <= y); break;
  case B_GT: LANES(r = x > y); break;
  case B_GE: LANES(r = x >= y); break;
  case B_EQ: LANES(r = x == y); break;
  case B_NE: LANES(r = x != y); break;
  /* short circuit: an error on the unused right side does not count */
  case B_LAND: LANES(if (!ae[i * aes] && !x) e = 0; r = x && y); break;
  case B_LOR: LANES(if (!ae[i * aes] && x) e = 0; r = x || y); break;
  }
#undef LANES
  return TRUE;
}

static gboolean report(MsExpr *ex, guint32 e, guint64 thread, gboolean uniform, GError **error) {
  Node *n = g_ptr_array_index(ex->nodes, (e >> 4) - 1);
  if (uniform)
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s, column %d: %s in \"%s\"", ex->fn,
                ex->where, n->col, err_text[e & 15], ex->text);
  else
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "%s: %s, column %d: %s in \"%s\" (thread %" G_GUINT64_FORMAT ")", ex->fn,
                ex->where, n->col, err_text[e & 15], ex->text, thread);
  return FALSE;
}

static gboolean eval_range(MsExpr *ex, const MsExprEnv *env, guint64 first, guint64 count, const gint64 *active,
                           gint64 *out, GError **error) {
  Node *r = ex->root;
  guint64 bt = env->block_threads;
  set_mode(ex, ex->has_buni && bt > 0 && first / bt == (first + count - 1) / bt);
  if (ex->affine && count >= 2 && !active) {
    gint64 v0, v1, vl;
    eval(r, env, first, 1);
    gboolean bad = err_at(r, 0) != 0;
    v0 = r->val[0];
    eval(r, env, first + 1, 1);
    bad |= err_at(r, 0) != 0;
    v1 = r->val[0];
    eval(r, env, first + count - 1, 1);
    bad |= err_at(r, 0) != 0;
    vl = r->val[0];
    gint64 step = 0, span = 0, end = 0;
    if (!bad && !__builtin_sub_overflow(v1, v0, &step) &&
        !__builtin_mul_overflow(step, (gint64)(count - 1), &span) &&
        !__builtin_add_overflow(v0, span, &end) && end == vl) {
      for (guint64 i = 0; i < count; i++) out[i] = v0 + step * (gint64)i;
      return TRUE;
    }
    /* an error somewhere: the lane-by-lane pass below finds and reports it */
  }
  eval(r, env, first, count);
  if (r->u) {
    if (err_at(r, 0)) {
      for (guint64 i = 0; i < count; i++)
        if (!active || active[i]) return report(ex, r->err[0], first + i, r->uniform, error);
    }
    for (guint64 i = 0; i < count; i++) out[i] = r->val[0];
    return TRUE;
  }
  if (r->anyerr)
    for (guint64 i = 0; i < count; i++)
      if (r->err[i] && (!active || active[i])) return report(ex, r->err[i], first + i, FALSE, error);
  memcpy(out, r->val, count * sizeof *out);
  return TRUE;
}

gboolean ms_expr_eval(MsExpr *ex, const MsExprEnv *env, guint64 first, guint64 count, const gint64 *active,
                      gint64 *out, GError **error) {
  guint64 bt = env->block_threads;
  if (!ex->has_buni || bt < 16 || count == 0 || first / bt == (first + count - 1) / bt)
    return eval_range(ex, env, first, count, active, out, error);
  /* several blocks: one evaluation per block (the first error is still the lowest thread's) */
  for (guint64 s = 0; s < count;) {
    guint64 e = MIN(count, s + (bt - (first + s) % bt));
    if (!eval_range(ex, env, first + s, e - s, active ? active + s : NULL, out + s, error)) return FALSE;
    s = e;
  }
  return TRUE;
}

gboolean ms_expr_eval_scalar(MsExpr *ex, const MsExprEnv *env, gint64 *out, GError **error) {
  set_mode(ex, 0);
  eval(ex->root, env, 0, 1);
  if (err_at(ex->root, 0)) return report(ex, ex->root->err[0], 0, TRUE, error);
  *out = ex->root->val[0];
  return TRUE;
}

gboolean ms_expr_thread_range(MsExpr *ex, const MsExprEnv *env, guint64 threads, guint64 *first, guint64 *end) {
  gint64 lo = 0, hi = (gint64)threads; /* threads <= 2^32: products below stay in 64 bits */
  const gint64 bt = env->block_threads ? (gint64)env->block_threads : (gint64)threads;
  set_mode(ex, 0);
  for (guint i = 0; i < ex->nrc; i++) {
    const RangeConj *r = &ex->rc[i];
    eval(r->bound, env, 0, 1);
    if (err_at(r->bound, 0)) break; /* the lanes that reach it fail: they must be evaluated */
    const gint64 unit = r->sym == MS_SYM_BID ? bt : 1;
    const gint64 v = CLAMP(r->bound->val[0], -1, (gint64)threads / unit + 1);
    gint64 l = 0, h = (gint64)threads + 1; /* the thread ids that pass: [l, h) */
    switch (r->op) {
    case B_LT: h = v * unit; break;
    case B_LE: h = (v + 1) * unit; break;
    case B_GT: l = (v + 1) * unit; break;
    case B_GE: l = v * unit; break;
    default: /* B_EQ */
      l = v * unit;
      h = (v + 1) * unit;
      break;
    }
    lo = MAX(lo, l);
    hi = MIN(hi, h);
  }
  if (hi <= lo) lo = hi = 0;
  *first = (guint64)lo;
  *end = (guint64)hi;
  return ex->nrc > 0;
}

static Leaf leaf_of(const MsExprEnv *env, guint64 threads) {
  const guint64 bt = env->block_threads ? MIN(env->block_threads, threads) : threads;
  return (Leaf){(gint64)threads, (gint64)bt, (gint64)((threads + bt - 1) / bt), env->scalars};
}

gboolean ms_expr_block_separable(MsExpr *ex, const MsExprEnv *env, guint64 threads, gint64 *lo, gint64 *hi) {
  Node *r = ex->root;
  if (!r->sep || threads == 0) return FALSE;
  const Leaf lf = leaf_of(env, threads);
  set_safe_in(r, &lf);
  if (r->dy.safe) {
    *lo = 0; /* an address must not be negative */
    *hi = G_MAXINT64;
    return TRUE;
  }
  if (r->kind != N_INDEX || r->sym.kind != MS_SYM_ADDR || !r->a->dy.safe) return FALSE;
  /* the only lanes that can fail are those whose index is out of the array: the same test
   * as eval_node's, as an interval of addresses (index * elem_words steps) */
  const MsExprArray *arr = &env->arrays[r->sym.slot];
  gint64 off;
  if (__builtin_add_overflow(arr->base, env->word, &off) || off < 0) return FALSE;
  const guint64 lim = (guint64)(G_MAXINT64 - off) / arr->elem_words + 1;
  const guint64 bound = arr->bounded ? MIN(arr->length, lim) : lim;
  if (bound == 0) return FALSE;
  *lo = MAX(off, 0);
  *hi = off + (gint64)((bound - 1) * arr->elem_words);
  return TRUE;
}

gboolean ms_expr_block_predicate(MsExpr *ex, const MsExprEnv *env, guint64 threads) {
  if (!ex->pat_when || threads == 0) return FALSE;
  const Leaf lf = leaf_of(env, threads);
  set_safe_in(ex->root, &lf);
  return ex->root->dy.safe;
}

void ms_expr_block_idle(MsExpr *ex, const MsExprEnv *env, guint64 first, guint64 stride, guint64 count,
                        guint8 *idle) {
  memset(idle, 0, count);
  MsExprEnv e2 = *env;
  e2.stride = stride;
  set_mode(ex, 0); /* the lanes are in different blocks */
  for (guint k = 0; k < ex->nbconj; k++) {
    Node *n = g_ptr_array_index(ex->nodes, ex->bconj[k]);
    eval(n, &e2, first, count);
    const guint64 s = !n->u;
    for (guint64 i = 0; i < count; i++) idle[i] |= !err_at(n, i) && n->val[i * s] == 0;
  }
}

void ms_expr_eval_strided(MsExpr *ex, const MsExprEnv *env, guint64 first, guint64 stride, guint64 count,
                          gint64 *out, gboolean *bad) {
  MsExprEnv e2 = *env;
  e2.stride = stride;
  set_mode(ex, 0); /* the lanes are in different blocks */
  Node *r = ex->root;
  eval(r, &e2, first, count);
  const guint64 s = !r->u;
  for (guint64 i = 0; i < count; i++) {
    out[i] = r->val[i * s];
    bad[i] = err_at(r, i) != 0;
  }
}
