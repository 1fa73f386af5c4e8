/* ms-bulk.c: the family "bulk" (docs/workloads/bulk.md): a sequential program's accesses
 * to its own memory, arranged for p instances, as a compact trace.
 *
 * The program (bulk-program JSON) is turned into two compact traces: the sequential one
 * (one thread, addresses = word indices, exactly the program's expressions, so reader
 * errors point into the program's own text) and the arranged one (p threads, each address
 * wrapped as mem[(x) * p + tid] or mem[tid * words + (x)]).  Verification walks both in
 * lockstep (MsBulkCursor): same ops, and each checked instance's address decodes to its
 * own instance and to the word the sequential program accesses.  Built-ins then run on
 * that memory, loading and storing only through the decoded addresses. */
#include "ms-bulk-private.h"
#include "ms-perm.h"
#include "ms-private.h"
#include <string.h>

const char *const ms_bulk_algorithms[] = {"program", "prefix-sums", "bitonic", "floyd-warshall", "montgomery", "cky",
                                          "school", "comba", NULL};

#define MAX_PROGRAM_BYTES (64u << 20)
#define MAX_DEPTH 32

/* ---- the bulk-program form ----------------------------------------------------------- */

typedef enum { WRAP_SEQ, WRAP_COLUMN, WRAP_ROW } Wrap;

static gboolean form_fail(GError **error, const char *fn, const char *where, const char *msg) {
  g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: %s: %s", fn, where, msg);
  return FALSE;
}

/* An expression item (string, or an integer) as text. */
static char *expr_text(const cJSON *e, const char *fn, const char *where, GError **error) {
  if (cJSON_IsString(e)) return g_strdup(e->valuestring);
  gint64 v;
  if (cJSON_IsNumber(e)) return ms_json_get_int(e, G_MININT64 / 2, G_MAXINT64 / 2, fn, where, &v, error)
                                    ? g_strdup_printf("%" G_GINT64_FORMAT, v) : NULL;
  form_fail(error, fn, where, "expected an expression (a string or an integer)");
  return NULL;
}

static char *wrap_addr(const char *x, Wrap wrap, guint64 p, guint64 words) {
  if (wrap == WRAP_SEQ) return g_strdup(x);
  if (wrap == WRAP_COLUMN) return g_strdup_printf("mem[(%s) * %" G_GUINT64_FORMAT " + tid]", x, p);
  return g_strdup_printf("mem[tid * %" G_GUINT64_FORMAT " + (%s)]", words, x);
}

/* A copy of the program's steps with every address wrapped; checks keys and types. */
static cJSON *steps_copy(const cJSON *steps, const char *fn, const char *where, int depth, Wrap wrap, guint64 p,
                         guint64 words, GError **error) {
  static const char *const mem_keys[] = {"op", "addr", "when", NULL};
  static const char *const loop_keys[] = {"repeat", "var", "steps", NULL};
  if (!cJSON_IsArray(steps)) {
    form_fail(error, fn, where, "expected an array of steps");
    return NULL;
  }
  if (depth > MAX_DEPTH) {
    form_fail(error, fn, where, "loops nest deeper than 32");
    return NULL;
  }
  cJSON *out = cJSON_CreateArray();
  int i = 0;
  for (const cJSON *st = steps->child; st; st = st->next, i++) {
    char *w = g_strdup_printf("%s[%d]", where, i);
    gboolean ok = cJSON_IsObject(st) || form_fail(error, fn, w, "expected an object");
    cJSON *o = NULL;
    if (ok && cJSON_GetObjectItemCaseSensitive(st, "repeat")) {
      ok = ms_json_check_keys(st, loop_keys, fn, w, error);
      const cJSON *var = cJSON_GetObjectItemCaseSensitive(st, "var");
      if (ok && var && !cJSON_IsString(var)) ok = form_fail(error, fn, w, "var: expected a name (a string)");
      char *ww = g_strdup_printf("%s.steps", w);
      cJSON *inner = ok ? steps_copy(cJSON_GetObjectItemCaseSensitive(st, "steps"), fn, ww, depth + 1, wrap, p, words,
                                     error) : NULL;
      g_free(ww);
      if (inner) {
        o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "repeat", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(st, "repeat"), TRUE));
        if (var) cJSON_AddStringToObject(o, "var", var->valuestring);
        cJSON_AddItemToObject(o, "steps", inner);
      }
      ok = o != NULL;
    } else if (ok) {
      ok = ms_json_check_keys(st, mem_keys, fn, w, error);
      const cJSON *op = cJSON_GetObjectItemCaseSensitive(st, "op");
      const cJSON *addr = cJSON_GetObjectItemCaseSensitive(st, "addr");
      if (ok && (!cJSON_IsString(op) || (strcmp(op->valuestring, "read") && strcmp(op->valuestring, "write"))))
        ok = form_fail(error, fn, w, "op: expected \"read\" or \"write\" (a bulk program has no barriers)");
      if (ok && !addr) ok = form_fail(error, fn, w, "addr is missing");
      char *aw = g_strdup_printf("%s.addr", w);
      char *x = ok ? expr_text(addr, fn, aw, error) : NULL;
      g_free(aw);
      if (x) {
        char *a = wrap_addr(x, wrap, p, words);
        o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "op", op->valuestring);
        cJSON_AddStringToObject(o, "addr", a);
        const cJSON *when = cJSON_GetObjectItemCaseSensitive(st, "when");
        if (when) cJSON_AddItemToObject(o, "when", cJSON_Duplicate(when, TRUE));
        g_free(a);
      }
      g_free(x);
      ok = o != NULL;
    }
    g_free(w);
    if (!ok) {
      cJSON_Delete(out);
      return NULL;
    }
    cJSON_AddItemToArray(out, o);
  }
  return out;
}

