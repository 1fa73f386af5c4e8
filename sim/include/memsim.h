/* memsim.h: the public interface of libmemsim.
 *
 * memsim simulates the parallel memory machine models of Nakano et al. (UMM, DMM, HMM,
 * asynchronous HMM) with the timing semantics of docs/models.md.  A simulation reads a
 * MsModel and a stream of SIMD steps (an MsSource) and returns an MsResult.
 *
 * Ownership: every *_new / *_load / *_open function returns a new object that the caller
 * frees with the matching *_free.  Functions that can fail take a GError ** (domain
 * MS_ERROR) and return NULL / FALSE on failure; messages start with the file name.
 */
#ifndef MEMSIM_H
#define MEMSIM_H

#include <glib.h>
#include <stdio.h>

G_BEGIN_DECLS

#define MEMSIM_VERSION "0.1.0"

/* ---- errors ------------------------------------------------------------------------ */
#define MS_ERROR (ms_error_quark())
GQuark ms_error_quark(void);

typedef enum {
  MS_ERROR_IO,      /* a file could not be opened, read or written */
  MS_ERROR_SYNTAX,  /* JSON or expression syntax */
  MS_ERROR_INVALID, /* well-formed but wrong: types, keys, values */
  MS_ERROR_LIMIT,   /* a size beyond what memsim will attempt */
  MS_ERROR_VERIFY,  /* an algorithm description failed to verify its own output */
  MS_ERROR_GPU,     /* no GPU, or a GPU-side failure */
} MsErrorCode;

/* Hard limits: inputs beyond them are refused with MS_ERROR_LIMIT, never attempted. */
#define MS_MAX_WIDTH 4096u
#define MS_MAX_THREADS (G_GUINT64_CONSTANT(1) << 32)
#define MS_MAX_LATENCY (G_GUINT64_CONSTANT(1) << 32)
#define MS_MAX_DMMS 65536u
#define MS_MAX_JSON_INT ((G_GINT64_CONSTANT(1) << 53) - 1) /* JSON integers are exact up to here */

/* ---- models ------------------------------------------------------------------------ */
typedef enum { MS_MODEL_UMM, MS_MODEL_DMM, MS_MODEL_HMM, MS_MODEL_ASYNC_HMM } MsModelKind;

#define MS_MAX_LOAD_POINTS 32u
/* A latency against utilization: n points (u[i] per mille, strictly increasing, 0 .. 1000;
 * lat[i] time units, non-decreasing).  Below u[0] the latency is lat[0], above u[n-1]
 * lat[n-1], between two points lat[i] + floor((lat[i+1] - lat[i]) (u - u[i]) / (u[i+1] - u[i])). */
typedef struct {
  guint32 n;
  guint32 u[MS_MAX_LOAD_POINTS];
  guint64 lat[MS_MAX_LOAD_POINTS];
} MsLoadCurve;

/* The latency of curve c at utilization u (per mille). */
static inline guint64 ms_load_curve_at(const MsLoadCurve *c, guint64 u) {
  if (u <= c->u[0]) return c->lat[0];
  for (guint32 i = 0; i + 1 < c->n; i++)
    if (u < c->u[i + 1])
      return c->lat[i] + (c->lat[i + 1] - c->lat[i]) * (u - c->u[i]) / (c->u[i + 1] - c->u[i]);
  return c->lat[c->n - 1];
}

/* How far a calibrated model's predictions erred on its validation, for one class of
 * ms_result_bound() (the optional model key "validation", docs/models.md, "Model files";
 * written by bench/validation-bands.py from the model's validation report).  It changes no
 * prediction: `memsim run` prints it beside one.  Relative errors are fractions. */
#define MS_MAX_BANDS 5u
typedef struct {
  char bound[24];         /* "latency", "global bandwidth", "shared memory" or "launch" */
  guint64 records;
  double median_abs_error, p10, p90;
} MsValidationBand;

