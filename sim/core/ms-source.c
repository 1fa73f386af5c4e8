/* ms-source.c: the step-stream interface every trace form and generator implements. */
#include "ms-private.h"
#include <string.h>

MsSource *ms_source_new(const char *name, guint64 threads, guint64 block_threads,
                        const MsSourceFuncs *funcs, gpointer self) {
  MsSource *s = g_new0(MsSource, 1);
  s->name = g_strdup(name ? name : "");
  s->threads = threads;
  s->block_threads = block_threads ? block_threads : threads;
  s->funcs = *funcs;
  s->self = self;
  return s;
}

void ms_source_free(MsSource *s) {
  if (!s) return;
  if (s->funcs.destroy) s->funcs.destroy(s->self);
  g_free(s->name);
  g_free(s);
}

const char *ms_source_name(const MsSource *s) { return s->name; }
guint64 ms_source_threads(const MsSource *s) { return s->threads; }
guint64 ms_source_block_threads(const MsSource *s) { return s->block_threads; }
guint64 ms_source_shared_words(const MsSource *s) { return s->shared_words; }
void ms_source_set_shared_words(MsSource *s, guint64 words) { s->shared_words = words; }
guint64 ms_source_global_words(const MsSource *s) { return s->global_words; }
void ms_source_set_global_words(MsSource *s, guint64 words) { s->global_words = words; }

MsNext ms_source_next(MsSource *s, MsStep *step, GError **error) {
  /* fields a source does not set are 0 (a generator that predates MsStep.async sets op,
   * space and scope only) */
  *step = (MsStep){0};
  return s->funcs.next(s->self, step, error);
}

gboolean ms_source_fill(MsSource *s, guint64 first, guint64 count, gint64 *addr,
                        GError **error) {
  return s->funcs.fill(s->self, first, count, addr, error);
}

void ms_source_active_range(MsSource *s, guint64 *first, guint64 *end) {
  *first = 0;
  *end = s->threads;
  if (s->funcs.active_range) s->funcs.active_range(s->self, first, end);
  if (*end > s->threads) *end = s->threads;
  if (*first > *end) *first = *end;
}

void ms_source_set_workers(MsSource *s, guint n) {
  if (s->funcs.set_workers) s->funcs.set_workers(s->self, MAX(n, 1u));
}

gboolean ms_source_has_fill_worker(const MsSource *s) { return s->funcs.fill_worker != NULL; }

gboolean ms_source_fill_worker(MsSource *s, guint worker, guint64 first, guint64 count, gint64 *addr,
                               GError **error) {
  return s->funcs.fill_worker ? s->funcs.fill_worker(s->self, worker, first, count, addr, error)
                              : s->funcs.fill(s->self, first, count, addr, error);
}

gboolean ms_source_block_repeats(MsSource *s) {
  return s->funcs.block_repeats && s->funcs.block_shift && s->funcs.block_repeats(s->self);
}

gboolean ms_source_kernel_key(MsSource *s, guint64 *key) {
  return s->funcs.kernel_key && s->funcs.kernel_key(s->self, key);
}

void ms_source_block_shift(MsSource *s, guint64 first_block, guint64 n, guint64 lane, guint8 *kind, gint64 *at,
                           gint64 *lo, gint64 *hi) {
  if (s->funcs.block_shift) s->funcs.block_shift(s->self, first_block, n, lane, kind, at, lo, hi);
  else memset(kind, MS_BLOCK_FILL, n);
}

#define FILL_REP_BATCH 512u

gboolean ms_source_fill_repeated(MsSource *s, guint64 first, guint64 count, gint64 *addr, GError **error) {
  const guint64 bt = s->block_threads, end = first + count;
  if (bt == 0 || count < 2 * bt || !ms_source_block_repeats(s)) return ms_source_fill(s, first, count, addr, error);
  guint64 alo, ahi; /* block_shift speaks of full blocks inside the active range */
  ms_source_active_range(s, &alo, &ahi);
  const guint64 b0 = (MAX(first, alo) + bt - 1) / bt, b1 = MIN(end, ahi) / bt; /* those blocks: b0 .. b1 - 1 */
  if (b1 <= b0 || b1 - b0 < 2) return ms_source_fill(s, first, count, addr, error);
  if (b0 * bt > first && !ms_source_fill(s, first, b0 * bt - first, addr, error)) return FALSE;
  guint8 kind[FILL_REP_BATCH];
  gint64 at[FILL_REP_BATCH];
  const gint64 *ref = NULL; /* the reference block's addresses (in addr) */
  guint64 lane = 0, bb0 = 0, bbn = 0, nolane_n = 16;
  gboolean bb_ref = FALSE;
  gint64 ref_at = 0, rmin = 0, rmax = 0, lo = 0, hi = 0;
  for (guint64 b = b0; b < b1; b++) {
    gint64 *out = addr + (b * bt - first);
    if (b >= bb0 + bbn || bb_ref != (ref != NULL)) {
      bb0 = b;
      bbn = MIN(ref ? (guint64)FILL_REP_BATCH : nolane_n, b1 - b);
      if (!ref) nolane_n = MIN(nolane_n * 4, (guint64)FILL_REP_BATCH);
      bb_ref = ref != NULL;
      ms_source_block_shift(s, bb0, bbn, ref ? lane : MS_BLOCK_NO_LANE, kind, at, &lo, &hi);
    }
    MsBlockKind k = (MsBlockKind)kind[b - bb0];
    if (k == MS_BLOCK_IDLE) {
      for (guint64 i = 0; i < bt; i++) out[i] = MS_ADDR_NONE;
      continue;
    }
    gint64 sh = 0, mn, mx;
    if (k == MS_BLOCK_SHIFTED &&
        (!ref || __builtin_sub_overflow(at[b - bb0], ref_at, &sh) || __builtin_add_overflow(rmin, sh, &mn) ||
         __builtin_add_overflow(rmax, sh, &mx) || mn < lo || mx > hi))
      k = MS_BLOCK_FILL;
    if (k == MS_BLOCK_SHIFTED) {
      for (guint64 i = 0; i < bt; i++) out[i] = ref[i] < 0 ? MS_ADDR_NONE : ref[i] + sh;
      continue;
    }
    if (!ms_source_fill(s, b * bt, bt, out, error)) return FALSE;
    if (ref) continue;
    /* a candidate reference: kept if it has an active lane the source vouches for */
    guint64 l = 0;
    while (l < bt && out[l] < 0) l++;
    guint8 k1 = MS_BLOCK_FILL;
    gint64 a1 = 0;
    if (l < bt) ms_source_block_shift(s, b, 1, l, &k1, &a1, &lo, &hi);
    if (k1 == MS_BLOCK_SHIFTED && a1 == out[l]) {
      ref = out;
      lane = l;
      ref_at = a1;
      rmin = G_MAXINT64;
      rmax = G_MININT64;
      for (guint64 i = 0; i < bt; i++)
        if (out[i] >= 0) {
          rmin = MIN(rmin, out[i]);
          rmax = MAX(rmax, out[i]);
        }
    }
  }
  if (b1 * bt < end && !ms_source_fill(s, b1 * bt, end - b1 * bt, addr + (b1 * bt - first), error)) return FALSE;
  return TRUE;
}

