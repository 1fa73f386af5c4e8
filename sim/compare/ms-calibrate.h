/* ms-calibrate.h: a GPU-grounded HMM model from calibration records (`memsim calibrate`,
 * docs/calibration.md).
 *
 * `memsim-measure --workload calibrate` records the GPU's own properties (clock under load,
 * DRAM bandwidth, fetch granularity, latencies, launch time); the device object of its file
 * holds the residency limits and the L2 size.  ms_calib_derive() turns them into the model
 * keys of docs/models.md "GPU extensions" (and the L2 keys) by fixed rules: nothing is fitted to the timing of an
 * algorithm.  Records of other workloads in the same files are ignored (counted).
 *
 * Ownership: ms_calib_new() returns an object freed with ms_calib_free(); strings returned
 * by ms_calib_model_json() and ms_calib_summary() are new and freed with g_free(). */
#ifndef MS_CALIBRATE_H
#define MS_CALIBRATE_H

#include "memsim.h"

/* The figures a grounded model is made of, with what they came from. */
typedef struct {
  double mhz;                /* effective SM clock: clock-spin cycles / its duration */
  double time_unit_ns;       /* 1000 / mhz */
  double copy_bytes_per_ns;  /* dram-copy: (bytes read + bytes written) / median_ns */
  double stride_ns[6];       /* strided-read ns per warp request, stride 1, 2, 4, ... 32 (NAN: absent) */
  double stride_ratio;       /* ns per warp request at stride 32 / at stride 1 */
  double global_clocks, shared_clocks; /* chases' clocks per hop */
  double launch_ns;          /* launch-empty, 1 block: median_ns */
  guint64 launch_gross_units; /* round(launch_ns / time_unit_ns) */
  guint64 launch_store_units; /* --launch-store: the model's own time units for the empty kernel's
                               * one store, taken out of launch_units (0 without) */
  double l2_bytes_per_ns, l2_clocks; /* l2-read bytes_read / median_ns; l2-chase clocks per hop */
  guint32 width, dmms, group_words, global_rate, l2_rate;
  guint64 global_latency, shared_latency, resident_warps, resident_blocks, shared_words_per_dmm;
  guint64 launch_units, l2_words, l2_latency;
  /* warp issue (optional records: without them the papers' defaults, 1 and FALSE) */
  double load_loop_clocks, store_loop_clocks; /* clocks per iteration, NAN: not recorded */
  double fence_clocks, fence_l2_clocks; /* store-fence-loop at its largest, smallest footprint; NAN: none */
  gboolean posted_write_backs; /* l2_posted_write_backs (with --l2-ways) */
  char *from_fence;
  guint32 read_window;
  gboolean posted_writes;
  /* what each came from ("FILE record N (calibrate ALG PARAMS)" or "FILE device.KEY") */
  char *from_clock, *from_copy, *from_stride1, *from_stride32, *from_global, *from_shared;
  char *from_launch, *from_device, *from_l2read, *from_l2chase, *from_load_loop, *from_store_loop;
  /* L2 capacity from the l2-copy-sweep records (optional: without them device.l2_bytes) */
  guint l2_sweep_points;
  double l2_sweep_hi, l2_sweep_lo, l2_sweep_bytes; /* plateau, beyond L2 (bytes/ns), capacity */
  char *from_l2sweep;
  /* partial writes (optional strided-write records; without them the keys are left out):
   * the median over strides 2 .. 32 of (write ns / read ns per warp request), in DRAM
   * (strided-write / strided-read) and in L2 (l2-strided-write / l2-strided-read) */
  double pw_ratio, l2_pw_ratio;
  guint32 partial_write_stages, l2_partial_write_stages;
  char *from_writes, *from_l2_writes;
  /* --l2-write-rate (the l2-strided-write and l2-strided-read records of stride 1): l2_w1_ratio
   * = write ns / read ns per warp request, whole groups in L2; l2_write_rate = round(l2_rate /
   * l2_w1_ratio), within 1 .. 4096 */
  double l2_w1_ratio;
  guint32 l2_write_rate;
  char *from_l2_write_rate;
  /* L2 partitions (optional l2-random-sweep records, with --l2-ways): random_bytes = the
   * footprint where random 4-byte loads first take 1.1 x the time of the smallest
   * footprint's; l2_partitions = round(4 l2_words / random_bytes), within 1 .. 16 */
  guint random_points;
  double random_ns_lo, random_bytes;
  guint32 l2_partitions;
  char *from_random;
  /* DRAM rows (with --dram-rows WORDS and the l2-random-sweep records): random_ns_hi = ns
   * per random 4-byte load at the largest footprint (random_bytes_hi, far beyond the L2:
   * nearly every load a DRAM access of its own row); dram_lone_rate = round(time_unit_ns /
   * random_ns_hi), within 1 .. global_rate */
  double random_ns_hi, random_bytes_hi;
  guint64 dram_row_words;
  guint32 dram_lone_rate;
  char *from_dram;
  /* --dram-lone-writes (with --dram-rows, the l2-random-write-sweep records): write_ns_hi = ns
   * per random 4-byte store at the largest footprint (write_bytes_hi); each such store a lone
   * partial write that misses, 2 slots (its fill and its write-back): dram_lone_write_rate =
   * round(2 time_unit_ns / write_ns_hi), within 1 .. global_rate */
  double write_ns_hi, write_bytes_hi;
  guint32 dram_lone_write_rate;
  char *from_dram_write;
  /* L2 lines (optional l2-line-sweep records, with --l2-ways): line_bytes = the footprint
   * where one load per 128-byte line first takes 1.1 x the smallest's time; the L2 keeps
   * units of 128 x 4 l2_words / line_bytes bytes: l2_line_words */
  guint line_points;
  double line_ns_lo, line_bytes;
  guint64 l2_line_words;
  char *from_line;
  /* block starts (optional launch-blocks records): the ns per block per SM between the two
   * largest blocks_per_sm, the median over the block sizes; block_start_units */
  double block_start_ns;
  guint64 block_start_units;
  char *from_blocks;
  /* a DMM's port (optional sm-strided-read records at stride 32, every lane in its own
   * group): groups one SM passes per time unit, the median over the block counts;
   * dmm_global_rate */
  double port_groups_per_unit;
  guint32 dmm_global_rate;
  char *from_port;
  /* the port by banks (sm-l1-strided-read records at stride 1, every lane's line in L1): clocks
   * one SM takes per coalesced request, the median over the block counts; dmm_port_banks */
  double port_min_clocks;
  guint32 dmm_port_banks;
  char *from_port_banks;
  /* --dmm-port-shared (sm-l1-shared-mix): clocks per L1 global read with no shared access
   * (the median), the records checked against the two stages' bound and its largest miss */
  double lsu_read_clocks, lsu_max_miss;
  guint lsu_checked;
  char *from_port_shared;
  /* the L1 (l1-sweep records, with --l1): l1_latency = round(the smallest footprint's
   * clocks per hop); l1_words = the largest footprint whose clocks per hop are within
   * 1.1 x that, / 4 */
  double l1_clocks, l1_bytes;
  guint64 l1_words, l1_latency;
  char *from_l1;
  /* warp shuffles (optional shuffle-latency and shuffle-rate records; reported whenever
   * present, shuffle_units in the model only with --shuffles): clocks per dependent shuffle of
   * one warp's chain, and per dependent IMAD of the same loop (NAN: absent); warp shuffles per
   * SM per clock by the blocks' clocks and by the kernel's duration (median_ns / time_unit_ns);
   * shuffle_units = round(shuffle_clocks) */
  double shuffle_clocks, shuffle_imad_clocks, shuffle_rate, shuffle_rate_by_duration;
  guint64 shuffle_units;
  /* instructions (with --instructions): round(clocks per dependent IMAD) of the
   * shuffle-latency record's second chain */
  guint64 instruction_units;
  char *from_shuffle_latency, *from_shuffle_rate;
  /* issue (with --issue, issue-rate records): clocks per warp instruction of one warp alone
   * (the fewest warps per SM) and warp instructions per SM per clock at the most warps;
   * instruction_units = round(issue_one_clocks), issue_rate = round(issue_sm_rate) */
  double issue_one_clocks, issue_sm_rate, issue_one_warps, issue_sm_warps, issue_mixed_rate;
  const char *issue_op; /* the records' op: "alu", else "imad" */
  guint32 issue_rate;
  char *from_issue;
  /* barrier time (with --barriers, barrier-loop records of op barrier at one block per SM):
   * clocks per iteration = a + b x warps_per_block by least squares over the records;
   * barrier_units = round(a), barrier_warp_units = round(b) */
  double barrier_a, barrier_b;
  guint64 barrier_units, barrier_warp_units;
  guint barrier_records;
  char *from_barriers;
  /* loaded latency (loaded-chase and l2-loaded-chase records, with --loaded-latency): per
   * record (warps_per_sm ascending), u = 1000 x groups per time unit / the path's rate and the
   * clocks per hop; the curve keeps the points while u grows by 5% or more (past that the
   * path is saturated and its queue is the model's own), latencies made non-decreasing */
  MsLoadCurve global_loaded, l2_loaded;
  char *from_loaded, *from_l2_loaded;
} MsCalDerived;