/* A machine configuration.  Plain data: fields may be read directly. */
typedef struct {
  char *name;           /* free-form, "" if absent */
  MsModelKind kind;
  guint32 width;        /* w: warp size, banks, address-group size */
  guint64 latency;      /* l for umm/dmm */
  guint32 dmms;         /* d for hmm kinds (1 for umm/dmm) */
  guint64 shared_latency; /* hmm kinds: latency of each DMM pipeline (default 1) */
  guint64 global_latency; /* hmm kinds: latency of the global (UMM) pipeline */
  guint64 group_words;  /* extension: UMM address-group size in words (default w) */
  double time_unit_ns;  /* calibration: ns per time unit, 0 if not calibrated */
  double launch_ns;     /* calibration: ns per kernel launch (grid barrier + 1), 0 if none */
  /* GPU extensions (docs/models.md, "GPU extensions"); each default gives the papers' model. */
  guint32 global_rate;      /* g: slots of the global pipeline's entry per time unit (1) */
  guint64 resident_warps;   /* hmm kinds: warps a DMM holds at once (0: unlimited) */
  guint64 resident_blocks;  /* hmm kinds: blocks a DMM holds at once (0: unlimited) */
  guint64 shared_words_per_dmm; /* hmm kinds: shared words of a DMM (0: unlimited) */
  guint64 launch_units;     /* idle time units before each kernel (0) */
  /* hmm kinds with resident_warps or resident_blocks: a DMM starts at most one block per
   * this many time units (docs/models.md, "Block starts"; 0: any number at once) */
  guint64 block_start_units;
  /* a block barrier releases its block's warps barrier_units + barrier_warp_units x (the
   * block's warps) time units after the last arrives, once the block has taken part in a step
   * of its kernel (docs/models.md, "Barrier time"; 0 and 0: at once, the papers' model) */
  guint64 barrier_units, barrier_warp_units;
  /* L2 (a project extension, docs/models.md): a trace whose declared global footprint
   * fits l2_words runs its global pipeline at l2_latency and l2_rate.  0: no L2. */
  guint64 l2_words, l2_latency;
  guint32 l2_rate;
  /* Warp issue (a project extension, docs/models.md, "Reads in flight and posted writes"):
   * read_window m (1): a warp may have up to m reads in flight; its next read need not wait
   * for the earlier ones (a write and a barrier wait for all of them).  posted_writes (FALSE):
   * a write does not hold its warp; the next step may follow one time unit after the
   * write's last stage entered.  The defaults are rules 1-3: each request completes before
   * the warp's next one. */
  guint32 read_window;
  gboolean posted_writes;
  /* Partial writes (a project extension, docs/models.md, "Partial writes"): a global write
   * step's address group that the warp does not write in full costs 1 + this many stages
   * (0: one stage per group, the papers' rule); the l2_ key applies instead when the
   * trace runs in L2.  width x (1 + either) must not exceed MS_MAX_WARP_STAGES. */
  guint32 partial_write_stages, l2_partial_write_stages;
  /* L2 write rate (a project extension, docs/models.md, "Whole writes in L2"): when the
   * global pipeline runs at the L2's figures (a footprint within l2_words, or the L2 cache),
   * a write step's stages enter it at this many per time unit instead of l2_rate (a whole
   * write in L2 costs the GPU more than a read).  0: at l2_rate, as reads. */
  guint32 l2_write_rate;
  /* L2 cache (a project extension, docs/models.md, "The L2 cache"): l2_ways A > 0 runs a
   * trace whose footprint does not fit l2_words through an A-way LRU cache of
   * l2_words / group_words groups: the global pipeline enters at l2_rate and l2_latency,
   * and each miss, fill and line made dirty takes a DRAM slot at global_rate, completing
   * global_latency later.  0: no cache (the footprint rule alone). */
  guint32 l2_ways;
  /* l2_partitions P > 1 (hmm kinds, with l2_ways): the cache is P caches of a P-th of it
   * each; block b's warps use cache b mod P (docs/models.md, "L2 partitions").  0, 1: one. */
  guint32 l2_partitions;
  /* l2_line_words (with l2_ways): the cache holds lines of this many words, group_words
   * times 1, 2, 4, 8 or 16, filled a group at a time (docs/models.md, "L2 lines").  0: a
   * line is a group. */
  guint64 l2_line_words;
  /* l2_hashed_sets (with l2_ways): line x goes to set ms_l2_hash(x) mod sets instead of x mod
   * sets, as a GPU hashes addresses to L2 slices (docs/models.md, "L2 lines") */
  gboolean l2_hashed_sets;
  /* l2_warm (with l2_ways; FALSE): a run starts with the cache that one earlier run of the
   * same trace leaves, as a GPU's repeated calls do; every trace then runs through the cache,
   * also one whose global_words fit l2_words (docs/models.md, "A warm L2").  The engine runs
   * the trace twice (MsSimOptions.reopen).  FALSE: the footprint rule and a cold cache. */
  gboolean l2_warm;
  /* l2_home_partitions (with l2_partitions > 1; FALSE): line x has a home partition,
   * floor(h / sets) mod P (h: the set hash, or x itself without l2_hashed_sets); a read from
   * another partition keeps a copy in its own as well (filled from the home copy, else from
   * DRAM into both), and a write goes to the home partition (docs/models.md, "Home
   * partitions").  FALSE: a block's partition holds what its warps access. */
  gboolean l2_home_partitions;
  /* l2_posted_write_backs (with l2_ways; FALSE): a write completes when the L2 has it; the
   * DRAM slots its groups take (write-backs, fills) are taken as before but do not delay its
   * completion (docs/models.md, "Posted write-backs").  FALSE: it completes with them. */
  gboolean l2_posted_write_backs;
  /* l2_posted_fences (with l2_ways; FALSE): a signal step (the flag's fence) waits for the
   * warp's writes only until the L2 has them, not for the DRAM slots they take
   * (docs/models.md, "Posted fences").  FALSE: until they complete. */
  gboolean l2_posted_fences;
  /* DRAM rows (with l2_ways, a project extension, docs/models.md, "DRAM rows"): a DRAM slot
   * of the L2 cache for a group that is the only one of its warp's request in its DRAM row
   * (dram_row_words words) takes 1 / dram_lone_rate time units of the DRAM instead of
   * 1 / global_rate: a random access opens a row for itself.  Both 0: every slot
   * 1 / global_rate. */
  guint64 dram_row_words;
  guint32 dram_lone_rate;
  /* dram_lone_write_rate (with DRAM rows; 0: dram_lone_rate): a lone group's slots for a write
   * (its fill and its write-back) take 1 / this many time units each (docs/models.md, "DRAM
   * rows") */
  guint32 dram_lone_write_rate;
  /* hmm kinds (a project extension, docs/models.md, "A DMM's port"): a DMM passes at most
   * this many global stages per time unit; a request of k stages from a DMM also takes k
   * slots of its port and completes no earlier than its last port slot + the latency - 1
   * (0: no port, the papers' model). */
  guint32 dmm_global_rate;
  /* with dmm_global_rate (docs/models.md, "A DMM's port, by banks"): a global read takes
   * max(dmm_port_banks, its bank degree) port slots instead of its stages, the bank degree
   * being the most distinct addresses of its active lanes in one of the w banks (the SM's L1
   * data pipe), and the port holds no warp: its requests queue (0: the rule above). */
  guint32 dmm_port_banks;
  /* with dmm_port_banks (docs/models.md, "Shared and global reads on one port"; FALSE): the
   * DMM's shared accesses and its global reads share its load/store path, two stages in
   * series: a shared access also takes one port slot, and a global read also takes its bank
   * degree (its wavefronts) of the DMM's own pipeline, from its dispatch on (TRUE) */
  gboolean dmm_port_shared;
  /* Warp shuffles (a project extension, docs/models.md, "Warp shuffles"): time units a
   * shuffle step holds its warp, after what it waits for (0: none, the papers' model) */
  guint64 shuffle_units;
  /* Instructions (a project extension, docs/models.md, "Instructions"): time units each of a
   * compute step's instructions holds its warp, after its reads (0: none, the papers' model) */
  guint64 instruction_units;
  /* Issue (hmm kinds, a project extension, docs/models.md, "Instructions"): warp instructions
   * a DMM issues per time unit, shared by the warps it holds: a compute step of N holds its
   * warp max(N * instruction_units, ceil(N * H / issue_rate)) time units, H = the warps a DMM
   * holds at once (0: no issue limit; needs instruction_units). */
  guint32 issue_rate;
  /* L1 (hmm kinds, a project extension, docs/models.md, "The L1 cache"): each DMM has an
   * L1 of l1_words words; each of its resident blocks holds a private share of it, in sets
   * of l1_ways groups (LRU).  A global read's group held there takes no stage and completes
   * l1_latency time units after the warp issues; writes go through and allocate.  0: none. */
  guint64 l1_words, l1_latency;
  guint32 l1_ways;
  /* Loaded latency (umm and hmm kinds, a project extension, docs/models.md, "Loaded
   * latency"): a global request's latency as a function of its path's utilization u (in
   * 1/1000) over the last base-latency time units, piecewise linear through the points.
   * global_loaded_latency: the DRAM path (the global pipeline outside L2, the L2 cache's
   * DRAM slots); l2_loaded_latency: the global pipeline at l2_rate.  n = 0: the fixed
   * latency keys, the papers' model. */
  MsLoadCurve global_loaded_latency, l2_loaded_latency;
  /* "validation": the report its bands come from ("" without the key), and the bands */
  char validation_report[256];
  guint64 validation_records;
  guint32 nbands;
  MsValidationBand bands[MS_MAX_BANDS];
} MsModel;

