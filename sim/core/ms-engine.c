/* ms-engine.c: the exact timing engine of docs/models.md.
 *
 * Design.  A step's cost for a warp (its stage count k) depends only on the warp's
 * addresses, so each step is reduced to k[warp] as it streams in and its addresses are
 * dropped: the engine keeps a window of such reduced steps, from the step the slowest warp
 * is on to the one the fastest needs, and per-warp state (cursor, ready time).  Memory grows
 * with threads (2 bytes per warp per step in the window), not with steps.
 *
 * Scheduling is event driven over integer time.  Each pipeline (1 for umm/dmm, d DMMs + the
 * global one for the hmm kinds) keeps the time its entry is next free and a lower bound on
 * the ready time of the warps waiting for it; the loop jumps to the earliest time any
 * pipeline could dispatch, and there scans its warps round-robin from after the last one it
 * dispatched (rule 4).  A dispatch at t with k stages completes at t + k + l - 2 and the warp
 * is ready again at t + k + l - 1 >= t + 1, so dispatches at time t never make another warp
 * ready at t: pipelines can be served in any order within a time unit.
 *
 * GPU extensions (docs/models.md).  A pipeline with rate g > 1 counts slots instead of
 * time units (slot s enters at s / g).  With residency limits on an hmm kind, blocks are
 * placed on DMMs as they retire: a DMM pipeline then scans its resident warps (a short list,
 * in warp order because blocks are placed in increasing order) instead of a static member
 * set, and retirements and placements are events processed before any dispatch at their
 * time unit. */
#include "ms-private.h"
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PIPE_DONE (-1)
#define REP_CLASSES 64 /* shift classes of a step kept by count_blocks */
#define BK_MAX_BLOCKS (G_GUINT64_CONSTANT(1) << 24) /* blocks whose kinds count_blocks keeps for the cache pass */
#define PIPE_BARRIER (-2)
#define PIPE_FLAG (-3) /* waiting for a flag (a wait step) */
#define NEVER G_MAXINT64

/* A run: up to RUN_MAX consecutive memory steps between syncs.  A warp at its first step
 * that has no request in any of them (outside the union of their active warps) jumps to
 * its end at once instead of passing each step: a kernel over a few tiles of a large grid
 * costs the other warps one jump per run, not one pass per step.  Its steps count the
 * jumpers in `jumped` (remaining - jumped warps have still to pass each). */
typedef struct {
  guint64 start, len;  /* its steps: start .. start + len - 1 */
  guint64 ulo, uhi;    /* union of the steps' [klo, khi) */
  guint64 jumped;
  guint refs;          /* steps in the window that point to it */
  gboolean closed;     /* no step will be added */
  guint64 *any;        /* closed: bit j - ulo set when warp j has a request in one of its
                        * steps (made on first use: a warp inside the union may still have
                        * none, as the lanes a predicate leaves out of each block's warps) */
} Run;

#define RUN_MAX 64

/* A kernel span: the steps between two grid barriers (or the trace's start or end), all of
 * them, block barriers included.  A block none of whose warps has a request in any of them
 * (outside the union of their active warps, in whole blocks) is idle in the kernel: each of
 * its warps, at the span's first step, jumps to its end (the closing grid barrier) at once,
 * instead of passing its runs and block barriers one by one.  Its ready time does not change
 * on the way (hold() at a barrier finds nothing outstanding from the kernels before, and its
 * block's barriers release at the time all its warps share, as the kernel or the block
 * started), so the jump is exact.  Its steps count the jumpers in `jumped`. */
typedef struct {
  guint64 start;       /* its first step */
  guint64 end;         /* closed: the step after its last (the closing barrier, or the end) */
  guint64 blo, bhi;    /* union of the steps' [klo, khi) in blocks */
  guint64 bytes;       /* its steps' stage arrays */
  guint64 jumped;
  guint refs;          /* steps in the window that point to it */
  gboolean closed;     /* no step will be added */
  gboolean nojump;     /* too large to look ahead over (KSPAN_MAX_BYTES) */
  guint64 *any;        /* closed: bit b - blo set when block b has a request in one of its
                        * steps (made on first use) */
  guint64 bact;        /* with any: 1 + the last block with a request (blo if none) */
} KSpan;

#define KSPAN_MAX_BYTES (G_GUINT64_CONSTANT(64) << 20)

/* What loading a step adds to the result's counts (commit_step). */
typedef struct {
  guint64 signals, waits, compute_steps, instructions, shuffle_steps, shuffles, async_reads, awaits;
  guint64 stages, disp, req, memory_steps, round;
} StepD;

typedef struct {
  MsStep step;
  Run *run;          /* memory steps: their run */
  KSpan *kspan;      /* steps other than grid barriers: their kernel span */
  guint16 *k;        /* stages of warps klo..khi-1 (others: 0, no request); NULL for sync steps */
  guint16 *kd;       /* L2 cache, global steps: DRAM slots of warps klo..khi-1; else NULL */
  guint16 *kp;       /* dmm_port_banks, global reads: warp klo..khi-1's port slots; else NULL */
  guint16 *kw;       /* l2_write_rate, global writes: warp klo..khi-1's partly written groups; else NULL */
  guint32 *kh;       /* L1, global reads: warp klo..khi-1's groups that hit (bit j: its j-th
                      * distinct group in ascending order; bit 31 also for any beyond); else NULL */
  guint64 *fl;       /* signal and wait steps: the warps' distinct flags, warp klo + i's at */
  guint32 *foff;     /* fl[foff[i] .. foff[i + 1]) */
  guint64 klo, khi;  /* the warps that overlap the step's active range */
  guint64 remaining; /* warps that have not passed this step */
  guint64 arrived;   /* grid barrier: warps arrived */
  gint64 release;    /* grid barrier: latest ready time of the arrived warps */
  guint64 *block_arrived; /* block barrier: per block */
  gint64 *block_release;
  MsStepResult res;
  StepD d;
  guint64 fp[2];     /* has_fp: the fingerprint of its header and counts (step_fp) */
  gboolean has_fp;
  gboolean ghost;    /* not counted (repeated kernel counts): no counts, only d, res and fp */
} StepRec;

/* Repeated kernels (docs/performance.md, "Repeated kernels").  A kernel that starts at a
 * grid barrier's release with nothing of the kernels before it still pending (every
 * pipeline's, the DRAM's and the DMM ports' next free slot at or before its start, the
 * loaded-latency windows empty of it) runs the same, shifted by its start, as any other
 * kernel with the same reduced steps (stage counts, DRAM slots, L1 hits per warp: the
 * caches' state is already in them) and the same round-robin places.  Its outcome (per-step
 * times, busy slots, when its closing barrier releases, the round-robin places it leaves) is
 * kept under a 128-bit fingerprint of both, and a later kernel with the same fingerprint is
 * not dispatched again: its steps take the outcome, shifted.  Only kernels that also end in
 * such a state are kept, so the state after a taken outcome is one a dispatch could leave. */
typedef struct {
  guint64 h[2];         /* fingerprint of the steps and the round-robin places at the start */
  guint64 first, close; /* recording: its first step's index, its closing barrier's */
  gint64 t0;            /* recording: its start */
  gint64 lc0;           /* recording: the latest completion before it (last_complete holds
                         * the kernel's own meanwhile: a posted write-back of the kernel
                         * before may complete after its start) */
  guint64 *busy;        /* recording: the busy slots at the start; kept: what it added */
  guint64 dbusy;
  gint64 rel_release, rel_end, rel_last; /* closing barrier's release (before the launch), its
                                          * release with it, the latest completion (-1: none) */
  gint64 *sres;         /* per step from first: first dispatch, last completion (-1: none) */
  guint64 *lastpos;     /* the round-robin places it leaves */
  gint64 *lastwarp;
} KOut;

/* Repeated kernel counts (docs/performance.md, "Repeated kernel counts").  A kernel's
 * counts (stage counts, DRAM slots, L1 hits per warp) are a function of its addresses and of
 * the L2 cache's state at its start (the L1s start empty at each grid barrier).  A source
 * that can tell two kernels have the same addresses gives them the same key
 * (MsSourceFuncs.kernel_key); a kernel counted after a keyed barrier is kept as a KMemo: per
 * step its fingerprint and what it adds to the result, the counters it added, and the L2
 * state it left.  A later kernel with the same key and the same L2 state at its start whose
 * dispatch outcome is kept (KOut, under the fingerprint the KMemo gives) is not counted: its
 * steps load as ghosts (no counts, the KMemo's figures), the L2 takes the state the KMemo
 * left, and krep_release takes the outcome.  Which of the two the kernel gets is decided
 * at its barrier's release, where the dispatch knows its state (kmemo_decide): the loading
 * thread waits there. */
typedef struct {
  MsStep step;
  guint64 fp[2];
  guint64 klo, khi;
  guint64 stages, dispatches, requests; /* res's */
  StepD d;
} KMStep;

enum { KM_L2_HITS, KM_L2_MISSES, KM_L1_HITS, KM_L1_MISSES, KM_DRAM_SLOTS, KM_DRAM_LONE, KM_NCTR };

typedef struct {
  guint64 key, h0[2]; /* the source's key, the L2 state's fingerprint at its start */
  GArray *steps;      /* of KMStep: its steps, the closing grid barrier last */
  guint64 dctr[KM_NCTR]; /* what its counting added to the counters */
  guint64 lanes;      /* its memory steps' lanes (klo .. khi), what counting it cost */
  guint64 bytes;      /* its steps' counts, as krep_load adds them */
  guint64 *tag;       /* the L2 state it left (L2Cache's arrays), NULL without the cache */
  guint32 *mask;
  guint8 *cnt;
} KMemo;

enum { KC_NONE, KC_COUNT, KC_SKIP };
#define KMEMO_MAX 8u /* kernels kept (each an L2 state: 10 MB with models/h200.json) */
#define KMEMO_MAX_STEPS 65536u /* steps of a kernel kept (176 bytes each) */
#define KMEMO_SMALL_MAX 4096u /* keys remembered as too small */

#define KREP_MAX_KERNELS 256u        /* outcomes kept */
#define KREP_MAX_BYTES (G_GUINT64_CONSTANT(1) << 30) /* the steps a kernel's look-ahead may load
                                                       * (their stage counts; a life-word 16K kernel: 336 MB) */

/* One thread's scratch for stage counting: addresses of a chunk, the hash set of distinct
 * groups or addresses, the per-bank counts, and the sums of its share of a step. */
/* The parallel cache pass: one access of a batch (its warp within the batch, set, group). */
typedef struct {
  guint64 set, g; /* g | L2_FULL when the warp writes the whole group */
  guint32 v;
} L2Ent;

typedef struct {
  guint64 key, stamp;
} HSlot;

typedef struct {
  gint64 *addr;
  HSlot *hslot;        /* the stamped hash set: key and stamp side by side, one line a probe */
  guint64 stamp;
  guint32 *bankcnt;
  gint64 *sorted;      /* w: a warp's write addresses (partial_write_stages) */
  gint64 *packed;      /* w: a warp's active addresses (umm_write_stages) */
  guint64 *groups;     /* w: a warp's address groups (umm_stages) */
  guint64 *dmm_stages; /* per DMM stage sums (hmm shared steps) */
  guint64 stages, disp, req;
  guint64 wfrom, wto;  /* its warps of the step */
  guint64 l2_hits, l2_misses; /* L2 cache: its accesses' */
  guint64 l1_hits, l1_misses; /* L1: its global read groups' */
  guint64 dram_slots, dram_lone; /* L2 cache: the DRAM slots its accesses took; of lone groups */
  guint16 *l2kd;       /* parallel cache pass: DRAM slots of each warp of the batch, its sets' */
  L2Ent *l2s;          /* its share's accesses, stably sorted by the worker that owns their set */
  guint32 *l2off;      /* workers + 1: where each owner's accesses start in l2s */
  GError *error;
} Counter;

struct Engine;

/* The L2 cache (l2_ways): sets of `ways` lines each, most recently used first; the first
 * cnt[set] entries are valid.  A line holds q = l2_line_words / group_words groups: tag[]
 * is the line (group / q), mask[] the groups held (bits 0 .. q-1) and those dirty (bits
 * 16 .. 16+q-1).  q = 1: a line is a group. */
typedef struct {
  guint64 sets; /* per partition: partition q's sets are q * sets .. (q + 1) * sets - 1 */
  guint32 ways, parts, q;
  int qshift;      /* log2(q) when q is a power of two, else -1 */
  guint64 smag;    /* rate_magic(sets) */
  gboolean hashed; /* l2_hashed_sets */
  gboolean home;   /* l2_home_partitions */
  guint64 *tag;
  guint32 *mask;
  guint8 *cnt;
} L2Cache;

static void l2_cache_free(L2Cache *L) {
  if (!L) return;
  ms_mem_free(L->tag);
  ms_mem_free(L->mask);
  ms_mem_free(L->cnt);
  g_free(L);
}

/* The L1 (l1_words): per block, a private share of its DMM's L1 in `sets` sets of `ways`
 * groups, most recently used first.  tag[b] holds block b's (group + 1, 0: empty), made on
 * its first global access and emptied at a grid barrier (a kernel boundary). */
typedef struct {
  guint64 sets, blocks;
  guint32 ways;
  guint32 **tag;
} L1Cache;

/* Worker threads that fill and count disjoint warp ranges of one step at a time (sources
 * with fill_worker).  A job has n shares (e->ctr[i], with the source's worker i); the thread
 * that loads the step (the engine's, or the loading thread) and the workers take the shares
 * in turn, whoever is free, so that a worker the system has not scheduled holds up no step
 * (a host whose cores all run other simulations).  The sums are each share's, so the result
 * does not depend on which thread ran which share. */
typedef struct {
  struct Engine *e;
  guint n;              /* workers, the engine's thread included */
  GThread **threads;
  GMutex lock;
  GCond go, done;
  guint64 gen;          /* bumped per parallel step */
  guint pending;        /* shares not yet counted */
  guint next;           /* the next share to take */
  gboolean quit;
  int job;              /* POOL_COUNT, POOL_L2_GROUPS, POOL_L2_ACCESS */
  StepRec *rec;         /* the step being counted */
  gboolean dmm_rule, shared_hmm;
  guint pw;
  double cpu;           /* the workers' CPU seconds, summed as they quit */
} Pool;

enum { POOL_COUNT, POOL_L2_GROUPS, POOL_L2_ACCESS };

/* Loaded latency (docs/models.md, "Loaded latency"): the slots a path has taken, as
 * intervals [a, b) in increasing order from head, to count those that entered in the last
 * `win` time units.  Slots are taken at max(next free, t * g) and t never decreases, so the
 * taken slots at or after any later time's (t + 1) g form one run ending at the next free. */
typedef struct {
  const MsLoadCurve *curve; /* NULL: the path's fixed latency */
  gint64 win, g;            /* the window (the path's base latency), slots per time unit */
  gint64 *a, *b;
  guint64 head, len, cap;
  gint64 total;             /* slots in intervals head .. len-1 */
  gint64 *at;               /* the curve's latency at each per mille 0 .. 1000 (ms_load_curve_at) */
} LoadWin;

/* A window on curve c: its latencies tabled once, so a dispatch looks one up. */
static LoadWin load_win(const MsLoadCurve *c, gint64 win, gint64 g) {
  LoadWin w = {.curve = c, .win = win, .g = g};
  w.at = g_new(gint64, 1001);
  for (guint64 u = 0; u <= 1000; u++) w.at[u] = (gint64)ms_load_curve_at(c, u);
  return w;
}

/* A pipeline of few members (TIMER_MAX or fewer) keeps the waiting members that a scan found
 * not ready in `pend`, with their ready times in a min-heap, instead of the per-64 and
 * per-4096 bounds: a scan then visits each such member once per wait, not at every turn
 * until it is ready (a latency-bound pipeline of a few hundred warps, a GCD of 16384
 * instances, visited most of them at each dispatch).  At 2048 members (a GCD of 65536
 * instances, bandwidth-bound) the bounds cost less: 0.37 G instructions against 0.87 G. */
#define TIMER_MAX 1024u

typedef struct {
  gint64 r;   /* the member's ready time */
  guint64 q;  /* the member */
} TEnt;

typedef struct {
  guint64 *pend; /* waiting members not ready when a scan passed them: each has an entry */
  TEnt *h;       /* min-heap on r; entries of members dispatched since are dropped when due */
  guint64 n, cap;
} Timer;

/* Up to this many pipelines (a umm, a dmm, an hmm of up to 15 DMMs) the run loop finds the
 * earliest by a scan of their keys, which costs less than keeping a tree in order twice per
 * dispatch; the pipelines served within one time unit may go in any order (run()). */
#define PQ_SCAN_MAX 16u

typedef struct Engine {
  const MsModel *model;
  MsSource *src;
  const MsSimOptions *opt;
  MsResult *result;
  GError *error;

  guint32 w;
  guint64 p, W, blocks, wpb; /* threads, warps, blocks, warps per block */
  guint P;                   /* pipelines */
  gboolean hmm;

  /* per warp */
  guint64 *cursor;
  gint64 *ready;
  gint32 *pipe;

  /* per pipeline */
  gint64 *free_at, *lb, *lat;
  gint64 *rate, *slot;  /* slots per time unit; the next free slot */
  guint64 *rmag;        /* per pipeline: rate_magic(rate), for rate_div */
  guint64 *busy;        /* stages dispatched */
  guint64 *elig, *lastpos, *nmembers;
  guint64 **bits;    /* per pipeline: bit q set = member q waits for it */
  gint64 **wmin;     /* per pipeline, per 64 members: a lower bound on their waiting ready times */
  gint64 **smin;     /* the same per 4096 members */
  Timer *tm;         /* per pipeline: pend NULL unless it has TIMER_MAX members or fewer */
  /* more pipelines: a tournament tree on pkey (the earliest time each can dispatch): leaf
   * tn + p is pipeline p, node i holds the least key below it (tk) and its pipeline (ti),
   * the lower-numbered on ties */
  guint tn;          /* leaves: a power of two >= P */
  gint64 *tk;
  guint *ti;
  gboolean pq_scan;  /* few pipelines (PQ_SCAN_MAX or fewer): no tree, the run loop scans pkey */
  gboolean batch;    /* serve() may dispatch several warps of a pipeline at once (no events) */
  gboolean fastrun;  /* one pipeline of the papers' rule (serve_run) */
  gboolean quick;    /* plain, and advance_fast() may take its inline case */
  gboolean plain;    /* static pipelines of rate 1 and none of the extensions (dispatch_plain) */
  guint32 pdirty;    /* pq_scan: the pipelines whose key may have changed since pq_top */
  guint *plist, nplist; /* the tree: the same pipelines, listed once each (pinlist) */
  guint8 *pinlist;
  gint64 *pkey;

  /* step window */
  StepRec **ring;
  guint64 cap, head, count; /* absolute index of ring front, steps held */
  gboolean eof;
  GPtrArray *kpool;
  GMutex kpool_lock;        /* k_take on the loading thread, rec_free on the engine's */
  guint64 pstep;            /* steps produced (produce_step) */
  struct Loader *ld;        /* the loading thread (load ahead), or NULL */

  /* loading scratch */
  guint64 chunk;
  guint32 hmask;
  int hshift; /* 64 - log2(table size) */
  int gshift, wshift; /* log2 of group_words and w when powers of two, else -1 */
  Counter *ctr;       /* per worker; ctr[0] is the loading thread's (worker 0) */
  guint nctr;
  Pool *pool;         /* NULL: one thread counts */
  guint64 par_min;    /* steps of this many warps or more go to the pool */

  /* repeated blocks (count_blocks) */
  gboolean reuse;       /* the source has block_shift and blocks are whole warps */
  gint64 *refaddr;      /* the reference block's addresses */
  /* The step's addresses as the count pass filled them, kept for the L2 pass of the same
   * step so that it does not fill them again (saddr_on: this step's count pass writes them;
   * lanes saddr_lo .. saddr_lo + saddr_cap - 1 at most) */
  gint64 *saddr;
  guint64 saddr_cap, saddr_lo;
  gboolean saddr_on;
  guint16 *ent_k;       /* per cached shift class: its warps' stage counts (REP_CLASSES x wpb) */
  guint16 *ent_kw;      /* and their partly written groups (l2_write_rate) */
  gint64 ent_key[REP_CLASSES];
  guint64 ent_stages[REP_CLASSES], ent_disp[REP_CLASSES], ent_req[REP_CLASSES];
  guint nent;
  guint8 *bkind;        /* block_shift's answers for a batch of blocks */
  gint64 *bat;
  /* the cache pass after count_blocks: each block's kind (IDLE, SHIFTED: its addresses are
   * refaddr's + bks; FILL) for blocks bk_b0 .. bk_b0 + bk_n - 1 of the step */
  guint8 *bk;
  gint64 *bks;
  guint64 bk_b0, bk_n;
  gboolean bkstep;      /* count_blocks records them (bk, bks allocated and a cache pass follows) */
  gboolean bk_valid;    /* they are the current step's */

  Run *cur_run;  /* the run the next memory step joins, NULL after a sync */
  KSpan *cur_kspan; /* the kernel span the next step joins, NULL after a grid barrier */

  guint64 *work; /* warps to advance: a stack of nwork (room for cwork) */
  guint64 nwork, cwork;
  gint64 last_complete;
  guint64 done_warps;

  /* GPU extensions */
  gint64 launch;        /* launch_units */
  gboolean l2;          /* the global pipeline runs at the L2's latency and rate */
  guint pw;             /* partial_write_stages, or l2_partial_write_stages under l2 */
  /* l2_write_rate: the global pipeline's slots per read stage and per write stage (1 and 1
   * without it; l2_write_rate and l2_rate with it, the rate l2_rate x l2_write_rate) */
  gint64 wsr, wsw;
  L2Cache *l2c;         /* l2_ways: global steps run through it (a footprint beyond l2_words) */
  /* the parallel cache pass (workers and a source that fills again): a batch of warps'
   * groups, w entries per warp (group | L2_FULL), their sets and the worker that owns each */
  guint64 l2_batch;     /* warps per batch */
  guint64 l2_w0, l2_nw; /* the batch: its first warp, its warps */
  gboolean l2_write;
  const StepRec *l2_rec; /* the step of the parallel cache pass */
  guint64 *l2ent, *l2set;
  guint8 *l2own;
  guint16 *l2cnt;
  gboolean l2_refill;   /* the cache pass fills each step's addresses again (sources with
                         * fill_worker: counting stays parallel), else it runs in count_range */
  gint64 dslot, drate, dlat; /* L2 cache: the DRAM's next free slot, slots per unit, latency */
  guint64 dmag, pmag;   /* rate_magic(drate), rate_magic(prate) */
  guint64 dbusy;        /* L2 cache: DRAM slots taken */
  guint64 drow;         /* dram_row_words / group_words (0: no DRAM rows) */
  guint dunit, dlone;   /* DRAM rows: the units of 1 / (global_rate x dram_lone_rate) time
                         * that a DRAM slot takes (dram_lone_rate), a lone one (global_rate);
                         * with dram_lone_write_rate rw, units of 1 / (g r rw): r rw and g rw */
  guint dlonew;         /* a lone write's slot (g; with rw, g r) */
  L1Cache *l1c;         /* l1_words: global steps look in their block's share first */
  gint64 l1lat;
  gint64 *pslot, prate; /* dmm_global_rate: per DMM, its port's next free slot; slots per unit */
  gboolean pshared;     /* dmm_port_shared: shared accesses take a port slot, global reads DMM stages */
  guint64 *iacc;        /* issue_rate: per DMM, the instructions of its warps' compute steps since the phase began */
  gint64 iphase;        /* issue_rate: when the phase (the kernel, or the stretch between grid barriers) began */
  guint64 iunits;       /* issue_rate: the phases' issue bounds, summed */
  LoadWin lw_main, lw_dram; /* loaded latency: the global pipeline, the L2 cache's DRAM slots */
  gboolean boundary;    /* grid barriers are kernel boundaries */
  guint64 kernels;
  gboolean dyn;         /* residency limits: blocks placed as room frees */
  guint64 lim_warps, lim_blocks; /* per DMM, 0: unlimited */
  gint32 *block_dmm;    /* per block: its DMM while resident, else -1 */
  gint64 *dmm_start;    /* block_start_units: per DMM, the earliest time its next block starts */
  gint64 *blk_start;    /* block_start_units: per block, when it started in its kernel (-1: not yet) */
  guint64 *bseen;       /* barrier time: per block, the kernel (kstamp) in which it last took part
                         * in a step; its block barriers cost only from then on */
  guint64 kstamp;       /* barrier time: the kernel's number, from 1 */
  gint64 *bbuf;         /* barrier time: a block's arrival times */
  guint64 nbbuf;
  guint64 *blk_done;    /* per block: warps that finished the kernel */
  gint64 *blk_retire;   /* per block: when it retires (latest ready of its warps) */
  guint8 *blk_idle;     /* per block while resident: placed idle in its kernel (place_idle), its
                         * warps not in its DMM's resident list */
  guint64 *res_warps, *res_blocks, *res_dead; /* per DMM */
  guint64 *ptree;       /* placement: a min-tree over the DMMs (leaves at psize + x) of
                         * res_warps << 32 | x for those with room for a whole block, else
                         * G_MAXUINT64: its root is the DMM place_blocks picks for one */
  guint psize;
  guint nroom;          /* DMMs with room for a whole block (place_blocks skips its scan at 0) */
  GArray **res_list;    /* per DMM: resident warps in increasing order (dead ones lazily) */
  gint64 *lastwarp;     /* per DMM: the warp it dispatched last, -1 */
  guint *lastidx;       /* per DMM: that warp's place in its resident list when dispatched */
  guint64 **rbits;      /* per DMM: bit i set = its resident warp i waits for it (pipe == the DMM) */
  guint *rbwords;       /* per DMM: rbits' words */
  guint32 *ridx;        /* per warp, while resident: its place in its DMM's list */
  guint64 next_block;   /* blocks >= this wait for placement */
  gint64 place_at;      /* a placement attempt is due at this time, else NEVER */
  GArray *heap;         /* of Retire: a min-heap on time */
  /* read_window > 1 or posted_writes: a warp's ready time is first when it may issue again
   * (one time unit after its last stage entered), then held back at the step it stops at
   * by the completions it must wait for (hold()) */
  gboolean issue;
  guint32 m;            /* read_window */
  gint64 *rtop;         /* per warp: the m latest completions of its reads (-1: none), a
                           ring in increasing order from rhead */
  guint32 *rhead;       /* per warp: the place of its least in rtop */
  gint64 *rdone, *wdone; /* per warp: the latest completion of its reads, of its writes */
  gint64 *adone;        /* asynchronous copies (made when a trace has them): per warp, the
                         * latest completion of its async reads, -1 */
  gint64 *wl2;          /* l2_posted_fences (with the issue rule): per warp, the latest time
                         * the L2 had one of its writes, -1 */
  /* flags (signal and wait steps): flag number -> Flag, made as steps name them */
  GHashTable *flags;
  guint32 *fpend;       /* per warp, while at a wait step: its flags not yet set */
  /* repeated kernels (KOut) */
  gboolean krep;        /* on (options, and no timeline, issue rule, block starts or flags) */
  GHashTable *kout;     /* kept outcomes: fingerprint h[0] -> KOut */
  KOut *krec;           /* the kernel being recorded, or NULL */
  /* repeated kernel counts (KMemo).  kp_*, kstart, kcmd, kmr, kghost, knc, klanes and
   * kmemo_off are the loading thread's; with a loading thread the engine's kmemo_decide reads
   * kp_m only under the loader's lock while it waits (parked), and without one it also sets
   * kcmd; the engine reads knc, the counters and kmemos after the loader has ended */
  gboolean kmemo;       /* on (repeated kernels on, a source with kernel_key, no count_every_kernel) */
  GPtrArray *kmemos;    /* kept kernels' counts */
  GHashTable *ksmall;   /* keys whose kernel was too small to keep (guint64 *) */
  KMemo *kmr;           /* the kernel being counted into a KMemo, or NULL */
  guint64 kmr_base[KM_NCTR]; /* the counters at its start */
  gboolean kp_key;      /* the last grid barrier loaded: the source keyed the kernel after it */
  guint64 kp_index;     /* its index */
  guint64 kp_k, kp_h[2]; /* the key, the L2 state's fingerprint */
  KMemo *kp_m;          /* a kept kernel of that key and state, or NULL */
  gboolean kstart;      /* the next step loaded is the first of that kernel */
  int kcmd;             /* what that kernel does (KC_*), set by kmemo_decide */
  KMemo *kghost;        /* the kept kernel whose ghosts are loading, or NULL */
  guint kgi;            /* its next step */
  guint64 knc;          /* kernels loaded as ghosts */
  guint64 klanes;       /* lanes of the memory steps loaded since the last grid barrier */
  gboolean kmemo_off;   /* a flag step was loaded: repeated kernels are off (commit_step) */
} Engine;

