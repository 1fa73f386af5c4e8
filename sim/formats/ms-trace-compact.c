/* ms-trace-compact.c: the compact JSON trace form (docs/trace-format.md): constants, arrays
 * with base addresses and element sizes, data arrays for indirection (inline, generated or
 * from a binary file), address expressions with predicates, and loops.  Steps are produced
 * one at a time and addresses computed per chunk of threads, so a trace of millions of
 * threads and steps runs in memory for one chunk. */
#include "ms-formats.h"
#include "ms-expr.h"
#include "../workloads/ms-perm.h"
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#define MAX_NESTING 32
#define MAX_DATA_ELEMS (G_GUINT64_CONSTANT(1) << 32)
#define MAX_STEPS (G_GUINT64_CONSTANT(1) << 40)

enum { I_MEM, I_SYNC, I_LOOP };

typedef struct Item {
  int kind;
  MsStep step;
  MsExpr *addr, *when, *count;
  guint64 elem_words;
  guint var_slot;
  GPtrArray *body; /* of Item */
  char *where;
  gboolean loopvars; /* I_MEM: its addr reads a loop variable */
  gboolean when_loopvars; /* I_MEM: its when reads one */
} Item;

typedef struct {
  GPtrArray *items;
  guint idx;
  gint64 iter, count;
  guint var_slot;
} Frame;

/* Worker w's copies of the expressions it has met (the nodes hold each evaluation's lanes,
 * so two threads cannot share one), made on first use by that worker alone. */
typedef struct Worker {
  GHashTable *exprs; /* Item * -> MsExpr *[2] (when, addr) */
  gint64 *active;
} Worker;

typedef struct {
  char *fn;
  guint64 threads, block_threads;
  /* symbols */
  GHashTable *names;  /* name -> MsSym* */
  GArray *scalars;    /* gint64 */
  GArray *arrays;     /* MsExprArray */
  GPtrArray *data;    /* owned gint64* of data arrays */
  GPtrArray *root;    /* of Item */
  /* loop-variable bookkeeping while parsing */
  gboolean saw_loopvar;
  guint n_loopvars_base;
  /* execution */
  Frame stack[MAX_NESTING + 1];
  int depth;
  Item *cur;
  guint64 word;
  guint64 emitted;
  gint64 *active;
  MsExprEnv env;
  Worker *workers[MS_MAX_WORKERS]; /* fill_worker's state, per worker */
  /* repeated blocks, decided on the step's first block_repeats(): -1 not yet, 0 no, 1 yes */
  int rep;
  gint64 rep_lo, rep_hi;   /* addresses that pass the bounds */
  guint64 rng_lo, rng_hi;  /* the step's thread range */
  gint64 *rep_when;        /* block_shift's scratch: MS_BLOCK_BATCH values, 2 x as many flags */
  gboolean *rep_bad;
} Compact;

static void item_free(gpointer p) {
  Item *it = p;
  ms_expr_free(it->addr);
  ms_expr_free(it->when);
  ms_expr_free(it->count);
  if (it->body) g_ptr_array_free(it->body, TRUE);
  g_free(it->where);
  g_free(it);
}

static void compact_free(gpointer self) {
  Compact *c = self;
  g_free(c->fn);
  g_hash_table_destroy(c->names);
  g_array_free(c->scalars, TRUE);
  g_array_free(c->arrays, TRUE);
  g_ptr_array_free(c->data, TRUE);
  if (c->root) g_ptr_array_free(c->root, TRUE);
  g_free(c->active);
  g_free(c->rep_when);
  g_free(c->rep_bad);
  for (guint w = 0; w < MS_MAX_WORKERS; w++)
    if (c->workers[w]) {
      g_hash_table_destroy(c->workers[w]->exprs);
      g_free(c->workers[w]->active);
      g_free(c->workers[w]);
    }
  g_free(c);
}

static gboolean resolve(gpointer data, const char *name, MsSym *sym) {
  Compact *c = data;
  MsSym *s = g_hash_table_lookup(c->names, name);
  if (!s) return FALSE;
  *sym = *s;
  if (s->kind == MS_SYM_SCALAR && s->slot >= c->n_loopvars_base) c->saw_loopvar = TRUE;
  return TRUE;
}

static const char *const reserved[] = {"tid", "i", "ltid", "bid", "threads", "block_threads",
                                       "blocks", "min", "max", "abs", NULL};

static gboolean add_name(Compact *c, const char *name, MsSymKind kind, guint slot,
                         const char *where, GError **error) {
  gboolean ok = g_ascii_isalpha(name[0]) || name[0] == '_';
  for (const char *p = name; *p && ok; p++) ok = g_ascii_isalnum(*p) || *p == '_';
  if (!ok || !*name) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: \"%s\" is not a name (letters, digits, _)",
                c->fn, where, name);
    return FALSE;
  }
  if (g_hash_table_contains(c->names, name) || g_strv_contains(reserved, name)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: the name \"%s\" is already taken", c->fn,
                where, name);
    return FALSE;
  }
  MsSym *s = g_new(MsSym, 1);
  s->kind = kind;
  s->slot = slot;
  g_hash_table_insert(c->names, g_strdup(name), s);
  return TRUE;
}

static guint add_scalar(Compact *c, gint64 v) {
  g_array_append_val(c->scalars, v);
  c->env.scalars = (const gint64 *)(void *)c->scalars->data;
  return c->scalars->len - 1;
}

