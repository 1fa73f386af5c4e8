/* ms-test-util.c: see ms-test-util.h. */
#include "ms-test-util.h"
#include <criterion/criterion.h>
#include <string.h>

MtTrace *mt_trace_new(guint64 threads, guint64 block_threads) {
  MtTrace *t = g_new0(MtTrace, 1);
  t->threads = threads;
  t->block_threads = block_threads ? block_threads : threads;
  t->steps = g_array_new(FALSE, FALSE, sizeof(MsStep));
  t->addr = g_ptr_array_new_with_free_func(g_free);
  return t;
}

void mt_trace_free(MtTrace *t) {
  if (!t) return;
  g_array_free(t->steps, TRUE);
  g_ptr_array_free(t->addr, TRUE);
  g_free(t);
}

gint64 *mt_mem(MtTrace *t, MsOp op, MsSpace space) {
  MsStep s = {.op = op, .space = space, .scope = MS_SCOPE_GRID};
  gint64 *a = g_new(gint64, t->threads);
  for (guint64 i = 0; i < t->threads; i++) a[i] = MS_ADDR_NONE;
  g_array_append_val(t->steps, s);
  g_ptr_array_add(t->addr, a);
  return a;
}

void mt_mem_arr(MtTrace *t, MsOp op, MsSpace space, const gint64 *addr) {
  memcpy(mt_mem(t, op, space), addr, t->threads * sizeof(gint64));
}

void mt_mem_fn(MtTrace *t, MsOp op, MsSpace space, gint64 (*f)(guint64 i, gpointer data),
               gpointer data) {
  gint64 *a = mt_mem(t, op, space);
  for (guint64 i = 0; i < t->threads; i++) {
    gint64 v = f(i, data);
    a[i] = v < 0 ? MS_ADDR_NONE : v;
  }
}

void mt_sync(MtTrace *t, MsScope scope) {
  MsStep s = {.op = MS_OP_SYNC, .space = MS_SPACE_GLOBAL, .scope = scope};
  g_array_append_val(t->steps, s);
  g_ptr_array_add(t->addr, NULL);
}

/* ---- the in-memory source ---- */
typedef struct {
  MtTrace *t;
  guint pos; /* steps returned */
} MemSrc;

static MsNext mem_next(gpointer self, MsStep *step, GError **error) {
  (void)error;
  MemSrc *m = self;
  if (m->pos >= m->t->steps->len) return MS_NEXT_END;
  *step = g_array_index(m->t->steps, MsStep, m->pos);
  m->pos++;
  return MS_NEXT_STEP;
}

static gboolean mem_fill(gpointer self, guint64 first, guint64 count, gint64 *addr,
                         GError **error) {
  (void)error;
  MemSrc *m = self;
  cr_assert(m->pos > 0, "fill() before next()");
  const gint64 *a = g_ptr_array_index(m->t->addr, m->pos - 1);
  cr_assert(a != NULL, "fill() on a sync step");
  cr_assert(first + count <= m->t->threads, "fill() past the last thread");
  memcpy(addr, a + first, count * sizeof(gint64));
  return TRUE;
}

/* The same from the engine's worker threads (no Criterion assertions off the main thread). */
static gboolean mem_fill_worker(gpointer self, guint worker, guint64 first, guint64 count, gint64 *addr,
                                GError **error) {
  (void)worker;
  MemSrc *m = self;
  const gint64 *a = m->pos > 0 ? g_ptr_array_index(m->t->addr, m->pos - 1) : NULL;
  if (!a || first + count > m->t->threads) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "test source: fill_worker out of order");
    return FALSE;
  }
  memcpy(addr, a + first, count * sizeof(gint64));
  return TRUE;
}

static void mem_destroy(gpointer self) {
  MemSrc *m = self;
  mt_trace_free(m->t);
  g_free(m);
}

/* Repeated kernel counts: right after a grid barrier, a hash of the next kernel's steps and
 * addresses up to its closing grid barrier (none for a kernel that ends the trace), so that
 * every test's repeated kernels take the engine's path of kernels not counted. */
