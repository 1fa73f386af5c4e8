/* Offline permutation kernels (seed 001, chapters 4 and 5).
 *
 * A permutation P moves a[i] to b[P(i)].
 *  DMM (shared memory, one block of 1024 threads permutes n = 1024 elements):
 *   copy            b[i] = a[i]
 *   d-designated    b[p[i]] = a[i]            (destination designated)
 *   s-designated    b[i] = a[q[i]], q = P^-1  (source designated)
 *   conflict-free   b[d[i]] = a[s[i]], where each warp's (half-warp's for 64-bit
 *                   elements) sources and destinations lie in distinct banks:
 *                   the classes of an edge colouring of the bipartite multigraph
 *                   source bank -> destination bank (seed 001 section 4.3).
 *   Like the paper (which repeated each permutation 10^8 times), each block loads
 *   a and the table into shared memory once and permutes `inner_repeats` times.
 *  HMM (global memory, n = nbar^2 elements, 32-bit):
 *   hmm-d-designated, hmm-s-designated: the same two rules on global memory;
 *   thrust-scatter: thrust::scatter(a, a+n, P, b);
 *   hmm-transpose: the transpose through a w x w shared tile with the diagonal
 *   arrangement (seed 001 section 5.2), for the transpose permutation.
 */
#include "measure.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include <thrust/execution_policy.h>
#include <thrust/scatter.h>