static MsExpr *parse_expr_item(Compact *c, const cJSON *it, const char *where, guint64 *ew,
                               GError **error) {
  char buf[32];
  const char *text;
  if (cJSON_IsNumber(it)) {
    gint64 v;
    if (!ms_json_get_int(it, G_MININT64 / 2, MS_MAX_JSON_INT, c->fn, where, &v, error)) return NULL;
    g_snprintf(buf, sizeof buf, "%" G_GINT64_FORMAT, v);
    text = buf;
    if (v < 0) {
      g_snprintf(buf, sizeof buf, "(0 - %" G_GINT64_FORMAT ")", -v);
    }
  } else if (cJSON_IsString(it)) {
    text = it->valuestring;
  } else {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: expected an integer or an expression string, got %s",
                c->fn, where, ms_json_type_name(it));
    return NULL;
  }
  return ms_expr_parse(text, resolve, c, (const MsExprArray *)(void *)c->arrays->data, c->fn, where, ew,
                       error);
}

/* A uniform value known at open time (constants, array bases, sizes). */
static gboolean static_value(Compact *c, const cJSON *it, const char *where, gint64 *out,
                             GError **error) {
  MsExpr *e = parse_expr_item(c, it, where, NULL, error);
  if (!e) return FALSE;
  gboolean ok = TRUE;
  if (!ms_expr_is_uniform(e)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "%s: %s: must not depend on the thread (tid, ltid, bid)", c->fn, where);
    ok = FALSE;
  }
  c->env.arrays = (const MsExprArray *)(void *)c->arrays->data;
  if (ok) ok = ms_expr_eval_scalar(e, &c->env, out, error);
  ms_expr_free(e);
  return ok;
}

static gint64 *read_data_file(Compact *c, const cJSON *spec, const char *where, guint64 *len,
                              GError **error) {
  static const char *const keys[] = {"file", "type", NULL};
  if (!ms_json_check_keys(spec, keys, c->fn, where, error)) return NULL;
  const char *file = ms_json_get_string(cJSON_GetObjectItemCaseSensitive(spec, "file"), c->fn, where, error);
  if (!file) return NULL;
  const cJSON *ty = cJSON_GetObjectItemCaseSensitive(spec, "type");
  const char *type = ty ? ms_json_get_string(ty, c->fn, where, error) : "u32";
  if (!type) return NULL;
  int size = strcmp(type, "u32") == 0 || strcmp(type, "i32") == 0 ? 4
             : strcmp(type, "u64") == 0 || strcmp(type, "i64") == 0 ? 8 : 0;
  if (!size) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s.type: unknown type \"%s\" (u32, i32, u64, i64)",
                c->fn, where, type);
    return NULL;
  }
  char *dir = g_path_get_dirname(c->fn);
  char *path = g_path_is_absolute(file) ? g_strdup(file) : g_build_filename(dir, file, NULL);
  g_free(dir);
  gchar *bytes = NULL;
  gsize n = 0;
  GError *e2 = NULL;
  /* the values are held as 8-byte integers: refuse what would not fit in half the memory */
  GStatBuf sb;
  guint64 phys = ms_memory_limit(); /* physical memory, or ulimit -v when lower */
  if (g_stat(path, &sb) == 0 && phys > 0 && (guint64)sb.st_size / (guint64)size * 16 > phys / 2) {
    g_set_error(error, MS_ERROR, MS_ERROR_LIMIT,
                "%s: %s: data file %s (%" G_GUINT64_FORMAT " bytes) would need more than half the memory this process may use",
                c->fn, where, path, (guint64)sb.st_size);
    g_free(path);
    return NULL;
  }
  if (!ms_file_check(path, error)) {
    g_free(path);
    return NULL;
  }
  if (!g_file_get_contents(path, &bytes, &n, &e2)) {
    g_set_error(error, MS_ERROR, MS_ERROR_IO, "%s: %s: cannot read data file %s: %s", c->fn, where, path,
                e2->message);
    g_error_free(e2);
    g_free(path);
    return NULL;
  }
  if (n % (gsize)size != 0 || n / (gsize)size > MAX_DATA_ELEMS) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "%s: %s: data file %s has %" G_GSIZE_FORMAT " bytes, not a whole number of %d-byte %s values (or too many)",
                c->fn, where, path, n, size, type);
    g_free(bytes);
    g_free(path);
    return NULL;
  }
  g_free(path);
  *len = n / (gsize)size;
  gint64 *v = g_new(gint64, MAX(*len, 1));
  const guint8 *b = (const guint8 *)bytes;
  for (guint64 i = 0; i < *len; i++) {
    guint64 x = 0;
    for (int k = size - 1; k >= 0; k--) x = (x << 8) | b[i * (guint64)size + (guint64)k];
    if (type[0] == 'i' && size == 4) v[i] = (gint32)(guint32)x;
    else if (type[0] == 'u' && size == 8 && x > (guint64)G_MAXINT64) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: value %" G_GUINT64_FORMAT " at element %" G_GUINT64_FORMAT " is beyond 2^63 - 1",
                  c->fn, where, x, i);
      g_free(v);
      g_free(bytes);
      return NULL;
    } else v[i] = (gint64)x;
  }
  g_free(bytes);
  return v;
}

