/* memsim-measure: command line, timing (CUPTI activity or CUDA events) and
 * output (JSON records, CSV, nvprof-style summary). */
#include "measure.h"

#include <algorithm>
#include <cstdarg>
#include <cstring>
#include <ctime>
#include <initializer_list>
#include <cxxabi.h>
#include <map>
#include <mutex>

#ifndef MEMSIM_NO_CUPTI
#include <cupti.h>
#include <cuda_profiler_api.h>
#endif

enum { MS_EXIT_OK = 0, MS_EXIT_USAGE = 2, MS_EXIT_NO_GPU = 3, MS_EXIT_UNVERIFIED = 5 };

namespace {

MsOptions g_opt;
std::vector<MsRecord> g_records;
/* With -o, the record file is rewritten after every record, so that a run stopped by a time
 * limit keeps what it measured (the end of the run writes it once more, whole). */
std::function<void()> g_checkpoint;
FILE *g_counter_log = nullptr;
int g_counter_index = 0;

struct KernelStat {
  double total = 0, mn = 1e300, mx = 0;
  long long calls = 0;
};
std::map<std::string, KernelStat> g_kstats;

/* ---- kernel activity collection ---------------------------------------- */
struct Act {
  uint64_t start, end;
  std::string name;
  unsigned long long grid = 0, block = 0;
};
/* MEMSIM_KERNEL_LOG=FILE: every kept call's kernels, one line per launch (CUPTI only), so a
 * record of many kernels can be set beside the model kernel by kernel. */
FILE *g_kernel_log = nullptr;
std::vector<Act> g_acts;
std::mutex g_acts_mu;
bool g_use_cupti = false;

#ifndef MEMSIM_NO_CUPTI
/* Only CUPTI records give mangled names; the events path names kernels itself. */
std::string demangle(const char *name) {
  int status = 0;
  char *d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string s = (status == 0 && d) ? d : name;
  std::free(d);
  /* nvprof style: the kernel's qualified name with its template arguments,
   * without the return type, the anonymous namespace and the parameters. */
  const std::string anon = "(anonymous namespace)::";
  for (size_t p; (p = s.find(anon)) != std::string::npos;) s.erase(p, anon.size());
  if (s.compare(0, 5, "void ") == 0) s.erase(0, 5);
  int depth = 0;
  for (size_t i = 0; i < s.size(); i++) {
    if (s[i] == '<') depth++;
    else if (s[i] == '>') depth--;
    else if (s[i] == '(' && depth == 0) { s.resize(i); break; }
  }
  return s;
}

#if CUPTI_API_VERSION >= 130000
typedef CUpti_ActivityKernel10 MsKernelActivity;
#else
typedef CUpti_ActivityKernel9 MsKernelActivity;
#endif

void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
  const size_t sz = 16u << 20;
  void *p = nullptr;
  if (posix_memalign(&p, 8, sz) != 0) p = nullptr;
  *buffer = (uint8_t *)p;
  *size = p ? sz : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t *buffer, size_t, size_t valid) {
  CUpti_Activity *rec = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
    if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
        rec->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const MsKernelActivity *k = (const MsKernelActivity *)rec;
      std::lock_guard<std::mutex> lock(g_acts_mu);
      g_acts.push_back(Act{k->start, k->end, demangle(k->name),
                           (unsigned long long)k->gridX * k->gridY * k->gridZ,
                           (unsigned long long)k->blockX * k->blockY * k->blockZ});
    }
  }
  std::free(buffer);
}

bool cupti_start() {
  if (std::getenv("MEMSIM_NO_CUPTI")) return false;
  if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS)
    return false;
  if (cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS)
    return false;
  return true;
}
void cupti_flush() { cuptiActivityFlushAll(1); }
#else
bool cupti_start() { return false; }
void cupti_flush() {}
#endif

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string json_str(const std::string &s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') { o += '\\'; o += c; }
    else if ((unsigned char)c < 0x20) o += ms_fmt("\\u%04x", c);
    else o += c;
  }
  return o + "\"";
}

} // namespace