/* A flag: the time its signal set it (NEVER: not yet) and the warps waiting for it. */
typedef struct {
  gint64 time;
  GArray *waiters;
  guint64 by;           /* the warp that set it */
} Flag;

typedef struct {
  gint64 time;
  guint64 block;
} Retire;

/* x / d for 0 <= x < 2^62 without a hardware division (tens of cycles on the dispatch
 * loop's and the cache pass's paths): m = floor((2^64 - 1) / d) gives the quotient or one
 * less, and one comparison corrects it.  Slot to time (d: a pipeline's rate), a cache line's
 * set (d: the sets). */
__extension__ typedef unsigned __int128 MsU128;

static inline guint64 rate_magic(gint64 rate) { return rate > 1 ? G_MAXUINT64 / (guint64)rate : 0; }

static inline gint64 rate_div(gint64 x, gint64 rate, guint64 m) {
  if (rate == 1) return x;
  guint64 q = (guint64)(((MsU128)(guint64)x * m) >> 64);
  while ((q + 1) * (guint64)rate <= (guint64)x) q++;
  return (gint64)q;
}

/* ---- stage counting --------------------------------------------------------------------- */

/* Insert key; returns TRUE if it was new.  The table is cleared by bumping the stamp; it
 * has at least 32 slots per key so probes rarely collide, and Fibonacci hashing (one
 * multiply, the high bits) spreads strided keys as well as random ones. */
static inline gboolean hset_add(const Engine *e, Counter *c, guint64 key) {
  guint32 h = (guint32)((key * G_GUINT64_CONSTANT(0x9e3779b97f4a7c15)) >> e->hshift);
  for (;;) {
    HSlot *x = c->hslot + h;
    if (x->stamp != c->stamp) {
      x->stamp = c->stamp;
      x->key = key;
      return TRUE;
    }
    if (x->key == key) return FALSE;
    h = (h + 1) & e->hmask;
  }
}

static inline void hset_clear(const Engine *e, Counter *c) {
  (void)e;
  c->stamp++; /* 64 bits: never wraps */
}

/* dmm_port_banks: a global read's port slots, max(m, its bank degree).  Active lanes whose
 * banks are base + lane (mod w, a power of two: a coalesced read, whole or with lanes off, or
 * the GCD's divergent warps, each lane at its own word of a column w words apart), or whose
 * words span fewer than w addresses (several lanes to a word: life-word), lie in distinct
 * banks, degree 1, checked in one vector loop; affine lanes (affine_degree) by their stride;
 * any other goes to dmm_stages. */
MS_VECTOR_CLONES static guint dmm_stages(const Engine *e, Counter *c, const gint64 *a, guint n, guint *active);

/* The bank degree of a warp whose active lanes read a0 + j s (j the lane; a row-wise bulk or
 * GF(2) read, a strided one), without visiting banks: with s != 0 every word is distinct, and
 * lanes j and j' share a bank iff (j - j') s = 0 mod w, that is iff j = j' mod w / gcd(s, w),
 * so the degree is the most active lanes in one class of j mod w / gcd(s, w); with s = 0 every
 * lane reads one word (degree 1).  FALSE (nothing set) when the lanes are not affine, w is not a
 * power of two or n > 64.  j0: the first active lane. */
MS_VECTOR_CLONES
static gboolean affine_degree(const Engine *e, const gint64 *a, guint n, guint j0, guint *deg) {
  if (e->wshift < 0 || n > 64) return FALSE;
  guint j1 = j0 + 1;
  while (j1 < n && a[j1] < 0) j1++;
  if (j1 == n) {
    *deg = 1;
    return TRUE;
  }
  const gint64 d = a[j1] - a[j0], dj = (gint64)(j1 - j0);
  if (d % dj != 0) return FALSE;
  const gint64 s = d / dj, b0 = a[j0] - (gint64)j0 * s;
  gint64 off = 0;
  guint64 act = 0;
  for (guint j = 0; j < n; j++) {
    off |= a[j] >= 0 ? a[j] - b0 - (gint64)j * s : 0;
    act |= (guint64)(a[j] >= 0) << j;
  }
  if (off != 0) return FALSE;
  if (s == 0) {
    *deg = 1;
    return TRUE;
  }
  /* the period of a lane's bank: w / gcd(s mod w, w), w a power of two */
  const guint64 sm = (guint64)s & (e->w - 1);
  const guint period = sm == 0 ? 1 : (guint)(e->w >> __builtin_ctzll(sm));
  guint k = 0;
  if (period == 1) {
    k = (guint)__builtin_popcountll(act);
  } else {
    for (guint r = 0; r < period && r < n; r++) {
      guint x = 0;
      for (guint j = r; j < n; j += period) x += (guint)(act >> j & 1);
      k = MAX(k, x);
    }
  }
  *deg = k;
  return TRUE;
}

MS_VECTOR_CLONES
static guint port_slots(const Engine *e, Counter *c, const gint64 *a, guint n) {
  guint j0 = 0;
  while (j0 < n && a[j0] < 0) j0++;
  if (j0 == n) return 0;
  const gint64 base = a[j0] - (gint64)j0, mask = e->wshift >= 0 ? (gint64)e->w - 1 : -1;
  gint64 off = 0, lo = a[j0], hi = a[j0];
  for (guint j = 0; j < n; j++) { /* branch-free, so that it vectorizes */
    const gint64 neg = a[j] >> 63; /* all ones for an inactive lane */
    off |= (a[j] - (gint64)j - base) & mask & ~neg;
    const gint64 v = (a[j] & ~neg) | (neg & G_MAXINT64);
    lo = v < lo ? v : lo;
    hi = a[j] > hi ? a[j] : hi;
  }
  guint deg = 1, act;
  /* words within w consecutive addresses lie in distinct banks (lanes that share one merge):
   * degree 1, as for banks base + lane */
  if ((off != 0 || n > e->w) && hi - lo >= (gint64)e->w) {
    if (!affine_degree(e, a, n, j0, &deg)) deg = dmm_stages(e, c, a, n, &act);
  }
  return deg; /* the port takes max(dmm_port_banks, deg) at dispatch (kp_slots) */
}

/* UMM: the number of distinct address groups among the active requests. */
static inline guint64 group_of(const Engine *e, gint64 a) {
  return e->gshift >= 0 ? (guint64)a >> e->gshift : (guint64)a / e->model->group_words;
}

static inline guint64 bank_of(const Engine *e, gint64 a) {
  return e->wshift >= 0 ? (guint64)a & (e->w - 1) : (guint64)a % e->w;
}

/* UMM: the number of distinct address groups among the active requests.  The groups of the
 * active lanes are collected in lane order; when they never go down (or never go up), the
 * distinct count is 1 + the changes between neighbours, with no set at all (coalesced,
 * strided and most tiled requests).  Otherwise, with fewer than UMM_LIST changes there are
 * at most UMM_LIST distinct groups and a short list finds them (a divergent warp: GCD lanes
 * at a few word positions); only warps with more changes use the hash set. */
#define UMM_LIST 8u
MS_VECTOR_CLONES
static guint umm_stages(const Engine *e, Counter *c, const gint64 *a, guint n, guint *active) {
  guint64 *g = c->groups;
  guint act = 0, changes = 0;
  gboolean up = TRUE, down = TRUE;
  gint64 neg = 0;
  for (guint j = 0; j < n; j++) neg |= a[j]; /* one vector loop: is any lane inactive (< 0)? */
  if (neg >= 0) {
    /* every lane active (nearly every warp): consecutive addresses are one vector check, after
     * a one-lane test that turns most other warps away at once */
    *active = n;
    if (n == 1) return 1;
    if (a[1] == a[0] + 1) {
      gboolean run = TRUE;
      for (guint j = 2; j < n; j++) run &= a[j] == a[0] + (gint64)j;
      if (run) return (guint)(group_of(e, a[n - 1]) - group_of(e, a[0]) + 1);
    }
    if (n >= 4) {
      /* the first four lanes go both up and down (a scattered warp): neither monotone nor a
       * few runs is likely, so straight to the hash set (every path counts exactly) */
      const guint64 g0 = group_of(e, a[0]), g1 = group_of(e, a[1]), g2 = group_of(e, a[2]),
                    g3 = group_of(e, a[3]);
      if (((g1 > g0) | (g2 > g1) | (g3 > g2)) & ((g1 < g0) | (g2 < g1) | (g3 < g2))) {
        guint k = 0;
        hset_clear(e, c);
        if (e->gshift >= 0) {
          const int s = e->gshift;
          for (guint j = 0; j < n; j++) k += hset_add(e, c, (guint64)a[j] >> s);
        } else {
          for (guint j = 0; j < n; j++) k += hset_add(e, c, group_of(e, a[j]));
        }
        return k;
      }
    }
    /* the groups, then neighbour comparisons with no chain between lanes (vector loops) */
    if (e->gshift >= 0) {
      const int s = e->gshift;
      for (guint j = 0; j < n; j++) g[j] = (guint64)a[j] >> s;
    } else {
      for (guint j = 0; j < n; j++) g[j] = group_of(e, a[j]);
    }
    guint64 upv = 0, downv = 0, ch = 0; /* (64-bit, as the groups: the loop vectorizes whole) */
    for (guint j = 1; j < n; j++) {
      ch += g[j] != g[j - 1];
      upv |= g[j] < g[j - 1];
      downv |= g[j] > g[j - 1];
    }
    changes = (guint)ch;
    act = n;
    up = !upv;
    down = !downv;
  } else {
    /* the active lanes' groups packed (no branch on the lanes: divergent warps mix them),
     * then the neighbour comparisons as above */
    for (guint j = 0; j < n; j++) {
      g[act] = group_of(e, a[j]);
      act += a[j] >= 0;
    }
    *active = act;
    if (act <= 1) return act;
    guint upv = 0, downv = 0;
    for (guint j = 1; j < act; j++) {
      changes += g[j] != g[j - 1];
      upv |= g[j] < g[j - 1];
      downv |= g[j] > g[j - 1];
    }
    up = !upv;
    down = !downv;
  }
  if (up || down) return 1 + changes;
  guint k = 0, j = 0;
  if (changes < UMM_LIST) { /* at most changes + 1 distinct groups: the list holds them */
    guint64 d[UMM_LIST];
    for (; j < act; j++) {
      if (j > 0 && g[j] == g[j - 1]) continue; /* only each run's first lane can be new */
      guint m = 0;
      while (m < k && d[m] != g[j]) m++;
      if (m == k) d[k++] = g[j];
    }
    return k;
  }
  hset_clear(e, c);
  for (; j < act; j++) k += hset_add(e, c, g[j]);
  return k;
}

/* A UMM write under partial_write_stages p: each address group costs 1 stage if the warp
 * writes all of its group_words words, else 1 + p (the GPU reads a sector it writes only in
 * part).  Groups of up to 64 words keep a mask of the words written per distinct group;
 * larger ones put the active addresses in ascending order (insertion sort), made distinct,
 * and scan them group by group. */
MS_VECTOR_CLONES
static guint umm_write_stages(const Engine *e, Counter *c, const gint64 *a, guint n, guint *active, guint p,
                              guint *part) {
  const guint64 gw = e->model->group_words;
  if (n > 1 && a[0] >= 0 && a[1] == a[0] + 1) { /* every lane at consecutive addresses: by formula */
    gboolean run = TRUE;
    for (guint j = 2; j < n; j++) run &= a[j] == a[0] + (gint64)j;
    if (run) {
      *active = n;
      const guint64 lo = (guint64)a[0], end = lo + n; /* words [lo, end) */
      const guint64 g0 = group_of(e, a[0]), g1 = group_of(e, a[n - 1]);
      /* interior groups are whole; the first and the last may be written in part */
      const guint f0 = MIN(end, (g0 + 1) * gw) - MAX(lo, g0 * gw) != gw;
      const guint f1 = g1 > g0 && MIN(end, (g1 + 1) * gw) - MAX(lo, g1 * gw) != gw;
      *part = f0 + f1;
      return (guint)(g1 - g0 + 1) + p * (f0 + f1);
    }
  }
  if (gw <= 64) {
    /* the distinct groups in a short list (a lane nearly always finds its neighbour's), each
     * with the mask of its words written: whole when the mask is full; no sort */
    guint64 *dg = c->groups, *dm = (guint64 *)c->sorted;
    const guint64 full = gw == 64 ? ~G_GUINT64_CONSTANT(0) : (G_GUINT64_CONSTANT(1) << gw) - 1;
    guint u = 0, last = 0, act = 0;
    guint64 gmin = G_MAXUINT64, gmax = 0;
    /* the active lanes' addresses packed first, with no branch on the lanes (a divergent
     * warp mixes them at random, and a branch per lane mispredicts on every other one) */
    gint64 *pk = c->packed;
    for (guint j = 0; j < n; j++) {
      pk[act] = a[j];
      act += a[j] >= 0;
    }
    for (guint j = 0; j < act; j++) {
      const guint64 g = group_of(e, pk[j]), off = (guint64)pk[j] - g * gw;
      if (!u || dg[last] != g) {
        guint m = u;
        if (g <= gmax && g >= gmin) { /* inside the range seen: look for it (a strided warp, */
          m = 0;                      /* ascending or descending, never does) */
          while (m < u && dg[m] != g) m++;
        }
        if (m == u) {
          dg[u] = g;
          dm[u++] = 0;
          gmin = MIN(gmin, g);
          gmax = MAX(gmax, g);
        }
        last = m;
      }
      dm[last] |= G_GUINT64_CONSTANT(1) << off;
    }
    *active = act;
    guint np = 0;
    for (guint m = 0; m < u; m++) np += dm[m] != full;
    *part = np;
    return u + p * np;
  }
  gint64 *s = c->sorted;
  guint act = 0;
  for (guint j = 0; j < n; j++) {
    if (a[j] < 0) continue;
    gint64 x = a[j];
    guint i = act++;
    while (i > 0 && s[i - 1] > x) {
      s[i] = s[i - 1];
      i--;
    }
    s[i] = x;
  }
  *active = act;
  *part = 0;
  if (!act) return 0;
  guint u = 1; /* distinct addresses */
  for (guint j = 1; j < act; j++)
    if (s[j] != s[u - 1]) s[u++] = s[j];
  /* s[0 .. u-1]: distinct, ascending */
  guint k = 0, np = 0;
  for (guint j = 0; j < u;) {
    guint64 g = group_of(e, s[j]);
    guint i = j;
    while (i < u && group_of(e, s[i]) == g) i++;
    np += (guint64)(i - j) != gw;
    k++;
    j = i;
  }
  *part = np;
  return k + p * np;
}

/* DMM: the largest number of distinct addresses in one bank (same-address requests merge). */
MS_VECTOR_CLONES
static guint dmm_stages(const Engine *e, Counter *c, const gint64 *a, guint n, guint *active) {
  guint64 w = e->w;
  guint act = 0;
  gboolean conflict = FALSE;
  if (w <= 64) {
    guint64 mask = 0;
    for (guint j = 0; j < n; j++) {
      if (a[j] < 0) continue;
      act++;
      guint64 bit = G_GUINT64_CONSTANT(1) << bank_of(e, a[j]);
      if (mask & bit) conflict = TRUE;
      mask |= bit;
    }
    *active = act;
    if (!act) return 0;
    if (!conflict) return 1;
    /* lanes that share a bank may all read one word (a broadcast): degree 1 still, without
     * the hash set */
    gint64 first[64];
    guint64 seen = 0;
    gboolean multi = FALSE;
    for (guint j = 0; j < n; j++) {
      if (a[j] < 0) continue;
      const guint b = (guint)bank_of(e, a[j]);
      if (!(seen >> b & 1)) {
        seen |= G_GUINT64_CONSTANT(1) << b;
        first[b] = a[j];
      } else
        multi |= first[b] != a[j];
    }
    if (!multi) return 1;
  } else {
    for (guint j = 0; j < n; j++) act += a[j] >= 0;
    *active = act;
    if (!act) return 0;
  }
  hset_clear(e, c);
  guint k = 0;
  for (guint j = 0; j < n; j++) {
    if (a[j] < 0 || !hset_add(e, c, (guint64)a[j])) continue;
    guint32 x = ++c->bankcnt[bank_of(e, a[j])];
    if (x > k) k = x;
  }
  for (guint j = 0; j < n; j++)
    if (a[j] >= 0) c->bankcnt[bank_of(e, a[j])] = 0;
  return k;
}

/* L2 cache: one access to group g.  Returns the DRAM slots it takes: a read miss 1 (the
 * group comes in clean); a write miss 1 for the line made dirty, plus 1 to fill the group
 * first when the warp writes only part of it; a write hit 1 if it makes a clean group dirty,
 * else 0.  A dirty group's write-back is charged when it becomes dirty, not at its eviction,
 * so that every charge falls on the warp that caused it (docs/models.md, "The L2 cache"). */
static guint l2_access(L2Cache *L, Counter *c, guint64 set, guint64 g, gboolean write, gboolean full) {
  const guint64 line = g / L->q;
  const guint32 bit = 1u << (g % L->q), dirty = bit << 16;
  guint64 *t = L->tag + set * L->ways;
  guint32 *mk = L->mask + set * L->ways;
  guint n = L->cnt[set], x = 0;
  while (x < n && t[x] != line) x++;
  guint32 v;
  guint cost;
  if (x < n && (mk[x] & bit)) { /* the group is held */
    c->l2_hits++;
    v = mk[x];
    cost = write && !(v & dirty);
    if (write) v |= dirty;
  } else {
    c->l2_misses++;
    if (x < n) { /* its line is held, the group not: it comes in, nothing goes */
      v = mk[x] | bit;
    } else {
      if (n < L->ways) L->cnt[set] = (guint8)++n;
      x = n - 1; /* the least recently used line (or the new one) goes */
      v = bit;
    }
    if (write) v |= dirty;
    cost = write ? (full ? 1 : 2) : 1;
  }
  if (x) { /* (most accesses find their line in front: a warp after its neighbour) */
    memmove(t + 1, t, x * sizeof *t);
    memmove(mk + 1, mk, x * sizeof *mk);
  }
  t[0] = line; /* (also where x is 0: the first line of an empty set, or a one-way set's) */
  mk[0] = v;
  return cost;
}

/* Bit 62 of a group entry: the warp writes the whole group (groups are below 2^62). */
#define L2_FULL (G_GUINT64_CONSTANT(1) << 62)
#define L2_LONE (G_GUINT64_CONSTANT(1) << 61)
#define L2_FLAGS (L2_FULL | L2_LONE)

/* DRAM rows: mark | L2_LONE each of a warp's m groups (ascending, those that go to the L2)
 * that is the only one in its DRAM row of e->drow groups. */
static void l2_mark_lone(const Engine *e, guint64 *gs, guint m) {
  if (!e->drow) return;
  for (guint j = 0; j < m; j++) {
    const guint64 row = (gs[j] & ~L2_FLAGS) / e->drow;
    const gboolean lo = j == 0 || (gs[j - 1] & ~L2_FLAGS) / e->drow != row;
    const gboolean hi = j + 1 == m || (gs[j + 1] & ~L2_FLAGS) / e->drow != row;
    if (lo && hi) gs[j] |= L2_LONE;
  }
}

/* What an access's `cost` DRAM slots take of the DRAM: the slots themselves, or with DRAM
 * rows their units (a lone group's at the lone rate); c counts the slots. */
static inline guint l2_units(const Engine *e, Counter *c, guint cost, guint64 gflags, gboolean write) {
  c->dram_slots += cost;
  if (!e->drow) return cost;
  if (gflags & L2_LONE) {
    c->dram_lone += cost;
    return cost * (write ? e->dlonew : e->dlone);
  }
  return cost * e->dunit;
}

/* L2 cache: a warp's global request as its distinct groups in ascending order, into out
 * (w entries), each | L2_FULL when the warp covers all of the group's words.  Returns the
 * number of groups. */
MS_VECTOR_CLONES
static guint l2_groups(const Engine *e, Counter *c, const gint64 *a, guint n, guint64 *out) {
  const guint64 gw = e->model->group_words;
  /* the common case first: every lane active at consecutive addresses; on the way, whether
   * every lane is active (neg) and the addresses never go down (dec) */
  guint64 off = 0, dec = 0; /* (64-bit accumulators of the steps: the loop vectorizes) */
  gint64 neg = a[0];
  for (guint j = 1; j < n; j++) {
    const guint64 d = (guint64)(a[j] - a[j - 1]); /* addresses >= -1: no overflow */
    off |= d ^ 1;
    neg |= a[j];
    dec |= d >> 63;
  }
  const gboolean run = a[0] >= 0 && !off;
  guint m = 0;
  if (run) {
    const guint64 lo = (guint64)a[0], hi = lo + n; /* words lo .. hi-1 */
    for (guint64 g = group_of(e, a[0]); g <= group_of(e, a[n - 1]); g++) {
      const guint64 from = MAX(lo, g * gw), to = MIN(hi, (g + 1) * gw);
      out[m++] = g | (to - from == gw ? L2_FULL : 0);
    }
    return m;
  }
  if (neg >= 0 && !dec) {
    /* every lane active, never going down, within two groups (several lanes to a word, as
     * byte-per-thread kernels make): each group's distinct words counted in one vector loop,
     * a lane being a new word where it differs from the lane before */
    const guint64 g0 = group_of(e, a[0]), gl = group_of(e, a[n - 1]);
    if (gl - g0 <= 1 && g0 < G_MAXUINT64 / (2 * gw)) {
      const gint64 lim = (gint64)((g0 + 1) * gw); /* group g0's words are below lim */
      guint64 d0 = 1, d1 = 0;                     /* lane 0: a word of g0 */
      for (guint j = 1; j < n; j++) {
        const guint64 f = a[j] != a[j - 1], lo = a[j] < lim;
        d0 += f & lo;
        d1 += f & (lo ^ 1);
      }
      out[0] = g0 | (d0 == gw ? L2_FULL : 0);
      if (gl == g0) return 1;
      out[1] = gl | (d1 == gw ? L2_FULL : 0);
      return 2;
    }
  }
  /* the active lanes' addresses packed first, with no branch on the lanes (a divergent warp
   * mixes them at random); non-decreasing (a divergent coalesced warp, several lanes to a
   * word as byte-per-thread kernels make): the groups in one pass, no sort */
  gint64 *pk = c->packed;
  guint act = 0;
  for (guint j = 0; j < n; j++) {
    pk[act] = a[j];
    act += a[j] >= 0;
  }
  if (!act) return 0;
  gboolean sorted = TRUE;
  for (guint j = 1; j < act; j++) sorted &= pk[j] >= pk[j - 1];
  if (sorted) {
    guint64 g = group_of(e, pk[0]), cnt = 1;
    for (guint j = 1; j < act; j++) {
      if (pk[j] == pk[j - 1]) continue;
      const guint64 gx = group_of(e, pk[j]);
      if (gx != g) {
        out[m++] = g | (cnt == gw ? L2_FULL : 0);
        g = gx;
        cnt = 0;
      }
      cnt++;
    }
    out[m++] = g | (cnt == gw ? L2_FULL : 0);
    return m;
  }
  gint64 *s = c->sorted;
  for (guint j = 0; j < act; j++) {
    gint64 x = pk[j];
    guint i = j;
    while (i > 0 && s[i - 1] > x) {
      s[i] = s[i - 1];
      i--;
    }
    s[i] = x;
  }
  guint u = 1;
  for (guint j = 1; j < act; j++)
    if (s[j] != s[u - 1]) s[u++] = s[j];
  for (guint j = 0; j < u;) {
    guint64 g = group_of(e, s[j]);
    guint i = j;
    while (i < u && group_of(e, s[i]) == g) i++;
    out[m++] = g | ((guint64)(i - j) == gw ? L2_FULL : 0);
    j = i;
  }
  return m;
}

/* The cache set of group g for warp `warp`: its block's partition, then g mod sets. */
static inline guint64 l2_part_base(const Engine *e, guint64 warp) {
  const L2Cache *L = e->l2c;
  return ((warp / e->wpb) % L->parts) * L->sets;
}

/* The same with the partition's first set already known (one per warp). */
static inline guint64 l2_set_in(const L2Cache *L, guint64 base, guint64 g) {
  const guint64 line = L->qshift >= 0 ? g >> L->qshift : g / L->q;
  if (L->hashed) return base + ms_l2_hash(line) % L->sets;
  if (line >> 62) return base + line % L->sets;
  return base + line - (guint64)rate_div((gint64)line, (gint64)L->sets, L->smag) * L->sets;
}

static inline guint64 l2_set_of(const Engine *e, guint64 warp, guint64 g) {
  return l2_set_in(e->l2c, l2_part_base(e, warp), g);
}

/* Home partitions (l2_home_partitions): group g's access from the partition of `set` (its set
 * there).  Line x's home is floor(h / sets) mod P, h = ms_l2_hash(x) (x without hashed sets),
 * the bits above those that chose its set; its set is the same in every partition.  A write
 * and a read from the home partition go to the home set; a read from another partition looks
 * in its own set, and on a miss there takes the group from the home set (a hit there, no DRAM)
 * or from DRAM into both: the group is held twice.  Counted as one hit or one miss. */
static guint l2_home_access(L2Cache *L, Counter *c, guint64 set, guint64 g, gboolean write, gboolean full) {
  const guint64 line = L->qshift >= 0 ? g >> L->qshift : g / L->q;
  const guint64 h = L->hashed ? ms_l2_hash(line) : line;
  const guint64 idx = set % L->sets, hp = h / L->sets % L->parts;
  const guint64 home = hp * L->sets + idx;
  if (write || home == set) return l2_access(L, c, home, g, write, full);
  const guint64 h0 = c->l2_hits;
  (void)l2_access(L, c, set, g, FALSE, full); /* the near copy */
  if (c->l2_hits > h0) return 0;
  c->l2_misses--; /* counted at the home set */
  return l2_access(L, c, home, g, FALSE, full);
}

static inline guint l2_access_any(L2Cache *L, Counter *c, guint64 set, guint64 g, gboolean write, gboolean full) {
  return L->home ? l2_home_access(L, c, set, g, write, full) : l2_access(L, c, set, g, write, full);
}

/* L2 cache: warp `warp`'s global request through the cache, on one thread.  Returns its
 * DRAM slots. */
static guint l2_warp(const Engine *e, Counter *c, guint64 warp, const gint64 *a, guint n, gboolean write) {
  guint64 *gs = c->groups;
  const guint m = l2_groups(e, c, a, n, gs);
  l2_mark_lone(e, gs, m);
  guint kd = 0;
  for (guint j = 0; j < m; j++) {
    const guint64 g = gs[j] & ~L2_FLAGS;
    kd += l2_units(e, c, l2_access_any(e->l2c, c, l2_set_of(e, warp, g), g, write, (gs[j] & L2_FULL) != 0), gs[j], write);
  }
  return kd;
}

/* L1: warp `warp`'s global request through its block's share.  A read's groups that are held
 * hit: their lanes become inactive (-1) in a, so they take no stage and go to no L2; the
 * others come in.  A write's groups all come in (write-through, allocate).  Returns the
 * groups that hit as a mask (kh); 0 with c->error when a group is beyond the 2^32 - 2 the
 * tags hold.  The set of group g is h(g) S / 2^64 (h: ms_l2_hash; S: sets). */
static guint32 l1_warp(const Engine *e, Counter *c, guint64 warp, gint64 *a, guint n, gboolean write) {
  L1Cache *L = e->l1c;
  const guint64 b = warp / e->wpb;
  if (!L->tag[b]) L->tag[b] = g_new0(guint32, L->sets * L->ways);
  guint32 *tb = L->tag[b];
  guint64 *gs = c->groups;
  guint32 *hit_of = c->bankcnt; /* scratch, all 0 outside dmm_stages: 1 for a group that hit */
  const guint m = l2_groups(e, c, a, n, gs);
  guint32 mask = 0;
  for (guint j = 0; j < m; j++) {
    const guint64 g = gs[j] & ~L2_FULL;
    if (g >= G_MAXUINT32) {
      if (!c->error)
        g_set_error(&c->error, MS_ERROR, MS_ERROR_LIMIT,
                    "%s: l1_words: address group %" G_GUINT64_FORMAT " is beyond the 2^32 - 2 groups the L1 model tracks",
                    ms_source_name(e->src), g);
      for (guint i = 0; i < j; i++) hit_of[i] = 0;
      return 0;
    }
    gs[j] = g;
    guint32 *t = tb + (guint64)(((unsigned __int128)ms_l2_hash(g) * L->sets) >> 64) * L->ways;
    const guint32 key = (guint32)g + 1;
    guint x = 0;
    while (x < L->ways && t[x] && t[x] != key) x++;
    const gboolean hit = x < L->ways && t[x] == key;
    if (!write) {
      if (hit) {
        c->l1_hits++;
        hit_of[j] = 1;
        mask |= j < 31 ? 1u << j : 1u << 31;
      } else {
        c->l1_misses++;
      }
    }
    if (x == L->ways) x = L->ways - 1; /* full and not held: the least recently used goes */
    memmove(t + 1, t, x * sizeof *t);
    t[0] = key;
  }
  if (mask) { /* the hit groups' lanes take no stage */
    for (guint i = 0; i < n; i++) {
      if (a[i] < 0) continue;
      const guint64 g = group_of(e, a[i]);
      guint lo = 0, hi = m; /* gs is ascending */
      while (hi - lo > 1) {
        guint mid = (lo + hi) / 2;
        if (gs[mid] <= g) lo = mid;
        else hi = mid;
      }
      if (hit_of[lo]) a[i] = -1;
    }
    for (guint j = 0; j < m; j++) hit_of[j] = 0;
  }
  return mask;
}

