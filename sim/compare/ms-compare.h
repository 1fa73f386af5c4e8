/* ms-compare.h: predicted versus measured time (`memsim compare`, docs/validation.md).
 *
 * A comparison reads GPU measurement records (kernels/measure_main.cu, docs/measurements.md),
 * builds each record's trace with ms_workload_source(), simulates it on a model, fits a
 * calibration (ns per time unit per memory kind, ns per kernel launch) by least squares on a
 * training subset and evaluates it on the rest.
 *
 * Ownership: ms_cmp_new() returns a comparison freed with ms_cmp_free(); strings returned by
 * the output functions are new and freed with g_free(). */
#ifndef MS_COMPARE_H
#define MS_COMPARE_H

#include "memsim.h"

typedef enum { MS_BOUND_SHARED, MS_BOUND_GLOBAL } MsBound;

/* One measurement record and what the comparer made of it. */
typedef struct {
  guint index;          /* position in its file, from 0 */
  char *file;           /* the measurement file */
  char *device;         /* device.name of the file */
  char *workload, *algorithm;
  char *params_text;    /* "k=v k=v" in record order */
  GHashTable *params;   /* key -> value as text (numbers decimal, booleans "0"/"1") */
  double median_ns;
  guint64 launches;     /* kernels_per_call */
  gboolean verified;
  char *skip;           /* why the record is not used (unverified), else NULL */
  /* the trace that stands for it (docs/validation.md, "From a record to a trace") */
  char *sim_family, *sim_algorithm;
  char *sim_text;       /* the generator's parameters, "k=v k=v" */
  char *sim_shape;      /* the comparer's launch shape around them ("" if none), e.g.
                         * "kernel blocks=2112 passes=64", "block_threads=256" */
  guint64 replicas;     /* DMM permutations: blocks simulated (one pass trace each) */
  guint64 repeats;      /* DMM permutations: passes per block (inner_repeats) */
  guint64 block_threads;/* the kernel's threads per block imposed on the trace (0: the trace's) */
  double scale;         /* measured work / simulated work: 1 except with --reduced */
  double work;          /* estimated requests of the simulation (largest first) */
  /* simulation (of the simulated trace) */
  guint64 time_units;   /* of the simulated trace */
  guint64 launch_units; /* of which launching kernels (MsResult.launch_total) */
  guint64 kernels, grid_barriers, global_busy, shared_busy; /* MsResult's */
  double units;         /* (time_units - launch_units) * scale + launch_units */
  MsMemoryCounts shared, global;
  MsBound bound;        /* the fit's rate class: shared when the busiest DMM's stages exceed
                         * the global entry's busy time units, else global */
  const char *limit;    /* ms_result_bound(): global bandwidth, shared memory, launch, latency */
  gboolean cached;      /* the result came from the simulation cache */
  gboolean uncached;    /* --cached-only: no cached result, not simulated */
  double sim_cpu_s, sim_wall_s; /* building and simulating the trace (0 when cached) */
  guint sim_threads;              /* the engine threads it was given (0: the processors) */
  guint64 repeated_kernels;      /* its kernels taken from an identical earlier one (not a model figure) */
  guint64 kernels_not_counted;   /* its kernels whose counts were an earlier one's (not a model figure) */
  /* calibration and evaluation */
  gboolean train;
  double predicted_ns, rel_error; /* rel_error = (predicted - measured) / measured */
} MsCmpRecord;

/* The calibration.  Fitted (--train every:K, family:, algorithm:, all): predicted ns =
 * launch_ns * launches + (shared-bound ? tu_shared : tu_global) * units.  --train none: the
 * model's own prediction, ms_result_predicted_ns() (time units * time_unit_ns, plus
 * launch_ns per kernel call for older fitted models), with tu_shared = tu_global. */
typedef struct {
  double tu_shared, tu_global, launch_ns;
  gboolean has_shared, has_global, has_launch; /* which were fitted (else 0) */
  guint n_train;
  double train_mape;
  char *train_spec;
  char *method;
} MsCalibration;

/* Statistics of a set of records (fractions, not percent); NAN where undefined. */
/* Pairs: two records of one family with equal parameters, different algorithms and different
 * measured times; pairs_ordered counts those the prediction orders as measured.  A pair the
 * model predicts equal (pair_ties: two kernels whose traces make the same accesses, such as
 * thrust::scatter and the d-designated scatter, or the DMM kernels on the identity
 * permutation) is never ordered; pairs_ordered_untied is the fraction among the other pairs. */
