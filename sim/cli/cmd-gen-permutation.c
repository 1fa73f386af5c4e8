/* cmd-gen-permutation.c: `memsim gen permutation` and `memsim perm-info`
 * (docs/workloads/permutation.md). */
#include "ms-cli.h"
#include "permutation/ms-permutation-private.h"
#include <string.h>

int ms_cmd_gen_permutation(int argc, char **argv) {
  gchar *alg = NULL, *perm = NULL, *n = NULL, *width = NULL, *seed = NULL, *ew = NULL, *blocks = NULL, *table = NULL;
  gchar *column = NULL, *strip = NULL;
  gchar *output = NULL, *format = NULL, *run = NULL;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
      {"algorithm", 'a', 0, G_OPTION_ARG_STRING, &alg, "Algorithm (copy, d-designated, s-designated, conflict-free, "
       "d-designated-inplace, s-designated-inplace, conflict-free-inplace, hmm-d-designated, hmm-s-designated, "
       "hmm-transpose, hmm-row-wise, hmm-column-wise, hmm-scheduled)", "ALG"},
      {"permutation", 'P', 0, G_OPTION_ARG_STRING, &perm, "identical, random, transpose, shuffle, bit-reversal or "
       "file:PATH (default identical)", "PERM"},
      {"n", 'n', 0, G_OPTION_ARG_STRING, &n, "Number of elements (HMM: nbar x nbar)", "N"},
      {"width", 'w', 0, G_OPTION_ARG_STRING, &width, "Banks and warp size w (default 32)", "W"},
      {"seed", 0, 0, G_OPTION_ARG_STRING, &seed, "Seed of the random permutation (default 1)", "S"},
      {"elem-words", 'e', 0, G_OPTION_ARG_STRING, &ew, "Words per element of a and b: 1 or 2 (default 1)", "1|2"},
      {"table", 0, 0, G_OPTION_ARG_STRING, &table, "DMM algorithms: where each pass reads its table: shared "
       "(default, the paper: a shared-memory read per pass) or register (held in registers, loaded once; the "
       "trace is one pass without table reads); HMM row-wise kernels: packed (one global word s | d << 16 per element, "
       "read after the barrier, two scratch arrays in turn: kernels/permutation.cu)", "shared|register|packed"},
      {"column", 0, 0, G_OPTION_ARG_STRING, &column, "hmm-column-wise, hmm-scheduled: the column round as "
       "transpose, row-wise, transpose (default, the paper) or strips (one kernel permuting strips of columns "
       "through shared memory, the row-wise kernels in place: kernels/permutation.cu; needs --table packed; "
       "no compact form)", "transpose|strips"},
      {"strip", 0, 0, G_OPTION_ARG_STRING, &strip, "With --column strips: columns per strip (default 8)", "C"},
      {"blocks", 0, 0, G_OPTION_ARG_STRING, &blocks, "Independent instances on the GPU (accepted, not traced)", "B"},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the trace to FILE (default standard output)", "FILE"},
      {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "Trace form: compact (default: JSON with the tables as data arrays), explicit or binary", "FORM"},
      {"run", 'r', 0, G_OPTION_ARG_FILENAME, &run, "Simulate on MODEL instead of writing the trace", "MODEL"},
      {"json", 'j', 0, G_OPTION_ARG_NONE, &json, "With --run: print one JSON object", NULL},
      {NULL}};
  GOptionContext *ctx = g_option_context_new("- offline permutation on the DMM and the HMM (seed 001 ch. 4-5)");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int code = MS_EXIT_OK;
  if (!ms_cli_parse(ctx, "gen permutation", &argc, &argv, &code)) goto out;
  if (argc != 1) {
    fprintf(stderr, "memsim gen permutation: unexpected argument '%s'\nTry 'memsim gen permutation --help'\n", argv[1]);
    code = MS_EXIT_INPUT;
    goto out;
  }
  if (!alg) {
    fprintf(stderr, "memsim gen permutation: --algorithm is required\nTry 'memsim gen permutation --help'\n");
    code = MS_EXIT_INPUT;
    goto out;
  }
  GHashTable *params = g_hash_table_new(g_str_hash, g_str_equal);
  const char *keys[] = {"permutation", "n", "width", "seed", "elem-words", "blocks", "table", "column", "strip"};
  const char *vals[] = {perm, n, width, seed, ew, blocks, table, column, strip};
  for (gsize k = 0; k < G_N_ELEMENTS(keys); k++)
    if (vals[k]) g_hash_table_insert(params, (gpointer)keys[k], (gpointer)vals[k]);
  GError *err = NULL;
  if (!run && (!format || strcmp(format, "compact") == 0)) {
    /* the compact form (issue 4); large tables go to side files next to the output */
    gboolean to_stdout = !output || strcmp(output, "-") == 0;
    gchar *text = ms_permutation_compact(alg, params, to_stdout ? NULL : output, &err);
    g_hash_table_destroy(params);
    if (!text) {
      code = ms_cli_fail("gen permutation", err);
      goto out;
    }
    if (to_stdout) {
      fputs(text, stdout);
    } else if (!g_file_set_contents(output, text, -1, &err)) {
      code = ms_cli_fail("gen permutation", err);
    }
    g_free(text);
    goto out;
  }
  MsSource *src = ms_permutation_source(alg, params, &err);
  g_hash_table_destroy(params);
  if (!src) code = ms_cli_fail("gen permutation", err);
  else code = ms_cli_gen_finish("gen permutation", src, output, format, run, json);