static void l1_clear(Engine *e) {
  L1Cache *L = e->l1c;
  for (guint64 b = 0; b < L->blocks; b++) g_clear_pointer(&L->tag[b], g_free);
}

/* ---- the step window ---------------------------------------------------------------------- */

static inline StepRec *win_get(Engine *e, guint64 s) { return e->ring[s & (e->cap - 1)]; }

static void win_push(Engine *e, StepRec *r) {
  if (e->count == e->cap) {
    guint64 ncap = e->cap * 2;
    StepRec **nr = g_new0(StepRec *, ncap);
    for (guint64 s = e->head; s < e->head + e->count; s++) nr[s & (ncap - 1)] = win_get(e, s);
    g_free(e->ring);
    e->ring = nr;
    e->cap = ncap;
  }
  e->ring[(e->head + e->count) & (e->cap - 1)] = r;
  e->count++;
}

/* Stage count of warp j in step r. */
static inline guint16 kof(const StepRec *r, guint64 j) { return j >= r->klo && j < r->khi ? r->k[j - r->klo] : 0; }
static inline guint32 khof(const StepRec *r, guint64 j) {
  return r->kh && j >= r->klo && j < r->khi ? r->kh[j - r->klo] : 0;
}
static inline guint16 kpof(const StepRec *r, guint64 j) {
  return r->kp && j >= r->klo && j < r->khi ? r->kp[j - r->klo] : 0;
}

/* dmm_port_banks: a global read's port slots, max(dmm_port_banks, its bank degree kpof) */
static inline gint64 kp_slots(const Engine *e, guint16 deg) {
  return MAX((gint64)e->model->dmm_port_banks, (gint64)deg);
}
static inline guint16 kwof(const StepRec *r, guint64 j) {
  return r->kw && j >= r->klo && j < r->khi ? r->kw[j - r->klo] : 0;
}
static inline guint16 kdof(const StepRec *r, guint64 j) {
  return r->kd && j >= r->klo && j < r->khi ? r->kd[j - r->klo] : 0;
}

/* The k arrays are kept only for a step's active warps (a kernel over few warps in a trace
 * of many holds a window of many steps), and recycled: a pool entry starts with its size. */
static guint16 *k_take(Engine *e, guint64 n) {
  g_mutex_lock(&e->kpool_lock);
  guint64 *buf = e->kpool->len ? g_ptr_array_steal_index_fast(e->kpool, e->kpool->len - 1) : NULL;
  g_mutex_unlock(&e->kpool_lock);
  if (buf && buf[0] < n) {
    ms_mem_free(buf);
    buf = NULL;
  }
  if (!buf) {
    buf = ms_mem_new0(sizeof(guint64) + MAX(n, 1) * sizeof(guint16));
    buf[0] = MAX(n, 1);
  }
  return (guint16 *)(buf + 1);
}

/* The warps that jumped over step r (a run's, a kernel span's). */
static inline guint64 jumps_of(const StepRec *r) {
  return (r->run ? r->run->jumped : 0) + (r->kspan ? r->kspan->jumped : 0);
}
static inline guint64 rem_of(const StepRec *r) { return r->remaining - jumps_of(r); }

static void run_free(Run *u) {
  g_free(u->any);
  g_free(u);
}

static void run_close(Engine *e) {
  Run *u = e->cur_run;
  if (!u) return;
  u->closed = TRUE;
  e->cur_run = NULL;
  if (u->refs == 0) run_free(u);
}

static void kspan_free(KSpan *u) {
  g_free(u->any);
  g_free(u);
}

static void kspan_close(Engine *e, guint64 end) {
  KSpan *u = e->cur_kspan;
  if (!u) return;
  u->closed = TRUE;
  u->end = end;
  e->cur_kspan = NULL;
  if (u->refs == 0) kspan_free(u);
}

static void rec_free(Engine *e, StepRec *r) {
  if (r->run && --r->run->refs == 0 && r->run != e->cur_run) run_free(r->run);
  if (r->kspan && --r->kspan->refs == 0 && r->kspan != e->cur_kspan) kspan_free(r->kspan);
  if (r->k || r->kd || r->kp || r->kw) {
    g_mutex_lock(&e->kpool_lock);
    if (r->k) g_ptr_array_add(e->kpool, (guint64 *)(void *)r->k - 1);
    if (r->kd) g_ptr_array_add(e->kpool, (guint64 *)(void *)r->kd - 1);
    if (r->kp) g_ptr_array_add(e->kpool, (guint64 *)(void *)r->kp - 1);
    if (r->kw) g_ptr_array_add(e->kpool, (guint64 *)(void *)r->kw - 1);
    g_mutex_unlock(&e->kpool_lock);
  }
  g_free(r->kh);
  g_free(r->fl);
  g_free(r->foff);
  g_free(r->block_arrived);
  g_free(r->block_release);
  g_free(r);
}

static void win_pop_done(Engine *e) {
  while (e->count > 0) {
    StepRec *r = win_get(e, e->head);
    if (rem_of(r) > 0) break;
    KOut *k = e->krec;
    if (k && k->sres && r->res.index >= k->first && r->res.index < k->close) { /* recording: its times */
      gint64 *x = k->sres + 2 * (r->res.index - k->first);
      x[0] = r->res.first_dispatch >= 0 ? r->res.first_dispatch - k->t0 : -1;
      x[1] = r->res.last_complete >= 0 ? r->res.last_complete - k->t0 : -1;
    }
    if (e->opt->per_step) g_array_append_val(e->result->per_step, r->res);
    rec_free(e, r);
    e->ring[e->head & (e->cap - 1)] = NULL;
    e->head++;
    e->count--;
  }
}

static inline guint pipe_of(const Engine *e, guint64 warp, MsSpace space) {
  if (!e->hmm) return 0;
  if (space == MS_SPACE_GLOBAL) return e->P - 1;
  if (e->dyn) return (guint)e->block_dmm[warp / e->wpb];
  return (guint)((warp / e->wpb) % e->model->dmms);
}

/* The DMM of the first wave (block b on DMM b mod d): round_sum's per-DMM stage sums. */
static inline guint static_dmm(const Engine *e, guint64 warp) {
  return (guint)((warp / e->wpb) % e->model->dmms);
}

static inline gboolean dyn_pipe(const Engine *e, guint p) { return e->dyn && p != e->P - 1; }

/* Steps with at least this many warps are counted by all workers. */
#define PAR_MIN_WARPS 2048u

/* The parallel cache pass: chunks of warps per worker in one batch. */
#define L2_BATCH_CHUNKS 8u

/* A shuffle step: 1 for a warp with an active lane (it takes part), else 0; no stage. */
static inline guint shuffle_warp(const gint64 *a, guint n, guint *active) {
  guint act = 0;
  for (guint i = 0; i < n; i++) act += a[i] >= 0;
  *active = act;
  return act ? 1 : 0;
}

/* A compute step: the largest instruction count of the warp's active lanes (0: none
 * active); a count outside 1 .. MS_MAX_INSTRUCTIONS is an error (c->error). */
static guint compute_warp(const Engine *e, Counter *c, const StepRec *r, const gint64 *a, guint n, guint64 first,
                          guint *active) {
  guint act = 0;
  gint64 mx = 0;
  for (guint i = 0; i < n; i++) {
    if (a[i] < 0) continue;
    act++;
    if (G_UNLIKELY(a[i] == 0 || a[i] > MS_MAX_INSTRUCTIONS)) {
      g_set_error(&c->error, MS_ERROR, MS_ERROR_INVALID,
                  "%s: step %" G_GUINT64_FORMAT ": thread %" G_GUINT64_FORMAT ": instructions %" G_GINT64_FORMAT
                  " is out of range [1, %d]",
                  ms_source_name(e->src), r->res.index, first + i, a[i], MS_MAX_INSTRUCTIONS);
      *active = 0;
      return 0;
    }
    mx = MAX(mx, a[i]);
  }
  *active = act;
  return (guint)mx;
}

/* Fill and count warps c->wfrom .. c->wto - 1 of step r into r->k and c's sums.  `worker`:
 * through the source's fill_worker (several threads at once), else fill(). */
static void count_range(const Engine *e, Counter *c, StepRec *r, gboolean dmm_rule, gboolean shared_hmm,
                        guint pw, gboolean worker) {
  c->stages = c->disp = c->req = 0;
  if (shared_hmm) memset(c->dmm_stages, 0, sizeof(guint64) * e->model->dmms);
  const guint64 end = MIN(e->p, c->wto * e->w);
  const guint wid = (guint)(c - e->ctr);
  /* L1: a global step's warps look in their block's share first (one thread, in order) */
  const gboolean l1 = e->l1c && r->step.op != MS_OP_SHUFFLE && r->step.op != MS_OP_COMPUTE &&
                      r->step.op != MS_OP_AWAIT && !dmm_rule;
  const gboolean write = r->step.op == MS_OP_WRITE;
  const gboolean active_only = r->step.op == MS_OP_SHUFFLE || r->step.op == MS_OP_AWAIT; /* warps with a thread */
  const gboolean comp = r->step.op == MS_OP_COMPUTE;
  for (guint64 first = c->wfrom * e->w; first < end; first += e->chunk) {
    guint64 cnt = MIN(e->chunk, end - first);
    gboolean ok = worker ? ms_source_fill_worker(e->src, wid, first, cnt, c->addr, &c->error)
                         : ms_source_fill(e->src, first, cnt, c->addr, &c->error);
    if (!ok) return;
    if (e->saddr_on) memcpy(e->saddr + (first - e->saddr_lo), c->addr, cnt * sizeof *c->addr);
    guint64 w0 = first / e->w;
    for (guint64 off = 0; off < cnt; off += e->w) {
      guint n = (guint)MIN((guint64)e->w, cnt - off);
      guint act, act0 = 0;
      guint32 hit = 0;
      guint kp = 0;
      if (r->kp) /* dmm_port_banks: the L1 data pipe's wavefronts, the bank degree of every
                  * active lane (before the L1 takes its hits out) */
        kp = port_slots(e, c, c->addr + off, n);
      if (l1) {
        for (guint i = 0; i < n; i++) act0 += c->addr[off + i] >= 0;
        hit = l1_warp(e, c, w0 + off / e->w, c->addr + off, n, write);
        if (c->error) return;
      }
      guint part = 0;
      guint k = active_only ? shuffle_warp(c->addr + off, n, &act)
                : comp        ? compute_warp(e, c, r, c->addr + off, n, first + off, &act)
                : dmm_rule                    ? dmm_stages(e, c, c->addr + off, n, &act)
                : pw || r->kw               ? umm_write_stages(e, c, c->addr + off, n, &act, pw, &part)
                                            : umm_stages(e, c, c->addr + off, n, &act);
      if (G_UNLIKELY(c->error)) return;
      guint64 warp = w0 + off / e->w;
      r->k[warp - r->klo] = (guint16)k;
      if (r->kw) r->kw[warp - r->klo] = (guint16)part;
      if (r->kd && !e->l2_refill) r->kd[warp - r->klo] = (guint16)l2_warp(e, c, warp, c->addr + off, n, r->step.op == MS_OP_WRITE);
      if (r->kh) r->kh[warp - r->klo] = hit;
      if (r->kp) r->kp[warp - r->klo] = (guint16)(k || hit ? kp : 0);
      if (k) {
        c->stages += k;
        c->disp++;
        c->req += l1 ? act0 : act;
        if (shared_hmm) c->dmm_stages[static_dmm(e, warp)] += k;
      } else if (hit) { /* every group hit: requests, no stage, no dispatch */
        c->req += act0;
      }
    }
  }
}

/* Stage counts of the w-lane warps in a[0 .. n) (n a multiple of w) into k[], with c's sums.
 * A compute step (r's op): instruction counts of threads first .. first + n - 1; stops at
 * the first count out of range (c->error). */
static void count_warps(const Engine *e, Counter *c, const StepRec *r, guint64 first, const gint64 *a, guint64 n,
                        guint16 *k, guint16 *kw, gboolean dmm_rule, guint pw, guint64 *stages, guint64 *disp,
                        guint64 *req) {
  const gboolean comp = r->step.op == MS_OP_COMPUTE;
  for (guint64 off = 0; off < n; off += e->w) {
    guint act, part = 0;
    guint kk = comp       ? compute_warp(e, c, r, a + off, e->w, first + off, &act)
               : dmm_rule ? dmm_stages(e, c, a + off, e->w, &act)
               : pw || kw ? umm_write_stages(e, c, a + off, e->w, &act, pw, &part)
                          : umm_stages(e, c, a + off, e->w, &act);
    if (G_UNLIKELY(c->error)) return;
    k[off / e->w] = (guint16)kk;
    if (kw) kw[off / e->w] = (guint16)part;
    if (kk) {
      *stages += kk;
      (*disp)++;
      *req += act;
    }
  }
}

/* Repeated blocks (docs/performance.md).  A warp's stage count does not change when all its
 * addresses move by the same amount s, as long as the bank of each moves alike (DMM: banks
 * are addresses mod w, a shift permutes them) or the group boundaries do (UMM: s a multiple
 * of group_words, also for partial writes, whose groups move whole).  So when the source
 * says a step's blocks are one block's addresses shifted (block_shift), the first block with
 * an active lane is filled and counted, and every other costs a lookup by its shift class:
 * s mod group_words (UMM) or none (DMM), computed once per class from the reference's
 * addresses.  A compute step's blocks repeat only unshifted (s = 0: the same instruction
 * counts).  Until the reference is found, the source is asked which blocks are idle
 * (MS_BLOCK_NO_LANE), so that they are not filled as candidates.  Blocks the source does
 * not vouch for are filled as usual, in order, so the first error is still the lowest
 * thread's.  Runs on the engine's thread, into ctr[0].  With the cache pass to follow
 * (e->bkstep), each block's kind and shift go to e->bk and e->bks for it. */
static void count_blocks(Engine *e, StepRec *r, gboolean dmm_rule, gboolean shared_hmm, guint pw, guint64 wlo,
                         guint64 whi) {
  Counter *c = &e->ctr[0];
  guint64 stages = 0, disp = 0, req = 0;
  if (shared_hmm) memset(c->dmm_stages, 0, sizeof(guint64) * e->model->dmms);
  const guint64 wpb = e->wpb, bt = wpb * e->w, g = e->model->group_words;
  const gboolean comp = r->step.op == MS_OP_COMPUTE;
  gboolean have_ref = FALSE;
  guint64 lane = 0, refw = 0; /* refw: the reference block's first warp (its kp, if any) */
  gint64 ref_at = 0, rmin = 0, rmax = 0;
  e->nent = 0;
  guint64 bb0 = 0, bbn = 0; /* the batch of blocks whose kinds are in e->bkind */
  gboolean bb_ref = FALSE;  /* asked with the reference's lane (else MS_BLOCK_NO_LANE) */
  guint64 nolane_n = 64;    /* the next batch size without a lane: grows, as the reference
                             * is usually found at once */
  const guint64 bfirst = wlo / wpb, bend = (whi + wpb - 1) / wpb;
  gint64 lo = 0, hi = 0;
  guint8 *bk = e->bkstep ? e->bk : NULL;
  if (bk) {
    e->bk_b0 = bfirst;
    e->bk_n = bend - bfirst;
  }
  for (guint64 b = bfirst; b < bend; b++) {
    const guint64 wa = MAX(b * wpb, wlo), wb = MIN((b + 1) * wpb, whi);
    const gboolean full = wa == b * wpb && wb == (b + 1) * wpb && (b + 1) * bt <= e->p;
    MsBlockKind kind = MS_BLOCK_FILL;
    gint64 at = 0, s = 0;
    if (bk) bk[b - bfirst] = MS_BLOCK_FILL;
    if (full) {
      if (b >= bb0 + bbn || bb_ref != have_ref) {
        bb0 = b;
        bbn = MIN(have_ref ? (guint64)MS_BLOCK_BATCH : nolane_n, bend - b);
        if (!have_ref) nolane_n = MIN(nolane_n * 4, (guint64)MS_BLOCK_BATCH);
        bb_ref = have_ref;
        ms_source_block_shift(e->src, bb0, bbn, have_ref ? lane : MS_BLOCK_NO_LANE, e->bkind, e->bat, &lo, &hi);
      }
      kind = (MsBlockKind)e->bkind[b - bb0];
      at = e->bat[b - bb0];
      if (kind == MS_BLOCK_IDLE) {
        if (bk) bk[b - bfirst] = MS_BLOCK_IDLE;
        continue;
      }
      if (!have_ref) kind = MS_BLOCK_FILL; /* no lane: IDLE or FILL only */
      /* the shifted block must pass the source's bounds, else fill() reports its error; a
       * compute step's must be the reference's counts */
      gint64 mn, mx;
      if (kind == MS_BLOCK_SHIFTED &&
          (__builtin_sub_overflow(at, ref_at, &s) || __builtin_add_overflow(rmin, s, &mn) ||
           __builtin_add_overflow(rmax, s, &mx) || mn < lo || mx > hi || (comp && s != 0)))
        kind = MS_BLOCK_FILL;
    }
    guint64 bst = 0, bdisp = 0, breq = 0;
    const guint16 *kk = NULL;
    if (kind == MS_BLOCK_SHIFTED) {
      const gint64 key = dmm_rule || comp ? 0 : (gint64)(((s % (gint64)g) + (gint64)g) % (gint64)g);
      guint x = 0;
      while (x < e->nent && e->ent_key[x] != key) x++;
      if (x == e->nent) { /* a new class: count the reference's addresses moved by s */
        if (x == REP_CLASSES) x = REP_CLASSES - 1; /* full: the last slot is recomputed */
        else e->nent++;
        for (guint64 i = 0; i < bt; i++) c->addr[i] = e->refaddr[i] < 0 ? MS_ADDR_NONE : e->refaddr[i] + s;
        e->ent_key[x] = key;
        e->ent_stages[x] = e->ent_disp[x] = e->ent_req[x] = 0;
        count_warps(e, c, r, b * bt, c->addr, bt, e->ent_k + x * wpb, r->kw ? e->ent_kw + x * wpb : NULL, dmm_rule,
                    pw, &e->ent_stages[x], &e->ent_disp[x], &e->ent_req[x]);
        if (c->error) return; /* cannot happen: the reference's counts passed */
      }
      e->result->repeated_blocks++;
      kk = e->ent_k + x * wpb;
      bst = e->ent_stages[x];
      bdisp = e->ent_disp[x];
      breq = e->ent_req[x];
      memcpy(r->k + (wa - r->klo), kk, wpb * sizeof(guint16));
      if (r->kw) memcpy(r->kw + (wa - r->klo), e->ent_kw + x * wpb, wpb * sizeof(guint16));
      /* dmm_port_banks: a shift permutes the banks, so the bank degrees are the reference's */
      if (r->kp) memcpy(r->kp + (wa - r->klo), r->kp + (refw - r->klo), wpb * sizeof(guint16));
      if (bk) {
        bk[b - bfirst] = MS_BLOCK_SHIFTED;
        e->bks[b - bfirst] = s;
      }
    } else if (full && !have_ref) {
      /* a candidate reference: filled whole, and kept if it has an active lane the source
       * vouches for */
      if (!ms_source_fill(e->src, b * bt, bt, e->refaddr, &c->error)) return;
      count_warps(e, c, r, b * bt, e->refaddr, bt, r->k + (wa - r->klo), r->kw ? r->kw + (wa - r->klo) : NULL, dmm_rule,
                  pw, &bst, &bdisp, &breq);
      if (c->error) return;
      if (r->kp)
        for (guint64 v = 0; v < wpb; v++)
          if (r->k[wa - r->klo + v]) r->kp[wa - r->klo + v] = (guint16)port_slots(e, c, e->refaddr + v * e->w, (guint)e->w);
      guint64 l = 0;
      while (l < bt && e->refaddr[l] < 0) l++;
      guint8 k1 = MS_BLOCK_FILL;
      if (l < bt) ms_source_block_shift(e->src, b, 1, l, &k1, &at, &lo, &hi);
      if (k1 == MS_BLOCK_SHIFTED && at == e->refaddr[l]) {
        have_ref = TRUE;
        lane = l;
        refw = wa;
        ref_at = at;
        rmin = G_MAXINT64;
        rmax = G_MININT64;
        for (guint64 i = 0; i < bt; i++)
          if (e->refaddr[i] >= 0) {
            rmin = MIN(rmin, e->refaddr[i]);
            rmax = MAX(rmax, e->refaddr[i]);
          }
        if (bk) { /* its addresses are the reference's */
          bk[b - bfirst] = MS_BLOCK_SHIFTED;
          e->bks[b - bfirst] = 0;
        }
      }
    } else {
      c->wfrom = wa;
      c->wto = wb;
      count_range(e, c, r, dmm_rule, FALSE, pw, FALSE);
      if (c->error) return;
      bst = c->stages;
      bdisp = c->disp;
      breq = c->req;
    }
    stages += bst;
    disp += bdisp;
    req += breq;
    if (shared_hmm) c->dmm_stages[static_dmm(e, wa)] += bst;
  }
  c->stages = stages;
  c->disp = disp;
  c->req = req;
}

/* The cache pass: where warp v's addresses come from.  A warp with no stage has no active
 * lane (a UMM step's count is at least 1 for one; not so under L1, whose hits are taken
 * out), so no group; a warp of a block that count_blocks found repeated has the reference
 * block's addresses moved by the block's shift (*s); any other is filled again. */
enum { L2_SRC_NONE, L2_SRC_REF, L2_SRC_FILL };
static inline int l2_src(const Engine *e, const StepRec *r, guint64 v, gint64 *s) {
  if (!e->l1c && r->k[v - r->klo] == 0) return L2_SRC_NONE;
  if (e->bk_valid) {
    const guint64 b = v / e->wpb - e->bk_b0;
    if (b < e->bk_n && e->bk[b] == MS_BLOCK_SHIFTED) {
      *s = e->bks[b];
      return L2_SRC_REF;
    }
  }
  return L2_SRC_FILL;
}

/* Parallel cache pass, phase 1 (worker i, warps ctr[i].wfrom .. wto - 1 of the batch): fill
 * the warps again (l2_src), turn each into its groups and their sets, and sort them stably
 * by the worker that owns the set (set mod workers) into ctr[i].l2s. */
static void l2_groups_share(Engine *e, guint i) {
  Counter *c = &e->ctr[i];
  const StepRec *r = e->l2_rec;
  const guint64 w = e->w, n = e->nctr, cw = MAX(G_GUINT64_CONSTANT(1), e->chunk / w);
  memset(c->l2off, 0, (n + 1) * sizeof *c->l2off);
  for (guint64 v = c->wfrom; v < c->wto;) {
    gint64 sh = 0;
    const int src = l2_src(e, r, v, &sh);
    if (src == L2_SRC_NONE) {
      e->l2cnt[v - e->l2_w0] = 0;
      v++;
      continue;
    }
    guint64 vend = v + 1; /* warps v .. vend - 1, their addresses in c->addr */
    if (src == L2_SRC_REF) {
      const gint64 *ra = e->refaddr + (v % e->wpb) * w;
      for (guint64 j = 0; j < w; j++) c->addr[j] = ra[j] < 0 ? MS_ADDR_NONE : ra[j] + sh;
    } else {
      gint64 s2;
      while (vend < c->wto && vend - v < cw && l2_src(e, r, vend, &s2) == L2_SRC_FILL) vend++;
      const guint64 first = v * w, cnt = MIN(e->p, vend * w) - first;
      if (e->saddr_on) memcpy(c->addr, e->saddr + (first - e->saddr_lo), cnt * sizeof *c->addr);
      else if (!ms_source_fill_worker(e->src, i, first, cnt, c->addr, &c->error)) return;
    }
    for (guint64 warp = v; warp < vend; warp++) {
      const guint64 off = (warp - v) * w, k0 = (warp - e->l2_w0) * w;
      guint m = l2_groups(e, c, c->addr + off, (guint)MIN(w, e->p - warp * w), e->l2ent + k0);
      const guint32 hm = khof(e->l2_rec, warp);
      if (hm) { /* L1: the groups that hit go to no L2 (w <= 32: one bit each) */
        guint u = 0;
        for (guint j = 0; j < m; j++)
          if (!(hm & (1u << j))) e->l2ent[k0 + u++] = e->l2ent[k0 + j];
        m = u;
      }
      l2_mark_lone(e, e->l2ent + k0, m);
      e->l2cnt[warp - e->l2_w0] = (guint16)m;
      const guint64 pbase = l2_part_base(e, warp);
      for (guint j = 0; j < m; j++) {
        const guint64 gs = l2_set_in(e->l2c, pbase, e->l2ent[k0 + j] & ~L2_FLAGS);
        e->l2set[k0 + j] = gs;
        /* one worker per set index: with home partitions a read may touch its set in two
         * partitions, which must be the same worker's */
        e->l2own[k0 + j] = (guint8)((e->l2c->home ? gs % e->l2c->sets : gs) % n);
        c->l2off[e->l2own[k0 + j] + 1]++;
      }
    }
    v = vend;
  }
  for (guint o = 0; o < n; o++) c->l2off[o + 1] += c->l2off[o];
  guint32 *at = c->l2off + n + 1; /* scratch: the next free place per owner */
  memcpy(at, c->l2off, n * sizeof *at);
  for (guint64 v = c->wfrom - e->l2_w0; v < c->wto - e->l2_w0; v++)
    for (guint j = 0; j < e->l2cnt[v]; j++) {
      const guint64 k = v * w + j;
      c->l2s[at[e->l2own[k]]++] = (L2Ent){e->l2set[k], e->l2ent[k], (guint32)v};
    }
}

/* Phase 2 (worker o): the accesses of o's sets, share after share (warps ascending), through
 * the cache: each set sees its accesses in the order of one thread. */
static void l2_access_share(Engine *e, guint o) {
  Counter *c = &e->ctr[o];
  const L2Cache *L = e->l2c;
  memset(c->l2kd, 0, e->l2_nw * sizeof *c->l2kd);
  for (guint i = 0; i < e->nctr; i++) {
    const Counter *s = &e->ctr[i];
    const guint32 kend = s->l2off[o + 1];
    for (guint32 k = s->l2off[o]; k < kend; k++) {
      if (k + 8 < kend) { /* the set 8 accesses ahead: the tag array is far larger than the caches */
        __builtin_prefetch(L->tag + s->l2s[k + 8].set * L->ways);
        __builtin_prefetch(L->cnt + s->l2s[k + 8].set);
      }
      const L2Ent *x = &s->l2s[k];
      c->l2kd[x->v] += (guint16)l2_units(e, c, l2_access_any(e->l2c, c, x->set, x->g & ~L2_FLAGS, e->l2_write, (x->g & L2_FULL) != 0), x->g, e->l2_write);
    }
  }
}

static void pool_share(Pool *pl, guint i, int job, StepRec *r, gboolean dr, gboolean sh, guint pw) {
  Engine *e = pl->e;
  if (job == POOL_COUNT) count_range(e, &e->ctr[i], r, dr, sh, pw, TRUE);
  else if (job == POOL_L2_GROUPS) l2_groups_share(e, i);
  else l2_access_share(e, i);
}

/* Take and count shares of job `gen` until none is left (pl->lock held on entry and on
 * return).  A share is taken under the lock with the job it belongs to, so a thread late for
 * one job never takes a share of the next with the last one's step. */
static void pool_take(Pool *pl, guint64 gen) {
  while (pl->gen == gen && pl->next < pl->n) {
    const guint i = pl->next++;
    StepRec *r = pl->rec;
    const gboolean dr = pl->dmm_rule, sh = pl->shared_hmm;
    const guint pw = pl->pw;
    const int job = pl->job;
    g_mutex_unlock(&pl->lock);
    pool_share(pl, i, job, r, dr, sh, pw);
    g_mutex_lock(&pl->lock);
    if (--pl->pending == 0) g_cond_signal(&pl->done);
  }
}