std::string ms_fmt(const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

void MsRecord::p(const char *k, long long v) { params.push_back({k, ms_fmt("%lld", v)}); }
void MsRecord::p(const char *k, double v) { params.push_back({k, ms_fmt("%.6g", v)}); }
void MsRecord::p(const char *k, const char *v) { params.push_back({k, json_str(v)}); }
void MsRecord::pb(const char *k, bool v) { params.push_back({k, v ? "true" : "false"}); }
void MsRecord::x(const char *k, long long v) { extra.push_back({k, ms_fmt("%lld", v)}); }
void MsRecord::x(const char *k, double v) { extra.push_back({k, ms_fmt("%.6g", v)}); }
void MsRecord::x(const char *k, const char *v) { extra.push_back({k, json_str(v)}); }

const MsOptions &ms_options() { return g_opt; }

MsRecord *ms_last_record() { return g_records.empty() ? nullptr : &g_records.back(); }

bool ms_selected(const char *algorithm) {
  const char *only = std::getenv("MEMSIM_ONLY");
  if (!only) return true;
  std::string list = std::string(",") + only + ",";
  return list.find(std::string(",") + algorithm + ",") != std::string::npos;
}

/* True when some algorithm of the family is selected (see ms_selected). */
static bool family_selected(std::initializer_list<const char *> algs) {
  for (const char *a : algs)
    if (ms_selected(a)) return true;
  return false;
}

static std::string params_text(const MsRecord &r) {
  std::string s;
  for (const MsParam &p : r.params) {
    if (!s.empty()) s += ' ';
    std::string v = p.json;
    if (!v.empty() && v[0] == '"') v = v.substr(1, v.size() - 2);
    s += p.key + "=" + v;
  }
  return s;
}

/* Counters mode: launched before each record's kernels with a grid of
 * (launch index + 1) blocks, so ncu's rows split into records by itself. */
__global__ void ms_counter_marker(int) {}

void ms_counter_note(const MsRecord &r) {
  if (!g_counter_log) return;
  std::fprintf(g_counter_log, "%d,%s,%s,\"%s\"\n", g_counter_index++, r.workload.c_str(),
               r.algorithm.c_str(), params_text(r).c_str());
  std::fflush(g_counter_log);
  /* Range replay: one ncu result per profiler range, in order; no marker. */
  if (g_opt.profile == 1) return;
  ms_counter_marker<<<g_counter_index, 32>>>(g_counter_index);
  MS_CHECK_LAUNCH();
}

/* MEMSIM_FLUSH_L2=MIB: before every call of a record, a kernel writes and reads a buffer of
 * that many MiB (beyond the L2), so each timed call starts with the record's data out of L2,
 * as ncu's profiled call does (its --cache-control all). The flush runs outside the timed
 * window: its activity is dropped before the call's kernels are collected. */
__global__ void ms_flush_kernel(uint4 *buf, size_t n4) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
    uint4 v = buf[i];
    v.x += 1u;
    buf[i] = v;
  }
}
static uint4 *g_flush_buf = nullptr;
static size_t g_flush_n4 = 0;
static void flush_l2() {
  if (!g_flush_n4) {
    const char *e = std::getenv("MEMSIM_FLUSH_L2");
    if (!e || std::atoi(e) <= 0) return;
    g_flush_n4 = (size_t)std::atoi(e) * (1u << 20) / sizeof(uint4);
    MS_CUDA(cudaMalloc(&g_flush_buf, g_flush_n4 * sizeof(uint4)));
    MS_CUDA(cudaMemset(g_flush_buf, 0, g_flush_n4 * sizeof(uint4)));
  }
  ms_flush_kernel<<<1024, 256>>>(g_flush_buf, g_flush_n4);
  MS_CHECK_LAUNCH();
  MS_CUDA(cudaDeviceSynchronize());
}

/* One call: launch, synchronise, collect its kernels. Returns false when the
 * kernel activity could not be attributed. */
