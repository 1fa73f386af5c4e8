/* fuzz-target.c: one libFuzzer entry point per reader, chosen at compile time by
 * MS_FUZZ_TARGET (0 model, 1 explicit, 2 compact, 3 binary).  A trace that opens is also
 * simulated (small ones only, a bounded number of steps) so fill() and the expression
 * evaluator are exercised.  The same file, linked with fuzz-replay.c, replays the committed
 * corpus as a regression test without libFuzzer. */
#include "memsim.h"
#include <string.h>

int LLVMFuzzerTestOneInput(const guint8 *data, size_t size);

#if MS_FUZZ_TARGET != 0
typedef struct {
  MsSource *inner;
  int left;
} Capped;

static MsNext capped_next(gpointer self, MsStep *step, GError **error) {
  Capped *c = self;
  if (c->left-- <= 0) return MS_NEXT_END;
  return ms_source_next(c->inner, step, error);
}

static gboolean capped_fill(gpointer self, guint64 first, guint64 count, gint64 *addr, GError **error) {
  return ms_source_fill(((Capped *)self)->inner, first, count, addr, error);
}

static void capped_destroy(gpointer self) { g_free(self); }

static const MsSourceFuncs capped_funcs = {capped_next, capped_fill, capped_destroy};

static void run_small(MsSource *src, size_t size) {
  if (ms_source_threads(src) > 4096) return;
  /* one run per input (the source is consumed), on a DMM or an HMM by the input's size */
  {
    MsModel *m = ms_model_new(size % 2 ? MS_MODEL_HMM : MS_MODEL_DMM, 4, 3, 2, 2, 5);
    Capped *c = g_new0(Capped, 1);
    c->inner = src;
    c->left = 64;
    MsSource *s = ms_source_new("fuzz", ms_source_threads(src), ms_source_block_threads(src), &capped_funcs, c);
    GError *err = NULL;
    MsResult *r = ms_simulate(m, s, NULL, &err);
    ms_result_free(r);
    g_clear_error(&err);
    ms_source_free(s);
    ms_model_free(m);
  }
}
#endif

int LLVMFuzzerTestOneInput(const guint8 *data, size_t size) {
  GError *err = NULL;
#if MS_FUZZ_TARGET == 0
  MsModel *m = ms_model_parse((const char *)data, size, "fuzz.json", &err);
  if (m) {
    char *d = ms_model_describe(m);
    g_free(d);
  }
  ms_model_free(m);
#else
  MsSource *src = ms_trace_open_memory(data, size, "fuzz", &err);
  if (src) run_small(src, size);
  ms_source_free(src);
#endif
  g_clear_error(&err);
  return 0;
}
