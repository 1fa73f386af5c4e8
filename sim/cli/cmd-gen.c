/* cmd-gen.c: `memsim gen FAMILY ...`: dispatch to the family's generator, and the shared
 * ending of every generator (write the trace, or run it). */
#include "ms-cli.h"
#include <errno.h>
#include <string.h>

static const MsVerb families[] = {
    {"permutation", ms_cmd_gen_permutation, "offline permutation on the DMM and the HMM (seed 001 ch. 4-5)"},
    {"sat", ms_cmd_gen_sat, "summed area table on the asynchronous HMM (seed 001 ch. 6)"},
    {"gcd", ms_cmd_gen_gcd, "bulk GCD on the UMM (seed 000 ch. 3-4)"},
    {"bpbc", ms_cmd_gen_bpbc, "bitwise parallel bulk computation on the UMM and HMM (seed 000 ch. 5-7)"},
    {"simple", ms_cmd_gen_simple, "held-out kernels a user writes: copy, strides, gather, transposes, reduce"},
    {"bulk", ms_cmd_gen_bulk, "bulk execution of an oblivious sequential program on the UMM (seed 003)"},
    {"gf2", ms_cmd_gen_gf2, "GF(2) Gaussian elimination: fountain-code decoding (seed 004)"},
    {"mul", ms_cmd_gen_mul, "multiple-length multiplication, School and Comba, a thread per product (seed 002 ch. 3)"},
};

int ms_cmd_gen(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    FILE *out = argc < 2 ? stderr : stdout;
    fprintf(out, "Usage: memsim gen FAMILY [OPTIONS...]\n\nGenerate the trace of a verified workload algorithm.\n\nFamilies:\n");
    for (gsize i = 0; i < G_N_ELEMENTS(families); i++)
      fprintf(out, "  %-12s %s\n", families[i].name, families[i].summary);
    fprintf(out, "\nRun 'memsim gen FAMILY --help' for a family's options.\n");
    return argc < 2 ? MS_EXIT_INPUT : MS_EXIT_OK;
  }
  for (gsize i = 0; i < G_N_ELEMENTS(families); i++)
    if (strcmp(families[i].name, argv[1]) == 0) return families[i].fn(argc - 1, argv + 1);
  fprintf(stderr, "memsim gen: unknown family '%s' (permutation, sat, gcd, bpbc, simple, bulk, gf2, mul)\nTry 'memsim gen --help'\n", argv[1]);
  return MS_EXIT_INPUT;
}

int ms_cli_write_text(const char *verb, const char *text, const char *output) {
  FILE *out = output ? fopen(output, "w") : stdout;
  if (!out) {
    fprintf(stderr, "memsim %s: %s: cannot create: %s\n", verb, output, g_strerror(errno));
    return MS_EXIT_INPUT;
  }
  fputs(text, out);
  gboolean bad = ferror(out) != 0;
  if (output) bad |= fclose(out) != 0;
  if (bad) {
    fprintf(stderr, "memsim %s: %s: write error\n", verb, output ? output : "<stdout>");
    return MS_EXIT_INPUT;
  }
  return MS_EXIT_OK;
}

int ms_cli_gen_finish(const char *verb, MsSource *src, const char *output, const char *format,
                      const char *run_model, gboolean json) {
  GError *err = NULL;
  int code = MS_EXIT_OK;
  if (run_model) {
    MsModel *model = ms_model_load(run_model, &err);
    MsSimOptions opt = {0};
    MsCliProgress prog;
    ms_cli_progress_begin(&prog, verb, FALSE, FALSE, &opt);
    MsResult *res = model ? ms_simulate(model, src, &opt, &err) : NULL;
    ms_cli_progress_end(&prog);
    if (!res) code = ms_cli_fail(verb, err);
    else if (json) {
      char *s = ms_result_to_json(res, model, src, FALSE);
      puts(s);
      g_free(s);
    } else {
      ms_result_print_text(res, model, src, stdout);
    }
    ms_result_free(res);
    ms_model_free(model);
    ms_source_free(src);
    return code;
  }
  MsFormat fmt = MS_FORMAT_EXPLICIT;
  if (format && strcmp(format, "binary") == 0) fmt = MS_FORMAT_BINARY;
  else if (format && strcmp(format, "explicit") != 0) {
    fprintf(stderr, "memsim %s: --format: unknown form '%s' (explicit or binary)\n", verb, format);
    ms_source_free(src);
    return MS_EXIT_INPUT;
  }
  FILE *out = output ? fopen(output, "wb") : stdout;
  if (!out) {
    fprintf(stderr, "memsim %s: %s: cannot create: %s\n", verb, output, g_strerror(errno));
    ms_source_free(src);
    return MS_EXIT_INPUT;
  }
  if (!ms_trace_write(src, fmt, out, output ? output : "<stdout>", &err)) code = ms_cli_fail(verb, err);
  if (output) fclose(out);
  if (code != MS_EXIT_OK && output) remove(output);
  ms_source_free(src);
  return code;
}