static gboolean mem_kernel_key(gpointer self, guint64 *key) {
  const MemSrc *m = self;
  guint64 h = G_GUINT64_CONSTANT(0xcbf29ce484222325);
#define MIX(x) (h = (h ^ (guint64)(x)) * G_GUINT64_CONSTANT(0x100000001b3), h ^= h >> 29)
  for (guint s = m->pos; s < m->t->steps->len; s++) {
    const MsStep *st = &g_array_index(m->t->steps, MsStep, s);
    MIX(st->op);
    MIX(st->space);
    MIX(st->scope);
    MIX(st->async);
    if (st->op == MS_OP_SYNC && st->scope == MS_SCOPE_GRID) {
      *key = h;
      return TRUE;
    }
    const gint64 *a = g_ptr_array_index(m->t->addr, s);
    if (a)
      for (guint64 i = 0; i < m->t->threads; i++) MIX(a[i]);
  }
#undef MIX
  return FALSE;
}

static const MsSourceFuncs mem_funcs = {mem_next, mem_fill, mem_destroy, NULL, mem_fill_worker,
                                        NULL,     NULL,     NULL,        mem_kernel_key};

MsSource *mt_source(const MtTrace *t, const char *name) {
  MemSrc *m = g_new0(MemSrc, 1);
  m->t = mt_trace_new(t->threads, t->block_threads);
  for (guint s = 0; s < t->steps->len; s++) {
    MsStep st = g_array_index(t->steps, MsStep, s);
    const gint64 *a = g_ptr_array_index(t->addr, s);
    g_array_append_val(m->t->steps, st);
    g_ptr_array_add(m->t->addr, a ? g_memdup2(a, t->threads * sizeof(gint64)) : NULL);
  }
  MsSource *src = ms_source_new(name ? name : "test", t->threads, t->block_threads, &mem_funcs, m);
  ms_source_set_shared_words(src, t->shared_words);
  ms_source_set_global_words(src, t->global_words);
  return src;
}

MsSource *mt_source_from_arrays(const char *name, guint64 threads, guint64 block_threads,
                                const MsStep *steps, guint n, const gint64 *addr) {
  MtTrace *t = mt_trace_new(threads, block_threads);
  for (guint s = 0; s < n; s++) {
    if (steps[s].op == MS_OP_SYNC) {
      mt_sync(t, steps[s].scope);
    } else {
      mt_mem_arr(t, steps[s].op, steps[s].space, addr);
      addr += threads;
    }
  }
  MsSource *src = mt_source(t, name);
  mt_trace_free(t);
  return src;
}

MsResult *mt_run_source(const MsModel *m, MsSource *src, const MsSimOptions *opt) {
  GError *err = NULL;
  MsResult *r = ms_simulate(m, src, opt, &err);
  cr_assert(r != NULL, "ms_simulate failed: %s", err ? err->message : "(no error)");
  return r;
}

/* l2_warm's earlier run: the same trace again */
static MsSource *mt_reopen(gpointer t, GError **error) {
  (void)error;
  return mt_source(t, "test");
}

MsResult *mt_run(const MsModel *m, const MtTrace *t, const MsSimOptions *opt) {
  MsSource *src = mt_source(t, "test");
  MsSimOptions o = opt ? *opt : (MsSimOptions){0};
  if (!o.reopen) {
    o.reopen = mt_reopen;
    o.reopen_data = (gpointer)t;
  }
  MsResult *r = mt_run_source(m, src, &o);
  ms_source_free(src);
  return r;
}

guint64 mt_time(const MsModel *m, const MtTrace *t) {
  MsResult *r = mt_run(m, t, NULL);
  guint64 v = r->time_units;
  ms_result_free(r);
  return v;
}

MsModel *mt_model(MsModelKind kind, guint32 w, guint64 l) {
  return ms_model_new(kind, w, l, 1, 0, 0);
}

MsModel *mt_hmm(MsModelKind kind, guint32 w, guint32 d, guint64 shared_l, guint64 global_l) {
  return ms_model_new(kind, w, 0, d, shared_l, global_l);
}
