/* cmd-gen-simple.c: `memsim gen simple`: the held-out family of kernels a user writes
 * (docs/workloads/simple.md). */
#include "ms-cli.h"
#include "simple/ms-simple.h"
#include <string.h>

int ms_cmd_gen_simple(int argc, char **argv) {
  /* option values in the order of `keys` (the family's parameter names) */
  static const char *const keys[] = {"n",      "s",       "threads_per_block", "block_x", "block_y", "tile",
                                     "pitch",  "repeats", "blocks",            "shared_words", "seed"};
  char *v[G_N_ELEMENTS(keys)] = {NULL};
  char *alg = NULL, *output = NULL, *format = NULL, *run = NULL;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
      {"algorithm", 'a', 0, G_OPTION_ARG_STRING, &alg,
       "copy, strided-read, gather, transpose-naive, transpose-tiled, transpose-padded, shared-stride or reduce", "ALG"},
      {"n", 'n', 0, G_OPTION_ARG_STRING, &v[0], "Words (1-D kernels, reduce; default 4096) or the matrix side (transposes; default 64)", "N"},
      {"s", 's', 0, G_OPTION_ARG_STRING, &v[1], "Stride: strided-read (default 8), shared-stride (default 2)", "S"},
      {"threads-per-block", 'b', 0, G_OPTION_ARG_STRING, &v[2], "Threads per block (default 256; transposes: derived)", "T"},
      {"block-x", 0, 0, G_OPTION_ARG_STRING, &v[3], "transpose-naive: block width (default 32)", "X"},
      {"block-y", 0, 0, G_OPTION_ARG_STRING, &v[4], "Transposes: block height (default 8)", "Y"},
      {"tile", 0, 0, G_OPTION_ARG_STRING, &v[5], "transpose-tiled, -padded: tile side (default 32)", "T"},
      {"pitch", 0, 0, G_OPTION_ARG_STRING, &v[6], "transpose-tiled, -padded: row pitch, tile or tile + 1 (derived)", "P"},
      {"repeats", 'R', 0, G_OPTION_ARG_STRING, &v[7], "shared-stride: reads per thread (default 256)", "R"},
      {"blocks", 0, 0, G_OPTION_ARG_STRING, &v[8], "shared-stride: blocks (default 4)", "B"},
      {"shared-words", 0, 0, G_OPTION_ARG_STRING, &v[9],
       "Shared words per block (shared-stride: a power of two, default 1024; others: derived)", "W"},
      {"seed", 0, 0, G_OPTION_ARG_STRING, &v[10], "gather's permutation and the verification data (default 1)", "SEED"},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the trace to FILE (default stdout)", "FILE"},
      {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "explicit or binary instead of the compact JSON form", "FORM"},
      {"run", 'r', 0, G_OPTION_ARG_FILENAME, &run, "Simulate on MODEL instead of writing the trace", "MODEL"},
      {"json", 'j', 0, G_OPTION_ARG_NONE, &json, "With --run: print one JSON object", NULL},
      {NULL}};
  GOptionContext *ctx = g_option_context_new("- the held-out family: kernels a user writes (kernels/simple.cu)");
  g_option_context_set_summary(ctx, "Builds the compact trace of the kernel, executes it on real data against the\n"
                                    "CPU result, then writes it (or simulates it).  Options are the parameters of\n"
                                    "memsim-measure's \"simple\" records.");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int code = MS_EXIT_OK;
  GError *err = NULL;
  GHashTable *params = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
  if (!ms_cli_parse(ctx, "gen simple", &argc, &argv, &code)) goto out;
  if (argc != 1 || !alg) {
    fprintf(stderr, "memsim gen simple: %s\nTry 'memsim gen simple --help'\n",
            alg ? "unexpected argument" : "--algorithm is required");
    code = MS_EXIT_INPUT;
    goto out;
  }
  for (gsize i = 0; i < G_N_ELEMENTS(keys); i++)
    if (v[i]) g_hash_table_insert(params, (gpointer)keys[i], g_strdup(v[i]));
  if (run || format) {
    MsSource *src = ms_simple_source(alg, params, &err);
    code = src ? ms_cli_gen_finish("gen simple", src, output, format, run, json) : ms_cli_fail("gen simple", err);
  } else {
    char *text = ms_simple_compact(alg, params, &err);
    code = text ? ms_cli_write_text("gen simple", text, output) : ms_cli_fail("gen simple", err);
    g_free(text);
  }
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
