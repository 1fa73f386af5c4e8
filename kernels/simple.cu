/* The held-out family "simple" (issue 11): kernels a user writes, timed so that memsim's
 * predictions can be judged on code that calibrated nothing. Plain CUDA, not tuned: 32-bit
 * words, one element per thread (no grid-stride loops), blocks of 256 threads unless said.
 * sim/workloads/simple/ms-simple.c describes each kernel as a compact trace, step for step
 * (docs/workloads/simple.md); a record's "params" are the parameters of that trace.
 *
 *   copy              out[i] = in[i]
 *   strided-read      out[i] = in[(i * s) mod n], s = 2, 4, 8, 32
 *   gather            out[i] = in[idx[i]], idx the random permutation of memsim's
 *                     ms_perm_generate("random", n, seed) (as kernels/permutation.cu)
 *   transpose-naive   out[j*n + i] = in[i*n + j], blocks of 32 x 8 or 32 x 32 threads
 *   transpose-tiled   through a 32 x 32 shared tile, blocks of 32 x 8 threads (4 elements
 *                     each), no padding: the column read of the tile is a 32-way conflict
 *   transpose-padded  the same with a row pitch of 33 words: conflict-free
 *   shared-stride     fill 1024 shared words, then R = 256 times acc += sm[(t*s + r) & 1023]
 *                     (s = 1, 2, 4, 8, 32: s-way bank conflicts), one word out per thread;
 *                     SMs x 8 blocks
 *   reduce            each block sums 2 x 256 elements (first add during the load) with the
 *                     sequential-addressing tree in shared memory and writes one partial;
 *                     the same kernel runs on the partials until one value is left
 *
 * Sizes: n = 2^24 (64 MB, about the L2) and 2^26 words (256 MB) for the 1-D kernels and
 * reduce, 4096^2 and 8192^2 for the transposes (--quick: 2^20 and 1024^2).
 */
#include "measure.h"

#include <algorithm>
#include <numeric>

namespace {

constexpr int TPB = 256;
constexpr int TILE = 32, TILE_ROWS = 8;
constexpr unsigned SS_WORDS = 1024;
constexpr unsigned FILL_MUL = 2654435761u;
constexpr int SS_REPEATS = 256;

/* ---- kernels -------------------------------------------------------------------------- */

__global__ void simple_copy(const uint32_t *in, uint32_t *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

__global__ void simple_strided_read(const uint32_t *in, uint32_t *out, unsigned n, unsigned s) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[(i * s) % n];
}

__global__ void simple_gather(const uint32_t *in, const uint32_t *idx, uint32_t *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[idx[i]];
}

__global__ void simple_transpose_naive(const uint32_t *in, uint32_t *out, unsigned n) {
  unsigned j = blockIdx.x * blockDim.x + threadIdx.x; /* column */
  unsigned i = blockIdx.y * blockDim.y + threadIdx.y; /* row */
  if (i < n && j < n) out[(size_t)j * n + i] = in[(size_t)i * n + j];
}

template <int PITCH>
__global__ void simple_transpose_tiled(const uint32_t *in, uint32_t *out, unsigned n) {
  __shared__ uint32_t tile[TILE][PITCH];
  unsigned x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int k = 0; k < TILE; k += TILE_ROWS) tile[threadIdx.y + k][threadIdx.x] = in[(size_t)(y + k) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int k = 0; k < TILE; k += TILE_ROWS) out[(size_t)(y + k) * n + x] = tile[threadIdx.x][threadIdx.y + k];
}

__global__ void simple_shared_stride(uint32_t *out, unsigned s, int repeats) {
  __shared__ uint32_t sm[SS_WORDS];
  const unsigned t = threadIdx.x;
  for (unsigned j = t; j < SS_WORDS; j += blockDim.x) sm[j] = j * FILL_MUL + blockIdx.x;
  __syncthreads();
  uint32_t acc = 0;
  for (int r = 0; r < repeats; r++) acc += sm[(t * s + r) & (SS_WORDS - 1)];
  out[blockIdx.x * blockDim.x + t] = acc;
}