static void timed_call(MsRecord &rec, const std::function<void()> &launch, bool keep) {
  flush_l2();
  if (g_use_cupti) {
    cupti_flush();
    g_acts.clear();
    launch();
    MS_CHECK_LAUNCH();
    MS_CUDA(cudaDeviceSynchronize());
    cupti_flush();
    if (!keep) return;
    std::lock_guard<std::mutex> lock(g_acts_mu);
    double sum = 0;
    uint64_t s0 = UINT64_MAX, e1 = 0;
    for (const Act &a : g_acts) {
      double d = (double)(a.end - a.start);
      sum += d;
      s0 = std::min(s0, a.start);
      e1 = std::max(e1, a.end);
      KernelStat &ks = g_kstats[a.name];
      ks.total += d;
      ks.calls++;
      ks.mn = std::min(ks.mn, d);
      ks.mx = std::max(ks.mx, d);
      if (std::find(rec.kernels.begin(), rec.kernels.end(), a.name) == rec.kernels.end())
        rec.kernels.push_back(a.name);
    }
    rec.kernels_per_call = (int)g_acts.size();
    if (g_kernel_log) {
      std::vector<const Act *> order;
      for (const Act &a : g_acts) order.push_back(&a);
      std::sort(order.begin(), order.end(), [](const Act *x, const Act *y) { return x->start < y->start; });
      const std::string ps = params_text(rec);
      for (size_t i = 0; i < order.size(); i++)
        std::fprintf(g_kernel_log, "%s\t%s\t%s\t%zu\t%zu\t%s\t%llu\t%llu\t%llu\t%llu\n", rec.workload.c_str(),
                     rec.algorithm.c_str(), ps.c_str(), rec.call_ns.size(), i, order[i]->name.c_str(),
                     order[i]->grid, order[i]->block, (unsigned long long)(order[i]->start - s0),
                     (unsigned long long)(order[i]->end - order[i]->start));
    }
    rec.call_ns.push_back(sum);
    rec.span_ns.push_back(g_acts.empty() ? 0.0 : (double)(e1 - s0));
  } else {
    cudaEvent_t e0, e1;
    MS_CUDA(cudaEventCreate(&e0));
    MS_CUDA(cudaEventCreate(&e1));
    MS_CUDA(cudaEventRecord(e0));
    launch();
    MS_CHECK_LAUNCH();
    MS_CUDA(cudaEventRecord(e1));
    MS_CUDA(cudaEventSynchronize(e1));
    float ms = 0;
    MS_CUDA(cudaEventElapsedTime(&ms, e0, e1));
    MS_CUDA(cudaEventDestroy(e0));
    MS_CUDA(cudaEventDestroy(e1));
    if (!keep) return;
    rec.call_ns.push_back(ms * 1e6);
    rec.span_ns.push_back(ms * 1e6);
    std::string nm = rec.workload + "/" + rec.algorithm;
    KernelStat &ks = g_kstats[nm];
    ks.total += ms * 1e6;
    ks.calls++;
    ks.mn = std::min(ks.mn, ms * 1e6);
    ks.mx = std::max(ks.mx, ms * 1e6);
    if (rec.kernels.empty()) rec.kernels.push_back(nm);
  }
}

void ms_measure(MsRecord rec, const std::function<void()> &poison,
                const std::function<void()> &launch,
                const std::function<std::string()> &verify, int reps) {
  if (reps < 0) reps = g_opt.reps;
  /* MEMSIM_ONLY=alg[,alg...]: measure only these algorithms (for tuning runs). */
  if (!ms_selected(rec.algorithm.c_str())) return;
  if (const char *fl = std::getenv("MEMSIM_FLUSH_L2"); fl && std::atoi(fl) > 0)
    rec.x("flush_l2_mib", (long long)std::atoi(fl)); /* every call started with the L2 flushed */
  poison();
  MS_CUDA(cudaDeviceSynchronize());
  if (g_opt.counters && !g_opt.profile) {
    ms_counter_note(rec);
    MS_CUDA(cudaDeviceSynchronize());
  }
  /* The checked run is the first call; it is timed like the others but not
   * kept (cold caches, module load). */
  timed_call(rec, launch, false);
  rec.note = verify();
  rec.verified = rec.note.empty();
  if (!g_opt.counters) {
    for (int i = 0; i < g_opt.warmups; i++) timed_call(rec, launch, false);
    for (int i = 0; i < reps; i++) timed_call(rec, launch, true);
    /* Check again after the repetitions: a race shows as a moving result. */
    if (rec.verified) {
      poison();
      MS_CUDA(cudaDeviceSynchronize());
      launch();
      MS_CHECK_LAUNCH();
      MS_CUDA(cudaDeviceSynchronize());
      rec.note = verify();
      rec.verified = rec.note.empty();
      if (!rec.verified) rec.note = "after repetitions: " + rec.note;
    }
  }
  if (g_opt.profile) {
    /* Profile mode: one more call, the only work inside the profiler range
     * (ncu profiles it; the repetitions above, timed by events, give the
     * record's time, which ncu's range replay inflates). */
    MS_CUDA(cudaDeviceSynchronize());
    MS_CUDA(cudaProfilerStart());
    ms_counter_note(rec);
    launch();
    MS_CHECK_LAUNCH();
    MS_CUDA(cudaDeviceSynchronize());
    MS_CUDA(cudaProfilerStop());
    std::string again = verify();
    if (rec.verified && !again.empty()) {
      rec.verified = false;
      rec.note = "profiled call: " + again;
    }
  }
  double med = median(rec.call_ns);
  std::printf("  %-12s %-22s %-60s %12.3f us  %s%s\n", rec.workload.c_str(),
              rec.algorithm.c_str(), params_text(rec).c_str(), med / 1e3,
              rec.verified ? "ok" : "FAILED: ", rec.note.c_str());
  std::fflush(stdout);
  g_records.push_back(std::move(rec));
  if (g_checkpoint) g_checkpoint();
}

