/* cmd-gen-sat.c: `memsim gen sat` and `memsim sat-best` (seed 001 chapter 6). */
#include "ms-cli.h"
#include "../workloads/sat/ms-sat.h"
#include <string.h>

static GHashTable *sat_params(const char *n, const char *r, const char *block, const char *tile_threads, const char *seed,
                              const char *values, const char *unroll, gboolean chains) {
  GHashTable *p = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
  if (unroll) g_hash_table_insert(p, "unroll", g_strdup(unroll));
  if (chains) g_hash_table_insert(p, "chains", g_strdup("1"));
  if (tile_threads) g_hash_table_insert(p, "tile-threads", g_strdup(tile_threads));
  if (n) g_hash_table_insert(p, "n", g_strdup(n));
  if (r) g_hash_table_insert(p, "r", g_strdup(r));
  if (block) g_hash_table_insert(p, "block", g_strdup(block));
  if (seed) g_hash_table_insert(p, "seed", g_strdup(seed));
  if (values) g_hash_table_insert(p, "values", g_strdup(values));
  return p;
}

int ms_cmd_gen_sat(int argc, char **argv) {
  char *alg = NULL, *n = NULL, *r = NULL, *block = NULL, *tile_threads = NULL, *seed = NULL, *values = NULL, *output = NULL,
       *format = NULL, *run = NULL, *unroll = NULL;
  gboolean json = FALSE, stats = FALSE, chains = FALSE;
  GOptionEntry entries[] = {
      {"algorithm", 'a', 0, G_OPTION_ARG_STRING, &alg, "2r2w, 4r4w, 4r1w, 2r1w, 1r1w or 1+r", "ALG"},
      {"n", 'n', 0, G_OPTION_ARG_STRING, &n, "Matrix side (a multiple of the block width)", "N"},
      {"r", 'r', 0, G_OPTION_ARG_STRING, &r, "1+r: the share r in [0, 1] given to 2R1W (default 0.25)", "R"},
      {"block", 'b', 0, G_OPTION_ARG_STRING, &block, "Tile width W, a power of two (default 32)", "W"},
      {"tile-threads", 't', 0, G_OPTION_ARG_STRING, &tile_threads,
       "2r1w, 1r1w, 1+r: threads per tile block, W times a power of two, at most W*W (default 4W)", "T"},
      {"unroll", 'u', 0, G_OPTION_ARG_STRING, &unroll,
       "2r2w, 4r4w: prefix loops as U reads then U writes, the order nvcc gives #pragma unroll U (1 .. 8; default 1, the paper's order)", "U"},
      {"chains", 0, 0, G_OPTION_ARG_NONE, &chains,
       "2r1w, 1r1w, 1+r: a compute step of one instruction (the running sum's add) between each scan step's read and its "
       "write, as kernels/sat.cu runs them (timed at the model's instruction_units)", NULL},
      {"seed", 0, 0, G_OPTION_ARG_STRING, &seed, "Seed of the verification input (default 1)", "S"},
      {"values", 0, 0, G_OPTION_ARG_STRING, &values, "Verification input: random (20-bit), large (>= 2^62, wraps), ones", "KIND"},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the trace to FILE (default stdout)", "FILE"},
      {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "explicit or binary instead of the compact JSON form", "FORM"},
      {"run", 0, 0, G_OPTION_ARG_FILENAME, &run, "Simulate on MODEL instead of writing the trace", "MODEL"},
      {"json", 'j', 0, G_OPTION_ARG_NONE, &json, "With --run: print one JSON object", NULL},
      {"stats", 's', 0, G_OPTION_ARG_NONE, &stats,
       "Print the verifier's counts (Table 6.1: coalesced/stride global, shared, barriers) as JSON instead of the trace", NULL},
      {NULL}};
  GOptionContext *ctx = g_option_context_new("- summed area table on the asynchronous HMM (seed 001 ch. 6)");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int code = MS_EXIT_OK;
  GError *err = NULL;
  GHashTable *params = NULL;
  if (!ms_cli_parse(ctx, "gen sat", &argc, &argv, &code)) goto out;
  if (argc != 1 || !alg) {
    fprintf(stderr, "memsim gen sat: %s\nTry 'memsim gen sat --help'\n", !alg ? "--algorithm is required" : "unexpected argument");
    code = MS_EXIT_INPUT;
    goto out;
  }
  params = sat_params(n, r, block, tile_threads, seed, values, unroll, chains);
  if (stats && (run || format || output)) {
    fprintf(stderr, "memsim gen sat: --stats prints counts to stdout; it takes no --run, --format or --output\n");
    code = MS_EXIT_INPUT;
  } else if (stats) {
    MsSatStats st = {0};
    char *text = ms_sat_compact(alg, params, &st, &err);
    if (text) {
      printf("{\"algorithm\": \"%s\", \"n\": %s, \"threads\": %" G_GUINT64_FORMAT ", \"block_threads\": %" G_GUINT64_FORMAT
             ", \"coalesced_reads\": %" G_GUINT64_FORMAT ", \"coalesced_writes\": %" G_GUINT64_FORMAT
             ", \"stride_reads\": %" G_GUINT64_FORMAT ", \"stride_writes\": %" G_GUINT64_FORMAT
             ", \"shared_reads\": %" G_GUINT64_FORMAT ", \"shared_writes\": %" G_GUINT64_FORMAT
             ", \"grid_barriers\": %" G_GUINT64_FORMAT ", \"block_barriers\": %" G_GUINT64_FORMAT ", \"steps\": %" G_GUINT64_FORMAT
             ", \"verified\": true}\n",
             alg, n ? n : "null", st.threads, st.block_threads, st.coalesced_reads, st.coalesced_writes, st.stride_reads,
             st.stride_writes, st.shared_reads, st.shared_writes, st.grid_barriers, st.block_barriers, st.steps);
      g_free(text);
    } else {
      code = ms_cli_fail("gen sat", err);
    }
  } else if (run || format) {
    MsSource *src = ms_sat_source(alg, params, &err);
    code = src ? ms_cli_gen_finish("gen sat", src, output, format, run, json) : ms_cli_fail("gen sat", err);
  } else {
    char *text = ms_sat_compact(alg, params, NULL, &err);
    code = text ? ms_cli_write_text("gen sat", text, output) : ms_cli_fail("gen sat", err);
    g_free(text);
  }
out:
  if (params) g_hash_table_destroy(params);
  g_free(alg);
  g_free(n);
  g_free(r);
  g_free(block);
  g_free(tile_threads);
  g_free(unroll);
  g_free(seed);
  g_free(values);
  g_free(output);
  g_free(format);
  g_free(run);
  g_option_context_free(ctx);
  return code;
}

