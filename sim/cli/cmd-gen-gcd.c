/* cmd-gen-gcd.c: `memsim gen gcd`: bulk GCD on the UMM (seed 000 ch. 3-4). */
#include "ms-cli.h"
#include "gcd/ms-gcd.h"
#include <string.h>

static void print_stats(FILE *out, const char *alg, const MsGcdStats *s) {
  fprintf(out,
          "gcd %s: %" G_GUINT64_FORMAT " instances verified against mpz_gcd; iterations per instance: "
          "mean %.3f, sd %.3f, min %" G_GUINT64_FORMAT ", max %" G_GUINT64_FORMAT "\n",
          alg, s->instances, s->iterations_mean, s->iterations_sd, s->iterations_min, s->iterations_max);
  fprintf(out,
          "gcd %s: %" G_GUINT64_FORMAT " memory steps, %" G_GUINT64_FORMAT " requests; "
          "gamma (requests at data-dependent positions) %.5f; steps not oblivious %" G_GUINT64_FORMAT
          " (%.4f)",
          alg, s->steps, s->accesses, s->gamma, s->nonuniform_steps,
          s->steps ? (double)s->nonuniform_steps / (double)s->steps : 0.0);
  if (s->approx_calls)
    fprintf(out, "; approx calls %" G_GUINT64_FORMAT ", beta > 0: %" G_GUINT64_FORMAT, s->approx_calls,
            s->beta_positive);
  fputc('\n', out);
}

int ms_cmd_gen_gcd(int argc, char **argv) {
  char *alg = NULL, *arrangement = NULL, *output = NULL, *format = NULL, *run = NULL;
  gint64 bits = 1024, instances = 1024, seed = 1, instructions = 0;
  gboolean oblivious = FALSE, json = FALSE, stats_only = FALSE;
  GOptionEntry entries[] = {
      {"algorithm", 'a', 0, G_OPTION_ARG_STRING, &alg, "original, fast, binary, fast-binary or approximate", "ALG"},
      {"bits", 'b', 0, G_OPTION_ARG_INT64, &bits, "Bits S of each number (a multiple of 32; default 1024)", "S"},
      {"instances", 'p', 0, G_OPTION_ARG_INT64, &instances, "Pairs P, one thread each (default 1024)", "P"},
      {"seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Seed of the random pairs (default 1)", "SEED"},
      {"arrangement", 0, 0, G_OPTION_ARG_STRING, &arrangement, "column (default, section 3.1) or row", "A"},
      {"oblivious", 0, 0, G_OPTION_ARG_NONE, &oblivious, "Every thread gets the same pair (Table 4.7)", NULL},
      {"instructions", 0, 0, G_OPTION_ARG_INT64, &instructions,
       "A compute step of N instructions before each memory step, for its threads (docs/models.md, "
       "\"Instructions\"; default 0: none)", "N"},
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the trace to FILE (default stdout)", "FILE"},
      {"format", 'f', 0, G_OPTION_ARG_STRING, &format, "explicit or binary (default explicit)", "FORM"},
      {"run", 'r', 0, G_OPTION_ARG_FILENAME, &run, "Simulate on MODEL instead of writing the trace", "MODEL"},
      {"json", 'j', 0, G_OPTION_ARG_NONE, &json, "With --run: print one JSON object", NULL},
      {"stats", 's', 0, G_OPTION_ARG_NONE, &stats_only, "Only execute and print the statistics", NULL},
      {NULL}};
  GOptionContext *ctx = g_option_context_new("- bulk GCD of P pairs of random odd S-bit integers");
  g_option_context_set_summary(ctx,
                               "Executes the algorithm for all P pairs in SIMT lockstep on real data, checks\n"
                               "every GCD against GMP's mpz_gcd, and streams the memory steps (the words of X\n"
                               "and Y read and written).  Statistics go to standard error.");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int code = MS_EXIT_OK;
  GError *err = NULL;
  GHashTable *params = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
  if (!ms_cli_parse(ctx, "gen gcd", &argc, &argv, &code)) goto out;
  if (argc != 1) {
    fprintf(stderr, "memsim gen gcd: unexpected argument '%s'\nTry 'memsim gen gcd --help'\n", argv[1]);
    code = MS_EXIT_INPUT;
    goto out;
  }
  if (!alg) {
    fprintf(stderr, "memsim gen gcd: --algorithm is required\nTry 'memsim gen gcd --help'\n");
    code = MS_EXIT_INPUT;
    goto out;
  }
  if (bits < 0 || instances < 0 || seed < 0 || instructions < 0) {
    fprintf(stderr, "memsim gen gcd: --bits, --instances, --seed and --instructions must be non-negative\n");
    code = MS_EXIT_INPUT;
    goto out;
  }
  g_hash_table_insert(params, "bits", g_strdup_printf("%" G_GINT64_FORMAT, bits));
  g_hash_table_insert(params, "instances", g_strdup_printf("%" G_GINT64_FORMAT, instances));
  g_hash_table_insert(params, "seed", g_strdup_printf("%" G_GINT64_FORMAT, seed));
  g_hash_table_insert(params, "oblivious", g_strdup(oblivious ? "1" : "0"));
  if (instructions) g_hash_table_insert(params, "instructions", g_strdup_printf("%" G_GINT64_FORMAT, instructions));
  if (arrangement) g_hash_table_insert(params, "arrangement", g_strdup(arrangement));
  MsGcdStats stats;
  MsSource *src = ms_gcd_source_with_stats(alg, params, &stats, &err);
  if (!src) {
    code = ms_cli_fail("gen gcd", err);
    goto out;
  }
  if (stats_only) {
    if (!ms_gcd_drain(src, &err)) code = ms_cli_fail("gen gcd", err);
    ms_source_free(src);
  } else {
    code = ms_cli_gen_finish("gen gcd", src, output, format, run, json);
  }
  if (code == MS_EXIT_OK && stats.complete) print_stats(stderr, alg, &stats);
out:
  g_hash_table_unref(params);
  g_option_context_free(ctx);
  g_free(alg);
  g_free(arrangement);
  g_free(output);
  g_free(format);
  g_free(run);
  return code;
}
