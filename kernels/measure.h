/* memsim-measure: shared declarations of the CUDA measurement harness.
 *
 * The harness runs real CUDA kernels of the algorithms memsim simulates
 * (permutation, SAT, GCD, BPBC), checks every output against a CPU reference,
 * and times each kernel through the CUPTI Activity API (CONCURRENT_KERNEL
 * records, as nvprof did) or, without CUPTI, through CUDA events.
 * Schema of the output: docs/measurements.md.
 */
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#define MS_CUDA(call)                                                          \
  do {                                                                         \
    cudaError_t ms_err_ = (call);                                              \
    if (ms_err_ != cudaSuccess) {                                              \
      std::fprintf(stderr, "memsim-measure: %s:%d: %s: %s\n", __FILE__,        \
                   __LINE__, #call, cudaGetErrorString(ms_err_));              \
      std::exit(4);                                                            \
    }                                                                          \
  } while (0)

#define MS_CHECK_LAUNCH() MS_CUDA(cudaGetLastError())

/* One entry of a record's "params" object: key and raw JSON value text. */
struct MsParam {
  std::string key;
  std::string json;
};

/* A measured configuration. The parameter keys are exactly the option names
 * of the matching `memsim gen` generator (see docs/measurements.md). */
struct MsRecord {
  std::string workload;
  std::string algorithm;
  std::vector<MsParam> params;
  std::vector<MsParam> extra;      /* record-level extras (inner_repeats, ...) */
  std::vector<std::string> kernels; /* distinct kernel names, launch order */
  std::vector<double> call_ns;     /* per call: sum of kernel durations */
  std::vector<double> span_ns;     /* per call: first start .. last end */
  int kernels_per_call = 0;
  bool verified = false;
  std::string note;                /* why verification failed, or "" */

  void p(const char *k, long long v);
  void p(const char *k, double v);
  void p(const char *k, const char *v);
  void pb(const char *k, bool v);
  void x(const char *k, long long v);
  void x(const char *k, double v);
  void x(const char *k, const char *v);
};

/* Options shared by every family. */
struct MsOptions {
  bool quick = false;
  bool counters = false; /* one small launch per kernel, for ncu */
  int profile = 0;       /* full-size records, one launch each inside a profiler
                            range (1 range replay, 2 kernel replay), for ncu */
  int warmups = 2;
  int reps = 10;
  unsigned long long seed = 1;
};

/* Runs one configuration: poisons the output (poison()), launches it once
 * (launch()), checks it (verify() returns "" when right, else a reason),
 * then warm-ups and timed repetitions. Appends the finished record.
 * launch() must only enqueue work on the default stream. */
void ms_measure(MsRecord rec, const std::function<void()> &poison,
                const std::function<void()> &launch,
                const std::function<std::string()> &verify, int reps = -1);

/* Counters mode log: which record a launch belongs to. */
void ms_counter_note(const MsRecord &rec);

const MsOptions &ms_options();

/* False when MEMSIM_ONLY is set and does not name this algorithm: families
 * skip the host-side set-up (inputs, CPU reference) of such records. */
bool ms_selected(const char *algorithm);

/* Families. Each appends its records through ms_measure(). */
void ms_run_permutation(const MsOptions &o);
void ms_run_sat(const MsOptions &o);
void ms_run_gcd(const MsOptions &o);
void ms_run_bpbc(const MsOptions &o);
/* The held-out family (`--workload simple`, not part of "all", so that its records never
 * share a file with records a model is fitted on): kernels/simple.cu. */
void ms_run_simple(const MsOptions &o);
/* Bulk execution of oblivious sequential programs (`--workload bulk`, not part of "all"):
 * kernels/bulk.cu. */
void ms_run_bulk(const MsOptions &o);
/* GF(2) Gaussian elimination, seed 004's GEonGPU (`--workload gf2`, not part of "all"):
 * kernels/gf2.cu. */
void ms_run_gf2(const MsOptions &o);
/* Seed 002's sum-rotate multiplication, a product on n = bits/32 lanes of a warp, with warp
 * shuffles or shared memory, and the column-based method (`--workload mul`, not part of
 * "all"): kernels/mul.cu. */
void ms_run_mul(const MsOptions &o);
/* Seed 002's Toom-k, k = 2 .. 9: 2k - 1 point products in one kernel, the interpolation in a
 * second (`--workload mul`, algorithms toom-2 ... toom-9): kernels/toom.cu. */
void ms_run_toom(const MsOptions &o);
/* Calibration (`--workload calibrate`, not part of "all"): kernels/calibrate.cu. */
void ms_run_calibrate(const MsOptions &o);

/* The record ms_measure() appended last (nullptr if none): a family adds figures it
 * derives from the timed calls (e.g. calibrate's "result") to its extras. */
MsRecord *ms_last_record();

/* Small deterministic PRNG (splitmix64) used for every input. */
struct MsRng {
  uint64_t s;
  explicit MsRng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t u32() { return (uint32_t)(next() >> 32); }
  uint64_t below(uint64_t n) { return next() % n; }
};

std::string ms_fmt(const char *fmt, ...);