out:
  g_option_context_free(ctx);
  g_free(alg);
  g_free(perm);
  g_free(n);
  g_free(width);
  g_free(seed);
  g_free(ew);
  g_free(blocks);
  g_free(table);
  g_free(column);
  g_free(strip);
  g_free(output);
  g_free(format);
  g_free(run);
  return code;
}

int ms_cmd_perm_info(int argc, char **argv) {
  gchar *n = NULL, *width = NULL, *seed = NULL;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
      {"n", 'n', 0, G_OPTION_ARG_STRING, &n, "Number of elements (a file gives its own)", "N"},
      {"width", 'w', 0, G_OPTION_ARG_STRING, &width, "Warp size, banks, address-group size w (default 32)", "W"},
      {"seed", 0, 0, G_OPTION_ARG_STRING, &seed, "Seed of the random permutation (default 1)", "S"},
      {"json", 'j', 0, G_OPTION_ARG_NONE, &json, "Print one JSON object", NULL},
      {NULL}};
  GOptionContext *ctx = g_option_context_new("PERM - the distribution D_w(P) and the per-warp stage profile (seed 001 5.2)");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int code = MS_EXIT_OK;
  gint64 *P = NULL, *Q = NULL;
  GError *err = NULL;
  if (!ms_cli_parse(ctx, "perm-info", &argc, &argv, &code)) goto out;
  if (argc != 2) {
    fprintf(stderr, "memsim perm-info: expected one PERM\nTry 'memsim perm-info --help'\n");
    code = MS_EXIT_INPUT;
    goto out;
  }
  GHashTable *params = g_hash_table_new(g_str_hash, g_str_equal);
  if (n) g_hash_table_insert(params, "n", n);
  if (width) g_hash_table_insert(params, "width", width);
  if (seed) g_hash_table_insert(params, "seed", seed);
  guint64 nn, w, s;
  gboolean ok = ms_param_uint(params, "n", 0, 0, G_GUINT64_CONSTANT(1) << 28, &nn, &err) &&
                ms_param_uint(params, "width", 32, 1, MS_MAX_WIDTH, &w, &err) &&
                ms_param_uint(params, "seed", 1, 0, G_MAXUINT64, &s, &err);
  g_hash_table_destroy(params);
  if (ok) P = ms_perm_load(argv[1], &nn, s, &err);
  if (!P) {
    code = ms_cli_fail("perm-info", err);
    goto out;
  }
  Q = ms_perm_inverse(P, nn);
  guint64 warps = (nn + w - 1) / w;
  /* Per-warp stages of the D-designated write b[P(i)] and S-designated read a[P^-1(i)]:
   * UMM (address groups, global memory) and DMM (bank conflicts, shared memory). */
  const gint64 *arr[2] = {P, Q};
  guint64 sum[2][2] = {{0}}, mx[2][2] = {{0}}, mn[2][2] = {{G_MAXUINT64, G_MAXUINT64}, {G_MAXUINT64, G_MAXUINT64}};
  GHashTable *hist = g_hash_table_new(g_direct_hash, g_direct_equal);
  for (int a = 0; a < 2; a++)
    for (guint64 j = 0; j < warps; j++) {
      guint32 c = (guint32)MIN(w, nn - j * w);
      guint64 st[2] = {ms_perm_warp_umm_stages(arr[a] + j * w, c, (guint32)w),
                       ms_perm_warp_dmm_stages(arr[a] + j * w, c, (guint32)w)};
      for (int k = 0; k < 2; k++) {
        sum[a][k] += st[k];
        mx[a][k] = MAX(mx[a][k], st[k]);
        mn[a][k] = MIN(mn[a][k], st[k]);
      }
      if (a == 0) {
        gpointer key = GUINT_TO_POINTER((guint)st[0]);
        g_hash_table_insert(hist, key, GUINT_TO_POINTER(GPOINTER_TO_UINT(g_hash_table_lookup(hist, key)) + 1));
      }
    }
  static const char *const what[2] = {"P", "P^-1"};
  static const char *const mem[2] = {"umm_groups", "dmm_stages"};
  if (json) {
    printf("{\"permutation\": \"%s\", \"n\": %" G_GUINT64_FORMAT ", \"width\": %" G_GUINT64_FORMAT
           ", \"warps\": %" G_GUINT64_FORMAT ", \"D_w\": %" G_GUINT64_FORMAT ", \"D_w_inverse\": %" G_GUINT64_FORMAT,
           argv[1], nn, w, warps, sum[0][0], sum[1][0]);
    for (int a = 0; a < 2; a++)
      for (int k = 0; k < 2; k++)
        printf(", \"%s_%s\": {\"total\": %" G_GUINT64_FORMAT ", \"min\": %" G_GUINT64_FORMAT ", \"max\": %" G_GUINT64_FORMAT
               ", \"mean\": %.4f}", a ? "inverse" : "forward", mem[k], sum[a][k], mn[a][k], mx[a][k], (double)sum[a][k] / (double)warps);
    printf("}\n");
  } else {
    printf("permutation %s, n = %" G_GUINT64_FORMAT ", w = %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT " warps\n",
           argv[1], nn, w, warps);
    printf("D_w(P)    = %" G_GUINT64_FORMAT "  (D_w(P)/n = %.5f)\n", sum[0][0], (double)sum[0][0] / (double)nn);
    printf("D_w(P^-1) = %" G_GUINT64_FORMAT "  (D_w(P^-1)/n = %.5f)\n", sum[1][0], (double)sum[1][0] / (double)nn);
    printf("per-warp stages            total       min   max   mean\n");
    for (int a = 0; a < 2; a++)
      for (int k = 0; k < 2; k++)
        printf("  %-4s %-10s (%s) %10" G_GUINT64_FORMAT "  %5" G_GUINT64_FORMAT " %5" G_GUINT64_FORMAT "  %.4f\n", what[a],
               mem[k], a ? "S-designated read " : "D-designated write", sum[a][k], mn[a][k], mx[a][k],
               (double)sum[a][k] / (double)warps);
    printf("warps by address groups of P (UMM stages of the D-designated write):\n");
    for (guint64 g = 1; g <= w; g++) {
      guint c = GPOINTER_TO_UINT(g_hash_table_lookup(hist, GUINT_TO_POINTER((guint)g)));
      if (c) printf("  %3" G_GUINT64_FORMAT " groups: %u warps\n", g, c);
    }
  }
  g_hash_table_destroy(hist);
out:
  g_free(P);
  g_free(Q);
  g_option_context_free(ctx);
  g_free(n);
  g_free(width);
  g_free(seed);
  return code;
}
