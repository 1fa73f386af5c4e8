/* Calibration kernels (`memsim-measure --workload calibrate`, issue 11): the GPU's own
 * properties, from which `memsim calibrate` derives a grounded HMM model
 * (docs/calibration.md). Every record's fields: docs/measurements.md, "Calibration".
 *
 *   clock-spin         every thread of a full grid spins until clock64() has advanced
 *                      `cycles`: cycles / CUPTI duration = the SM clock under load
 *   launch-empty       a kernel whose last block's thread 0 stores one word: 1 block of
 *                      32 threads, and a full grid (SMs x 8 blocks of 256 threads)
 *   launch-burst       16 back-to-back launches of the 1-block kernel in one call
 *   launch-blocks      a kernel of k blocks per SM (k = 16 .. 1024; 64, 256 or 1024
 *                      threads) whose thread 0 stores one word per block: the slope of time
 *                      against k is what starting a block costs an SM
 *   dram-read          grid-stride 16-byte loads over a buffer far beyond L2, summed
 *   dram-write         grid-stride 16-byte stores of a pattern
 *   dram-copy          grid-stride 16-byte copy
 *   strided-read       lane k of a warp request reads word (32 q + k) s of a buffer far
 *                      beyond L2 (s = 1 .. 32): the time per warp request against s
 *                      shows the fetch granularity (32-byte sectors or 128-byte lines)
 *   strided-write      the same pattern of 4-byte stores (lane k of request q stores word
 *                      (32 q + k) s): a store that covers part of a sector or line against
 *                      one that covers it all (the model's partial_write_stages)
 *   l2-strided-read,   the strided reads (ld.global.cg) and stores over a 16 MiB buffer,
 *   l2-strided-write   many passes: the same question where the data stays in L2
 *                      (the model's l2_partial_write_stages)
 *   sm-strided-read,   the l2-strided pattern run by k = 1, 2, 4, 8 blocks of 1024 threads
 *   sm-strided-write   (one SM each, 32 warps): what one SM's load/store path passes per
 *                      clock when every lane's word is in its own line (s = 32), against
 *                      a coalesced request (s = 1): the model's dmm_global_rate
 *   sm-l1-strided-read the sm-strided read over a 64 KiB buffer with ld.global.ca (every line
 *                      in the SM's L1 after the first touch), s = 1, 2, 4, 8, 16, 32, by 1 and 8
 *                      blocks of 1024 threads: what one SM passes per clock when the lines hit
 *                      L1, per line (s = 32: 32 lines) against per sector (s = 8: 32 sectors
 *                      in 8 lines); the port rule for L1 hits (docs/calibration.md)
 *   sm-l1-strided-write,  the same with stores, and with a load and a store back of each word
 *   sm-l1-strided-rmw  (the GF(2) elimination's row-wise update of lines just loaded)
 *   sm-l1-shared-mix   one block of 1024 threads per SM: each warp, per round, G coalesced
 *                      ld.global.ca of lines its L1 holds and H shared loads whose lanes are
 *                      SS words apart (an SS-way conflict, SS <= 32): clocks per warp round
 *                      against G x the L1 read's clocks and H x SS wavefronts, whether the
 *                      SM's global reads and its shared accesses share one data path (their
 *                      sum) or not (their maximum); docs/calibration.md, "Shared and L1 reads"
 *   sm-l1-xor          the GF(2) row-wise XOR itself on one SM: s = 1, 32, 64, every lane or
 *                      about half (a hash), with and without the pivot word's broadcast load
 *   l2-read            16-byte ld.global.cg loads over a 16 MiB buffer, many passes
 *   l2-sweep           the same read over footprints of 8 .. 128 MiB (whole passes, a
 *                      grid-stride loop each): bandwidth against footprint shows how much
 *                      of a repeatedly read footprint the L2 keeps
 *   l2-random-sweep    4-byte loads (ld.global.cg) at random words, mix(j) mod the footprint
 *                      (4 .. 256 MiB, 2^26 loads per call): time per load against footprint
 *                      shows how much of a randomly read footprint the L2 keeps
 *   l2-random-line-sweep  the same where each warp reads one whole random 128-byte line
 *   l2-random-write-sweep  the same with 4-byte stores (store j + 1 at word mix(j) mod the
 *                      footprint): what a scattered store costs against footprint, the
 *                      write side of the DRAM rows (docs/calibration.md; a check, not a key)
 *   l2-line-sweep      one 4-byte load (ld.global.cg) per 128-byte line, in whole grid-stride
 *                      passes over footprints of 8 .. 256 MiB (a thread reads the same lines
 *                      every pass): where the time per load rises, against the l2-sweep's
 *                      footprint, says whether the L2 keeps 128-byte lines or parts of them
 *   l2-copy-sweep      the same for a copy b = a (each array half the footprint, whole
 *                      passes): what L2 keeps of a footprint that is read and written, as
 *                      the algorithms' kernels do (the model's l2_words)
 *   l2-stream-sweep    one pass per call of a plain copy b[i] = a[i], one 4-byte word per
 *                      thread, n / 256 blocks of 256 threads (many waves, blocks placed
 *                      anew by every launch), footprints 16 .. 128 MiB: what L2 keeps of
 *                      a footprint between the calls that a measurement repeats, for a
 *                      kernel written the plain way (not a persistent grid-stride loop)
 *   dram-chase         one thread: p = a[p] over a random cyclic permutation of nodes
 *                      128 bytes apart (ld.global.cg), footprint far beyond L2
 *   l2-chase, l1-chase the same over 4 MiB (L2, ld.global.cg) and 16 KiB (L1, ld.global)
 *   launch-chase       one launch of the L2 chase with h = 0 .. 64 hops and nothing else:
 *                      its duration against h (what of launch-empty a kernel's loads overlap)
 *   l1-sweep           the L1 chase over 32 KiB ... 512 KiB: where its latency leaves
 *                      L1's is the L1's capacity (the model's l1_words)
 *   loaded-chase       every SM runs W warps (W = 1 .. 64), each following its own chain of
 *                      dependent coalesced 128-byte line loads (ld.global.cg, lane k loads
 *                      word k) over 1 GiB: grid-stride, the line after x is (x + G) mod
 *                      lines (G warps): clocks per hop (median over the warps) against the
 *                      load on the memory (memsim calibrate --loaded-latency:
 *                      global_loaded_latency)
 *   l2-loaded-chase    the same over 16 MiB, in L2 (l2_loaded_latency)
 *   shared-chase       one thread: p = s[p] over a random cycle of 4096 shared words
 *   load-loop          one warp runs a plain loop `s += a[line(i) * 32 + lane]` (no
 *                      unrolling asked for: what nvcc -O3 makes of it) over lines of a buffer
 *                      far beyond L2, line(i) = i * odd mod lines (2^k lines; independent of the data):
 *                      clocks per iteration against the DRAM chase's latency = the loads a
 *                      warp keeps in flight (the model's read_window)
 *   store-loop         the same loop storing `a[line(i) * 32 + lane] = i`: clocks per store
 *                      far below the latency = the warp does not wait for its stores
 *                      (the model's posted_writes)
 *   store-fence-loop   the store loop with __threadfence() after each store, over 8 MiB (in
 *                      L2) and 512 MiB (beyond it: after the first call every store makes a
 *                      line dirty and evicts a dirty one): clocks per iteration = how long a
 *                      store takes to be visible.  Near the L2's latency at both footprints =
 *                      a store is done when the L2 has it, its DRAM write-back later (the
 *                      model's l2_posted_write_backs); near the DRAM's at 512 MiB = it waits
 *                      for the write-back
 *   shared-wavefronts  all threads of a full grid issue 32-bit shared loads whose warp
 *                      requests are k-way bank conflicts (k = 1, 2, 4, 32): wavefronts
 *                      (= the DMM's pipeline stages) per SM per clock
 *   shuffle-latency    one warp: a dependent chain of __shfl_sync (x = shfl(x, src(lane)),
 *                      64 to a loop turn), clocked: clocks per dependent shuffle (the model's
 *                      shuffle_units, memsim calibrate --shuffles); then the same loop over a
 *                      dependent IMAD, clocked: what the loop costs an op of a short chain
 *   shuffle-rate       all threads of a full grid run 8 independent shuffle chains each:
 *                      warp shuffles per SM per clock
 *   barrier-loop       B = 1 or 2 blocks per SM of W = 1 .. 32 warps: each thread runs a loop of
 *                      block barriers (`barrier`), or of one shared load, one shared store and
 *                      a barrier (`pass`, the DMM permutation kernel's copy pass): clocks per
 *                      iteration of a block = what a barrier costs beyond its warps' work
 *                      (recorded 2026-11-27; not a model key yet)
 *   issue-rate         one block per SM of W = 1, 2, 4, 8, 16, 32 warps, each thread 8
 *                      independent chains of IMAD (op imad), LOP3 (alu) or both (mixed):
 *                      clocks per warp instruction of one warp (the model's
 *                      instruction_units) and warp instructions per SM per clock
 *                      (issue_rate; memsim calibrate --issue); then 1, 2 and 4 chains
 *                      (chains_per_thread): how many warps hide a dependent instruction
 *
 * The chases time themselves with clock64() (clocks per hop); each call's count is kept
 * (a device array) and the record's result is their median. Every kernel's output is
 * checked: sums against the closed form of the pattern, stores and copies word by word
 * on the device, the chase's end node against a walk on the host, the clocks' range.
 */
#include "measure.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace {

constexpr uint32_t PAT_K = 2654435761u, PAT_C = 12345u;
constexpr int MAX_CALLS = 64; /* per-call clock slots of the chases */

/* The buffers' content: word i holds pattern(i). */
__host__ __device__ inline uint32_t pattern(uint64_t i) { return (uint32_t)i * PAT_K + PAT_C; }

/* Sum mod 2^32 of pattern(k s) for k = 0 .. m-1. */
uint32_t pattern_sum(uint64_t m, uint64_t s) {
  const uint64_t tri = m % 2 == 0 ? (m / 2) * (m - 1) : m * ((m - 1) / 2); /* m(m-1)/2 mod 2^64 */
  return (uint32_t)(PAT_K * (uint32_t)s * (uint32_t)tri + PAT_C * (uint32_t)m);
}

std::string jnum(double v) { return std::isfinite(v) ? ms_fmt("%.7g", v) : "null"; }

double median_of(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Measures one record (ms_measure) and adds its "result" object, built from the
 * finished record (its timed calls) by `result`. */
void measure(MsRecord rec, const std::function<void()> &poison, const std::function<void()> &launch,
             const std::function<std::string()> &verify,
             const std::function<std::string(const MsRecord &, double median_ns)> &result) {
  if (!ms_selected(rec.algorithm.c_str())) return;
  ms_measure(rec, poison, launch, verify);
  MsRecord *r = ms_last_record();
  if (r) r->extra.push_back({"result", result(*r, median_of(r->call_ns))});
}

/* ---- kernels ------------------------------------------------------------------------- */

__device__ void block_add(uint32_t v, uint32_t *out) {
  __shared__ uint32_t part[32];
  v = __reduce_add_sync(0xffffffffu, v);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) part[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (int)(blockDim.x >> 5) ? part[lane] : 0u;
    v = __reduce_add_sync(0xffffffffu, v);
    if (lane == 0) atomicAdd(out, v);
  }
}

__device__ inline uint32_t sum4(uint4 v) { return v.x + v.y + v.z + v.w; }

__global__ void fill_pattern(uint32_t *a, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    a[i] = pattern(i);
}

/* Counts the words of a[0, n) that differ from pattern(i); the lowest such index in *first. */
__global__ void check_pattern(const uint32_t *a, size_t n, unsigned long long *bad,
                              unsigned long long *first) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    if (a[i] != pattern(i)) {
      atomicAdd(bad, 1ull);
      atomicMin(first, (unsigned long long)i);
    }
}

/* Thread 0 of each block stores the clocks from the block's start to its end. */
__device__ inline void block_clock_end(long long t0, unsigned long long *clk) {
  __syncthreads();
  if (threadIdx.x == 0) clk[blockIdx.x] = (unsigned long long)(clock64() - t0);
}

enum { DRAM_READ, DRAM_WRITE, DRAM_COPY };

/* Grid-stride 16-byte accesses, four independent ones per thread in flight. */
template <int OP>
__global__ void __launch_bounds__(256) dram_stream(const uint4 *__restrict__ a, uint4 *__restrict__ b,
                                                   size_t n4, uint32_t *sum, unsigned long long *clk) {
  const long long t0 = clock64();
  const size_t T = (size_t)gridDim.x * blockDim.x;
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t s = 0;
  for (; i + 3 * T < n4; i += 4 * T) {
    if (OP == DRAM_WRITE) {
#pragma unroll
      for (int u = 0; u < 4; u++) {
        const size_t w = 4 * (i + u * T);
        b[i + u * T] = make_uint4(pattern(w), pattern(w + 1), pattern(w + 2), pattern(w + 3));
      }
    } else {
      const uint4 v0 = a[i], v1 = a[i + T], v2 = a[i + 2 * T], v3 = a[i + 3 * T];
      if (OP == DRAM_COPY) {
        b[i] = v0;
        b[i + T] = v1;
        b[i + 2 * T] = v2;
        b[i + 3 * T] = v3;
      } else {
        s += sum4(v0) + sum4(v1) + sum4(v2) + sum4(v3);
      }
    }
  }
  for (; i < n4; i += T) {
    if (OP == DRAM_WRITE) b[i] = make_uint4(pattern(4 * i), pattern(4 * i + 1), pattern(4 * i + 2), pattern(4 * i + 3));
    else if (OP == DRAM_COPY) b[i] = a[i];
    else s += sum4(a[i]);
  }
  if (OP == DRAM_READ) block_add(s, sum);
  block_clock_end(t0, clk);
}

/* Warp request q reads words (32 q + lane) * stride, q = 0 .. requests-1 (grid-stride over
 * k = 32 q + lane, eight requests per thread in flight). */
__global__ void __launch_bounds__(256) strided_read(const uint32_t *a, size_t m, size_t stride,
                                                    uint32_t *sum) {
  const size_t T = (size_t)gridDim.x * blockDim.x;
  size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t s = 0;
  for (; k + 7 * T < m; k += 8 * T) {
    uint32_t v[8];
#pragma unroll
    for (int u = 0; u < 8; u++) v[u] = a[(k + u * T) * stride];
#pragma unroll
    for (int u = 0; u < 8; u++) s += v[u];
  }
  for (; k < m; k += T) s += a[k * stride];
  block_add(s, sum);
}

/* Strided stores: warp request q stores pattern(32 q + lane) to word (32 q + lane) * stride,
 * q = 0 .. m/32 - 1 (grid-stride, eight stores per thread in the loop body). */
__global__ void __launch_bounds__(256) strided_write(uint32_t *b, size_t m, size_t stride) {
  const size_t T = (size_t)gridDim.x * blockDim.x;
  size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  for (; k + 7 * T < m; k += 8 * T) {
#pragma unroll
    for (int u = 0; u < 8; u++) b[(k + u * T) * stride] = pattern(k + u * T);
  }
  for (; k < m; k += T) b[k * stride] = pattern(k);
}

/* The same over `total` = m x passes requests' worth of lanes, word ((q mod m) * stride), m a
 * power of two, loads through L2 only (ld.global.cg) or stores: a footprint that stays in L2. */
template <bool WRITE>
__global__ void __launch_bounds__(256) l2_strided(uint32_t *a, size_t m, size_t stride, size_t total,
                                                  uint32_t *sum) {
  const size_t T = (size_t)gridDim.x * blockDim.x, mask = m - 1;
  size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t s = 0;
  for (; q + 7 * T < total; q += 8 * T) {
    if (WRITE) {
#pragma unroll
      for (int u = 0; u < 8; u++) a[((q + u * T) & mask) * stride] = pattern((q + u * T) & mask);
    } else {
      uint32_t v[8];
#pragma unroll
      for (int u = 0; u < 8; u++) v[u] = __ldcg(a + ((q + u * T) & mask) * stride);
#pragma unroll
      for (int u = 0; u < 8; u++) s += v[u];
    }
  }
  for (; q < total; q += T) {
    if (WRITE) a[(q & mask) * stride] = pattern(q & mask);
    else s += __ldcg(a + (q & mask) * stride);
  }
  if (!WRITE) block_add(s, sum);
}

/* l2_strided's pattern for blocks of 1024 threads: a few blocks, one SM each. */
template <bool WRITE>
__global__ void __launch_bounds__(1024) sm_strided(uint32_t *a, size_t m, size_t stride, size_t total,
                                                   uint32_t *sum) {
  const size_t T = (size_t)gridDim.x * blockDim.x, mask = m - 1;
  size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t s = 0;
  for (; q + 7 * T < total; q += 8 * T) {
    if (WRITE) {
#pragma unroll
      for (int u = 0; u < 8; u++) a[((q + u * T) & mask) * stride] = pattern((q + u * T) & mask);
    } else {
      uint32_t v[8];
#pragma unroll
      for (int u = 0; u < 8; u++) v[u] = __ldcg(a + ((q + u * T) & mask) * stride);
#pragma unroll
      for (int u = 0; u < 8; u++) s += v[u];
    }
  }
  for (; q < total; q += T) {
    if (WRITE) a[(q & mask) * stride] = pattern(q & mask);
    else s += __ldcg(a + (q & mask) * stride);
  }
  if (!WRITE) block_add(s, sum);
}