/* The model's validation band for a result's bound (ms_result_bound()), or NULL. */
const MsValidationBand *ms_model_band(const MsModel *model, const char *bound);

/* The set hash of l2_hashed_sets: the 64-bit finalizer of MurmurHash3. */
static inline guint64 ms_l2_hash(guint64 x) {
  x ^= x >> 33;
  x *= G_GUINT64_CONSTANT(0xff51afd7ed558ccd);
  x ^= x >> 33;
  x *= G_GUINT64_CONSTANT(0xc4ceb9fe1a85ec53);
  x ^= x >> 33;
  return x;
}

#define MS_MAX_L2_WAYS 64u
#define MS_MAX_L1_WAYS 64u
#define MS_MAX_L2_PARTITIONS 16u

#define MS_MAX_WARP_STAGES 65535u

#define MS_MAX_READ_WINDOW 64u

#define MS_MAX_GLOBAL_RATE 4096u
/* TRUE when any residency limit is set: blocks are then placed dynamically and, on the
 * hmm kinds, every grid barrier is a kernel boundary. */
gboolean ms_model_has_residency(const MsModel *model);

/* Parse a model file.  Returns a new model or NULL with error set. */
MsModel *ms_model_load(const char *path, GError **error);
/* Parse model JSON text; `filename` is used in messages only. */
MsModel *ms_model_parse(const char *text, gsize length, const char *filename, GError **error);
/* A model built in code (tests, generators).  Latency fields not used by `kind` are ignored. */
MsModel *ms_model_new(MsModelKind kind, guint32 width, guint64 latency, guint32 dmms,
                      guint64 shared_latency, guint64 global_latency);
