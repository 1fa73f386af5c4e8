/* cmd-gen-mul.c: `memsim gen mul`: multiple-length multiplication (seed 002 ch. 3), one
 * thread per product: the School and Comba methods as bulk programs (docs/workloads/mul.md).
 * The traces are the bulk family's ("school", "comba"), so records of either verb match. */
#include "ms-cli.h"
#include "bulk/ms-bulk.h"
#include <string.h>

int ms_cmd_gen_mul(int argc, char **argv) {
  static const char *const keys[] = {"bits", "p", "arrangement", "threads_per_block", "seed"};
  char *v[G_N_ELEMENTS(keys)] = {NULL};
  char *alg = NULL, *output = NULL, *format = NULL, *run = NULL;
  gboolean json = FALSE, info_flag = FALSE;
  GOptionEntry entries[] = {
      {"algorithm", 'a', 0, G_OPTION_ARG_STRING, &alg, "school or comba (one thread per product)", "ALG"},
      {"bits", 0, 0, G_OPTION_ARG_STRING, &v[0], "Bits of each operand, a multiple of 32 up to 8192 (default 1024)", "BITS"},
      {"products", 'p', 0, G_OPTION_ARG_STRING, &v[1], "Products computed at once = threads (default 1024)", "P"},
      {"arrangement", 0, 0, G_OPTION_ARG_STRING, &v[2], "column (word x of product j at x*p + j; default) or row", "ARR"},
      {"threads-per-block", 'b', 0, G_OPTION_ARG_STRING, &v[3], "Threads per block (default 256 when it divides p, else p)", "T"},
      {"seed", 0, 0, G_OPTION_ARG_STRING, &v[4], "The operands (default 1)", "SEED"},
      {"info", 0, 0, G_OPTION_ARG_NONE, &info_flag, "Print the program's reads and writes on stderr", NULL},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the trace to FILE (default stdout)", "FILE"},
      {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "explicit or binary instead of the compact JSON form", "FORM"},
      {"run", 'r', 0, G_OPTION_ARG_FILENAME, &run, "Simulate on MODEL instead of writing the trace", "MODEL"},
      {"json", 'j', 0, G_OPTION_ARG_NONE, &json, "With --run: print one JSON object", NULL},
      {NULL}};
  GOptionContext *ctx = g_option_context_new("- multiple-length multiplication C = A * B (seed 002 ch. 3)");
  g_option_context_set_summary(ctx, "p threads each multiply two BITS-bit numbers by the School or Comba method, the\n"
                                    "operands arranged column-wise or row-wise.  Each product is computed on data through\n"
                                    "the trace's addresses and checked against GMP before the trace is written.\n"
                                    "The warp methods (column-based, sum-rotate) and Toom-k are not built yet.");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int code = MS_EXIT_OK;
  GError *err = NULL;
  GHashTable *params = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
  if (!ms_cli_parse(ctx, "gen mul", &argc, &argv, &code)) goto out;
  if (argc != 1 || !alg) {
    fprintf(stderr, "memsim gen mul: %s\nTry 'memsim gen mul --help'\n", alg ? "unexpected argument" : "--algorithm is required");
    code = MS_EXIT_INPUT;
    goto out;
  }
  if (strcmp(alg, "school") && strcmp(alg, "comba")) {
    fprintf(stderr, "memsim gen mul: unknown algorithm \"%s\" (school, comba)\n", alg);
    code = MS_EXIT_INPUT;
    goto out;
  }
  for (gsize i = 0; i < G_N_ELEMENTS(keys); i++)
    if (v[i]) g_hash_table_insert(params, (gpointer)keys[i], g_strdup(v[i]));
  MsBulkInfo info;
  char *text = ms_bulk_compact(alg, params, &info, &err);
  if (!text) {
    code = ms_cli_fail("gen mul", err);
    goto out;
  }
  if (info_flag) {
    const guint64 w = (info.words) / 4;
    fprintf(stderr, "mul %s: p = %" G_GUINT64_FORMAT ", %s, w = %" G_GUINT64_FORMAT " words, t = %" G_GUINT64_FORMAT
            " memory steps (%s), %" G_GUINT64_FORMAT " products checked against GMP\n", alg, info.p,
            info.column ? "column-wise" : "row-wise", w, info.t,
            strcmp(alg, "school") == 0 ? "2w^2 reads, w^2 + w writes" : "2w^2 - 2 reads, 2w writes", info.checked);
  }
  if (run || format) {
    MsSource *src = ms_trace_open_memory(text, strlen(text), "mul", &err);
    code = src ? ms_cli_gen_finish("gen mul", src, output, format, run, json) : ms_cli_fail("gen mul", err);
  } else {
    code = ms_cli_write_text("gen mul", text, output);
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