static gpointer pool_worker(gpointer data) {
  Pool *pl = data;
  guint64 seen = 0;
  g_mutex_lock(&pl->lock);
  for (;;) {
    while (pl->gen == seen && !pl->quit) g_cond_wait(&pl->go, &pl->lock);
    if (pl->quit) {
      struct timespec ts; /* this thread's CPU, for MsResult.helper_cpu_s */
      if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0) pl->cpu += (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
      g_mutex_unlock(&pl->lock);
      return NULL;
    }
    seen = pl->gen;
    pool_take(pl, seen);
  }
}

/* Run `job` over the shares set in e->ctr[0 .. n-1], here and on the workers, whichever
 * takes each first; returns when all are done. */
static void pool_job(Pool *pl, int job, StepRec *r, gboolean dmm_rule, gboolean shared_hmm, guint pw) {
  g_mutex_lock(&pl->lock);
  pl->job = job;
  pl->rec = r;
  pl->dmm_rule = dmm_rule;
  pl->pw = pw;
  pl->shared_hmm = shared_hmm;
  pl->pending = pl->n;
  pl->next = 0;
  const guint64 gen = ++pl->gen;
  g_cond_broadcast(&pl->go);
  pool_take(pl, gen);
  while (pl->pending > 0) g_cond_wait(&pl->done, &pl->lock);
  g_mutex_unlock(&pl->lock);
}

static Pool *pool_new(Engine *e, guint n) {
  Pool *pl = g_new0(Pool, 1);
  pl->e = e;
  pl->n = n;
  g_mutex_init(&pl->lock);
  g_cond_init(&pl->go);
  g_cond_init(&pl->done);
  pl->threads = g_new0(GThread *, n);
  for (guint i = 1; i < n; i++) pl->threads[i] = g_thread_new("memsim-count", pool_worker, pl);
  return pl;
}

/* Ends the workers; returns their CPU seconds. */
static double pool_free(Pool *pl) {
  if (!pl) return 0;
  g_mutex_lock(&pl->lock);
  pl->quit = TRUE;
  g_cond_broadcast(&pl->go);
  g_mutex_unlock(&pl->lock);
  for (guint i = 1; i < pl->n; i++) g_thread_join(pl->threads[i]);
  g_free(pl->threads);
  g_mutex_clear(&pl->lock);
  g_cond_clear(&pl->go);
  g_cond_clear(&pl->done);
  const double cpu = pl->cpu;
  g_free(pl);
  return cpu;
}

/* L2 cache: warps wlo .. whi-1 of step r through the cache, in order, their addresses
 * filled again.  With workers, in batches: the workers fill their shares of the batch and
 * list each warp's groups, then each runs the batch's warps in order through its own sets
 * (set mod workers), and the warps' DRAM slots are the sums of the workers' -- the same
 * accesses per set in the same order as on one thread, so the same result.  Without, on
 * the engine's thread (worker 0; the pool is idle). */
static void l2_pass(Engine *e, StepRec *r, guint64 wlo, guint64 whi) {
  Counter *c = &e->ctr[0];
  const guint64 end = MIN(e->p, whi * e->w);
  const gboolean write = r->step.op == MS_OP_WRITE;
  if (e->l2ent) {
    const guint n = e->nctr;
    e->l2_write = write;
    e->l2_rec = r;
    for (guint64 v0 = wlo; v0 < whi; v0 += e->l2_batch) {
      const guint64 nw = MIN(e->l2_batch, whi - v0), per = (nw + n - 1) / n;
      e->l2_w0 = v0;
      e->l2_nw = nw;
      for (guint i = 0; i < n; i++) {
        e->ctr[i].wfrom = MIN(v0 + nw, v0 + i * per);
        e->ctr[i].wto = MIN(v0 + nw, v0 + (i + 1) * per);
      }
      if (e->pool) pool_job(e->pool, POOL_L2_GROUPS, r, FALSE, FALSE, 0);
      else l2_groups_share(e, 0);
      for (guint i = 0; i < n; i++)
        if (e->ctr[i].error) { /* the lowest share's error, as on one thread */
          if (i) c->error = e->ctr[i].error, e->ctr[i].error = NULL;
          return;
        }
      if (e->pool) pool_job(e->pool, POOL_L2_ACCESS, r, FALSE, FALSE, 0);
      else l2_access_share(e, 0);
      for (guint64 v = 0; v < nw; v++) {
        guint kd = 0;
        for (guint i = 0; i < n; i++) kd += e->ctr[i].l2kd[v];
        r->kd[v0 + v - r->klo] = (guint16)kd;
      }
    }
    return;
  }
  for (guint64 first = wlo * e->w; first < end; first += e->chunk) {
    guint64 cnt = MIN(e->chunk, end - first);
    if (e->saddr_on) memcpy(c->addr, e->saddr + (first - e->saddr_lo), cnt * sizeof *c->addr);
    else if (!ms_source_fill_worker(e->src, 0, first, cnt, c->addr, &c->error)) return;
    for (guint64 off = 0; off < cnt; off += e->w) {
      guint n = (guint)MIN((guint64)e->w, cnt - off);
      const guint64 warp = first / e->w + off / e->w;
      r->kd[warp - r->klo] = (guint16)l2_warp(e, c, warp, c->addr + off, n, write);
    }
  }
}

/* The count pass of warps wlo .. whi - 1 keeps their addresses for the step's L2 pass (which
 * would fill them again) when the step has one and they fit SADDR_MAX lanes: the same
 * addresses, from memory instead of the source. */
#define SADDR_MAX (G_GUINT64_CONSTANT(1) << 21)
static void saddr_begin(Engine *e, const StepRec *r, guint64 wlo, guint64 whi) {
  e->saddr_on = FALSE;
  if (!r->kd || !e->l2_refill || whi <= wlo) return;
  const guint64 lo = wlo * e->w, n = MIN(e->p, whi * e->w) - lo;
  if (n > SADDR_MAX) return;
  if (n > e->saddr_cap) {
    g_free(e->saddr);
    e->saddr_cap = MAX(n, MIN(SADDR_MAX, 2 * e->saddr_cap));
    e->saddr = g_new(gint64, e->saddr_cap);
  }
  e->saddr_lo = lo;
  e->saddr_on = TRUE;
}

/* Pull one step from the source and reduce it to stage counts. */
/* A signal or wait step: each warp's distinct flags (its active threads' addresses), on the
 * engine's thread; k = 1 marks the warps that take part.  Into ctr[0]: req (threads), disp
 * (warps). */
static void flag_range(Engine *e, StepRec *r, guint64 wlo, guint64 whi) {
  Counter *c = &e->ctr[0];
  c->stages = c->disp = c->req = 0;
  GArray *fl = g_array_new(FALSE, FALSE, sizeof(guint64));
  r->foff = g_new0(guint32, whi - wlo + 1);
  const guint64 end = MIN(e->p, whi * e->w);
  guint64 warp = wlo;
  for (guint64 first = wlo * e->w; first < end && !c->error; first += e->chunk) {
    const guint64 cnt = MIN(e->chunk, end - first);
    if (!ms_source_fill(e->src, first, cnt, c->addr, &c->error)) break;
    for (guint64 off = 0; off < cnt; off += e->w, warp++) {
      const guint n = (guint)MIN((guint64)e->w, cnt - off);
      const guint start = fl->len;
      for (guint i = 0; i < n; i++) {
        const gint64 a = c->addr[off + i];
        if (a < 0) continue;
        c->req++;
        gboolean seen = FALSE;
        for (guint x = start; x < fl->len && !seen; x++) seen = g_array_index(fl, guint64, x) == (guint64)a;
        if (!seen) g_array_append_val(fl, a);
      }
      if (fl->len > start) {
        r->k[warp - wlo] = 1;
        c->disp++;
      }
      if (fl->len >= G_MAXUINT32) {
        g_set_error(&c->error, MS_ERROR, MS_ERROR_INVALID, "%s: %s step names more than 2^32 flags",
                    ms_source_name(e->src), ms_op_name(r->step.op));
        break;
      }
      r->foff[warp - wlo + 1] = fl->len;
    }
  }
  r->fl = (guint64 *)(void *)g_array_free(fl, FALSE);
}

/* Loading a step, in two parts.  produce_step reads the source, counts the step's warps and
 * runs its cache pass: the heavy part, which depends only on the steps before it, never on
 * the schedule, so that with the loading thread (load ahead, below) it runs while the
 * engine's thread dispatches the steps before.  commit_step, on the engine's thread when the
 * step is first needed (where loading happened before), adds it to the result, its run and
 * kernel span and the window.  PROD_STEP: *out is the step; PROD_END: the trace's end;
 * PROD_ERROR: *err is set. */
enum { PROD_STEP, PROD_END, PROD_ERROR };

static void kmemo_begin(Engine *e);
static gboolean kmemo_ghost(Engine *e, StepRec *r, GError **err);
static void kmemo_add(Engine *e, StepRec *r);
static void kmemo_key(Engine *e, const StepRec *r);

static int produce_step(Engine *e, StepRec **out, GError **err) {
  MsStep st;
  MsNext nx = ms_source_next(e->src, &st, err);
  if (nx == MS_NEXT_ERROR) return PROD_ERROR;
  if (nx == MS_NEXT_END) {
    if (e->kghost) {
      g_set_error(err, MS_ERROR, MS_ERROR_INVALID, "%s: a kernel the source keyed (%" G_GUINT64_FORMAT ") ends the trace early",
                  ms_source_name(e->src), e->kghost->key);
      return PROD_ERROR;
    }
    return PROD_END;
  }
  StepRec *r = g_new0(StepRec, 1);
  r->step = st;
  r->remaining = e->W;
  r->res.index = e->pstep++;
  r->res.step = st;
  r->res.first_dispatch = -1;
  r->res.last_complete = -1;
  if (e->kstart) kmemo_begin(e);
  if (e->kghost) {
    if (!kmemo_ghost(e, r, err)) {
      rec_free(e, r);
      return PROD_ERROR;
    }
    if (st.op != MS_OP_SYNC) {
      *out = r;
      return PROD_STEP;
    }
  }
  if (st.op == MS_OP_SYNC) {
    r->release = 0;
    if (st.scope == MS_SCOPE_BLOCK) {
      r->block_arrived = g_new0(guint64, e->blocks);
      r->block_release = g_new0(gint64, e->blocks);
    } else if (e->l1c) {
      l1_clear(e); /* a kernel boundary: the L1s start empty */
    }
  } else {
    /* a shuffle step is counted like a memory step (its warps with an active thread), on
     * no pipeline: no stage rule, no cache, no repeated blocks */
    const gboolean flag = MS_OP_IS_FLAG(st.op);
    const gboolean shfl = MS_OP_NO_STAGE(st.op); /* no pipeline, no stage */
    gboolean dmm_rule = !shfl && (e->model->kind == MS_MODEL_DMM || (e->hmm && st.space == MS_SPACE_SHARED));
    const gboolean shared_hmm = !shfl && e->hmm && st.space == MS_SPACE_SHARED;
    /* partial_write_stages: a global write's groups it does not cover cost more */
    const guint pw = !dmm_rule && !shfl && st.op == MS_OP_WRITE ? e->pw : 0;
    guint64 step_stages = 0, step_disp = 0, step_req = 0;
    /* only the warps that overlap the source's active range can have requests */
    guint64 lo, hi;
    ms_source_active_range(e->src, &lo, &hi);
    guint64 wlo = lo / e->w, whi = (hi + e->w - 1) / e->w;
    whi = MIN(whi, e->W);
    if (whi <= wlo) wlo = whi = 0;
    r->klo = wlo;
    r->khi = whi;
    r->k = k_take(e, whi - wlo);
    memset(r->k, 0, (whi - wlo) * sizeof(guint16));
    if (e->l2c && !dmm_rule && !shfl) { /* the cache sees the warps in order: one thread (no pool, no reuse) */
      r->kd = k_take(e, whi - wlo);
      memset(r->kd, 0, (whi - wlo) * sizeof(guint16));
    }
    if (e->l1c && !dmm_rule && !shfl && st.op == MS_OP_READ) {
      r->kh = g_new0(guint32, MAX(whi - wlo, 1));
    }
    if (e->pslot && e->model->dmm_port_banks && !dmm_rule && !shfl && st.op == MS_OP_READ) {
      r->kp = k_take(e, whi - wlo);
      memset(r->kp, 0, (whi - wlo) * sizeof(guint16));
    }
    if (e->wsw != e->wsr && !dmm_rule && !shfl && st.op == MS_OP_WRITE) { /* l2_write_rate: whole groups apart */
      r->kw = k_take(e, whi - wlo);
      memset(r->kw, 0, (whi - wlo) * sizeof(guint16));
    }
    /* many warps and several workers: each counts a contiguous share (sums are the same in
     * any split; the first error is the lowest failing share's, as in thread order) */
    guint used = 1;
    e->bk_valid = FALSE;
    if (flag) {
      flag_range(e, r, wlo, whi);
    } else if ((!shfl || st.op == MS_OP_COMPUTE) && e->reuse && whi - wlo >= 2 * e->wpb &&
               ms_source_block_repeats(e->src)) {
      e->bkstep = r->kd && e->bk && e->l2_refill;
      count_blocks(e, r, dmm_rule, shared_hmm, pw, wlo, whi);
      e->bk_valid = e->bkstep;
      e->bkstep = FALSE;
    } else if (e->pool && whi - wlo >= e->par_min) {
      saddr_begin(e, r, wlo, whi);
      used = e->pool->n;
      guint64 per = (whi - wlo + used - 1) / used;
      for (guint i = 0; i < used; i++) {
        e->ctr[i].wfrom = MIN(whi, wlo + i * per);
        e->ctr[i].wto = MIN(whi, wlo + (i + 1) * per);
      }
      if (e->l1c && !dmm_rule && !shfl) /* L1: whole blocks per worker, each block's warps in order */
        for (guint i = 0; i < used; i++) {
          guint64 *x[2] = {&e->ctr[i].wfrom, &e->ctr[i].wto};
          for (int q = 0; q < 2; q++)
            if (*x[q] > wlo && *x[q] < whi) *x[q] = MIN(whi, (*x[q] + e->wpb - 1) / e->wpb * e->wpb);
        }
      pool_job(e->pool, POOL_COUNT, r, dmm_rule, shared_hmm, pw);
    } else {
      saddr_begin(e, r, wlo, whi);
      e->ctr[0].wfrom = wlo;
      e->ctr[0].wto = whi;
      count_range(e, &e->ctr[0], r, dmm_rule, shared_hmm, pw, FALSE);
    }
    gboolean counted = TRUE;
    for (guint i = 0; i < used; i++) counted &= e->ctr[i].error == NULL;
    if (counted && r->kd && e->l2_refill) l2_pass(e, r, wlo, whi);
    e->saddr_on = FALSE;
    for (guint i = 0; i < used; i++)
      if (e->ctr[i].error) {
        *err = e->ctr[i].error;
        e->ctr[i].error = NULL;
        for (guint j = i + 1; j < used; j++) g_clear_error(&e->ctr[j].error);
        rec_free(e, r);
        return PROD_ERROR;
      }
    guint64 *dmm_sum = e->ctr[0].dmm_stages;
    for (guint i = 0; i < used; i++) {
      step_stages += e->ctr[i].stages;
      step_disp += e->ctr[i].disp;
      step_req += e->ctr[i].req;
      if (shared_hmm && i > 0)
        for (guint b = 0; b < e->model->dmms; b++) dmm_sum[b] += e->ctr[i].dmm_stages[b];
    }
    r->res.stages = step_stages;
    r->res.dispatches = step_disp;
    r->res.requests = step_req;
    if (flag) { /* its warps and threads (the step's), no stage; no memory counts, no round */
      if (st.op == MS_OP_SIGNAL) r->d.signals = step_disp;
      else r->d.waits = step_disp;
      r->res.stages = step_stages = step_disp = step_req = 0;
    } else if (st.op == MS_OP_COMPUTE) { /* its warps, threads and instructions; no stage, no round */
      r->d.compute_steps = step_disp > 0;
      r->d.instructions = step_stages;
      r->res.stages = step_stages = step_disp = step_req = 0;
    } else if (st.op == MS_OP_AWAIT) { /* its warps, no stage; no memory counts, no round */
      r->d.awaits = step_disp;
      r->res.stages = step_stages = step_disp = step_req = 0;
    } else if (shfl) { /* its warps and threads, no stage; no memory counts, no round */
      r->d.shuffle_steps = step_disp > 0;
      r->d.shuffles = step_disp;
      r->res.stages = step_stages = step_disp = step_req = 0;
    } else if (st.async) {
      r->d.async_reads = step_disp;
    }
    r->d.stages = step_stages;
    r->d.disp = step_disp;
    r->d.req = step_req;
    if (step_req) {
      r->d.memory_steps = 1;
      /* round_sum: the papers' per-round bound.  On the hmm kinds a shared step runs on the
       * d DMMs side by side, so its round costs the busiest DMM's stages + l - 1. */
      if (e->hmm && st.space == MS_SPACE_SHARED) {
        guint64 mx = 0;
        for (guint b = 0; b < e->model->dmms; b++) mx = MAX(mx, dmm_sum[b]);
        r->d.round = mx + e->model->shared_latency - 1;
      } else if (e->hmm) {
        r->d.round = step_stages + e->model->global_latency - 1;
      } else {
        r->d.round = step_stages + e->model->latency - 1;
      }
    }
  }
  if (e->kmemo && st.op != MS_OP_SYNC) {
    e->klanes += (r->khi - r->klo) * e->w;
    if (MS_OP_IS_FLAG(st.op)) e->kmemo_off = TRUE; /* (commit_step turns repeated kernels off) */
  }
  if (e->kmr) kmemo_add(e, r);
  if (e->kmemo && st.op == MS_OP_SYNC && st.scope == MS_SCOPE_GRID) kmemo_key(e, r);
  *out = r;
  return PROD_STEP;
}

/* The second part of loading (above): on the engine's thread, in step order. */
static void commit_step(Engine *e, StepRec *r) {
  MsResult *R = e->result;
  const MsStep st = r->step;
  R->steps++;
  if (st.op == MS_OP_SYNC) {
    if (st.scope == MS_SCOPE_BLOCK) R->block_barriers++;
    else R->grid_barriers++;
  } else {
    if (MS_OP_IS_FLAG(st.op)) e->krep = FALSE; /* a flag may be set in one kernel and waited for in another */
    R->signals += r->d.signals;
    R->waits += r->d.waits;
    R->compute_steps += r->d.compute_steps;
    R->instructions += r->d.instructions;
    R->shuffle_steps += r->d.shuffle_steps;
    R->shuffles += r->d.shuffles;
    R->async_reads += r->d.async_reads;
    R->awaits += r->d.awaits;
    if (G_UNLIKELY((st.async || st.op == MS_OP_AWAIT) && !e->adone)) {
      /* the first asynchronous copy or await: each warp's latest copy; dispatch() tracks them,
       * so not dispatch_plain() nor serve_run() from now on (their results are the same) */
      e->adone = ms_mem_new(gint64, e->W);
      for (guint64 i = 0; i < e->W; i++) e->adone[i] = -1;
      e->plain = e->fastrun = FALSE;
    }
    MsMemoryCounts *mc = (e->model->kind == MS_MODEL_DMM || (e->hmm && st.space == MS_SPACE_SHARED))
                             ? &R->shared : &R->global;
    mc->stages += r->d.stages;
    mc->dispatches += r->d.disp;
    mc->requests += r->d.req;
    R->memory_steps += r->d.memory_steps;
    R->round_sum += r->d.round;
  }
  if (st.op == MS_OP_SYNC && st.scope == MS_SCOPE_GRID) {
    kspan_close(e, r->res.index);
  } else {
    if (!e->cur_kspan) {
      e->cur_kspan = g_new0(KSpan, 1);
      e->cur_kspan->start = r->res.index;
      e->cur_kspan->blo = G_MAXUINT64;
    }
    KSpan *ks = r->kspan = e->cur_kspan;
    ks->refs++;
    if (r->khi > r->klo) {
      ks->blo = MIN(ks->blo, r->klo / e->wpb);
      ks->bhi = MAX(ks->bhi, (r->khi + e->wpb - 1) / e->wpb);
    }
    ks->bytes += (r->khi - r->klo) * ((r->k ? 2 : 0) + (r->kd ? 2 : 0) + (r->kp ? 2 : 0) + (r->kw ? 2 : 0) + (r->kh ? 4 : 0)) + sizeof *r;
    if (ks->bytes > KSPAN_MAX_BYTES) ks->nojump = TRUE;
  }
  if (st.op == MS_OP_SYNC) {
    run_close(e);
  } else {
    if (!e->cur_run) {
      e->cur_run = g_new0(Run, 1);
      e->cur_run->start = r->res.index;
      e->cur_run->ulo = G_MAXUINT64;
    }
    Run *u = r->run = e->cur_run;
    u->refs++;
    u->len++;
    if (r->khi > r->klo) {
      u->ulo = MIN(u->ulo, r->klo);
      u->uhi = MAX(u->uhi, r->khi);
    }
    if (u->len == RUN_MAX) run_close(e);
  }
  win_push(e, r);
  if (e->opt->progress && e->opt->progress_every && R->steps % e->opt->progress_every == 0)
    e->opt->progress(R->steps, e->opt->progress_data);
}

static int loader_take(Engine *e, StepRec **r, GError **err);

static gboolean load_step(Engine *e) {
  StepRec *r = NULL;
  GError *err = NULL;
  const int got = e->ld ? loader_take(e, &r, &err) : produce_step(e, &r, &err);
  if (got == PROD_ERROR) {
    e->error = err;
    return FALSE;
  }
  if (got == PROD_END) {
    e->eof = TRUE;
    run_close(e);
    kspan_close(e, e->result->steps);
    return TRUE;
  }
  commit_step(e, r);
  return TRUE;
}

/* Load ahead: a thread that produces the next LD_AHEAD steps while the engine's thread
 * dispatches (it is the pool's worker 0 then).  The steps are committed in order, each
 * when first needed, as without it, so the result is the same; only the waiting differs. */
#define LD_AHEAD 8
#define LD_MIN_THREADS G_GUINT64_CONSTANT(65536) /* traces of fewer threads load on the engine's thread */

typedef struct {
  StepRec *r;
  int got;
  GError *err;
} LdItem;

typedef struct Loader {
  GThread *th;
  GMutex m;
  GCond c;
  LdItem q[LD_AHEAD];
  guint head, n;
  gboolean stop;
  /* repeated kernel counts: the loader waits after the grid barrier park_index, whose next
   * kernel has a kept KMemo, for the engine's kmemo_decide (or loader_take) to set cmd */
  gboolean parked;
  guint64 park_index;
  int cmd;
  /* who sleeps on c: a broadcast (a futex call) only then, and the loader woken only when
   * the engine has taken half the queue, so that neither thread makes a system call a step */
  gboolean wait_take, wait_put;
  double cpu; /* the thread's CPU seconds, when it ended */
} Loader;

static gpointer loader_main(gpointer data) {
  Engine *e = data;
  Loader *L = e->ld;
  for (;;) {
    g_mutex_lock(&L->m);
    if (!L->stop && L->n == LD_AHEAD) { /* full: sleep until the engine has taken half */
      L->wait_put = TRUE;
      while (!L->stop && L->n > LD_AHEAD / 2) g_cond_wait(&L->c, &L->m);
      L->wait_put = FALSE;
    }
    const gboolean stop = L->stop;
    g_mutex_unlock(&L->m);
    if (stop) break;
    LdItem it = {NULL, PROD_ERROR, NULL};
    it.got = produce_step(e, &it.r, &it.err);
    /* a grid barrier whose next kernel has a kept KMemo: wait for kmemo_decide */
    const gboolean park = it.got == PROD_STEP && e->kstart && e->kp_m && e->kp_index == it.r->res.index;
    const guint64 index = park ? it.r->res.index : 0;
    g_mutex_lock(&L->m);
    L->q[(L->head + L->n) % LD_AHEAD] = it;
    L->n++;
    if (park) {
      L->parked = TRUE;
      L->park_index = index;
      L->cmd = KC_NONE;
    }
    if (L->wait_take) g_cond_broadcast(&L->c);
    if (park) {
      while (!L->stop && L->cmd == KC_NONE) g_cond_wait(&L->c, &L->m);
      e->kcmd = L->cmd;
      L->parked = FALSE;
      L->cmd = KC_NONE;
    }
    g_mutex_unlock(&L->m);
    if (it.got != PROD_STEP) break;
  }
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0) L->cpu = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
  return NULL;
}

static int loader_take(Engine *e, StepRec **r, GError **err) {
  Loader *L = e->ld;
  g_mutex_lock(&L->m);
  if (L->n == 0) {
    L->wait_take = TRUE;
    while (L->n == 0) {
      if (L->parked && L->cmd == KC_NONE) { /* the kernel after a barrier no decision reached: counted */
        L->cmd = KC_COUNT;
        g_cond_broadcast(&L->c);
      }
      g_cond_wait(&L->c, &L->m);
    }
    L->wait_take = FALSE;
  }
  const LdItem it = L->q[L->head];
  L->head = (L->head + 1) % LD_AHEAD;
  L->n--;
  if (L->wait_put && L->n <= LD_AHEAD / 2) g_cond_broadcast(&L->c);
  g_mutex_unlock(&L->m);
  *r = it.r;
  *err = it.err;
  return it.got;
}

static void loader_start(Engine *e) {
  Loader *L = g_new0(Loader, 1);
  g_mutex_init(&L->m);
  g_cond_init(&L->c);
  e->ld = L;
  L->th = g_thread_new("memsim-load", loader_main, e);
}

/* Stops the loading thread (it ends the step it is on) and drops what it loaded beyond the
 * steps taken; returns its CPU seconds. */
static double loader_stop(Engine *e) {
  Loader *L = e->ld;
  if (!L) return 0;
  g_mutex_lock(&L->m);
  L->stop = TRUE;
  g_cond_broadcast(&L->c);
  g_mutex_unlock(&L->m);
  g_thread_join(L->th);
  for (guint i = 0; i < L->n; i++) {
    LdItem *it = &L->q[(L->head + i) % LD_AHEAD];
    if (it->r) rec_free(e, it->r);
    g_clear_error(&it->err);
  }
  g_mutex_clear(&L->m);
  g_cond_clear(&L->c);
  const double cpu = L->cpu;
  g_free(L);
  e->ld = NULL;
  return cpu;
}

/* The reduced step `s`, loading as needed; NULL at the end of the trace or on error. */
G_GNUC_NO_INLINE static StepRec *step_load(Engine *e, guint64 s) {
  while (s >= e->head + e->count) {
    if (e->eof) return NULL;
    if (!load_step(e)) return NULL;
  }
  return win_get(e, s);
}

/* (the test inline: it is on every warp's path, loading is not) */
static inline StepRec *step_at(Engine *e, guint64 s) {
  if (G_LIKELY(s < e->head + e->count)) return win_get(e, s);
  if (e->eof) return NULL; /* every warp once, past its last step */
  return step_load(e, s);
}

static inline void pass(Engine *e, StepRec *r) {
  if (--r->remaining == jumps_of(r)) win_pop_done(e);
}

/* ---- warp progress ------------------------------------------------------------------------ */

static inline void work_push(Engine *e, guint64 j) {
  if (e->nwork == e->cwork) {
    guint64 *nw = ms_mem_new(guint64, 2 * e->cwork);
    memcpy(nw, e->work, e->cwork * sizeof *nw);
    ms_mem_free(e->work);
    e->work = nw;
    e->cwork *= 2;
  }
  e->work[e->nwork++] = j;
}

static gint64 issue_close(Engine *e);

static int cmp_i64(const void *a, const void *b) {
  const gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;
  return (x > y) - (x < y);
}

/* Barrier time (docs/models.md): warps first .. last - 1 of a block have arrived at a block
 * barrier (their ready times); it serves them one at a time in order of arrival,
 * barrier_warp_units each, and releases barrier_units after the last. */
static gint64 barrier_release(Engine *e, guint64 first, guint64 last) {
  const guint64 n = last - first;
  if (e->nbbuf < n) {
    e->nbbuf = n;
    e->bbuf = g_renew(gint64, e->bbuf, n);
  }
  for (guint64 i = 0; i < n; i++) e->bbuf[i] = e->ready[first + i];
  qsort(e->bbuf, n, sizeof *e->bbuf, cmp_i64);
  const gint64 w = (gint64)e->model->barrier_warp_units;
  gint64 end = e->bbuf[0];
  for (guint64 i = 0; i < n; i++) end = MAX(end, e->bbuf[i]) + w;
  return end + (gint64)e->model->barrier_units;
}

