/* cmd-gen-gf2.c: `memsim gen gf2`: GF(2) Gaussian elimination, fountain-code decoding
 * (seed 004; docs/workloads/gf2.md). */
#include "ms-cli.h"
#include "gf2/ms-gf2.h"
#include <string.h>

int ms_cmd_gen_gf2(int argc, char **argv) {
  /* option values in the order of `keys` (the family's parameter names) */
  static const char *const keys[] = {"symbols", "length", "arrangement", "threads_per_block", "seed"};
  char *v[G_N_ELEMENTS(keys)] = {NULL};
  char *alg = NULL, *output = NULL, *format = NULL, *run = NULL;
  gboolean json = FALSE, info_flag = FALSE;
  GOptionEntry entries[] = {
      {"algorithm", 'a', 0, G_OPTION_ARG_STRING, &alg, "eliminate (the default)", "ALG"},
      {"symbols", 'n', 0, G_OPTION_ARG_STRING, &v[0], "Source symbols n: the generator matrix has n columns and n + 10 rows (default 256)", "N"},
      {"length", 'L', 0, G_OPTION_ARG_STRING, &v[1], "Bits per symbol (default 1024)", "BITS"},
      {"arrangement", 0, 0, G_OPTION_ARG_STRING, &v[2], "row (row r at r*W: the seed's; default) or column (word k of row r at k*R + r)", "ARR"},
      {"threads-per-block", 'b', 0, G_OPTION_ARG_STRING, &v[3], "Threads per block (default 256)", "T"},
      {"seed", 0, 0, G_OPTION_ARG_STRING, &v[4], "The random generator matrix and message (default 1)", "SEED"},
      {"info", 0, 0, G_OPTION_ARG_NONE, &info_flag, "Print the instance's sizes on stderr", NULL},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the trace to FILE (default stdout)", "FILE"},
      {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "explicit or binary instead of the compact JSON form", "FORM"},
      {"run", 'r', 0, G_OPTION_ARG_FILENAME, &run, "Simulate on MODEL instead of writing the trace", "MODEL"},
      {"json", 'j', 0, G_OPTION_ARG_NONE, &json, "With --run: print one JSON object", NULL},
      {NULL}};
  GOptionContext *ctx = g_option_context_new("- GF(2) Gaussian elimination: fountain-code decoding (seed 004)");
  g_option_context_set_summary(ctx, "Decodes n + 10 random received rows [G | X] by Gauss-Jordan over GF(2), three\n"
                                    "kernels per pivot as kernels/gf2.cu.  The trace is executed on the matrix through\n"
                                    "its own addresses and must give the identity beside the message.");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int code = MS_EXIT_OK;
  GError *err = NULL;
  GHashTable *params = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
  if (!ms_cli_parse(ctx, "gen gf2", &argc, &argv, &code)) goto out;
  if (argc != 1) {
    fprintf(stderr, "memsim gen gf2: unexpected argument\nTry 'memsim gen gf2 --help'\n");
    code = MS_EXIT_INPUT;
    goto out;
  }
  if (!alg) alg = g_strdup("eliminate");
  for (gsize i = 0; i < G_N_ELEMENTS(keys); i++)
    if (v[i]) g_hash_table_insert(params, (gpointer)keys[i], g_strdup(v[i]));
  if (run && !format) { /* the in-process source: no text to parse */
    MsSource *src = ms_gf2_source(alg, params, &err);
    code = src ? ms_cli_gen_finish("gen gf2", src, output, format, run, json) : ms_cli_fail("gen gf2", err);
    goto out;
  }
  MsGf2Info info;
  char *text = ms_gf2_compact(alg, params, &info, &err);
  if (!text) {
    code = ms_cli_fail("gen gf2", err);
    goto out;
  }
  if (info_flag)
    fprintf(stderr, "gf2: %" G_GUINT64_FORMAT " symbols of %" G_GUINT64_FORMAT " bits, %" G_GUINT64_FORMAT " rows of %" G_GUINT64_FORMAT
            " words, %s arrangement, %" G_GUINT64_FORMAT " threads in blocks of %" G_GUINT64_FORMAT ", executed on data\n",
            info.symbols, info.length, info.rows, info.words, info.column ? "column" : "row", info.threads, info.block_threads);
  if (run || format) {
    MsSource *src = ms_trace_open_memory(text, strlen(text), "gf2", &err);
    code = src ? ms_cli_gen_finish("gen gf2", src, output, format, run, json) : ms_cli_fail("gen gf2", err);
  } else {
    code = ms_cli_write_text("gen gf2", text, output);
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
