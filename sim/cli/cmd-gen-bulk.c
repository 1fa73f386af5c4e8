/* cmd-gen-bulk.c: `memsim gen bulk`: bulk execution of an oblivious sequential program
 * (docs/workloads/bulk.md). */
#include "ms-cli.h"
#include "bulk/ms-bulk.h"
#include <string.h>

int ms_cmd_gen_bulk(int argc, char **argv) {
  /* option values in the order of `keys` (the family's parameter names) */
  static const char *const keys[] = {"p", "arrangement", "threads_per_block", "n", "bits", "seed", "program",
                                     "nonterminals", "rules"};
  char *v[G_N_ELEMENTS(keys)] = {NULL};
  char *alg = NULL, *output = NULL, *format = NULL, *run = NULL;
  gboolean json = FALSE, print_program = FALSE, info_flag = FALSE;
  GOptionEntry entries[] = {
      {"algorithm", 'a', 0, G_OPTION_ARG_STRING, &alg,
       "prefix-sums, bitonic, floyd-warshall, montgomery, cky (or program, implied by --program)", "ALG"},
      {"p", 'p', 0, G_OPTION_ARG_STRING, &v[0], "Instances = threads (default 1024)", "P"},
      {"arrangement", 0, 0, G_OPTION_ARG_STRING, &v[1], "column (word x of instance j at x*p + j; default) or row (j*words + x)", "ARR"},
      {"threads-per-block", 'b', 0, G_OPTION_ARG_STRING, &v[2], "Threads per block (default 256 when it divides p, else p)", "T"},
      {"n", 'n', 0, G_OPTION_ARG_STRING, &v[3],
       "prefix-sums, bitonic: words (default 1024); floyd-warshall: nodes (default 32); cky: string length (default 32)", "N"},
      {"nonterminals", 0, 0, G_OPTION_ARG_STRING, &v[7], "cky: non-terminals of the grammar, 1 .. 512 (default 32)", "B"},
      {"rules", 0, 0, G_OPTION_ARG_STRING, &v[8], "cky: binary rules A -> BC, at most B^3 and 131072 (default min(8192, B^3))", "R"},
      {"bits", 0, 0, G_OPTION_ARG_STRING, &v[4], "montgomery: bits, a multiple of 32 (default 1024)", "BITS"},
      {"seed", 0, 0, G_OPTION_ARG_STRING, &v[5], "The verification data (default 1)", "SEED"},
      {"program", 'P', 0, G_OPTION_ARG_FILENAME, &v[6], "A bulk program file (docs/workloads/bulk.md)", "FILE"},
      {"print-program", 0, 0, G_OPTION_ARG_NONE, &print_program, "Print the sequential program (the bulk-program form) instead", NULL},
      {"info", 0, 0, G_OPTION_ARG_NONE, &info_flag, "Print what the trace is (t, words, checked instances) on stderr", NULL},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the trace to FILE (default stdout)", "FILE"},
      {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "explicit or binary instead of the compact JSON form", "FORM"},
      {"run", 'r', 0, G_OPTION_ARG_FILENAME, &run, "Simulate on MODEL instead of writing the trace", "MODEL"},
      {"json", 'j', 0, G_OPTION_ARG_NONE, &json, "With --run: print one JSON object", NULL},
      {NULL}};
  GOptionContext *ctx = g_option_context_new("- bulk execution of an oblivious sequential program (seed 003)");
  g_option_context_set_summary(ctx, "p threads each run the same sequential program on their own instance, its memory\n"
                                    "arranged column-wise (every step coalesced) or row-wise.  Built-ins are executed\n"
                                    "on real data through the trace's addresses and checked before the trace is written.");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int code = MS_EXIT_OK;
  GError *err = NULL;
  GHashTable *params = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
  if (!ms_cli_parse(ctx, "gen bulk", &argc, &argv, &code)) goto out;
  if (!alg && v[6]) alg = g_strdup("program");
  if (argc != 1 || !alg) {
    fprintf(stderr, "memsim gen bulk: %s\nTry 'memsim gen bulk --help'\n",
            alg ? "unexpected argument" : "--algorithm or --program is required");
    code = MS_EXIT_INPUT;
    goto out;
  }
  for (gsize i = 0; i < G_N_ELEMENTS(keys); i++)
    if (v[i]) g_hash_table_insert(params, (gpointer)keys[i], g_strdup(v[i]));
  if (print_program) {
    char *text = ms_bulk_program(alg, params, &err);
    code = text ? ms_cli_write_text("gen bulk", text, output) : ms_cli_fail("gen bulk", err);
    g_free(text);
    goto out;
  }
  MsBulkInfo info;
  char *text = ms_bulk_compact(alg, params, &info, &err);
  if (!text) {
    code = ms_cli_fail("gen bulk", err);
    goto out;
  }
  if (info_flag)
    fprintf(stderr, "bulk %s: p = %" G_GUINT64_FORMAT ", %s, words = %" G_GUINT64_FORMAT ", t = %" G_GUINT64_FORMAT
            " memory steps, %" G_GUINT64_FORMAT " instances checked%s\n", alg, info.p,
            info.column ? "column-wise" : "row-wise", info.words, info.t, info.checked,
            info.data ? " on data" : " (accesses only)");
  if (run || format) {
    MsSource *src = ms_trace_open_memory(text, strlen(text), "bulk", &err);
    code = src ? ms_cli_gen_finish("gen bulk", src, output, format, run, json) : ms_cli_fail("gen bulk", err);
  } else {
    code = ms_cli_write_text("gen bulk", text, output);
  }
  g_free(text);
out:
  g_hash_table_unref(params);
  g_option_context_free(ctx);
  for (gsize i = 0; i < G_N_ELEMENTS(keys); i++) g_free(v[i]);
  g_free(alg);
  g_free(output);
  g_free(format);
  g_free(run);
  return code;
}
