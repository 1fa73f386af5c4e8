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

gboolean ms_source_has_fill_worker(const MsSource *s) { return s->funcs.fill_worker != NULL; }

gboolean ms_source_fill_worker(MsSource *s, guint worker, guint64 first, guint64 count, gint64 *addr,
                               GError **error) {
  return s->funcs.fill_worker ? s->funcs.fill_worker(s->self, worker, first, count, addr, error)
                              : s->funcs.fill(s->self, first, count, addr, error);
}

gboolean ms_source_block_repeats(MsSource *s) {
  return s->funcs.block_repeats && s->funcs.block_shift && s->funcs.block_repeats(s->self);
}

void ms_source_block_shift(MsSource *s, guint64 first_block, guint64 n, guint64 lane, guint8 *kind, gint64 *at,
                           gint64 *lo, gint64 *hi) {
  if (s->funcs.block_shift) s->funcs.block_shift(s->self, first_block, n, lane, kind, at, lo, hi);
  else memset(kind, MS_BLOCK_FILL, n);
}