MsModel *ms_model_copy(const MsModel *model);
void ms_model_free(MsModel *model);
const char *ms_model_kind_name(MsModelKind kind);
gboolean ms_model_is_hmm(const MsModel *model);
/* Pipelines of the model: 1 for umm/dmm, dmms + 1 for the hmm kinds. */
guint ms_model_pipelines(const MsModel *model);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MsModel, ms_model_free)

/* ---- steps and sources --------------------------------------------------------------- */
/* MS_OP_SHUFFLE: a warp shuffle (register exchange within a warp, docs/models.md,
 * "Warp shuffles"): no memory stage; its threads are those fill() marks active (any
 * address but MS_ADDR_NONE). */
/* MS_OP_SIGNAL, MS_OP_WAIT: flags between warps of any block (docs/models.md, "Flags"):
 * fill() gives each active thread's flag number (>= 0) as its address; no memory stage.  A
 * signal sets its threads' flags once its warp's requests have completed; a wait holds the
 * warp until every flag of its active threads is set. */
/* MS_OP_COMPUTE: a warp's dependent instructions between its requests (docs/models.md,
 * "Instructions"): fill() gives each active thread's instruction count (1 .. 65535) as its
 * address; the warp's count is the largest of its active threads'; no memory stage. */
/* MS_OP_AWAIT: a warp waits for its asynchronous reads (MsStep.async; docs/models.md,
 * "Asynchronous copies"): its threads are those fill() marks active, as a shuffle's; no
 * memory stage. */
typedef enum { MS_OP_READ, MS_OP_WRITE, MS_OP_SYNC, MS_OP_SHUFFLE, MS_OP_SIGNAL, MS_OP_WAIT, MS_OP_COMPUTE, MS_OP_AWAIT } MsOp;
#define MS_OP_IS_FLAG(op) ((op) == MS_OP_SIGNAL || (op) == MS_OP_WAIT)
/* Steps whose per-thread values are not memory addresses: flag numbers, instruction counts. */
#define MS_OP_IS_VALUE(op) (MS_OP_IS_FLAG(op) || (op) == MS_OP_COMPUTE)
/* Steps of no memory stage and no barrier: shuffle, signal, wait, compute, await. */
#define MS_OP_NO_STAGE(op) ((op) == MS_OP_SHUFFLE || (op) == MS_OP_AWAIT || MS_OP_IS_VALUE(op))
/* The largest instruction count of a compute step's thread. */
#define MS_MAX_INSTRUCTIONS 65535
typedef enum { MS_SPACE_GLOBAL, MS_SPACE_SHARED } MsSpace;
typedef enum { MS_SCOPE_GRID, MS_SCOPE_BLOCK } MsScope;