static void release_warp(Engine *e, guint64 j, gint64 t) {
  e->ready[j] = t;
  e->cursor[j]++;
  work_push(e, j);
}

/* Position of warp j among pipeline p's members.  DMM b of an hmm serves the warps of
 * blocks b, b + d, b + 2d, ... in warp order; the global pipeline and a umm/dmm serve all. */
static inline guint64 pos_of(const Engine *e, guint p, guint64 j) {
  if (!e->hmm || p == e->P - 1) return j;
  guint64 blk = j / e->wpb;
  return (blk / e->model->dmms) * e->wpb + j % e->wpb;
}

static inline guint64 member(const Engine *e, guint p, guint64 q) {
  if (!e->hmm || p == e->P - 1) return q;
  return ((q / e->wpb) * e->model->dmms + p) * e->wpb + q % e->wpb;
}

static inline void bit_set(Engine *e, guint p, guint64 q, gint64 ready) {
  e->bits[p][q >> 6] |= G_GUINT64_CONSTANT(1) << (q & 63);
  if (ready < e->wmin[p][q >> 6]) e->wmin[p][q >> 6] = ready;
  if (ready < e->smin[p][q >> 12]) e->smin[p][q >> 12] = ready;
}

static inline void bit_clear(Engine *e, guint p, guint64 q) {
  e->bits[p][q >> 6] &= ~(G_GUINT64_CONSTANT(1) << (q & 63));
}

static void timer_push(Timer *T, gint64 r, guint64 q) {
  if (T->n == T->cap) {
    T->cap = T->cap ? 2 * T->cap : 64;
    T->h = g_renew(TEnt, T->h, T->cap);
  }
  guint64 i = T->n++;
  while (i > 0) {
    const guint64 u = (i - 1) / 2;
    if (T->h[u].r <= r) break;
    T->h[i] = T->h[u];
    i = u;
  }
  T->h[i] = (TEnt){r, q};
}

/* The members whose ready time is t or earlier are no longer pending.  A member that serve's
 * first test dispatched while pending keeps its bit (and may wait again) until then: its
 * entry is due by its pipeline's next turn, which comes no earlier than that dispatch. */
static void timer_due(Timer *T, gint64 t) {
  TEnt *h = T->h;
  while (T->n && h[0].r <= t) {
    T->pend[h[0].q >> 6] &= ~(G_GUINT64_CONSTANT(1) << (h[0].q & 63));
    const TEnt x = h[--T->n];
    const guint64 n = T->n;
    guint64 i = 0;
    for (;;) {
      const guint64 l = 2 * i + 1;
      if (l >= n) break;
      const guint64 c = l + 1 < n && h[l + 1].r < h[l].r ? l + 1 : l;
      if (h[c].r >= x.r) break;
      h[i] = h[c];
      i = c;
    }
    h[i] = x;
  }
}

/* find_ready() for a pipeline with a timer, in cyclic order from start: the first waiting
 * member ready at t, or nmembers; the members not pending are visited, and those not ready
 * become pending. */
static guint64 find_ready_timed(Engine *e, guint p, guint64 start, gint64 t, gint64 *minr) {
  Timer *T = &e->tm[p];
  timer_due(T, t);
  const guint64 *bits = e->bits[p];
  guint64 *pend = T->pend;
  const gint64 *ready = e->ready;
  const guint64 n = e->nmembers[p];
  const gboolean ident = !e->hmm || p == e->P - 1; /* member(x) == x */
  for (int pass = 0; pass < 2; pass++) {
    const guint64 lo = pass ? 0 : start, hi = pass ? start : n;
    for (guint64 w = lo >> 6; w << 6 < hi; w++) {
      guint64 word = bits[w] & ~pend[w];
      if (w == lo >> 6) word &= ~G_GUINT64_CONSTANT(0) << (lo & 63);
      if ((w + 1) << 6 > hi) word &= (G_GUINT64_CONSTANT(1) << (hi & 63)) - 1;
      for (; word; word &= word - 1) {
        const guint64 x = (w << 6) + (guint64)__builtin_ctzll(word);
        const gint64 r = ready[ident ? x : member(e, p, x)];
        if (r <= t) return x;
        timer_push(T, r, x);
        pend[w] |= G_GUINT64_CONSTANT(1) << (x & 63);
        *minr = MIN(*minr, r);
      }
    }
  }
  if (T->n) *minr = MIN(*minr, T->h[0].r); /* the pending members' */
  return n;
}

/* The first member position in [lo, hi) waiting for pipeline p whose warp is ready at t, or
 * hi; lowers *minr to the ready times of the waiting members passed over.  wmin and smin are
 * lower bounds on the ready times of the waiting members of each 64 and 4096 positions
 * (lowered as members start waiting, made exact whenever a scan passes a whole word or
 * superblock), so a latency-bound pipeline skips the members that cannot be ready yet
 * instead of visiting each of them. */
static guint64 find_ready(Engine *e, guint p, guint64 lo, guint64 hi, gint64 t, gint64 *minr) {
  const guint64 *bits = e->bits[p];
  gint64 *wmin = e->wmin[p], *smin = e->smin[p];
  const gint64 *ready = e->ready;
  const gboolean ident = !e->hmm || p == e->P - 1; /* member(x) == x */
  guint64 q = lo;
  gint64 smacc = G_MININT64; /* exact minimum over the superblock being passed; MININT: not whole */
  while (q < hi) {
    if ((q & 4095) == 0 && q + 4096 <= hi) {
      if (smin[q >> 12] > t) {
        *minr = MIN(*minr, smin[q >> 12]);
        q += 4096;
        continue;
      }
      smacc = NEVER;
    } else if ((q & 4095) == 0) {
      smacc = G_MININT64; /* a partial superblock: no exact minimum */
    }
    if ((q & 63) == 0 && q + 64 <= hi && wmin[q >> 6] > t) {
      *minr = MIN(*minr, wmin[q >> 6]);
      smacc = MIN(smacc, wmin[q >> 6]);
      q += 64;
    } else {
      gboolean whole = (q & 63) == 0 && q + 64 <= hi;
      const guint64 wend = MIN(hi, (q | 63) + 1), base = q & ~G_GUINT64_CONSTANT(63);
      /* the word's members in [q, wend): the loop visits only those */
      guint64 word = bits[q >> 6] & (~G_GUINT64_CONSTANT(0) << (q & 63));
      if (wend & 63) word &= (G_GUINT64_CONSTANT(1) << (wend & 63)) - 1;
      gint64 exact = NEVER;
      for (; word; word &= word - 1) {
        const guint64 x = base + (guint64)__builtin_ctzll(word);
        const gint64 r = ready[ident ? x : member(e, p, x)];
        if (r <= t) return x;
        exact = MIN(exact, r);
      }
      *minr = MIN(*minr, exact);
      if (whole) wmin[q >> 6] = exact;
      if (smacc != G_MININT64) smacc = whole ? MIN(smacc, exact) : G_MININT64;
      q = wend;
    }
    if ((q & 4095) == 0 && smacc != G_MININT64) smin[(q - 4096) >> 12] = smacc;
  }
  return hi;
}

/* ---- the pipelines' order: the earliest time each could dispatch --------------------------- */

static inline gint64 pkey_of(const Engine *e, guint p) {
  return e->elig[p] ? MAX(e->free_at[p], e->lb[p]) : NEVER;
}

/* The pipeline with the least key (the first on ties).  With the scan, the keys of the
 * pipelines changed since the last call are made first (a dispatch changes its pipeline's
 * key twice, once for the warp leaving and once for it waiting again: made once here). */
static void pq_fix_tree(Engine *e, guint p);
static inline guint pq_top(Engine *e) {
  if (!e->pq_scan) { /* the tree: each changed key replayed once */
    for (guint i = 0; i < e->nplist; i++) {
      e->pinlist[e->plist[i]] = 0;
      pq_fix_tree(e, e->plist[i]);
    }
    e->nplist = 0;
    return e->ti[1];
  }
  for (guint32 d = e->pdirty; d; d &= d - 1) {
    const guint p = (guint)__builtin_ctz(d);
    e->pkey[p] = pkey_of(e, p);
  }
  e->pdirty = 0;
  const gint64 *k = e->pkey;
  const guint n = e->P;
  guint m = 0;
  gint64 mk = k[0];
  for (guint p = 1; p < n; p++) {
    const gint64 x = k[p];
    m = x < mk ? p : m;
    mk = x < mk ? x : mk;
  }
  return m;
}

/* Pipeline p's key changed: mark it for pq_top. */
static inline void pq_fix(Engine *e, guint p) {
  if (e->pq_scan) {
    e->pdirty |= 1u << p;
  } else if (!e->pinlist[p]) {
    e->pinlist[p] = 1;
    e->plist[e->nplist++] = p;
  }
}

/* Replay pipeline p's matches from its leaf to the root.  The pipeline served last is the
 * root's winner, so its matches are replayed to the top anyway: no test for an early stop
 * (a heap's sift down compared two children and the key a level, and cost more: SAT 2R1W 1K
 * on the grounded H100, 662 M instructions with the heap, 655 M with the tree). */
static void pq_fix_tree(Engine *e, guint p) {
  const gint64 k = pkey_of(e, p);
  if (k == e->pkey[p]) return;
  e->pkey[p] = k;
  gint64 *tk = e->tk;
  guint *ti = e->ti;
  guint i = e->tn + p;
  tk[i] = k;
  gint64 wk = k;
  guint wi = p;
  while (i > 1) {
    const gint64 sk = tk[i ^ 1];
    const guint si = ti[i ^ 1];
    const gboolean take = sk - (gint64)(i & 1) < wk; /* the left one wins ties: the lower-numbered */
    wk = take ? sk : wk;
    wi = take ? si : wi;
    i >>= 1;
    tk[i] = wk;
    ti[i] = wi;
  }
}

/* ---- residency: blocks placed on DMMs with room, retired when their kernel is done -------- */

static inline guint64 block_warps(const Engine *e, guint64 b) { return MIN(e->wpb, e->W - b * e->wpb); }

static void heap_push(Engine *e, gint64 time, guint64 block) {
  Retire x = {time, block};
  g_array_append_val(e->heap, x);
  Retire *h = (Retire *)(void *)e->heap->data;
  guint i = e->heap->len - 1;
  while (i > 0) {
    guint parent = (i - 1) / 2;
    if (h[parent].time <= h[i].time) break;
    Retire tmp = h[parent];
    h[parent] = h[i];
    h[i] = tmp;
    i = parent;
  }
}

static Retire heap_pop(Engine *e) {
  Retire *h = (Retire *)(void *)e->heap->data;
  Retire top = h[0];
  guint n = e->heap->len - 1;
  h[0] = h[n];
  g_array_set_size(e->heap, n);
  for (guint i = 0;;) {
    guint l = 2 * i + 1, r = l + 1, m = i;
    if (l < n && h[l].time < h[m].time) m = l;
    if (r < n && h[r].time < h[m].time) m = r;
    if (m == i) break;
    Retire tmp = h[m];
    h[m] = h[i];
    h[i] = tmp;
    i = m;
  }
  return top;
}

/* Warp j has finished its kernel (reached a kernel boundary or the end of the trace). */
static void block_arrive(Engine *e, guint64 j) {
  guint64 b = j / e->wpb;
  e->blk_done[b]++;
  e->blk_retire[b] = MAX(e->blk_retire[b], e->ready[j]);
  if (e->blk_done[b] == block_warps(e, b)) heap_push(e, e->blk_retire[b], b);
}

/* Whether DMM x has room for a whole block. */
static inline gboolean room(const Engine *e, guint x) {
  return (!e->lim_blocks || e->res_blocks[x] + 1 <= e->lim_blocks) && (!e->lim_warps || e->res_warps[x] + e->wpb <= e->lim_warps);
}

/* DMM x's leaf of the placement tree, after its residents changed. */
static inline void ptree_set(Engine *e, guint x) {
  guint64 *t = e->ptree;
  if (!t) return;
  guint i = e->psize + x;
  t[i] = room(e, x) ? e->res_warps[x] << 32 | x : G_MAXUINT64;
  for (i >>= 1; i; i >>= 1) t[i] = MIN(t[2 * i], t[2 * i + 1]);
}

static void retire_block(Engine *e, guint64 b) {
  guint x = (guint)e->block_dmm[b];
  guint64 nw = block_warps(e, b);
  const gboolean had = room(e, x);
  e->res_warps[x] -= nw;
  e->res_blocks[x]--;
  e->nroom += room(e, x) - had;
  ptree_set(e, x);
  e->block_dmm[b] = -1;
  if (e->blk_idle[b]) return; /* its warps were never listed */
  e->res_dead[x] += nw;
  GArray *L = e->res_list[x];
  if (2 * e->res_dead[x] > L->len) { /* drop the warps of retired blocks */
    guint64 *v = (guint64 *)(void *)L->data, n = 0;
    guint64 *rb = e->rbits[x];
    memset(rb, 0, ((L->len + 63) / 64) * sizeof *rb);
    for (guint i = 0; i < L->len; i++)
      if (e->block_dmm[v[i] / e->wpb] == (gint32)x) {
        e->ridx[v[i]] = (guint32)n;
        if (e->pipe[v[i]] == (gint32)x) rb[n >> 6] |= G_GUINT64_CONSTANT(1) << (n & 63);
        v[n++] = v[i];
      }
    g_array_set_size(L, (guint)n);
    e->res_dead[x] = 0;
  }
}

static gboolean drain(Engine *e);

/* Block b (nw warps from j0), just placed at time t: if it has no request in its whole
 * kernel (a kernel span it lies outside of, see advance), its warps jump to the closing grid
 * barrier and arrive there, as advance would take them one by one, with no entry in the
 * DMM's resident list (they are never served).  Not when they would complete the barrier
 * (its release is advance's) or the kernel ends the trace.  1 if done, 0 if not, -1 on a
 * loading error. */
static inline void hold(Engine *e, guint64 j, MsOp op);

/* Whether block b has no request in any step of kernel span ks (loading its steps as
 * needed): 1 yes, 0 no or not known (too large to look ahead over), -1 on a loading error. */
static int kspan_idle(Engine *e, KSpan *ks, guint64 b) {
  while (!ks->closed && !ks->nojump && (b < ks->blo || b >= ks->bhi))
    if (!step_at(e, e->head + e->count) && e->error) return -1;
  if (!ks->closed || ks->nojump) return 0;
  if (b < ks->blo || b >= ks->bhi) return 1;
  if (!ks->any) { /* its steps are all in the window: a warp at its start has passed none */
    const guint64 n = ks->bhi - ks->blo, wpb = e->wpb;
    ks->any = g_new0(guint64, (n + 63) / 64);
    ks->bact = ks->blo;
    for (guint64 s = ks->start; s < ks->end; s++) {
      const StepRec *r = win_get(e, s);
      if (!r->k) continue;
      for (guint64 w = r->klo; w < r->khi; w++)
        if (r->k[w - r->klo] || (r->kh && r->kh[w - r->klo])) {
          const guint64 x = w / wpb - ks->blo;
          ks->any[x >> 6] |= G_GUINT64_CONSTANT(1) << (x & 63);
          ks->bact = MAX(ks->bact, w / wpb + 1);
          w = (w / wpb + 1) * wpb - 1; /* the block's other warps: known */
        }
    }
  }
  const guint64 x = b - ks->blo;
  return !((ks->any[x >> 6] >> (x & 63)) & 1);
}

static int place_idle(Engine *e, guint64 b, guint64 j0, guint64 nw) {
  const StepRec *r = step_at(e, e->cursor[j0]);
  if (!r) return e->error ? -1 : 0;
  KSpan *ks = r->kspan;
  if (!ks || ks->nojump) return 0;
  for (guint64 i = j0; i < j0 + nw; i++)
    if (e->cursor[i] != ks->start) return 0;
  const int idle = kspan_idle(e, ks, b);
  if (idle <= 0) return idle;
  StepRec *c = step_at(e, ks->end);
  if (!c) return e->error ? -1 : 0;
  if (c->step.op != MS_OP_SYNC || c->step.scope != MS_SCOPE_GRID || c->arrived + nw >= e->W) return 0;
  e->blk_idle[b] = 1;
  ks->jumped += nw;
  for (guint64 i = j0; i < j0 + nw; i++) {
    e->cursor[i] = ks->end;
    hold(e, i, MS_OP_SYNC);
    e->pipe[i] = PIPE_BARRIER;
    c->arrived++;
    c->release = MAX(c->release, e->ready[i]);
    block_arrive(e, i);
  }
  win_pop_done(e);
  return 1;
}

/* Blocks b .. blocks - 1, the next to place, with room for b now at time t: if none of them
 * has a request in its kernel (all past the kernel span's union), they would all be placed
 * at t, wave after wave (each idle block retires at t, giving back the room it took), and
 * arrive at the closing barrier at once with ready time t, touching nothing but one another's
 * places: they arrive there directly.  Not when they would complete the barrier.  1 if
 * done, 0 if not, -1 on a loading error. */
static int place_trailing_idle(Engine *e, guint64 b, gint64 t) {
  const guint64 j0 = b * e->wpb;
  const StepRec *r = step_at(e, e->cursor[j0]);
  if (!r) return e->error ? -1 : 0;
  KSpan *ks = r->kspan;
  if (!ks || ks->nojump || e->cursor[j0] != ks->start) return 0;
  const int idle = kspan_idle(e, ks, b);
  if (idle <= 0) return idle;
  if (b < ks->bhi && b < ks->bact) return 0; /* blocks after it may have requests (b inside
                                                * the union: kspan_idle made `any` and bact) */
  StepRec *c = step_at(e, ks->end);
  if (!c) return e->error ? -1 : 0;
  if (c->step.op != MS_OP_SYNC || c->step.scope != MS_SCOPE_GRID || c->arrived + (e->W - j0) >= e->W) return 0;
  for (guint64 i = j0; i < e->W; i++)
    if (e->cursor[i] != ks->start) return 0;
  ks->jumped += e->W - j0;
  for (guint64 i = j0; i < e->W; i++) {
    e->ready[i] = t;
    e->cursor[i] = ks->end;
    hold(e, i, MS_OP_SYNC);
    e->pipe[i] = PIPE_BARRIER;
    c->release = MAX(c->release, e->ready[i]);
  }
  c->arrived += e->W - j0;
  e->next_block = e->blocks;
  win_pop_done(e);
  return 1;
}

/* Place waiting blocks at time t, in increasing order, while a DMM has room: each on the DMM
 * with room holding the fewest resident warps (the lowest-numbered on ties). */
static gboolean place_blocks(Engine *e, gint64 t) {
  guint d = e->model->dmms;
  while (e->next_block < e->blocks && e->place_at == NEVER) {
    guint64 b = e->next_block, nw = block_warps(e, b);
    gint64 best = -1;
    if (nw == e->wpb && !e->nroom) break; /* no DMM has room for a whole block */
    if (nw == e->wpb && e->ptree) { /* the same choice from the tree */
      if (e->ptree[1] != G_MAXUINT64) best = (gint64)(e->ptree[1] & G_MAXUINT32);
    } else {
      for (guint x = 0; x < d; x++) {
        if (e->lim_blocks && e->res_blocks[x] + 1 > e->lim_blocks) continue;
        if (e->lim_warps && e->res_warps[x] + nw > e->lim_warps) continue;
        if (best < 0 || e->res_warps[x] < e->res_warps[best]) best = x;
      }
    }
    if (best < 0) break;
    const int trail = place_trailing_idle(e, b, t);
    if (trail < 0) return FALSE;
    if (trail) break;
    e->block_dmm[b] = (gint32)best;
    const gboolean had = room(e, (guint)best);
    e->res_warps[best] += nw;
    e->res_blocks[best]++;
    e->nroom += room(e, (guint)best) - had;
    ptree_set(e, (guint)best);
    e->blk_done[b] = 0;
    e->blk_retire[b] = t;
    if (e->blk_start) e->blk_start[b] = -1; /* it starts at its first request (advance) */
    e->next_block++;
    for (guint64 i = b * e->wpb; i < b * e->wpb + nw; i++) e->ready[i] = t;
    const int idle = place_idle(e, b, b * e->wpb, nw);
    if (idle < 0) return FALSE;
    if (idle) continue;
    e->blk_idle[b] = 0;
    GArray *L = e->res_list[best];
    const guint words = (L->len + (guint)nw + 63) / 64;
    if (words > e->rbwords[best]) { /* bits past the list's end are kept 0 */
      const guint w2 = MAX(words, 2 * e->rbwords[best]);
      e->rbits[best] = g_renew(guint64, e->rbits[best], w2);
      memset(e->rbits[best] + e->rbwords[best], 0, (w2 - e->rbwords[best]) * sizeof(guint64));
      e->rbwords[best] = w2;
    }
    for (guint64 i = b * e->wpb; i < b * e->wpb + nw; i++) {
      e->ridx[i] = L->len;
      g_array_append_val(L, i);
      work_push(e, i);
    }
    if (!drain(e)) return FALSE;
  }
  return TRUE;
}

/* A kernel boundary in residency mode: every block retires; the next kernel's blocks are
 * placed from time t. */
static void kernel_restart(Engine *e, gint64 t) {
  for (guint x = 0; x < e->model->dmms; x++) {
    e->res_warps[x] = e->res_blocks[x] = e->res_dead[x] = 0;
    if (e->rbwords[x]) memset(e->rbits[x], 0, e->rbwords[x] * sizeof(guint64));
    g_array_set_size(e->res_list[x], 0);
    ptree_set(e, x);
  }
  e->nroom = room(e, 0) ? e->model->dmms : 0; /* all empty */
  for (guint64 b = 0; b < e->blocks; b++) e->block_dmm[b] = -1;
  g_array_set_size(e->heap, 0);
  for (guint64 j = 0; j < e->W; j++) e->cursor[j]++;
  e->next_block = 0;
  e->place_at = t;
}

/* Retirements and placements due at time t, before any dispatch at t.  TRUE if any. */
static gboolean block_events(Engine *e, gint64 t, gboolean *any) {
  *any = FALSE;
  for (;;) {
    if (e->heap->len && g_array_index(e->heap, Retire, 0).time <= t) {
      Retire r = heap_pop(e);
      retire_block(e, r.block);
      if (e->next_block < e->blocks && e->place_at == NEVER) e->place_at = t;
      *any = TRUE;
      continue;
    }
    if (e->place_at <= t) {
      e->place_at = NEVER;
      *any = TRUE;
      if (!place_blocks(e, t)) return FALSE;
      continue;
    }
    return TRUE;
  }
}

/* A read of warp j completes at c: it replaces the least of the m latest if later.  The ring
 * is kept sorted, so the least is at hand for hold(), and a completion later than all (the
 * common case) costs one comparison (a scan of the m found the least before). */
static inline void rtop_put(Engine *e, guint64 j, gint64 c) {
  gint64 *v = e->rtop + j * e->m;
  const guint32 m = e->m, h = e->rhead[j];
  if (c <= v[h]) return;
  /* drop the least: the others run from h + 1 on and slot h is after the last of them */
  const guint32 nh = h + 1 == m ? 0 : h + 1;
  e->rhead[j] = nh;
  if (c >= v[h ? h - 1 : m - 1]) { /* the latest of all: slot h */
    v[h] = c;
    return;
  }
  guint32 pos = h;
  for (guint32 n = 1; n < m; n++) {
    const guint32 prev = pos ? pos - 1 : m - 1;
    if (v[prev] <= c) break;
    v[pos] = v[prev];
    pos = prev;
  }
  v[pos] = c;
}

/* read_window / posted_writes: warp j stops at a step of kind op (a read, a write, or
 * MS_OP_SYNC for a barrier and the warp's end); hold its ready time back until what that
 * step must wait for has completed: a read, until fewer than m of its reads are in flight
 * (the least of its m latest read completions) and, without posted writes, for its writes;
 * a write, for all its reads (its data) and, without posted writes, its writes (posted
 * writes hold no later step of the warp: docs/models.md); a barrier or the end, for
 * everything. */
static inline void hold(Engine *e, guint64 j, MsOp op) {
  if (!e->issue) return;
  gint64 t = e->ready[j];
  if (op == MS_OP_READ) t = MAX(t, e->rtop[j * e->m + e->rhead[j]] + 1);
  else t = MAX(t, e->rdone[j] + 1);
  if (op == MS_OP_SYNC || !e->model->posted_writes) t = MAX(t, e->wdone[j] + 1);
  e->ready[j] = t;
}

/* Asynchronous copies (docs/models.md): an await step, a grid barrier and the warp's end
 * hold warp j until its async reads have completed; nothing else waits for them. */
static inline void await_copies(Engine *e, guint64 j) {
  if (e->adone) e->ready[j] = MAX(e->ready[j], e->adone[j] + 1);
}

/* An async read issues as a read does but outside the read window: it waits only for the
 * warp's writes, unless they are posted. */
static inline void hold_async(Engine *e, guint64 j) {
  if (e->issue && !e->model->posted_writes) e->ready[j] = MAX(e->ready[j], e->wdone[j] + 1);
}

/* Flags (docs/models.md, "Flags"). */
static void flag_free(gpointer p);
G_STATIC_ASSERT(sizeof(gsize) >= sizeof(guint64)); /* a flag number is its hash table key */
/* advance() tests op > MS_OP_SHUFFLE for signal, wait, compute and await */
G_STATIC_ASSERT(MS_OP_SIGNAL > MS_OP_SHUFFLE && MS_OP_WAIT > MS_OP_SHUFFLE && MS_OP_COMPUTE > MS_OP_SHUFFLE &&
                MS_OP_AWAIT > MS_OP_SHUFFLE);

static Flag *flag_get(Engine *e, guint64 f) {
  if (!e->flags) e->flags = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, flag_free);
  Flag *x = g_hash_table_lookup(e->flags, GSIZE_TO_POINTER((gsize)f));
  if (!x) {
    x = g_new0(Flag, 1);
    x->time = NEVER;
    g_hash_table_insert(e->flags, GSIZE_TO_POINTER((gsize)f), x);
  }
  return x;
}

static void flag_free(gpointer p) {
  Flag *x = p;
  if (x->waiters) g_array_free(x->waiters, TRUE);
  g_free(x);
}

/* Warp j at a signal step (i: its place in r's warps) sets its flags when its requests have
 * completed and goes on from then; each warp waiting for them only for this one is released. */
G_GNUC_NO_INLINE static gboolean flag_signal(Engine *e, StepRec *r, guint64 j) {
  const guint64 i = j - r->klo;
  if (e->wl2) /* l2_posted_fences: its reads, and its writes until the L2 has them */
    e->ready[j] = MAX(e->ready[j], MAX(e->rdone[j], e->wl2[j]) + 1);
  else
    hold(e, j, MS_OP_SYNC);
  const gint64 t = e->ready[j];
  for (guint32 x = r->foff[i]; x < r->foff[i + 1]; x++) {
    Flag *f = flag_get(e, r->fl[x]);
    if (f->time != NEVER) {
      g_set_error(&e->error, MS_ERROR, MS_ERROR_INVALID,
                  "%s: step %" G_GUINT64_FORMAT ": warp %" G_GUINT64_FORMAT " signals flag %" G_GUINT64_FORMAT
                  ", which warp %" G_GUINT64_FORMAT " has signalled already (a flag is set once)",
                  ms_source_name(e->src), r->res.index, j, r->fl[x], f->by);
      return FALSE;
    }
    f->time = t;
    f->by = j;
    if (!f->waiters) continue;
    GArray *wl = f->waiters;
    f->waiters = NULL;
    for (guint q = 0; q < wl->len; q++) {
      const guint64 v = g_array_index(wl, guint64, q);
      e->ready[v] = MAX(e->ready[v], t);
      if (--e->fpend[v] == 0) { /* past its wait step */
        StepRec *wr = win_get(e, e->cursor[v]);
        e->cursor[v]++;
        pass(e, wr);
        work_push(e, v);
      }
    }
    g_array_free(wl, TRUE);
  }
  return TRUE;
}

/* Warp j at a wait step: on at once if its flags are set (from the latest of their times), else
 * parked on those that are not.  TRUE if it waits. */
G_GNUC_NO_INLINE static gboolean flag_wait(Engine *e, StepRec *r, guint64 j) {
  const guint64 i = j - r->klo;
  guint32 pend = 0;
  gint64 t = e->ready[j];
  if (!e->fpend) e->fpend = ms_mem_new(guint32, e->W);
  for (guint32 x = r->foff[i]; x < r->foff[i + 1]; x++) {
    Flag *f = flag_get(e, r->fl[x]);
    if (f->time == NEVER) {
      if (!f->waiters) f->waiters = g_array_new(FALSE, FALSE, sizeof(guint64));
      g_array_append_val(f->waiters, j);
      pend++;
    } else {
      t = MAX(t, f->time);
    }
  }
  e->ready[j] = t;
  if (!pend) return FALSE;
  e->fpend[j] = pend;
  e->pipe[j] = PIPE_FLAG;
  return TRUE;
}

