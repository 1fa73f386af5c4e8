/* bench/sat-stage-phases.c: the model's phases of one stage kernel of the comparer's `1r1w`
 * trace (ms_cmp_sat_1r1w_stages, the trace of kernels/sat.cu sat_1r1w_stage), to set beside
 * the GPU's MEMSIM_SAT_PHASES figures (docs/validation.md, "The SAT tile kernels, kernel by
 * kernel and phase by phase").  A phase ends at a block barrier or the kernel's end: its time
 * is the last completion of its steps, counted from the kernel's start (the end of the kernel
 * before it plus the model's launch_units).
 *
 *   cc -O2 -std=c11 -Isim/include -Isim/compare $(pkg-config --cflags glib-2.0) \
 *      bench/sat-stage-phases.c sim/compare/ms-compare-traces.c build-release/sim/libmemsim.a \
 *      $(pkg-config --libs glib-2.0 libcjson) -lm -lpthread -o sat-stage-phases
 *   ./sat-stage-phases MODEL N [KERNEL] [--chains]
 *
 * KERNEL is the stage (0 .. 2N/32 - 2; default the middle one).  A benchmark helper, not a test. */
#include "ms-compare.h"
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s MODEL N [KERNEL] [--chains]\n", argv[0]);
    return 2;
  }
  GError *e = NULL;
  const guint64 n = g_ascii_strtoull(argv[2], NULL, 10);
  gboolean chains = FALSE;
  gint64 want = -1;
  for (int i = 3; i < argc; i++) {
    if (strcmp(argv[i], "--chains") == 0) chains = TRUE;
    else want = g_ascii_strtoll(argv[i], NULL, 10);
  }
  if (want < 0) want = (gint64)(n / 32) - 1;
  MsModel *m = ms_model_load(argv[1], &e);
  MsSource *s = m ? ms_cmp_sat_1r1w_stages(n, chains, &e) : NULL;
  MsSimOptions o = {0};
  o.per_step = TRUE;
  MsResult *r = s ? ms_simulate(m, s, &o, &e) : NULL;
  if (!r) {
    fprintf(stderr, "%s: %s\n", argv[0], e ? e->message : "failed");
    return 1;
  }
  printf("%s, n = %" G_GUINT64_FORMAT "%s: %" G_GUINT64_FORMAT " time units, %" G_GUINT64_FORMAT " kernels\n", argv[1], n,
         chains ? " (chains)" : "", r->time_units, r->kernels);
  gint64 kernel = 0, prev_end = 0, start = (gint64)m->launch_units, last = start, mark = start;
  GString *ph = g_string_new(NULL);
  for (guint i = 0; i < r->per_step->len; i++) {
    const MsStepResult *x = &g_array_index(r->per_step, MsStepResult, i);
    if (x->step.op == MS_OP_SYNC && x->step.scope == MS_SCOPE_GRID) {
      if (kernel == want) break;
      kernel++;
      prev_end = last;
      start = mark = last = prev_end + (gint64)m->launch_units;
      g_string_truncate(ph, 0);
      continue;
    }
    if (x->step.op == MS_OP_SYNC) {
      if (kernel == want) g_string_append_printf(ph, "%s%" G_GINT64_FORMAT, ph->len ? " / " : "", last - mark);
      mark = last;
      continue;
    }
    if (x->last_complete >= 0 && x->last_complete + 1 > last) last = x->last_complete + 1;
  }
  g_string_append_printf(ph, "%s%" G_GINT64_FORMAT, ph->len ? " / " : "", last - mark);
  printf("kernel %" G_GINT64_FORMAT ": phases %s (time units from its start), %" G_GINT64_FORMAT " in all\n", want, ph->str,
         last - start);
  g_string_free(ph, TRUE);
  ms_result_free(r);
  ms_source_free(s);
  ms_model_free(m);
  return 0;
}