/* An inactive thread's address. */
#define MS_ADDR_NONE ((gint64)-1)

typedef struct {
  MsOp op;
  MsSpace space; /* memory steps */
  MsScope scope; /* sync steps */
  gboolean async; /* global read steps: an asynchronous copy, awaited only by an await step,
                   * a grid barrier or the warp's end (docs/models.md, "Asynchronous copies") */
} MsStep;

const char *ms_op_name(MsOp op);
const char *ms_space_name(MsSpace space);
const char *ms_scope_name(MsScope scope);

typedef enum { MS_NEXT_STEP = 1, MS_NEXT_END = 0, MS_NEXT_ERROR = -1 } MsNext;

/* What a source's block_shift says of one block of a step (repeated blocks). */
typedef enum { MS_BLOCK_FILL = 0, MS_BLOCK_IDLE, MS_BLOCK_SHIFTED } MsBlockKind;
#define MS_BLOCK_BATCH 4096u
#define MS_BLOCK_NO_LANE G_MAXUINT64

/* What a trace reader or a workload generator implements.  The engine calls next() to
 * advance to the following step, then (for memory steps) fill() on consecutive, disjoint
 * ranges of threads covering [0, threads) in increasing order; fill() writes one address
 * per thread, MS_ADDR_NONE for an inactive thread. */
typedef struct {
  MsNext (*next)(gpointer self, MsStep *step, GError **error);
  gboolean (*fill)(gpointer self, guint64 first, guint64 count, gint64 *addr, GError **error);
  void (*destroy)(gpointer self);
  /* Optional (NULL: every thread may be active).  After next() returned a memory step:
   * the range [*first, *end) of threads outside which every thread is inactive in it.  The
   * engine then calls fill() only for the warps that overlap the range, so a step in which
   * a few threads work costs in proportion to them.  fill() must still accept any range. */
  void (*active_range)(gpointer self, guint64 *first, guint64 *end);
  /* Optional (NULL: fill() runs on one thread at a time).  fill() as called from worker
   * `worker` (0 .. MS_MAX_WORKERS - 1) of the engine: after next(), the engine may call it
   * from several threads at once, each worker for its own disjoint ranges of the step, and
   * never at the same time as next().  Same addresses as fill(). */
  gboolean (*fill_worker)(gpointer self, guint worker, guint64 first, guint64 count, gint64 *addr,
                          GError **error);
  /* Optional (NULL: every block is filled).  Repeated blocks (docs/performance.md): after
   * next() returned a memory step, block_repeats() says whether asking block_shift() may
   * pay, and block_shift(self, b0, n, lane, kind, at, lo, hi) says of each full block b0 + i
   * (i < n <= MS_BLOCK_BATCH; block_threads threads inside the active range), given a lane
   * that is active in some block it called MS_BLOCK_SHIFTED in this step, in kind[i]:
   *   MS_BLOCK_IDLE: no thread of the block is active;
   *   MS_BLOCK_SHIFTED: its active lanes are those of every block called so in this step,
   *     and each one's address is that block's plus the difference of their at[i] (`lane`'s
   *     address); a block whose addresses would leave [*lo, *hi] must be filled (fill()
   *     reports the error), any other raises none;
   *   MS_BLOCK_FILL: the engine must fill it.
   * Before any block is called MS_BLOCK_SHIFTED (no lane known yet), lane is
   * MS_BLOCK_NO_LANE: then kind[i] is MS_BLOCK_IDLE for a block the source can tell has no
   * active thread (whose fill would raise no error), else MS_BLOCK_FILL; at, lo and hi are
   * not set.  A source that cannot tell answers MS_BLOCK_FILL for every block. */
  gboolean (*block_repeats)(gpointer self);
  void (*block_shift)(gpointer self, guint64 first_block, guint64 n, guint64 lane, guint8 *kind, gint64 *at,
                      gint64 *lo, gint64 *hi);
  /* Optional (NULL: next() runs on its caller's thread alone).  The engine says, before the
   * first next(), how many threads it works on (1 .. MS_MAX_WORKERS): a generator whose
   * next() has work per thread (the GCD's planning) may spread it over that many, with the
   * same steps and addresses.  A wrapping source passes it on. */
  void (*set_workers)(gpointer self, guint n);
  /* Optional (NULL: none).  Repeated kernel counts (docs/performance.md): right after next()
   * returned a grid barrier, TRUE and *key if the kernel that follows it (its steps up to
   * the next grid barrier, that barrier included) has the steps and the addresses, thread by
   * thread, of every other kernel the source gives the same key; FALSE if the source cannot
   * tell.  A kernel that ends the trace (no barrier closes it) has no key. */
  gboolean (*kernel_key)(gpointer self, guint64 *key);
} MsSourceFuncs;