/* Move warp j's cursor to its next memory step with a request, arriving at barriers on the
 * way.  Returns FALSE on a source error. */
/* How many steps ahead advance() prefetches a warp's stage count: a warp that walks steps
 * with no request of its own (divergent GCD lanes) misses the cache on each step's counts. */
/* ---- repeated kernels (KOut) ---------------------------------------------------------- */

static void kout_free(gpointer p) {
  KOut *k = p;
  if (!k) return;
  g_free(k->busy);
  g_free(k->sres);
  g_free(k->lastpos);
  g_free(k->lastwarp);
  g_free(k);
}

/* Absorb n bytes into a fingerprint's two 64-bit lanes (two different mixes of each word). */
static void fp_add(guint64 h[2], const void *data, gsize n) {
  const guint8 *b = data;
  h[1] ^= n * G_GUINT64_CONSTANT(0x9e3779b97f4a7c15);
  while (n) {
    guint64 x = 0;
    const gsize c = MIN(n, (gsize)8);
    memcpy(&x, b, c);
    b += c;
    n -= c;
    h[0] = ms_l2_hash(h[0] ^ x) + G_GUINT64_CONSTANT(0x632be59bd9b4e019);
    h[1] = (h[1] ^ ms_l2_hash(x + G_GUINT64_CONSTANT(0x85ebca77c2b2ae63))) * G_GUINT64_CONSTANT(0xff51afd7ed558ccd) + 1;
  }
}

/* Nothing dispatched before time t still holds a slot or a loaded-latency window at t: a
 * kernel starting at t runs as if nothing came before it (but the round-robin places). */
static gboolean krep_clean(const Engine *e, gint64 t) {
  for (guint p = 0; p < e->P; p++)
    if (e->slot[p] > t * e->rate[p]) return FALSE;
  if (e->l2c && e->dslot > t * e->drate) return FALSE;
  if (e->pslot)
    for (guint x = 0; x < e->model->dmms; x++)
      if (e->pslot[x] > t * e->prate) return FALSE;
  const LoadWin *w[2] = {&e->lw_main, &e->lw_dram};
  for (int i = 0; i < 2; i++)
    if (w[i]->curve && w[i]->len > w[i]->head && w[i]->b[w[i]->len - 1] > (t - w[i]->win + 1) * w[i]->g) return FALSE;
  return TRUE;
}

/* The kernel after the grid barrier at index `open`, loaded up to its closing grid barrier
 * (*close). FALSE if it has none (the trace ends), holds a flag step or is too large to look
 * ahead (KREP_MAX_BYTES), or on a loading error (e->error set). */
static gboolean krep_load(Engine *e, guint64 open, guint64 *close) {
  guint64 bytes = 0;
  for (guint64 s = open + 1;; s++) {
    const StepRec *r = step_at(e, s);
    if (!r) return FALSE;
    if (r->step.op == MS_OP_SYNC && r->step.scope == MS_SCOPE_GRID) {
      *close = s;
      return TRUE;
    }
    if (MS_OP_IS_FLAG(r->step.op)) return FALSE;
    bytes += (r->khi - r->klo) * ((r->k ? 2 : 0) + (r->kd ? 2 : 0) + (r->kp ? 2 : 0) + (r->kw ? 2 : 0) + (r->kh ? 4 : 0)) + sizeof *r;
    if (bytes > KREP_MAX_BYTES) return FALSE;
  }
}

/* A step's fingerprint: its header and its counts. */
static void step_fp(const StepRec *r, guint64 f[2]) {
  f[0] = G_GUINT64_CONSTANT(0xa4093822299f31d0);
  f[1] = G_GUINT64_CONSTANT(0x082efa98ec4e6c89);
  const guint64 hd[11] = {r->step.op, r->step.space, r->step.scope, r->klo, r->khi, r->k != NULL, r->kd != NULL, r->kh != NULL,
                          (guint64)r->step.async, r->kp != NULL, r->kw != NULL};
  fp_add(f, hd, sizeof hd);
  const guint64 n = r->khi - r->klo;
  if (r->k) fp_add(f, r->k, n * sizeof *r->k);
  if (r->kd) fp_add(f, r->kd, n * sizeof *r->kd);
  if (r->kh) fp_add(f, r->kh, n * sizeof *r->kh);
  if (r->kp) fp_add(f, r->kp, n * sizeof *r->kp);
  if (r->kw) fp_add(f, r->kw, n * sizeof *r->kw);
}

/* A kernel's fingerprint begins with the round-robin places it starts from. */
static void krep_fp_begin(const Engine *e, guint64 h[2]) {
  h[0] = G_GUINT64_CONSTANT(0x243f6a8885a308d3);
  h[1] = G_GUINT64_CONSTANT(0x13198a2e03707344);
  fp_add(h, e->lastpos, e->P * sizeof *e->lastpos);
  if (e->lastwarp) fp_add(h, e->lastwarp, e->model->dmms * sizeof *e->lastwarp);
}

/* The fingerprint of the steps first .. close (the closing barrier) and the round-robin
 * places they start from: everything their dispatch depends on besides a clean start. */
static void krep_fp(const Engine *e, guint64 first, guint64 close, guint64 h[2]) {
  krep_fp_begin(e, h);
  for (guint64 s = first; s <= close; s++) {
    const StepRec *r = win_get((Engine *)e, s);
    guint64 f[2];
    if (r->has_fp) memcpy(f, r->fp, sizeof f);
    else step_fp(r, f);
    fp_add(h, f, sizeof f);
  }
}

/* ---- repeated kernel counts (KMemo) ------------------------------------------------------ */

static void kmemo_free(gpointer p) {
  KMemo *m = p;
  if (!m) return;
  g_array_free(m->steps, TRUE);
  g_free(m->tag);
  g_free(m->mask);
  g_free(m->cnt);
  g_free(m);
}

/* The fingerprint krep_fp would give kept kernel m's steps, loaded now. */
static void kmemo_fp(const Engine *e, const KMemo *m, guint64 h[2]) {
  krep_fp_begin(e, h);
  for (guint i = 0; i < m->steps->len; i++) fp_add(h, g_array_index(m->steps, KMStep, i).fp, 2 * sizeof(guint64));
}

/* The L2 cache's state (each set's valid lines in order, their groups and dirty bits). */
static void l2_state_fp(const Engine *e, guint64 h[2]) {
  h[0] = G_GUINT64_CONSTANT(0x452821e638d01377);
  h[1] = G_GUINT64_CONSTANT(0xbe5466cf34e90c6c);
  const L2Cache *L = e->l2c;
  if (!L) return;
  const guint64 nsets = (guint64)L->parts * L->sets;
  fp_add(h, L->cnt, nsets);
  for (guint64 x = 0; x < nsets; x++)
    if (L->cnt[x]) {
      fp_add(h, L->tag + x * L->ways, L->cnt[x] * sizeof *L->tag);
      fp_add(h, L->mask + x * L->ways, L->cnt[x] * sizeof *L->mask);
    }
}

static void kmemo_counters(const Engine *e, guint64 v[KM_NCTR]) {
  memset(v, 0, KM_NCTR * sizeof *v);
  for (guint i = 0; i < e->nctr; i++) {
    const Counter *c = &e->ctr[i];
    v[KM_L2_HITS] += c->l2_hits;
    v[KM_L2_MISSES] += c->l2_misses;
    v[KM_L1_HITS] += c->l1_hits;
    v[KM_L1_MISSES] += c->l1_misses;
    v[KM_DRAM_SLOTS] += c->dram_slots;
    v[KM_DRAM_LONE] += c->dram_lone;
  }
}

/* At a grid barrier r just loaded: the source's key of the kernel after it, and a kept
 * kernel of that key that started from the L2 state the cache is in now. */
static void kmemo_key(Engine *e, const StepRec *r) {
  e->kp_index = r->res.index;
  e->kp_m = NULL;
  e->kcmd = KC_NONE;
  const guint64 last = e->klanes; /* the kernel the barrier closes */
  e->klanes = 0;
  e->kp_key = !e->kmemo_off && ms_source_kernel_key(e->src, &e->kp_k);
  e->kstart = e->kp_key;
  if (!e->kp_key) return;
  /* The L2 state's fingerprint is a pass over the cache's lines, at every keyed barrier: only
   * where it may pay, for a key whose kept kernels counted at least as many lanes as the
   * cache has lines, or a new key with room to be kept after a kernel that large (a loop of
   * many small kernels through a large cache would spend more on fingerprints than on
   * counting, whether they share a key or each has its own) */
  const L2Cache *L = e->l2c;
  const guint64 lines = L ? (guint64)L->parts * L->sets * L->ways : 0;
  gboolean kept = FALSE, pays = FALSE;
  for (guint i = 0; i < e->kmemos->len; i++) {
    const KMemo *m = g_ptr_array_index(e->kmemos, i);
    if (m->key != e->kp_k) continue;
    kept = TRUE;
    pays |= m->lanes >= lines;
  }
  if (kept ? !pays
           : e->kmemos->len >= KMEMO_MAX || last < lines || g_hash_table_contains(e->ksmall, &e->kp_k)) {
    e->kp_key = e->kstart = FALSE;
    return;
  }
  l2_state_fp(e, e->kp_h);
  for (guint i = 0; i < e->kmemos->len; i++) {
    KMemo *m = g_ptr_array_index(e->kmemos, i);
    if (m->key == e->kp_k && m->h0[0] == e->kp_h[0] && m->h0[1] == e->kp_h[1]) e->kp_m = m;
  }
}

/* At the first step loaded after a keyed barrier: load the kernel as ghosts (kmemo_decide
 * said so), or count it into a new KMemo (none of its key and state kept yet). */
static void kmemo_begin(Engine *e) {
  const int cmd = e->kcmd;
  e->kstart = FALSE;
  e->kcmd = KC_NONE;
  if (cmd == KC_SKIP) {
    e->kghost = e->kp_m;
    e->kgi = 0;
    return;
  }
  if (e->kp_m || e->kmemos->len >= KMEMO_MAX) return;
  KMemo *m = g_new0(KMemo, 1);
  m->key = e->kp_k;
  memcpy(m->h0, e->kp_h, sizeof m->h0);
  m->steps = g_array_new(FALSE, FALSE, sizeof(KMStep));
  kmemo_counters(e, e->kmr_base);
  e->kmr = m;
}

/* A step counted while recording: its fingerprint and figures; at the closing grid barrier
 * the KMemo is kept, with what the kernel added to the counters and the L2 state it left. */
static void kmemo_add(Engine *e, StepRec *r) {
  KMemo *m = e->kmr;
  if (MS_OP_IS_FLAG(r->step.op)) { /* (flags turn repeated kernels off) */
    kmemo_free(m);
    e->kmr = NULL;
    return;
  }
  m->bytes += (r->khi - r->klo) * ((r->k ? 2 : 0) + (r->kd ? 2 : 0) + (r->kp ? 2 : 0) + (r->kw ? 2 : 0) + (r->kh ? 4 : 0)) + sizeof *r;
  if (m->steps->len >= KMEMO_MAX_STEPS || m->bytes > KREP_MAX_BYTES) { /* too long to keep, or to get an outcome (krep_load) */
    kmemo_free(m);
    e->kmr = NULL;
    return;
  }
  step_fp(r, r->fp);
  r->has_fp = TRUE;
  KMStep ks = {.step = r->step, .klo = r->klo, .khi = r->khi, .stages = r->res.stages, .dispatches = r->res.dispatches,
               .requests = r->res.requests, .d = r->d};
  memcpy(ks.fp, r->fp, sizeof ks.fp);
  g_array_append_val(m->steps, ks);
  if (r->step.op != MS_OP_SYNC) m->lanes += (r->khi - r->klo) * e->w;
  if (r->step.op != MS_OP_SYNC || r->step.scope != MS_SCOPE_GRID) return;
  const L2Cache *L = e->l2c;
  if (L && m->lanes < (guint64)L->parts * L->sets * L->ways) { /* too small to pay (kmemo_key): not kept */
    if (g_hash_table_size(e->ksmall) < KMEMO_SMALL_MAX) g_hash_table_add(e->ksmall, g_memdup2(&m->key, sizeof m->key));
    kmemo_free(m);
    e->kmr = NULL;
    return;
  }
  guint64 now[KM_NCTR];
  kmemo_counters(e, now);
  for (int i = 0; i < KM_NCTR; i++) m->dctr[i] = now[i] - e->kmr_base[i];
  if (L) {
    const guint64 nsets = (guint64)L->parts * L->sets;
    m->tag = g_memdup2(L->tag, nsets * L->ways * sizeof *L->tag);
    m->mask = g_memdup2(L->mask, nsets * L->ways * sizeof *L->mask);
    m->cnt = g_memdup2(L->cnt, nsets * sizeof *L->cnt);
  }
  g_ptr_array_add(e->kmemos, m);
  e->kmr = NULL;
}

static gboolean same_step(const MsStep *a, const MsStep *b) {
  return a->op == b->op && a->space == b->space && a->scope == b->scope && a->async == b->async;
}

/* A step of a ghost kernel: the kept kernel's figures instead of counts.  At its closing
 * grid barrier the counters take what the kept kernel added and the L2 cache the state it
 * left.  FALSE (err set) if the source's steps are not the kept kernel's. */
static gboolean kmemo_ghost(Engine *e, StepRec *r, GError **err) {
  KMemo *m = e->kghost;
  const gboolean last = e->kgi + 1 == m->steps->len;
  const KMStep *ks = e->kgi < m->steps->len ? &g_array_index(m->steps, KMStep, e->kgi) : NULL;
  if (!ks || !same_step(&ks->step, &r->step) ||
      last != (r->step.op == MS_OP_SYNC && r->step.scope == MS_SCOPE_GRID)) {
    g_set_error(err, MS_ERROR, MS_ERROR_INVALID,
                "%s: two kernels the source gives the same key (%" G_GUINT64_FORMAT ") have different steps",
                ms_source_name(e->src), m->key);
    return FALSE;
  }
  e->kgi++;
  r->ghost = r->has_fp = TRUE;
  memcpy(r->fp, ks->fp, sizeof r->fp);
  r->klo = ks->klo;
  r->khi = ks->khi;
  r->d = ks->d;
  r->res.stages = ks->stages;
  r->res.dispatches = ks->dispatches;
  r->res.requests = ks->requests;
  if (!last) return TRUE;
  Counter *c = &e->ctr[0];
  c->l2_hits += m->dctr[KM_L2_HITS];
  c->l2_misses += m->dctr[KM_L2_MISSES];
  c->l1_hits += m->dctr[KM_L1_HITS];
  c->l1_misses += m->dctr[KM_L1_MISSES];
  c->dram_slots += m->dctr[KM_DRAM_SLOTS];
  c->dram_lone += m->dctr[KM_DRAM_LONE];
  L2Cache *L = e->l2c;
  if (L) {
    const guint64 nsets = (guint64)L->parts * L->sets;
    memcpy(L->tag, m->tag, nsets * L->ways * sizeof *L->tag);
    memcpy(L->mask, m->mask, nsets * L->ways * sizeof *L->mask);
    memcpy(L->cnt, m->cnt, nsets * sizeof *L->cnt);
  }
  e->kghost = NULL;
  e->knc++;
  return TRUE;
}

/* At the release of grid barrier `open` whose kernel starts clean: if the loading thread
 * waits there with a kept kernel of the next kernel's key and state, and the outcome of
 * that kernel's fingerprint from the round-robin places now is kept, the next kernel loads
 * as ghosts (krep_release then takes the outcome); else it is counted. */
static void kmemo_decide(Engine *e, guint64 open) {
  Loader *L = e->ld;
  if (L) {
    g_mutex_lock(&L->m);
    if (!L->parked || L->park_index != open || L->cmd != KC_NONE) {
      g_mutex_unlock(&L->m);
      return;
    }
  } else if (!e->kstart || !e->kp_m || e->kp_index != open || e->kcmd != KC_NONE || e->pstep != open + 1) {
    return;
  }
  const KMemo *m = e->kp_m;
  guint64 h[2];
  kmemo_fp(e, m, h);
  const KOut *o = g_hash_table_lookup(e->kout, &h[0]);
  const int cmd = o && o->h[1] == h[1] && o->close - o->first == m->steps->len - 1 ? KC_SKIP : KC_COUNT;
  if (L) {
    L->cmd = cmd;
    g_cond_broadcast(&L->c);
    g_mutex_unlock(&L->m);
  } else {
    e->kcmd = cmd;
  }
}

/* At the release of grid barrier r at *tp (its launch included): keep the outcome of the
 * kernel that ends there if it was recorded and ends clean; then, while the next kernel
 * starts clean and has a kept outcome, take it instead of dispatching (its steps get the
 * outcome's times shifted to its start, its closing barrier releases at the outcome's time)
 * and go on from its closing barrier, which is popped with them: *tp becomes the last one's
 * release, where the caller releases the warps. A next kernel without an outcome is
 * recorded. FALSE on a loading error. */
static gboolean krep_release(Engine *e, const StepRec *r, gint64 *tp) {
  gint64 t = *tp;
  guint64 open = r->res.index;
  KOut *k = e->krec;
  gint64 lc = e->last_complete;
  if (k) {
    e->krec = NULL;
    e->last_complete = MAX(e->last_complete, k->lc0);
    if (k->close == r->res.index && krep_clean(e, t) && g_hash_table_size(e->kout) < KREP_MAX_KERNELS &&
        !g_hash_table_contains(e->kout, &k->h[0])) {
      for (guint p = 0; p < e->P; p++) k->busy[p] = e->busy[p] - k->busy[p];
      k->dbusy = e->dbusy - k->dbusy;
      k->rel_release = r->release - k->t0;
      k->rel_end = t - k->t0;
      k->rel_last = lc >= 0 ? lc - k->t0 : -1; /* its own latest completion */
      k->lastpos = g_memdup2(e->lastpos, e->P * sizeof *e->lastpos);
      if (e->lastwarp) k->lastwarp = g_memdup2(e->lastwarp, e->model->dmms * sizeof *e->lastwarp);
      g_hash_table_insert(e->kout, &k->h[0], k);
    } else {
      kout_free(k);
    }
  }
  for (;;) {
    if (!krep_clean(e, t)) return TRUE;
    if (e->kmemo) kmemo_decide(e, open);
    guint64 close;
    if (!krep_load(e, open, &close)) {
      const StepRec *g = e->error || open + 1 >= e->head + e->count ? NULL : win_get(e, open + 1);
      if (g && g->ghost) /* kmemo_decide found the outcome, so the kernel loads whole: cannot happen */
        e->error = g_error_new(MS_ERROR, MS_ERROR_INVALID, "internal error: a kernel loaded uncounted cannot be taken");
      return e->error == NULL;
    }
    guint64 h[2];
    krep_fp(e, open + 1, close, h);
    const KOut *o = g_hash_table_lookup(e->kout, &h[0]);
    if (!o || o->h[1] != h[1] || o->close - o->first != close - (open + 1)) {
      if (win_get(e, open + 1)->ghost) { /* kmemo_decide found the outcome: cannot happen */
        e->error = g_error_new(MS_ERROR, MS_ERROR_INVALID, "internal error: a kernel loaded uncounted has no kept outcome");
        return FALSE;
      }
      k = g_new0(KOut, 1);
      k->h[0] = h[0];
      k->h[1] = h[1];
      k->first = open + 1;
      k->close = close;
      k->t0 = t;
      k->busy = g_memdup2(e->busy, e->P * sizeof *e->busy);
      k->dbusy = e->dbusy;
      k->lc0 = e->last_complete;
      e->last_complete = -1;
      if (e->opt->per_step && close > open + 1) k->sres = g_new(gint64, 2 * (close - open - 1));
      e->krec = k;
      return TRUE;
    }
    for (guint64 s = open + 1; s < close; s++) {
      StepRec *q = win_get(e, s);
      if (o->sres) {
        const gint64 *x = o->sres + 2 * (s - open - 1);
        q->res.first_dispatch = x[0] >= 0 ? t + x[0] : -1;
        q->res.last_complete = x[1] >= 0 ? t + x[1] : -1;
      }
      q->remaining = jumps_of(q);
    }
    StepRec *rr = win_get(e, close);
    rr->arrived = e->W;
    rr->release = t + o->rel_release;
    rr->remaining = 0;
    for (guint p = 0; p < e->P; p++) e->busy[p] += o->busy[p];
    e->dbusy += o->dbusy;
    if (o->rel_last >= 0 && t + o->rel_last > e->last_complete) e->last_complete = t + o->rel_last;
    memcpy(e->lastpos, o->lastpos, e->P * sizeof *e->lastpos);
    if (e->lastwarp) memcpy(e->lastwarp, o->lastwarp, e->model->dmms * sizeof *e->lastwarp);
    for (guint64 j = 0; j < e->W; j++) e->cursor[j] = close;
    if (e->boundary) e->kernels++;
    e->result->repeated_kernels++;
    t += o->rel_end;
    *tp = t;
    open = close;
    win_pop_done(e); /* the barrier it started at, its steps and rr (the caller releases the warps) */
  }
}

/* Whether warp j (inside the union of closed run u) has a request in one of u's steps. */
static gboolean run_has(Engine *e, Run *u, guint64 j) {
  if (!u->any) {
    const guint64 n = u->uhi - u->ulo;
    u->any = g_new0(guint64, (n + 63) / 64);
    for (guint64 s = u->start; s < u->start + u->len; s++) {
      const StepRec *r = win_get(e, s);
      for (guint64 w = r->klo; w < r->khi; w++)
        if (r->k[w - r->klo] || (r->kh && r->kh[w - r->klo])) u->any[(w - u->ulo) >> 6] |= G_GUINT64_CONSTANT(1) << ((w - u->ulo) & 63);
    }
  }
  return (u->any[(j - u->ulo) >> 6] >> ((j - u->ulo) & 63)) & 1;
}

#define ADV_PREFETCH 4u

static gboolean advance(Engine *e, guint64 j) {
  for (;;) {
    if (e->cursor[j] + ADV_PREFETCH < e->head + e->count) {
      const StepRec *f = win_get(e, e->cursor[j] + ADV_PREFETCH);
      if (f->k && j >= f->klo && j < f->khi) __builtin_prefetch(f->k + (j - f->klo));
    }
    StepRec *r = step_at(e, e->cursor[j]);
    if (!r) {
      if (e->error) return FALSE;
      hold(e, j, MS_OP_SYNC);
      await_copies(e, j);
      e->pipe[j] = PIPE_DONE;
      e->done_warps++;
      if (e->dyn) block_arrive(e, j);
      return TRUE;
    }
    KSpan *ks = r->kspan;
    if (ks && e->cursor[j] == ks->start && !ks->nojump) {
      /* at the start of a kernel: if j's block has no request in any of its steps, jump to
       * its closing barrier (loading its steps while the block stays outside their union) */
      const int idle = kspan_idle(e, ks, j / e->wpb);
      if (idle < 0) return FALSE;
      if (idle) {
        ks->jumped++;
        e->cursor[j] = ks->end;
        win_pop_done(e);
        continue;
      }
      r = step_at(e, e->cursor[j]); /* loading may have grown the window's ring */
    }
    if (r->step.op == MS_OP_SYNC) {
      hold(e, j, MS_OP_SYNC);
      e->pipe[j] = PIPE_BARRIER;
      if (r->step.scope == MS_SCOPE_GRID) {
        await_copies(e, j);
        r->arrived++;
        r->release = MAX(r->release, e->ready[j]);
        if (e->dyn) block_arrive(e, j);
        if (r->arrived == e->W) {
          gint64 t = r->release;
          e->kstamp++; /* barrier time: a new kernel, no block has taken part yet */
          if (e->iacc) { /* issue_rate: the phase ends no earlier than its issue (not in MAX: it resets the sums) */
            const gint64 ti = issue_close(e);
            t = MAX(t, ti);
          }
          if (e->boundary) {
            t += e->launch;
            e->kernels++;
          }
          if (e->iacc) e->iphase = t;
          r->remaining = 0;
          if (e->krep && !krep_release(e, r, &t)) return FALSE;
          if (e->dyn) {
            kernel_restart(e, t);
          } else {
            for (guint64 i = 0; i < e->W; i++) release_warp(e, i, t);
          }
          win_pop_done(e);
        }
      } else {
        guint64 b = j / e->wpb;
        r->block_arrived[b]++;
        r->block_release[b] = MAX(r->block_release[b], e->ready[j]);
        guint64 first = b * e->wpb, last = MIN(e->W, first + e->wpb);
        if (r->block_arrived[b] == last - first) {
          gint64 t = r->block_release[b];
          if (e->bseen && e->bseen[b] == e->kstamp) t = barrier_release(e, first, last); /* barrier time */
          for (guint64 i = first; i < last; i++) release_warp(e, i, t);
          r->remaining -= last - first;
          if (rem_of(r) == 0) win_pop_done(e);
        }
      }
      return TRUE;
    }
    const guint16 kj = kof(r, j);
    if (kj == 0 && !khof(r, j)) { /* no request in this step: skip it at no cost */
      Run *u = r->run;
      if (u && e->cursor[j] == u->start) {
        /* at the start of a run: if none of its steps has a request of j, jump over it */
        while (!u->closed)
          if (!step_at(e, u->start + u->len) && e->error) return FALSE;
        if (j < u->ulo || j >= u->uhi || !run_has(e, u, j)) {
          u->jumped++;
          e->cursor[j] = u->start + u->len;
          win_pop_done(e);
          continue;
        }
        r = step_at(e, e->cursor[j]); /* loading may have grown the window's ring */
      }
      e->cursor[j]++;
      pass(e, r);
      continue;
    }
    if (e->bseen) e->bseen[j / e->wpb] = e->kstamp; /* barrier time: the block takes part */
    if (G_UNLIKELY(r->step.op > MS_OP_SHUFFLE)) { /* signal, wait, compute, await: one test on the memory steps' path */
      if (r->step.op == MS_OP_COMPUTE) { /* no stage: wait for the reads it computes on, then
                                          * its instructions at instruction_units each; with
                                          * none, no wait either (the papers' model) */
        const gint64 cu = (gint64)kj * (gint64)e->model->instruction_units;
        if (cu) hold(e, j, MS_OP_SHUFFLE);
        if (e->iacc) e->iacc[pipe_of(e, j, MS_SPACE_SHARED)] += kj; /* issue_rate: its DMM's issue */
        if (cu) {
          const gint64 done = e->ready[j] + cu - 1;
          if (r->res.first_dispatch < 0 || e->ready[j] < r->res.first_dispatch) r->res.first_dispatch = e->ready[j];
          r->res.last_complete = MAX(r->res.last_complete, done);
          e->last_complete = MAX(e->last_complete, done);
          e->ready[j] += cu;
        }
      } else if (r->step.op == MS_OP_AWAIT) {
        await_copies(e, j);
      } else if (r->step.op == MS_OP_SIGNAL) {
        if (!flag_signal(e, r, j)) return FALSE;
      } else if (flag_wait(e, r, j)) {
        return TRUE;
      }
      e->cursor[j]++;
      pass(e, r);
      continue;
    }
    if (r->step.op == MS_OP_SHUFFLE) { /* no stage: wait for the reads it exchanges, then shuffle_units */
      hold(e, j, MS_OP_SHUFFLE);
      const gint64 su = (gint64)e->model->shuffle_units;
      if (su) {
        const gint64 done = e->ready[j] + su - 1;
        if (r->res.first_dispatch < 0 || e->ready[j] < r->res.first_dispatch) r->res.first_dispatch = e->ready[j];
        r->res.last_complete = MAX(r->res.last_complete, done);
        e->last_complete = MAX(e->last_complete, done);
        e->ready[j] += su;
      }
      e->cursor[j]++;
      pass(e, r);
      continue;
    }
    if (e->blk_start) { /* block_start_units: the block starts when a warp reaches a request */
      const guint64 b = j / e->wpb;
      if (e->blk_start[b] < 0) {
        const guint x = (guint)e->block_dmm[b];
        e->blk_start[b] = MAX(e->ready[j], e->dmm_start[x]);
        e->dmm_start[x] = e->blk_start[b] + (gint64)e->model->block_start_units;
      }
      e->ready[j] = MAX(e->ready[j], e->blk_start[b]);
    }
    if (G_UNLIKELY(r->step.async)) hold_async(e, j);
    else hold(e, j, r->step.op);
    if (kj == 0 && !kpof(r, j)) { /* L1: every group hit: no pipeline; it completes l1_latency on
                                   * (with dmm_port_banks it goes to the global pipeline for
                                   * its port slots: dispatch_l1) */
      const gint64 t = e->ready[j], done = t + e->l1lat - 1;
      if (r->res.first_dispatch < 0 || t < r->res.first_dispatch) r->res.first_dispatch = t;
      r->res.last_complete = MAX(r->res.last_complete, done);
      e->last_complete = MAX(e->last_complete, done);
      if (G_UNLIKELY(r->step.async)) {
        e->adone[j] = MAX(e->adone[j], done);
        e->ready[j] = t + 1;
      } else if (e->issue) {
        rtop_put(e, j, done);
        e->rdone[j] = MAX(e->rdone[j], done);
        e->ready[j] = t + 1;
      } else {
        e->ready[j] = done + 1;
      }
      e->cursor[j]++;
      pass(e, r);
      continue;
    }
    guint p = pipe_of(e, j, r->step.space);
    e->pipe[j] = (gint32)p;

    e->elig[p]++;
    if (!dyn_pipe(e, p)) bit_set(e, p, pos_of(e, p, j), e->ready[j]);
    else e->rbits[p][e->ridx[j] >> 6] |= G_GUINT64_CONSTANT(1) << (e->ridx[j] & 63);
    if (e->ready[j] < e->lb[p]) e->lb[p] = e->ready[j];
    pq_fix(e, p);
    return TRUE;
  }
}