/* Predicted time units of (1+r)R1W with qa 2R1W diagonals; G_MAXUINT64 on error. */
static guint64 eval_qa(const char *n, const char *block, const char *tile_threads, const MsModel *model, guint64 m, guint64 qa, double *r_out,
                       GError **error) {
  /* the smallest r giving qa diagonals: m sqrt(r) rounds to qa */
  double r = qa == 0 ? 0.0 : ((double)qa - 0.5) / (double)m;
  r = qa == 0 ? 0.0 : r * r + 1e-12;
  if (r > 1.0) r = 1.0;
  while (qa > 0 && ms_sat_diagonals_for_r(m, r) < qa && r < 1.0) r = MIN(1.0, r * 1.0001 + 1e-9);
  *r_out = r;
  char rs[64];
  g_ascii_formatd(rs, sizeof rs, "%.6f", r);
  GHashTable *p = sat_params(n, rs, block, tile_threads, NULL, NULL, NULL, FALSE);
  MsSource *src = ms_sat_source("1+r", p, error);
  g_hash_table_destroy(p);
  if (!src) return G_MAXUINT64;
  MsResult *res = ms_simulate(model, src, NULL, error);
  ms_source_free(src);
  if (!res) return G_MAXUINT64;
  guint64 t = res->time_units;
  ms_result_free(res);
  return t;
}