/* The SM's L1 hit path: sm_strided's reads with ld.global.ca over a footprint the L1 holds. */
__global__ void __launch_bounds__(1024) sm_l1_strided(const uint32_t *a, size_t m, size_t stride, size_t total,
                                                      uint32_t *sum) {
  const size_t T = (size_t)gridDim.x * blockDim.x, mask = m - 1;
  size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t s = 0;
  for (; q + 7 * T < total; q += 8 * T) {
    uint32_t v[8];
#pragma unroll
    for (int u = 0; u < 8; u++) v[u] = __ldca(a + ((q + u * T) & mask) * stride);
#pragma unroll
    for (int u = 0; u < 8; u++) s += v[u];
  }
  for (; q < total; q += T) s += __ldca(a + (q & mask) * stride);
  block_add(s, sum);
}

/* The same over a footprint the L1 holds, OP 1: stores of pattern(k) (as sm_strided's);
 * OP 2: a load and a store back of the same word (x ^ 0), the GF(2) elimination's row-wise
 * update: every lane's line was just loaded into L1. */
template <int OP>
__global__ void __launch_bounds__(1024) sm_l1_strided_w(uint32_t *a, size_t m, size_t stride, size_t total) {
  const size_t T = (size_t)gridDim.x * blockDim.x, mask = m - 1;
  for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < total; q += T) {
    uint32_t *x = a + (q & mask) * stride;
    if (OP == 1) *x = pattern(q & mask);
    else {
      uint32_t v = __ldca(x);
      asm volatile("st.global.u32 [%0], %1;" : : "l"(x), "r"(v ^ (uint32_t)(q >> 62)) : "memory");
    }
  }
}

/* sm-l1-xor: the GF(2) elimination's row-wise XOR update on one SM's L1 (kernels/gf2.cu): a
 * lane whose row takes part loads its word (stride s apart, lines just loaded), loads the
 * pivot row's word (PIVOT: one word for the whole warp, a broadcast) and stores back the XOR.
 * HALF: a lane takes part when bit 0 of a hash of its index is set (about half the lanes, as
 * the random rows whose bit i is set); else every lane.  The store leaves the word as it was
 * (the pivot word is masked to 0 by a value the compiler cannot see: q >> 62 is 0). */
__device__ __forceinline__ uint32_t lane_hash(size_t q) {
  uint32_t h = (uint32_t)q * 0x9e3779b9u;
  h ^= h >> 15;
  h *= 0x85ebca6bu;
  return h ^ (h >> 13);
}

template <bool HALF, bool PIVOT>
__global__ void __launch_bounds__(1024) sm_l1_xor(uint32_t *a, const uint32_t *piv, size_t m, size_t stride,
                                                  size_t total) {
  const size_t T = (size_t)gridDim.x * blockDim.x, mask = m - 1;
  for (size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x; q < total; q += T) {
    if (HALF && !(lane_hash(q & mask) & 1)) continue;
    uint32_t *x = a + (q & mask) * stride;
    uint32_t v = __ldca(x);
    if (PIVOT) v ^= __ldca(piv + ((q / T) & 63)) & (uint32_t)(q >> 62);
    else v ^= (uint32_t)(q >> 62);
    asm volatile("st.global.u32 [%0], %1;" : : "l"(x), "r"(v) : "memory");
  }
}

/* Counts the k < m with b[k * stride] != pattern(k); the lowest in *first. */
__global__ void check_strided(const uint32_t *b, size_t m, size_t stride, unsigned long long *bad,
                              unsigned long long *first) {
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < m; k += (size_t)gridDim.x * blockDim.x)
    if (b[k * stride] != pattern(k)) {
      atomicAdd(bad, 1ull);
      atomicMin(first, (unsigned long long)k);
    }
}

/* Reads the n4 16-byte words of a `passes` times through L2 only (ld.global.cg); n4 is a
 * power of two. */
__global__ void __launch_bounds__(256) l2_read(const uint4 *a, size_t n4, int passes, uint32_t *sum) {
  const size_t T = (size_t)gridDim.x * blockDim.x, total = n4 * (size_t)passes, mask = n4 - 1;
  size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t s = 0;
  for (; q + 3 * T < total; q += 4 * T) {
    const uint4 v0 = __ldcg(a + (q & mask)), v1 = __ldcg(a + ((q + T) & mask));
    const uint4 v2 = __ldcg(a + ((q + 2 * T) & mask)), v3 = __ldcg(a + ((q + 3 * T) & mask));
    s += sum4(v0) + sum4(v1) + sum4(v2) + sum4(v3);
  }
  for (; q < total; q += T) s += sum4(__ldcg(a + (q & mask)));
  block_add(s, sum);
}

/* `passes` whole grid-stride passes over the n4 16-byte words of a (ld.global.cg); any n4. */
__global__ void __launch_bounds__(256) l2_sweep(const uint4 *a, size_t n4, int passes, uint32_t *sum) {
  const size_t T = (size_t)gridDim.x * blockDim.x, t0 = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t s = 0;
  for (int p = 0; p < passes; p++) {
    size_t q = t0;
    for (; q + 3 * T < n4; q += 4 * T) {
      const uint4 v0 = __ldcg(a + q), v1 = __ldcg(a + q + T), v2 = __ldcg(a + q + 2 * T), v3 = __ldcg(a + q + 3 * T);
      s += sum4(v0) + sum4(v1) + sum4(v2) + sum4(v3);
    }
    for (; q < n4; q += T) s += sum4(__ldcg(a + q));
  }
  block_add(s, sum);
}

/* `passes` whole grid-stride copies b = a of n4 16-byte words (loads ld.global.cg, stores
 * default: write-back in L2). */
__global__ void __launch_bounds__(256) l2_copy_sweep(const uint4 *a, uint4 *b, size_t n4, int passes) {
  const size_t T = (size_t)gridDim.x * blockDim.x, t0 = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  for (int p = 0; p < passes; p++) {
    size_t q = t0;
    for (; q + 3 * T < n4; q += 4 * T) {
      const uint4 v0 = __ldcg(a + q), v1 = __ldcg(a + q + T), v2 = __ldcg(a + q + 2 * T), v3 = __ldcg(a + q + 3 * T);
      b[q] = v0;
      b[q + T] = v1;
      b[q + 2 * T] = v2;
      b[q + 3 * T] = v3;
    }
    for (; q < n4; q += T) b[q] = __ldcg(a + q);
  }
}

/* One pass of a plain copy, one word per thread (l2-stream-sweep). */
__global__ void __launch_bounds__(256) l2_stream_copy(const uint32_t *__restrict__ a,
                                                      uint32_t *__restrict__ b, size_t n) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[i];
}

/* lowbias32 (Wellons): a well-mixed 32-bit hash; the random sweeps' addresses. */
__host__ __device__ inline uint32_t mix32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

/* The random sweeps' word of access j over `units` units of `unit` words (unit 1: words,
 * 32: lines; lane is added for lines). */
__host__ __device__ inline uint32_t random_unit(uint32_t j, uint32_t units) {
  return (uint32_t)(((uint64_t)mix32(j) * units) >> 32);
}

/* l2-line-sweep: `passes` whole grid-stride passes over `lines` 128-byte lines, one 4-byte
 * load (ld.global.cg) of word 32 q per line q; each thread reads the same lines every pass
 * (as l2_sweep does), so no line is read from SMs of both L2 partitions. */
__global__ void __launch_bounds__(256) line_sweep(const uint32_t *a, size_t lines, int passes, uint32_t *sum) {
  const size_t T = (size_t)gridDim.x * blockDim.x, t0 = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t s = 0;
  for (int p = 0; p < passes; p++) {
    size_t q = t0;
    for (; q + 3 * T < lines; q += 4 * T)
      s += __ldcg(a + 32 * q) + __ldcg(a + 32 * (q + T)) + __ldcg(a + 32 * (q + 2 * T)) + __ldcg(a + 32 * (q + 3 * T));
    for (; q < lines; q += T) s += __ldcg(a + 32 * q);
  }
  block_add(s, sum);
}

/* l2-random-sweep (LINE false): thread t makes `per` loads (ld.global.cg), load k at word
 * random_unit(t * per + k, words). LINE true: warp v's k-th load is line
 * random_unit(v * per + k, words / 32), lane l reading its word l. per is a multiple of 4. */
template <bool LINE>
__global__ void __launch_bounds__(256) random_sweep(const uint32_t *a, uint32_t words, uint32_t per,
                                                    uint32_t *sum) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
  const uint32_t base = (LINE ? t >> 5 : t) * per, units = LINE ? words >> 5 : words;
  uint32_t s = 0;
  for (uint32_t k = 0; k < per; k += 4) {
    uint32_t i[4];
#pragma unroll
    for (int u = 0; u < 4; u++) {
      const uint32_t x = random_unit(base + k + u, units);
      i[u] = LINE ? x * 32 + lane : x;
    }
    s += __ldcg(a + i[0]) + __ldcg(a + i[1]) + __ldcg(a + i[2]) + __ldcg(a + i[3]);
  }
  block_add(s, sum);
}

/* l2-random-write-sweep: thread t makes `per` 4-byte stores, store k of j = t * per + k at word
 * random_unit(j, words), value j + 1 (a plain st.global: the L2 merges and writes back). */
__global__ void __launch_bounds__(256) random_store_sweep(uint32_t *a, uint32_t words, uint32_t per) {
  const uint32_t base = (blockIdx.x * blockDim.x + threadIdx.x) * per;
  for (uint32_t k = 0; k < per; k += 4) {
#pragma unroll
    for (int u = 0; u < 4; u++) a[random_unit(base + k + u, words)] = base + k + u + 1;
  }
}

/* Counts the words of a[0, words) that hold neither their pattern nor a store that belongs
 * there (v - 1 < stores and random_unit(v - 1, words) = the word); the lowest in *first. */
__global__ void check_random_stores(const uint32_t *a, uint32_t words, uint64_t stores, unsigned long long *bad,
                                    unsigned long long *first) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += (size_t)gridDim.x * blockDim.x) {
    const uint32_t v = a[i];
    if (v == pattern(i)) continue;
    if (v >= 1 && v - 1 < stores && random_unit(v - 1, words) == i) continue;
    atomicAdd(bad, 1ull);
    atomicMin(first, (unsigned long long)i);
  }
}

/* Chase state: [0] the node the next call starts from, [1] the node a call ended on,
 * [2] the node it started from, [3] the number of calls so far. */
enum { CH_POS, CH_END, CH_START, CH_CALLS, CH_WORDS };

/* One thread follows p = a[p] (word indices): `warm` hops untimed, then `hops` hops timed
 * with clock64(). L2 = true: ld.global.cg (L2 and DRAM), else ld.global (L1). */
template <bool L2>
__global__ void global_chase(const uint32_t *a, uint32_t *state, long long warm, long long hops,
                             unsigned long long *clocks) {
  uint32_t p = state[CH_POS];
  state[CH_START] = p;
  for (long long h = 0; h < warm; h++) p = L2 ? __ldcg(a + p) : a[p];
  uint32_t q;
  asm volatile("mov.u32 %0, %1;" : "=r"(q) : "r"(p)); /* the warm hops complete first */
  p = q;
  const long long t0 = clock64();
  for (long long h = 0; h < hops; h++) p = L2 ? __ldcg(a + p) : a[p];
  asm volatile("mov.u32 %0, %1;" : "=r"(q) : "r"(p)); /* waits for the last hop */
  const long long t1 = clock64();
  const uint32_t call = state[CH_CALLS];
  clocks[call % MAX_CALLS] = (unsigned long long)(t1 - t0);
  state[CH_CALLS] = call + 1;
  state[CH_END] = q;
  state[CH_POS] = q;
}

/* loaded-chase: line x's 32 words all hold (x + G) mod lines, the next line of a grid-stride
 * chase of G warps. */
__global__ void fill_loaded_chase(uint32_t *a, uint32_t lines, uint32_t G) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)lines * 32;
       i += (size_t)gridDim.x * blockDim.x)
    a[i] = (uint32_t)(((i >> 5) + G) % lines);
}

/* Warp g starts at line (g + off) mod lines and follows x = a[32 x + lane] (ld.global.cg, one
 * coalesced line a hop): `warm` hops untimed, `hops` timed with clock64(). Lane 0 stores the
 * warp's clocks and end line (~0u where the lanes disagree). */
__global__ void __launch_bounds__(1024, 2) loaded_chase(const uint32_t *a, uint32_t lines, uint32_t off,
                                                        long long warm, long long hops, uint32_t *end,
                                                        unsigned long long *clk) {
  const uint32_t lane = threadIdx.x & 31, g = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  uint32_t x = (uint32_t)(((uint64_t)g + off) % lines);
  for (long long h = 0; h < warm; h++) x = __ldcg(a + (size_t)x * 32 + lane);
  uint32_t q;
  asm volatile("mov.u32 %0, %1;" : "=r"(q) : "r"(x)); /* the warm hops complete first */
  x = q;
  const long long t0 = clock64();
  for (long long h = 0; h < hops; h++) x = __ldcg(a + (size_t)x * 32 + lane);
  asm volatile("mov.u32 %0, %1;" : "=r"(q) : "r"(x)); /* waits for the last hop */
  const long long t1 = clock64();
  const bool agree = __all_sync(0xffffffffu, q == __shfl_sync(0xffffffffu, q, 0));
  if (lane == 0) {
    clk[g] = (unsigned long long)(t1 - t0);
    end[g] = agree ? q : ~0u;
  }
}

constexpr int SHARED_CHASE_WORDS = 4096;

/* One thread follows p = s[p] in shared memory (p a byte offset); the block copies the
 * cycle into shared memory first. */
__global__ void shared_chase(const uint32_t *cycle, uint32_t *state, long long hops,
                             unsigned long long *clocks) {
  __shared__ uint32_t s[SHARED_CHASE_WORDS];
  for (int i = threadIdx.x; i < SHARED_CHASE_WORDS; i += blockDim.x) s[i] = cycle[i];
  __syncthreads();
  if (threadIdx.x != 0) return;
  const char *base = (const char *)s;
  uint32_t p = 0, q;
  state[CH_START] = p;
  const long long t0 = clock64();
  for (long long h = 0; h < hops; h++) p = *(const uint32_t *)(base + p);
  asm volatile("mov.u32 %0, %1;" : "=r"(q) : "r"(p));
  const long long t1 = clock64();
  const uint32_t call = state[CH_CALLS];
  clocks[call % MAX_CALLS] = (unsigned long long)(t1 - t0);
  state[CH_CALLS] = call + 1;
  state[CH_END] = q;
}

constexpr int SW_WORDS = 4096, SW_UNROLL = 32, SW_PAD = 32 * SW_UNROLL;

/* Every warp issues rounds x SW_UNROLL loads; in each, lane l reads word
 * (l K + 32 (r SW_UNROLL + j)) mod 4096: K distinct words per bank, a K-way conflict
 * (K wavefronts). The padding repeats the array's start, so no index wraps inside a round. */
template <int K>
__global__ void __launch_bounds__(1024) shared_wavefronts(int rounds, uint32_t *out,
                                                          unsigned long long *clk) {
  __shared__ uint32_t s[SW_WORDS + SW_PAD];
  for (int i = threadIdx.x; i < SW_WORDS + SW_PAD; i += blockDim.x) s[i] = pattern((uint32_t)i % SW_WORDS);
  __syncthreads();
  const int lane = threadIdx.x & 31;
  uint32_t acc = 0;
  const long long t0 = clock64();
  for (int r = 0; r < rounds; r++) {
    const uint32_t *b = s + ((lane * K + r * 32 * SW_UNROLL) & (SW_WORDS - 1));
#pragma unroll
    for (int j = 0; j < SW_UNROLL; j++) acc += b[32 * j];
  }
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = acc;
  block_clock_end(t0, clk);
}

/* One warp: iteration i touches line (i * LOOP_ODD) mod lines, lane `lane`'s word of it;
 * clock64() around the loop.  The loop is written plainly (no pragma): the loads in flight
 * are what the compiler and the hardware make of ordinary code. */
constexpr uint64_t LOOP_ODD = 2654435761u;
__device__ __host__ inline size_t loop_word(long long i, size_t lines, int lane) {
  return (size_t)(((uint64_t)i * LOOP_ODD) & (lines - 1)) * 32 + (size_t)lane; /* lines: a power of two */
}

__global__ void load_loop(const uint32_t *a, size_t lines, long long iters, uint32_t *out,
                          unsigned long long *clk, uint32_t *calls) {
  const int lane = threadIdx.x & 31;
  uint32_t s = 0;
  const long long t0 = clock64();
  for (long long i = 0; i < iters; i++) s += a[loop_word(i, lines, lane)];
  uint32_t q;
  asm volatile("mov.u32 %0, %1;" : "=r"(q) : "r"(s)); /* waits for the last load */
  const long long t1 = clock64();
  out[lane] = q;
  if (lane == 0) clk[(*calls)++ % MAX_CALLS] = (unsigned long long)(t1 - t0);
}