typedef struct {
  guint n;
  double mape, pearson_log, spearman, pairs_ordered, pairs_ordered_untied;
  guint pairs, pair_ties;
} MsCmpStats;

/* One ncu counter record: the summed metrics of the kernels of one launch-log entry, and
 * the model's prediction for the same record. */
typedef struct {
  guint launch;
  char *workload, *algorithm, *params_text;
  guint kernels;
  double conflicts_ld, conflicts_st, wavefronts_ld, wavefronts_st;
  double sectors_ld, sectors_st, requests_ld, requests_st;
  gboolean predicted;   /* FALSE: no trace for it (note says why) */
  char *note;
  guint64 pred_extra_ld, pred_extra_st;          /* shared extra stages of read / write steps */
  guint64 pred_sectors_ld, pred_sectors_st;      /* global stages with 8-word (32-byte) groups */
  guint64 pred_requests_ld, pred_requests_st;    /* global warp dispatches */
} MsCmpCounter;

typedef struct {
  MsModel *model;
  char *model_path;
  GPtrArray *records;   /* of MsCmpRecord *, all records read, skipped ones included */
  GPtrArray *counters;  /* of MsCmpCounter * */
  MsCalibration cal;
  GHashTable *families; /* family -> MsCmpStats * (held-out records) */
  MsCmpStats overall, overall_train;
  GPtrArray *notes;     /* of char *: skipped records and other remarks */
  gboolean exact;       /* TRUE (default): simulate recorded sizes; FALSE: --reduced */
  gboolean skip_unmatched;
  gboolean cached_only; /* report the cached records only; skip the others with a note */
  guint jobs;           /* records simulated at once (worker threads) */
  double big_work;      /* set by ms_cmp_simulate: records of at least this estimated work also
                         * spread their own steps over big_threads engine threads */
  guint big_threads;    /* `jobs` when the records are no more than the jobs (cores would idle),
                         * else at most 4 (the other records keep the cores busy; more threads
                         * per record only add waking and waiting: docs/performance.md); a big
                         * record gets 2, and one more per further big_work of its work */
  GHashTable *cache;    /* simulation cache key -> counts, or NULL */
  GMutex cache_lock;
  char *cache_path;
  /* called after each record's simulation (from worker threads, one call at a time) */
  void (*progress)(guint done, guint total, double elapsed_s, gpointer data);
  gpointer progress_data;
} MsCompare;

MsCompare *ms_cmp_new(const char *model_path, GError **error);
void ms_cmp_free(MsCompare *cmp);

/* Read a measurement file and append its records.  Bad input is MS_ERROR_INVALID with the
 * file, the record number and the offending field in the message. */
gboolean ms_cmp_read_measurements(MsCompare *cmp, const char *path, GError **error);
/* A cache of simulated results (one line per trace and model): load it (a missing file is
 * an empty cache) before ms_cmp_simulate, save it after. */
gboolean ms_cmp_load_cache(MsCompare *cmp, const char *path, GError **error);
gboolean ms_cmp_save_cache(const MsCompare *cmp, const char *path, GError **error);
/* Build and simulate every usable record, `jobs` at a time, the largest (estimated
 * requests) first; results do not depend on `jobs`. */
gboolean ms_cmp_simulate(MsCompare *cmp, GError **error);
/* Per-record simulation times as TSV (file, index, family, algorithm, params, requests,
 * time units, CPU s, wall s, cached), the slowest first. */
char *ms_cmp_timing_tsv(const MsCompare *cmp);
/* Mark the training records: "every:K", "family:A,B", "algorithm:A,B", "all", "none" (use
 * the model file's calibration). */
gboolean ms_cmp_select_train(MsCompare *cmp, const char *spec, GError **error);
/* Fit the calibration on the training records (or take the model's for "none") and
 * compute predictions and statistics. */
gboolean ms_cmp_fit(MsCompare *cmp, GError **error);
/* Import ncu --csv --page raw output with the harness's launch log, and predict each
 * record's counters. */
gboolean ms_cmp_read_counters(MsCompare *cmp, const char *raw_csv, const char *launch_csv,
                              GError **error);