static gboolean parse_arrays(Compact *c, const cJSON *arrays, GError **error) {
  if (!arrays) return TRUE;
  if (!cJSON_IsObject(arrays)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: arrays: expected an object, got %s", c->fn,
                ms_json_type_name(arrays));
    return FALSE;
  }
  gint64 next_base = 0;
  for (const cJSON *a = arrays->child; a; a = a->next) {
    char *where = g_strdup_printf("arrays.%s", a->string);
    gboolean ok = FALSE;
    MsExprArray arr = {0};
    if (!cJSON_IsObject(a)) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: expected an object, got %s", c->fn, where,
                  ms_json_type_name(a));
      goto next;
    }
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(a, "data");
    if (data) { /* a data array, for indirection */
      static const char *const dkeys[] = {"data", NULL};
      if (!ms_json_check_keys(a, dkeys, c->fn, where, error)) goto next;
      gint64 *vals = NULL;
      guint64 len = 0;
      char *dw = g_strdup_printf("%s.data", where);
      if (cJSON_IsArray(data)) {
        len = (guint64)cJSON_GetArraySize(data);
        vals = g_new(gint64, MAX(len, 1));
        guint64 k = 0;
        for (const cJSON *e = data->child; e; e = e->next, k++) {
          char *ew = g_strdup_printf("%s[%" G_GUINT64_FORMAT "]", dw, k);
          gboolean good = ms_json_get_int(e, -MS_MAX_JSON_INT, MS_MAX_JSON_INT, c->fn, ew, &vals[k], error);
          g_free(ew);
          if (!good) {
            g_free(vals);
            vals = NULL;
            break;
          }
        }
      } else if (cJSON_IsObject(data) && cJSON_GetObjectItemCaseSensitive(data, "file")) {
        vals = read_data_file(c, data, dw, &len, error);
      } else if (cJSON_IsObject(data) && cJSON_GetObjectItemCaseSensitive(data, "generate")) {
        static const char *const gkeys[] = {"generate", "n", "seed", NULL};
        if (ms_json_check_keys(data, gkeys, c->fn, dw, error)) {
          const char *kind = ms_json_get_string(cJSON_GetObjectItemCaseSensitive(data, "generate"), c->fn, dw, error);
          const cJSON *nj = cJSON_GetObjectItemCaseSensitive(data, "n");
          gint64 n = 0, seed = 0;
          char *nw = g_strdup_printf("%s.n", dw);
          if (kind && !nj)
            g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: missing key \"n\"", c->fn, dw);
          else if (kind && static_value(c, nj, nw, &n, error)) {
            const cJSON *sj = cJSON_GetObjectItemCaseSensitive(data, "seed");
            if (!sj || ms_json_get_int(sj, 0, MS_MAX_JSON_INT, c->fn, dw, &seed, error)) {
              GError *ge = NULL;
              if (n < 1) g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: n must be positive", c->fn, dw);
              else if (!(vals = ms_perm_generate(kind, (guint64)n, (guint64)seed, &ge))) {
                g_set_error(error, MS_ERROR, ge->code, "%s: %s: %s", c->fn, dw, ge->message);
                g_error_free(ge);
              }
              len = (guint64)n;
            }
          }
          g_free(nw);
        }
      } else {
        g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                    "%s: %s: expected an array of integers, {\"generate\": ...} or {\"file\": ...}", c->fn, dw);
      }
      g_free(dw);
      if (!vals) goto next;
      g_ptr_array_add(c->data, vals);
      arr.values = vals;
      arr.length = len;
      g_array_append_val(c->arrays, arr);
      ok = add_name(c, a->string, MS_SYM_DATA, c->arrays->len - 1, where, error);
    } else { /* an address array */
      static const char *const akeys[] = {"base", "elem_words", "length", NULL};
      if (!ms_json_check_keys(a, akeys, c->fn, where, error)) goto next;
      gint64 base = next_base, ew = 1, len = -1;
      const cJSON *b = cJSON_GetObjectItemCaseSensitive(a, "base");
      const cJSON *e = cJSON_GetObjectItemCaseSensitive(a, "elem_words");
      const cJSON *l = cJSON_GetObjectItemCaseSensitive(a, "length");
      char *bw = g_strdup_printf("%s.base", where), *ewh = g_strdup_printf("%s.elem_words", where),
           *lw = g_strdup_printf("%s.length", where);
      gboolean good = (!b || static_value(c, b, bw, &base, error)) &&
                      (!e || ms_json_get_int(e, 1, 64, c->fn, ewh, &ew, error)) &&
                      (!l || static_value(c, l, lw, &len, error));
      if (good && !b && next_base < 0) {
        g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                    "%s: %s: no base, and the array before it has no length to place it after", c->fn, where);
        good = FALSE;
      }
      if (good && (base < 0 || (l && len < 0))) {
        g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: base and length must not be negative", c->fn,
                    where);
        good = FALSE;
      }
      g_free(bw);
      g_free(ewh);
      g_free(lw);
      if (!good) goto next;
      arr.base = base;
      arr.elem_words = (guint64)ew;
      arr.bounded = l != NULL;
      arr.length = l ? (guint64)len : 0;
      gint64 end;
      if (l && !__builtin_mul_overflow(len, ew, &end) && !__builtin_add_overflow(end, base, &end))
        next_base = end;
      else
        next_base = -1;
      g_array_append_val(c->arrays, arr);
      ok = add_name(c, a->string, MS_SYM_ADDR, c->arrays->len - 1, where, error);
    }
  next:
    g_free(where);
    c->env.arrays = (const MsExprArray *)(void *)c->arrays->data;
    if (!ok) return FALSE;
  }
  return TRUE;
}