__global__ void store_loop(uint32_t *a, size_t lines, long long iters, unsigned long long *clk,
                           uint32_t *calls) {
  const int lane = threadIdx.x & 31;
  const long long t0 = clock64();
  for (long long i = 0; i < iters; i++) a[loop_word(i, lines, lane)] = (uint32_t)i;
  const long long t1 = clock64();
  if (lane == 0) clk[(*calls)++ % MAX_CALLS] = (unsigned long long)(t1 - t0);
}

__global__ void store_fence_loop(uint32_t *a, size_t lines, long long iters, unsigned long long *clk,
                                 uint32_t *calls) {
  const int lane = threadIdx.x & 31;
  const long long t0 = clock64();
  for (long long i = 0; i < iters; i++) {
    a[loop_word(i, lines, lane)] = (uint32_t)i;
    __threadfence();
  }
  const long long t1 = clock64();
  if (lane == 0) clk[(*calls)++ % MAX_CALLS] = (unsigned long long)(t1 - t0);
}

__global__ void empty_kernel(uint32_t *flag, uint32_t token) {
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) *flag = token;
}

__global__ void block_flags(uint32_t *flags, uint32_t token) {
  if (threadIdx.x == 0) flags[blockIdx.x] = token;
}

__global__ void clock_spin(long long cycles, unsigned long long *clk) {
  const long long t0 = clock64();
  long long t;
  do t = clock64();
  while (t - t0 < cycles);
  if (threadIdx.x == 0) clk[blockIdx.x] = (unsigned long long)(t - t0);
}

/* Scatters a cycle over nodes: a[j * sw] = next[j] * sw. */
__global__ void scatter_nodes(uint32_t *a, const uint32_t *next, size_t nodes, uint32_t sw) {
  for (size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x; j < nodes;
       j += (size_t)gridDim.x * blockDim.x)
    a[j * sw] = next[j] * sw;
}

/* The shuffle chains' source lane: lane l < 31 reads lane (l + 1) mod 31, lane 31 itself (a
 * 31-cycle and a fixed point).  After n shuffles lane l < 31 holds the start value of lane
 * (l + n) mod 31: at the power-of-two chain lengths a 32-cycle would be back where it began,
 * and the check would not see a chain the compiler dropped. */
__host__ __device__ inline uint32_t shfl_src(uint32_t lane) { return lane == 31 ? 31u : (lane + 1) % 31; }

/* Lane l's value after n shuffles of a chain whose lane k starts with start(k). */
template <typename F> uint32_t shfl_after(uint32_t lane, long long n, F start) {
  return start(lane == 31 ? 31u : (uint32_t)((lane + n) % 31));
}

constexpr unsigned FULL_MASK = 0xffffffffu;
constexpr int SHFL_UNROLL = 64; /* shuffle-latency: dependent shuffles per loop turn */

/* shuffle-latency: one warp, `rounds` x SHFL_UNROLL dependent shuffles x = shfl(x, src(lane)),
 * clocked; then as many dependent IMADs y = y * y + lane in the same loop, clocked (y starts
 * from the shuffles' result, so the second chain cannot move before the first).  Call k's two
 * counts go to clk[2 (k mod MAX_CALLS)] and the next slot.
 *
 * SASS (cuobjdump -sass of the sm_90 object, CUDA 13.0): nvcc unrolls the shuffle loop twice
 * more, so a turn is 128 `SHFL.IDX PT, Rn, Rm, Rsrc, 0x1f`, each reading the register the one
 * before it wrote, beside the turn's counter (IADD3, ISETP) and its BRA; a turn of the IMAD
 * loop is 64 `IMAD R11, R11, R11, Rlane` with its counter in a uniform register (UIADD3,
 * ISETP) and its BRA.  The counters are off the chains: they issue while a shuffle (an IMAD)
 * is in flight.  So clocks_per_shuffle is the issue-to-issue time of dependent shuffles with
 * at most 3 other instructions per 128 shuffles beside them; clocks_per_imad, the same loop
 * over an op of a short fixed latency, shows what such a loop adds to a chain.  The clock64()
 * after a chain is read as its last op issues (nothing orders it after the result): one
 * latency in n, which the next chain (or the stores) waits for. */
__global__ void __launch_bounds__(32) shuffle_latency(int rounds, uint32_t *out, unsigned long long *clk,
                                                      uint32_t *calls) {
  const uint32_t lane = threadIdx.x & 31, src = shfl_src(lane);
  uint32_t x = pattern(lane);
  __syncwarp();
  const long long t0 = clock64();
  for (int r = 0; r < rounds; r++) {
#pragma unroll
    for (int j = 0; j < SHFL_UNROLL; j++) x = __shfl_sync(FULL_MASK, x, (int)src);
  }
  const long long t1 = clock64();
  uint32_t y = x;
  for (int r = 0; r < rounds; r++) {
#pragma unroll
    for (int j = 0; j < SHFL_UNROLL; j++) y = y * y + lane;
  }
  const long long t2 = clock64();
  out[lane] = x;
  out[32 + lane] = y;
  if (lane == 0) {
    const uint32_t k = (*calls)++ % MAX_CALLS;
    clk[2 * k] = (unsigned long long)(t1 - t0);
    clk[2 * k + 1] = (unsigned long long)(t2 - t1);
  }
}

constexpr int SR_CHAINS = 8, SR_UNROLL = 4; /* shuffle-rate: independent chains per warp; turns unrolled */

/* shuffle-rate: every warp runs SR_CHAINS independent chains x_c = shfl(x_c, src(lane)),
 * rounds x SR_UNROLL shuffles each (the chains interleaved: SR_CHAINS shuffles in flight per
 * warp); thread t stores the sum of its chains' values, thread 0 of each block the block's
 * clocks.  SASS: nvcc unrolls the loop 4 times more, a turn of 128 SHFL.IDX, each chain's
 * next shuffle 8 instructions after its last, beside the counter and the BRA. */
__global__ void __launch_bounds__(1024) shuffle_rate(int rounds, uint32_t *out, unsigned long long *clk) {
  const uint32_t lane = threadIdx.x & 31, src = shfl_src(lane);
  uint32_t x[SR_CHAINS];
#pragma unroll
  for (int c = 0; c < SR_CHAINS; c++) x[c] = pattern(lane + 32 * c);
  __syncwarp();
  const long long t0 = clock64();
  for (int r = 0; r < rounds; r++) {
#pragma unroll
    for (int j = 0; j < SR_UNROLL; j++) {
#pragma unroll
      for (int c = 0; c < SR_CHAINS; c++) x[c] = __shfl_sync(FULL_MASK, x[c], (int)src);
    }
  }
  uint32_t s = 0;
#pragma unroll
  for (int c = 0; c < SR_CHAINS; c++) s += x[c];
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
  block_clock_end(t0, clk);
}

constexpr int IR_CHAINS = 8, IR_UNROLL = 8; /* issue-rate: independent chains per thread; turns unrolled */
constexpr int IR_ROUND = IR_CHAINS * IR_UNROLL; /* chain steps per round, for every number of chains */
enum { IR_IMAD, IR_ALU, IR_MIXED };
constexpr uint32_t IR_K = 0x9e3779b9u;

/* One step of chain c of CH: IMAD x = x * x + lane (the FMA pipe), or LOP3 x = x ^ lane ^ IR_K
 * (the integer ALU pipe), or the first half of the chains the one and the rest the other (both
 * pipes: the schedulers' issue).  Inline PTX so that each step is one SASS instruction of the
 * pipe named. */
template <int OP, int CH> __device__ __forceinline__ uint32_t ir_step(uint32_t x, uint32_t lane, int c) {
  uint32_t y;
  if (OP == IR_IMAD || (OP == IR_MIXED && c >= CH / 2))
    asm volatile("mad.lo.u32 %0, %1, %1, %2;" : "=r"(y) : "r"(x), "r"(lane));
  else
    asm volatile("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(y) : "r"(x), "r"(lane), "r"(IR_K));
  return y;
}

__host__ inline uint32_t ir_host(int op, uint32_t x, uint32_t lane, int c, int chains, long long n) {
  if (op == IR_IMAD || (op == IR_MIXED && c >= chains / 2)) {
    for (long long i = 0; i < n; i++) x = x * x + lane;
    return x;
  }
  return n % 2 ? x ^ lane ^ IR_K : x;
}

/* issue-rate: every thread runs CH independent chains of OP's instruction, rounds x
 * IR_ROUND / CH steps each, interleaved; it stores the sum of its chains, thread 0 of each
 * block the block's clocks.  With CH = IR_CHAINS (8) the chains are independent enough that
 * issue and the pipe bound a warp, not latency; with 1, 2 or 4 a warp waits on its own
 * dependent results, and the records give how many warps hide that latency. */
template <int OP, int CH> __global__ void __launch_bounds__(1024) issue_rate(int rounds, uint32_t *out, unsigned long long *clk) {
  const uint32_t lane = threadIdx.x & 31;
  uint32_t x[CH];
#pragma unroll
  for (int c = 0; c < CH; c++) x[c] = pattern(lane + 32 * c);
  __syncthreads();
  const long long t0 = clock64();
  for (int r = 0; r < rounds; r++) {
#pragma unroll
    for (int j = 0; j < IR_ROUND / CH; j++) {
#pragma unroll
      for (int c = 0; c < CH; c++) x[c] = ir_step<OP, CH>(x[c], lane, c);
    }
  }
  uint32_t s = 0;
#pragma unroll
  for (int c = 0; c < CH; c++) s += x[c];
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
  block_clock_end(t0, clk);
}

/* barrier-loop: `iters` iterations of a block barrier (PASS 0), or of a shared load of a
 * neighbour's word, a shared store of it and a barrier (PASS 1: dmm_permute's copy pass,
 * b[i] = a[i + 1]); thread 0 stores the block's clocks, every thread its last word. */
template <int PASS> __global__ void __launch_bounds__(1024) barrier_loop(int iters, uint32_t *out, unsigned long long *clk) {
  __shared__ uint32_t a[1024], b[1024];
  const int t = threadIdx.x, n = blockDim.x;
  a[t] = pattern((uint32_t)t);
  b[t] = 0;
  __syncthreads();
  const long long t0 = clock64();
  for (int i = 0; i < iters; i++) {
    if (PASS) {
      uint32_t *src = (i & 1) ? b : a, *dst = (i & 1) ? a : b;
      dst[t] = src[(t + 1) % n];
    }
    __syncthreads();
  }
  out[(size_t)blockIdx.x * n + t] = PASS ? ((iters & 1) ? b[t] : a[t]) : (uint32_t)iters;
  block_clock_end(t0, clk);
}

/* ---- host side ----------------------------------------------------------------------- */

struct Dev {
  int sms = 0, max_threads_sm = 0;
  size_t global_mem = 0;
};

/* A random cyclic permutation of 0 .. n-1 (Sattolo's algorithm): next[i] is i's successor. */
std::vector<uint32_t> random_cycle(size_t n, uint64_t seed) {
  std::vector<uint32_t> next(n);
  std::iota(next.begin(), next.end(), 0u);
  MsRng rng(seed);
  for (size_t i = n - 1; i > 0; i--) std::swap(next[i], next[rng.below(i)]);
  return next;
}

template <typename K> int occupancy(K kernel, int threads, size_t shmem = 0) {
  int b = 0;
  MS_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, kernel, threads, shmem));
  return std::max(b, 1);
}

/* The per-call clocks of a chase, in call order (the last MAX_CALLS calls). */
std::vector<double> read_call_clocks(const uint32_t *d_state, const unsigned long long *d_clocks,
                                     double per) {
  uint32_t st[CH_WORDS];
  unsigned long long c[MAX_CALLS];
  MS_CUDA(cudaMemcpy(st, d_state, sizeof st, cudaMemcpyDeviceToHost));
  MS_CUDA(cudaMemcpy(c, d_clocks, sizeof c, cudaMemcpyDeviceToHost));
  std::vector<double> v;
  for (uint32_t k = st[CH_CALLS] > (uint32_t)MAX_CALLS ? st[CH_CALLS] - MAX_CALLS : 0; k < st[CH_CALLS]; k++)
    v.push_back((double)c[k % MAX_CALLS] / per);
  return v;
}

void run_launch(const Dev &d) {
  uint32_t *flag;
  MS_CUDA(cudaMalloc(&flag, 4));
  uint32_t token = 0;
  auto poison = [&] { MS_CUDA(cudaMemset(flag, 0xff, 4)); };
  auto verify = [&]() -> std::string {
    uint32_t h = 0;
    MS_CUDA(cudaMemcpy(&h, flag, 4, cudaMemcpyDeviceToHost));
    return h == token ? "" : ms_fmt("flag %u, want the last launch's token %u", h, token);
  };
  const int full = d.sms * std::max(1, d.max_threads_sm / 256);
  const struct { int blocks, threads; } shapes[] = {{1, 32}, {full, 256}};
  for (const auto &sh : shapes) {
    MsRecord rec;
    rec.workload = "calibrate";
    rec.algorithm = "launch-empty";
    rec.p("blocks", (long long)sh.blocks);
    rec.p("threads_per_block", (long long)sh.threads);
    auto launch = [&] { empty_kernel<<<sh.blocks, sh.threads>>>(flag, ++token); };
    measure(rec, poison, launch, verify, [](const MsRecord &, double med) {
      return "{\"ns_per_launch\": " + jnum(med) + "}";
    });
  }
  const int burst = 16;
  MsRecord rec;
  rec.workload = "calibrate";
  rec.algorithm = "launch-burst";
  rec.p("launches", (long long)burst);
  rec.p("blocks", 1LL);
  rec.p("threads_per_block", 32LL);
  auto launch = [&] {
    for (int k = 0; k < burst; k++) empty_kernel<<<1, 32>>>(flag, ++token);
  };
  measure(rec, poison, launch, verify, [&](const MsRecord &r, double med) {
    std::vector<double> span = r.span_ns;
    return "{\"ns_per_launch\": " + jnum(med / burst) + ", \"span_ns_per_launch\": " +
           jnum(median_of(span) / burst) + "}";
  });
  MS_CUDA(cudaFree(flag));
}

/* launch-blocks: k blocks per SM that only store their flag; time against k. */
void run_launch_blocks(const Dev &d, bool quick) {
  static const int ks_full[] = {16, 64, 256, 1024};
  static const int ks_quick[] = {16, 256};
  const int *ks = quick ? ks_quick : ks_full;
  const int nk = quick ? 2 : 4;
  const size_t max_blocks = (size_t)d.sms * ks[nk - 1];
  uint32_t *flags;
  MS_CUDA(cudaMalloc(&flags, max_blocks * 4));
  std::vector<uint32_t> h(max_blocks);
  uint32_t token = 0;
  for (int threads : {64, 256, 1024})
    for (int i = 0; i < nk; i++) {
      const int blocks = d.sms * ks[i];
      MsRecord rec;
      rec.workload = "calibrate";
      rec.algorithm = "launch-blocks";
      rec.p("blocks_per_sm", (long long)ks[i]);
      rec.p("blocks", (long long)blocks);
      rec.p("threads_per_block", (long long)threads);
      auto poison = [&] { MS_CUDA(cudaMemset(flags, 0xff, (size_t)blocks * 4)); };
      auto launch = [&] { block_flags<<<blocks, threads>>>(flags, ++token); };
      auto verify = [&]() -> std::string {
        MS_CUDA(cudaMemcpy(h.data(), flags, (size_t)blocks * 4, cudaMemcpyDeviceToHost));
        for (int b = 0; b < blocks; b++)
          if (h[b] != token) return ms_fmt("block %d: flag %u, want the last launch's token %u", b, h[b], token);
        return "";
      };
      measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
        return "{\"ns_per_block_per_sm\": " + jnum(med / ks[i]) + "}";
      });
    }
  MS_CUDA(cudaFree(flags));
}

void run_clock(const MsOptions &o, const Dev &d) {
  const int per_sm = occupancy(clock_spin, 1024), blocks = d.sms * per_sm;
  const long long cycles = o.quick ? 2000000LL : 20000000LL;
  unsigned long long *clk;
  MS_CUDA(cudaMalloc(&clk, blocks * sizeof(unsigned long long)));
  std::vector<unsigned long long> h(blocks);
  MsRecord rec;
  rec.workload = "calibrate";
  rec.algorithm = "clock-spin";
  rec.p("cycles", cycles);
  rec.p("blocks", (long long)blocks);
  rec.p("threads_per_block", 1024LL);
  auto poison = [&] { MS_CUDA(cudaMemset(clk, 0, blocks * sizeof(unsigned long long))); };
  auto launch = [&] { clock_spin<<<blocks, 1024>>>(cycles, clk); };
  auto verify = [&]() -> std::string {
    MS_CUDA(cudaMemcpy(h.data(), clk, blocks * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
      if (h[b] < (unsigned long long)cycles || h[b] > (unsigned long long)cycles * 11 / 10)
        return ms_fmt("block %d spun %llu clocks, want %lld .. %lld", b, h[b], cycles, cycles * 11 / 10);
    return "";
  };
  measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
    const unsigned long long mx = *std::max_element(h.begin(), h.end());
    return "{\"mhz\": " + jnum((double)cycles / med * 1e3) + ", \"block_clocks_max\": " +
           jnum((double)mx) + "}";
  });
  MS_CUDA(cudaFree(clk));
}

