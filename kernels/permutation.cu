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
 *   a into shared memory once, each thread its table entry into a register
 *   once, and permutes `inner_repeats` times (b[dst] = a[src] per pass, with
 *   src, dst = i, i for the copy; i, P(i) D-designated; P^-1(i), i
 *   S-designated; s(i), d(i) conflict-free).
 *  HMM (global memory, n = nbar^2 elements, 32-bit):
 *   hmm-d-designated, hmm-s-designated: the same two rules on global memory;
 *   thrust-scatter: thrust::scatter(a, a+n, P, b);
 *   hmm-transpose: the transpose through a w x w shared tile with the diagonal
 *   arrangement (seed 001 section 5.2), for the transpose permutation;
 *   hmm-scheduled: row-wise, transpose, row-wise, transpose, row-wise with
 *   S/D tables from an exact edge colouring of the row graph (section 5.5),
 *   any permutation, 5 kernel calls.
 */
#include "measure.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <atomic>
#include <numeric>
#include <thread>

#include <thrust/execution_policy.h>
#include <thrust/scatter.h>

namespace {

double ms_now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

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
    /* exactly memsim's ms_perm_generate (sim/workloads/ms-perm.c): splitmix64 from state =
     * seed, unbiased rejection sampling, Fisher-Yates from the top, so the GPU permutes the
     * same permutation the simulator predicts (bank conflicts then compare to the unit) */
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

/* ---- exact edge colouring (port of sim/workloads/permutation/ms-colouring.c) --
 * A d-regular bipartite multigraph on nodes + nodes vertices gets d colours,
 * each a perfect matching: pairs of equal endpoints are compressed with their
 * multiplicities; a level whose pairs form a perfect matching takes all its
 * colours at once; an even degree splits in two halves (floor(m/2) each, the
 * odd pairs split by walking closed trails, alternating halves: Euler
 * partition); an odd degree removes one perfect matching (greedy, then BFS
 * augmenting paths). Same algorithm as the simulator's, so the same schedule
 * (the colour numbering may differ only if the simulator's does). */
struct EcPairs {
  std::vector<uint32_t> u, v;
  std::vector<uint64_t> m, id;
  size_t np() const { return u.size(); }
  void push(uint32_t a, uint32_t b, uint64_t mm, uint64_t i) {
    u.push_back(a); v.push_back(b); m.push_back(mm); id.push_back(i);
  }
};

struct EcCtx {
  uint32_t nodes;
  std::vector<std::atomic<uint64_t>> cursor; /* halves coloured in parallel share pairs */
  std::vector<uint64_t> pedges;
  uint32_t *colour;
  void emit(uint64_t pair, uint64_t first, uint64_t count) {
    const uint64_t at = cursor[pair].fetch_add(count, std::memory_order_relaxed);
    for (uint64_t k = 0; k < count; k++) colour[pedges[at + k]] = (uint32_t)(first + k);
  }
};

void ec_perfect_matching(const EcPairs &p, uint32_t nodes, std::vector<uint64_t> &match_pair) {
  const uint64_t NONE = ~0ull;
  std::vector<uint64_t> off(nodes + 1, 0);
  for (size_t k = 0; k < p.np(); k++) off[p.u[k] + 1]++;
  for (uint32_t x = 0; x < nodes; x++) off[x + 1] += off[x];
  std::vector<uint64_t> adj(p.np() ? p.np() : 1), fill(off.begin(), off.end() - 1);
  for (size_t k = 0; k < p.np(); k++) adj[fill[p.u[k]]++] = k;
  std::vector<int64_t> mate_r(nodes, -1), via(nodes);
  match_pair.assign(nodes, NONE);
  for (uint32_t x = 0; x < nodes; x++)
    for (uint64_t a = off[x]; a < off[x + 1]; a++)
      if (mate_r[p.v[adj[a]]] < 0) {
        mate_r[p.v[adj[a]]] = (int64_t)adj[a];
        match_pair[x] = adj[a];
        break;
      }
  std::vector<uint32_t> queue(nodes);
  for (uint32_t x = 0; x < nodes; x++) {
    if (match_pair[x] != NONE) continue;
    std::fill(via.begin(), via.end(), -1);
    uint32_t qh = 0, qt = 0;
    queue[qt++] = x;
    int64_t found = -1;
    while (qh < qt && found < 0) {
      uint32_t l = queue[qh++];
      for (uint64_t a = off[l]; a < off[l + 1]; a++) {
        uint32_t r = p.v[adj[a]];
        if (via[r] >= 0) continue;
        via[r] = (int64_t)adj[a];
        if (mate_r[r] < 0) { found = r; break; }
        queue[qt++] = p.u[mate_r[r]];
      }
    }
    if (found < 0) { std::fprintf(stderr, "memsim-measure: edge colouring: no perfect matching\n"); std::exit(4); }
    for (int64_t r = found; r >= 0;) {
      uint64_t pk = (uint64_t)via[r];
      uint32_t l = p.u[pk];
      int64_t prev = match_pair[l] == NONE ? -1 : (int64_t)p.v[match_pair[l]];
      mate_r[r] = (int64_t)pk;
      match_pair[l] = pk;
      r = prev;
    }
  }
}

void ec_euler_split(const EcPairs &p, const std::vector<uint64_t> &odd, uint32_t nodes,
                    std::vector<uint8_t> &side) {
  const uint32_t nn = 2 * nodes;
  const size_t nodd = odd.size();
  std::vector<uint64_t> off(nn + 1, 0);
  for (size_t k = 0; k < nodd; k++) {
    off[p.u[odd[k]] + 1]++;
    off[nodes + p.v[odd[k]] + 1]++;
  }
  for (uint32_t x = 0; x < nn; x++) off[x + 1] += off[x];
  std::vector<uint64_t> adj(2 * nodd + 1), ptr(off.begin(), off.end() - 1);
  for (size_t k = 0; k < nodd; k++) {
    adj[ptr[p.u[odd[k]]]++] = k;
    adj[ptr[nodes + p.v[odd[k]]]++] = k;
  }
  std::copy(off.begin(), off.end() - 1, ptr.begin());
  std::vector<uint8_t> used(nodd + 1, 0);
  side.assign(nodd + 1, 0);
  for (uint32_t start = 0; start < nn; start++) {
    for (;;) {
      while (ptr[start] < off[start + 1] && used[adj[ptr[start]]]) ptr[start]++;
      if (ptr[start] == off[start + 1]) break;
      uint32_t cur = start;
      uint8_t sd = 0;
      for (;;) {
        while (ptr[cur] < off[cur + 1] && used[adj[ptr[cur]]]) ptr[cur]++;
        if (ptr[cur] == off[cur + 1]) break;
        uint64_t k = adj[ptr[cur]++];
        used[k] = 1;
        side[k] = sd;
        sd ^= 1;
        cur = cur < nodes ? nodes + p.v[odd[k]] : p.u[odd[k]];
      }
    }
  }
}

void ec_colour_rec(EcCtx &c, EcPairs &p, uint64_t d, uint64_t base, int par_depth = 0) {
  for (;;) {
    if (d == 0) return;
    if (p.np() == c.nodes) {
      for (size_t k = 0; k < p.np(); k++) c.emit(p.id[k], base, d);
      return;
    }
    if (d % 2 == 0) break;
    std::vector<uint64_t> mp;
    ec_perfect_matching(p, c.nodes, mp);
    for (uint32_t x = 0; x < c.nodes; x++) {
      c.emit(p.id[mp[x]], base, 1);
      p.m[mp[x]]--;
    }
    size_t k2 = 0;
    for (size_t k = 0; k < p.np(); k++)
      if (p.m[k]) {
        p.u[k2] = p.u[k]; p.v[k2] = p.v[k]; p.m[k2] = p.m[k]; p.id[k2] = p.id[k];
        k2++;
      }
    p.u.resize(k2); p.v.resize(k2); p.m.resize(k2); p.id.resize(k2);
    d--;
    base++;
  }
  std::vector<uint64_t> odd;
  for (size_t k = 0; k < p.np(); k++)
    if (p.m[k] & 1) odd.push_back(k);
  std::vector<uint8_t> side;
  ec_euler_split(p, odd, c.nodes, side);
  std::vector<uint8_t> extra(p.np() ? p.np() : 1, 0);
  for (size_t k = 0; k < odd.size(); k++) extra[odd[k]] = side[k] == 0 ? 1 : 2;
  EcPairs h[2];
  for (int sd = 0; sd < 2; sd++)
    for (size_t k = 0; k < p.np(); k++) {
      uint64_t m = p.m[k] / 2 + (extra[k] == (uint8_t)(sd + 1));
      if (m) h[sd].push(p.u[k], p.v[k], m, p.id[k]);
    }
  p = EcPairs();
  if (par_depth > 0 && h[0].np() > 4096) { /* the two halves are independent */
    std::thread t([&] { ec_colour_rec(c, h[0], d / 2, base, par_depth - 1); });
    ec_colour_rec(c, h[1], d / 2, base + d / 2, par_depth - 1);
    t.join();
    return;
  }
  ec_colour_rec(c, h[0], d / 2, base);
  h[0] = EcPairs();
  ec_colour_rec(c, h[1], d / 2, base + d / 2);
}

/* colour[e] in 0 .. edges/nodes - 1 for the edges left[e] -> right[e]. */
void bipartite_colour(uint32_t nodes, size_t edges, const uint32_t *left, const uint32_t *right,
                      uint32_t *colour) {
  const uint64_t d = edges / nodes;
  std::vector<uint64_t> degl(nodes + 1, 0);
  for (size_t e = 0; e < edges; e++) degl[left[e] + 1]++;
  for (uint32_t x = 0; x < nodes; x++) degl[x + 1] += degl[x];
  std::vector<uint64_t> byl(edges);
  for (size_t e = 0; e < edges; e++) byl[degl[left[e]]++] = e;
  std::vector<uint32_t> stamp(nodes, 0);
  std::vector<uint64_t> pid_of(nodes), epair(edges);
  EcPairs p;
  for (size_t a = 0; a < edges; a++) {
    uint64_t e = byl[a];
    uint32_t u = left[e], v = right[e];
    if (stamp[v] != u + 1) {
      stamp[v] = u + 1;
      pid_of[v] = p.np();
      p.push(u, v, 0, p.np());
    }
    p.m[pid_of[v]]++;
    epair[e] = pid_of[v];
  }
  EcCtx c;
  c.nodes = nodes;
  c.colour = colour;
  std::vector<uint64_t> poff(p.np() + 1, 0);
  for (size_t e = 0; e < edges; e++) poff[epair[e] + 1]++;
  for (size_t k = 0; k < p.np(); k++) poff[k + 1] += poff[k];
  c.pedges.resize(edges);
  std::vector<uint64_t> fill(poff);
  for (size_t e = 0; e < edges; e++) c.pedges[fill[epair[e]]++] = e;
  c.cursor = std::vector<std::atomic<uint64_t>>(p.np() + 1);
  for (size_t k = 0; k <= p.np(); k++) c.cursor[k].store(poff[k], std::memory_order_relaxed);
  ec_colour_rec(c, p, d, 0, edges > (1u << 20) ? 4 : 0);
}

/* Conflict-free S/D table of one row permutation q (element j of the row goes
 * to q[j]), w banks: colour class t of the bank graph (j mod w -> q[j] mod w)
 * becomes entries t*w .. t*w+w-1, entry t*w + (j mod w) = j | q[j] << 16, so
 * a warp's sources and destinations lie in distinct banks. */
void row_cf_table(const uint32_t *q, uint32_t m, uint32_t w, uint32_t *out) {
  std::vector<uint32_t> l(m), r(m), col(m);
  for (uint32_t j = 0; j < m; j++) { l[j] = j % w; r[j] = q[j] % w; }
  bipartite_colour(w, m, l.data(), r.data(), col.data());
  for (uint32_t j = 0; j < m; j++) out[col[j] * w + j % w] = j | q[j] << 16;
}

/* ---- DMM kernels ------------------------------------------------------------ */

template <typename T, int ALG>
__global__ void __launch_bounds__(DMM_N)
dmm_permute(const T *__restrict__ in, T *__restrict__ out, const uint32_t *__restrict__ table,
            int repeats) {
  __shared__ T a[DMM_N];
  __shared__ T b[DMM_N];
  const int i = threadIdx.x;
  const size_t base = (size_t)blockIdx.x * DMM_N;
  a[i] = in[base + i];
  /* Each thread's table entry (its P(i), P^-1(i), or its s | d << 16) is read
   * once and kept in a register across the repeats, as the paper's kernel
   * does: a pass is then one shared read and one shared write, as the copy. */
  const uint32_t t = table[i];
  const uint32_t src = ALG == ALG_CF ? (t & 0xffffu) : ALG == ALG_S ? t : (uint32_t)i;
  const uint32_t dst = ALG == ALG_CF ? (t >> 16) : ALG == ALG_D ? t : (uint32_t)i;
  __syncthreads();
  for (int r = 0; r < repeats; r++) {
    b[dst] = a[src];
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
  rec.x("table", "register");
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

/* Row-wise permutation (seed 001 section 5.4): block i permutes row i of an
 * nbar x nbar matrix through shared memory: alpha <- row (coalesced), each thread's
 * entries of the row's conflict-free tables (packed s | d << 16, one coalesced read)
 * fetched with it; v = alpha[S_i(j)] into registers, then alpha[D_i(j)] = v (in place);
 * row <- alpha (coalesced). EPT = nbar / blockDim.x entries per thread. */
template <int EPT>
__global__ void __launch_bounds__(1024) hmm_row_wise(const uint32_t *__restrict__ in, uint32_t *__restrict__ out,
                                                     const uint32_t *__restrict__ sd, int nbar) {
  extern __shared__ uint32_t hmm_sm[];
  const size_t base = (size_t)blockIdx.x * nbar;
  const int T = blockDim.x, tid = threadIdx.x;
  uint32_t v[EPT], t[EPT];
#pragma unroll
  for (int k = 0; k < EPT; k++) {
    v[k] = in[base + tid + k * T];
    t[k] = sd[base + tid + k * T];
  }
#pragma unroll
  for (int k = 0; k < EPT; k++) hmm_sm[tid + k * T] = v[k];
  __syncthreads();
#pragma unroll
  for (int k = 0; k < EPT; k++) v[k] = hmm_sm[t[k] & 0xffffu];
  __syncthreads();
#pragma unroll
  for (int k = 0; k < EPT; k++) hmm_sm[t[k] >> 16] = v[k];
  __syncthreads();
#pragma unroll
  for (int k = 0; k < EPT; k++) out[base + tid + k * T] = hmm_sm[tid + k * T];
}

/* One row-wise kernel: a block per row, min(nbar, 1024) threads. */
void row_round(const uint32_t *in, uint32_t *out, const uint32_t *sd, int nbar) {
  const int rt = std::min(nbar, 1024);
  const size_t sm = (size_t)nbar * 4;
  switch (nbar / rt) {
  case 1: hmm_row_wise<1><<<nbar, rt, sm>>>(in, out, sd, nbar); break;
  case 2: hmm_row_wise<2><<<nbar, rt, sm>>>(in, out, sd, nbar); break;
  case 4: hmm_row_wise<4><<<nbar, rt, sm>>>(in, out, sd, nbar); break;
  default: std::fprintf(stderr, "memsim-measure: no row-wise kernel for nbar = %d\n", nbar); std::exit(1);
  }
}

/* The column round of hmm-scheduled in one kernel (transpose, row-wise, transpose fused):
 * block b permutes the strip of C columns c0 = b C .. c0 + C - 1 of an nbar x nbar matrix
 * through shared memory. Column c of the strip sits at s[c nbar ..], element r rotated to
 * (r + c 32 / C) mod nbar, so the strip's rows (C consecutive words each, 32 / C rows per
 * warp) load and store without bank conflicts, and the column's conflict-free table (the
 * middle row-wise table: row c of the transposed matrix) stays conflict-free. The permutation
 * is in place: every thread first gathers its EPT = C nbar / 1024 sources into registers,
 * then, after a barrier, scatters them to their destinations. */
template <int C, int EPT>
__global__ void __launch_bounds__(1024) hmm_column_strip(const uint32_t *__restrict__ in, uint32_t *__restrict__ out,
                                                         const uint32_t *__restrict__ sd, int nbar) {
  extern __shared__ uint32_t hmm_sm[];
  constexpr int R = W / C; /* rotation per column; rows per warp */
  const int tid = threadIdx.x, c0 = blockIdx.x * C, mask = nbar - 1;
  const uint32_t *tab = sd + (size_t)c0 * nbar;
#pragma unroll 8
  for (int k = 0; k < EPT; k++) {
    const int e = tid + k * 1024, r = e / C, c = e % C;
    hmm_sm[c * nbar + ((r + c * R) & mask)] = in[(size_t)r * nbar + c0 + c];
  }
  __syncthreads();
  uint32_t v[EPT];
  if (EPT <= 16) { /* registers allow: the table entries stay from the gather to the scatter */
    uint32_t t[EPT];
#pragma unroll
    for (int k = 0; k < EPT; k++) t[k] = tab[tid + k * 1024];
#pragma unroll
    for (int k = 0; k < EPT; k++) {
      const int c = (tid + k * 1024) / nbar;
      v[k] = hmm_sm[c * nbar + (((int)(t[k] & 0xffffu) + c * R) & mask)];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < EPT; k++) {
      const int c = (tid + k * 1024) / nbar;
      hmm_sm[c * nbar + (((int)(t[k] >> 16) + c * R) & mask)] = v[k];
    }
  } else {
#pragma unroll
    for (int k = 0; k < EPT; k++) {
      const int e = tid + k * 1024, c = e / nbar;
      const uint32_t t = tab[e];
      v[k] = hmm_sm[c * nbar + (((int)(t & 0xffffu) + c * R) & mask)];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < EPT; k++) {
      const int e = tid + k * 1024, c = e / nbar;
      uint32_t t; /* read again (an L1 or L2 hit), not kept from the gather: registers */
      asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(t) : "l"(tab + e));
      hmm_sm[c * nbar + (((int)(t >> 16) + c * R) & mask)] = v[k];
    }
  }
  __syncthreads();
#pragma unroll 8
  for (int k = 0; k < EPT; k++) {
    const int e = tid + k * 1024, r = e / C, c = e % C;
    out[(size_t)r * nbar + c0 + c] = hmm_sm[c * nbar + ((r + c * R) & mask)];
  }
}

/* Strip width of the fused column round: 8 columns (32-byte row pieces, whole sectors),
 * measured fastest at every nbar on the H100 against 16 and 32 (docs/measurements.md);
 * MEMSIM_COLUMN_STRIP=C for tuning runs. */
int column_strip_width(int nbar) {
  if (const char *e = std::getenv("MEMSIM_COLUMN_STRIP")) return std::atoi(e);
  (void)nbar;
  return 8;
}

template <int C, int EPT> void launch_strip(const uint32_t *in, uint32_t *out, const uint32_t *sd, int nbar) {
  const size_t sm = (size_t)C * nbar * 4;
  static bool set = false;
  if (!set) {
    MS_CUDA(cudaFuncSetAttribute(hmm_column_strip<C, EPT>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm));
    set = true;
  }
  hmm_column_strip<C, EPT><<<nbar / C, 1024, sm>>>(in, out, sd, nbar);
}

/* Launches the fused column round; false for a strip width and nbar it has no kernel for. */
bool column_round(const uint32_t *in, uint32_t *out, const uint32_t *sd, int nbar, int C) {
  const int ept = C * nbar / 1024;
#define MS_STRIP(c, e) if (C == c && ept == e) { launch_strip<c, e>(in, out, sd, nbar); return true; }
  MS_STRIP(8, 2) MS_STRIP(8, 4) MS_STRIP(8, 8) MS_STRIP(8, 16) MS_STRIP(8, 32)
  MS_STRIP(16, 4) MS_STRIP(16, 8) MS_STRIP(16, 16) MS_STRIP(16, 32)
  MS_STRIP(32, 8) MS_STRIP(32, 16) MS_STRIP(32, 32)
#undef MS_STRIP
  return false;
}

/* Host side of hmm-scheduled (seed 001 section 5.5, as
 * sim/workloads/permutation/ms-permutation.c builds it): colour the row graph
 * (row i / nbar of a -> row P(i) / nbar of b) with nbar colours; element i of
 * colour col[i] goes to column col[i] (row-wise), down its column to its
 * destination row (transpose, row-wise, transpose), then along the row to its
 * destination column (row-wise). Returns the three row-wise tables. */
void scheduled_tables(const std::vector<uint32_t> &P, uint32_t nbar, std::vector<uint32_t> &sd) {
  const size_t n = P.size();
  std::vector<uint32_t> l(n), r(n), col(n), q(n);
  for (size_t i = 0; i < n; i++) { l[i] = (uint32_t)(i / nbar); r[i] = P[i] / nbar; }
  bipartite_colour(nbar, n, l.data(), r.data(), col.data());
  sd.assign(3 * n, 0);
  /* The rows' bank-graph colourings are independent: spread over the cores. */
  auto tables = [&](uint32_t *out) {
    const unsigned nt = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
    std::vector<std::thread> th;
    for (unsigned t = 0; t < nt; t++)
      th.emplace_back([&, t] {
        for (uint32_t row = t; row < nbar; row += nt)
          row_cf_table(&q[(size_t)row * nbar], nbar, W, out + (size_t)row * nbar);
      });
    for (auto &x : th) x.join();
  };
  for (size_t i = 0; i < n; i++) q[i] = col[i];
  tables(&sd[0]);
  for (size_t i = 0; i < n; i++) q[(size_t)col[i] * nbar + i / nbar] = P[i] / nbar;
  tables(&sd[n]);
  for (size_t i = 0; i < n; i++) q[(size_t)(P[i] / nbar) * nbar + col[i]] = P[i] % nbar;
  tables(&sd[2 * n]);
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
  const bool sched = alg == "hmm-scheduled";
  double colour_s = 0;
  if (sched) {
    const double t0 = ms_now_s();
    scheduled_tables(p, (uint32_t)nbar, table);
    colour_s = ms_now_s() - t0;
  }
  uint32_t *d_in, *d_out, *d_tab, *d_t0 = nullptr, *d_t1 = nullptr;
  MS_CUDA(cudaMalloc(&d_in, n * 4));
  MS_CUDA(cudaMalloc(&d_out, n * 4));
  MS_CUDA(cudaMalloc(&d_tab, table.size() * 4));
  if (sched) {
    MS_CUDA(cudaMalloc(&d_t0, n * 4));
    MS_CUDA(cudaMalloc(&d_t1, n * 4));
  }
  MS_CUDA(cudaMemcpy(d_in, h_in.data(), n * 4, cudaMemcpyHostToDevice));
  MS_CUDA(cudaMemcpy(d_tab, table.data(), table.size() * 4, cudaMemcpyHostToDevice));
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
  if (sched) {
    rec.x("schedule", std::getenv("MEMSIM_SCHED_FIVE")
                          ? "row-wise, transpose, row-wise, transpose, row-wise; packed s | d << 16 tables"
                          : "row-wise, column strips, row-wise; packed s | d << 16 tables; in place");
    rec.x("colouring_host_s", colour_s);
  }
  /* MEMSIM_SCHED_FIVE=1: the five-kernel schedule (transposes) instead of the fused one */
  const bool fused = sched && !std::getenv("MEMSIM_SCHED_FIVE");
  const int strip = column_strip_width(nbar);
  if (fused) {
    rec.x("column_round", "one kernel: strips of C columns through shared memory");
    rec.x("strip_columns", (long long)strip);
  }
  auto poison = [&] { MS_CUDA(cudaMemset(d_out, 0xff, n * 4)); };
  const unsigned grid = (unsigned)((n + 255) / 256);
  auto launch = [&] {
    if (alg == "hmm-d-designated") hmm_d_designated<<<grid, 256>>>(d_in, d_out, d_tab, n);
    else if (alg == "hmm-s-designated") hmm_s_designated<<<grid, 256>>>(d_in, d_out, d_tab, n);
    else if (alg == "hmm-transpose")
      hmm_transpose<<<dim3(nbar / W, nbar / W), dim3(W, 8)>>>(d_in, d_out, nbar);
    else if (sched && fused) {
      row_round(d_in, d_t0, d_tab, nbar);
      column_round(d_t0, d_t1, d_tab + n, nbar, strip);
      row_round(d_t1, d_out, d_tab + 2 * n, nbar);
    }
    else if (sched) {
      const dim3 tg(nbar / W, nbar / W), tb(W, 8);
      row_round(d_in, d_t0, d_tab, nbar);
      hmm_transpose<<<tg, tb>>>(d_t0, d_t1, nbar);
      row_round(d_t1, d_t0, d_tab + n, nbar);
      hmm_transpose<<<tg, tb>>>(d_t0, d_t1, nbar);
      row_round(d_t1, d_out, d_tab + 2 * n, nbar);
    }
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
  if (sched) {
    MS_CUDA(cudaFree(d_t0));
    MS_CUDA(cudaFree(d_t1));
  }
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
  static const char *halgs[] = {"hmm-d-designated", "hmm-s-designated", "thrust-scatter",
                                "hmm-scheduled"};
  for (int nbar : nbars) {
    for (const char *perm : hperms)
      for (const char *alg : halgs) /* hmm-scheduled: colouring costs host time; random only past 2^20 */
        if (std::strcmp(alg, "hmm-scheduled") != 0 || nbar <= 1024 || std::strcmp(perm, "random") == 0)
          run_hmm(o, alg, perm, nbar);
    run_hmm(o, "hmm-transpose", "transpose", nbar);
  }
}