static GPtrArray *parse_steps(Compact *c, const cJSON *steps, const char *where, int depth,
                              guint64 *static_steps, GError **error);

static Item *parse_item(Compact *c, const cJSON *st, const char *where, int depth,
                        guint64 *static_steps, GError **error) {
  static const char *const mem_keys[] = {"op", "space", "addr", "when", "async", NULL};
  static const char *const sync_keys[] = {"op", "scope", NULL};
  static const char *const loop_keys[] = {"repeat", "var", "steps", NULL};
  if (!cJSON_IsObject(st)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: expected an object, got %s", c->fn, where,
                ms_json_type_name(st));
    return NULL;
  }
  Item *it = g_new0(Item, 1);
  it->where = g_strdup(where);
  if (cJSON_GetObjectItemCaseSensitive(st, "repeat")) {
    it->kind = I_LOOP;
    if (depth >= MAX_NESTING) {
      g_set_error(error, MS_ERROR, MS_ERROR_LIMIT, "%s: %s: loops nested deeper than %d", c->fn, where, MAX_NESTING);
      goto fail;
    }
    if (!ms_json_check_keys(st, loop_keys, c->fn, where, error)) goto fail;
    char *rw = g_strdup_printf("%s.repeat", where);
    c->saw_loopvar = FALSE;
    it->count = parse_expr_item(c, cJSON_GetObjectItemCaseSensitive(st, "repeat"), rw, NULL, error);
    gboolean dynamic = c->saw_loopvar;
    if (it->count && !ms_expr_is_uniform(it->count)) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: a loop count must not depend on the thread", c->fn, rw);
      g_free(rw);
      goto fail;
    }
    g_free(rw);
    if (!it->count) goto fail;
    guint64 count_bound = 0;
    if (!dynamic) {
      gint64 cnt;
      if (!ms_expr_eval_scalar(it->count, &c->env, &cnt, error)) goto fail;
      count_bound = cnt > 0 ? (guint64)cnt : 0;
    }
    const cJSON *var = cJSON_GetObjectItemCaseSensitive(st, "var");
    if (var) {
      char *vw = g_strdup_printf("%s.var", where);
      const char *vn = ms_json_get_string(var, c->fn, vw, error);
      gboolean ok = vn && add_name(c, vn, MS_SYM_SCALAR, add_scalar(c, 0), vw, error);
      g_free(vw);
      if (!ok) goto fail;
      it->var_slot = c->scalars->len - 1;
    } else {
      it->var_slot = add_scalar(c, 0); /* anonymous */
    }
    char *sw = g_strdup_printf("%s.steps", where);
    guint64 inner = 0;
    it->body = parse_steps(c, cJSON_GetObjectItemCaseSensitive(st, "steps"), sw, depth + 1, &inner, error);
    g_free(sw);
    if (var) g_hash_table_remove(c->names, var->valuestring); /* the variable's scope ends */
    if (!it->body) goto fail;
    if (dynamic) {
      *static_steps = G_MAXUINT64; /* unknown until run: checked while running */
    } else if (*static_steps != G_MAXUINT64) {
      guint64 add = 0;
      if (inner == G_MAXUINT64 || (count_bound && inner > MAX_STEPS / count_bound)) add = G_MAXUINT64;
      else add = inner * count_bound;
      if (add == G_MAXUINT64 || *static_steps + add > MAX_STEPS) {
        if (inner != G_MAXUINT64) {
          g_set_error(error, MS_ERROR, MS_ERROR_LIMIT,
                      "%s: %s: the loops expand to more than 2^40 steps", c->fn, where);
          goto fail;
        }
        *static_steps = G_MAXUINT64;
      } else {
        *static_steps += add;
      }
    }
    return it;
  }
  if (!ms_parse_op(st, c->fn, where, &it->step, error)) goto fail;
  if (it->step.op == MS_OP_SYNC) {
    it->kind = I_SYNC;
    if (!ms_json_check_keys(st, sync_keys, c->fn, where, error)) goto fail;
    if (*static_steps != G_MAXUINT64) ++*static_steps;
    return it;
  }
  it->kind = I_MEM;
  static const char *const shuffle_keys[] = {"op", "when", NULL};
  static const char *const flag_keys[] = {"op", "flag", "when", NULL};
  static const char *const compute_keys[] = {"op", "instructions", "when", NULL};
  /* an await step has a shuffle's form: the threads that take part */
  const gboolean shfl = it->step.op == MS_OP_SHUFFLE || it->step.op == MS_OP_AWAIT, flag = MS_OP_IS_FLAG(it->step.op);
  const gboolean comp = it->step.op == MS_OP_COMPUTE;
  if (!ms_json_check_keys(st, shfl ? shuffle_keys : flag ? flag_keys : comp ? compute_keys : mem_keys, c->fn, where, error))
    goto fail;
  c->saw_loopvar = FALSE; /* (it->loopvars: whether addr or when reads a loop variable) */
  /* signal and wait: a flag number per thread; compute: an instruction count per thread */
  const char *key = flag ? "flag" : comp ? "instructions" : "addr";
  char *aw = g_strdup_printf("%s.%s", where, key);
  if (shfl) { /* a shuffle has no address: its active threads get 0 (docs/trace-format.md) */
    cJSON *zero = cJSON_CreateString("0");
    it->addr = parse_expr_item(c, zero, aw, &it->elem_words, error);
    cJSON_Delete(zero);
  } else {
    const cJSON *ad = cJSON_GetObjectItemCaseSensitive(st, key);
    if (!ad) g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: missing key \"%s\"", c->fn, where, key);
    else it->addr = parse_expr_item(c, ad, aw, &it->elem_words, error);
  }
  if (it->addr && (flag || comp) && it->elem_words != 1) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "%s: %s: a %s is one number: the expression indexes arrays of %" G_GUINT64_FORMAT "-word elements",
                c->fn, aw, flag ? "flag" : "count", it->elem_words);
    g_clear_pointer(&it->addr, ms_expr_free);
  }
  g_free(aw);
  if (!it->addr) goto fail;
  it->loopvars = c->saw_loopvar;
  const cJSON *wh = cJSON_GetObjectItemCaseSensitive(st, "when");
  if (wh) {
    char *ww = g_strdup_printf("%s.when", where);
    c->saw_loopvar = FALSE;
    it->when = parse_expr_item(c, wh, ww, NULL, error);
    g_free(ww);
    if (!it->when) goto fail;
    it->when_loopvars = c->saw_loopvar;
  }
  if (*static_steps != G_MAXUINT64) *static_steps += it->elem_words;
  return it;