__global__ void simple_reduce(const uint32_t *in, uint32_t *out, unsigned m) {
  __shared__ uint32_t sm[TPB];
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * (blockDim.x * 2) + t;
  uint32_t v = i < m ? in[i] : 0;
  if (i + blockDim.x < m) v += in[i + blockDim.x];
  sm[t] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) sm[t] += sm[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sm[0];
}

/* ---- host ----------------------------------------------------------------------------- */

/* Exactly memsim's ms_perm_generate("random", n, seed) (sim/workloads/ms-perm.c), as
 * kernels/permutation.cu's make_perm: splitmix64 from state = seed, unbiased rejection
 * sampling, Fisher-Yates from the top. The trace's data array
 * {"generate": "random", "n": n, "seed": seed} is the same permutation. */
std::vector<uint32_t> random_permutation(size_t n, uint64_t seed) {
  std::vector<uint32_t> p(n);
  std::iota(p.begin(), p.end(), 0u);
  uint64_t st = seed;
  auto next = [&st]() {
    uint64_t z = (st += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  for (size_t i = n - 1; i > 0; i--) {
    uint64_t bound = i + 1, lim = UINT64_MAX - UINT64_MAX % bound, r;
    do r = next();
    while (r >= lim);
    std::swap(p[i], p[r % bound]);
  }
  return p;
}

/* Inputs below 2^31: never the poison (all ones). */
void fill_input(std::vector<uint32_t> &v, uint64_t seed) {
  MsRng rng(seed * 7907 + 11);
  for (uint32_t &x : v) x = rng.u32() >> 1;
}

MsRecord record(const char *alg) {
  MsRecord r;
  r.workload = "simple";
  r.algorithm = alg;
  return r;
}

std::string first_mismatch(const std::vector<uint32_t> &got, size_t n, const std::function<uint32_t(size_t)> &want,
                           const char *what) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want(i)) return ms_fmt("%s[%zu]: got %u want %u", what, i, got[i], want(i));
  return "";
}

/* copy, strided-read, gather at n words: one input, one output buffer. */
void run_1d(const MsOptions &o, size_t n) {
  static const unsigned strides[] = {2, 4, 8, 32};
  const bool gather = ms_selected("gather");
  if (!ms_selected("copy") && !ms_selected("strided-read") && !gather) return;
  std::vector<uint32_t> h_in(n), h_out(n), idx;
  fill_input(h_in, o.seed);
  if (gather) idx = random_permutation(n, o.seed);
  uint32_t *d_in, *d_out, *d_idx = nullptr;
  MS_CUDA(cudaMalloc(&d_in, n * 4));
  MS_CUDA(cudaMalloc(&d_out, n * 4));
  MS_CUDA(cudaMemcpy(d_in, h_in.data(), n * 4, cudaMemcpyHostToDevice));
  if (gather) {
    MS_CUDA(cudaMalloc(&d_idx, n * 4));
    MS_CUDA(cudaMemcpy(d_idx, idx.data(), n * 4, cudaMemcpyHostToDevice));
  }
  const unsigned grid = (unsigned)(n / TPB), un = (unsigned)n;
  auto poison = [&] { MS_CUDA(cudaMemset(d_out, 0xff, n * 4)); };
  auto fetch = [&] { MS_CUDA(cudaMemcpy(h_out.data(), d_out, n * 4, cudaMemcpyDeviceToHost)); };

  MsRecord r = record("copy");
  r.p("n", (long long)n);
  r.p("threads_per_block", (long long)TPB);
  r.p("seed", (long long)o.seed);
  ms_measure(r, poison, [&] { simple_copy<<<grid, TPB>>>(d_in, d_out, un); },
             [&] { fetch(); return first_mismatch(h_out, n, [&](size_t i) { return h_in[i]; }, "out"); });
  for (unsigned s : strides) {
    r = record("strided-read");
    r.p("n", (long long)n);
    r.p("s", (long long)s);
    r.p("threads_per_block", (long long)TPB);
    r.p("seed", (long long)o.seed);
    ms_measure(r, poison, [&] { simple_strided_read<<<grid, TPB>>>(d_in, d_out, un, s); },
               [&] { fetch(); return first_mismatch(h_out, n, [&](size_t i) { return h_in[(i * s) % n]; }, "out"); });
  }
  if (gather) {
    r = record("gather");
    r.p("n", (long long)n);
    r.p("threads_per_block", (long long)TPB);
    r.p("seed", (long long)o.seed);
    r.x("permutation", "random");
    ms_measure(r, poison, [&] { simple_gather<<<grid, TPB>>>(d_in, d_idx, d_out, un); },
               [&] { fetch(); return first_mismatch(h_out, n, [&](size_t i) { return h_in[idx[i]]; }, "out"); });
    MS_CUDA(cudaFree(d_idx));
  }
  MS_CUDA(cudaFree(d_in));
  MS_CUDA(cudaFree(d_out));
}

