/* ms-bulk.h: bulk execution of oblivious sequential algorithms on the UMM (seed 003, C2CU;
 * seed 000 chapter 3), docs/workloads/bulk.md.
 *
 * A sequential program is written once, as the accesses it makes to its own memory of
 * `words` words, in order (a *bulk program*: loops and index expressions, the compact trace
 * form without threads).  The family arranges p copies of that memory in the global memory,
 * column-wise (word x of instance j at x * p + j: every step coalesced) or row-wise (at
 * j * words + x), and writes the compact trace of p threads each running the program on
 * its own instance.
 *
 * Built-in programs: prefix-sums, bitonic (sort n words), floyd-warshall (all-pairs
 * shortest paths of n nodes), montgomery (X * Y * 2^-R mod M for R = bits), cky (the BPBC
 * CKY parsing of 32 strings per word, seed 000 ch. 7: n symbols, a grammar of
 * "nonterminals" and "rules" binary rules; checked against a straightforward parser).  Each is
 * executed on real data through the trace's own addresses before the trace is handed out
 * (sorted; equal to Dijkstra from every node; equal to GMP).  A user's program
 * ("program", parameter "program" = its file) is checked against its arrangement only:
 * every access of the checked instances must be the word the sequential program accesses. */
#ifndef MS_BULK_H
#define MS_BULK_H

#include "ms-workloads.h"

/* The algorithm names, NULL-terminated ("program" first: a user's program file). */
extern const char *const ms_bulk_algorithms[];

/* What a generated trace is. */
typedef struct {
  guint64 p;             /* instances = threads */
  guint64 words;         /* one instance's memory */
  guint64 block_threads;
  gboolean column;       /* column-wise (else row-wise) */
  guint64 t;             /* memory steps of the sequential program: its running time */
  guint64 checked;       /* instances whose every access was checked */
  gboolean data;         /* executed on real data and checked against a reference */
} MsBulkInfo;

/* The sequential program of `algorithm` with `params`, in the bulk-program form a user
 * writes (g_free).  "program" returns the file's text. */
char *ms_bulk_program(const char *algorithm, GHashTable *params, GError **error);

/* The compact trace (g_free) of `program` (bulk-program text; `filename` names it in
 * messages) over p instances, column-wise or row-wise, blocks of `block_threads` threads
 * (0: all p).  Only the form is checked here (keys, types, ops); ms_bulk_verify_text()
 * checks the accesses. */
char *ms_bulk_arrange(const char *program, gsize length, const char *filename, guint64 p,
                      gboolean column, guint64 block_threads, GError **error);

/* The verified trace of `algorithm` with `params` (string -> string, may be NULL): keys
 * p, arrangement (column | row), threads_per_block, seed, and n (prefix-sums, bitonic,
 * floyd-warshall, cky), bits (montgomery), nonterminals and rules (cky), program (a file, for "program").  `info` (may be
 * NULL) receives what the trace is.  Unknown or inconsistent parameters are
 * MS_ERROR_INVALID; a trace that does not compute the result is MS_ERROR_VERIFY. */
char *ms_bulk_compact(const char *algorithm, GHashTable *params, MsBulkInfo *info, GError **error);
MsSource *ms_bulk_source(const char *algorithm, GHashTable *params, GError **error);

/* Verify `text` (a compact trace, e.g. an edited copy of ms_bulk_compact's) as the trace of
 * `algorithm` with `params`: every checked instance's every access must be the word its
 * sequential program accesses, in the arrangement, and (built-ins) the data moved through
 * those addresses must give the algorithm's result. */
gboolean ms_bulk_verify_text(const char *algorithm, GHashTable *params, const char *text,
                             MsBulkInfo *info, GError **error);

/* The exact time, in time units, of t memory steps in which each of W = ceil(p / w) warps
 * needs k stages per step, on a UMM of width w and latency l (docs/workloads/bulk.md):
 * (t - 1) * max(W * k, k + l - 1) + W * k + l - 1; 0 for t = 0.  Column-wise arrangement:
 * k = 1; row-wise with words >= w (and w | p): k = w. */
guint64 ms_bulk_uniform_time(guint64 t, guint64 p, guint64 w, guint64 l, guint64 k);

#endif