fail:
  item_free(it);
  return NULL;
}

static GPtrArray *parse_steps(Compact *c, const cJSON *steps, const char *where, int depth,
                              guint64 *static_steps, GError **error) {
  if (!steps || !cJSON_IsArray(steps)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: expected an array, got %s", c->fn, where,
                ms_json_type_name(steps));
    return NULL;
  }
  GPtrArray *items = g_ptr_array_new_with_free_func(item_free);
  int k = 0;
  for (const cJSON *st = steps->child; st; st = st->next, k++) {
    char *w = g_strdup_printf("%s[%d]", where, k);
    Item *it = parse_item(c, st, w, depth, static_steps, error);
    g_free(w);
    if (!it) {
      g_ptr_array_free(items, TRUE);
      return NULL;
    }
    g_ptr_array_add(items, it);
  }
  return items;
}

static MsNext compact_next(gpointer self, MsStep *step, GError **error) {
  Compact *c = self;
  if (c->cur && c->word + 1 < c->cur->elem_words) { /* next word of a multi-word element */
    c->word++;
    c->env.word = (gint64)c->word;
    *step = c->cur->step;
    goto emit;
  }
  c->cur = NULL;
  for (;;) {
    Frame *f = &c->stack[c->depth];
    if (f->idx >= f->items->len) {
      if (c->depth == 0) return MS_NEXT_END;
      if (++f->iter < f->count) {
        ((gint64 *)(void *)c->scalars->data)[f->var_slot] = f->iter;
        f->idx = 0;
      } else {
        c->depth--;
      }
      continue;
    }
    Item *it = g_ptr_array_index(f->items, f->idx++);
    if (it->kind == I_LOOP) {
      gint64 cnt;
      if (!ms_expr_eval_scalar(it->count, &c->env, &cnt, error)) return MS_NEXT_ERROR;
      if (cnt <= 0) continue;
      if ((guint64)cnt > MAX_STEPS) {
        g_set_error(error, MS_ERROR, MS_ERROR_LIMIT, "%s: %s.repeat: %" G_GINT64_FORMAT " is beyond the limit 2^40",
                    c->fn, it->where, cnt);
        return MS_NEXT_ERROR;
      }
      Frame *nf = &c->stack[++c->depth];
      nf->items = it->body;
      nf->idx = 0;
      nf->iter = 0;
      nf->count = cnt;
      nf->var_slot = it->var_slot;
      ((gint64 *)(void *)c->scalars->data)[it->var_slot] = 0;
      continue;
    }
    *step = it->step;
    if (it->kind == I_MEM) {
      c->cur = it;
      c->word = 0;
      c->env.word = 0;
    }
    goto emit;
  }
emit:
  c->rep = -1;
  if (++c->emitted > MAX_STEPS) {
    g_set_error(error, MS_ERROR, MS_ERROR_LIMIT, "%s: the trace expands to more than 2^40 steps", c->fn);
    return MS_NEXT_ERROR;
  }
  return MS_NEXT_STEP;
}

/* A signal or wait step's word for what other steps call an address. */
#define FLAG_OR(it, f, a) (MS_OP_IS_FLAG((it)->step.op) ? (f) : (it)->step.op == MS_OP_COMPUTE ? "instructions" : (a))

/* The current step's addresses for [first, first + count), evaluating `when` and `addr`
 * (the step's expressions or a worker's copies of them) with the lane buffer `active`. */