/* issue_rate (docs/models.md, "Instructions"): the phase that began at iphase issued iacc[x]
 * instructions on DMM x; it ends no earlier than iphase + ceil(max_x iacc[x] / issue_rate).
 * Returns that time, counts it as a completion and starts the sums again. */
static gint64 issue_close(Engine *e) {
  guint64 mx = 0;
  for (guint x = 0; x < e->model->dmms; x++) {
    mx = MAX(mx, e->iacc[x]);
    e->iacc[x] = 0;
  }
  const guint64 units = (mx + e->model->issue_rate - 1) / e->model->issue_rate;
  e->iunits += units;
  if (units) e->last_complete = MAX(e->last_complete, e->iphase + (gint64)units - 1);
  return e->iphase + (gint64)units;
}

static gboolean drain(Engine *e) {
  while (e->nwork) {
    const guint64 j = e->work[--e->nwork];
    if (!advance(e, j)) return FALSE;
  }
  return TRUE;
}


/* Dispatch warp j (member position q) on pipeline p at time t: its k stages take the next k
 * free slots from t * rate on; slot s enters at s / rate (rate 1: times t .. t+k-1). */
/* The latency of a request dispatched at t on path w whose next free slot is `next`. */
static inline gint64 load_latency(LoadWin *w, gint64 t, gint64 next) {
  const gint64 lo = (t - w->win + 1) * w->g, hi = (t + 1) * w->g;
  while (w->head < w->len && w->b[w->head] <= lo) {
    w->total -= w->b[w->head] - w->a[w->head];
    w->head++;
  }
  gint64 n = w->total;
  if (w->head < w->len && w->a[w->head] < lo) n -= lo - w->a[w->head];
  if (next > hi) n -= next - hi;
  const gint64 cap = w->g * w->win;
  const guint64 u = n <= 0 ? 0 : n >= cap ? 1000 : (guint64)(1000 * n / cap);
  return w->at[u];
}

/* Path w took slots [s0, s0 + k). */
static inline void load_take(LoadWin *w, gint64 s0, gint64 k) {
  if (k <= 0) return;
  w->total += k;
  if (w->len > w->head && w->b[w->len - 1] == s0) {
    w->b[w->len - 1] = s0 + k;
    return;
  }
  if (w->len == w->cap) {
    if (w->head && w->head >= w->cap / 2) { /* slide down */
      memmove(w->a, w->a + w->head, (w->len - w->head) * sizeof *w->a);
      memmove(w->b, w->b + w->head, (w->len - w->head) * sizeof *w->b);
      w->len -= w->head;
      w->head = 0;
    } else {
      w->cap = w->cap ? 2 * w->cap : 256;
      w->a = g_renew(gint64, w->a, w->cap);
      w->b = g_renew(gint64, w->b, w->cap);
    }
  }
  w->a[w->len] = s0;
  w->b[w->len] = s0 + k;
  w->len++;
}

/* dispatch() on a model of the papers' rule (e->plain): the same steps without the
 * extensions' tests. */
/* advance() and drain() after a dispatch on a model of the papers' rule, with advance()'s
 * common case inline: the warp's next step is loaded, a plain read or write with a request of
 * the warp, and not the first of a kernel span (which may jump).  Without a read window,
 * barrier time or block starts (e->quick), advance() does no more for it than this: the same
 * state, in the same order.  Any other case takes advance() and drain(). */
static inline gboolean advance_fast(Engine *e, guint64 j) {
  const guint64 c = e->cursor[j];
  if (G_LIKELY(e->quick && c < e->head + e->count)) {
    const StepRec *f = win_get(e, c);
    if (f->step.op <= MS_OP_WRITE && !f->step.async && !(f->kspan && c == f->kspan->start) && kof(f, j)) {
      if (c + ADV_PREFETCH < e->head + e->count) {
        const StepRec *g = win_get(e, c + ADV_PREFETCH);
        if (g->k && j >= g->klo && j < g->khi) __builtin_prefetch(g->k + (j - g->klo));
      }
      const guint p = pipe_of(e, j, f->step.space);
      e->pipe[j] = (gint32)p;
      e->elig[p]++;
      bit_set(e, p, pos_of(e, p, j), e->ready[j]);
      if (e->ready[j] < e->lb[p]) e->lb[p] = e->ready[j];
      pq_fix(e, p);
      return e->nwork ? drain(e) : TRUE;
    }
  }
  return advance(e, j) && drain(e);
}

static inline gboolean dispatch_plain(Engine *e, guint p, guint64 q, guint64 j, gint64 t) {
  StepRec *r = win_get(e, e->cursor[j]);
  const gint64 k = kof(r, j);
  const gint64 s0 = MAX(e->slot[p], t);
  const gint64 complete = s0 + k - 1 + e->lat[p] - 1;
  e->slot[p] = s0 + k;
  e->free_at[p] = s0 + k;
  e->busy[p] += (guint64)k;
  e->ready[j] = complete + 1;
  e->elig[p]--;
  e->lastpos[p] = q;
  bit_clear(e, p, q);
  pq_fix(e, p);
  e->pipe[j] = PIPE_DONE;
  if (r->res.first_dispatch < 0 || t < r->res.first_dispatch) r->res.first_dispatch = t;
  if (complete > r->res.last_complete) r->res.last_complete = complete;
  if (complete > e->last_complete) e->last_complete = complete;
  e->cursor[j]++;
  pass(e, r);
  return advance_fast(e, j);
}

/* dmm_port_shared: global read j's wavefronts (its bank degree, deg) take DMM x's own pipeline
 * from t on, after what it took before (its shared accesses, earlier reads' wavefronts): the
 * data stage the SM's shared memory and its global reads share (docs/models.md, "Shared and
 * global reads on one port").  A queue: the warp is not held; returns the time unit of the
 * last wavefront, before which the read does not complete. */
static gint64 port_shared_stages(Engine *e, guint x, gint64 t, gint64 deg) {
  const gint64 g = e->rate[x], s0 = MAX(e->slot[x], t * g);
  e->slot[x] = s0 + deg;
  e->free_at[x] = rate_div(e->slot[x], g, e->rmag[x]);
  e->busy[x] += (guint64)deg;
  pq_fix(e, x);
  return rate_div(s0 + deg - 1, g, e->rmag[x]);
}

/* dispatch() of a read whose every group hit the L1, with dmm_port_banks: no stage of the
 * global pipeline, no L2, no DRAM; its port slots from t on, in dispatch order, and its data
 * l1_latency after the later of t and its last port slot (docs/models.md, "The L1 cache"). */
static gboolean dispatch_l1(Engine *e, guint p, guint64 q, guint64 j, gint64 t, StepRec *r) {
  const guint x = pipe_of(e, j, MS_SPACE_SHARED);
  const gint64 kp = kp_slots(e, kpof(r, j));
  const gint64 p0 = MAX(e->pslot[x], t * e->prate);
  const gint64 pe = rate_div(p0 + kp - 1, e->prate, e->pmag);
  e->pslot[x] = p0 + kp;
  gint64 complete = MAX(t, pe) + e->l1lat - 1;
  if (e->pshared) { /* (not inside MAX: it takes the stages) */
    const gint64 lb = port_shared_stages(e, x, t, kpof(r, j));
    complete = MAX(complete, lb);
  }
  e->ready[j] = complete + 1;
  if (G_UNLIKELY(r->step.async)) {
    e->ready[j] = t + 1;
    e->adone[j] = MAX(e->adone[j], complete);
  } else if (e->issue) {
    e->ready[j] = t + 1;
    rtop_put(e, j, complete);
    e->rdone[j] = MAX(e->rdone[j], complete);
  }
  e->elig[p]--;
  if (dyn_pipe(e, p)) {
    e->lastwarp[p] = (gint64)j;
    e->rbits[p][e->ridx[j] >> 6] &= ~(G_GUINT64_CONSTANT(1) << (e->ridx[j] & 63));
  } else {
    e->lastpos[p] = q;
    bit_clear(e, p, q);
  }
  pq_fix(e, p);
  e->pipe[j] = PIPE_DONE;
  if (r->res.first_dispatch < 0 || t < r->res.first_dispatch) r->res.first_dispatch = t;
  if (complete > r->res.last_complete) r->res.last_complete = complete;
  if (complete > e->last_complete) e->last_complete = complete;
  if (e->opt->max_events) {
    if (e->result->events->len >= e->opt->max_events) {
      g_set_error(&e->error, MS_ERROR, MS_ERROR_LIMIT,
                  "%s: more than %" G_GUINT64_FORMAT " dispatches: too large to draw a timeline",
                  ms_source_name(e->src), e->opt->max_events);
      return FALSE;
    }
    MsEvent ev = {t, p, j, e->cursor[j], 0, complete, t * e->rate[p], (guint32)e->rate[p]};
    g_array_append_val(e->result->events, ev);
  }
  e->cursor[j]++;
  pass(e, r);
  return advance(e, j) && drain(e);
}

static gboolean dispatch(Engine *e, guint p, guint64 q, guint64 j, gint64 t) {
  if (e->plain) return dispatch_plain(e, p, q, j, t);
  StepRec *r = win_get(e, e->cursor[j]);
  gint64 k = kof(r, j);
  if (G_UNLIKELY(k == 0)) return dispatch_l1(e, p, q, j, t, r);
  gint64 g = e->rate[p];
  /* its slots: its stages, or with l2_write_rate on the global pipeline wsr a read stage and
   * wsw a whole group written; a partly written group's 1 + pw stages wsr each */
  gint64 ks = k;
  if (p == e->P - 1) {
    const gint64 kpart = r->kw ? (gint64)(1 + e->pw) * kwof(r, j) : 0;
    ks = r->step.op == MS_OP_WRITE ? (k - kpart) * e->wsw + kpart * e->wsr : k * e->wsr;
  }
  gint64 s0 = MAX(e->slot[p], t * g);
  gint64 lat = e->lat[p];
  if (p == e->P - 1 && e->lw_main.curve) { /* loaded latency: what entered lately */
    lat = load_latency(&e->lw_main, t, e->slot[p]);
    load_take(&e->lw_main, s0, ks);
  }
  const gint64 last = rate_div(s0 + ks - 1, g, e->rmag[p]); /* the time its last stage enters */
  gint64 complete = last + lat - 1;
  const gint64 kd = kdof(r, j);
  if (kd) { /* L2 cache: its DRAM slots, from its dispatch on, after those taken before */
    gint64 d0 = MAX(e->dslot, t * e->drate);
    gint64 dl = e->dlat;
    if (e->lw_dram.curve) {
      dl = load_latency(&e->lw_dram, t, e->dslot);
      load_take(&e->lw_dram, d0, kd);
    }
    const gint64 dcomplete = rate_div(d0 + kd - 1, e->drate, e->dmag) + dl - 1;
    /* l2_posted_write_backs: a write is done when the L2 has it; its DRAM slots stay taken
     * and the trace ends no sooner than they do */
    if (r->step.op != MS_OP_WRITE || !e->model->l2_posted_write_backs) complete = MAX(complete, dcomplete);
    else if (dcomplete > e->last_complete) e->last_complete = dcomplete;
    e->dslot = d0 + kd;
    e->dbusy += (guint64)kd;
  }
  if (khof(r, j)) complete = MAX(complete, t + e->l1lat - 1); /* L1: its hits */
  gint64 entered = last; /* the time its last stage entered */
  gint64 cl2 = last + lat - 1; /* l2_posted_fences: when the L2 has it (its port included) */
  if (e->pslot && p == e->P - 1) { /* dmm_global_rate: its DMM's port, from its dispatch on */
    const guint x = pipe_of(e, j, MS_SPACE_SHARED);
    const gint64 kp = r->kp ? kp_slots(e, kpof(r, j)) : k; /* dmm_port_banks: a read's wavefronts */
    gint64 p0 = MAX(e->pslot[x], t * e->prate);
    gint64 pe = rate_div(p0 + kp - 1, e->prate, e->pmag);
    complete = MAX(complete, pe + lat - 1);
    cl2 = MAX(cl2, pe + lat - 1);
    if (!e->model->dmm_port_banks) entered = MAX(entered, pe); /* else a queue: the warp goes on */
    e->pslot[x] = p0 + kp;
    if (e->pshared && r->kp) { /* dmm_port_shared: its wavefronts take the DMM's pipeline */
      const gint64 lb = port_shared_stages(e, x, t, kpof(r, j));
      complete = MAX(complete, lb);
    }
  } else if (e->pshared) { /* dmm_port_shared: a shared access takes one slot of its DMM's port */
    const gint64 p0 = MAX(e->pslot[p], t * e->prate);
    complete = MAX(complete, rate_div(p0, e->prate, e->pmag) + lat - 1);
    e->pslot[p] = p0 + 1;
  }
  e->slot[p] = s0 + ks;
  e->free_at[p] = rate_div(e->slot[p], g, e->rmag[p]);
  e->busy[p] += (guint64)ks;
  e->ready[j] = complete + 1;
  if (G_UNLIKELY(r->step.async)) { /* an async read: the warp goes on, an await waits for it */
    e->ready[j] = entered + 1;
    e->adone[j] = MAX(e->adone[j], complete);
  } else if (e->issue) { /* may issue one time unit after its last stage entered; hold() does the rest */
    e->ready[j] = entered + 1;
    if (r->step.op == MS_OP_READ) {
      rtop_put(e, j, complete);
      e->rdone[j] = MAX(e->rdone[j], complete);
    } else {
      e->wdone[j] = MAX(e->wdone[j], complete);
      if (e->wl2) e->wl2[j] = MAX(e->wl2[j], cl2);
    }
  }
  e->elig[p]--;
  if (dyn_pipe(e, p)) {
    e->lastwarp[p] = (gint64)j;
    e->rbits[p][e->ridx[j] >> 6] &= ~(G_GUINT64_CONSTANT(1) << (e->ridx[j] & 63));
  } else {
    e->lastpos[p] = q;
    bit_clear(e, p, q);
  }
  pq_fix(e, p);
  e->pipe[j] = PIPE_DONE;
  /* (an L1-only read or a shuffle of this step may have set a later time already) */
  if (r->res.first_dispatch < 0 || t < r->res.first_dispatch) r->res.first_dispatch = t;
  if (complete > r->res.last_complete) r->res.last_complete = complete;
  if (complete > e->last_complete) e->last_complete = complete;
  if (e->opt->max_events) {
    if (e->result->events->len >= e->opt->max_events) {
      g_set_error(&e->error, MS_ERROR, MS_ERROR_LIMIT,
                  "%s: more than %" G_GUINT64_FORMAT " dispatches: too large to draw a timeline",
                  ms_source_name(e->src), e->opt->max_events);
      return FALSE;
    }
    MsEvent ev = {t, p, j, e->cursor[j], (guint32)ks, complete, s0, (guint32)g};
    g_array_append_val(e->result->events, ev);
  }
  e->cursor[j]++;
  pass(e, r);
  return advance(e, j) && drain(e);
}

/* The first member of pipeline p ready at t after the last one it dispatched, in cyclic
 * order, with its warp in *j; or nmembers (a static member set). */
static inline guint64 pick(Engine *e, guint p, gint64 t, gint64 *minr, guint64 *j) {
  const guint64 n = e->nmembers[p], start = e->lastpos[p] + 1;
  /* the member after the last dispatched, waiting and ready: a saturated pipeline's case */
  if (start < n && (e->bits[p][start >> 6] >> (start & 63) & 1)) {
    *j = member(e, p, start);
    if (e->ready[*j] <= t) return start;
  }
  guint64 q = n;
  if (e->tm[p].pend) {
    q = find_ready_timed(e, p, start, t, minr);
  } else { /* cyclic order: start .. n-1, then 0 .. start-1 */
    for (int pass = 0; pass < 2; pass++) {
      const guint64 lo = pass ? 0 : start, hi = pass ? start : n;
      const guint64 x = find_ready(e, p, lo, hi, t, minr);
      if (x < hi) {
        q = x;
        break;
      }
    }
  }
  if (q < n) *j = member(e, p, q);
  return q;
}

/* serve() for a static member set of rate > 1 (no events recorded): after a dispatch, while
 * a slot of p still enters at t, serve p again now, the turn run() would give it (its key
 * stays t; dispatches at t make no warp ready and no block event at t, and other pipelines'
 * turns at t touch none of p's state): the global pipeline takes tens of warps a time
 * unit on the grounded models.  Not when recording events: their order would change. */
G_GNUC_NO_INLINE static gboolean serve_batch(Engine *e, guint p, gint64 t) {
  const guint64 n = e->nmembers[p];
  for (;;) {
    gint64 minr = NEVER;
    guint64 j = 0;
    const guint64 q = pick(e, p, t, &minr, &j);
    if (q == n) {
      e->lb[p] = minr; /* nobody ready: a lower bound above t */
      pq_fix(e, p);
      return TRUE;
    }
    if (!dispatch(e, p, q, j, t)) return FALSE;
    if (e->free_at[p] > t || !e->elig[p]) return TRUE;
  }
}

/* serve() for the one pipeline of a umm or dmm of the papers' rule (e->fastrun): member q
 * (warp q) waits and is ready at t.  Dispatches it as dispatch() does without the
 * extensions, then, while the member after it waits and is ready when the pipeline can next
 * dispatch, that one, which is what run() and serve() would do next (no other pipeline, no
 * block events): the saturated pipeline's dispatches without a turn of the run loop each. */
G_GNUC_NO_INLINE static gboolean serve_run(Engine *e, guint p, guint64 q, gint64 t) {
  const guint64 n = e->nmembers[p];
  for (;;) {
    if (!dispatch_plain(e, p, q, q, t)) return FALSE;
    if (!e->elig[p]) return TRUE;
    t = MAX(e->free_at[p], e->lb[p]); /* pkey_of(p): the pipeline's next turn */
    q = e->lastpos[p] + 1;
    if (q >= n || !(e->bits[p][q >> 6] >> (q & 63) & 1) || e->ready[q] > t) return TRUE;
  }
}

/* Serve pipeline p at time t: the first ready warp after the last dispatched one. */
static gboolean serve(Engine *e, guint p, gint64 t) {
  gint64 minr = NEVER;
  if (dyn_pipe(e, p)) { /* the DMM's resident warps, in warp order from after the last one */
    GArray *L = e->res_list[p];
    const guint64 *v = (const guint64 *)(const void *)L->data;
    guint n = L->len, lo = 0, hi = n;
    const guint li = e->lastidx[p];
    if (li < n && (gint64)v[li] == e->lastwarp[p]) lo = hi = li + 1; /* the list as it was: no search */
    while (lo < hi) {
      guint mid = lo + (hi - lo) / 2;
      if ((gint64)v[mid] <= e->lastwarp[p]) lo = mid + 1;
      else hi = mid;
    }
    /* its waiting warps (rbits), cyclically from lo: lo .. n-1, then 0 .. lo-1 */
    const guint64 *rb = e->rbits[p];
    for (int pass = 0; pass < 2; pass++) {
      const guint a = pass ? 0 : lo, z = pass ? lo : n;
      for (guint w = a >> 6; w << 6 < z; w++) {
        guint64 word = rb[w];
        if (w == a >> 6) word &= ~G_GUINT64_CONSTANT(0) << (a & 63);
        if ((w + 1) << 6 > z) word &= (G_GUINT64_CONSTANT(1) << (z & 63)) - 1;
        for (; word; word &= word - 1) {
          const guint i = (w << 6) + (guint)__builtin_ctzll(word);
          const guint64 j = v[i];
          if (e->ready[j] <= t) {
            e->lastidx[p] = i;
            return dispatch(e, p, 0, j, t);
          }
          if (e->ready[j] < minr) minr = e->ready[j];
        }
      }
    }
    e->lb[p] = minr;
    pq_fix(e, p);
    return TRUE;
  }
  if (e->rate[p] > 1 && e->batch) return serve_batch(e, p, t);
  const guint64 n = e->nmembers[p], start = e->lastpos[p] + 1;
  /* the member after the last dispatched, waiting and ready: a saturated pipeline's case */
  if (start < n && (e->bits[p][start >> 6] >> (start & 63) & 1)) {
    const guint64 j = member(e, p, start);
    if (e->ready[j] <= t) return e->fastrun ? serve_run(e, p, start, t) : dispatch(e, p, start, j, t);
  }
  if (e->tm[p].pend) {
    const guint64 q = find_ready_timed(e, p, start, t, &minr);
    if (q < n) return dispatch(e, p, q, member(e, p, q), t);
  } else { /* cyclic order: start .. n-1, then 0 .. start-1 */
    for (int pass = 0; pass < 2; pass++) {
      const guint64 lo = pass ? 0 : start, hi = pass ? start : n;
      const guint64 q = find_ready(e, p, lo, hi, t, &minr);
      if (q < hi) return dispatch(e, p, q, member(e, p, q), t);
    }
  }
  e->lb[p] = minr; /* nobody ready: a lower bound above t */
  pq_fix(e, p);
  return TRUE;
}

/* l2_warm's earlier run: the cache state a run leaves depends only on the steps' accesses in
 * trace order (the cache and L1 passes run as steps load, docs/performance.md), not on the
 * schedule, so the steps are loaded and dropped, with no dispatch. */
static gboolean warm_pass(Engine *e) {
  for (;;) {
    StepRec *r = NULL;
    GError *err = NULL;
    const int got = produce_step(e, &r, &err);
    if (got == PROD_ERROR) {
      g_propagate_error(&e->error, err);
      return FALSE;
    }
    if (got == PROD_END) return TRUE;
    rec_free(e, r);
  }
}

static gboolean run(Engine *e) {
  if (e->dyn) {
    e->place_at = e->launch; /* the first kernel's blocks */
  } else {
    for (guint64 j = 0; j < e->W; j++) {
      e->ready[j] = e->launch;
      work_push(e, e->W - 1 - j); /* advance warps in order 0.. so loading happens once: the stack pops from the end */
    }
    if (!drain(e)) return FALSE;
  }
  for (;;) {
    /* one turn per iteration (a dispatch; several on a pipeline that takes more than one warp
     * a time unit, serve()), on the pipeline that can dispatch earliest: dispatches at t
     * make no warp ready at t, so pipelines can be served in any order within a time unit */
    const guint top = pq_top(e);
    gint64 t = e->pkey[top];
    if (e->dyn) {
      if (e->heap->len) t = MIN(t, g_array_index(e->heap, Retire, 0).time);
      t = MIN(t, e->place_at);
    }
    if (t == NEVER) break;
    if (e->dyn) {
      gboolean any;
      if (!block_events(e, t, &any)) return FALSE;
      if (any) continue; /* placements may make warps ready at t */
    }
    if (!serve(e, top, t)) return FALSE;
  }
  if (e->done_warps != e->W && e->flags) { /* warps that wait for a flag no one sets */
    guint64 parked = 0, j0 = 0;
    for (guint64 j = e->W; j-- > 0;)
      if (e->pipe[j] == PIPE_FLAG) {
        parked++;
        j0 = j;
      }
    if (parked) {
      guint64 f0 = 0;
      GHashTableIter it;
      gpointer key, val;
      g_hash_table_iter_init(&it, e->flags);
      gboolean found = FALSE;
      while (g_hash_table_iter_next(&it, &key, &val)) {
        const Flag *f = val;
        if (!f->waiters) continue;
        for (guint q = 0; q < f->waiters->len; q++)
          if (g_array_index(f->waiters, guint64, q) == j0 && (!found || (guint64)GPOINTER_TO_SIZE(key) < f0)) {
            f0 = (guint64)GPOINTER_TO_SIZE(key);
            found = TRUE;
          }
      }
      g_set_error(&e->error, MS_ERROR, MS_ERROR_INVALID,
                  "%s: %" G_GUINT64_FORMAT " warp%s forever: warp %" G_GUINT64_FORMAT " waits for flag %" G_GUINT64_FORMAT
                  ", which no warp signals before a barrier or a wait that needs the waiting warps (deadlock)",
                  ms_source_name(e->src), parked, parked == 1 ? " waits" : "s wait", j0, f0);
      return FALSE;
    }
  }
  if (e->done_warps != e->W) {
    g_set_error(&e->error, MS_ERROR, MS_ERROR_INVALID,
                "%s: internal error: %" G_GUINT64_FORMAT " warps never finished",
                ms_source_name(e->src), e->W - e->done_warps);
    return FALSE;
  }
  return TRUE;
}

/* ---- setup -------------------------------------------------------------------------------- */

static gboolean check_shape(Engine *e, GError **error) {
  const char *fn = ms_source_name(e->src);
  guint64 p = ms_source_threads(e->src), bt = ms_source_block_threads(e->src);
  if (p == 0 || p > MS_MAX_THREADS) {
    g_set_error(error, MS_ERROR, p ? MS_ERROR_LIMIT : MS_ERROR_INVALID,
                "%s: threads: %" G_GUINT64_FORMAT " is out of range [1, 2^32]", fn, p);
    return FALSE;
  }
  if (bt == 0 || (bt < p && bt % e->w != 0)) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "%s: block_threads: %" G_GUINT64_FORMAT " is not a multiple of the width w = %u",
                fn, bt, e->w);
    return FALSE;
  }
  e->p = p;
  e->W = (p + e->w - 1) / e->w;
  if (bt >= p) {
    e->blocks = 1;
    e->wpb = e->W;
  } else {
    e->wpb = bt / e->w;
    e->blocks = (p + bt - 1) / bt;
  }
  /* The engine keeps about 40 bytes per warp (state, work list, eligibility bits, a few
   * reduced steps): refuse what would not fit in half the machine's memory. */
  guint64 phys = ms_memory_limit(); /* physical memory, or ulimit -v when lower */
  guint64 need = e->W * 40;
  if (e->W > (G_GUINT64_CONSTANT(1) << 31) || (phys > 0 && need > phys / 2)) {
    g_set_error(error, MS_ERROR, MS_ERROR_LIMIT,
                "%s: %" G_GUINT64_FORMAT " threads make %" G_GUINT64_FORMAT
                " warps, about %.1f GiB of engine state: more than half the memory this process may use",
                fn, p, e->W, (double)need / (1 << 30));
    return FALSE;
  }
  return TRUE;
}

/* Residency applies on the hmm kinds when a limit that concerns the trace is set
 * (shared_words_per_dmm only for a trace that declares shared_words). */
static gboolean check_residency(Engine *e, GError **error) {
  const MsModel *m = e->model;
  const char *fn = ms_source_name(e->src);
  guint64 sw = ms_source_shared_words(e->src);
  e->launch = (gint64)m->launch_units;
  e->kernels = 1;
  e->place_at = NEVER;
  if (!e->hmm) return TRUE;
  e->dyn = m->resident_warps || m->resident_blocks || (m->shared_words_per_dmm && sw);
  e->boundary = m->kind == MS_MODEL_ASYNC_HMM || e->dyn;
  if (!e->dyn) return TRUE;
  e->lim_warps = m->resident_warps;
  e->lim_blocks = m->resident_blocks;
  if (e->lim_warps && e->wpb > e->lim_warps) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "%s: a block of %" G_GUINT64_FORMAT " warps does not fit the model's resident_warps = %"
                G_GUINT64_FORMAT " (make block_threads at most %" G_GUINT64_FORMAT ")",
                fn, e->wpb, e->lim_warps, e->lim_warps * e->w);
    return FALSE;
  }
  if (m->shared_words_per_dmm && sw) {
    if (sw > m->shared_words_per_dmm) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                  "%s: a block's shared_words = %" G_GUINT64_FORMAT
                  " is more than the model's shared_words_per_dmm = %" G_GUINT64_FORMAT,
                  fn, sw, m->shared_words_per_dmm);
      return FALSE;
    }
    guint64 cap = m->shared_words_per_dmm / sw;
    e->lim_blocks = e->lim_blocks ? MIN(e->lim_blocks, cap) : cap;
  }
  return TRUE;
}

