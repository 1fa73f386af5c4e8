/* cmd-gen-mul.c: `memsim gen mul`: multiple-length multiplication (seed 002 ch. 3): one
 * thread per product, the School and Comba methods as bulk programs (their traces are the
 * bulk family's, so records of either verb match); and one warp per product, sum-rotate
 * with warp shuffles or with shared memory, and the parallel column-based method with
 * shared memory (mul/ms-mul.h).  docs/workloads/mul.md. */
#include "ms-cli.h"
#include "bulk/ms-bulk.h"
#include "mul/ms-mul.h"
#include "mul/ms-toom.h"
#include <string.h>

int ms_cmd_gen_mul(int argc, char **argv) {
  static const char *const keys[] = {"bits", "p", "arrangement", "threads_per_block", "seed"};
  char *v[G_N_ELEMENTS(keys)] = {NULL};
  char *alg = NULL, *output = NULL, *format = NULL, *run = NULL;
  gboolean json = FALSE, info_flag = FALSE;
  GOptionEntry entries[] = {
      {"algorithm", 'a', 0, G_OPTION_ARG_STRING, &alg, "school or comba (one thread per product); sum-rotate, sum-rotate-shared or column-based (one warp per product); toom-2 ... toom-9 (two kernels)", "ALG"},
      {"bits", 0, 0, G_OPTION_ARG_STRING, &v[0], "Bits of each operand: a multiple of 32 up to 8192; 64 ... 1024, a power of two, for the one-warp methods (default 1024); toom-K: a multiple of 32 of at least 64 K (default 4096)", "BITS"},
      {"products", 'p', 0, G_OPTION_ARG_STRING, &v[1], "Products computed at once (default 1024)", "P"},
      {"arrangement", 0, 0, G_OPTION_ARG_STRING, &v[2], "school, comba: column (word x of product j at x*p + j; default) or row", "ARR"},
      {"threads-per-block", 'b', 0, G_OPTION_ARG_STRING, &v[3], "Threads per block (school, comba: default 256 when it divides p, else p; one warp per product: 32; toom-K: 128)", "T"},
      {"seed", 0, 0, G_OPTION_ARG_STRING, &v[4], "The operands (default 1)", "SEED"},
      {"info", 0, 0, G_OPTION_ARG_NONE, &info_flag, "Print the program's reads and writes on stderr", NULL},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the trace to FILE (default stdout)", "FILE"},
      {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "explicit or binary instead of the compact JSON form", "FORM"},
      {"run", 'r', 0, G_OPTION_ARG_FILENAME, &run, "Simulate on MODEL instead of writing the trace", "MODEL"},
      {"json", 'j', 0, G_OPTION_ARG_NONE, &json, "With --run: print one JSON object", NULL},
      {NULL}};
  GOptionContext *ctx = g_option_context_new("- multiple-length multiplication C = A * B (seed 002 ch. 3)");
  g_option_context_set_summary(ctx, "school, comba: p threads each multiply two BITS-bit numbers, the operands arranged\n"
                                    "column-wise or row-wise; each product is computed on data through the trace's\n"
                                    "addresses.  sum-rotate: BITS/32 lanes of a warp per product (Algorithm 3), the\n"
                                    "words exchanged by warp shuffles (\"shuffle\" steps: no memory stage), or through\n"
                                    "shared memory (sum-rotate-shared).  column-based: lane i of a product's n = BITS/32\n"
                                    "lanes adds up columns i and n+i (Figure 3.3), the operands and carries through\n"
                                    "shared memory.  Every product is checked against GMP before the trace is written.\n"
                                    "toom-2 ... toom-9: Toom-k (section 3.3.2), 2k - 1 point products then the\n"
                                    "interpolation, one thread a point and product, then one a product; a few products\n"
                                    "are executed through the trace's addresses and checked against GMP.");
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
  const gboolean column = strcmp(alg, "column-based") == 0;
  const gboolean toom = ms_toom_is(alg, NULL);
  const gboolean warp = strcmp(alg, "sum-rotate") == 0 || strcmp(alg, "sum-rotate-shared") == 0 || column || toom;
  if (strcmp(alg, "school") && strcmp(alg, "comba") && !warp) {
    fprintf(stderr, "memsim gen mul: unknown algorithm \"%s\" (school, comba, sum-rotate, sum-rotate-shared, column-based, toom-2 ... toom-9)\n", alg);
    code = MS_EXIT_INPUT;
    goto out;
  }
  if (warp && v[2]) {
    fprintf(stderr, "memsim gen mul: --arrangement is for school and comba (%s)\n",
            toom ? "Toom-k's arrays are column-wise" : "the one-warp methods' operands are lane-major");
    code = MS_EXIT_INPUT;
    goto out;
  }
  /* sum-rotate's parameter is "products" (a record's key); the bulk programs' is "p" */
  for (gsize i = 0; i < G_N_ELEMENTS(keys); i++)
    if (v[i]) g_hash_table_insert(params, (gpointer)(warp && i == 1 ? "products" : keys[i]), g_strdup(v[i]));
  MsBulkInfo info;
  MsMulInfo winfo;
  MsToomInfo tinfo;
  char *text = toom ? ms_toom_compact(alg, params, &tinfo, &err)
               : warp ? ms_mul_compact(alg, params, &winfo, &err) : ms_bulk_compact(alg, params, &info, &err);
  if (!text) {
    code = ms_cli_fail("gen mul", err);
    goto out;
  }
  if (info_flag && toom) {
    fprintf(stderr, "mul %s: %" G_GUINT64_FORMAT " products of %" G_GUINT64_FORMAT " words, %" G_GUINT64_FORMAT
            " points of parts of %" G_GUINT64_FORMAT " words; %" G_GUINT64_FORMAT " threads (blocks of %" G_GUINT64_FORMAT
            "); per product %" G_GUINT64_FORMAT " word multiplications, kernel 1 %" G_GUINT64_FORMAT " reads and %"
            G_GUINT64_FORMAT " writes, kernel 2 %" G_GUINT64_FORMAT " reads and %" G_GUINT64_FORMAT " writes; %"
            G_GUINT64_FORMAT " products executed through the trace's addresses and checked against GMP\n",
            alg, tinfo.products, tinfo.w, tinfo.points, tinfo.n, tinfo.threads, tinfo.block_threads, tinfo.mults,
            tinfo.reads1, tinfo.writes1, tinfo.reads2, tinfo.writes2, tinfo.checked);
  } else if (info_flag && column) {
    fprintf(stderr, "mul %s: %" G_GUINT64_FORMAT " products of %" G_GUINT64_FORMAT " words, %" G_GUINT64_FORMAT
            " threads (blocks of %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT " shared words); per thread 2 reads and 2 "
            "writes, and 2n + 10 shared requests (2 writes, 2n reads, 4 writes, 4 reads) plus 4 a carry round of its "
            "warp (%" G_GUINT64_FORMAT " rounds in all, at most %" G_GUINT64_FORMAT " per warp); %" G_GUINT64_FORMAT
            " products checked against GMP\n",
            alg, winfo.products, winfo.n, winfo.threads, winfo.block_threads, winfo.shared_words, winfo.rounds,
            winfo.carry_max, winfo.checked);
  } else if (info_flag && warp) {
    fprintf(stderr, "mul %s: %" G_GUINT64_FORMAT " products of %" G_GUINT64_FORMAT " words, %" G_GUINT64_FORMAT
            " threads (blocks of %" G_GUINT64_FORMAT "); per thread 2 reads and 2 writes; %" G_GUINT64_FORMAT
            " warp shuffles (3n per warp + carry rounds, at most %" G_GUINT64_FORMAT " per warp)%s; %" G_GUINT64_FORMAT
            " products checked against GMP\n",
            alg, winfo.products, winfo.n, winfo.threads, winfo.block_threads, winfo.shuffles, winfo.carry_max,
            strcmp(alg, "sum-rotate-shared") == 0 ? ", each as a shared write and read" : "", winfo.checked);
  } else if (info_flag) {
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