/* ---- output -------------------------------------------------------------- */

static void write_json(FILE *f, const cudaDeviceProp &prop, int driver, int runtime,
                       const std::string &date, const std::string &commit, int sm_clock,
                       int mem_clock) {
  std::fprintf(f, "{\"memsim_measurements\": 1,\n \"device\": {\"name\": %s, \"sm_count\": %d, "
               "\"sm_clock_mhz\": %d, \"mem_clock_mhz\": %d, \"driver_version\": %d, "
               "\"cuda_runtime_version\": %d, \"compute_capability\": \"%d.%d\", "
               "\"global_mem_bytes\": %llu, \"l2_bytes\": %d, \"mem_bus_width\": %d, "
               "\"warp_size\": %d, \"max_threads_per_sm\": %d, \"max_blocks_per_sm\": %d, "
               "\"shared_mem_per_sm\": %zu, \"shared_mem_per_block_optin\": %zu, "
               "\"reserved_shared_mem_per_block\": %zu, \"regs_per_sm\": %d},\n",
               json_str(prop.name).c_str(), prop.multiProcessorCount, sm_clock, mem_clock,
               driver, runtime, prop.major, prop.minor,
               (unsigned long long)prop.totalGlobalMem, prop.l2CacheSize,
               prop.memoryBusWidth, prop.warpSize, prop.maxThreadsPerMultiProcessor,
               prop.maxBlocksPerMultiProcessor, prop.sharedMemPerMultiprocessor,
               prop.sharedMemPerBlockOptin, prop.reservedSharedMemPerBlock,
               prop.regsPerMultiprocessor);
  std::fprintf(f, " \"date\": %s, \"git_commit\": %s, \"timing\": \"%s\", \"quick\": %s,\n",
               json_str(date).c_str(), json_str(commit).c_str(),
               g_use_cupti ? "cupti" : "events", g_opt.quick ? "true" : "false");
  std::fprintf(f, " \"warmups\": %d,\n \"records\": [\n", g_opt.warmups);
  for (size_t i = 0; i < g_records.size(); i++) {
    const MsRecord &r = g_records[i];
    std::vector<double> v = r.call_ns;
    double mn = v.empty() ? 0 : *std::min_element(v.begin(), v.end());
    double mx = v.empty() ? 0 : *std::max_element(v.begin(), v.end());
    double avg = 0;
    for (double d : v) avg += d;
    if (!v.empty()) avg /= (double)v.size();
    std::fprintf(f, "  {\"workload\": %s, \"algorithm\": %s, \"params\": {",
                 json_str(r.workload).c_str(), json_str(r.algorithm).c_str());
    for (size_t j = 0; j < r.params.size(); j++)
      std::fprintf(f, "%s%s: %s", j ? ", " : "", json_str(r.params[j].key).c_str(),
                   r.params[j].json.c_str());
    std::fprintf(f, "},\n   \"kernels\": [");
    for (size_t j = 0; j < r.kernels.size(); j++)
      std::fprintf(f, "%s%s", j ? ", " : "", json_str(r.kernels[j]).c_str());
    std::fprintf(f, "], \"kernels_per_call\": %d, \"calls\": %zu, \"min_ns\": %.0f, "
                 "\"avg_ns\": %.1f, \"max_ns\": %.0f, \"median_ns\": %.1f, "
                 "\"median_span_ns\": %.1f",
                 r.kernels_per_call, v.size(), mn, avg, mx, median(v), median(r.span_ns));
    for (const MsParam &e : r.extra)
      std::fprintf(f, ", %s: %s", json_str(e.key).c_str(), e.json.c_str());
    std::fprintf(f, ", \"verified\": %s", r.verified ? "true" : "false");
    if (!r.verified) std::fprintf(f, ", \"failure\": %s", json_str(r.note).c_str());
    std::fprintf(f, "}%s\n", i + 1 < g_records.size() ? "," : "");
  }
  std::fprintf(f, " ]}\n");
}