/* Strided reads over the pattern buffer `a` of `bytes` (docs/measurements.md). */
void run_strided(const Dev &d, const uint32_t *a, size_t bytes, uint32_t *sum) {
  const size_t words = bytes / 4;
  auto check_sum = [&](uint32_t want) -> std::string {
    uint32_t h = 0;
    MS_CUDA(cudaMemcpy(&h, sum, 4, cudaMemcpyDeviceToHost));
    return h == want ? "" : ms_fmt("sum %u, want %u", h, want);
  };
  const int sper_sm = occupancy(strided_read, 256), sblocks = d.sms * sper_sm;
  for (long long s = 1; s <= 32; s *= 2) {
    const size_t m = words / (size_t)s, requests = m / 32;
    MsRecord rec;
    rec.workload = "calibrate";
    rec.algorithm = "strided-read";
    rec.p("stride_words", s);
    rec.p("footprint_bytes", (long long)bytes);
    rec.p("blocks", (long long)sblocks);
    rec.p("threads_per_block", 256LL);
    rec.x("warp_requests", (long long)requests);
    rec.x("words_read", (long long)m);
    rec.x("sectors_per_request", (long long)std::min(4 * s, 32LL));
    rec.x("lines_per_request", (long long)std::min(s, 32LL));
    auto poison = [&] { MS_CUDA(cudaMemset(sum, 0xff, 4)); };
    auto launch = [&] {
      MS_CUDA(cudaMemsetAsync(sum, 0, 4));
      strided_read<<<sblocks, 256>>>(a, m, (size_t)s, sum);
    };
    auto verify = [&]() -> std::string { return check_sum(pattern_sum(m, (uint64_t)s)); };
    measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
      return "{\"ns_per_warp_request\": " + jnum(med / (double)requests) +
             ", \"useful_bytes_per_ns\": " + jnum(4.0 * (double)m / med) + "}";
    });
  }
}

/* Checks b[k * stride] = pattern(k) for k < m; "" or what is wrong. */
std::string check_strided_words(const Dev &d, const uint32_t *b, size_t m, size_t stride,
                                unsigned long long *bad) {
  unsigned long long init[2] = {0, ~0ull}, h[2];
  MS_CUDA(cudaMemcpy(bad, init, sizeof init, cudaMemcpyHostToDevice));
  check_strided<<<d.sms * 8, 256>>>(b, m, stride, bad, bad + 1);
  MS_CHECK_LAUNCH();
  MS_CUDA(cudaMemcpy(h, bad, sizeof h, cudaMemcpyDeviceToHost));
  return h[0] == 0 ? "" : ms_fmt("%llu words wrong, the first at k = %llu", h[0], h[1]);
}

/* Strided stores over the buffer `b` of `bytes` (far beyond L2). */
void run_strided_write(const Dev &d, uint32_t *b, size_t bytes, unsigned long long *bad) {
  if (!ms_selected("strided-write")) return;
  const size_t words = bytes / 4;
  const int blocks = d.sms * occupancy(strided_write, 256);
  for (long long s = 1; s <= 32; s *= 2) {
    const size_t m = words / (size_t)s, requests = m / 32;
    MsRecord rec;
    rec.workload = "calibrate";
    rec.algorithm = "strided-write";
    rec.p("stride_words", s);
    rec.p("footprint_bytes", (long long)bytes);
    rec.p("blocks", (long long)blocks);
    rec.p("threads_per_block", 256LL);
    rec.x("warp_requests", (long long)requests);
    rec.x("words_written", (long long)m);
    rec.x("sectors_per_request", (long long)std::min(4 * s, 32LL));
    auto poison = [&] { MS_CUDA(cudaMemset(b, 0xff, bytes)); };
    auto launch = [&] { strided_write<<<blocks, 256>>>(b, m, (size_t)s); };
    auto verify = [&]() -> std::string { return check_strided_words(d, b, m, (size_t)s, bad); };
    measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
      return "{\"ns_per_warp_request\": " + jnum(med / (double)requests) +
             ", \"useful_bytes_per_ns\": " + jnum(4.0 * (double)m / med) + "}";
    });
  }
}

/* l2-strided-read and l2-strided-write over a 16 MiB buffer: 2^20 warp requests per call at
 * every stride (8 s passes over the m = 2^22 / s words touched). */
void run_l2_strided(const Dev &d) {
  const bool rd = ms_selected("l2-strided-read"), wr = ms_selected("l2-strided-write");
  if (!rd && !wr) return;
  const size_t bytes = (size_t)16 << 20, words = bytes / 4;
  uint32_t *a, *sum;
  unsigned long long *bad;
  MS_CUDA(cudaMalloc(&a, bytes));
  MS_CUDA(cudaMalloc(&sum, 4));
  MS_CUDA(cudaMalloc(&bad, 2 * sizeof(unsigned long long)));
  const int blocks = d.sms * std::min(occupancy(l2_strided<false>, 256), occupancy(l2_strided<true>, 256));
  for (int write = 0; write < 2; write++) {
    if (write ? !wr : !rd) continue;
    for (long long s = 1; s <= 32; s *= 2) {
      const size_t m = words / (size_t)s, passes = 8 * (size_t)s, total = m * passes, requests = total / 32;
      fill_pattern<<<d.sms * 8, 256>>>(a, words);
      MS_CHECK_LAUNCH();
      MsRecord rec;
      rec.workload = "calibrate";
      rec.algorithm = write ? "l2-strided-write" : "l2-strided-read";
      rec.p("stride_words", s);
      rec.p("footprint_bytes", (long long)bytes);
      rec.p("passes", (long long)passes);
      rec.p("blocks", (long long)blocks);
      rec.p("threads_per_block", 256LL);
      rec.x("warp_requests", (long long)requests);
      rec.x("sectors_per_request", (long long)std::min(4 * s, 32LL));
      auto poison = [&] {
        if (write) MS_CUDA(cudaMemset(a, 0xff, bytes));
        else MS_CUDA(cudaMemset(sum, 0xff, 4));
      };
      auto launch = [&] {
        if (write) {
          l2_strided<true><<<blocks, 256>>>(a, m, (size_t)s, total, sum);
        } else {
          MS_CUDA(cudaMemsetAsync(sum, 0, 4));
          l2_strided<false><<<blocks, 256>>>(a, m, (size_t)s, total, sum);
        }
      };
      auto verify = [&]() -> std::string {
        if (write) return check_strided_words(d, a, m, (size_t)s, bad);
        uint32_t h = 0, want = (uint32_t)passes * pattern_sum(m, (uint64_t)s);
        MS_CUDA(cudaMemcpy(&h, sum, 4, cudaMemcpyDeviceToHost));
        return h == want ? "" : ms_fmt("sum %u, want %u", h, want);
      };
      measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
        return "{\"ns_per_warp_request\": " + jnum(med / (double)requests) + "}";
      });
    }
  }
  MS_CUDA(cudaFree(a));
  MS_CUDA(cudaFree(sum));
  MS_CUDA(cudaFree(bad));
}

/* The largest power of two <= x (x >= 1): the strided kernels' m, a mask's size. */
size_t pow2_floor(size_t x) {
  size_t m = 1;
  while (m * 2 <= x) m *= 2;
  return m;
}

/* sm-strided-read and sm-strided-write: k blocks of 1024 threads (one SM each) over a 16 MiB
 * buffer that stays in L2, 2^16 warp requests per call at s = 1 and s = 32. */
void run_sm_strided(const Dev &d) {
  const bool rd = ms_selected("sm-strided-read"), wr = ms_selected("sm-strided-write");
  if (!rd && !wr) return;
  const size_t bytes = (size_t)16 << 20, words = bytes / 4;
  uint32_t *a, *sum;
  unsigned long long *bad;
  MS_CUDA(cudaMalloc(&a, bytes));
  MS_CUDA(cudaMalloc(&sum, 4));
  MS_CUDA(cudaMalloc(&bad, 2 * sizeof(unsigned long long)));
  for (int write = 0; write < 2; write++) {
    if (write ? !wr : !rd) continue;
    for (int k : {1, 2, 4, 8}) {
      if (k > d.sms) continue;
      /* s = 33: 32 lines a request, as at 32, but every lane in its own bank; s = 4, 8, 16 (one
       * SM only): the stores between, to set beside the L1-resident ones (sm-l1-strided-write) */
      for (long long s : {1LL, 4LL, 8LL, 16LL, 32LL, 33LL}) {
        if (k > 1 && (s == 4 || s == 8 || s == 16)) continue;
        const size_t requests = (size_t)1 << 16, total = requests * 32, m = pow2_floor(words / (size_t)s);
        fill_pattern<<<d.sms * 8, 256>>>(a, words);
        MS_CHECK_LAUNCH();
        MsRecord rec;
        rec.workload = "calibrate";
        rec.algorithm = write ? "sm-strided-write" : "sm-strided-read";
        rec.p("stride_words", s);
        rec.p("footprint_bytes", (long long)bytes);
        rec.p("blocks", (long long)k);
        rec.p("threads_per_block", 1024LL);
        rec.x("warp_requests", (long long)requests);
        rec.x("lines_per_request", std::min(s, 32LL));
        auto poison = [&] {
          if (write) MS_CUDA(cudaMemset(a, 0xff, bytes));
          else MS_CUDA(cudaMemset(sum, 0xff, 4));
        };
        auto launch = [&] {
          if (write) {
            sm_strided<true><<<k, 1024>>>(a, m, (size_t)s, total, sum);
          } else {
            MS_CUDA(cudaMemsetAsync(sum, 0, 4));
            sm_strided<false><<<k, 1024>>>(a, m, (size_t)s, total, sum);
          }
        };
        auto verify = [&]() -> std::string {
          /* total < m at s = 1 (2^21 lanes, 2^22 words): words q = 0 .. total - 1 once
           * each; else m words total / m times (both powers of two) */
          const size_t touched = std::min(total, m);
          if (write) return check_strided_words(d, a, touched, (size_t)s, bad);
          uint32_t h = 0, want = (uint32_t)(total / touched) * pattern_sum(touched, (uint64_t)s);
          MS_CUDA(cudaMemcpy(&h, sum, 4, cudaMemcpyDeviceToHost));
          return h == want ? "" : ms_fmt("sum %u, want %u", h, want);
        };
        measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
          return "{\"ns_per_warp_request\": " + jnum(med / (double)requests) + "}";
        });
      }
    }
  }
  MS_CUDA(cudaFree(a));
  MS_CUDA(cudaFree(sum));
  MS_CUDA(cudaFree(bad));
}

/* sm-l1-strided-read: k = 1 and 8 blocks of 1024 threads (one SM each) over a 64 KiB buffer
 * (16384 words; the L1 holds it: l1-sweep), ld.global.ca, 2^16 warp requests per block per call
 * at s = 1 .. 32: a request's 32 words lie in s lines and min(32, 4 s) sectors; s = 33: 32
 * lines, one lane in each bank (m, a power of two, is then 256 words, 33 KiB). */
void run_sm_l1_strided(const Dev &d) {
  if (!ms_selected("sm-l1-strided-read") && !ms_selected("sm-l1-strided-write") && !ms_selected("sm-l1-strided-rmw") &&
      !ms_selected("sm-l1-xor"))
    return;
  const size_t bytes = (size_t)64 << 10, words = bytes / 4;
  uint32_t *a, *sum;
  MS_CUDA(cudaMalloc(&a, bytes));
  MS_CUDA(cudaMalloc(&sum, 4));
  for (int k : {1, 8}) {
    if (k > d.sms || !ms_selected("sm-l1-strided-read")) continue;
    for (long long s : {1LL, 2LL, 4LL, 8LL, 16LL, 32LL, 33LL}) {
      const size_t requests = ((size_t)1 << 16) * (size_t)k, total = requests * 32, m = pow2_floor(words / (size_t)s);
      fill_pattern<<<d.sms * 8, 256>>>(a, words);
      MS_CHECK_LAUNCH();
      MsRecord rec;
      rec.workload = "calibrate";
      rec.algorithm = "sm-l1-strided-read";
      rec.p("stride_words", s);
      rec.p("footprint_bytes", (long long)bytes);
      rec.p("blocks", (long long)k);
      rec.p("threads_per_block", 1024LL);
      rec.x("warp_requests", (long long)requests);
      rec.x("lines_per_request", std::min(s, 32LL));
      rec.x("sectors_per_request", s >= 8 ? 32LL : 4 * s);
      auto poison = [&] { MS_CUDA(cudaMemset(sum, 0xff, 4)); };
      auto launch = [&] {
        MS_CUDA(cudaMemsetAsync(sum, 0, 4));
        sm_l1_strided<<<k, 1024>>>(a, m, (size_t)s, total, sum);
      };
      auto verify = [&]() -> std::string {
        /* total > m: words 0 .. m - 1 (at stride s) total / m times each */
        uint32_t h = 0, want = (uint32_t)(total / m) * pattern_sum(m, (uint64_t)s);
        MS_CUDA(cudaMemcpy(&h, sum, 4, cudaMemcpyDeviceToHost));
        return h == want ? "" : ms_fmt("sum %u, want %u", h, want);
      };
      measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
        return "{\"ns_per_warp_request\": " + jnum(med / (double)requests) + "}";
      });
    }
  }
  /* sm-l1-strided-write (stores) and sm-l1-strided-rmw (a load and its store back): the
   * same blocks, strides and footprint; a request is one warp store (rmw: a load and a store) */
  unsigned long long *bad;
  MS_CUDA(cudaMalloc(&bad, 2 * sizeof(unsigned long long)));
  for (int op : {1, 2}) {
    const char *alg = op == 1 ? "sm-l1-strided-write" : "sm-l1-strided-rmw";
    if (!ms_selected(alg)) continue;
    for (int k : {1, 8}) {
      if (k > d.sms) continue;
      for (long long s : {1LL, 4LL, 8LL, 16LL, 32LL, 33LL}) {
        const size_t requests = ((size_t)1 << 16) * (size_t)k, total = requests * 32, m = pow2_floor(words / (size_t)s);
        fill_pattern<<<d.sms * 8, 256>>>(a, words);
        /* rmw stores back what it loads: start from the stores' values (word k s = pattern(k)) */
        if (op == 2) sm_l1_strided_w<1><<<1, 1024>>>(a, m, (size_t)s, m);
        MS_CHECK_LAUNCH();
        MsRecord rec;
        rec.workload = "calibrate";
        rec.algorithm = alg;
        rec.p("stride_words", s);
        rec.p("footprint_bytes", (long long)bytes);
        rec.p("blocks", (long long)k);
        rec.p("threads_per_block", 1024LL);
        rec.x("warp_requests", (long long)requests);
        rec.x("lines_per_request", std::min(s, 32LL));
        rec.x("sectors_per_request", s >= 8 ? 32LL : 4 * s);
        auto poison = [&] { if (op == 1) MS_CUDA(cudaMemset(a, 0xff, bytes)); };
        auto launch = [&] {
          if (op == 1) sm_l1_strided_w<1><<<k, 1024>>>(a, m, (size_t)s, total);
          else sm_l1_strided_w<2><<<k, 1024>>>(a, m, (size_t)s, total);
        };
        /* both leave word k s = pattern(k) for k < m (rmw stores back what it loaded) */
        auto verify = [&]() -> std::string { return check_strided_words(d, a, m, (size_t)s, bad); };
        measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
          return "{\"ns_per_warp_request\": " + jnum(med / (double)requests) + "}";
        });
      }
    }
  }
  /* sm-l1-xor: the GF(2) row-wise update (sm_l1_xor), one block of 1024 threads, strides 1
   * (column-wise: consecutive words), 32 and 64 (row-wise: every lane in one bank), every lane
   * or about half, with and without the pivot's broadcast load; a request is one warp's
   * update (its loads and its store) */
  if (ms_selected("sm-l1-xor")) {
    uint32_t *piv;
    MS_CUDA(cudaMalloc(&piv, 64 * sizeof(uint32_t)));
    fill_pattern<<<1, 64>>>(piv, 64);
    for (long long s : {1LL, 32LL, 64LL})
      for (int half : {0, 1})
        for (int pivot : {0, 1}) {
          const size_t requests = (size_t)1 << 16, total = requests * 32, m = pow2_floor(words / (size_t)s);
          fill_pattern<<<d.sms * 8, 256>>>(a, words);
          sm_l1_strided_w<1><<<1, 1024>>>(a, m, (size_t)s, m); /* word k s = pattern(k) */
          MS_CHECK_LAUNCH();
          MsRecord rec;
          rec.workload = "calibrate";
          rec.algorithm = "sm-l1-xor";
          rec.p("stride_words", s);
          rec.p("half_lanes", (long long)half);
          rec.p("pivot", (long long)pivot);
          rec.p("footprint_bytes", (long long)bytes);
          rec.p("blocks", 1LL);
          rec.p("threads_per_block", 1024LL);
          rec.x("warp_requests", (long long)requests);
          auto poison = [&] {};
          auto launch = [&] {
            if (half && pivot) sm_l1_xor<true, true><<<1, 1024>>>(a, piv, m, (size_t)s, total);
            else if (half) sm_l1_xor<true, false><<<1, 1024>>>(a, piv, m, (size_t)s, total);
            else if (pivot) sm_l1_xor<false, true><<<1, 1024>>>(a, piv, m, (size_t)s, total);
            else sm_l1_xor<false, false><<<1, 1024>>>(a, piv, m, (size_t)s, total);
          };
          auto verify = [&]() -> std::string { return check_strided_words(d, a, m, (size_t)s, bad); };
          measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
            return "{\"ns_per_warp_request\": " + jnum(med / (double)requests) + "}";
          });
        }
    MS_CUDA(cudaFree(piv));
  }
  MS_CUDA(cudaFree(bad));
  MS_CUDA(cudaFree(a));
  MS_CUDA(cudaFree(sum));
}