static gboolean fill_with(const Compact *c, const Item *it, MsExpr *when, MsExpr *addr_ex, gint64 *active,
                          guint64 first, guint64 count, gint64 *addr, GError **error) {
  for (guint64 done = 0; done < count;) {
    guint64 n = MIN(count - done, MS_EXPR_CHUNK);
    gint64 *out = addr + done;
    const gint64 *act = NULL;
    if (when) {
      if (!ms_expr_eval(when, &c->env, first + done, n, NULL, active, error)) return FALSE;
      act = active;
      guint64 nact = 0;
      for (guint64 i = 0; i < n; i++) nact += act[i] != 0;
      if (nact * 4 < n * 3) {
        /* Sparse predicate (a few warps of each block, a few blocks of a team): the
         * address is evaluated only over the runs of active lanes.  Same values and the
         * same first error (runs go in thread order) as one pass over all lanes. */
        for (guint64 i = 0; i < n;) {
          if (!act[i]) {
            out[i++] = MS_ADDR_NONE;
            continue;
          }
          guint64 e = i + 1;
          while (e < n && act[e]) e++;
          if (!ms_expr_eval(addr_ex, &c->env, first + done + i, e - i, NULL, out + i, error)) return FALSE;
          for (guint64 k = i; k < e; k++)
            if (out[k] < 0) {
              g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                          "%s: %s.%s: negative %s %" G_GINT64_FORMAT " (thread %" G_GUINT64_FORMAT ")", c->fn,
                          it->where, FLAG_OR(it, "flag", "addr"), FLAG_OR(it, "flag", "address"), out[k], first + done + k);
              return FALSE;
            }
          i = e;
        }
        done += n;
        continue;
      }
    }
    if (!ms_expr_eval(addr_ex, &c->env, first + done, n, act, out, error)) return FALSE;
    if (!act) { /* every lane active: one vector pass finds whether any address is negative */
      gint64 neg = 0;
      for (guint64 i = 0; i < n; i++) neg |= out[i];
      if (neg >= 0) {
        done += n;
        continue;
      }
    }
    for (guint64 i = 0; i < n; i++) {
      if (act && !act[i]) out[i] = MS_ADDR_NONE;
      else if (out[i] < 0) {
        g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                    "%s: %s.%s: negative %s %" G_GINT64_FORMAT " (thread %" G_GUINT64_FORMAT ")",
                    c->fn, it->where, FLAG_OR(it, "flag", "addr"), FLAG_OR(it, "flag", "address"), out[i], first + done + i);
        return FALSE;
      }
    }
    done += n;
  }
  return TRUE;
}

static gboolean compact_fill(gpointer self, guint64 first, guint64 count, gint64 *addr,
                             GError **error) {
  Compact *c = self;
  return fill_with(c, c->cur, c->cur->when, c->cur->addr, c->active, first, count, addr, error);
}

static void pair_free(gpointer p) {
  MsExpr **e = p;
  ms_expr_free(e[0]);
  ms_expr_free(e[1]);
  g_free(e);
}

static gboolean compact_fill_worker(gpointer self, guint w, guint64 first, guint64 count, gint64 *addr,
                                    GError **error) {
  Compact *c = self;
  Worker *wk = c->workers[w];
  if (!wk) {
    wk = c->workers[w] = g_new0(Worker, 1);
    wk->exprs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, pair_free);
    wk->active = g_new(gint64, MS_EXPR_CHUNK);
  }
  Item *it = c->cur;
  MsExpr **e = g_hash_table_lookup(wk->exprs, it);
  if (!e) {
    e = g_new(MsExpr *, 2);
    e[0] = it->when ? ms_expr_clone(it->when) : NULL;
    e[1] = ms_expr_clone(it->addr);
    g_hash_table_insert(wk->exprs, it, e);
  }
  return fill_with(c, it, e[0], e[1], wk->active, first, count, addr, error);
}

/* The current step's threads that can be active, from its `when` (ms_expr_thread_range):
 * a kernel over a few tiles of a large grid fills only those tiles' warps. */
static void compact_active_range(gpointer self, guint64 *first, guint64 *end) {
  Compact *c = self;
  *first = 0;
  *end = c->threads;
  if (c->cur && c->cur->when) ms_expr_thread_range(c->cur->when, &c->env, c->threads, first, end);
}

/* Repeated blocks: the address is F(bid) + G(ltid) and the predicate's conjuncts are ranges,
 * block-uniform or of ltid alone, none of them able to fail (ms_expr_block_*).  Then a full
 * block inside the range has the lanes and the shifted addresses of any other whose
 * block-uniform conjuncts hold, which lane `lane`'s predicate tells. */
static gboolean compact_block_repeats(gpointer self) {
  Compact *c = self;
  if (c->rep < 0) {
    const Item *it = c->cur;
    c->rep = it && it->addr && c->block_threads < c->threads &&
             ms_expr_block_separable(it->addr, &c->env, c->threads, &c->rep_lo, &c->rep_hi) &&
             (!it->when || ms_expr_block_predicate(it->when, &c->env, c->threads));
    c->rng_lo = 0;
    c->rng_hi = c->threads;
    if (c->rep && it->when) ms_expr_thread_range(it->when, &c->env, c->threads, &c->rng_lo, &c->rng_hi);
  }
  return c->rep == 1;
}