typedef struct {
  GPtrArray *files;     /* of char *: the record files, in reading order */
  GPtrArray *records;   /* of MsCalRecord * (opaque): the calibrate records */
  guint ignored;        /* records of other workloads */
  void *device;         /* cJSON *: the first file's device object */
  char *device_name, *date, *git_commit, *timing;
  MsCalDerived d;
  gboolean derived;
  gboolean l2_hashed_sets; /* --l2-hashed-sets: the cache's lines go to hashed sets */
  gboolean l2_warm;        /* --l2-warm: a run starts with the cache an earlier one left */
  gboolean l2_home;        /* --l2-home-partitions: lines have a home partition (needs l2_partitions) */
  gboolean no_block_starts; /* --no-block-starts: block_start_units derived, not written */
  gboolean l2_write_rate;  /* --l2-write-rate: l2_write_rate from the stride-1 L2 write and read records */
  gboolean posted_fences;  /* --posted-fences: the store-fence-loop records give l2_posted_fences
                            * (a signal waits for the L2), not l2_posted_write_backs */
  gboolean dmm_port;       /* --dmm-port: dmm_global_rate from sm-strided-read records */
  gboolean dmm_port_banks; /* --dmm-port-banks: dmm_port_banks from sm-l1-strided-read records */
  gboolean dmm_port_shared; /* --dmm-port-shared: dmm_port_shared, and dmm_port_banks from sm-l1-shared-mix */
  gboolean launch_store;   /* --launch-store: launch_units less the model's own time for the empty
                            * kernel's store, so that the model takes the measured time for it */
  gboolean l1;             /* --l1: l1_words and l1_latency from l1-sweep records */
  gboolean shuffles;       /* --shuffles: shuffle_units from the shuffle-latency record */
  gboolean instructions;   /* --instructions: instruction_units from the same record's IMAD chain */
  gboolean barriers;       /* --barriers: barrier_units and barrier_warp_units from barrier-loop records */
  gboolean issue;          /* --issue: issue_rate from the issue-rate records */
  gboolean loaded_latency; /* --loaded-latency: the latency curves from the loaded-chase records */
  guint64 dram_rows;       /* --dram-rows WORDS: dram_row_words WORDS (a structure) and
                            * dram_lone_rate from the l2-random-sweep records (0: neither) */
  gboolean dram_lone_writes; /* --dram-lone-writes: dram_lone_write_rate from l2-random-write-sweep records */
  guint32 l2_ways;      /* --l2-ways: the model runs large footprints through an L2 cache of this
                         * many ways (a structure, not a measurement; 0: none) */
} MsCalib;