/* The compact trace of the program: sequential (p = 1, WRAP_SEQ) or arranged. */
static char *program_trace(const char *program, gsize length, const char *fn, Wrap wrap, guint64 p,
                           guint64 block_threads, guint64 *words_out, GError **error) {
  static const char *const keys[] = {"memsim_bulk", "name", "words", "constants", "steps", NULL};
  cJSON *root = ms_json_parse(program, length, fn, error);
  if (!root) return NULL;
  char *text = NULL;
  cJSON *out = NULL;
  guint64 version, words;
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
  const cJSON *consts = cJSON_GetObjectItemCaseSensitive(root, "constants");
  if (!cJSON_IsObject(root)) {
    form_fail(error, fn, "program", "expected a JSON object");
    goto out;
  }
  if (!ms_json_check_keys(root, keys, fn, "program", error)) goto out;
  if (!cJSON_GetObjectItemCaseSensitive(root, "memsim_bulk")) {
    form_fail(error, fn, "program", "not a bulk program (no \"memsim_bulk\": 1)");
    goto out;
  }
  if (!ms_json_get_uint(cJSON_GetObjectItemCaseSensitive(root, "memsim_bulk"), 1, 1, fn, "memsim_bulk", &version, error))
    goto out;
  if (!cJSON_GetObjectItemCaseSensitive(root, "words")) {
    form_fail(error, fn, "program", "words is missing");
    goto out;
  }
  if (!ms_json_get_uint(cJSON_GetObjectItemCaseSensitive(root, "words"), 1, MS_MAX_THREADS, fn, "words", &words, error))
    goto out;
  if (name && !cJSON_IsString(name)) {
    form_fail(error, fn, "name", "expected a string");
    goto out;
  }
  if (consts && !cJSON_IsObject(consts)) {
    form_fail(error, fn, "constants", "expected an object");
    goto out;
  }
  if ((double)words * (double)p > (double)MS_MAX_JSON_INT) {
    g_set_error(error, MS_ERROR, MS_ERROR_LIMIT, "%s: p * words = %" G_GUINT64_FORMAT " * %" G_GUINT64_FORMAT
                " is beyond 2^53 - 1 words", fn, p, words);
    goto out;
  }
  cJSON *steps = steps_copy(cJSON_GetObjectItemCaseSensitive(root, "steps"), fn, "steps", 0, wrap, p, words, error);
  if (!steps) goto out;
  out = cJSON_CreateObject();
  cJSON_AddNumberToObject(out, "memsim_trace", 1);
  cJSON_AddStringToObject(out, "form", "compact");
  const char *nm = name ? name->valuestring : fn;
  if (wrap == WRAP_SEQ) cJSON_AddStringToObject(out, "name", nm);
  else {
    char *full = g_strdup_printf("bulk %s: %" G_GUINT64_FORMAT " instances of %" G_GUINT64_FORMAT " words, %s", nm, p,
                                 words, wrap == WRAP_COLUMN ? "column-wise" : "row-wise");
    cJSON_AddStringToObject(out, "name", full);
    g_free(full);
  }
  cJSON_AddNumberToObject(out, "threads", (double)p);
  cJSON_AddNumberToObject(out, "block_threads", (double)(block_threads ? block_threads : p));
  if (wrap != WRAP_SEQ) cJSON_AddNumberToObject(out, "global_words", (double)(p * words));
  if (consts) cJSON_AddItemToObject(out, "constants", cJSON_Duplicate(consts, TRUE));
  if (wrap != WRAP_SEQ) {
    cJSON *arrays = cJSON_AddObjectToObject(out, "arrays");
    cJSON *mem = cJSON_AddObjectToObject(arrays, "mem");
    cJSON_AddNumberToObject(mem, "base", 0);
    cJSON_AddNumberToObject(mem, "length", (double)(p * words));
  }
  cJSON_AddItemToObject(out, "steps", steps);
  text = cJSON_PrintUnformatted(out);
  if (words_out) *words_out = words;
out:
  cJSON_Delete(out);
  cJSON_Delete(root);
  return text;
}