static void write_csv(FILE *f) {
  std::fprintf(f, "workload,algorithm,params,kernels,calls,min_ns,avg_ns,max_ns,median_ns,"
               "median_span_ns,verified\n");
  for (const MsRecord &r : g_records) {
    std::vector<double> v = r.call_ns;
    double mn = v.empty() ? 0 : *std::min_element(v.begin(), v.end());
    double mx = v.empty() ? 0 : *std::max_element(v.begin(), v.end());
    double avg = 0;
    for (double d : v) avg += d;
    if (!v.empty()) avg /= (double)v.size();
    std::string ks;
    for (const std::string &k : r.kernels) ks += (ks.empty() ? "" : ";") + k;
    std::fprintf(f, "%s,%s,\"%s\",\"%s\",%zu,%.0f,%.1f,%.0f,%.1f,%.1f,%s\n",
                 r.workload.c_str(), r.algorithm.c_str(), params_text(r).c_str(), ks.c_str(),
                 v.size(), mn, avg, mx, median(v), median(r.span_ns),
                 r.verified ? "true" : "false");
  }
}

static std::string fmt_time(double ns) {
  if (ns >= 1e9) return ms_fmt("%.4fs", ns / 1e9);
  if (ns >= 1e6) return ms_fmt("%.4fms", ns / 1e6);
  if (ns >= 1e3) return ms_fmt("%.4fus", ns / 1e3);
  return ms_fmt("%.0fns", ns);
}

static void print_summary(FILE *f) {
  double total = 0;
  for (auto &kv : g_kstats) total += kv.second.total;
  std::vector<std::pair<std::string, KernelStat>> v(g_kstats.begin(), g_kstats.end());
  std::sort(v.begin(), v.end(),
            [](const auto &a, const auto &b) { return a.second.total > b.second.total; });
  std::fprintf(f, "==memsim-measure== Profiling result (%s):\n",
               g_use_cupti ? "CUPTI activity, CONCURRENT_KERNEL" : "CUDA events per call");
  std::fprintf(f, "%8s %11s %8s %11s %11s %11s  %s\n", "Time(%)", "Time", "Calls", "Avg", "Min",
               "Max", "Name");
  for (auto &kv : v) {
    const KernelStat &k = kv.second;
    std::fprintf(f, "%7.2f%% %11s %8lld %11s %11s %11s  %s\n",
                 total > 0 ? 100.0 * k.total / total : 0.0, fmt_time(k.total).c_str(), k.calls,
                 fmt_time(k.total / (double)k.calls).c_str(), fmt_time(k.mn).c_str(),
                 fmt_time(k.mx).c_str(), kv.first.c_str());
  }
}