/* Most engine threads that fill and count one step (MsSimOptions.threads). */
#define MS_MAX_WORKERS 64u

typedef struct _MsSource MsSource;

/* Wrap an implementation.  The source owns `self` and calls funcs->destroy on free. */
MsSource *ms_source_new(const char *name, guint64 threads, guint64 block_threads,
                        const MsSourceFuncs *funcs, gpointer self);
void ms_source_free(MsSource *source);
const char *ms_source_name(const MsSource *source);
guint64 ms_source_threads(const MsSource *source);
guint64 ms_source_block_threads(const MsSource *source);
MsNext ms_source_next(MsSource *source, MsStep *step, GError **error);
/* Shared memory one block holds, in words (the trace's "shared_words"; 0 if undeclared). */
guint64 ms_source_shared_words(const MsSource *source);
void ms_source_set_shared_words(MsSource *source, guint64 words);
/* Global words the trace touches, all arrays together (the trace's "global_words"; 0 if
 * undeclared): with a model's l2_words, decides whether its data stays in L2. */
guint64 ms_source_global_words(const MsSource *source);
void ms_source_set_global_words(MsSource *source, guint64 words);
/* A data file memsim reads must be a regular file (or "-", standard input): a directory,
 * FIFO, device or socket is refused at once, naming what it is.  TRUE if `path` may be read
 * (a missing file is left to the open that follows, which says why). */
gboolean ms_file_check(const char *path, GError **error);
/* The memory this process may use: the machine's physical memory, or its address-space
 * limit (ulimit -v) when lower.  Size checks refuse what would need more than half of it. */
guint64 ms_memory_limit(void);

/* MsSourceFuncs.set_workers, if the source has it. */
void ms_source_set_workers(MsSource *source, guint n);
/* TRUE if the source's fill() may run on several worker threads at once (fill_worker). */
gboolean ms_source_has_fill_worker(const MsSource *source);
gboolean ms_source_fill_worker(MsSource *source, guint worker, guint64 first, guint64 count, gint64 *addr,
                               GError **error);
gboolean ms_source_fill(MsSource *source, guint64 first, guint64 count, gint64 *addr,
                        GError **error);
/* Repeated blocks (MsSourceFuncs.block_repeats, block_shift): FALSE, MS_BLOCK_FILL without them. */
/* `inner` with a compute step of n instructions (1 .. MS_MAX_INSTRUCTIONS) before each of its
 * memory steps, over that step's active threads (docs/models.md, "Instructions"); takes
 * ownership of `inner`. */
MsSource *ms_source_with_instructions(MsSource *inner, guint32 n);
gboolean ms_source_block_repeats(MsSource *source);
/* MsSourceFuncs.kernel_key: FALSE without it. */
gboolean ms_source_kernel_key(MsSource *source, guint64 *key);
void ms_source_block_shift(MsSource *source, guint64 first_block, guint64 n, guint64 lane, guint8 *kind, gint64 *at,
                           gint64 *lo, gint64 *hi);
/* The same addresses as ms_source_fill(), and the same first error, taking the blocks that
 * block_shift() vouches for as a reference block's addresses moved by their shift (or
 * inactive) instead of computing each: for a caller that needs every thread's address (a
 * verifier), not only the stage counts. */
gboolean ms_source_fill_repeated(MsSource *source, guint64 first, guint64 count, gint64 *addr, GError **error);
/* The current memory step's active range (all threads if the source does not say). */
void ms_source_active_range(MsSource *source, guint64 *first, guint64 *end);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MsSource, ms_source_free)

/* Open a trace file of any form (explicit JSON, compact JSON, binary), detected from its
 * content.  "-" reads standard input. */