char *ms_bulk_arrange(const char *program, gsize length, const char *filename, guint64 p, gboolean column,
                      guint64 block_threads, GError **error) {
  if (p < 1 || p > MS_MAX_THREADS) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: p = %" G_GUINT64_FORMAT " is out of range [1, 2^32]", filename, p);
    return NULL;
  }
  return program_trace(program, length, filename, column ? WRAP_COLUMN : WRAP_ROW, p, block_threads, NULL, error);
}

/* ---- the checking cursor ---------------------------------------------------------------- */

static gboolean verify_fail(GError **error, const MsBulkCursor *c, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static gboolean verify_fail(GError **error, const MsBulkCursor *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(error, MS_ERROR, MS_ERROR_VERIFY, "%s: memory step %" G_GUINT64_FORMAT ": %s", c->what, c->step, msg);
  g_free(msg);
  return FALSE;
}

/* The next step of `src` (FALSE with error at a sync or a reader error); *end at the end. */
static gboolean next_mem(MsBulkCursor *c, MsSource *src, MsStep *st, gboolean *end, GError **error) {
  MsNext r = ms_source_next(src, st, error);
  if (r == MS_NEXT_ERROR) return FALSE;
  *end = r == MS_NEXT_END;
  if (!*end && st->op == MS_OP_SYNC) return verify_fail(error, c, "a barrier in a bulk trace");
  return TRUE;
}

/* One step of both: *end when both have ended; else the program's op in *op and each
 * checked instance's word in x (G_MAXUINT64 where inactive), all checked. */
static gboolean cursor_any(MsBulkCursor *c, MsOp *op, guint64 *x, gboolean *end, GError **error) {
  MsStep ss, ts;
  gboolean send, tend;
  if (!next_mem(c, c->seq, &ss, &send, error) || !next_mem(c, c->trace, &ts, &tend, error)) return FALSE;
  *end = send && tend;
  if (*end) return TRUE;
  if (send) return verify_fail(error, c, "the trace has more steps than the program");
  if (tend) return verify_fail(error, c, "the trace has ended, the program has not");
  if (ts.op != ss.op) return verify_fail(error, c, "the trace %ss, the program %ss here", ms_op_name(ts.op), ms_op_name(ss.op));
  *op = ss.op;
  gint64 want;
  if (!ms_source_fill(c->seq, 0, 1, &want, error)) return FALSE;
  if (want != MS_ADDR_NONE && (guint64)want >= c->words)
    return verify_fail(error, c, "the program accesses word %" G_GINT64_FORMAT ", beyond its %" G_GUINT64_FORMAT " words",
                       want, c->words);
  for (guint k = 0; k < c->lanes; k++) {
    gint64 a;
    const guint64 j = c->tid[k];
    if (!ms_source_fill(c->trace, j, 1, &a, error)) return FALSE;
    if (a == MS_ADDR_NONE || want == MS_ADDR_NONE) {
      if (a != want) return verify_fail(error, c, "instance %" G_GUINT64_FORMAT " is %s, the program is not", j,
                                        a == MS_ADDR_NONE ? "inactive" : "active");
      x[k] = G_MAXUINT64;
      continue;
    }
    const guint64 u = (guint64)a;
    const gboolean own = c->column ? u % c->p == j : u / c->words == j;
    const guint64 w = c->column ? u / c->p : u % c->words;
    if (!own || w != (guint64)want)
      return verify_fail(error, c, "instance %" G_GUINT64_FORMAT " accesses address %" G_GUINT64_FORMAT
                         ", not word %" G_GINT64_FORMAT " of its own memory (%s: %" G_GUINT64_FORMAT ")", j, u, want,
                         c->column ? "column-wise" : "row-wise",
                         c->column ? (guint64)want * c->p + j : j * c->words + (guint64)want);
    x[k] = w;
  }
  c->step++;
  return TRUE;
}

gboolean ms_bulk_cursor_step(MsBulkCursor *c, MsOp op, guint64 *x, GError **error) {
  MsOp got = op;
  gboolean end;
  if (!cursor_any(c, &got, x, &end, error)) return FALSE;
  if (end) return verify_fail(error, c, "the program has ended, the algorithm has not (it needs more steps)");
  if (got != op) return verify_fail(error, c, "the program %ss, the algorithm %ss here", ms_op_name(got), ms_op_name(op));
  return TRUE;
}

gboolean ms_bulk_load(MsBulkCursor *c, guint64 *v, GError **error) {
  guint64 x[MS_BULK_LANES];
  if (!ms_bulk_cursor_step(c, MS_OP_READ, x, error)) return FALSE;
  for (guint k = 0; k < c->lanes; k++) {
    if (x[k] == G_MAXUINT64) return verify_fail(error, c, "the algorithm reads, the program's instance is inactive");
    v[k] = c->mem[k][x[k]];
  }
  return TRUE;
}

gboolean ms_bulk_store(MsBulkCursor *c, const guint64 *v, GError **error) {
  guint64 x[MS_BULK_LANES];
  if (!ms_bulk_cursor_step(c, MS_OP_WRITE, x, error)) return FALSE;
  for (guint k = 0; k < c->lanes; k++) {
    if (x[k] == G_MAXUINT64) return verify_fail(error, c, "the algorithm writes, the program's instance is inactive");
    c->mem[k][x[k]] = v[k];
  }
  return TRUE;
}

/* ---- parameters ------------------------------------------------------------------------- */

typedef struct {
  const char *alg;
  const MsBulkAlgo *algo; /* NULL: a user's program */
  MsBulkCfg cfg;
  guint64 p, tpb;
  gboolean column;
  const char *file;
} Params;

static gboolean param_fail(GError **error, const Params *q, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static gboolean param_fail(GError **error, const Params *q, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "bulk %s: %s", q->alg, msg);
  g_free(msg);
  return FALSE;
}

/* Parameters with dashes spelled as underscores, checked against what `q->alg` takes. */
static GHashTable *params_norm(const Params *q, GHashTable *params, GError **error) {
  const gboolean g = q->algo && q->algo->grammar;
  const char *known[] = {"p", "arrangement", "threads_per_block", "seed",
                         q->algo ? q->algo->size_key : "program", g ? "nonterminals" : NULL, g ? "rules" : NULL, NULL};
  GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter it;
  gpointer k, v;
  if (params) g_hash_table_iter_init(&it, params);
  while (params && g_hash_table_iter_next(&it, &k, &v)) {
    char *key = g_strdup(k);
    for (char *s = key; *s; s++)
      if (*s == '-') *s = '_';
    if (!g_strv_contains(known, key) || g_hash_table_contains(h, key)) {
      char *list = g_strjoinv(", ", (char **)known);
      param_fail(error, q, g_strv_contains(known, key) ? "parameter \"%s\" is given twice"
                                                        : "unknown parameter \"%s\" (it takes %s)", (const char *)k, list);
      g_free(list);
      g_free(key);
      g_hash_table_destroy(h);
      return NULL;
    }
    g_hash_table_insert(h, key, v);
  }
  return h;
}

static gboolean params_read(Params *q, const char *algorithm, GHashTable *params, GError **error) {
  memset(q, 0, sizeof *q);
  q->alg = algorithm ? algorithm : "(none)";
  if (!algorithm || !g_strv_contains(ms_bulk_algorithms, algorithm)) {
    char *list = g_strjoinv(", ", (char **)ms_bulk_algorithms);
    param_fail(error, q, "unknown algorithm (%s)", list);
    g_free(list);
    return FALSE;
  }
  q->algo = ms_bulk_algo(algorithm);
  GHashTable *h = params_norm(q, params, error);
  if (!h) return FALSE;
  gboolean ok = TRUE;
#define GET(key, def, min, max, out)                                                                                  \
  (ok && (ms_param_uint(h, key, def, min, max, out, error) || (g_prefix_error(error, "bulk %s: ", q->alg), FALSE)))
  ok = GET("p", 1024, 1, MS_MAX_THREADS, &q->p);
  ok = GET("seed", 1, 0, MS_MAX_JSON_INT, &q->cfg.seed);
  ok = GET("threads_per_block", q->p % 256 == 0 ? 256 : q->p, 1, MS_MAX_THREADS, &q->tpb);
  if (ok && q->algo) {
    guint64 *size = strcmp(q->algo->size_key, "n") == 0 ? &q->cfg.n : &q->cfg.bits;
    ok = GET(q->algo->size_key, q->algo->def, q->algo->min, q->algo->max, size);
    if (ok && q->algo->size_ok && !q->algo->size_ok(*size))
      ok = param_fail(error, q, "--%s: %" G_GUINT64_FORMAT " is not %s", q->algo->size_key, *size, q->algo->size_rule);
    if (q->algo->grammar) { /* at most b^3 distinct binary rules A -> BC */
      ok = GET("nonterminals", 32, 1, 512, &q->cfg.nonterminals);
      const guint64 b = q->cfg.nonterminals;
      ok = GET("rules", MIN(8192, b * b * b), 1, 131072, &q->cfg.rules);
      if (ok && q->cfg.rules > b * b * b)
        ok = param_fail(error, q, "--rules: %" G_GUINT64_FORMAT " is more than the %" G_GUINT64_FORMAT
                        " distinct rules A -> BC of %" G_GUINT64_FORMAT " non-terminals", q->cfg.rules, b * b * b, b);
    }
    if (ok) q->algo->setup(&q->cfg);
  }
#undef GET
  const char *arr = g_hash_table_lookup(h, "arrangement");
  if (ok && arr && strcmp(arr, "column") && strcmp(arr, "row"))
    ok = param_fail(error, q, "--arrangement: \"%s\" is neither column nor row", arr);
  q->column = !arr || strcmp(arr, "column") == 0;
  if (ok && q->tpb != q->p && q->p % q->tpb)
    ok = param_fail(error, q, "--threads-per-block: %" G_GUINT64_FORMAT " does not divide p = %" G_GUINT64_FORMAT, q->tpb,
                    q->p);
  q->file = g_hash_table_lookup(h, "program");
  if (ok && !q->algo && !q->file) ok = param_fail(error, q, "--program FILE is required");
  g_hash_table_destroy(h);
  return ok;
}

static char *params_program(const Params *q, gsize *length, GError **error) {
  if (q->algo) {
    char *t = q->algo->text(&q->cfg);
    *length = strlen(t);
    return t;
  }
  return ms_json_read_file(q->file, MAX_PROGRAM_BYTES, length, error);
}

char *ms_bulk_program(const char *algorithm, GHashTable *params, GError **error) {
  Params q;
  gsize len;
  return params_read(&q, algorithm, params, error) ? params_program(&q, &len, error) : NULL;
}

/* ---- verification --------------------------------------------------------------------- */

static void lanes_pick(MsBulkCursor *c) {
  const guint64 cand[MS_BULK_LANES] = {0, 1, c->p / 2, c->p - 1};
  c->lanes = 0;
  for (guint k = 0; k < MS_BULK_LANES; k++)
    if (cand[k] < c->p && (c->lanes == 0 || cand[k] > c->tid[c->lanes - 1])) c->tid[c->lanes++] = cand[k];
}

/* A user's program has no data, only accesses to check. */
static gboolean drain(MsBulkCursor *c, GError **error) {
  guint64 x[MS_BULK_LANES];
  MsOp op;
  for (gboolean end = FALSE; !end;)
    if (!cursor_any(c, &op, x, &end, error)) return FALSE;
  return TRUE;
}

static gboolean at_end(MsBulkCursor *c, GError **error) {
  MsStep st;
  gboolean end;
  if (!next_mem(c, c->trace, &st, &end, error)) return FALSE;
  return end || verify_fail(error, c, "the trace has more steps than the algorithm");
}

/* Run the built-in on data: each checked instance gets its own input; afterwards its
 * memory must be the reference result. */
static gboolean run_data(const Params *q, MsBulkCursor *c, GError **error) {
  guint64 *before[MS_BULK_LANES] = {NULL};
  gboolean ok = TRUE;
  for (guint k = 0; k < c->lanes; k++) {
    guint64 state = q->cfg.seed * 0x9e3779b97f4a7c15u + c->tid[k];
    c->mem[k] = g_new0(guint64, q->cfg.words);
    q->algo->init(&q->cfg, &state, c->mem[k]);
    before[k] = g_memdup2(c->mem[k], q->cfg.words * sizeof(guint64));
  }
  ok = q->algo->run(&q->cfg, c, error) && at_end(c, error);
  for (guint k = 0; ok && k < c->lanes; k++) {
    char *why = q->algo->check(&q->cfg, before[k], c->mem[k]);
    if (why) {
      g_set_error(error, MS_ERROR, MS_ERROR_VERIFY, "%s: instance %" G_GUINT64_FORMAT ": %s", c->what, c->tid[k], why);
      g_free(why);
      ok = FALSE;
    }
  }
  for (guint k = 0; k < c->lanes; k++) {
    g_free(before[k]);
    g_free(c->mem[k]);
    c->mem[k] = NULL;
  }
  return ok;
}

static gboolean verify(const Params *q, const char *program, gsize plen, const char *text, MsBulkInfo *info,
                       GError **error) {
  const char *fn = q->file ? q->file : q->alg;
  guint64 words = 0;
  char *seq_text = program_trace(program, plen, fn, WRAP_SEQ, 1, 1, &words, error);
  if (!seq_text) return FALSE;
  char *what = g_strdup_printf("bulk %s", q->alg);
  MsBulkCursor c = {.p = q->p, .words = words, .column = q->column, .what = what};
  lanes_pick(&c);
  c.seq = ms_trace_open_memory(seq_text, strlen(seq_text), fn, error);
  c.trace = c.seq ? ms_trace_open_memory(text, strlen(text), what, error) : NULL;
  gboolean ok = c.trace != NULL;
  if (ok && ms_source_threads(c.trace) != q->p)
    ok = verify_fail(error, &c, "the trace has %" G_GUINT64_FORMAT " threads, not p = %" G_GUINT64_FORMAT,
                     ms_source_threads(c.trace), q->p);
  if (ok) ok = q->algo ? run_data(q, &c, error) : drain(&c, error);
  if (ok && info) *info = (MsBulkInfo){.p = q->p, .words = words, .block_threads = ms_source_block_threads(c.trace),
                                       .column = q->column, .t = c.step, .checked = c.lanes, .data = q->algo != NULL};
  ms_source_free(c.trace);
  ms_source_free(c.seq);
  g_free(seq_text);
  g_free(what);
  return ok;
}

gboolean ms_bulk_verify_text(const char *algorithm, GHashTable *params, const char *text, MsBulkInfo *info,
                             GError **error) {
  Params q;
  gsize plen;
  char *program = params_read(&q, algorithm, params, error) ? params_program(&q, &plen, error) : NULL;
  gboolean ok = program && verify(&q, program, plen, text, info, error);
  g_free(program);
  return ok;
}

char *ms_bulk_compact(const char *algorithm, GHashTable *params, MsBulkInfo *info, GError **error) {
  Params q;
  gsize plen;
  char *program = params_read(&q, algorithm, params, error) ? params_program(&q, &plen, error) : NULL;
  if (!program) return NULL;
  char *text = program_trace(program, plen, q.file ? q.file : q.alg, q.column ? WRAP_COLUMN : WRAP_ROW, q.p, q.tpb,
                             NULL, error);
  if (text && !verify(&q, program, plen, text, info, error)) g_clear_pointer(&text, g_free);
  g_free(program);
  return text;
}

MsSource *ms_bulk_source(const char *algorithm, GHashTable *params, GError **error) {
  char *text = ms_bulk_compact(algorithm, params, NULL, error);
  if (!text) return NULL;
  MsSource *src = ms_trace_open_memory(text, strlen(text), "bulk", error);
  g_free(text);
  return src;
}

guint64 ms_bulk_uniform_time(guint64 t, guint64 p, guint64 w, guint64 l, guint64 k) {
  if (t == 0 || p == 0) return 0;
  const guint64 W = (p + w - 1) / w;
  return (t - 1) * MAX(W * k, k + l - 1) + W * k + l - 1;
}