static void usage(FILE *f) {
  std::fprintf(f,
      "Usage: memsim-measure [OPTION...]\n"
      "Run memsim's algorithms as CUDA kernels, check them against a CPU reference\n"
      "and record their durations (CUPTI activity API, or CUDA events).\n\n"
      "  --workload W       permutation|sat|gcd|bpbc|all (default all), or calibrate\n"
      "                     (the device's bandwidths, latencies, launch time, clock;\n"
      "                     not part of all; see docs/calibration.md), or simple\n"
      "                     (held-out kernels, not part of all; docs/workloads/simple.md),\n"
      "                     or bulk (bulk execution of oblivious programs, column- and\n"
      "                     row-wise, not part of all; docs/workloads/bulk.md), or gf2\n"
      "                     (GF(2) Gaussian elimination, seed 004's GEonGPU, row- and\n"
      "                     column-wise, with a single-core CPU baseline; not part of all),\n"
      "                     or mul (seed 002's sum-rotate multiplication, n = bits/32\n"
      "                     lanes a product, warp shuffles or shared memory, and the\n"
      "                     column-based method with shared memory; not part of all)\n"
      "  --quick            small sizes and few repetitions (smoke test)\n"
      "  --counters         one small launch per kernel (run under ncu; see\n"
      "                     kernels/ncu-counters.sh); writes launch log to --launch-log\n"
      "  --profile MODE     full-size records, each launched once more inside a\n"
      "                     profiler range (cudaProfilerStart/Stop), MODE range (one\n"
      "                     ncu result per record) or kernel (one per kernel, split\n"
      "                     by markers); see kernels/ncu-profile.sh\n"
      "  --launch-log FILE  counters or profile mode: CSV index,workload,algorithm,params\n"
      "  -o FILE.json       write the JSON record file\n"
      "  --csv FILE         write one CSV line per record\n"
      "  --summary FILE     also write the nvprof-style summary to FILE\n"
      "  --reps N           timed repetitions per record (default 10; 3 with --quick)\n"
      "  --warmups N        warm-up calls per record (default 2)\n"
      "  --seed S           input seed (default 1)\n"
      "  --git-commit SHA   commit recorded in the JSON (else $MEMSIM_GIT_COMMIT)\n"
      "  --list             list the workloads and algorithms, then exit\n"
      "  --help             this text\n"
      "Exit status: 0 all verified, 2 usage, 3 no CUDA device, 4 CUDA error,\n"
      "5 some record failed verification.\n");
}

static void list_algorithms() {
  std::printf("permutation: copy d-designated s-designated conflict-free (DMM, shared memory;\n"
              "             permutations identical random transpose shuffle bit-reversal;\n"
              "             elem_words 1|2)\n"
              "             hmm-d-designated hmm-s-designated hmm-transpose thrust-scatter\n"
              "             hmm-scheduled\n"
              "             (HMM, global memory, nbar 256..4096)\n"
              "sat:         copy 2r2w 4r4w 4r1w 2r1w 1r1w 1+r (r sweep) 1r1w-lookback\n"
              "             1r1w-ordered 1+r-ordered (r sweep)\n"
              "gcd:         binary fast-binary approximate approximate-ptx64\n"
              "             (bits, oblivious|semi-oblivious)\n"
              "bpbc:        pairwise-sum (k=1..32) pairwise-sum-naive life-word life-single\n"
              "             life-double life-multistep life-multistep-shuffle\n"
              "simple:      copy strided-read gather transpose-naive transpose-tiled\n"
              "             transpose-padded shared-stride reduce (only with --workload simple)\n"
              "bulk:        prefix-sums bitonic floyd-warshall montgomery cky school comba\n"
              "             (p instances, column|row arrangement; only with --workload bulk)\n"
              "gf2:         eliminate (symbols x length, row|column arrangement; only with\n"
              "             --workload gf2)\n"
              "mul:         sum-rotate sum-rotate-shared column-based (bits 64..1024 x products,\n"
              "             n = bits/32 lanes a product; only with --workload mul)\n"
              "             toom-2 .. toom-9 (Toom-k, two kernels: bits 2048..65536 or\n"
              "             MEMSIM_TOOM_BITS=a,b,..; 10240 products; only with --workload mul)\n"
              "calibrate:   clock-spin launch-empty launch-burst dram-read dram-write dram-copy\n"
              "             strided-read l2-read dram-chase l2-chase l1-chase l1-sweep\n"
              "             shared-chase shared-wavefronts (only with --workload calibrate)\n");
}