MsCalib *ms_calib_new(void);
void ms_calib_free(MsCalib *c);

/* Read one record file (memsim-measure -o) and keep its calibrate records.  Refuses bad
 * JSON (FILE:LINE:COL), a file of another device than the files before it, an unverified
 * calibrate record, a record given twice and malformed fields (MS_ERROR_SYNTAX or
 * MS_ERROR_INVALID, the message naming the file, the record and the field). */
gboolean ms_calib_read(MsCalib *c, const char *path, GError **error);
/* The same from text; `filename` names it in messages. */
gboolean ms_calib_read_text(MsCalib *c, const char *text, gsize length, const char *filename,
                            GError **error);
/* Derive the model's figures (c->d).  Fails (MS_ERROR_INVALID) naming the files and the
 * first record or device key that is missing, e.g.
 * `r.json: no calibrate record "dram-copy" (run memsim-measure --workload calibrate)`. */
gboolean ms_calib_derive(MsCalib *c, GError **error);
/* The model file (JSON text, newline-terminated) after ms_calib_derive(); `command` is the
 * command line recorded in its "calibration" object (NULL: none). */
char *ms_calib_model_json(const MsCalib *c, const char *command);
/* A human summary of the derivation, one figure a line. */
char *ms_calib_summary(const MsCalib *c);

#endif