/* Statistics over arbitrary records (exposed for tests). */
void ms_cmp_stats(GPtrArray *records, MsCmpStats *out);
/* Least-squares fit of the calibration on `records` (all of them). */
gboolean ms_cmp_fit_records(GPtrArray *records, MsCalibration *cal, GError **error);

/* Map a record to the workload trace that stands for it (family, algorithm, parameters,
 * shape, scale); exposed for tests. */
gboolean ms_cmp_map(const MsCompare *cmp, MsCmpRecord *rec, GHashTable **sim_params,
                    GError **error);
/* The record's trace, as ms_cmp_simulate runs it (new source, or NULL with error set). */
MsSource *ms_cmp_record_source(const MsCompare *cmp, MsCmpRecord *rec, GError **error);
/* The record's simulated result as an MsResult (counts and the GPU-extension fields; no
 * per-step data), for ms_result_predicted_ns() and ms_result_bound(). */
void ms_cmp_record_result(const MsCmpRecord *rec, MsResult *out);

/* Traces the comparer builds (ms-compare-traces.c): kernels no generator describes, and
 * shapes around a generator's trace.  Sources taking `inner`/`pass` own it. */
MsSource *ms_cmp_sat_copy(guint64 n, GError **error);
MsSource *ms_cmp_hmm_transpose(guint64 n, GError **error);
/* kernels/sat.cu sat_1r1w_lookback<V, H> (strips of strip_rows = H rows, chunks of 256 V
 * columns, cols_per_thread = V words per thread; H = 32, V = 2 or H = 16, V = 4): its
 * requests in program order; the wait for the strip above is not a request (below). */
/* chunks_ahead 1: sat_1r1w_lookback_bulk (since 2026-11-27), whose copy engine fetches the
 * next chunk into a shared buffer: the buffer in shared_words, every thread's reads of it, the
 * segment scan between barriers B and C and no barrier D (32 rows, 2 columns only). */
MsSource *ms_cmp_sat_lookback(guint64 n, guint64 strip_rows, guint64 cols_per_thread, guint64 chunks_ahead,
                              GError **error);
/* kernels/sat.cu sat_1r1w_ordered: the tiles from tile diagonal m on, by ticket (1r1w-ordered:
 * m = 0; 1+r-ordered: 2R1W has done the first m diagonals). */
MsSource *ms_cmp_sat_ordered(guint64 n, guint64 m, GError **error);
/* kernels/sat.cu sat_1r1w_stage: one kernel call per tile diagonal, a block of 128 threads per
 * tile, the borders read from b (the record `1r1w`); chains: the passes' adds as compute steps
 * of one instruction (docs/workloads/sat.md, "Chains"). */
MsSource *ms_cmp_sat_1r1w_stages(guint64 n, gboolean chains, GError **error);
MsSource *ms_cmp_life_tile(guint64 size, guint64 steps, GError **error);
MsSource *ms_cmp_life_shuffle(guint64 size, guint64 steps, guint64 steps_per_launch, guint64 strip_rows,
                              guint64 words_per_warp, guint64 warps_per_block, GError **error);
MsSource *ms_cmp_dmm_kernel(MsSource *pass, guint64 blocks, guint64 repeats, guint64 elem_words,
                            GError **error);
/* Regroup the threads into blocks of `block_threads`; a block barrier is an error unless
 * `tiles` (the trace's barriers only join threads of one new block). */
MsSource *ms_cmp_reblock(MsSource *inner, guint64 block_threads, gboolean tiles);

typedef enum { MS_CMP_TEXT, MS_CMP_CSV, MS_CMP_JSON, MS_CMP_MARKDOWN } MsCmpFormat;
char *ms_cmp_format(const MsCompare *cmp, MsCmpFormat format);
/* The fitted model as a model file (the input model with time_unit_ns, launch_ns and a
 * "calibration" object). */
char *ms_cmp_model_json(const MsCompare *cmp, const char *const *measured, const char *command);

/* PNG plots (PLplot, pngcairo) into `dir`: scatter.png, families.png and, with a trace,
 * timeline.png.  FALSE with MS_ERROR_IO if plotting is not available or fails. */
gboolean ms_cmp_plot(const MsCompare *cmp, const char *dir, GError **error);
gboolean ms_cmp_plot_timeline(const char *model_path, const char *trace_path, const char *png,
                              GError **error);

#endif