MsSource *ms_trace_open(const char *path, GError **error);
/* The same from bytes in memory (copied); `name` stands for the file in messages. */
MsSource *ms_trace_open_memory(const void *data, gsize length, const char *name, GError **error);

typedef enum { MS_FORMAT_EXPLICIT, MS_FORMAT_BINARY } MsFormat;
/* Drain `source` and write it in `format` to `out`; `name` labels the file in errors. */
gboolean ms_trace_write(MsSource *source, MsFormat format, FILE *out, const char *name,
                        GError **error);

/* ---- simulation ---------------------------------------------------------------------- */
typedef struct {
  guint64 stages;
  guint64 dispatches;
  guint64 requests;
} MsMemoryCounts;

typedef struct {
  guint64 index;      /* position of the step in the trace, from 0 */
  MsStep step;
  guint64 requests;
  guint64 stages;
  guint64 dispatches; /* warps with at least one request */
  gint64 first_dispatch; /* time unit of the first stage, -1 if no request */
  gint64 last_complete;  /* time unit its last request completed, -1 if none */
} MsStepResult;

typedef struct {
  gint64 time; /* time unit the stage entered */
  guint32 pipeline;
  guint64 warp;
  guint64 step;
  guint32 stages;   /* stages of this dispatch: entries time .. time+stages-1 (rate 1) */
  gint64 complete;  /* time unit the last of them completes */
  gint64 slot;      /* the first slot it took: stage i enters at (slot + i) / rate */
  guint32 rate;     /* slots per time unit of the pipeline (global_rate, else 1) */
} MsEvent;

typedef struct {
  guint64 time_units;
  guint64 stages, dispatches, requests, extra_stages;
  guint64 round_sum;
  MsMemoryCounts shared, global;
  guint64 steps;          /* all steps, syncs included */
  guint64 memory_steps;   /* steps with at least one request */
  guint64 grid_barriers;  /* B of the asynchronous HMM: kernel boundaries */
  guint64 block_barriers;
  guint64 shuffle_steps;  /* shuffle steps with at least one active thread */
  guint64 shuffles;       /* warp shuffles: warps with an active thread, summed over them */
  guint64 compute_steps;  /* compute steps with at least one active thread */
  guint64 instructions;   /* compute steps' instructions: each warp's count, summed */
  guint64 issue_units;    /* issue_rate: the time units its bound charges, summed over the phases */
  guint64 signals, waits; /* flags: warps with an active thread in signal, in wait steps */
  guint64 async_reads, awaits; /* asynchronous copies: warps with a request in async read
                                * steps, with an active thread in await steps */
  guint64 threads, warps, blocks;
  /* GPU extensions: what bounds the time (docs/models.md) */
  guint64 kernels;        /* 1 + kernel boundaries (grid barriers of async-hmm, or of hmm
                           * with residency limits); 1 on other models */
  guint64 launch_total;   /* time units spent launching: kernels * launch_units */
  guint64 global_busy;    /* time units the global entry needs: ceil(global stages / g) */
  guint64 shared_busy;    /* stages of the busiest DMM (dmm: all shared stages) */
  gboolean l2_resident;   /* the trace's global_words fit the model's l2_words */
  gboolean l2_cached;     /* the global steps ran through the L2 cache (l2_ways) */
  guint64 l2_hits, l2_misses; /* L2 cache: group accesses that hit, that missed */
  gboolean l1_cached;     /* the global reads looked in the L1 (l1_words, a share per block) */
  guint64 l1_share_words; /* L1: each block's share, in words (0: too small for a group) */
  guint64 l1_hits, l1_misses; /* L1: global read groups that hit, that missed */
  guint64 dram_stages;    /* L2 cache: DRAM slots taken (misses, fills, lines made dirty) */
  guint64 dram_busy;      /* L2 cache: time units the DRAM needs: ceil(dram_stages / global_rate);
                           * with DRAM rows, lone slots at dram_lone_rate */
  gboolean dram_rows;     /* the model has DRAM rows (dram_row_words) */
  gboolean l2_warm;       /* l2_warm: the run started with the cache an earlier run left */
  guint64 dram_lone_stages; /* DRAM rows: the DRAM slots of lone groups (among dram_stages) */
  guint64 repeated_blocks; /* blocks of memory steps counted as a shifted copy of another
                            * (repeated blocks, docs/performance.md): not a model figure */
  guint64 repeated_kernels; /* kernels not dispatched, their outcome taken from an identical
                             * earlier one (repeated kernels, docs/performance.md): not a model figure */
  guint64 kernels_not_counted; /* kernels whose steps were not counted, their counts taken from an
                                * earlier kernel of the same key and L2 state (repeated kernel
                                * counts, docs/performance.md): not a model figure */
  double helper_cpu_s;      /* CPU seconds of the engine's worker threads (--threads), beside the
                             * caller's own: what a simulation cost, not a model figure */
  GArray *per_step;       /* of MsStepResult, only when asked for */
  GArray *events;         /* of MsEvent, only when asked for */
} MsResult;

