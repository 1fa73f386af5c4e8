/* ms-prefetch.c: run a source on a second thread.  The worker calls next() and fill() in
 * the order the engine will ask for them (chunks of `chunk` threads) and hands the results
 * over through a ring of buffers, so address generation and simulation overlap on two
 * cores.  The engine sees an ordinary source; results are identical by construction. */
#include "ms-private.h"
#include <string.h>

#define SLOTS 8

enum { SLOT_STEP, SLOT_CHUNK, SLOT_END, SLOT_ERROR };

typedef struct {
  int kind;
  MsStep step;
  guint64 first, count;
  guint64 lo, hi; /* SLOT_STEP: the step's active range */
  gint64 *addr;
} Slot;

typedef struct {
  MsSource *inner;
  guint64 chunk, threads, w;
  guint64 lo, hi; /* consumer side: the active range of the step last returned */
  GThread *thread;
  GMutex lock;
  GCond cond;
  Slot slots[SLOTS];
  guint64 head, tail; /* consumer reads slots[head % SLOTS], producer writes slots[tail % SLOTS] */
  gboolean stop;
  GError *error;
} Prefetch;

/* Producer: wait for a free slot; returns NULL if asked to stop. */
static Slot *slot_for_write(Prefetch *f) {
  g_mutex_lock(&f->lock);
  while (f->tail - f->head == SLOTS && !f->stop) g_cond_wait(&f->cond, &f->lock);
  Slot *s = f->stop ? NULL : &f->slots[f->tail % SLOTS];
  g_mutex_unlock(&f->lock);
  return s;
}

static void slot_publish(Prefetch *f) {
  g_mutex_lock(&f->lock);
  f->tail++;
  g_cond_broadcast(&f->cond);
  g_mutex_unlock(&f->lock);
}

static gpointer producer(gpointer data) {
  Prefetch *f = data;
  for (;;) {
    Slot *s = slot_for_write(f);
    if (!s) return NULL;
    GError *err = NULL;
    MsNext nx = ms_source_next(f->inner, &s->step, &err);
    s->kind = nx == MS_NEXT_STEP ? SLOT_STEP : nx == MS_NEXT_END ? SLOT_END : SLOT_ERROR;
    if (err) f->error = err; /* read by the consumer only after it sees SLOT_ERROR */
    if (nx != MS_NEXT_STEP) {
      slot_publish(f);
      return NULL;
    }
    if (s->step.op == MS_OP_SYNC) {
      slot_publish(f);
      continue;
    }
    /* the same warp-aligned chunks over the active range as the engine will ask for */
    ms_source_active_range(f->inner, &s->lo, &s->hi);
    guint64 wlo = s->lo / f->w, whi = (s->hi + f->w - 1) / f->w;
    if (whi <= wlo) wlo = whi = 0;
    guint64 end = MIN(f->threads, whi * f->w);
    slot_publish(f);
    for (guint64 first = wlo * f->w; first < end; first += f->chunk) {
      Slot *c = slot_for_write(f);
      if (!c) return NULL;
      c->first = first;
      c->count = MIN(f->chunk, end - first);
      gboolean ok = ms_source_fill(f->inner, first, c->count, c->addr, &err);
      c->kind = ok ? SLOT_CHUNK : SLOT_ERROR;
      if (!ok) f->error = err;
      slot_publish(f);
      if (!ok) return NULL;
    }
  }
}

static Slot *slot_for_read(Prefetch *f) {
  g_mutex_lock(&f->lock);
  while (f->head == f->tail) g_cond_wait(&f->cond, &f->lock);
  Slot *s = &f->slots[f->head % SLOTS];
  g_mutex_unlock(&f->lock);
  return s;
}

static void slot_release(Prefetch *f) {
  g_mutex_lock(&f->lock);
  f->head++;
  g_cond_broadcast(&f->cond);
  g_mutex_unlock(&f->lock);
}

static MsNext pf_next(gpointer self, MsStep *step, GError **error) {
  Prefetch *f = self;
  Slot *s = slot_for_read(f);
  int kind = s->kind;
  *step = s->step;
  if (kind == SLOT_ERROR) {
    g_propagate_error(error, f->error);
    f->error = NULL;
    return MS_NEXT_ERROR; /* the slot stays: the stream ends here */
  }
  if (kind == SLOT_END) return MS_NEXT_END; /* stays too: further calls see the end again */
  f->lo = s->lo;
  f->hi = s->hi;
  slot_release(f);
  return MS_NEXT_STEP;
}

static gboolean pf_fill(gpointer self, guint64 first, guint64 count, gint64 *addr, GError **error) {
  Prefetch *f = self;
  while (count > 0) {
    Slot *s = slot_for_read(f);
    if (s->kind == SLOT_ERROR) {
      g_propagate_error(error, f->error);
      f->error = NULL;
      return FALSE;
    }
    /* the engine asks in the same chunks the worker produced */
    g_assert(s->kind == SLOT_CHUNK && s->first == first && s->count <= count);
    memcpy(addr, s->addr, s->count * sizeof(gint64));
    addr += s->count;
    first += s->count;
    count -= s->count;
    slot_release(f);
  }
  return TRUE;
}

static void pf_destroy(gpointer self) {
  Prefetch *f = self;
  g_mutex_lock(&f->lock);
  f->stop = TRUE;
  g_cond_broadcast(&f->cond);
  g_mutex_unlock(&f->lock);
  g_thread_join(f->thread);
  for (int i = 0; i < SLOTS; i++) g_free(f->slots[i].addr);
  if (f->error) g_error_free(f->error);
  g_mutex_clear(&f->lock);
  g_cond_clear(&f->cond);
  g_free(f);
}

static void pf_range(gpointer self, guint64 *first, guint64 *end) {
  Prefetch *f = self;
  *first = f->lo;
  *end = f->hi;
}

static const MsSourceFuncs prefetch_funcs = {pf_next, pf_fill, pf_destroy, pf_range};

MsSource *ms_source_prefetch(MsSource *inner, guint64 chunk, guint32 w) {
  Prefetch *f = g_new0(Prefetch, 1);
  f->inner = inner;
  f->chunk = chunk;
  f->w = w;
  f->threads = ms_source_threads(inner);
  for (int i = 0; i < SLOTS; i++) f->slots[i].addr = g_new(gint64, chunk);
  g_mutex_init(&f->lock);
  g_cond_init(&f->cond);
  f->thread = g_thread_new("memsim-prefetch", producer, f);
  return ms_source_new(ms_source_name(inner), f->threads, ms_source_block_threads(inner),
                       &prefetch_funcs, f);
}