int ms_cmd_sat_best(int argc, char **argv) {
  char *n = NULL, *block = NULL, *tile_threads = NULL, *model_path = NULL;
  gint grid = 16;
  GOptionEntry entries[] = {
      {"n", 'n', 0, G_OPTION_ARG_STRING, &n, "Matrix side", "N"},
      {"block", 'b', 0, G_OPTION_ARG_STRING, &block, "Tile width W (default 32)", "W"},
      {"tile-threads", 't', 0, G_OPTION_ARG_STRING, &tile_threads, "Threads per tile block (default 4W)", "T"},
      {"model", 'm', 0, G_OPTION_ARG_FILENAME, &model_path, "Model file", "MODEL"},
      {"grid", 'g', 0, G_OPTION_ARG_INT, &grid, "Coarse grid r = 0, 1/G, ..., 1 (default 16)", "G"},
      {NULL}};
  GOptionContext *ctx = g_option_context_new("- search r of (1+r)R1W for the lowest predicted time (seed 001 Table 6.2)");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int code = MS_EXIT_OK;
  GError *err = NULL;
  MsModel *model = NULL;
  GHashTable *seen = g_hash_table_new(g_int64_hash, g_int64_equal);
  GArray *keys = g_array_new(FALSE, FALSE, sizeof(gint64));
  if (!ms_cli_parse(ctx, "sat-best", &argc, &argv, &code)) goto out;
  if (!n || !model_path || grid < 1) {
    fprintf(stderr, "memsim sat-best: --n and --model are required (and --grid >= 1)\nTry 'memsim sat-best --help'\n");
    code = MS_EXIT_INPUT;
    goto out;
  }
  model = ms_model_load(model_path, &err);
  if (!model) {
    code = ms_cli_fail("sat-best", err);
    goto out;
  }
  guint64 N = g_ascii_strtoull(n, NULL, 10), W = block ? g_ascii_strtoull(block, NULL, 10) : 32;
  guint64 m = W ? N / W : 0;
  if (!m) {
    fprintf(stderr, "memsim sat-best: --n must be at least --block\n");
    code = MS_EXIT_INPUT;
    goto out;
  }
  /* time per qa, memoised in parallel arrays indexed by qa */
  guint64 *tm = g_new(guint64, m + 1);
  double *rv = g_new(double, m + 1);
  for (guint64 q = 0; q <= m; q++) tm[q] = 0;
  printf("sat-best: n=%s block=%" G_GUINT64_FORMAT " model: %s\n%10s %6s %14s\n", n, W, model->name, "r", "qa", "time_units");
  guint64 best = G_MAXUINT64, bq = 0;
#define EVAL(q)                                                                                      \
  do {                                                                                               \
    if (!tm[q]) {                                                                                    \
      tm[q] = eval_qa(n, block, tile_threads, model, m, q, &rv[q], &err);                            \
      if (tm[q] == G_MAXUINT64) goto fail;                                                           \
      printf("%10.6f %6" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT "\n", rv[q], (guint64)(q), tm[q]); \
      fflush(stdout);                                                                                \
      if (tm[q] < best || (tm[q] == best && q < bq)) best = tm[q], bq = q;                           \
    }                                                                                                \
  } while (0)
  for (gint i = 0; i <= grid; i++) {
    guint64 q = ms_sat_diagonals_for_r(m, (double)i / grid);
    EVAL(q);
  }
  /* refine: walk to better neighbours of the best qa */
  for (gboolean moved = TRUE; moved;) {
    moved = FALSE;
    guint64 b0 = bq;
    if (bq > 0) EVAL(bq - 1);
    if (bq < m) EVAL(bq + 1);
    moved = bq != b0;
  }
  printf("best: r=%.6f qa=%" G_GUINT64_FORMAT " time_units=%" G_GUINT64_FORMAT "\n", rv[bq], bq, best);
  g_free(tm);
  g_free(rv);
  goto out;
fail:
  g_free(tm);
  g_free(rv);
  code = ms_cli_fail("sat-best", err);
out:
  ms_model_free(model);
  g_hash_table_destroy(seen);
  g_array_free(keys, TRUE);
  g_free(n);
  g_free(block);
  g_free(tile_threads);
  g_free(model_path);
  g_option_context_free(ctx);
  return code;
}