typedef void (*MsProgressFunc)(guint64 steps_done, gpointer user_data);

typedef struct {
  gboolean per_step;       /* fill MsResult.per_step */
  guint64 max_events;      /* >0: record dispatch events, fail with MS_ERROR_LIMIT past this */
  MsProgressFunc progress; /* called every progress_every steps loaded, may be NULL */
  guint64 progress_every;
  gpointer progress_data;
  guint threads;           /* threads that fill and count steps of 2048 warps or more, for
                            * sources with fill_worker (0: the processors, at most
                            * MS_MAX_WORKERS); 1: one thread.  Unless 1, traces of 65536
                            * threads or more also load their steps ahead on a thread of their
                            * own (load_ahead_min_threads).  The result is the same for any
                            * number. */
  guint par_min_warps;     /* steps of at least this many warps go to the workers (0: 2048;
                            * tests set 1 to run small traces through them) */
  guint64 load_ahead_min_threads; /* with threads other than 1, traces of at least this many
                            * threads load their next steps on a thread of their own while
                            * the engine dispatches (0: 65536, and not where repeated blocks
                            * leave little to load: no L2 cache pass, a source that fills on
                            * the workers; tests set 1);
                            * the same result */
  gboolean fill_every_block; /* TRUE: no repeated-block reuse (block_shift); the same result */
  gboolean dispatch_every_kernel; /* TRUE: no repeated kernels (docs/performance.md); the same result */
  gboolean count_every_kernel; /* TRUE: no repeated kernel counts (docs/performance.md); the same result */
  /* A second opening of the same trace, for a model with l2_warm (its earlier run); NULL:
   * such a model is refused.  Called once, from the calling thread. */
  MsSource *(*reopen)(gpointer data, GError **error);
  gpointer reopen_data;
} MsSimOptions;

/* Run `source` on `model`.  Returns a new result or NULL with error set (a reader error, a
 * trace that does not fit the model, a size beyond the limits). */
MsResult *ms_simulate(const MsModel *model, MsSource *source, const MsSimOptions *options,
                      GError **error);
void ms_result_free(MsResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(MsResult, ms_result_free)

/* Output.  The JSON keys are those of docs/cli.md; print_text writes the human summary. */
char *ms_result_to_json(const MsResult *result, const MsModel *model, const MsSource *source,
                        gboolean pretty);
void ms_result_print_text(const MsResult *result, const MsModel *model, const MsSource *source,
                          FILE *out);
/* The pipeline timeline of a result simulated with max_events > 0: for each pipeline, one
 * row per time unit showing which warp's stage (W<warp>.<step>) is at each depth of the
 * l-deep pipeline; a stage entering at t completes at the end of t + l - 1.  Refuses
 * (MS_ERROR_LIMIT) past MS_TIMELINE_MAX_ROWS time units. */
#define MS_TIMELINE_MAX_ROWS 400
#define MS_TIMELINE_MAX_EVENTS 2000
gboolean ms_result_print_timeline(const MsResult *result, const MsModel *model, FILE *out,
                                  GError **error);

/* Predicted ns of a result on a calibrated model (time_unit_ns > 0): time_units *
 * time_unit_ns + (grid_barriers + 1) * launch_ns.  0 if the model is not calibrated. */
double ms_result_predicted_ns(const MsResult *result, const MsModel *model);
/* What bounds the time: "global bandwidth", "shared memory", "launch" (the largest of
 * global_busy, shared_busy and launch_total when it is at least half the time), else
 * "latency".  "none" for an empty trace. */
const char *ms_result_bound(const MsResult *result);

/* The human description of a model, one line ("dmm w=32 l=1"). */
char *ms_model_describe(const MsModel *model);

G_END_DECLS

#endif /* MEMSIM_H */