static void compact_block_shift(gpointer self, guint64 b0, guint64 n, guint64 lane, guint8 *kind, gint64 *at,
                                gint64 *lo, gint64 *hi) {
  Compact *c = self;
  if (!compact_block_repeats(self) || (lane >= c->block_threads && lane != MS_BLOCK_NO_LANE)) {
    memset(kind, MS_BLOCK_FILL, n);
    return;
  }
  if (!c->rep_when) {
    c->rep_when = g_new(gint64, MS_BLOCK_BATCH);
    c->rep_bad = g_new(gboolean, 2 * MS_BLOCK_BATCH);
  }
  const guint64 bt = c->block_threads;
  if (lane == MS_BLOCK_NO_LANE) {
    /* no reference yet: the blocks where a block-uniform conjunct of the predicate is false */
    if (!c->cur->when) {
      memset(kind, MS_BLOCK_FILL, n);
      return;
    }
    ms_expr_block_idle(c->cur->when, &c->env, b0 * bt, bt, n, kind);
    for (guint64 i = 0; i < n; i++) {
      const guint64 t0 = (b0 + i) * bt;
      kind[i] = kind[i] && t0 >= c->rng_lo && t0 + bt <= c->rng_hi ? MS_BLOCK_IDLE : MS_BLOCK_FILL;
    }
    return;
  }
  gboolean *wbad = c->rep_bad, *abad = c->rep_bad + MS_BLOCK_BATCH;
  /* lane `lane` of each block: the predicate is its block-uniform conjuncts there */
  if (c->cur->when) {
    ms_expr_eval_strided(c->cur->when, &c->env, b0 * bt + lane, bt, n, c->rep_when, wbad);
    /* the address only where it is used: the blocks whose predicate holds (runs of them) */
    guint64 nact = 0;
    for (guint64 i = 0; i < n; i++) nact += c->rep_when[i] && !wbad[i];
    if (nact * 4 < n * 3) {
      for (guint64 i = 0; i < n;) {
        if (!c->rep_when[i] || wbad[i]) {
          at[i] = 0;
          abad[i++] = TRUE; /* not used: such a block is idle (or filled) */
          continue;
        }
        guint64 e = i + 1;
        while (e < n && c->rep_when[e] && !wbad[e]) e++;
        ms_expr_eval_strided(c->cur->addr, &c->env, (b0 + i) * bt + lane, bt, e - i, at + i, abad + i);
        i = e;
      }
    } else {
      ms_expr_eval_strided(c->cur->addr, &c->env, b0 * bt + lane, bt, n, at, abad);
    }
  } else {
    ms_expr_eval_strided(c->cur->addr, &c->env, b0 * bt + lane, bt, n, at, abad);
  }
  for (guint64 i = 0; i < n; i++) {
    const guint64 t0 = (b0 + i) * bt;
    if (t0 < c->rng_lo || t0 + bt > c->rng_hi) kind[i] = MS_BLOCK_FILL;
    else if (c->cur->when && wbad[i]) kind[i] = MS_BLOCK_FILL; /* cannot happen: no conjunct can fail */
    else if (c->cur->when && !c->rep_when[i]) kind[i] = MS_BLOCK_IDLE;
    else kind[i] = abad[i] ? MS_BLOCK_FILL : MS_BLOCK_SHIFTED; /* bad: out of the array */
  }
  *lo = c->rep_lo;
  *hi = c->rep_hi;
}

/* Repeated kernel counts (docs/performance.md): right after a grid barrier, the kernel that
 * follows is the sequence of items a walk from here meets up to the next grid barrier (loop
 * counts evaluated as next() would), each with its addresses' values at threads 0 and 1
 * where its address reads a loop variable and is affine in tid, else the loop variables'
 * values where its expressions read one.  Two kernels with the same sequence have the same steps and
 * addresses: their key is its hash.  No key for a kernel that ends the trace, one longer than
 * KEY_WALK_MAX items, or a loop count next() will refuse.  The walk leaves the state as it
 * found it (next() and fill() are not running: the engine asks between steps). */
#define KEY_WALK_MAX (G_GUINT64_CONSTANT(1) << 22)

static gboolean compact_kernel_key(gpointer self, guint64 *key) {
  Compact *c = self;
  if (c->cur) return FALSE; /* (not after a grid barrier: mid-element) */
  const int depth0 = c->depth;
  Frame saved[MAX_NESTING + 1];
  memcpy(saved, c->stack, sizeof saved);
  gint64 *sc = (gint64 *)(void *)c->scalars->data;
  const guint nsc = c->scalars->len;
  gint64 *vals = g_memdup2(sc, nsc * sizeof *sc);
  const gint64 word0 = c->env.word;
  c->env.word = 0; /* (an element's first word: the addresses' values below) */
  guint64 h = G_GUINT64_CONSTANT(0xcbf29ce484222325), walked = 0;
#define KMIX(x) (h = (h ^ (guint64)(x)) * G_GUINT64_CONSTANT(0x100000001b3), h ^= h >> 31)
  gboolean found = FALSE;
  while (walked++ < KEY_WALK_MAX) {
    Frame *f = &c->stack[c->depth];
    if (f->idx >= f->items->len) {
      if (c->depth == 0) break; /* the trace ends */
      if (++f->iter < f->count) {
        sc[f->var_slot] = f->iter;
        f->idx = 0;
      } else {
        c->depth--;
      }
      continue;
    }
    const Item *it = g_ptr_array_index(f->items, f->idx++);
    if (it->kind == I_LOOP) {
      gint64 cnt;
      if (!ms_expr_eval_scalar(it->count, &c->env, &cnt, NULL) || (cnt > 0 && (guint64)cnt > MAX_STEPS)) break;
      if (cnt <= 0) continue;
      Frame *nf = &c->stack[++c->depth];
      nf->items = it->body;
      nf->idx = 0;
      nf->iter = 0;
      nf->count = cnt;
      nf->var_slot = it->var_slot;
      sc[it->var_slot] = 0;
      continue;
    }
    KMIX((guint64)(guintptr)it);
    if (it->kind == I_SYNC) {
      if (it->step.scope == MS_SCOPE_GRID) {
        found = TRUE;
        break;
      }
      continue;
    }
    if (!it->loopvars && !it->when_loopvars) continue;
    /* an address affine in tid (a ping-pong's a[(v % 2) * n + tid]) is known from its values
     * at threads 0 and 1, whatever loop variables gave them; else the variables' values */
    gint64 v[2];
    if (!it->when_loopvars && ms_expr_is_affine(it->addr) &&
        ms_expr_eval(it->addr, &c->env, 0, MIN(c->threads, (guint64)2), NULL, v, NULL)) {
      KMIX(1);
      KMIX(v[0]);
      if (c->threads > 1) KMIX(v[1]);
    } else {
      KMIX(2);
      for (guint x = c->n_loopvars_base; x < nsc; x++) KMIX(sc[x]);
    }
  }
#undef KMIX
  c->depth = depth0;
  c->env.word = word0;
  memcpy(c->stack, saved, sizeof saved);
  memcpy(sc, vals, nsc * sizeof *sc);
  g_free(vals);
  *key = h;
  return found;
}