void run_dram(const MsOptions &o, const Dev &d) {
  /* 2 GiB buffers (256 MiB with --quick), each far beyond the 50-60 MB L2 */
  size_t bytes = o.quick ? (size_t)256 << 20 : (size_t)2 << 30;
  while (bytes > ((size_t)64 << 20) && 3 * bytes > d.global_mem) bytes /= 2;
  const size_t words = bytes / 4, n4 = bytes / 16;
  uint32_t *a, *b, *sum;
  unsigned long long *bad, *clk;
  MS_CUDA(cudaMalloc(&a, bytes));
  MS_CUDA(cudaMalloc(&b, bytes));
  MS_CUDA(cudaMalloc(&sum, 4));
  MS_CUDA(cudaMalloc(&bad, 2 * sizeof(unsigned long long)));
  fill_pattern<<<d.sms * 8, 256>>>(a, words);
  MS_CHECK_LAUNCH();
  MS_CUDA(cudaDeviceSynchronize());
  const int per_sm = std::min(occupancy(dram_stream<DRAM_READ>, 256), std::min(
                              occupancy(dram_stream<DRAM_WRITE>, 256), occupancy(dram_stream<DRAM_COPY>, 256)));
  const int blocks = d.sms * per_sm;
  MS_CUDA(cudaMalloc(&clk, blocks * sizeof(unsigned long long)));
  std::vector<unsigned long long> hclk(blocks);

  auto check_sum = [&](uint32_t want) -> std::string {
    uint32_t h = 0;
    MS_CUDA(cudaMemcpy(&h, sum, 4, cudaMemcpyDeviceToHost));
    return h == want ? "" : ms_fmt("sum %u, want %u", h, want);
  };
  auto check_b = [&]() -> std::string {
    unsigned long long init[2] = {0, ~0ull}, h[2];
    MS_CUDA(cudaMemcpy(bad, init, sizeof init, cudaMemcpyHostToDevice));
    check_pattern<<<d.sms * 8, 256>>>(b, words, bad, bad + 1);
    MS_CHECK_LAUNCH();
    MS_CUDA(cudaMemcpy(h, bad, sizeof h, cudaMemcpyDeviceToHost));
    return h[0] == 0 ? "" : ms_fmt("%llu words wrong, the first at word %llu", h[0], h[1]);
  };
  auto clocks = [&](const MsRecord &, double med) {
    MS_CUDA(cudaMemcpy(hclk.data(), clk, blocks * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    const double mx = (double)*std::max_element(hclk.begin(), hclk.end());
    return ", \"block_clocks_max\": " + jnum(mx) + ", \"mhz_from_block_clocks\": " + jnum(mx / med * 1e3);
  };
  static const struct { const char *name; int op; } ops[] = {
      {"dram-read", DRAM_READ}, {"dram-write", DRAM_WRITE}, {"dram-copy", DRAM_COPY}};
  for (const auto &op : ops) {
    MsRecord rec;
    rec.workload = "calibrate";
    rec.algorithm = op.name;
    rec.p("bytes", (long long)bytes);
    rec.p("vector_bytes", 16LL);
    rec.p("blocks", (long long)blocks);
    rec.p("threads_per_block", 256LL);
    const long long rd = op.op == DRAM_WRITE ? 0 : (long long)bytes;
    const long long wr = op.op == DRAM_READ ? 0 : (long long)bytes;
    rec.x("bytes_read", rd);
    rec.x("bytes_written", wr);
    auto poison = [&] {
      MS_CUDA(cudaMemset(sum, 0xff, 4));
      if (op.op != DRAM_READ) MS_CUDA(cudaMemset(b, 0xff, bytes));
    };
    auto launch = [&] {
      MS_CUDA(cudaMemsetAsync(sum, 0, 4));
      if (op.op == DRAM_READ) dram_stream<DRAM_READ><<<blocks, 256>>>((const uint4 *)a, (uint4 *)b, n4, sum, clk);
      else if (op.op == DRAM_WRITE) dram_stream<DRAM_WRITE><<<blocks, 256>>>((const uint4 *)a, (uint4 *)b, n4, sum, clk);
      else dram_stream<DRAM_COPY><<<blocks, 256>>>((const uint4 *)a, (uint4 *)b, n4, sum, clk);
    };
    auto verify = [&]() -> std::string {
      return op.op == DRAM_READ ? check_sum(pattern_sum(words, 1)) : check_b();
    };
    measure(rec, poison, launch, verify, [&](const MsRecord &r, double med) {
      return "{\"bytes_per_ns\": " + jnum((double)(rd + wr) / med) + clocks(r, med) + "}";
    });
  }

  if (ms_selected("strided-read")) run_strided(d, a, bytes, sum);
  run_strided_write(d, b, bytes, bad);
  MS_CUDA(cudaFree(a));
  MS_CUDA(cudaFree(b));
  MS_CUDA(cudaFree(sum));
  MS_CUDA(cudaFree(bad));
  MS_CUDA(cudaFree(clk));
}

void run_l2_read(const Dev &d) {
  const size_t bytes = (size_t)16 << 20, words = bytes / 4, n4 = bytes / 16;
  const int passes = 64;
  uint32_t *a, *sum;
  MS_CUDA(cudaMalloc(&a, bytes));
  MS_CUDA(cudaMalloc(&sum, 4));
  fill_pattern<<<d.sms * 8, 256>>>(a, words);
  MS_CHECK_LAUNCH();
  const int blocks = d.sms * occupancy(l2_read, 256);
  MsRecord rec;
  rec.workload = "calibrate";
  rec.algorithm = "l2-read";
  rec.p("footprint_bytes", (long long)bytes);
  rec.p("passes", (long long)passes);
  rec.p("blocks", (long long)blocks);
  rec.p("threads_per_block", 256LL);
  rec.x("bytes_read", (long long)(bytes * passes));
  auto poison = [&] { MS_CUDA(cudaMemset(sum, 0xff, 4)); };
  auto launch = [&] {
    MS_CUDA(cudaMemsetAsync(sum, 0, 4));
    l2_read<<<blocks, 256>>>((const uint4 *)a, n4, passes, sum);
  };
  auto verify = [&]() -> std::string {
    uint32_t h = 0, want = (uint32_t)passes * pattern_sum(words, 1);
    MS_CUDA(cudaMemcpy(&h, sum, 4, cudaMemcpyDeviceToHost));
    return h == want ? "" : ms_fmt("sum %u, want %u", h, want);
  };
  measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
    return "{\"bytes_per_ns\": " + jnum((double)(bytes * passes) / med) + "}";
  });
  MS_CUDA(cudaFree(a));
  MS_CUDA(cudaFree(sum));
}

/* l2-sweep: read bandwidth against footprint, 8 .. 128 MiB (about 1 GiB read per call). */
void run_l2_sweep(const Dev &d, bool quick) {
  static const int mib_full[] = {8, 16, 24, 32, 36, 40, 44, 48, 56, 64, 80, 96, 128};
  static const int mib_quick[] = {8, 32, 64, 128};
  const int *mib = quick ? mib_quick : mib_full;
  const int count = quick ? 4 : (int)(sizeof mib_full / sizeof mib_full[0]);
  const size_t max_bytes = (size_t)mib[count - 1] << 20;
  uint32_t *a, *sum;
  MS_CUDA(cudaMalloc(&a, max_bytes));
  MS_CUDA(cudaMalloc(&sum, 4));
  const int blocks = d.sms * occupancy(l2_sweep, 256);
  for (int i = 0; i < count; i++) {
    const size_t bytes = (size_t)mib[i] << 20, words = bytes / 4, n4 = bytes / 16;
    const int passes = (int)std::max<size_t>(2, ((size_t)1 << 30) / bytes);
    fill_pattern<<<d.sms * 8, 256>>>(a, words);
    MS_CHECK_LAUNCH();
    MsRecord rec;
    rec.workload = "calibrate";
    rec.algorithm = "l2-sweep";
    rec.p("footprint_bytes", (long long)bytes);
    rec.p("passes", (long long)passes);
    rec.p("blocks", (long long)blocks);
    rec.p("threads_per_block", 256LL);
    rec.x("bytes_read", (long long)(bytes * passes));
    auto poison = [&] { MS_CUDA(cudaMemset(sum, 0xff, 4)); };
    auto launch = [&] {
      MS_CUDA(cudaMemsetAsync(sum, 0, 4));
      l2_sweep<<<blocks, 256>>>((const uint4 *)a, n4, passes, sum);
    };
    auto verify = [&]() -> std::string {
      uint32_t h = 0, want = (uint32_t)passes * pattern_sum(words, 1);
      MS_CUDA(cudaMemcpy(&h, sum, 4, cudaMemcpyDeviceToHost));
      return h == want ? "" : ms_fmt("sum %u, want %u", h, want);
    };
    measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
      return "{\"bytes_per_ns\": " + jnum((double)(bytes * passes) / med) + "}";
    });
  }
  MS_CUDA(cudaFree(a));
  MS_CUDA(cudaFree(sum));
}

/* l2-random-sweep, l2-random-line-sweep: time per random load against footprint, 4 .. 256 MiB
 * (2^26 4-byte loads per call, all threads busy). */
template <bool LINE>
void run_random_sweep(const Dev &d, bool quick) {
  static const int mib_full[] = {4, 8, 12, 16, 20, 24, 28, 32, 40, 48, 64, 96, 128, 256};
  static const int mib_quick[] = {8, 32, 64, 256};
  const int *mib = quick ? mib_quick : mib_full;
  const int count = quick ? 4 : (int)(sizeof mib_full / sizeof mib_full[0]);
  const size_t max_bytes = (size_t)mib[count - 1] << 20;
  uint32_t *a, *sum;
  MS_CUDA(cudaMalloc(&a, max_bytes));
  MS_CUDA(cudaMalloc(&sum, 4));
  fill_pattern<<<d.sms * 8, 256>>>(a, max_bytes / 4);
  MS_CHECK_LAUNCH();
  const uint32_t blocks = (uint32_t)(d.sms * occupancy(random_sweep<LINE>, 256)), threads = blocks * 256;
  const uint64_t target = (uint64_t)1 << 26; /* 4-byte loads per call */
  const uint32_t per = (uint32_t)std::max<uint64_t>(4, target / threads / 4 * 4);
  const uint64_t loads = (uint64_t)threads * per; /* 4-byte loads (LINE: 32 per warp load) */
  for (int c = 0; c < count; c++) {
    const uint32_t words = (uint32_t)(((size_t)mib[c] << 20) / 4);
    /* The expected sum, on the host: every load's pattern value. */
    uint32_t want = 0;
    if (LINE) {
      for (uint64_t v = 0; v < threads / 32; v++)
        for (uint32_t k = 0; k < per; k++) {
          const uint32_t x = random_unit((uint32_t)(v * per + k), words >> 5);
          for (uint32_t l = 0; l < 32; l++) want += pattern((uint64_t)x * 32 + l);
        }
    } else {
      for (uint64_t j = 0; j < loads; j++) want += pattern(random_unit((uint32_t)j, words));
    }
    MsRecord rec;
    rec.workload = "calibrate";
    rec.algorithm = LINE ? "l2-random-line-sweep" : "l2-random-sweep";
    rec.p("footprint_bytes", (long long)words * 4);
    rec.p("loads", (long long)(LINE ? loads / 32 : loads));
    rec.p("load_bytes", LINE ? 128LL : 4LL);
    rec.p("blocks", (long long)blocks);
    rec.p("threads_per_block", 256LL);
    rec.x("bytes_read", (long long)(loads * 4));
    auto poison = [&] { MS_CUDA(cudaMemset(sum, 0xff, 4)); };
    auto launch = [&] {
      MS_CUDA(cudaMemsetAsync(sum, 0, 4));
      random_sweep<LINE><<<blocks, 256>>>(a, words, per, sum);
    };
    auto verify = [&]() -> std::string {
      uint32_t h = 0;
      MS_CUDA(cudaMemcpy(&h, sum, 4, cudaMemcpyDeviceToHost));
      return h == want ? "" : ms_fmt("sum %u, want %u", h, want);
    };
    const double n_loads = (double)(LINE ? loads / 32 : loads);
    measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
      return "{\"ns_per_load\": " + jnum(med / n_loads) + ", \"loads_per_ns\": " + jnum(n_loads / med) + "}";
    });
  }
  MS_CUDA(cudaFree(a));
  MS_CUDA(cudaFree(sum));
}

/* l2-random-write-sweep: time per random 4-byte store against footprint, 4 .. 256 MiB (2^26
 * stores per call, all threads busy; the footprint's pattern written before the first call
 * and again before the last check). */
void run_random_write_sweep(const Dev &d, bool quick) {
  static const int mib_full[] = {4, 8, 12, 16, 20, 24, 28, 32, 40, 48, 64, 96, 128, 256};
  static const int mib_quick[] = {8, 32, 64, 256};
  const int *mib = quick ? mib_quick : mib_full;
  const int count = quick ? 4 : (int)(sizeof mib_full / sizeof mib_full[0]);
  const size_t max_bytes = (size_t)mib[count - 1] << 20;
  uint32_t *a;
  unsigned long long *chk;
  MS_CUDA(cudaMalloc(&a, max_bytes));
  MS_CUDA(cudaMalloc(&chk, 2 * sizeof *chk));
  const uint32_t blocks = (uint32_t)(d.sms * occupancy(random_store_sweep, 256)), threads = blocks * 256;
  const uint64_t target = (uint64_t)1 << 26; /* 4-byte stores per call */
  const uint32_t per = (uint32_t)std::max<uint64_t>(4, target / threads / 4 * 4);
  const uint64_t stores = (uint64_t)threads * per;
  for (int c = 0; c < count; c++) {
    const uint32_t words = (uint32_t)(((size_t)mib[c] << 20) / 4);
    MsRecord rec;
    rec.workload = "calibrate";
    rec.algorithm = "l2-random-write-sweep";
    rec.p("footprint_bytes", (long long)words * 4);
    rec.p("stores", (long long)stores);
    rec.p("store_bytes", 4LL);
    rec.p("blocks", (long long)blocks);
    rec.p("threads_per_block", 256LL);
    rec.x("bytes_written", (long long)(stores * 4));
    auto poison = [&] {
      fill_pattern<<<d.sms * 8, 256>>>(a, words);
      MS_CHECK_LAUNCH();
    };
    auto launch = [&] { random_store_sweep<<<blocks, 256>>>(a, words, per); };
    auto verify = [&]() -> std::string {
      unsigned long long h[2] = {0, ~0ull};
      MS_CUDA(cudaMemcpy(chk, h, sizeof h, cudaMemcpyHostToDevice));
      check_random_stores<<<d.sms * 8, 256>>>(a, words, stores, chk, chk + 1);
      MS_CHECK_LAUNCH();
      MS_CUDA(cudaMemcpy(h, chk, sizeof h, cudaMemcpyDeviceToHost));
      return h[0] == 0 ? "" : ms_fmt("%llu words hold neither their pattern nor a store of theirs (first %llu)", h[0], h[1]);
    };
    const double n_stores = (double)stores;
    measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
      return "{\"ns_per_store\": " + jnum(med / n_stores) + ", \"stores_per_ns\": " + jnum(n_stores / med) + "}";
    });
  }
  MS_CUDA(cudaFree(a));
  MS_CUDA(cudaFree(chk));
}

/* l2-line-sweep: time per load against footprint, one word per 128-byte line, 8 .. 256 MiB
 * (about 2^26 loads per call). */
void run_line_sweep(const Dev &d, bool quick) {
  static const int mib_full[] = {8, 16, 24, 32, 40, 44, 48, 56, 64, 80, 96, 128, 256};
  static const int mib_quick[] = {8, 32, 64, 256};
  const int *mib = quick ? mib_quick : mib_full;
  const int count = quick ? 4 : (int)(sizeof mib_full / sizeof mib_full[0]);
  const size_t max_bytes = (size_t)mib[count - 1] << 20;
  uint32_t *a, *sum;
  MS_CUDA(cudaMalloc(&a, max_bytes));
  MS_CUDA(cudaMalloc(&sum, 4));
  fill_pattern<<<d.sms * 8, 256>>>(a, max_bytes / 4);
  MS_CHECK_LAUNCH();
  const int blocks = d.sms * occupancy(line_sweep, 256);
  for (int c = 0; c < count; c++) {
    const size_t lines = ((size_t)mib[c] << 20) / 128;
    const int passes = (int)std::max<size_t>(2, ((size_t)1 << 26) / lines);
    const long long loads = (long long)lines * passes;
    MsRecord rec;
    rec.workload = "calibrate";
    rec.algorithm = "l2-line-sweep";
    rec.p("footprint_bytes", (long long)lines * 128);
    rec.p("passes", (long long)passes);
    rec.p("loads", loads);
    rec.p("stride_words", 32LL);
    rec.p("blocks", (long long)blocks);
    rec.p("threads_per_block", 256LL);
    rec.x("bytes_read", loads * 4);
    auto poison = [&] { MS_CUDA(cudaMemset(sum, 0xff, 4)); };
    auto launch = [&] {
      MS_CUDA(cudaMemsetAsync(sum, 0, 4));
      line_sweep<<<blocks, 256>>>(a, lines, passes, sum);
    };
    auto verify = [&]() -> std::string {
      uint32_t h = 0, want = (uint32_t)passes * pattern_sum(lines, 32);
      MS_CUDA(cudaMemcpy(&h, sum, 4, cudaMemcpyDeviceToHost));
      return h == want ? "" : ms_fmt("sum %u, want %u", h, want);
    };
    measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
      return "{\"ns_per_load\": " + jnum(med / (double)loads) + "}";
    });
  }
  MS_CUDA(cudaFree(a));
  MS_CUDA(cudaFree(sum));
}