/* The three transposes of an n x n matrix. */
void run_transpose(const MsOptions &o, unsigned n) {
  if (!ms_selected("transpose-naive") && !ms_selected("transpose-tiled") && !ms_selected("transpose-padded")) return;
  const size_t nn = (size_t)n * n;
  std::vector<uint32_t> h_in(nn), h_out(nn);
  fill_input(h_in, o.seed + 1);
  uint32_t *d_in, *d_out;
  MS_CUDA(cudaMalloc(&d_in, nn * 4));
  MS_CUDA(cudaMalloc(&d_out, nn * 4));
  MS_CUDA(cudaMemcpy(d_in, h_in.data(), nn * 4, cudaMemcpyHostToDevice));
  auto poison = [&] { MS_CUDA(cudaMemset(d_out, 0xff, nn * 4)); };
  auto verify = [&]() -> std::string {
    MS_CUDA(cudaMemcpy(h_out.data(), d_out, nn * 4, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < n; j++)
        if (h_out[j * n + i] != h_in[i * n + j])
          return ms_fmt("out[%zu][%zu]: got %u want in[%zu][%zu] = %u", j, i, h_out[j * n + i], i, j, h_in[i * n + j]);
    return "";
  };
  for (int by : {8, 32}) {
    MsRecord r = record("transpose-naive");
    r.p("n", (long long)n);
    r.p("block_x", 32LL);
    r.p("block_y", (long long)by);
    r.p("threads_per_block", (long long)(32 * by));
    r.p("seed", (long long)o.seed);
    const dim3 grid(n / 32, n / by), block(32, by);
    ms_measure(r, poison, [&] { simple_transpose_naive<<<grid, block>>>(d_in, d_out, n); }, verify);
  }
  for (int padded = 0; padded < 2; padded++) {
    const int pitch = TILE + padded;
    MsRecord r = record(padded ? "transpose-padded" : "transpose-tiled");
    r.p("n", (long long)n);
    r.p("tile", (long long)TILE);
    r.p("block_y", (long long)TILE_ROWS);
    r.p("pitch", (long long)pitch);
    r.p("threads_per_block", (long long)(TILE * TILE_ROWS));
    r.p("shared_words", (long long)(TILE * pitch));
    r.p("seed", (long long)o.seed);
    const dim3 grid(n / TILE, n / TILE), block(TILE, TILE_ROWS);
    ms_measure(r, poison, [&] {
      if (padded) simple_transpose_tiled<TILE + 1><<<grid, block>>>(d_in, d_out, n);
      else simple_transpose_tiled<TILE><<<grid, block>>>(d_in, d_out, n);
    }, verify);
  }
  MS_CUDA(cudaFree(d_in));
  MS_CUDA(cudaFree(d_out));
}

void run_shared_stride(const MsOptions &o, int sms) {
  if (!ms_selected("shared-stride")) return;
  const unsigned blocks = (unsigned)sms * 8;
  const int repeats = o.counters ? 16 : SS_REPEATS;
  const size_t n = (size_t)blocks * TPB;
  std::vector<uint32_t> h_out(n);
  uint32_t *d_out;
  MS_CUDA(cudaMalloc(&d_out, n * 4));
  auto poison = [&] { MS_CUDA(cudaMemset(d_out, 0xff, n * 4)); };
  for (unsigned s : {1u, 2u, 4u, 8u, 32u}) {
    MsRecord r = record("shared-stride");
    r.p("s", (long long)s);
    r.p("repeats", (long long)repeats);
    r.p("blocks", (long long)blocks);
    r.p("threads_per_block", (long long)TPB);
    r.p("shared_words", (long long)SS_WORDS);
    r.p("seed", (long long)o.seed);
    ms_measure(r, poison, [&] { simple_shared_stride<<<blocks, TPB>>>(d_out, s, repeats); }, [&]() -> std::string {
      MS_CUDA(cudaMemcpy(h_out.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
      for (size_t i = 0; i < n; i++) {
        const unsigned b = (unsigned)(i / TPB), t = (unsigned)(i % TPB);
        uint32_t want = 0;
        for (int q = 0; q < repeats; q++) want += ((t * s + (unsigned)q) & (SS_WORDS - 1)) * FILL_MUL + b;
        if (h_out[i] != want) return ms_fmt("block %u thread %u: got %u want %u", b, t, h_out[i], want);
      }
      return "";
    });
  }
  MS_CUDA(cudaFree(d_out));
}

void run_reduce(const MsOptions &o, size_t n) {
  if (!ms_selected("reduce")) return;
  std::vector<uint32_t> h_in(n);
  fill_input(h_in, o.seed + 2);
  /* levels: m elements in, nb = ceil(m / 512) partials out, until one is left */
  std::vector<size_t> ms, nbs, offs;
  size_t m = n, total = 0;
  do {
    ms.push_back(m);
    nbs.push_back((m + 2 * TPB - 1) / (2 * TPB));
    offs.push_back(total);
    total += nbs.back();
    m = nbs.back();
  } while (m > 1);
  std::vector<uint32_t> want1(nbs[0]), got1(nbs[0]);
  uint32_t want = 0;
  for (size_t b = 0; b < nbs[0]; b++) {
    uint32_t s = 0;
    for (size_t j = b * 2 * TPB; j < std::min(n, (b + 1) * 2 * TPB); j++) s += h_in[j];
    want1[b] = s;
    want += s;
  }
  uint32_t *d_in, *d_part;
  MS_CUDA(cudaMalloc(&d_in, n * 4));
  MS_CUDA(cudaMalloc(&d_part, total * 4));
  MS_CUDA(cudaMemcpy(d_in, h_in.data(), n * 4, cudaMemcpyHostToDevice));
  MsRecord r = record("reduce");
  r.p("n", (long long)n);
  r.p("threads_per_block", (long long)TPB);
  r.p("shared_words", (long long)TPB);
  r.p("seed", (long long)o.seed);
  r.x("launches", (long long)ms.size());
  ms_measure(r, [&] { MS_CUDA(cudaMemset(d_part, 0xff, total * 4)); },
             [&] {
               for (size_t k = 0; k < ms.size(); k++)
                 simple_reduce<<<(unsigned)nbs[k], TPB>>>(k ? d_part + offs[k - 1] : d_in, d_part + offs[k], (unsigned)ms[k]);
             },
             [&]() -> std::string {
               MS_CUDA(cudaMemcpy(got1.data(), d_part, nbs[0] * 4, cudaMemcpyDeviceToHost));
               std::string e = first_mismatch(got1, nbs[0], [&](size_t b) { return want1[b]; }, "partial");
               if (!e.empty()) return e;
               uint32_t got = 0;
               MS_CUDA(cudaMemcpy(&got, d_part + offs.back(), 4, cudaMemcpyDeviceToHost));
               return got == want ? std::string() : ms_fmt("total: got %u want %u", got, want);
             });
  MS_CUDA(cudaFree(d_in));
  MS_CUDA(cudaFree(d_part));
}

} // namespace

void ms_run_simple(const MsOptions &o) {
  int sms = 0;
  MS_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const bool small = o.quick || o.counters;
  const std::vector<size_t> ns = small ? std::vector<size_t>{(size_t)1 << 20} : std::vector<size_t>{(size_t)1 << 24, (size_t)1 << 26};
  const std::vector<unsigned> sides = small ? std::vector<unsigned>{1024} : std::vector<unsigned>{4096, 8192};
  std::printf("simple: n = %s words, transposes %s, shared-stride %d blocks\n", small ? "2^20" : "2^24, 2^26",
              small ? "1024^2" : "4096^2, 8192^2", sms * 8);
  for (size_t n : ns) run_1d(o, n);
  for (unsigned side : sides) run_transpose(o, side);
  run_shared_stride(o, sms);
  for (size_t n : ns) run_reduce(o, n);
}