int main(int argc, char **argv) {
  std::string workload = "all", json_out, csv_out, summary_out, launch_log;
  std::string commit = std::getenv("MEMSIM_GIT_COMMIT") ? std::getenv("MEMSIM_GIT_COMMIT") : "";
  int reps = -1;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto need = [&](const char *what) -> const char * {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "memsim-measure: %s needs %s\nTry 'memsim-measure --help'\n",
                     a.c_str(), what);
        std::exit(MS_EXIT_USAGE);
      }
      return argv[++i];
    };
    if (a == "--help" || a == "-h") { usage(stdout); return MS_EXIT_OK; }
    else if (a == "--list") { list_algorithms(); return MS_EXIT_OK; }
    else if (a == "--quick") g_opt.quick = true;
    else if (a == "--counters") g_opt.counters = true;
    else if (a == "--profile") {
      std::string m = need("range or kernel");
      if (m == "range") g_opt.profile = 1;
      else if (m == "kernel") g_opt.profile = 2;
      else {
        std::fprintf(stderr, "memsim-measure: --profile takes range or kernel, not '%s'\n"
                     "Try 'memsim-measure --help'\n", m.c_str());
        return MS_EXIT_USAGE;
      }
    }
    else if (a == "--workload") workload = need("a family");
    else if (a == "-o") json_out = need("a file");
    else if (a == "--csv") csv_out = need("a file");
    else if (a == "--summary") summary_out = need("a file");
    else if (a == "--launch-log") launch_log = need("a file");
    else if (a == "--reps") reps = std::atoi(need("a number"));
    else if (a == "--warmups") g_opt.warmups = std::atoi(need("a number"));
    else if (a == "--seed") g_opt.seed = std::strtoull(need("a number"), nullptr, 10);
    else if (a == "--git-commit") commit = need("a commit");
    else {
      std::fprintf(stderr, "memsim-measure: unknown option '%s'\nTry 'memsim-measure --help'\n",
                   a.c_str());
      return MS_EXIT_USAGE;
    }
  }
  if (workload != "all" && workload != "permutation" && workload != "sat" && workload != "gcd" &&
      workload != "bpbc" && workload != "simple" && workload != "bulk" && workload != "gf2" &&
      workload != "mul" && workload != "calibrate") {
    std::fprintf(stderr, "memsim-measure: unknown workload '%s'\nTry 'memsim-measure --help'\n",
                 workload.c_str());
    return MS_EXIT_USAGE;
  }
  if (g_opt.quick) g_opt.reps = 3;
  if (reps > 0) g_opt.reps = reps;
  if (g_opt.counters && g_opt.profile) {
    std::fprintf(stderr, "memsim-measure: --counters and --profile exclude each other\n"
                 "Try 'memsim-measure --help'\n");
    return MS_EXIT_USAGE;
  }
  if (g_opt.counters) { g_opt.warmups = 0; g_opt.reps = 0; }
  if (g_opt.profile) { g_opt.warmups = 1; g_opt.reps = reps > 0 ? reps : 3; }
  if (commit.empty()) commit = "unknown";

  int ndev = 0;
  cudaError_t e = cudaGetDeviceCount(&ndev);
  if (e != cudaSuccess || ndev == 0) {
    std::fprintf(stderr, "memsim-measure: no CUDA device available (%s); nothing measured\n",
                 e != cudaSuccess ? cudaGetErrorString(e) : "device count 0");
    return MS_EXIT_NO_GPU;
  }
  MS_CUDA(cudaSetDevice(0));
  cudaDeviceProp prop;
  MS_CUDA(cudaGetDeviceProperties(&prop, 0));
  int driver = 0, runtime = 0, sm_clock = 0, mem_clock = 0;
  MS_CUDA(cudaDriverGetVersion(&driver));
  MS_CUDA(cudaRuntimeGetVersion(&runtime));
  MS_CUDA(cudaDeviceGetAttribute(&sm_clock, cudaDevAttrClockRate, 0));
  MS_CUDA(cudaDeviceGetAttribute(&mem_clock, cudaDevAttrMemoryClockRate, 0));
  sm_clock /= 1000;
  mem_clock /= 1000;

  /* CUPTI's activity API and ncu exclude each other: events time the checked
   * call in the profile mode. */
  if (!g_opt.counters && !g_opt.profile) g_use_cupti = cupti_start();
  if (const char *kl = std::getenv("MEMSIM_KERNEL_LOG"); kl && g_use_cupti) {
    g_kernel_log = std::fopen(kl, "w");
    if (!g_kernel_log) { std::perror(kl); return MS_EXIT_USAGE; }
    std::fprintf(g_kernel_log, "workload\talgorithm\tparams\tcall\tlaunch\tkernel\tgrid\tblock\tstart_ns\tns\n");
  }
  if ((g_opt.counters || g_opt.profile) && !launch_log.empty()) {
    g_counter_log = std::fopen(launch_log.c_str(), "w");
    if (!g_counter_log) { std::perror(launch_log.c_str()); return MS_EXIT_USAGE; }
    std::fprintf(g_counter_log, "launch,workload,algorithm,params\n");
  }
  char date[64];
  std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::printf("memsim-measure: device %s (sm_%d%d, %d SMs, %d MHz SM, %d MHz mem), driver %d, "
              "runtime %d\n  timing: %s; workload %s%s%s; warm-ups %d, repetitions %d; "
              "commit %s; %s\n",
              prop.name, prop.major, prop.minor, prop.multiProcessorCount, sm_clock, mem_clock,
              driver, runtime, g_use_cupti ? "CUPTI activity (CONCURRENT_KERNEL)" : "CUDA events",
              workload.c_str(), g_opt.quick ? ", quick" : "",
              g_opt.counters ? ", counters" : (g_opt.profile ? ", profile" : ""),
              g_opt.warmups, g_opt.reps, commit.c_str(), date);
  std::fflush(stdout);
  if (!json_out.empty())
    g_checkpoint = [&] {
      FILE *f = std::fopen(json_out.c_str(), "w");
      if (!f) return; /* reported at the end */
      write_json(f, prop, driver, runtime, date, commit, sm_clock, mem_clock);
      std::fclose(f);
    };

  /* With MEMSIM_ONLY, a family none of whose algorithms is named is skipped
   * whole (no inputs, tables or references are built for it). */
  if ((workload == "all" || workload == "permutation") &&
      family_selected({"copy", "d-designated", "s-designated", "conflict-free",
                       "hmm-d-designated", "hmm-s-designated", "hmm-transpose",
                       "thrust-scatter", "hmm-scheduled"}))
    ms_run_permutation(g_opt);
  if ((workload == "all" || workload == "sat") &&
      family_selected({"copy", "2r2w", "4r4w", "4r1w", "2r1w", "1r1w", "1+r", "1r1w-lookback",
                       "1r1w-ordered", "1+r-ordered"}))
    ms_run_sat(g_opt);
  if ((workload == "all" || workload == "gcd") &&
      family_selected({"binary", "fast-binary", "approximate", "approximate-ptx64"}))
    ms_run_gcd(g_opt);
  if ((workload == "all" || workload == "bpbc") &&
      family_selected({"pairwise-sum", "pairwise-sum-naive", "life-word", "life-single",
                       "life-double", "life-multistep", "life-multistep-shuffle"}))
    ms_run_bpbc(g_opt);
  if (workload == "simple" &&
      family_selected({"copy", "strided-read", "gather", "transpose-naive", "transpose-tiled",
                       "transpose-padded", "shared-stride", "reduce"}))
    ms_run_simple(g_opt);
  if (workload == "bulk" && family_selected({"prefix-sums", "bitonic", "floyd-warshall", "montgomery", "cky", "school", "comba"}))
    ms_run_bulk(g_opt);
  if (workload == "gf2" && family_selected({"eliminate"})) ms_run_gf2(g_opt);
  if (workload == "mul" && family_selected({"sum-rotate", "sum-rotate-shared", "column-based"})) ms_run_mul(g_opt);
  if (workload == "mul" && family_selected({"toom-2", "toom-3", "toom-4", "toom-5", "toom-6", "toom-7", "toom-8", "toom-9"}))
    ms_run_toom(g_opt);
  if (workload == "calibrate") ms_run_calibrate(g_opt);
  MS_CUDA(cudaDeviceSynchronize());
  if (g_use_cupti) cupti_flush();
  if (g_counter_log) std::fclose(g_counter_log);
  if (g_kernel_log) std::fclose(g_kernel_log);

  print_summary(stdout);
  if (!summary_out.empty()) {
    FILE *f = std::fopen(summary_out.c_str(), "w");
    if (!f) { std::perror(summary_out.c_str()); return MS_EXIT_USAGE; }
    print_summary(f);
    std::fclose(f);
  }
  if (!json_out.empty()) {
    FILE *f = std::fopen(json_out.c_str(), "w");
    if (!f) { std::perror(json_out.c_str()); return MS_EXIT_USAGE; }
    write_json(f, prop, driver, runtime, date, commit, sm_clock, mem_clock);
    std::fclose(f);
  }
  if (!csv_out.empty()) {
    FILE *f = std::fopen(csv_out.c_str(), "w");
    if (!f) { std::perror(csv_out.c_str()); return MS_EXIT_USAGE; }
    write_csv(f);
    std::fclose(f);
  }
  int failed = 0;
  for (const MsRecord &r : g_records) failed += !r.verified;
  std::printf("memsim-measure: %zu records, %d failed verification\n", g_records.size(), failed);
  return failed ? MS_EXIT_UNVERIFIED : MS_EXIT_OK;
}