/* ---- instructions before each memory step (docs/models.md, "Instructions") ---------------- */

typedef struct {
  MsSource *in;
  gint64 n;
  gboolean pending, computing; /* a compute step was returned; `pend` (its memory step) is next */
  MsStep pend;
} WithInstr;

static MsNext wi_next(gpointer self, MsStep *step, GError **error) {
  WithInstr *w = self;
  if (w->pending) {
    w->pending = w->computing = FALSE;
    *step = w->pend;
    return MS_NEXT_STEP;
  }
  MsNext r = ms_source_next(w->in, &w->pend, error);
  if (r != MS_NEXT_STEP) return r;
  if (w->pend.op != MS_OP_READ && w->pend.op != MS_OP_WRITE) { /* syncs, shuffles, flags: as they are */
    *step = w->pend;
    return MS_NEXT_STEP;
  }
  w->pending = w->computing = TRUE;
  memset(step, 0, sizeof *step);
  step->op = MS_OP_COMPUTE;
  return MS_NEXT_STEP;
}

static void wi_counts(const WithInstr *w, guint64 count, gint64 *addr) {
  if (w->computing) /* the compute step: the memory step's threads, each with n instructions */
    for (guint64 i = 0; i < count; i++) addr[i] = addr[i] < 0 ? MS_ADDR_NONE : w->n;
}

static gboolean wi_fill(gpointer self, guint64 first, guint64 count, gint64 *addr, GError **error) {
  WithInstr *w = self;
  if (!ms_source_fill(w->in, first, count, addr, error)) return FALSE;
  wi_counts(w, count, addr);
  return TRUE;
}

static gboolean wi_fill_worker(gpointer self, guint worker, guint64 first, guint64 count, gint64 *addr,
                               GError **error) {
  WithInstr *w = self;
  if (!ms_source_fill_worker(w->in, worker, first, count, addr, error)) return FALSE;
  wi_counts(w, count, addr);
  return TRUE;
}

static void wi_active_range(gpointer self, guint64 *first, guint64 *end) {
  ms_source_active_range(((WithInstr *)self)->in, first, end);
}

static gboolean wi_block_repeats(gpointer self) {
  WithInstr *w = self;
  return !w->computing && ms_source_block_repeats(w->in);
}

static void wi_block_shift(gpointer self, guint64 first_block, guint64 n, guint64 lane, guint8 *kind, gint64 *at,
                           gint64 *lo, gint64 *hi) {
  ms_source_block_shift(((WithInstr *)self)->in, first_block, n, lane, kind, at, lo, hi);
}

static void wi_set_workers(gpointer self, guint n) { ms_source_set_workers(((WithInstr *)self)->in, n); }

/* (the same compute steps before the same memory steps: the inner source's key) */
static gboolean wi_kernel_key(gpointer self, guint64 *key) { return ms_source_kernel_key(((WithInstr *)self)->in, key); }

static void wi_destroy(gpointer self) {
  WithInstr *w = self;
  ms_source_free(w->in);
  g_free(w);
}

MsSource *ms_source_with_instructions(MsSource *inner, guint32 n) {
  g_return_val_if_fail(n >= 1 && n <= MS_MAX_INSTRUCTIONS, inner);
  WithInstr *w = g_new0(WithInstr, 1);
  w->in = inner;
  w->n = n;
  MsSourceFuncs f = {wi_next, wi_fill, wi_destroy, wi_active_range, inner->funcs.fill_worker ? wi_fill_worker : NULL,
                     wi_block_repeats, wi_block_shift, wi_set_workers, wi_kernel_key};
  MsSource *s = ms_source_new(inner->name, inner->threads, inner->block_threads, &f, w);
  s->shared_words = inner->shared_words;
  s->global_words = inner->global_words;
  return s;
}
