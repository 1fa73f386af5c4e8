/* cmd-gen-bpbc.c: `memsim gen bpbc`: Bitwise Parallel Bulk Computation (seed 000 ch. 5-6). */
#include "ms-cli.h"
#include "ms-workloads.h"
#include <string.h>

int ms_cmd_gen_bpbc(int argc, char **argv) {
  char *alg = NULL, *boundary = NULL, *arrangement = NULL, *output = NULL, *format = NULL, *run = NULL;
  gint64 bits = 32, instances = 1 << 20, size = 256, steps = 1, seed = 1, spk = 8, unroll = 1;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
      {"algorithm", 'a', 0, G_OPTION_ARG_STRING, &alg,
       "pairwise-sum, pairwise-sum-naive, life-word, life-single, life-double or life-multistep", "ALG"},
      {"bits", 'k', 0, G_OPTION_ARG_INT64, &bits, "Pairwise sums: bits K of the numbers, 1..32 (default 32)", "K"},
      {"instances", 'm', 0, G_OPTION_ARG_INT64, &instances, "Pairwise sums: pairs M (default 2^20)", "M"},
      {"unroll", 'u', 0, G_OPTION_ARG_INT64, &unroll,
       "pairwise-sum: planes as groups of U (reads of A and B, then writes of C), the order nvcc gives the kernel's loop (1 .. 8; default 1, the paper's order)", "U"},
      {"size", 'n', 0, G_OPTION_ARG_INT64, &size, "Life: universe of N x N cells, N a multiple of 64 (default 256)", "N"},
      {"steps", 't', 0, G_OPTION_ARG_INT64, &steps, "Life: steps T, one kernel each (default 1)", "T"},
      {"steps-per-kernel", 0, 0, G_OPTION_ARG_INT64, &spk,
       "life-multistep: steps t per kernel in shared memory, 1..31 (default 8); slices of (64-2t)^2 cells", "t"},
      {"arrangement", 0, 0, G_OPTION_ARG_STRING, &arrangement,
       "life-multistep: shared-memory arrangement, shift (Figure 6.8, default) or regular", "ARR"},
      {"boundary", 0, 0, G_OPTION_ARG_STRING, &boundary, "Life: wrap (torus, default) or dead", "B"},
      {"seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Seed of the verification data (default 1)", "SEED"},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the trace to FILE (default stdout)", "FILE"},
      {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "explicit or binary (default explicit)", "FORM"},
      {"run", 'r', 0, G_OPTION_ARG_FILENAME, &run, "Simulate on MODEL instead of writing the trace", "MODEL"},
      {"json", 'j', 0, G_OPTION_ARG_NONE, &json, "With --run: print one JSON object", NULL},
      {NULL}};
  GOptionContext *ctx = g_option_context_new("- bit-sliced pairwise sums and the Game of Life");
  g_option_context_set_summary(ctx, "Runs the algorithm on random data, checks it against a straightforward\n"
                                    "implementation, then writes or simulates its (oblivious) memory trace.");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int code = MS_EXIT_OK;
  GError *err = NULL;
  GHashTable *params = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
  if (!ms_cli_parse(ctx, "gen bpbc", &argc, &argv, &code)) goto out;
  if (argc != 1 || !alg) {
    fprintf(stderr, "memsim gen bpbc: %s\nTry 'memsim gen bpbc --help'\n",
            alg ? "unexpected argument" : "--algorithm is required");
    code = MS_EXIT_INPUT;
    goto out;
  }
  if (bits < 0 || instances < 0 || size < 0 || steps < 0 || seed < 0 || spk < 0 || unroll < 0) {
    fprintf(stderr, "memsim gen bpbc: numeric options must be non-negative\n");
    code = MS_EXIT_INPUT;
    goto out;
  }
  g_hash_table_insert(params, "bits", g_strdup_printf("%" G_GINT64_FORMAT, bits));
  g_hash_table_insert(params, "instances", g_strdup_printf("%" G_GINT64_FORMAT, instances));
  g_hash_table_insert(params, "size", g_strdup_printf("%" G_GINT64_FORMAT, size));
  g_hash_table_insert(params, "steps", g_strdup_printf("%" G_GINT64_FORMAT, steps));
  g_hash_table_insert(params, "seed", g_strdup_printf("%" G_GINT64_FORMAT, seed));
  if (unroll != 1) g_hash_table_insert(params, "unroll", g_strdup_printf("%" G_GINT64_FORMAT, unroll));
  if (boundary) g_hash_table_insert(params, "boundary", g_strdup(boundary));
  if (alg && strcmp(alg, "life-multistep") == 0) {
    g_hash_table_insert(params, "steps-per-kernel", g_strdup_printf("%" G_GINT64_FORMAT, spk));
    if (arrangement) g_hash_table_insert(params, "arrangement", g_strdup(arrangement));
  } else if (arrangement) {
    fprintf(stderr, "memsim gen bpbc: --arrangement applies to life-multistep only\n");
    code = MS_EXIT_INPUT;
    goto out;
  }
  MsSource *src = ms_bpbc_source(alg, params, &err);
  if (!src) {
    code = ms_cli_fail("gen bpbc", err);
    goto out;
  }
  code = ms_cli_gen_finish("gen bpbc", src, output, format, run, json);
out:
  g_hash_table_unref(params);
  g_option_context_free(ctx);
  g_free(alg);
  g_free(boundary);
  g_free(arrangement);
  g_free(output);
  g_free(format);
  g_free(run);
  return code;
}