/* l2-copy-sweep: copy bandwidth (bytes read + written) against the footprint of both arrays,
 * 8 .. 128 MiB (about 1 GiB moved per call). */
void run_l2_copy_sweep(const Dev &d, bool quick) {
  static const int mib_full[] = {8, 16, 24, 28, 32, 36, 40, 44, 48, 56, 64, 80, 96, 128};
  static const int mib_quick[] = {8, 32, 64, 128};
  const int *mib = quick ? mib_quick : mib_full;
  const int count = quick ? 4 : (int)(sizeof mib_full / sizeof mib_full[0]);
  const size_t max_half = (size_t)mib[count - 1] << 19;
  uint32_t *a, *b;
  unsigned long long *bad;
  MS_CUDA(cudaMalloc(&a, max_half));
  MS_CUDA(cudaMalloc(&b, max_half));
  MS_CUDA(cudaMalloc(&bad, 2 * sizeof(unsigned long long)));
  const int blocks = d.sms * occupancy(l2_copy_sweep, 256);
  for (int i = 0; i < count; i++) {
    const size_t half = (size_t)mib[i] << 19, words = half / 4, n4 = half / 16;
    const int passes = (int)std::max<size_t>(2, ((size_t)1 << 30) / (2 * half));
    fill_pattern<<<d.sms * 8, 256>>>(a, words);
    MS_CHECK_LAUNCH();
    MsRecord rec;
    rec.workload = "calibrate";
    rec.algorithm = "l2-copy-sweep";
    rec.p("footprint_bytes", (long long)(2 * half));
    rec.p("passes", (long long)passes);
    rec.p("blocks", (long long)blocks);
    rec.p("threads_per_block", 256LL);
    rec.x("bytes_read", (long long)(half * passes));
    rec.x("bytes_written", (long long)(half * passes));
    auto poison = [&] { MS_CUDA(cudaMemset(b, 0xff, half)); };
    auto launch = [&] { l2_copy_sweep<<<blocks, 256>>>((const uint4 *)a, (uint4 *)b, n4, passes); };
    auto verify = [&]() -> std::string {
      unsigned long long init[2] = {0, ~0ull}, h[2];
      MS_CUDA(cudaMemcpy(bad, init, sizeof init, cudaMemcpyHostToDevice));
      check_pattern<<<d.sms * 8, 256>>>(b, words, bad, bad + 1);
      MS_CHECK_LAUNCH();
      MS_CUDA(cudaMemcpy(h, bad, sizeof h, cudaMemcpyDeviceToHost));
      return h[0] == 0 ? "" : ms_fmt("%llu words wrong, the first at word %llu", h[0], h[1]);
    };
    measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
      return "{\"bytes_per_ns\": " + jnum((double)(2 * half * passes) / med) + "}";
    });
  }
  MS_CUDA(cudaFree(a));
  MS_CUDA(cudaFree(b));
  MS_CUDA(cudaFree(bad));
}

/* l2-stream-sweep: one plain copy pass per call over footprints (both arrays) of
 * 16 .. 128 MiB; the calls of a record follow each other, so the time per call against the
 * footprint shows how much of it the L2 keeps from one call to the next. */
void run_l2_stream_sweep(const Dev &d, bool quick) {
  static const int mib_full[] = {16, 24, 28, 32, 34, 36, 38, 40, 42, 44, 46, 48, 52, 56, 64, 80, 96, 128};
  static const int mib_quick[] = {16, 32, 48, 64};
  const int *mib = quick ? mib_quick : mib_full;
  const int count = quick ? 4 : (int)(sizeof mib_full / sizeof mib_full[0]);
  const size_t max_half = (size_t)mib[count - 1] << 19;
  uint32_t *a, *b;
  unsigned long long *bad;
  MS_CUDA(cudaMalloc(&a, max_half));
  MS_CUDA(cudaMalloc(&b, max_half));
  MS_CUDA(cudaMalloc(&bad, 2 * sizeof(unsigned long long)));
  for (int i = 0; i < count; i++) {
    const size_t half = (size_t)mib[i] << 19, words = half / 4;
    const unsigned blocks = (unsigned)((words + 255) / 256);
    fill_pattern<<<d.sms * 8, 256>>>(a, words);
    MS_CHECK_LAUNCH();
    MsRecord rec;
    rec.workload = "calibrate";
    rec.algorithm = "l2-stream-sweep";
    rec.p("footprint_bytes", (long long)(2 * half));
    rec.p("blocks", (long long)blocks);
    rec.p("threads_per_block", 256LL);
    rec.x("bytes_read", (long long)half);
    rec.x("bytes_written", (long long)half);
    auto poison = [&] { MS_CUDA(cudaMemset(b, 0xff, half)); };
    auto launch = [&] { l2_stream_copy<<<blocks, 256>>>(a, b, words); };
    auto verify = [&]() -> std::string {
      unsigned long long init[2] = {0, ~0ull}, h[2];
      MS_CUDA(cudaMemcpy(bad, init, sizeof init, cudaMemcpyHostToDevice));
      check_pattern<<<d.sms * 8, 256>>>(b, words, bad, bad + 1);
      MS_CHECK_LAUNCH();
      MS_CUDA(cudaMemcpy(h, bad, sizeof h, cudaMemcpyDeviceToHost));
      return h[0] == 0 ? "" : ms_fmt("%llu words wrong, the first at word %llu", h[0], h[1]);
    };
    measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
      return "{\"bytes_per_ns\": " + jnum((double)(2 * half) / med) + "}";
    });
  }
  MS_CUDA(cudaFree(a));
  MS_CUDA(cudaFree(b));
  MS_CUDA(cudaFree(bad));
}

/* A pointer chase over `footprint` bytes, nodes `stride` bytes apart. */
void run_chase(const MsOptions &o, const char *alg, size_t footprint, long long warm, long long hops) {
  if (!ms_selected(alg)) return;
  const uint32_t sw = 32; /* 128-byte node stride: one node per line */
  const size_t nodes = footprint / (4 * sw);
  const std::vector<uint32_t> next = random_cycle(nodes, o.seed * 7777 + footprint);
  uint32_t *a, *d_next, *state;
  unsigned long long *clocks;
  MS_CUDA(cudaMalloc(&a, footprint));
  MS_CUDA(cudaMalloc(&d_next, nodes * 4));
  MS_CUDA(cudaMalloc(&state, CH_WORDS * 4));
  MS_CUDA(cudaMalloc(&clocks, MAX_CALLS * sizeof(unsigned long long)));
  MS_CUDA(cudaMemcpy(d_next, next.data(), nodes * 4, cudaMemcpyHostToDevice));
  MS_CUDA(cudaMemset(a, 0xff, footprint));
  MS_CUDA(cudaMemset(state, 0, CH_WORDS * 4));
  scatter_nodes<<<256, 256>>>(a, d_next, nodes, sw);
  MS_CHECK_LAUNCH();
  MS_CUDA(cudaDeviceSynchronize());
  MS_CUDA(cudaFree(d_next));
  const bool l1 = std::string(alg) == "l1-chase" || std::string(alg) == "l1-sweep";
  MsRecord rec;
  rec.workload = "calibrate";
  rec.algorithm = alg;
  rec.p("footprint_bytes", (long long)footprint);
  rec.p("node_stride_bytes", (long long)(4 * sw));
  rec.p("hops", hops);
  rec.p("warmup_hops", warm);
  rec.x("load", l1 ? "ld.global" : "ld.global.cg");
  auto poison = [&] { MS_CUDA(cudaMemset(state + CH_END, 0xff, 4)); };
  auto launch = [&] {
    if (l1) global_chase<false><<<1, 1>>>(a, state, warm, hops, clocks);
    else global_chase<true><<<1, 1>>>(a, state, warm, hops, clocks);
  };
  auto verify = [&]() -> std::string {
    uint32_t st[CH_WORDS];
    MS_CUDA(cudaMemcpy(st, state, sizeof st, cudaMemcpyDeviceToHost));
    if (st[CH_START] % sw || st[CH_START] / sw >= nodes) return ms_fmt("start word %u is no node", st[CH_START]);
    uint32_t p = st[CH_START] / sw;
    for (long long h = 0; h < warm + hops; h++) p = next[p];
    if (st[CH_END] != p * sw) return ms_fmt("ended on word %u, want %u", st[CH_END], p * sw);
    return "";
  };
  measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
    const std::vector<double> per = read_call_clocks(state, clocks, (double)hops);
    return "{\"clocks_per_hop\": " + jnum(median_of(per)) + ", \"clocks_per_hop_min\": " +
           jnum(*std::min_element(per.begin(), per.end())) + ", \"clocks_per_hop_max\": " +
           jnum(*std::max_element(per.begin(), per.end())) + ", \"calls_clocked\": " +
           jnum((double)per.size()) + ", \"ns_per_hop\": " + jnum(med / (double)(warm + hops)) + "}";
  });
  MS_CUDA(cudaFree(a));
  MS_CUDA(cudaFree(state));
  MS_CUDA(cudaFree(clocks));
}

/* launch-chase: what a kernel's launch overlaps.  One thread's L2 chase (global_chase, no warm
 * hops) of h = 0 .. 64 hops over 4 MiB, one launch per call: its duration against h gives the
 * time per hop (the slope) and the time of a kernel with no hop (the intercept), to set beside
 * launch-empty's (the kernel with no load at all). */
void run_launch_chase(const MsOptions &o) {
  if (!ms_selected("launch-chase")) return;
  const uint32_t sw = 32;
  const size_t footprint = (size_t)4 << 20, nodes = footprint / (4 * sw);
  const std::vector<uint32_t> next = random_cycle(nodes, o.seed * 7777 + footprint + 1);
  uint32_t *a, *d_next, *state;
  unsigned long long *clocks;
  MS_CUDA(cudaMalloc(&a, footprint));
  MS_CUDA(cudaMalloc(&d_next, nodes * 4));
  MS_CUDA(cudaMalloc(&state, CH_WORDS * 4));
  MS_CUDA(cudaMalloc(&clocks, MAX_CALLS * sizeof(unsigned long long)));
  MS_CUDA(cudaMemcpy(d_next, next.data(), nodes * 4, cudaMemcpyHostToDevice));
  MS_CUDA(cudaMemset(a, 0xff, footprint));
  scatter_nodes<<<256, 256>>>(a, d_next, nodes, sw);
  MS_CHECK_LAUNCH();
  MS_CUDA(cudaDeviceSynchronize());
  MS_CUDA(cudaFree(d_next));
  for (long long hops : {0LL, 1LL, 2LL, 4LL, 8LL, 16LL, 32LL, 64LL}) {
    MS_CUDA(cudaMemset(state, 0, CH_WORDS * 4));
    MsRecord rec;
    rec.workload = "calibrate";
    rec.algorithm = "launch-chase";
    rec.p("footprint_bytes", (long long)footprint);
    rec.p("node_stride_bytes", (long long)(4 * sw));
    rec.p("hops", hops);
    rec.x("load", "ld.global.cg");
    auto poison = [&] { MS_CUDA(cudaMemset(state + CH_END, 0xff, 4)); };
    auto launch = [&] { global_chase<true><<<1, 1>>>(a, state, 0, hops, clocks); };
    auto verify = [&]() -> std::string {
      uint32_t st[CH_WORDS];
      MS_CUDA(cudaMemcpy(st, state, sizeof st, cudaMemcpyDeviceToHost));
      if (st[CH_START] % sw || st[CH_START] / sw >= nodes) return ms_fmt("start word %u is no node", st[CH_START]);
      uint32_t q = st[CH_START] / sw;
      for (long long h = 0; h < hops; h++) q = next[q];
      if (st[CH_END] != q * sw) return ms_fmt("ended on word %u, want %u", st[CH_END], q * sw);
      return "";
    };
    measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
      const std::vector<double> per = read_call_clocks(state, clocks, 1.0);
      return "{\"ns_per_launch\": " + jnum(med) + ", \"chain_clocks\": " + jnum(median_of(per)) + "}";
    });
  }
  MS_CUDA(cudaFree(a));
  MS_CUDA(cudaFree(state));
  MS_CUDA(cudaFree(clocks));
}

/* loaded-chase, l2-loaded-chase: W warps on every SM chase their own lines (loaded_chase) over
 * `footprint` bytes, W = 1 .. 64. Each call goes on where the last stopped (a warp's start is
 * offset by G (warm + hops) lines a call), so a DRAM footprint's lines are not found in L2. */