static const MsSourceFuncs compact_funcs = {compact_next,        compact_fill,          compact_free,
                                            compact_active_range, compact_fill_worker,   compact_block_repeats,
                                            compact_block_shift,  NULL,                  compact_kernel_key};

MsSource *ms_trace_compact_from_json(const cJSON *root, const char *fn, GError **error) {
  static const char *const keys[] = {"memsim_trace", "form", "name", "threads", "block_threads",
                                     "shared_words", "global_words", "constants", "arrays", "steps", NULL};
  if (!ms_json_check_keys(root, keys, fn, "trace", error)) return NULL;
  char *name;
  guint64 threads, bt, shared_words, global_words;
  if (!ms_parse_header(root, fn, &name, &threads, &bt, error)) return NULL;
  g_free(name);
  if (!ms_parse_shared_words(root, fn, &shared_words, error) ||
      !ms_parse_global_words(root, fn, &global_words, error))
    return NULL;
  Compact *c = g_new0(Compact, 1);
  c->fn = g_strdup(fn);
  c->threads = threads;
  c->block_threads = bt;
  c->names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  c->scalars = g_array_new(FALSE, FALSE, sizeof(gint64));
  c->arrays = g_array_new(FALSE, FALSE, sizeof(MsExprArray));
  c->data = g_ptr_array_new_with_free_func(g_free);
  c->active = g_new(gint64, MS_EXPR_CHUNK);
  c->env.block_threads = bt;
  c->env.arrays = (const MsExprArray *)(void *)c->arrays->data;
  MsSym s = {MS_SYM_TID, 0};
  g_hash_table_insert(c->names, g_strdup("tid"), g_memdup2(&s, sizeof s));
  g_hash_table_insert(c->names, g_strdup("i"), g_memdup2(&s, sizeof s));
  s.kind = MS_SYM_LTID;
  g_hash_table_insert(c->names, g_strdup("ltid"), g_memdup2(&s, sizeof s));
  s.kind = MS_SYM_BID;
  g_hash_table_insert(c->names, g_strdup("bid"), g_memdup2(&s, sizeof s));
  s.kind = MS_SYM_SCALAR;
  s.slot = add_scalar(c, (gint64)threads);
  g_hash_table_insert(c->names, g_strdup("threads"), g_memdup2(&s, sizeof s));
  s.slot = add_scalar(c, (gint64)bt);
  g_hash_table_insert(c->names, g_strdup("block_threads"), g_memdup2(&s, sizeof s));
  s.slot = add_scalar(c, (gint64)((threads + bt - 1) / bt));
  g_hash_table_insert(c->names, g_strdup("blocks"), g_memdup2(&s, sizeof s));

  const cJSON *consts = cJSON_GetObjectItemCaseSensitive(root, "constants");
  if (consts && !cJSON_IsObject(consts)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: constants: expected an object, got %s", fn,
                ms_json_type_name(consts));
    goto fail;
  }
  if (consts) {
    for (const cJSON *k = consts->child; k; k = k->next) {
      char *w = g_strdup_printf("constants.%s", k->string);
      gint64 v;
      gboolean ok = static_value(c, k, w, &v, error) &&
                    add_name(c, k->string, MS_SYM_SCALAR, add_scalar(c, v), w, error);
      g_free(w);
      if (!ok) goto fail;
    }
  }
  if (!parse_arrays(c, cJSON_GetObjectItemCaseSensitive(root, "arrays"), error)) goto fail;
  c->n_loopvars_base = c->scalars->len;
  guint64 static_steps = 0;
  c->root = parse_steps(c, cJSON_GetObjectItemCaseSensitive(root, "steps"), "steps", 0, &static_steps, error);
  if (!c->root) goto fail;
  c->stack[0].items = c->root;
  c->env.scalars = (const gint64 *)(void *)c->scalars->data;
  c->env.arrays = (const MsExprArray *)(void *)c->arrays->data;
  MsSource *src = ms_source_new(fn, threads, bt, &compact_funcs, c);
  ms_source_set_shared_words(src, shared_words);
  ms_source_set_global_words(src, global_words);
  return src;
fail:
  compact_free(c);
  return NULL;
}
