/* cmd-calibrate.c: `memsim calibrate`: a GPU-grounded HMM model from calibration records
 * (docs/calibration.md). */
#include "ms-cli.h"
#include "../compare/ms-calibrate.h"
#include <string.h>

int ms_cmd_calibrate(int argc, char **argv) {
  char *output = NULL;
  gboolean quiet = FALSE, to_stdout = TRUE;
  gint l2_ways = 0;
  gint64 dram_rows = 0;
  gboolean warm = FALSE, home = FALSE, lone_writes = FALSE;
  gboolean hashed = FALSE, no_starts = FALSE, fences = FALSE, l2_write_rate = FALSE, barriers = FALSE, port = FALSE, port_banks = FALSE, port_shared = FALSE, launch_store = FALSE, l1 = FALSE, shuffles = FALSE, loaded = FALSE, instructions = FALSE, issue = FALSE;
  GOptionEntry entries[] = {
      {"output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the model to FILE ('-' or absent: stdout)", "FILE"},
      {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "With -o FILE: do not print the derivation summary", NULL},
      {"l2-ways", 0, 0, G_OPTION_ARG_INT, &l2_ways,
       "Add l2_ways N (1 ... 64): footprints beyond l2_words run through an N-way L2 cache (docs/models.md); "
       "partial_write_stages is then left out, and l2-random-sweep records add l2_partitions", "N"},
      {"l2-hashed-sets", 0, 0, G_OPTION_ARG_NONE, &hashed,
       "With --l2-ways: add l2_hashed_sets (lines go to hashed sets, docs/models.md)", NULL},
      {"l2-warm", 0, 0, G_OPTION_ARG_NONE, &warm,
       "With --l2-ways: add l2_warm (a run starts with the cache one earlier run of the trace left, as repeated "
       "calls do; every trace runs through the cache, twice: docs/models.md, \"A warm L2\")", NULL},
      {"l2-home-partitions", 0, 0, G_OPTION_ARG_NONE, &home,
       "With --l2-ways and l2-random-sweep records that give l2_partitions: add l2_home_partitions (a line's home "
       "partition, a near copy for reads from the other: docs/models.md, \"Home partitions\")", NULL},
      {"no-block-starts", 0, 0, G_OPTION_ARG_NONE, &no_starts,
       "Leave block_start_units out of the model even where launch-blocks records give it (the calibration "
       "object still shows the figure, marked left out): the shipped models' choice (docs/calibration.md)",
       NULL},
      {"l2-write-rate", 0, 0, G_OPTION_ARG_NONE, &l2_write_rate,
       "l2_write_rate from the stride-1 l2-strided-write and l2-strided-read records: a whole write in L2 "
       "enters at l2_rate / (its time / a read's) (docs/models.md, \"Whole writes in L2\")", NULL},
      {"posted-fences", 0, 0, G_OPTION_ARG_NONE, &fences,
       "With --l2-ways: the store-fence-loop records give l2_posted_fences (a signal step, the fence that "
       "publishes a flag, waits for the warp's writes until the L2 has them) instead of l2_posted_write_backs "
       "(every write done when the L2 has it; docs/models.md, \"Posted fences\")",
       NULL},
      {"dram-rows", 0, 0, G_OPTION_ARG_INT64, &dram_rows,
       "With --l2-ways: add dram_row_words WORDS and dram_lone_rate, the largest l2-random-sweep footprint's "
       "random loads per time unit (a DRAM access alone in its row, docs/models.md, \"DRAM rows\"); the shipped "
       "models use 256 (an HBM page of 1 KiB)",
       "WORDS"},
      {"dram-lone-writes", 0, 0, G_OPTION_ARG_NONE, &lone_writes,
       "With --dram-rows: add dram_lone_write_rate, from the largest l2-random-write-sweep footprint's stores (two "
       "lone slots each, docs/models.md, \"DRAM rows\")", NULL},
      {"barriers", 0, 0, G_OPTION_ARG_NONE, &barriers,
       "Add barrier_units and barrier_warp_units from the barrier-loop records (a block barrier's time, "
       "docs/models.md, \"Barrier time\")",
       NULL},
      {"launch-store", 0, 0, G_OPTION_ARG_NONE, &launch_store,
       "launch_units less the model's own time for the empty kernel's one store (the model then takes the measured time for it; docs/calibration.md)", NULL},
      {"dmm-port-banks", 0, 0, G_OPTION_ARG_NONE, &port_banks,
       "With --dmm-port: add dmm_port_banks from the sm-l1-strided-read records (a read takes its bank degree, at least that; docs/models.md)", NULL},
      {"dmm-port-shared", 0, 0, G_OPTION_ARG_NONE, &port_shared,
       "With --dmm-port-banks: add dmm_port_shared, and dmm_port_banks from the sm-l1-shared-mix records instead (shared and global reads on one port; docs/models.md)", NULL},
      {"dmm-port", 0, 0, G_OPTION_ARG_NONE, &port,
       "Add dmm_global_rate from the sm-strided-read records (a DMM's port, docs/models.md)",
       NULL},
      {"l1", 0, 0, G_OPTION_ARG_NONE, &l1,
       "Add l1_words and l1_latency from the l1-sweep records (the L1 cache, docs/models.md)", NULL},
      {"shuffles", 0, 0, G_OPTION_ARG_NONE, &shuffles,
       "Add shuffle_units from the shuffle-latency record (clocks per dependent warp shuffle, docs/models.md); "
       "needs the shuffle-latency and shuffle-rate records", NULL},
      {"instructions", 0, 0, G_OPTION_ARG_NONE, &instructions,
       "Add instruction_units from the shuffle-latency record's dependent IMAD chain (clocks per dependent "
       "instruction of a compute step, docs/models.md, \"Instructions\")", NULL},
      {"issue", 0, 0, G_OPTION_ARG_NONE, &issue,
       "Add issue_rate (warp instructions an SM issues per clock) from the issue-rate records (docs/models.md, "
       "\"The issue limit\")",
       NULL},
      {"loaded-latency", 0, 0, G_OPTION_ARG_NONE, &loaded,
       "Add global_loaded_latency and l2_loaded_latency from the loaded-chase and l2-loaded-chase records "
       "(latency against utilization, docs/models.md)", NULL},
      {NULL}};
  /* the command line as given, recorded in the model */
  GString *cmd = g_string_new("memsim calibrate");
  for (int i = 1; i < argc; i++) g_string_append_printf(cmd, " %s", argv[i]);
  GOptionContext *ctx = g_option_context_new("RECORDS.json [...] - derive a GPU-grounded HMM model");
  g_option_context_set_summary(ctx, "Reads the records of `memsim-measure --workload calibrate` (records of other workloads\n"
                                    "in the files are ignored) and writes an hmm model whose every key is derived from the\n"
                                    "GPU's measured properties: SM clock, DRAM copy bandwidth, fetch granularity, latencies,\n"
                                    "launch time, SM count and residency limits (docs/calibration.md).");
  g_option_context_add_main_entries(ctx, entries, NULL);
  int code = MS_EXIT_OK;
  MsCalib *c = ms_calib_new();
  GError *err = NULL;
  char *text = NULL;
  if (!ms_cli_parse(ctx, "calibrate", &argc, &argv, &code)) goto out;
  if (l2_ways < 0 || l2_ways > (gint)MS_MAX_L2_WAYS) {
    fprintf(stderr, "memsim calibrate: --l2-ways: %d is out of range [1, %u]\n", l2_ways, MS_MAX_L2_WAYS);
    code = MS_EXIT_INPUT;
    goto out;
  }
  c->l2_ways = (guint32)l2_ways;
  if (hashed && !l2_ways) {
    fprintf(stderr, "memsim calibrate: --l2-hashed-sets needs --l2-ways\n");
    code = MS_EXIT_INPUT;
    goto out;
  }
  c->l2_hashed_sets = hashed;
  if ((warm || home) && !l2_ways) {
    fprintf(stderr, "memsim calibrate: --%s needs --l2-ways\n", warm ? "l2-warm" : "l2-home-partitions");
    code = MS_EXIT_INPUT;
    goto out;
  }
  c->l2_warm = warm;
  c->l2_home = home;
  if (fences && !l2_ways) {
    fprintf(stderr, "memsim calibrate: --posted-fences needs --l2-ways\n");
    code = MS_EXIT_INPUT;
    goto out;
  }
  c->posted_fences = fences;
  c->l2_write_rate = l2_write_rate;
  if (dram_rows && !l2_ways) {
    fprintf(stderr, "memsim calibrate: --dram-rows needs --l2-ways\n");
    code = MS_EXIT_INPUT;
    goto out;
  }
  if (dram_rows < 0 || dram_rows > (gint64)MS_MAX_LATENCY) {
    fprintf(stderr, "memsim calibrate: --dram-rows: %" G_GINT64_FORMAT " is out of range [1, %" G_GUINT64_FORMAT "]\n",
            dram_rows, (guint64)MS_MAX_LATENCY);
    code = MS_EXIT_INPUT;
    goto out;
  }
  c->dram_rows = (guint64)dram_rows;
  if (lone_writes && !dram_rows) {
    fprintf(stderr, "memsim calibrate: --dram-lone-writes needs --dram-rows\n");
    code = MS_EXIT_INPUT;
    goto out;
  }
  c->dram_lone_writes = lone_writes;
  c->no_block_starts = no_starts;
  c->dmm_port = port;
  if (port_banks && !port) {
    fprintf(stderr, "memsim calibrate: --dmm-port-banks needs --dmm-port\n");
    code = MS_EXIT_INPUT;
    goto out;
  }
  c->dmm_port_banks = port_banks;
  if (port_shared && !port_banks) {
    fprintf(stderr, "memsim calibrate: --dmm-port-shared needs --dmm-port-banks\n");
    code = MS_EXIT_INPUT;
    goto out;
  }
  c->dmm_port_shared = port_shared;
  c->launch_store = launch_store;
  c->l1 = l1;
  c->shuffles = shuffles;
  c->instructions = instructions;
  c->barriers = barriers;
  c->issue = issue;
  c->loaded_latency = loaded;
  if (argc < 2) {
    fprintf(stderr, "memsim calibrate: expected one or more record files\nTry 'memsim calibrate --help'\n");
    code = MS_EXIT_INPUT;
    goto out;
  }
  for (int i = 1; i < argc; i++)
    if (!ms_calib_read(c, argv[i], &err)) goto fail;
  if (!ms_calib_derive(c, &err)) goto fail;
  text = ms_calib_model_json(c, cmd->str);
  to_stdout = !output || strcmp(output, "-") == 0;
  code = ms_cli_write_text("calibrate", text, to_stdout ? NULL : output);
  if (code == MS_EXIT_OK && !to_stdout && !quiet) {
    char *sum = ms_calib_summary(c);
    fputs(sum, stdout);
    printf("memsim calibrate: wrote %s\n", output);
    g_free(sum);
  }
  if (c->timing && strcmp(c->timing, "cupti") != 0)
    fprintf(stderr, "memsim calibrate: note: the records were timed with %s, not CUPTI: durations include launch "
                    "latency (launch_units above all)\n", c->timing);
  goto out;
fail:
  code = ms_cli_fail("calibrate", err);
out:
  g_free(text);
  ms_calib_free(c);
  g_string_free(cmd, TRUE);
  g_free(output);
  g_option_context_free(ctx);
  return code;
}