void run_loaded_chase(const MsOptions &o, const Dev &d, const char *alg, size_t footprint, long long warm,
                      long long hops) {
  if (!ms_selected(alg)) return;
  static const int w_full[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64}, w_quick[] = {1, 8, 64};
  const std::vector<int> ws = o.quick ? std::vector<int>(w_quick, w_quick + 3) : std::vector<int>(w_full, w_full + 12);
  const uint32_t lines = (uint32_t)(footprint / 128);
  const size_t max_warps = (size_t)64 * d.sms;
  uint32_t *a, *end;
  unsigned long long *clk;
  MS_CUDA(cudaMalloc(&a, (size_t)lines * 128));
  MS_CUDA(cudaMalloc(&end, max_warps * 4));
  MS_CUDA(cudaMalloc(&clk, max_warps * sizeof(unsigned long long)));
  std::vector<uint32_t> h_end(max_warps);
  std::vector<unsigned long long> h_clk(max_warps);
  for (int W : ws) {
    const int blocks = W <= 32 ? d.sms : 2 * d.sms, threads = W <= 32 ? 32 * W : 16 * W;
    const uint32_t G = (uint32_t)(blocks * threads / 32);
    const uint64_t step = (uint64_t)G * (uint64_t)(warm + hops) % lines; /* lines a call moves a warp */
    fill_loaded_chase<<<d.sms * 8, 256>>>(a, lines, G);
    MS_CHECK_LAUNCH();
    uint64_t calls = 0; /* launched so far */
    MsRecord rec;
    rec.workload = "calibrate";
    rec.algorithm = alg;
    rec.p("footprint_bytes", (long long)lines * 128);
    rec.p("warps_per_sm", (long long)W);
    rec.p("blocks", (long long)blocks);
    rec.p("threads_per_block", (long long)threads);
    rec.p("hops", hops);
    rec.p("warmup_hops", warm);
    rec.x("load", "ld.global.cg");
    rec.x("pattern", "grid-stride line chase");
    rec.x("bytes_read", (long long)G * (warm + hops) * 128);
    auto poison = [&] {
      MS_CUDA(cudaMemset(end, 0xff, G * 4));
      MS_CUDA(cudaMemset(clk, 0xff, G * sizeof(unsigned long long)));
    };
    auto launch = [&] {
      loaded_chase<<<blocks, threads>>>(a, lines, (uint32_t)(step * (calls % lines) % lines), warm, hops, end, clk);
      calls++;
    };
    auto verify = [&]() -> std::string {
      MS_CUDA(cudaMemcpy(h_end.data(), end, G * 4, cudaMemcpyDeviceToHost));
      MS_CUDA(cudaMemcpy(h_clk.data(), clk, G * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
      for (uint32_t g = 0; g < G; g++) {
        const uint32_t want = (uint32_t)((g + step * (calls % lines)) % lines);
        if (h_end[g] != want) return ms_fmt("warp %u ended on line %u, want %u", g, h_end[g], want);
        if (h_clk[g] < (unsigned long long)hops || h_clk[g] > (1ull << 40))
          return ms_fmt("warp %u: %llu clocks for %lld hops", g, h_clk[g], hops);
      }
      return "";
    };
    measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
      MS_CUDA(cudaMemcpy(h_clk.data(), clk, G * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
      std::vector<double> per(G);
      for (uint32_t g = 0; g < G; g++) per[g] = (double)h_clk[g] / (double)hops;
      return "{\"clocks_per_hop\": " + jnum(median_of(per)) + ", \"clocks_per_hop_min\": " +
             jnum(*std::min_element(per.begin(), per.end())) + ", \"clocks_per_hop_max\": " +
             jnum(*std::max_element(per.begin(), per.end())) + ", \"bytes_per_ns\": " +
             jnum((double)G * (double)(warm + hops) * 128 / med) + ", \"warps\": " + jnum((double)G) + "}";
    });
  }
  MS_CUDA(cudaFree(a));
  MS_CUDA(cudaFree(end));
  MS_CUDA(cudaFree(clk));
}

void run_shared_chase(const MsOptions &o) {
  if (!ms_selected("shared-chase")) return;
  const long long hops = o.quick ? 65536 : 262144;
  const std::vector<uint32_t> next = random_cycle(SHARED_CHASE_WORDS, o.seed * 31337 + 5);
  std::vector<uint32_t> cyc(SHARED_CHASE_WORDS);
  for (int i = 0; i < SHARED_CHASE_WORDS; i++) cyc[i] = next[i] * 4; /* byte offsets */
  uint32_t *d_cyc, *state;
  unsigned long long *clocks;
  MS_CUDA(cudaMalloc(&d_cyc, SHARED_CHASE_WORDS * 4));
  MS_CUDA(cudaMalloc(&state, CH_WORDS * 4));
  MS_CUDA(cudaMalloc(&clocks, MAX_CALLS * sizeof(unsigned long long)));
  MS_CUDA(cudaMemcpy(d_cyc, cyc.data(), SHARED_CHASE_WORDS * 4, cudaMemcpyHostToDevice));
  MS_CUDA(cudaMemset(state, 0, CH_WORDS * 4));
  uint32_t end = 0;
  for (long long h = 0; h < hops; h++) end = next[end];
  MsRecord rec;
  rec.workload = "calibrate";
  rec.algorithm = "shared-chase";
  rec.p("words", (long long)SHARED_CHASE_WORDS);
  rec.p("hops", hops);
  auto poison = [&] { MS_CUDA(cudaMemset(state + CH_END, 0xff, 4)); };
  auto launch = [&] { shared_chase<<<1, 32>>>(d_cyc, state, hops, clocks); };
  auto verify = [&]() -> std::string {
    uint32_t st[CH_WORDS];
    MS_CUDA(cudaMemcpy(st, state, sizeof st, cudaMemcpyDeviceToHost));
    return st[CH_END] == end * 4 ? "" : ms_fmt("ended on byte %u, want %u", st[CH_END], end * 4);
  };
  measure(rec, poison, launch, verify, [&](const MsRecord &, double) {
    const std::vector<double> per = read_call_clocks(state, clocks, (double)hops);
    return "{\"clocks_per_hop\": " + jnum(median_of(per)) + ", \"clocks_per_hop_min\": " +
           jnum(*std::min_element(per.begin(), per.end())) + ", \"clocks_per_hop_max\": " +
           jnum(*std::max_element(per.begin(), per.end())) + ", \"calls_clocked\": " +
           jnum((double)per.size()) + "}";
  });
  MS_CUDA(cudaFree(d_cyc));
  MS_CUDA(cudaFree(state));
  MS_CUDA(cudaFree(clocks));
}

/* load-loop and store-loop: one warp over `iters` lines of a 512 MiB buffer (far beyond L2;
 * LOOP_ODD is prime to the power-of-two line count, so no line repeats). */
void run_loops(const MsOptions &o) {
  const bool ld = ms_selected("load-loop"), st = ms_selected("store-loop"), sf = ms_selected("store-fence-loop");
  if (!ld && !st && !sf) return;
  const size_t bytes = o.quick ? (size_t)128 << 20 : (size_t)512 << 20, words = bytes / 4, lines = words / 32;
  const long long iters = o.quick ? 8192 : 65536;
  uint32_t *a, *out, *calls;
  unsigned long long *clk;
  MS_CUDA(cudaMalloc(&a, bytes));
  MS_CUDA(cudaMalloc(&out, 32 * 4));
  MS_CUDA(cudaMalloc(&calls, 4));
  MS_CUDA(cudaMalloc(&clk, MAX_CALLS * sizeof(unsigned long long)));
  std::vector<double> clocks;
  auto result = [&](const MsRecord &, double med) {
    /* the clocks of the last calls (at most MAX_CALLS; the first, cold call excluded when
     * there are more) */
    uint32_t n = 0;
    unsigned long long c[MAX_CALLS];
    MS_CUDA(cudaMemcpy(&n, calls, 4, cudaMemcpyDeviceToHost));
    MS_CUDA(cudaMemcpy(c, clk, sizeof c, cudaMemcpyDeviceToHost));
    clocks.clear();
    for (uint32_t k = n > MAX_CALLS ? n - MAX_CALLS : 1; k < n; k++) clocks.push_back((double)c[k % MAX_CALLS]);
    const double per = median_of(clocks) / (double)iters;
    return "{\"clocks_per_iteration\": " + jnum(per) + ", \"calls_clocked\": " + jnum((double)clocks.size()) +
           ", \"ns_per_iteration\": " + jnum(med / (double)iters) + "}";
  };
  for (int which = 0; which < 4; which++) {
    const bool load = which == 0, fence = which >= 2;
    if (!(load ? ld : fence ? sf : st)) continue;
    /* store-fence-loop: 8 MiB (in L2), then the whole buffer */
    const size_t lines_now = which == 2 ? ((size_t)8 << 20) / 128 : lines;
    fill_pattern<<<256, 256>>>(a, words);
    MS_CHECK_LAUNCH();
    MS_CUDA(cudaDeviceSynchronize());
    uint32_t want[32];
    for (int l = 0; l < 32; l++) {
      uint32_t acc = 0;
      for (long long i = 0; i < iters && load; i++) acc += pattern(loop_word(i, lines, l));
      want[l] = acc;
    }
    MS_CUDA(cudaMemset(calls, 0, 4));
    MsRecord rec;
    rec.workload = "calibrate";
    rec.algorithm = load ? "load-loop" : fence ? "store-fence-loop" : "store-loop";
    rec.p("footprint_bytes", (long long)(lines_now * 128));
    rec.p("iterations", iters);
    rec.p("threads", 32LL);
    auto poison = [&] { MS_CUDA(cudaMemset(out, 0xff, 32 * 4)); };
    auto launch = [&] {
      if (load) load_loop<<<1, 32>>>(a, lines, iters, out, clk, calls);
      else if (fence) store_fence_loop<<<1, 32>>>(a, lines_now, iters, clk, calls);
      else store_loop<<<1, 32>>>(a, lines, iters, clk, calls);
    };
    auto verify = [&]() -> std::string {
      if (load) {
        uint32_t h[32];
        MS_CUDA(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
        for (int l = 0; l < 32; l++)
          if (h[l] != want[l]) return ms_fmt("lane %d: sum %u, want %u", l, h[l], want[l]);
        return "";
      }
      /* the last iteration's words hold its index (every line is stored once per call) */
      const long long i = iters - 1;
      uint32_t h[32];
      MS_CUDA(cudaMemcpy(h, a + loop_word(i, lines_now, 0), sizeof h, cudaMemcpyDeviceToHost));
      for (int l = 0; l < 32; l++)
        if (h[l] != (uint32_t)i) return ms_fmt("lane %d of iteration %lld: %u, want %lld", l, i, h[l], i);
      return "";
    };
    measure(rec, poison, launch, verify, result);
  }
  MS_CUDA(cudaFree(a));
  MS_CUDA(cudaFree(out));
  MS_CUDA(cudaFree(calls));
  MS_CUDA(cudaFree(clk));
}

/* sm-l1-shared-mix: G coalesced L1-resident global loads and H SS-way shared loads per warp per
 * round, independent of each other within the round (their sum is taken after). Every warp's
 * lane l reads the same words, so every thread's sum is its lane's. clk[b]: the block's clocks
 * over the rounds, between two barriers. */
constexpr int MIX_SH_WORDS = 8192;
template <int G, int H, int SS, bool WL>
__global__ void __launch_bounds__(1024) sm_l1_shared_mix(const uint32_t *a, uint32_t mask, int rounds, uint32_t *out,
                                                           unsigned long long *clk) {
  __shared__ uint32_t sh[MIX_SH_WORDS];
  for (int i = threadIdx.x; i < MIX_SH_WORDS; i += blockDim.x) sh[i] = pattern((uint32_t)i);
  uint32_t warm = 0; /* the lines into L1 first (their sum goes out, so the loads stay) */
  for (uint32_t i = threadIdx.x; i <= mask; i += blockDim.x) warm += __ldca(a + i);
  __syncthreads();
  const long long t0 = clock64();
  const uint32_t lane = threadIdx.x & 31, wl = WL ? (threadIdx.x >> 5) * 32 : 0;
  uint32_t acc = 0;
  for (int r = 0; r < rounds; r++) {
    uint32_t v[G + H + 1];
#pragma unroll
    for (int u = 0; u < G; u++) v[u] = __ldca(a + ((((uint32_t)r * G + u) * (WL ? 1024 : 32) + wl + lane) & mask));
#pragma unroll
    for (int u = 0; u < H; u++) v[G + u] = sh[(lane * SS + ((uint32_t)r * H + u) * 32) & (MIX_SH_WORDS - 1)];
    v[G + H] = 0;
#pragma unroll
    for (int u = 0; u < G + H; u++) acc += v[u];
  }
  __syncthreads();
  const long long t1 = clock64();
  if (threadIdx.x == 0) clk[blockIdx.x] = (unsigned long long)(t1 - t0);
  out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = acc + warm;
}

template <int G, int H, int SS, bool WL = false> void run_sm_l1_shared_mix_op(const MsOptions &o, const Dev &d) {
  const int blocks = d.sms, threads = 1024;
  const uint32_t words = 16384, mask = words - 1; /* 64 KiB: the L1 holds it (l1-sweep) */
  const int rounds = o.quick ? 256 : 4096;
  uint32_t *a, *out;
  unsigned long long *clk;
  MS_CUDA(cudaMalloc(&a, words * 4));
  MS_CUDA(cudaMalloc(&out, (size_t)blocks * threads * 4));
  MS_CUDA(cudaMalloc(&clk, blocks * sizeof(unsigned long long)));
  fill_pattern<<<d.sms * 8, 256>>>(a, words);
  MS_CHECK_LAUNCH();
  std::vector<uint32_t> want(threads); /* WL: each warp its own lines */
  for (uint32_t t = 0; t < (uint32_t)threads; t++) {
    const uint32_t l = t & 31, wl = WL ? (t >> 5) * 32 : 0;
    uint32_t acc = 0;
    for (uint32_t r = 0; r < (uint32_t)rounds; r++) {
      for (int u = 0; u < G; u++) acc += pattern(((r * G + (uint32_t)u) * (WL ? 1024 : 32) + wl + l) & mask);
      for (int u = 0; u < H; u++) acc += pattern((l * SS + (r * H + (uint32_t)u) * 32) & (MIX_SH_WORDS - 1));
    }
    for (uint32_t i = t; i <= mask; i += (uint32_t)threads) acc += pattern(i); /* the warm-up's loads */
    want[t] = acc;
  }
  std::vector<uint32_t> h((size_t)blocks * threads);
  std::vector<unsigned long long> hclk(blocks);
  const long long warp_rounds = (long long)blocks * (threads / 32) * rounds;
  MsRecord rec;
  rec.workload = "calibrate";
  rec.algorithm = "sm-l1-shared-mix";
  rec.p("global_loads", (long long)G);
  rec.p("shared_loads", (long long)H);
  rec.p("shared_stride", (long long)SS);
  rec.p("warp_lines", WL ? 1LL : 0LL);
  rec.p("rounds", (long long)rounds);
  rec.p("blocks", (long long)blocks);
  rec.p("threads_per_block", (long long)threads);
  rec.x("warp_rounds", warp_rounds);
  rec.x("shared_wavefronts_per_round", (long long)H * SS);
  auto poison = [&] { MS_CUDA(cudaMemset(out, 0xff, (size_t)blocks * threads * 4)); };
  auto launch = [&] { sm_l1_shared_mix<G, H, SS, WL><<<blocks, threads>>>(a, mask, rounds, out, clk); };
  auto verify = [&]() -> std::string {
    MS_CUDA(cudaMemcpy(h.data(), out, h.size() * 4, cudaMemcpyDeviceToHost));
    for (size_t t = 0; t < h.size(); t++)
      if (h[t] != want[t % threads]) return ms_fmt("thread %zu: sum %u, want %u", t, h[t], want[t % threads]);
    return "";
  };
  measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
    MS_CUDA(cudaMemcpy(hclk.data(), clk, blocks * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    double mean = 0;
    for (unsigned long long c : hclk) mean += (double)c;
    mean /= blocks;
    const double per_sm_rounds = (double)(threads / 32) * rounds;
    return "{\"clocks_per_warp_round\": " + jnum(mean / per_sm_rounds) + ", \"block_clocks_mean\": " + jnum(mean) +
           ", \"ns_per_warp_round_per_sm\": " + jnum(med / per_sm_rounds) + "}";
  });
  MS_CUDA(cudaFree(a));
  MS_CUDA(cudaFree(out));
  MS_CUDA(cudaFree(clk));
}

void run_sm_l1_shared_mix(const MsOptions &o, const Dev &d) {
  if (!ms_selected("sm-l1-shared-mix")) return;
  run_sm_l1_shared_mix_op<1, 0, 1>(o, d);
  run_sm_l1_shared_mix_op<4, 0, 1>(o, d);
  run_sm_l1_shared_mix_op<0, 1, 1>(o, d);
  run_sm_l1_shared_mix_op<0, 4, 1>(o, d);
  run_sm_l1_shared_mix_op<0, 1, 4>(o, d);
  run_sm_l1_shared_mix_op<0, 1, 32>(o, d);
  run_sm_l1_shared_mix_op<1, 1, 1>(o, d);
  run_sm_l1_shared_mix_op<1, 4, 1>(o, d);
  run_sm_l1_shared_mix_op<4, 4, 1>(o, d);
  run_sm_l1_shared_mix_op<1, 1, 4>(o, d);
  run_sm_l1_shared_mix_op<4, 1, 4>(o, d);
  run_sm_l1_shared_mix_op<1, 1, 32>(o, d);
  run_sm_l1_shared_mix_op<4, 1, 32>(o, d);
  run_sm_l1_shared_mix_op<8, 1, 32>(o, d);
  run_sm_l1_shared_mix_op<4, 2, 8>(o, d);
  /* each warp its own lines (above, every warp reads the same line in a round) */
  run_sm_l1_shared_mix_op<1, 0, 1, true>(o, d);
  run_sm_l1_shared_mix_op<4, 0, 1, true>(o, d);
  run_sm_l1_shared_mix_op<1, 1, 1, true>(o, d);
  run_sm_l1_shared_mix_op<4, 4, 1, true>(o, d);
  run_sm_l1_shared_mix_op<4, 1, 4, true>(o, d);
  run_sm_l1_shared_mix_op<4, 1, 32, true>(o, d);
  run_sm_l1_shared_mix_op<4, 2, 8, true>(o, d);
}

template <int K> void run_wavefronts(const MsOptions &o, const Dev &d) {
  const int per_sm = occupancy(shared_wavefronts<K>, 1024), blocks = d.sms * per_sm;
  const int loads = (o.quick ? 4096 : 65536) / K, rounds = loads / SW_UNROLL;
  const size_t threads = (size_t)blocks * 1024;
  uint32_t *out;
  unsigned long long *clk;
  MS_CUDA(cudaMalloc(&out, threads * 4));
  MS_CUDA(cudaMalloc(&clk, blocks * sizeof(unsigned long long)));
  /* each lane's sum, the same in every warp */
  uint32_t want[32];
  for (int l = 0; l < 32; l++) {
    uint32_t acc = 0;
    for (int r = 0; r < rounds; r++)
      for (int j = 0; j < SW_UNROLL; j++)
        acc += pattern((uint32_t)(((l * K + r * 32 * SW_UNROLL) & (SW_WORDS - 1)) + 32 * j) % SW_WORDS);
    want[l] = acc;
  }
  std::vector<uint32_t> h(threads);
  std::vector<unsigned long long> hclk(blocks);
  const long long warp_requests = (long long)(threads / 32) * loads;
  MsRecord rec;
  rec.workload = "calibrate";
  rec.algorithm = "shared-wavefronts";
  rec.p("ways", (long long)K);
  rec.p("loads_per_thread", (long long)loads);
  rec.p("blocks", (long long)blocks);
  rec.p("threads_per_block", 1024LL);
  rec.x("warp_requests", warp_requests);
  rec.x("wavefronts", warp_requests * K);
  auto poison = [&] { MS_CUDA(cudaMemset(out, 0xff, threads * 4)); };
  auto launch = [&] { shared_wavefronts<K><<<blocks, 1024>>>(rounds, out, clk); };
  auto verify = [&]() -> std::string {
    MS_CUDA(cudaMemcpy(h.data(), out, threads * 4, cudaMemcpyDeviceToHost));
    for (size_t t = 0; t < threads; t++)
      if (h[t] != want[t % 32]) return ms_fmt("thread %zu: sum %u, want %u", t, h[t], want[t % 32]);
    return "";
  };
  measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
    MS_CUDA(cudaMemcpy(hclk.data(), clk, blocks * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    double mean = 0;
    for (unsigned long long c : hclk) mean += (double)c;
    mean /= blocks;
    const double per_sm_wf = (double)warp_requests * K / d.sms;
    return "{\"wavefronts_per_sm_per_clock\": " + jnum(per_sm_wf / mean) +
           ", \"requests_per_sm_per_clock\": " + jnum(per_sm_wf / K / mean) +
           ", \"block_clocks_mean\": " + jnum(mean) + ", \"ns_per_wavefront_per_sm\": " +
           jnum(med / per_sm_wf) + "}";
  });
  MS_CUDA(cudaFree(out));
  MS_CUDA(cudaFree(clk));
}

/* shuffle-latency: one warp's chain of dependent shuffles, then of dependent IMADs, each
 * clocked with clock64(); the median over the calls (the first, cold call excluded when
 * there are more). */
void run_shuffle_latency(const MsOptions &o) {
  if (!ms_selected("shuffle-latency")) return;
  const int rounds = (o.quick ? 8192 : 65536) / SHFL_UNROLL;
  const long long n = (long long)rounds * SHFL_UNROLL;
  uint32_t *out, *calls;
  unsigned long long *clk;
  MS_CUDA(cudaMalloc(&out, 64 * 4));
  MS_CUDA(cudaMalloc(&calls, 4));
  MS_CUDA(cudaMalloc(&clk, 2 * MAX_CALLS * sizeof(unsigned long long)));
  MS_CUDA(cudaMemset(calls, 0, 4));
  uint32_t want[64];
  for (uint32_t l = 0; l < 32; l++) {
    want[l] = shfl_after(l, n, [](uint32_t k) { return pattern(k); });
    uint32_t y = want[l];
    for (long long i = 0; i < n; i++) y = y * y + l;
    want[32 + l] = y;
  }
  MsRecord rec;
  rec.workload = "calibrate";
  rec.algorithm = "shuffle-latency";
  rec.p("shuffles", n);
  rec.p("unroll", (long long)SHFL_UNROLL);
  rec.p("threads", 32LL);
  rec.x("baseline", "imad");
  auto poison = [&] { MS_CUDA(cudaMemset(out, 0xff, 64 * 4)); };
  auto launch = [&] { shuffle_latency<<<1, 32>>>(rounds, out, clk, calls); };
  auto verify = [&]() -> std::string {
    uint32_t h[64];
    MS_CUDA(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    for (int l = 0; l < 64; l++)
      if (h[l] != want[l])
        return ms_fmt("lane %d: %s chain ended on %u, want %u", l % 32, l < 32 ? "shuffle" : "IMAD", h[l], want[l]);
    return "";
  };
  measure(rec, poison, launch, verify, [&](const MsRecord &, double) {
    uint32_t nc = 0;
    unsigned long long c[2 * MAX_CALLS];
    MS_CUDA(cudaMemcpy(&nc, calls, 4, cudaMemcpyDeviceToHost));
    MS_CUDA(cudaMemcpy(c, clk, sizeof c, cudaMemcpyDeviceToHost));
    std::vector<double> shfl, imad;
    for (uint32_t k = nc > MAX_CALLS ? nc - MAX_CALLS : 1; k < nc; k++) {
      shfl.push_back((double)c[2 * (k % MAX_CALLS)] / (double)n);
      imad.push_back((double)c[2 * (k % MAX_CALLS) + 1] / (double)n);
    }
    if (shfl.empty()) return std::string("{}");
    return "{\"clocks_per_shuffle\": " + jnum(median_of(shfl)) + ", \"clocks_per_shuffle_min\": " +
           jnum(*std::min_element(shfl.begin(), shfl.end())) + ", \"clocks_per_shuffle_max\": " +
           jnum(*std::max_element(shfl.begin(), shfl.end())) + ", \"clocks_per_imad\": " + jnum(median_of(imad)) +
           ", \"calls_clocked\": " + jnum((double)shfl.size()) + "}";
  });
  MS_CUDA(cudaFree(out));
  MS_CUDA(cudaFree(calls));
  MS_CUDA(cudaFree(clk));
}

/* shuffle-rate: a full grid of 1024-thread blocks, each warp SR_CHAINS independent chains of
 * 32768 / SR_CHAINS shuffles (4096 with --quick): warp shuffles per SM per clock, from the
 * blocks' clock64() counts (all resident at once), and ns per warp shuffle per SM. */
void run_shuffle_rate(const MsOptions &o, const Dev &d) {
  if (!ms_selected("shuffle-rate")) return;
  const int per_sm = occupancy(shuffle_rate, 1024), blocks = d.sms * per_sm;
  const int per_warp = o.quick ? 4096 : 32768, rounds = per_warp / (SR_CHAINS * SR_UNROLL);
  const size_t threads = (size_t)blocks * 1024;
  uint32_t *out;
  unsigned long long *clk;
  MS_CUDA(cudaMalloc(&out, threads * 4));
  MS_CUDA(cudaMalloc(&clk, blocks * sizeof(unsigned long long)));
  const long long chain = (long long)rounds * SR_UNROLL; /* shuffles per chain */
  uint32_t want[32];
  for (uint32_t l = 0; l < 32; l++) {
    want[l] = 0;
    for (uint32_t c = 0; c < SR_CHAINS; c++)
      want[l] += shfl_after(l, chain, [c](uint32_t k) { return pattern(k + 32 * c); });
  }
  std::vector<uint32_t> h(threads);
  std::vector<unsigned long long> hclk(blocks);
  const long long warp_shuffles = (long long)(threads / 32) * chain * SR_CHAINS;
  MsRecord rec;
  rec.workload = "calibrate";
  rec.algorithm = "shuffle-rate";
  rec.p("chains_per_warp", (long long)SR_CHAINS);
  rec.p("shuffles_per_warp", chain * SR_CHAINS);
  rec.p("blocks", (long long)blocks);
  rec.p("threads_per_block", 1024LL);
  rec.x("warp_shuffles", warp_shuffles);
  auto poison = [&] { MS_CUDA(cudaMemset(out, 0xff, threads * 4)); };
  auto launch = [&] { shuffle_rate<<<blocks, 1024>>>(rounds, out, clk); };
  auto verify = [&]() -> std::string {
    MS_CUDA(cudaMemcpy(h.data(), out, threads * 4, cudaMemcpyDeviceToHost));
    for (size_t t = 0; t < threads; t++)
      if (h[t] != want[t % 32]) return ms_fmt("thread %zu: sum %u, want %u", t, h[t], want[t % 32]);
    return "";
  };
  measure(rec, poison, launch, verify, [&](const MsRecord &, double med) {
    MS_CUDA(cudaMemcpy(hclk.data(), clk, blocks * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    double mean = 0;
    for (unsigned long long c : hclk) mean += (double)c;
    mean /= blocks;
    const double per_sm_shfl = (double)warp_shuffles / d.sms;
    return "{\"shuffles_per_sm_per_clock\": " + jnum(per_sm_shfl / mean) + ", \"block_clocks_mean\": " + jnum(mean) +
           ", \"ns_per_shuffle_per_sm\": " + jnum(med / per_sm_shfl) + "}";
  });
  MS_CUDA(cudaFree(out));
  MS_CUDA(cudaFree(clk));
}

/* issue-rate: one block of W warps on each SM (a grid of SM-count blocks), each thread CH
 * independent chains (chains_per_thread) of 4096 x 8 / CH (512 x 8 / CH with --quick) steps of
 * `op` (imad, alu or mixed), the same instructions per warp for every CH: from the blocks'
 * median clock64() count, clocks per warp instruction of a warp and warp instructions per SM
 * per clock.  Only the chains' instructions are counted: the loop's counter and branch add 3
 * per IR_ROUND. */
template <int OP, int CH> void run_issue_rate_op(const MsOptions &o, const Dev &d, const char *op) {
  const int per_chain = (o.quick ? 512 : 4096) * IR_CHAINS / CH, rounds = per_chain / (IR_ROUND / CH);
  for (int warps : {1, 2, 4, 8, 16, 32}) {
    const int tpb = 32 * warps, blocks = d.sms;
    const size_t threads = (size_t)blocks * tpb;
    uint32_t *out;
    unsigned long long *clk;
    MS_CUDA(cudaMalloc(&out, threads * 4));
    MS_CUDA(cudaMalloc(&clk, blocks * sizeof(unsigned long long)));
    uint32_t want[32];
    for (uint32_t l = 0; l < 32; l++) {
      want[l] = 0;
      for (int c = 0; c < CH; c++) want[l] += ir_host(OP, pattern(l + 32 * c), l, c, CH, per_chain);
    }
    std::vector<uint32_t> h(threads);
    std::vector<unsigned long long> hclk(blocks);
    const long long per_warp = (long long)per_chain * CH; /* warp instructions of the chains */
    MsRecord rec;
    rec.workload = "calibrate";
    rec.algorithm = "issue-rate";
    rec.p("op", op);
    rec.p("warps_per_sm", (long long)warps);
    rec.p("chains_per_thread", (long long)CH);
    rec.p("instructions_per_warp", per_warp);
    rec.p("blocks", (long long)blocks);
    rec.p("threads_per_block", (long long)tpb);
    auto poison = [&] { MS_CUDA(cudaMemset(out, 0xff, threads * 4)); };
    auto launch = [&] { issue_rate<OP, CH><<<blocks, tpb>>>(rounds, out, clk); };
    auto verify = [&]() -> std::string {
      MS_CUDA(cudaMemcpy(h.data(), out, threads * 4, cudaMemcpyDeviceToHost));
      for (size_t t = 0; t < threads; t++)
        if (h[t] != want[t % 32]) return ms_fmt("thread %zu: sum %u, want %u", t, h[t], want[t % 32]);
      return "";
    };
    measure(rec, poison, launch, verify, [&](const MsRecord &, double) {
      MS_CUDA(cudaMemcpy(hclk.data(), clk, blocks * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
      std::sort(hclk.begin(), hclk.end());
      const double med = (double)hclk[blocks / 2];
      return "{\"clocks_per_warp_instruction\": " + jnum(med / (double)per_warp) +
             ", \"instructions_per_sm_per_clock\": " + jnum((double)per_warp * warps / med) +
             ", \"block_clocks_median\": " + jnum(med) + ", \"block_clocks_max\": " +
             jnum((double)hclk[blocks - 1]) + "}";
    });
    MS_CUDA(cudaFree(out));
    MS_CUDA(cudaFree(clk));
  }
}

/* barrier-loop: B = 1 or 2 blocks per SM (a grid of B x SM-count blocks) of W = 1 .. 32 warps,
 * 4096 iterations (512 with --quick) of a barrier alone or of the copy pass; from the blocks'
 * median clock64() count, clocks per iteration. */
template <int PASS> void run_barrier_loop_op(const MsOptions &o, const Dev &d) {
  const int iters = o.quick ? 512 : 4096;
  for (int per_sm : {1, 2})
    for (int warps : {1, 2, 4, 8, 16, 32}) {
      const int tpb = 32 * warps, blocks = d.sms * per_sm;
      const size_t threads = (size_t)blocks * tpb;
      uint32_t *out;
      unsigned long long *clk;
      MS_CUDA(cudaMalloc(&out, threads * 4));
      MS_CUDA(cudaMalloc(&clk, blocks * sizeof(unsigned long long)));
      std::vector<uint32_t> h(threads), want(tpb);
      for (int t = 0; t < tpb; t++) /* after k passes thread t holds pattern((t + k) mod tpb) */
        want[t] = PASS ? pattern((uint32_t)((t + iters) % tpb)) : (uint32_t)iters;
      std::vector<unsigned long long> hclk(blocks);
      MsRecord rec;
      rec.workload = "calibrate";
      rec.algorithm = "barrier-loop";
      rec.p("op", PASS ? "pass" : "barrier");
      rec.p("warps_per_block", (long long)warps);
      rec.p("blocks_per_sm", (long long)per_sm);
      rec.p("iterations", (long long)iters);
      rec.p("blocks", (long long)blocks);
      rec.p("threads_per_block", (long long)tpb);
      auto poison = [&] { MS_CUDA(cudaMemset(out, 0xff, threads * 4)); };
      auto launch = [&] { barrier_loop<PASS><<<blocks, tpb>>>(iters, out, clk); };
      auto verify = [&]() -> std::string {
        MS_CUDA(cudaMemcpy(h.data(), out, threads * 4, cudaMemcpyDeviceToHost));
        for (size_t t = 0; t < threads; t++)
          if (h[t] != want[t % tpb]) return ms_fmt("thread %zu: %u, want %u", t, h[t], want[t % tpb]);
        return "";
      };
      measure(rec, poison, launch, verify, [&](const MsRecord &, double) {
        MS_CUDA(cudaMemcpy(hclk.data(), clk, blocks * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
        std::sort(hclk.begin(), hclk.end());
        const double med = (double)hclk[blocks / 2];
        return "{\"clocks_per_iteration\": " + jnum(med / (double)iters) + ", \"block_clocks_median\": " + jnum(med) +
               ", \"block_clocks_max\": " + jnum((double)hclk[blocks - 1]) + "}";
      });
      MS_CUDA(cudaFree(out));
      MS_CUDA(cudaFree(clk));
    }
}

void run_barrier_loop(const MsOptions &o, const Dev &d) {
  if (!ms_selected("barrier-loop")) return;
  run_barrier_loop_op<0>(o, d);
  run_barrier_loop_op<1>(o, d);
}

void run_issue_rate(const MsOptions &o, const Dev &d) {
  if (!ms_selected("issue-rate")) return;
  run_issue_rate_op<IR_IMAD, IR_CHAINS>(o, d, "imad");
  run_issue_rate_op<IR_ALU, IR_CHAINS>(o, d, "alu");
  run_issue_rate_op<IR_MIXED, IR_CHAINS>(o, d, "mixed");
  /* fewer chains: how many warps hide a dependent instruction's latency (2026-11-27; the GCD's
   * time is a latency limit of this kind, docs/validation.md) */
  run_issue_rate_op<IR_IMAD, 1>(o, d, "imad");
  run_issue_rate_op<IR_ALU, 1>(o, d, "alu");
  run_issue_rate_op<IR_MIXED, 2>(o, d, "mixed");
  run_issue_rate_op<IR_IMAD, 2>(o, d, "imad");
  run_issue_rate_op<IR_ALU, 2>(o, d, "alu");
  run_issue_rate_op<IR_IMAD, 4>(o, d, "imad");
  run_issue_rate_op<IR_ALU, 4>(o, d, "alu");
}

} // namespace

void ms_run_calibrate(const MsOptions &o) {
  Dev d;
  cudaDeviceProp prop;
  MS_CUDA(cudaGetDeviceProperties(&prop, 0));
  d.sms = prop.multiProcessorCount;
  d.max_threads_sm = prop.maxThreadsPerMultiProcessor;
  d.global_mem = prop.totalGlobalMem;
  std::printf("calibrate: %d SMs, L2 %d bytes, %zu bytes of global memory\n", d.sms,
              prop.l2CacheSize, d.global_mem);
  run_clock(o, d);
  run_launch(d);
  if (ms_selected("launch-blocks")) run_launch_blocks(d, o.quick);
  bool any_dram = false;
  for (const char *alg : {"dram-read", "dram-write", "dram-copy", "strided-read", "strided-write"})
    any_dram = any_dram || ms_selected(alg);
  if (any_dram) run_dram(o, d);
  if (ms_selected("l2-read")) run_l2_read(d);
  run_l2_strided(d);
  run_sm_strided(d);
  run_sm_l1_strided(d);
  if (ms_selected("l2-sweep")) run_l2_sweep(d, o.quick);
  if (ms_selected("l2-copy-sweep")) run_l2_copy_sweep(d, o.quick);
  if (ms_selected("l2-stream-sweep")) run_l2_stream_sweep(d, o.quick);
  if (ms_selected("l2-random-sweep")) run_random_sweep<false>(d, o.quick);
  if (ms_selected("l2-random-line-sweep")) run_random_sweep<true>(d, o.quick);
  if (ms_selected("l2-random-write-sweep")) run_random_write_sweep(d, o.quick);
  if (ms_selected("l2-line-sweep")) run_line_sweep(d, o.quick);
  run_chase(o, "dram-chase", o.quick ? (size_t)128 << 20 : (size_t)512 << 20, 0, o.quick ? 8192 : 32768);
  run_chase(o, "l2-chase", (size_t)4 << 20, 32768, 65536);
  run_launch_chase(o);
  run_chase(o, "l1-chase", (size_t)16 << 10, 128, o.quick ? 65536 : 262144);
  /* l1-sweep: the L1 chase over footprints around the SM's 256 KiB of L1 and shared memory,
   * each warmed by two walks of its cycle: where the latency leaves L1's is the capacity a
   * kernel without shared memory gets (memsim calibrate --l1) */
  if (ms_selected("l1-sweep"))
    for (size_t kib : {32, 64, 96, 128, 160, 176, 192, 208, 224, 240, 256, 288, 320, 384, 512})
      run_chase(o, "l1-sweep", kib << 10, (long long)(kib << 10) / 64, o.quick ? 16384 : 65536);
  /* loaded-chase, l2-loaded-chase: the latency under load, W = 1 .. 64 warps per SM (about
   * 0.3 .. 1 ms a call; memsim calibrate --loaded-latency) */
  run_loaded_chase(o, d, "loaded-chase", (size_t)1 << 30, o.quick ? 16 : 64, o.quick ? 256 : 1024);
  run_loaded_chase(o, d, "l2-loaded-chase", (size_t)16 << 20, o.quick ? 64 : 256, o.quick ? 1024 : 4096);
  run_shared_chase(o);
  run_loops(o);
  if (ms_selected("shared-wavefronts")) {
    run_wavefronts<1>(o, d);
    run_wavefronts<2>(o, d);
    run_wavefronts<4>(o, d);
    run_wavefronts<32>(o, d);
  }
  run_shuffle_latency(o);
  run_shuffle_rate(o, d);
  run_issue_rate(o, d);
  run_barrier_loop(o, d);
  run_sm_l1_shared_mix(o, d);
}