static void engine_free(Engine *e) {
  g_mutex_clear(&e->kpool_lock);
  if (e->kout) g_hash_table_destroy(e->kout);
  kout_free(e->krec);
  if (e->kmemos) g_ptr_array_free(e->kmemos, TRUE);
  if (e->ksmall) g_hash_table_destroy(e->ksmall);
  kmemo_free(e->kmr);
  g_free(e->lw_main.at);
  g_free(e->lw_dram.at);
  g_free(e->lw_main.a);
  g_free(e->lw_main.b);
  g_free(e->lw_dram.a);
  g_free(e->lw_dram.b);
  if (e->l1c) {
    l1_clear(e);
    g_free(e->l1c->tag);
    g_free(e->l1c);
  }
  l2_cache_free(e->l2c);
  ms_mem_free(e->cursor);
  ms_mem_free(e->ready);
  ms_mem_free(e->rtop);
  ms_mem_free(e->rhead);
  ms_mem_free(e->rdone);
  ms_mem_free(e->adone);
  ms_mem_free(e->wl2);
  if (e->flags) g_hash_table_destroy(e->flags);
  ms_mem_free(e->fpend);
  ms_mem_free(e->wdone);
  ms_mem_free(e->pipe);
  g_free(e->free_at);
  g_free(e->lb);
  g_free(e->lat);
  g_free(e->rate);
  g_free(e->rmag);
  g_free(e->slot);
  g_free(e->busy);
  g_free(e->block_dmm);
  g_free(e->dmm_start);
  g_free(e->pslot);
  g_free(e->iacc);
  g_free(e->blk_start);
  g_free(e->bseen);
  g_free(e->bbuf);
  g_free(e->blk_done);
  g_free(e->blk_idle);
  g_free(e->blk_retire);
  g_free(e->res_warps);
  g_free(e->res_blocks);
  g_free(e->ptree);
  g_free(e->res_dead);
  g_free(e->lastwarp);
  g_free(e->lastidx);
  if (e->rbits)
    for (guint x = 0; x < e->model->dmms; x++) g_free(e->rbits[x]);
  g_free(e->rbits);
  g_free(e->rbwords);
  ms_mem_free(e->ridx);
  if (e->res_list) {
    for (guint x = 0; x < e->model->dmms; x++)
      if (e->res_list[x]) g_array_free(e->res_list[x], TRUE);
    g_free(e->res_list);
  }
  if (e->heap) g_array_free(e->heap, TRUE);
  g_free(e->elig);
  g_free(e->lastpos);
  g_free(e->nmembers);
  if (e->bits)
    for (guint p = 0; p < e->P; p++) {
      g_free(e->bits[p]);
      g_free(e->wmin[p]);
      g_free(e->smin[p]);
    }
  g_free(e->bits);
  g_free(e->wmin);
  g_free(e->smin);
  if (e->tm)
    for (guint p = 0; p < e->P; p++) {
      g_free(e->tm[p].pend);
      g_free(e->tm[p].h);
    }
  g_free(e->tm);
  g_free(e->pkey);
  g_free(e->tk);
  g_free(e->ti);
  g_free(e->plist);
  g_free(e->pinlist);
  if (e->ring) {
    for (guint64 s = e->head; s < e->head + e->count; s++) rec_free(e, win_get(e, s));
    if (e->cur_run) run_free(e->cur_run); /* an open run: its steps are gone */
    if (e->cur_kspan) kspan_free(e->cur_kspan);
  }
  g_free(e->ring);
  if (e->kpool) g_ptr_array_free(e->kpool, TRUE);
  const double wcpu = pool_free(e->pool);
  if (e->result) e->result->helper_cpu_s += wcpu;
  g_free(e->refaddr);
  g_free(e->saddr);
  g_free(e->ent_k);
  g_free(e->ent_kw);
  g_free(e->bkind);
  g_free(e->bat);
  g_free(e->bk);
  g_free(e->bks);
  g_free(e->l2ent);
  g_free(e->l2set);
  g_free(e->l2own);
  g_free(e->l2cnt);
  for (guint i = 0; i < e->nctr; i++) {
    Counter *c = &e->ctr[i];
    g_free(c->addr);
    g_free(c->hslot);
    g_free(c->bankcnt);
    g_free(c->dmm_stages);
    g_free(c->l2kd);
    g_free(c->l2s);
    g_free(c->l2off);
    g_free(c->sorted);
    g_free(c->packed);
    g_free(c->groups);
    g_clear_error(&c->error);
  }
  g_free(e->ctr);
  ms_mem_free(e->work);
}

/* One run of src.  warm (l2_warm): NULL; else *warm is the cache an earlier run left (NULL:
 * none yet, a cold one is made), taken by this run, and on success the cache it leaves. */
static MsResult *simulate(const MsModel *model, MsSource *src, const MsSimOptions *options, L2Cache **warm,
                          gboolean warm_only, GError **error) {
  static const MsSimOptions defaults = {0};
  Engine e = {0};
  e.model = model;
  e.src = src;
  e.opt = options ? options : &defaults;
  e.w = model->width;
  e.hmm = ms_model_is_hmm(model);
  e.P = ms_model_pipelines(model);
  if (!check_shape(&e, error)) return NULL;
  if (!check_residency(&e, error)) return NULL;
  g_mutex_init(&e.kpool_lock);

  MsResult *R = g_new0(MsResult, 1);
  e.result = R;
  R->threads = e.p;
  R->warps = e.W;
  R->blocks = e.blocks;
  if (e.opt->per_step) R->per_step = g_array_new(FALSE, FALSE, sizeof(MsStepResult));
  if (e.opt->max_events) R->events = g_array_new(FALSE, FALSE, sizeof(MsEvent));

  e.cursor = ms_mem_new(guint64, e.W);
  e.ready = ms_mem_new(gint64, e.W);
  if (model->barrier_units || model->barrier_warp_units) { /* barrier time */
    e.bseen = g_new0(guint64, e.blocks);
    e.kstamp = 1;
  }
  e.issue = model->read_window > 1 || model->posted_writes;
  if (e.issue) {
    e.m = MAX(model->read_window, 1u);
    e.rtop = ms_mem_new(gint64, e.W * e.m);
    e.rhead = ms_mem_new(guint32, e.W);
    e.rdone = ms_mem_new(gint64, e.W);
    e.wdone = ms_mem_new(gint64, e.W);
    for (guint64 i = 0; i < e.W * e.m; i++) e.rtop[i] = -1;
    for (guint64 i = 0; i < e.W; i++) e.rdone[i] = e.wdone[i] = -1;
    if (model->l2_posted_fences && model->l2_ways) {
      e.wl2 = ms_mem_new(gint64, e.W);
      for (guint64 i = 0; i < e.W; i++) e.wl2[i] = -1;
    }
  }
  e.pipe = ms_mem_new(gint32, e.W);
  for (guint64 j = 0; j < e.W; j++) e.pipe[j] = PIPE_DONE;
  e.free_at = g_new0(gint64, e.P);
  e.lb = g_new(gint64, e.P);
  e.lat = g_new(gint64, e.P);
  e.rate = g_new(gint64, e.P);
  e.rmag = g_new0(guint64, e.P);
  e.slot = g_new0(gint64, e.P);
  e.busy = g_new0(guint64, e.P);
  e.elig = g_new0(guint64, e.P);
  e.lastpos = g_new(guint64, e.P);
  e.nmembers = g_new(guint64, e.P);
  e.bits = g_new0(guint64 *, e.P);
  e.tm = g_new0(Timer, e.P);
  for (guint p = 0; p < e.P; p++) {
    e.lb[p] = NEVER;
    e.nmembers[p] = e.W;
    e.lat[p] = (gint64)(e.hmm ? (p == e.P - 1 ? model->global_latency : model->shared_latency)
                              : model->latency);
    /* global_rate: the umm's pipeline and the hmm kinds' global one */
    gboolean global = e.hmm ? p == e.P - 1 : model->kind == MS_MODEL_UMM;
    e.rate[p] = global && model->global_rate > 1 ? (gint64)model->global_rate : 1;
    /* L2: a declared footprint that fits stays in L2 across calls */
    if (global && model->l2_words && !model->l2_warm && ms_source_global_words(src) &&
        ms_source_global_words(src) <= model->l2_words) {
      e.lat[p] = (gint64)model->l2_latency;
      e.rate[p] = (gint64)model->l2_rate;
      e.l2 = TRUE;
    }
  }
  /* L2 cache: a footprint beyond l2_words (or undeclared) runs through it; the global
   * pipeline enters at the L2's rate and latency, misses take DRAM slots */
  if (model->l2_ways && !e.l2 && (e.hmm || model->kind == MS_MODEL_UMM)) {
    guint p = e.P - 1;
    e.lat[p] = (gint64)model->l2_latency;
    e.rate[p] = (gint64)model->l2_rate;
    e.drate = model->global_rate > 1 ? (gint64)model->global_rate : 1;
    e.dlat = (gint64)(e.hmm ? model->global_latency : model->latency);
    if (model->dram_row_words) { /* DRAM rows: the DRAM's time in finer units */
      e.drow = MAX(G_GUINT64_CONSTANT(1), model->dram_row_words / model->group_words);
      const guint g = (guint)e.drate, r = model->dram_lone_rate, rw = model->dram_lone_write_rate;
      e.dunit = r; /* units of 1 / (g r): a slot r, a lone one g */
      e.dlone = e.dlonew = g;
      if (rw) { /* units of 1 / (g r rw): a lone write's slot g r */
        e.dunit = r * rw;
        e.dlone = g * rw;
        e.dlonew = g * r;
      }
      e.drate = (gint64)g * r * (rw ? rw : 1);
    }
    L2Cache *L = warm ? *warm : NULL; /* l2_warm: the cache an earlier run left */
    if (warm) *warm = NULL;
    if (!L) {
      L = g_new0(L2Cache, 1);
      L->ways = model->l2_ways;
      L->parts = MAX(1u, model->l2_partitions);
      const guint64 lw = model->l2_line_words ? model->l2_line_words : model->group_words;
      L->q = (guint32)(lw / model->group_words);
      L->hashed = model->l2_hashed_sets;
      L->home = model->l2_home_partitions;
      L->sets = MAX(G_GUINT64_CONSTANT(1), model->l2_words / lw / model->l2_ways / L->parts);
      L->smag = rate_magic((gint64)L->sets);
      L->qshift = (L->q & (L->q - 1)) == 0 ? __builtin_ctz(L->q) : -1;
      L->tag = ms_mem_new(guint64, L->parts * L->sets * L->ways); /* probed at random: huge pages */
      L->mask = ms_mem_new(guint32, L->parts * L->sets * L->ways);
      L->cnt = ms_mem_new(guint8, L->parts * L->sets);
    }
    e.l2c = L;
  }
  e.pw = e.l2 || e.l2c ? model->l2_partial_write_stages : model->partial_write_stages;
  e.wsr = e.wsw = 1;
  if (model->l2_write_rate && (e.l2 || e.l2c) && (e.hmm || model->kind == MS_MODEL_UMM)) {
    /* whole writes in L2 (docs/models.md): a write stage enters at l2_write_rate a time unit */
    e.wsr = (gint64)model->l2_write_rate;
    e.wsw = (gint64)model->l2_rate;
    e.rate[e.P - 1] *= (gint64)model->l2_write_rate;
  }
  /* loaded latency: the global pipeline's curve is the L2's when it runs at the L2's rate,
   * else the DRAM's; the cache's DRAM slots take the DRAM's; each window is its base latency */
  if (e.hmm || model->kind == MS_MODEL_UMM) {
    const guint p = e.P - 1;
    const MsLoadCurve *c = e.l2 || e.l2c ? &model->l2_loaded_latency : &model->global_loaded_latency;
    if (c->n) e.lw_main = load_win(c, e.lat[p], e.rate[p]);
    if (e.l2c && model->global_loaded_latency.n) e.lw_dram = load_win(&model->global_loaded_latency, e.dlat, e.drate);
  }
  if (e.hmm && model->dmm_global_rate) {
    e.pslot = g_new0(gint64, model->dmms);
    e.prate = (gint64)model->dmm_global_rate;
    e.pshared = model->dmm_port_shared && model->dmm_port_banks;
  }
  for (guint p = 0; p < e.P; p++) e.rmag[p] = rate_magic(e.rate[p]);
  e.dmag = rate_magic(e.drate);
  e.pmag = rate_magic(e.prate);
  /* The R blocks a DMM holds at once (residency limits, else all of its blocks): their warps
   * share its issue (issue_rate); each block has a share of its DMM's l1_words, less the
   * shared words of the R blocks (L1) */
  guint64 nr = 1;
  if (e.hmm) {
    const guint64 d = model->dmms;
    nr = (e.blocks + d - 1) / d;
    if (e.lim_blocks) nr = MIN(nr, e.lim_blocks);
    if (e.lim_warps) nr = MIN(nr, e.lim_warps / e.wpb);
    nr = MAX(nr, G_GUINT64_CONSTANT(1));
  }
  if (e.hmm && model->issue_rate) {
    e.iacc = g_new0(guint64, model->dmms);
    e.iphase = e.launch;
  }
  if (e.hmm && model->l1_words) {
    const guint64 sw = ms_source_shared_words(src);
    const guint64 held = sw && nr > model->l1_words / sw ? model->l1_words : nr * sw;
    const guint64 share = (model->l1_words - held) / nr, G = share / model->group_words;
    R->l1_cached = TRUE;
    R->l1_share_words = G ? share : 0;
    if (G) {
      guint64 phys = ms_memory_limit();
      const double need = (double)e.blocks * (double)G * 4;
      if (phys > 0 && need > (double)(phys / 2)) {
        g_set_error(error, MS_ERROR, MS_ERROR_LIMIT,
                    "%s: l1_words: %" G_GUINT64_FORMAT " blocks with an L1 share of %" G_GUINT64_FORMAT
                    " groups each need %.1f GiB: more than half the memory this process may use",
                    ms_source_name(src), e.blocks, G, need / (1 << 30));
        engine_free(&e);
        ms_result_free(R);
        return NULL;
      }
      L1Cache *L = g_new0(L1Cache, 1);
      L->ways = (guint32)MIN((guint64)model->l1_ways, G);
      L->sets = G / L->ways;
      L->blocks = e.blocks;
      L->tag = g_new0(guint32 *, e.blocks);
      e.l1c = L;
      e.l1lat = (gint64)model->l1_latency;
    }
  }
  if (e.dyn) {
    guint d = model->dmms;
    e.block_dmm = g_new(gint32, e.blocks);
    if (model->block_start_units) {
      e.dmm_start = g_new0(gint64, model->dmms);
      e.blk_start = g_new(gint64, e.blocks);
    }
    for (guint64 b = 0; b < e.blocks; b++) e.block_dmm[b] = -1;
    e.blk_done = g_new0(guint64, e.blocks);
    e.blk_idle = g_new0(guint8, e.blocks);
    e.blk_retire = g_new0(gint64, e.blocks);
    e.res_warps = g_new0(guint64, d);
    e.res_blocks = g_new0(guint64, d);
    e.res_dead = g_new0(guint64, d);
    e.nroom = room(&e, 0) ? d : 0; /* all empty */
    e.lastwarp = g_new(gint64, d);
    e.lastidx = g_new0(guint, d);
    e.res_list = g_new0(GArray *, d);
    e.rbits = g_new0(guint64 *, d);
    e.rbwords = g_new0(guint, d);
    e.ridx = ms_mem_new(guint32, e.W);
    for (guint x = 0; x < d; x++) {
      e.lastwarp[x] = -1;
      e.res_list[x] = g_array_new(FALSE, FALSE, sizeof(guint64));
    }
    e.heap = g_array_new(FALSE, FALSE, sizeof(Retire));
    if (e.W < (G_GUINT64_CONSTANT(1) << 32)) { /* res_warps << 32 | x fits */
      e.psize = 1;
      while (e.psize < d) e.psize *= 2;
      e.ptree = g_new(guint64, 2 * e.psize);
      for (guint i = 0; i < 2 * e.psize; i++) e.ptree[i] = G_MAXUINT64;
      for (guint x = 0; x < d; x++) ptree_set(&e, x);
    }
  }
  if (e.hmm) {
    guint d = model->dmms;
    for (guint b = 0; b < d; b++) e.nmembers[b] = 0;
    for (guint64 blk = 0; blk < e.blocks; blk++)
      e.nmembers[blk % d] += MIN(e.wpb, e.W - blk * e.wpb);
  }
  e.wmin = g_new0(gint64 *, e.P);
  e.smin = g_new0(gint64 *, e.P);
  for (guint p = 0; p < e.P; p++)
    if (!dyn_pipe(&e, p)) {
      if (e.nmembers[p] <= TIMER_MAX) e.tm[p].pend = g_new0(guint64, e.nmembers[p] / 64 + 1);
      e.bits[p] = g_new0(guint64, e.nmembers[p] / 64 + 1);
      e.wmin[p] = g_new(gint64, e.nmembers[p] / 64 + 1);
      e.smin[p] = g_new(gint64, e.nmembers[p] / 4096 + 1);
      for (guint64 i = 0; i <= e.nmembers[p] / 64; i++) e.wmin[p][i] = NEVER;
      for (guint64 i = 0; i <= e.nmembers[p] / 4096; i++) e.smin[p][i] = NEVER;
    }
  e.pkey = g_new(gint64, e.P);
  e.pq_scan = e.P <= PQ_SCAN_MAX;
  e.batch = !e.opt->max_events;
  /* serve_run: one static pipeline of rate 1 and none of the extensions dispatch() handles */
  e.plain = !e.dyn && !e.lw_main.curve && !e.l2c && !e.l1c && !e.pslot && !e.issue && !e.opt->max_events;
  for (guint p = 0; p < e.P; p++) e.plain &= e.rate[p] == 1;
  e.fastrun = e.plain && e.P == 1 && !e.hmm;
  e.quick = e.plain && !e.bseen && !e.blk_start;
  e.plist = g_new(guint, e.P);
  e.pinlist = g_new0(guint8, e.P);
  for (guint p = 0; p < e.P; p++) e.pkey[p] = NEVER;
  for (e.tn = 1; e.tn < e.P; e.tn *= 2) {}
  e.tk = g_new(gint64, 2 * e.tn);
  e.ti = g_new(guint, 2 * e.tn);
  for (guint i = 2 * e.tn; i-- > 1;) { /* every key NEVER: each node's winner is its leftmost leaf */
    e.tk[i] = NEVER;
    e.ti[i] = i >= e.tn ? i - e.tn : e.ti[2 * i];
  }
  e.gshift = (model->group_words & (model->group_words - 1)) == 0 ? __builtin_ctzll(model->group_words) : -1;
  e.wshift = (e.w & (e.w - 1)) == 0 ? __builtin_ctz(e.w) : -1;
  for (guint p = 0; p < e.P; p++) e.lastpos[p] = e.nmembers[p] ? e.nmembers[p] - 1 : 0;

  e.cap = 64;
  e.ring = g_new0(StepRec *, e.cap);
  e.kpool = g_ptr_array_new_with_free_func(ms_mem_free);
  e.chunk = (guint64)e.w * MAX(1u, 16384u / e.w);
  guint32 hs = 1024;
  while (hs < 32 * e.w) hs <<= 1;
  e.hmask = hs - 1;
  e.hshift = 64 - __builtin_ctz(hs);
  /* workers: sources whose fill() may run on several threads at once, large traces only */
  guint nw = e.opt->threads == 0 ? (guint)MIN(g_get_num_processors(), MS_MAX_WORKERS) : MIN(e.opt->threads, MS_MAX_WORKERS);
  e.par_min = e.opt->par_min_warps ? e.opt->par_min_warps : PAR_MIN_WARPS;
  /* L1: workers take whole blocks (each block's warps in order); the hit masks hold one bit
   * per group only for w <= 32, else one thread */
  e.l2_refill = e.l2c && (!e.l1c || e.w <= 32) && ms_source_has_fill_worker(src);
  if (!ms_source_has_fill_worker(src) || e.W < e.par_min || (e.l1c && e.w > 32)) nw = 1;
  e.nctr = MAX(nw, 1u);
  ms_source_set_workers(src, e.nctr); /* a generator may plan its steps on as many */
  e.ctr = g_new0(Counter, e.nctr);
  for (guint i = 0; i < e.nctr; i++) {
    Counter *c = &e.ctr[i];
    c->addr = g_new(gint64, e.chunk);
    c->hslot = g_new0(HSlot, hs);
    c->bankcnt = g_new0(guint32, e.w);
    c->sorted = g_new(gint64, e.w);
    c->packed = g_new(gint64, e.w);
    c->groups = g_new(guint64, e.w);
    c->dmm_stages = g_new0(guint64, model->dmms);
  }
  e.cwork = MAX(G_GUINT64_CONSTANT(1), MIN(e.W, G_GUINT64_CONSTANT(1) << 20));
  e.work = ms_mem_new(guint64, e.cwork);
  e.last_complete = -1;

  /* load ahead: with more than one thread, a large trace's steps are produced on a thread of
   * their own while this one dispatches (loader_main) */
  const guint64 ldmin = e.opt->load_ahead_min_threads ? e.opt->load_ahead_min_threads : LD_MIN_THREADS;
  gboolean ahead = e.opt->threads != 1 && e.p >= ldmin;
  if (e.nctr > 1) e.pool = pool_new(&e, e.nctr);
  if (e.l2_refill) { /* the batched cache pass: L2_BATCH_CHUNKS chunks of warps per worker a batch */
    /* L2_BATCH_CHUNKS chunks of warps per worker: each batch costs two rounds of waking the
     * workers and waiting for the slowest, so fewer, larger batches lose less to both */
    e.l2_batch = MAX(G_GUINT64_CONSTANT(1), e.chunk / e.w) * L2_BATCH_CHUNKS * e.nctr;
    e.l2ent = g_new(guint64, e.l2_batch * e.w);
    e.l2set = g_new(guint64, e.l2_batch * e.w);
    e.l2own = g_new(guint8, e.l2_batch * e.w);
    e.l2cnt = g_new(guint16, e.l2_batch);
    for (guint i = 0; i < e.nctr; i++) {
      e.ctr[i].l2kd = g_new(guint16, e.l2_batch);
      e.ctr[i].l2s = g_new(L2Ent, (e.l2_batch + e.nctr - 1) / e.nctr * e.w);
      e.ctr[i].l2off = g_new(guint32, 2 * e.nctr + 1);
    }
  }
  /* repeated blocks: whole warps per block, several blocks, a block fits a counter's buffer */
  {
    const guint64 bt = e.wpb * e.w;
    e.reuse = !e.opt->fill_every_block && !e.l1c && (!e.l2c || e.l2_refill) && e.src->funcs.block_shift && e.src->funcs.block_repeats &&
              e.blocks >= 2 && bt <= e.chunk && bt == ms_source_block_threads(e.src);
    if (e.reuse) {
      e.refaddr = g_new(gint64, bt);
      e.ent_k = g_new(guint16, (gsize)REP_CLASSES * e.wpb);
      e.ent_kw = g_new(guint16, (gsize)REP_CLASSES * e.wpb);
      e.bkind = g_new(guint8, MS_BLOCK_BATCH);
      e.bat = g_new(gint64, MS_BLOCK_BATCH);
      if (e.l2_refill && e.blocks <= BK_MAX_BLOCKS) { /* the cache pass takes repeated blocks' addresses */
        e.bk = g_new(guint8, e.blocks);
        e.bks = g_new(gint64, e.blocks);
      }
    }
  }
  /* repeated kernels: not with a timeline (every dispatch is an event), the issue rule (its
   * sums), block starts (their per-DMM times) or flags (loading one turns it off) */
  e.krep = !e.opt->dispatch_every_kernel && !e.opt->max_events && !e.iacc && !e.blk_start;
  if (e.krep) e.kout = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, kout_free);
  /* repeated kernel counts: with repeated kernels (they take the outcomes), a source that
   * keys its kernels, and a dispatch to take them (not the warm pass) */
  e.kmemo = e.krep && !e.opt->count_every_kernel && e.src->funcs.kernel_key && !warm_only;
  if (e.kmemo) {
    e.kmemos = g_ptr_array_new_with_free_func(kmemo_free);
    e.ksmall = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
  }
  /* by default not where repeated blocks leave little to load (no L2 cache pass, a source
   * that fills on the workers): there the dispatch loop would only read the stage counts
   * from another core's cache (measured: bench/logs/2026-11-27f/call4) */
  if (!e.opt->load_ahead_min_threads && e.reuse && !e.l2c && e.pool) ahead = FALSE;
  if (ahead && !warm_only) loader_start(&e);
  gboolean ok = warm_only ? warm_pass(&e) : run(&e);
  R->helper_cpu_s += loader_stop(&e);
  if (ok) {
    R->kernels = e.kernels;
    R->kernels_not_counted = e.knc;
    R->l2_resident = e.l2;
    R->launch_total = e.kernels * (guint64)e.launch;
    {
      guint gp = e.hmm ? e.P - 1 : 0;
      if (e.hmm || model->kind == MS_MODEL_UMM)
        R->global_busy = (e.busy[gp] + (guint64)e.rate[gp] - 1) / (guint64)e.rate[gp];
      for (guint p = 0; p < e.P; p++)
        if (e.hmm ? p != e.P - 1 : model->kind == MS_MODEL_DMM) R->shared_busy = MAX(R->shared_busy, e.busy[p]);
    }
    if (e.l2c) {
      R->l2_cached = TRUE;
      for (guint i = 0; i < e.nctr; i++) {
        R->l2_hits += e.ctr[i].l2_hits;
        R->l2_misses += e.ctr[i].l2_misses;
      }
      R->dram_stages = e.dbusy;
      if (e.drow) { /* dbusy counts units: the slots are the accesses' */
        R->dram_rows = TRUE;
        R->dram_stages = 0;
        for (guint i = 0; i < e.nctr; i++) {
          R->dram_stages += e.ctr[i].dram_slots;
          R->dram_lone_stages += e.ctr[i].dram_lone;
        }
      }
      R->dram_busy = (e.dbusy + (guint64)e.drate - 1) / (guint64)e.drate;
      R->global_busy = MAX(R->global_busy, R->dram_busy);
    }
    for (guint i = 0; i < e.nctr; i++) {
      R->l1_hits += e.ctr[i].l1_hits;
      R->l1_misses += e.ctr[i].l1_misses;
    }
  }
  if (ok && e.iacc) issue_close(&e); /* the last phase */
  if (ok && warm) { /* l2_warm: the cache this run leaves, for the next */
    *warm = e.l2c;
    e.l2c = NULL;
  }
  engine_free(&e);
  if (!ok) {
    g_propagate_error(error, e.error);
    ms_result_free(R);
    return NULL;
  }
  R->time_units = e.last_complete >= 0 ? (guint64)e.last_complete + 1 : 0;
  R->issue_units = e.iunits;
  R->stages = R->shared.stages + R->global.stages;
  R->dispatches = R->shared.dispatches + R->global.dispatches;
  R->requests = R->shared.requests + R->global.requests;
  R->extra_stages = R->stages - R->dispatches;
  return R;
}

/* A model with l2_warm runs the trace twice: an earlier run, whose result is dropped, leaves
 * the cache that the run reported starts with (docs/models.md, "A warm L2"). */
MsResult *ms_simulate(const MsModel *model, MsSource *src, const MsSimOptions *options, GError **error) {
  const gboolean cache = model->l2_ways && (ms_model_is_hmm(model) || model->kind == MS_MODEL_UMM);
  if (!model->l2_warm || !cache) return simulate(model, src, options, NULL, FALSE, error);
  if (!options || !options->reopen) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "%s: l2_warm: the model runs a trace twice (a first run warms the L2), and it can be read only "
                "once here: simulate a trace file with memsim run (not standard input) or records with memsim compare",
                ms_source_name(src));
    return NULL;
  }
  MsSource *first = options->reopen(options->reopen_data, error);
  if (!first) return NULL;
  MsSimOptions o = *options;
  o.per_step = FALSE;
  o.max_events = 0;
  o.progress = NULL;
  L2Cache *L = NULL;
  MsResult *r = simulate(model, first, &o, &L, TRUE, error); /* its steps loaded, not dispatched */
  ms_source_free(first);
  if (r) {
    ms_result_free(r);
    r = simulate(model, src, options, &L, FALSE, error);
  }
  l2_cache_free(L);
  if (r) r->l2_warm = TRUE;
  return r;
}

void ms_result_free(MsResult *r) {
  if (!r) return;
  if (r->per_step) g_array_free(r->per_step, TRUE);
  if (r->events) g_array_free(r->events, TRUE);
  g_free(r);
}