namespace {

constexpr int DMM_N = 1024;
constexpr int W = 32;

enum PermAlg { ALG_COPY, ALG_D, ALG_S, ALG_CF };

/* ---- permutations --------------------------------------------------------- */

/* Builds P (b[P(i)] = a[i]) of size n; returns false for an unknown name or a
 * size the permutation does not support. */
bool make_perm(const std::string &name, size_t n, uint64_t seed, std::vector<uint32_t> &p) {
  p.resize(n);
  std::iota(p.begin(), p.end(), 0u);
  if (name == "identical") return true;
  if (name == "random") {
    MsRng rng(seed);
    for (size_t i = n - 1; i > 0; i--) std::swap(p[i], p[rng.below(i + 1)]);
    return true;
  }
  size_t side = 1;
  while (side * side < n) side++;
  if (name == "transpose") {
    if (side * side != n) return false;
    for (size_t i = 0; i < n; i++) p[i] = (uint32_t)((i % side) * side + i / side);
    return true;
  }
  if (name == "shuffle") {
    for (size_t i = 0; i < n; i++) p[i] = (uint32_t)(i < n / 2 ? 2 * i : 2 * (i - n / 2) + 1);
    return true;
  }
  if (name == "bit-reversal") {
    int bits = 0;
    while (((size_t)1 << bits) < n) bits++;
    if (((size_t)1 << bits) != n) return false;
    for (size_t i = 0; i < n; i++) {
      uint32_t r = 0;
      for (int b = 0; b < bits; b++)
        if (i >> b & 1) r |= 1u << (bits - 1 - b);
      p[i] = r;
    }
    return true;
  }
  return false;
}

/* Conflict-free schedule: an exact edge colouring of the regular bipartite
 * multigraph (source bank i mod B) -> (destination bank P(i) mod B), degree
 * n/B, found as n/B successive perfect matchings (Kuhn's augmenting paths; a
 * regular bipartite multigraph always has one, by Hall's theorem). Class t
 * becomes entries t*B .. t*B+B-1 of the table: s | d << 16. */
std::vector<uint32_t> conflict_free_table(const std::vector<uint32_t> &p, int banks) {
  const int n = (int)p.size(), B = banks, deg = n / B;
  std::vector<std::vector<std::vector<uint32_t>>> edges(B, std::vector<std::vector<uint32_t>>(B));
  for (int i = 0; i < n; i++) edges[i % B][p[i] % B].push_back((uint32_t)i);
  std::vector<uint32_t> table(n);
  for (int t = 0; t < deg; t++) {
    std::vector<int> match_r(B, -1); /* right vertex -> left vertex */
    for (int u = 0; u < B; u++) {
      std::vector<char> seen(B, 0);
      std::function<bool(int)> aug = [&](int x) -> bool {
        for (int v = 0; v < B; v++) {
          if (edges[x][v].empty() || seen[v]) continue;
          seen[v] = 1;
          if (match_r[v] < 0 || aug(match_r[v])) { match_r[v] = x; return true; }
        }
        return false;
      };
      if (!aug(u)) { std::fprintf(stderr, "memsim-measure: edge colouring failed\n"); std::exit(4); }
    }
    for (int v = 0; v < B; v++) {
      int u = match_r[v];
      uint32_t s = edges[u][v].back();
      edges[u][v].pop_back();
      table[t * B + u] = s | (p[s] << 16);
    }
  }
  return table;
}

/* ---- DMM kernels ------------------------------------------------------------ */

template <typename T, int ALG>
__global__ void __launch_bounds__(DMM_N)
dmm_permute(const T *__restrict__ in, T *__restrict__ out, const uint32_t *__restrict__ table,
            int repeats) {
  __shared__ T a[DMM_N];
  __shared__ T b[DMM_N];
  __shared__ uint32_t tab[DMM_N];
  const int i = threadIdx.x;
  const size_t base = (size_t)blockIdx.x * DMM_N;
  a[i] = in[base + i];
  tab[i] = table[i];
  __syncthreads();
  for (int r = 0; r < repeats; r++) {
    if (ALG == ALG_COPY) {
      b[i] = a[i];
    } else if (ALG == ALG_D) {
      b[tab[i]] = a[i];
    } else if (ALG == ALG_S) {
      b[i] = a[tab[i]];
    } else {
      uint32_t sd = tab[i];
      b[sd >> 16] = a[sd & 0xffffu];
    }
    __syncthreads();
  }
  out[base + i] = b[i];
}

template <typename T>
void run_dmm(const MsOptions &o, const char *alg_name, int alg, const std::string &perm,
             int blocks, int repeats) {
  const int elem_words = (int)(sizeof(T) / 4);
  std::vector<uint32_t> p;
  make_perm(perm, DMM_N, o.seed, p);
  std::vector<uint32_t> table(DMM_N);
  if (alg == ALG_D) table = p;
  else if (alg == ALG_S) for (int i = 0; i < DMM_N; i++) table[p[i]] = (uint32_t)i;
  else if (alg == ALG_CF) table = conflict_free_table(p, W / elem_words);
  else std::iota(table.begin(), table.end(), 0u);

  const size_t n = (size_t)blocks * DMM_N;
  std::vector<T> h_in(n), h_out(n);
  MsRng rng(o.seed * 7919 + 17);
  for (size_t i = 0; i < n; i++) h_in[i] = (T)(1 + (rng.next() >> 34)); /* nonzero, never all-ones */
  T *d_in, *d_out;
  uint32_t *d_tab;
  MS_CUDA(cudaMalloc(&d_in, n * sizeof(T)));
  MS_CUDA(cudaMalloc(&d_out, n * sizeof(T)));
  MS_CUDA(cudaMalloc(&d_tab, DMM_N * sizeof(uint32_t)));
  MS_CUDA(cudaMemcpy(d_in, h_in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  MS_CUDA(cudaMemcpy(d_tab, table.data(), DMM_N * sizeof(uint32_t), cudaMemcpyHostToDevice));

  MsRecord rec;
  rec.workload = "permutation";
  rec.algorithm = alg_name;
  rec.p("n", (long long)DMM_N);
  rec.p("permutation", perm.c_str());
  rec.p("seed", (long long)o.seed);
  rec.p("elem_words", (long long)elem_words);
  rec.p("width", (long long)W);
  rec.p("blocks", (long long)blocks);
  rec.x("model", "dmm");
  rec.x("inner_repeats", (long long)repeats);
  rec.x("threads_per_block", (long long)DMM_N);
  auto poison = [&] { MS_CUDA(cudaMemset(d_out, 0xff, n * sizeof(T))); };
  auto launch = [&] {
    switch (alg) {
    case ALG_COPY: dmm_permute<T, ALG_COPY><<<blocks, DMM_N>>>(d_in, d_out, d_tab, repeats); break;
    case ALG_D: dmm_permute<T, ALG_D><<<blocks, DMM_N>>>(d_in, d_out, d_tab, repeats); break;
    case ALG_S: dmm_permute<T, ALG_S><<<blocks, DMM_N>>>(d_in, d_out, d_tab, repeats); break;
    default: dmm_permute<T, ALG_CF><<<blocks, DMM_N>>>(d_in, d_out, d_tab, repeats); break;
    }
  };
  auto verify = [&]() -> std::string {
    MS_CUDA(cudaMemcpy(h_out.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
    const bool is_copy = alg == ALG_COPY;
    for (size_t bl = 0; bl < (size_t)blocks; bl++)
      for (int i = 0; i < DMM_N; i++) {
        size_t dst = bl * DMM_N + (is_copy ? (uint32_t)i : p[i]);
        if (h_out[dst] != h_in[bl * DMM_N + i])
          return ms_fmt("block %zu element %d: got %llu want %llu", bl, i,
                        (unsigned long long)h_out[dst], (unsigned long long)h_in[bl * DMM_N + i]);
      }
    return "";
  };
  ms_measure(rec, poison, launch, verify);
  MS_CUDA(cudaFree(d_in));
  MS_CUDA(cudaFree(d_out));
  MS_CUDA(cudaFree(d_tab));
}

/* ---- HMM kernels ------------------------------------------------------------- */

__global__ void hmm_d_designated(const uint32_t *__restrict__ a, uint32_t *__restrict__ b,
                                 const uint32_t *__restrict__ p, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[p[i]] = a[i];
}

__global__ void hmm_s_designated(const uint32_t *__restrict__ a, uint32_t *__restrict__ b,
                                 const uint32_t *__restrict__ q, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[q[i]];
}

/* Transpose of an nbar x nbar matrix: each block moves one w x w tile through
 * shared memory stored with the diagonal arrangement (element (r, c) of the
 * tile at r*w + (r+c) mod w), so both the row-wise write and the column-wise
 * read of the tile are conflict-free. 32 x 8 threads, 4 rows each. */
__global__ void hmm_transpose(const uint32_t *__restrict__ a, uint32_t *__restrict__ b, int nbar) {
  __shared__ uint32_t t[W * W];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const size_t r0 = (size_t)blockIdx.y * W, c0 = (size_t)blockIdx.x * W;
  for (int k = 0; k < W; k += 8) {
    int r = ty + k;
    t[r * W + ((r + tx) & (W - 1))] = a[(r0 + r) * nbar + c0 + tx];
  }
  __syncthreads();
  for (int k = 0; k < W; k += 8) {
    int c = ty + k; /* output row = input column c, output column = input row tx */
    b[(c0 + c) * nbar + r0 + tx] = t[tx * W + ((tx + c) & (W - 1))];
  }
}

void run_hmm(const MsOptions &o, const char *alg_name, const std::string &perm, int nbar) {
  const size_t n = (size_t)nbar * nbar;
  std::vector<uint32_t> p;
  if (!make_perm(perm, n, o.seed, p)) return;
  std::string alg = alg_name;
  std::vector<uint32_t> table = p;
  if (alg == "hmm-s-designated")
    for (size_t i = 0; i < n; i++) table[p[i]] = (uint32_t)i;
  std::vector<uint32_t> h_in(n), h_out(n);
  MsRng rng(o.seed * 104729 + 3);
  for (size_t i = 0; i < n; i++) h_in[i] = 1 + (rng.u32() >> 1);
  uint32_t *d_in, *d_out, *d_tab;
  MS_CUDA(cudaMalloc(&d_in, n * 4));
  MS_CUDA(cudaMalloc(&d_out, n * 4));
  MS_CUDA(cudaMalloc(&d_tab, n * 4));
  MS_CUDA(cudaMemcpy(d_in, h_in.data(), n * 4, cudaMemcpyHostToDevice));
  MS_CUDA(cudaMemcpy(d_tab, table.data(), n * 4, cudaMemcpyHostToDevice));
  MsRecord rec;
  rec.workload = "permutation";
  rec.algorithm = alg;
  rec.p("n", (long long)n);
  rec.p("permutation", perm.c_str());
  rec.p("seed", (long long)o.seed);
  rec.p("elem_words", 1LL);
  rec.p("width", (long long)W);
  rec.p("blocks", 1LL);
  rec.x("model", "hmm");
  rec.x("nbar", (long long)nbar);
  auto poison = [&] { MS_CUDA(cudaMemset(d_out, 0xff, n * 4)); };
  const unsigned grid = (unsigned)((n + 255) / 256);
  auto launch = [&] {
    if (alg == "hmm-d-designated") hmm_d_designated<<<grid, 256>>>(d_in, d_out, d_tab, n);
    else if (alg == "hmm-s-designated") hmm_s_designated<<<grid, 256>>>(d_in, d_out, d_tab, n);
    else if (alg == "hmm-transpose")
      hmm_transpose<<<dim3(nbar / W, nbar / W), dim3(W, 8)>>>(d_in, d_out, nbar);
    else thrust::scatter(thrust::device, d_in, d_in + n, d_tab, d_out);
  };
  auto verify = [&]() -> std::string {
    MS_CUDA(cudaMemcpy(h_out.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++)
      if (h_out[p[i]] != h_in[i])
        return ms_fmt("element %zu: got %u want %u", i, h_out[p[i]], h_in[i]);
    return "";
  };
  ms_measure(rec, poison, launch, verify);
  MS_CUDA(cudaFree(d_in));
  MS_CUDA(cudaFree(d_out));
  MS_CUDA(cudaFree(d_tab));
}

} // namespace

void ms_run_permutation(const MsOptions &o) {
  static const char *perms[] = {"identical", "random", "transpose", "shuffle", "bit-reversal"};
  static const struct { const char *name; int alg; } algs[] = {
      {"copy", ALG_COPY}, {"d-designated", ALG_D}, {"s-designated", ALG_S},
      {"conflict-free", ALG_CF}};
  int sms = 0;
  MS_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int blocks = o.counters ? 1 : (o.quick ? sms * 2 : sms * 16);
  const int repeats = o.counters ? 1 : (o.quick ? 8 : 64);
  std::printf("permutation (DMM): n=%d, %d blocks, %d permutations per block per call\n", DMM_N,
              blocks, repeats);
  for (int ew = 1; ew <= 2; ew++)
    for (const char *perm : perms)
      for (const auto &a : algs) {
        if (a.alg == ALG_COPY && std::strcmp(perm, "identical") != 0) continue;
        if (ew == 1) run_dmm<uint32_t>(o, a.name, a.alg, perm, blocks, repeats);
        else run_dmm<unsigned long long>(o, a.name, a.alg, perm, blocks, repeats);
      }
  std::printf("permutation (HMM, global memory)\n");
  std::vector<int> nbars = o.counters ? std::vector<int>{256}
                           : o.quick  ? std::vector<int>{256, 1024}
                                      : std::vector<int>{256, 512, 1024, 2048, 4096};
  static const char *hperms[] = {"identical", "random", "transpose", "bit-reversal"};
  static const char *halgs[] = {"hmm-d-designated", "hmm-s-designated", "thrust-scatter"};
  for (int nbar : nbars) {
    for (const char *perm : hperms)
      for (const char *alg : halgs) run_hmm(o, alg, perm, nbar);
    run_hmm(o, "hmm-transpose", "transpose", nbar);
  }
}
