/* The bulk family (`--workload bulk`, not part of "all"): bulk execution of oblivious
 * sequential programs (seed 003, C2CU; seed 000 chapter 3; docs/workloads/bulk.md).
 * p threads, one per instance, each run the SAME sequential program on its own instance
 * of `words` 32-bit words in global memory:
 *   column-wise  word x of instance j at mem[x * p + j]   (every step coalesced)
 *   row-wise     word x of instance j at mem[j * words + x]
 * Blocks of 256 threads (p / 256 blocks; p threads in one block when p < 256), as
 * `memsim gen bulk`'s default threads_per_block.
 *
 * Every kernel makes exactly the memory steps of the generator's bulk program
 * (sim/workloads/bulk/ms-bulk-algos.c: the *_text() programs), same loops, same loads and
 * stores, same order.  Each step is one `ld.global.u32` / `st.global.u32` in inline PTX
 * (asm volatile, "memory" clobber), so the compiler neither drops, merges, reorders nor
 * keeps a word in a register between steps; caching is the default (L1 and L2), as a
 * plain C load's.  What each thread computes between the steps is the generator's
 * register machine (ms-bulk-algos.c *_run()):
 *   prefix-sums     n words: read x, write a[0] + ... + a[x] (mod 2^32)
 *   bitonic         Batcher's bitonic sort of n words; per comparator read lo, read hi,
 *                   write min to lo, write max to hi (lo: the word that gets the minimum)
 *   floyd-warshall  n x n distances: per (k, r, c) read d[r][k], d[k][c], d[r][c], write
 *                   d[r][c] = min(d[r][c], d[r][k] + d[k][c]) (INF = no arc)
 *   montgomery      CIOS X * Y * 2^-bits mod M, s = bits / 32; layout X, Y, M, MP, T
 *                   (s + 2), D (s), Z (s): 6s + 3 words; the final subtraction oblivious
 *   cky             BPBC CKY parsing (seed 000 ch. 7) of 32 strings per thread: per cell
 *                   and split k, b reads of T[i, k], b of T[k + 1, j], the rules' circuit
 *                   in local memory, then b writes of T[i, j]
 *   school, comba   C = A * B, w = bits / 32 words each (seed 002 ch. 3, Algorithms 1 and 2,
 *                   Table 3.1's reads and writes); layout A (w), B (w), C (2w): 4w words,
 *                   least significant word first
 *
 * A call is a device-to-device copy of the inputs into the working memory (not a kernel,
 * not timed under CUPTI) and the kernel.  Each result is checked for every instance on
 * the host against an independent reference: sorted (std::sort of the input), a plain
 * running sum, Dijkstra from every node, a bit-serial (radix-2) Montgomery product, and a
 * schoolbook product (school, comba; all 4w words: A and B unchanged, C = A * B);
 * cky: instances 0, 1, p/2 and p-1, strings 0, 1, 16 and 31 of each, every cell against a
 * straightforward CKY parser (a parse costs n^3 R / 6 rule tests on the host).
 */
#include "measure.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

typedef uint32_t u32;
typedef unsigned long long u64;

constexpr int TPB = 256;
constexpr u32 FW_INF = 0x3fffffffu; /* no arc; INF + INF does not overflow */

/* ---- device: one memory step ---------------------------------------------------------- */

__device__ __forceinline__ u32 ld(const u32 *a) {
  u32 v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(a) : "memory");
  return v;
}

__device__ __forceinline__ void st(u32 *a, u32 v) {
  asm volatile("st.global.u32 [%0], %1;" : : "l"(a), "r"(v) : "memory");
}

/* Instance j's memory: word x at base[x * stride]. */
template <bool COL> struct Inst {
  u32 *base;
  size_t p;
  __device__ Inst(u32 *mem, size_t p_, size_t j, unsigned words) : base(COL ? mem + j : mem + j * words), p(p_) {}
  __device__ u32 *operator()(unsigned x) const { return COL ? base + (size_t)x * p : base + x; }
};

template <bool COL> __global__ void bulk_prefix_sums(u32 *mem, size_t p, unsigned n) {
  const size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= p) return;
  const Inst<COL> a(mem, p, j, n);
  u32 acc = 0;
  for (unsigned x = 0; x < n; x++) {
    acc += ld(a(x));
    st(a(x), acc);
  }
}

template <bool COL> __global__ void bulk_bitonic(u32 *mem, size_t p, unsigned n, unsigned lg) {
  const size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= p) return;
  const Inst<COL> a(mem, p, j, n);
  for (unsigned s = 0; s < lg; s++)
    for (unsigned b = 0; b <= s; b++) {
      const unsigned sh = s - b, J = 1u << sh;
      for (unsigned c = 0; c < n / 2; c++) {
        const unsigned I = ((c >> sh) << (sh + 1)) + (c & (J - 1));
        const bool up = (I & (2u << s)) == 0;
        const unsigned lo = up ? I : I + J, hi = up ? I + J : I;
        const u32 x = ld(a(lo)), y = ld(a(hi));
        st(a(lo), min(x, y));
        st(a(hi), max(x, y));
      }
    }
}

template <bool COL> __global__ void bulk_floyd_warshall(u32 *mem, size_t p, unsigned n) {
  const size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= p) return;
  const Inst<COL> a(mem, p, j, n * n);
  for (unsigned k = 0; k < n; k++)
    for (unsigned r = 0; r < n; r++)
      for (unsigned c = 0; c < n; c++) {
        const u32 x = ld(a(r * n + k)), y = ld(a(k * n + c));
        u32 d = ld(a(r * n + c));
        if (x < FW_INF && y < FW_INF && x + y < d) d = x + y;
        st(a(r * n + c), d);
      }
}

/* The generator's layout (ms-bulk-algos.c mg_base). */
__host__ __device__ inline unsigned mg_base(unsigned s, int part) {
  const unsigned base[] = {0, s, 2 * s, 3 * s, 3 * s + 1, 4 * s + 3, 5 * s + 3};
  return base[part];
}
enum { MG_X, MG_Y, MG_M, MG_MP, MG_T, MG_D, MG_Z };

template <bool COL> __global__ void bulk_montgomery(u32 *mem, size_t p, unsigned s) {
  const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p) return;
  const Inst<COL> a(mem, p, i, 6 * s + 3);
  const unsigned X = mg_base(s, MG_X), Y = mg_base(s, MG_Y), M = mg_base(s, MG_M), MP = mg_base(s, MG_MP);
  const unsigned T = mg_base(s, MG_T), D = mg_base(s, MG_D), Z = mg_base(s, MG_Z);
  for (unsigned j = 0; j < s + 2; j++) st(a(T + j), 0);
  for (unsigned q = 0; q < s; q++) {
    const u64 yi = ld(a(Y + q));
    u64 C = 0, t, u, z;
    for (unsigned j = 0; j < s; j++) {
      t = ld(a(T + j));
      u = ld(a(X + j));
      z = t + u * yi + C;
      st(a(T + j), (u32)z);
      C = z >> 32;
    }
    t = ld(a(T + s));
    z = t + C;
    st(a(T + s), (u32)z);
    st(a(T + s + 1), (u32)(z >> 32));
    const u64 t0 = ld(a(T));
    u = ld(a(MP));
    const u64 m = (u32)(t0 * u);
    u = ld(a(M));
    C = (t0 + m * u) >> 32;
    for (unsigned j = 1; j < s; j++) {
      t = ld(a(T + j));
      u = ld(a(M + j));
      z = t + m * u + C;
      st(a(T + j - 1), (u32)z);
      C = z >> 32;
    }
    t = ld(a(T + s));
    z = t + C;
    st(a(T + s - 1), (u32)z);
    C = z >> 32;
    t = ld(a(T + s + 1));
    st(a(T + s), (u32)(t + C));
  }
  u64 borrow = 0;
  for (unsigned j = 0; j < s; j++) { /* D = T - M */
    const u64 t = ld(a(T + j)), u = ld(a(M + j));
    st(a(D + j), (u32)(t - u - borrow));
    borrow = t < u + borrow;
  }
  const u64 top = ld(a(T + s)); /* T >= M unless the subtraction borrowed past T's top word */
  for (unsigned j = 0; j < s; j++) {
    const u32 t = ld(a(T + j)), u = ld(a(D + j));
    st(a(Z + j), top < borrow ? t : u);
  }
}

/* Multiple-length multiplication C = A * B (seed 002 ch. 3; the generator's school and comba
 * programs), w = bits / 32 words, A at 0, B at w, C at 2w (2w words), least significant word
 * first.  An operand register is loaded again only when its index differs from the one it
 * holds (Table 3.1).
 * School (Algorithm 1): b_j once per row, a_i every product, c_{i+j} read from row 1 on (row 0
 * writes c_0 .. c_{w-1} without reading them: C <- 0 for free), c_{w+j} = u at the row's end;
 * 2 w^2 reads, w^2 + w writes. */
template <bool COL> __global__ void bulk_school(u32 *mem, size_t p, unsigned w) {
  const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= p) return;
  const Inst<COL> a(mem, p, t, 4 * w);
  const unsigned A = 0, B = w, C = 2 * w;
  for (unsigned j = 0; j < w; j++) {
    const u64 bj = ld(a(B + j));
    u64 u = 0;
    for (unsigned i = 0; i < w; i++) {
      const u64 ai = ld(a(A + i));
      const u64 c = j ? ld(a(C + i + j)) : 0;
      const u64 z = ai * bj + c + u; /* <= 2^64 - 1 */
      st(a(C + i + j), (u32)z);
      u = z >> 32;
    }
    st(a(C + w + j), (u32)u);
  }
}

/* Comba's {t, u, v}: 96 bits as hi:lo (hi < 2^32). */
struct Acc96 {
  u64 lo = 0, hi = 0;
  __device__ void mac(u64 x, u64 y) {
    const u64 q = x * y;
    lo += q;
    hi += lo < q;
  }
  /* the low word; then the accumulator shifted right 32 bits */
  __device__ u32 shift() {
    const u32 v = (u32)lo;
    lo = (lo >> 32) | (hi << 32);
    hi = 0;
    return v;
  }
};

/* Comba (Algorithm 2, column order): a_j and b_{i-j} every product of column i, except a_0
 * (still held from column 0 into column 1) and a_{w-1} (from column 2w-3 into column 2w-2);
 * c_i once per column.  2 w^2 - 2 reads (w >= 2), 2 w writes. */
template <bool COL> __global__ void bulk_comba(u32 *mem, size_t p, unsigned w) {
  const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= p) return;
  const Inst<COL> m(mem, p, t, 4 * w);
  const unsigned A = 0, B = w, C = 2 * w;
  Acc96 acc;
  u64 x = ld(m(A)), y = ld(m(B)); /* column 0 */
  acc.mac(x, y);
  st(m(C), acc.shift());
  if (w >= 2) {
    y = ld(m(B + 1)); /* column 1: b_1 with a_0 still held */
    acc.mac(x, y);
    x = ld(m(A + 1));
    y = ld(m(B));
    acc.mac(x, y);
    st(m(C + 1), acc.shift());
    for (unsigned i = 2; i + 2 < 2 * w; i++) { /* columns 2 .. 2w-3 */
      const unsigned j0 = i >= w ? i - w + 1 : 0, j1 = i < w ? i : w - 1;
      for (unsigned j = j0; j <= j1; j++) {
        x = ld(m(A + j));
        y = ld(m(B + i - j));
        acc.mac(x, y);
      }
      st(m(C + i), acc.shift());
    }
    y = ld(m(B + w - 1)); /* column 2w-2: b_{w-1} with a_{w-1} still held */
    acc.mac(x, y);
    st(m(C + 2 * w - 2), acc.shift());
  }
  st(m(C + 2 * w - 1), acc.shift());
}

/* BPBC CKY parsing (seed 000 ch. 7; the generator's cky program): 32 strings per word,
 * cell (i, j) at (j (j + 1) / 2 + i) * b, one word per non-terminal; per cell, bottom row
 * first and right to left, per k: b reads of T[i, k], b reads of T[k + 1, j], then the
 * circuit (W_A |= U_B & V_C per binary rule, rules packed A | B << 10 | C << 20), and after
 * the last k the b writes of T[i, j].  U, V, W live in the thread's local memory (b <= 512,
 * the generator's limit: 6 KB a thread; the records of cky.json and cky-table72.json were
 * made when the arrays held 64). */
constexpr unsigned CKY_MAXB = 512;

template <bool COL>
__global__ void bulk_cky(u32 *mem, size_t p, unsigned n, unsigned b, const u32 *__restrict__ rules, unsigned nr) {
  const size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= p) return;
  const Inst<COL> a(mem, p, j, b * (n * (n + 1) / 2));
  u32 U[CKY_MAXB], V[CKY_MAXB], W[CKY_MAXB];
  for (unsigned jj = 0; jj + 1 < n; jj++)
    for (unsigned ii = 0; ii <= jj; ii++) {
      const unsigned i = jj - ii, jc = jj + 1;
      for (unsigned x = 0; x < b; x++) W[x] = 0;
      for (unsigned kk = 0; kk <= ii; kk++) {
        const unsigned k = i + kk, cu = (k * (k + 1) / 2 + i) * b, cv = (jc * (jc + 1) / 2 + k + 1) * b;
        for (unsigned x = 0; x < b; x++) U[x] = ld(a(cu + x));
        for (unsigned x = 0; x < b; x++) V[x] = ld(a(cv + x));
        for (unsigned r = 0; r < nr; r++) {
          const u32 q = __ldg(rules + r);
          W[q & 1023u] |= U[(q >> 10) & 1023u] & V[q >> 20];
        }
      }
      const unsigned cw = (jc * (jc + 1) / 2 + i) * b;
      for (unsigned x = 0; x < b; x++) st(a(cw + x), W[x]);
    }
}

/* ---- host ----------------------------------------------------------------------------- */

/* f(begin, end) over [0, n) in one contiguous chunk per hardware thread: the host work of
 * the largest records (16 GB of instances to arrange, sort and compare) would otherwise take
 * minutes of one core on the device machine. */
template <class F> void par_chunks(size_t n, F f) {
  const size_t t = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  if (n < 4096 || t == 1) {
    f((size_t)0, n);
    return;
  }
  std::vector<std::thread> th;
  for (size_t i = 0; i < t; i++) th.emplace_back(f, n * i / t, n * (i + 1) / t);
  for (auto &x : th) x.join();
}

/* New algorithms go at the end: make_inputs' random stream depends on the value. */
enum Alg { PREFIX, BITONIC, FW, MONT, CKY, SCHOOL, COMBA };
const char *const alg_names[] = {"prefix-sums", "bitonic", "floyd-warshall", "montgomery", "cky", "school", "comba"};

/* The CKY grammar of a run (the same for every instance): `nr` distinct rules A -> BC of
 * b^3, packed as in bulk_cky, and term[t * b + A] = 1 if A -> t (two terminals, each
 * derived by about a quarter of the non-terminals). */
struct CkyGrammar {
  unsigned b = 0;
  std::vector<u32> rules;
  std::vector<char> term;
};

CkyGrammar cky_grammar(unsigned b, unsigned nr, uint64_t seed) {
  CkyGrammar g;
  g.b = b;
  MsRng rng(seed * 7919 + 3);
  const u64 n3 = (u64)b * b * b;
  std::vector<char> used(n3, 0);
  while (g.rules.size() < nr) {
    const u64 x = rng.below(n3);
    if (used[x]) continue;
    used[x] = 1;
    const u32 A = (u32)(x / ((u64)b * b)), B = (u32)(x / b % b), C = (u32)(x % b);
    g.rules.push_back(A | B << 10 | C << 20);
  }
  g.term.resize(2 * b);
  for (unsigned i = 0; i < 2 * b; i++) g.term[i] = rng.below(4) == 0;
  return g;
}

inline unsigned cky_cell(unsigned i, unsigned j) { return j * (j + 1) / 2 + i; }

/* A straightforward CKY parser (byte sets) for string s of an instance's input (its
 * diagonal), compared cell by cell with the kernel's table. */
std::string cky_check(const CkyGrammar &g, unsigned n, const u32 *in, const u32 *got, size_t inst, unsigned s) {
  const unsigned b = g.b;
  std::vector<char> T((size_t)n * n * b, 0);
  auto at = [&](unsigned i, unsigned j) { return T.data() + ((size_t)i * n + j) * b; };
  for (unsigned i = 0; i < n; i++)
    for (unsigned A = 0; A < b; A++) at(i, i)[A] = in[cky_cell(i, i) * b + A] >> s & 1;
  for (unsigned j = 1; j < n; j++)
    for (unsigned i = j; i-- > 0;)
      for (unsigned k = i; k < j; k++)
        for (u32 q : g.rules)
          if (at(i, k)[(q >> 10) & 1023u] && at(k + 1, j)[q >> 20]) at(i, j)[q & 1023u] = 1;
  for (unsigned j = 0; j < n; j++)
    for (unsigned i = 0; i <= j; i++)
      for (unsigned A = 0; A < b; A++)
        if ((got[cky_cell(i, j) * b + A] >> s & 1) != (u32)at(i, j)[A])
          return ms_fmt("cky: instance %zu string %u: non-terminal %u in T[%u, %u] is %u, the CKY parser says %d", inst, s, A,
                        i, j, got[cky_cell(i, j) * b + A] >> s & 1, at(i, j)[A]);
  return "";
}

unsigned log2u(unsigned v) {
  unsigned r = 0;
  while ((1u << r) < v) r++;
  return r;
}

/* Word x of instance j, in the arrangement. */
struct Layout {
  size_t p;
  unsigned words;
  bool col;
  size_t at(size_t j, unsigned x) const { return col ? (size_t)x * p + j : j * words + x; }
  /* instance-major (word x of instance j at j * words + x) to the arrangement, or back; in tiles of 64
   * instances so that neither side is walked with a stride alone */
  void convert(const u32 *src, u32 *dst, bool back) const {
    par_chunks((p + 63) / 64, [&](size_t t0, size_t t1) { /* tiles are disjoint in dst */
      for (size_t j0 = t0 * 64; j0 < std::min(p, t1 * 64); j0 += 64)
        for (unsigned x = 0; x < words; x++)
          for (size_t j = j0; j < std::min(p, j0 + 64); j++) {
            if (back) dst[j * words + x] = src[at(j, x)];
            else dst[at(j, x)] = src[j * words + x];
          }
    });
  }
};

/* The inputs of every instance (instance-major in `in`: in[j * words + x]). */
void make_inputs(Alg alg, unsigned size, size_t p, unsigned words, uint64_t seed, std::vector<u32> &in,
                 const CkyGrammar *g = nullptr) {
  in.assign(p * words, 0);
  MsRng rng(seed * 104729 + 17 + alg);
  for (size_t j = 0; j < p; j++) {
    u32 *w = in.data() + j * words;
    if (alg == CKY) { /* garbage above the diagonal (written before read); 32 random strings */
      const unsigned b = g->b;
      for (unsigned x = 0; x < words; x++) w[x] = rng.u32();
      for (unsigned i = 0; i < size; i++) {
        u32 *cell = w + cky_cell(i, i) * b;
        for (unsigned A = 0; A < b; A++) cell[A] = 0;
        for (unsigned st = 0; st < 32; st++) {
          const unsigned t = (unsigned)rng.below(2);
          for (unsigned A = 0; A < b; A++) cell[A] |= (u32)g->term[t * b + A] << st;
        }
      }
    } else if (alg == FW) {
      for (unsigned r = 0; r < size; r++)
        for (unsigned c = 0; c < size; c++)
          w[r * size + c] = r == c ? 0 : rng.below(4) == 0 ? 1 + (u32)rng.below(1000) : FW_INF;
    } else if (alg == MONT) {
      const unsigned s = size / 32;
      for (unsigned x = 0; x < words; x++) w[x] = rng.u32();
      u32 *m = w + mg_base(s, MG_M);
      m[0] |= 1;
      m[s - 1] |= 1u << 31;
      w[mg_base(s, MG_X) + s - 1] %= m[s - 1];
      w[mg_base(s, MG_Y) + s - 1] %= m[s - 1];
      u32 inv = m[0]; /* Newton: M0^-1 mod 2^32 */
      for (int i = 0; i < 5; i++) inv *= 2 - m[0] * inv;
      w[mg_base(s, MG_MP)] = 0u - inv;
    } else {
      for (unsigned x = 0; x < words; x++) w[x] = rng.u32();
    }
  }
}

/* X * Y * 2^-bits mod M, bit by bit (radix 2: T = (T + y_i X [+ M]) / 2), then T - M if
 * T >= M.  Independent of the kernel's word-serial CIOS. */
std::vector<u32> mont_reference(const u32 *x, const u32 *y, const u32 *m, unsigned s) {
  std::vector<u64> t(s + 1, 0);
  for (unsigned i = 0; i < 32 * s; i++) {
    if (y[i / 32] >> (i % 32) & 1) {
      u64 c = 0;
      for (unsigned k = 0; k <= s; k++) {
        c += t[k] + (k < s ? x[k] : 0);
        t[k] = c & 0xffffffffu;
        c >>= 32;
      }
    }
    if (t[0] & 1) {
      u64 c = 0;
      for (unsigned k = 0; k <= s; k++) {
        c += t[k] + (k < s ? m[k] : 0);
        t[k] = c & 0xffffffffu;
        c >>= 32;
      }
    }
    for (unsigned k = 0; k <= s; k++) t[k] = (t[k] >> 1) | (k < s ? (t[k + 1] & 1) << 31 : 0);
  }
  bool ge = t[s] != 0;
  if (!ge) {
    ge = true;
    for (unsigned k = s; k-- > 0;)
      if (t[k] != m[k]) { ge = t[k] > m[k]; break; }
  }
  std::vector<u32> r(s);
  u64 borrow = 0;
  for (unsigned k = 0; k < s; k++) {
    const u64 d = t[k] - m[k] - borrow;
    borrow = t[k] < (u64)m[k] + borrow;
    r[k] = ge ? (u32)d : (u32)t[k];
  }
  return r;
}

/* The expected result of instance j (instance-major `in`); "" or why `got` is wrong. */
std::string check_instance(Alg alg, unsigned size, unsigned words, const u32 *in, const u32 *got, size_t j) {
  std::vector<u32> want(in, in + words);
  unsigned from = 0, to = words;
  if (alg == PREFIX) {
    for (unsigned x = 1; x < words; x++) want[x] += want[x - 1];
  } else if (alg == BITONIC) {
    std::sort(want.begin(), want.end());
  } else if (alg == FW) { /* Dijkstra (array scan) from every node on the input arcs */
    const unsigned n = size;
    std::vector<u64> dist(n);
    std::vector<char> done(n);
    for (unsigned src = 0; src < n; src++) {
      for (unsigned v = 0; v < n; v++) dist[v] = v == src ? 0 : FW_INF, done[v] = 0;
      for (;;) {
        unsigned u = n;
        for (unsigned v = 0; v < n; v++)
          if (!done[v] && dist[v] < FW_INF && (u == n || dist[v] < dist[u])) u = v;
        if (u == n) break;
        done[u] = 1;
        for (unsigned v = 0; v < n; v++) {
          const u32 w = in[u * n + v];
          if (v != u && w < FW_INF && dist[u] + w < dist[v]) dist[v] = dist[u] + w;
        }
      }
      for (unsigned v = 0; v < n; v++) want[src * n + v] = (u32)dist[v];
    }
  } else if (alg == SCHOOL || alg == COMBA) { /* A and B unchanged, C = A * B (schoolbook, u64) */
    const unsigned w = size / 32;
    std::vector<u64> c(2 * w, 0);
    for (unsigned i = 0; i < w; i++) {
      u64 carry = 0;
      for (unsigned k = 0; k < w; k++) {
        const u64 z = (u64)in[i] * in[w + k] + c[i + k] + carry;
        c[i + k] = z & 0xffffffffu;
        carry = z >> 32;
      }
      c[i + w] = carry;
    }
    for (unsigned x = 0; x < 2 * w; x++) want[2 * w + x] = (u32)c[x];
  } else {
    const unsigned s = size / 32;
    std::vector<u32> z = mont_reference(in + mg_base(s, MG_X), in + mg_base(s, MG_Y), in + mg_base(s, MG_M), s);
    from = mg_base(s, MG_Z);
    to = from + s;
    std::copy(z.begin(), z.end(), want.begin() + from);
  }
  for (unsigned x = from; x < to; x++) {
    if (got[x] != want[x])
      return ms_fmt("%s: instance %zu word %u: got %u want %u", alg_names[alg], j, x, got[x], want[x]);
  }
  return "";
}

/* One algorithm at one size: every p, both arrangements (column-wise only with col_only).
 * cky: b non-terminals, nr rules. */
void run_alg(const MsOptions &o, Alg alg, unsigned size, const std::vector<size_t> &ps, unsigned b = 32,
             unsigned nr = 8192, bool col_only = false) {
  if (!ms_selected(alg_names[alg])) return;
  if (alg == CKY && (b == 0 || b > CKY_MAXB)) {
    std::fprintf(stderr, "bulk cky: %u non-terminals: the kernel holds 1 to %u\n", b, CKY_MAXB);
    return;
  }
  const bool bits = alg == MONT || alg == SCHOOL || alg == COMBA; /* size is bits */
  const unsigned words = alg == FW ? size * size : alg == MONT ? 6 * (size / 32) + 3
                         : alg == SCHOOL || alg == COMBA ? 4 * (size / 32)
                         : alg == CKY ? b * (size * (size + 1) / 2) : size;
  CkyGrammar g;
  u32 *d_rules = nullptr;
  if (alg == CKY) {
    g = cky_grammar(b, nr, o.seed);
    MS_CUDA(cudaMalloc(&d_rules, nr * sizeof(u32)));
    MS_CUDA(cudaMemcpy(d_rules, g.rules.data(), nr * sizeof(u32), cudaMemcpyHostToDevice));
  }
  for (size_t p : ps) {
    /* `arranged` is copied to the device before the kernel runs, so it also takes the result
     * back (three host copies: the largest records hold 16 GB each) */
    std::vector<u32> in, arranged(p * words), got(p * words);
    std::vector<u32> &out = arranged;
    make_inputs(alg, size, p, words, o.seed, in, &g);
    const size_t bytes = p * words * sizeof(u32);
    u32 *d_in, *d_mem;
    MS_CUDA(cudaMalloc(&d_in, bytes));
    MS_CUDA(cudaMalloc(&d_mem, bytes));
    const unsigned tpb = p < (size_t)TPB ? (unsigned)p : (unsigned)TPB;
    const unsigned grid = (unsigned)((p + tpb - 1) / tpb);
    for (int col = 1; col >= (col_only ? 1 : 0); col--) {
      const Layout L{p, words, col != 0};
      L.convert(in.data(), arranged.data(), false);
      MS_CUDA(cudaMemcpy(d_in, arranged.data(), bytes, cudaMemcpyHostToDevice));
      MsRecord r;
      r.workload = "bulk";
      r.algorithm = alg_names[alg];
      r.p(bits ? "bits" : "n", (long long)size);
      if (alg == CKY) {
        r.p("nonterminals", (long long)b);
        r.p("rules", (long long)nr);
      }
      r.p("p", (long long)p);
      r.p("arrangement", col ? "column" : "row");
      r.p("threads_per_block", (long long)tpb);
      r.p("seed", (long long)o.seed);
      r.x("words", (long long)words);
      auto launch = [&] {
        MS_CUDA(cudaMemcpyAsync(d_mem, d_in, bytes, cudaMemcpyDeviceToDevice));
        const unsigned lg = log2u(size), s = size / 32;
        switch (alg * 2 + col) {
        case PREFIX * 2 + 1: bulk_prefix_sums<true><<<grid, tpb>>>(d_mem, p, size); break;
        case PREFIX * 2: bulk_prefix_sums<false><<<grid, tpb>>>(d_mem, p, size); break;
        case BITONIC * 2 + 1: bulk_bitonic<true><<<grid, tpb>>>(d_mem, p, size, lg); break;
        case BITONIC * 2: bulk_bitonic<false><<<grid, tpb>>>(d_mem, p, size, lg); break;
        case FW * 2 + 1: bulk_floyd_warshall<true><<<grid, tpb>>>(d_mem, p, size); break;
        case FW * 2: bulk_floyd_warshall<false><<<grid, tpb>>>(d_mem, p, size); break;
        case MONT * 2 + 1: bulk_montgomery<true><<<grid, tpb>>>(d_mem, p, s); break;
        case MONT * 2: bulk_montgomery<false><<<grid, tpb>>>(d_mem, p, s); break;
        case CKY * 2 + 1: bulk_cky<true><<<grid, tpb>>>(d_mem, p, size, b, d_rules, nr); break;
        case CKY * 2: bulk_cky<false><<<grid, tpb>>>(d_mem, p, size, b, d_rules, nr); break;
        case SCHOOL * 2 + 1: bulk_school<true><<<grid, tpb>>>(d_mem, p, s); break;
        case SCHOOL * 2: bulk_school<false><<<grid, tpb>>>(d_mem, p, s); break;
        case COMBA * 2 + 1: bulk_comba<true><<<grid, tpb>>>(d_mem, p, s); break;
        default: bulk_comba<false><<<grid, tpb>>>(d_mem, p, s); break;
        }
      };
      auto verify = [&]() -> std::string {
        MS_CUDA(cudaMemcpy(out.data(), d_mem, bytes, cudaMemcpyDeviceToHost));
        L.convert(out.data(), got.data(), true);
        if (alg == CKY) { /* instances 0, 1, p/2, p-1; strings 0, 1, 16, 31 of each (a parse is n^3 R / 6),
                             one host thread per parse */
          std::vector<std::pair<size_t, unsigned>> parses;
          for (size_t j : {(size_t)0, (size_t)1, p / 2, p - 1})
            for (unsigned st : {0u, 1u, 16u, 31u})
              if (j < p) parses.emplace_back(j, st);
          std::vector<std::string> err(parses.size());
          std::vector<std::thread> th;
          for (size_t i = 0; i < parses.size(); i++)
            th.emplace_back([&, i] {
              const size_t j = parses[i].first;
              err[i] = cky_check(g, size, in.data() + j * words, got.data() + j * words, j, parses[i].second);
            });
          for (auto &x : th) x.join();
          for (const std::string &e : err)
            if (!e.empty()) return e;
          return "";
        }
        /* every instance, in parallel chunks; the first failing instance of the lowest chunk */
        const size_t t = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
        std::vector<std::string> err(t);
        const size_t nch = p < 4096 ? 1 : t;
        std::vector<std::thread> th;
        for (size_t c = 0; c < nch; c++)
          th.emplace_back([&, c] {
            for (size_t j = p * c / nch; j < p * (c + 1) / nch; j++) {
              err[c] = check_instance(alg, size, words, in.data() + j * words, got.data() + j * words, j);
              if (!err[c].empty()) return;
            }
          });
        for (auto &x : th) x.join();
        for (const std::string &e : err)
          if (!e.empty()) return e;
        return "";
      };
      ms_measure(r, [&] { MS_CUDA(cudaMemset(d_mem, 0xff, bytes)); }, launch, verify);
    }
    MS_CUDA(cudaFree(d_in));
    MS_CUDA(cudaFree(d_mem));
  }
  if (d_rules) MS_CUDA(cudaFree(d_rules));
}

std::vector<size_t> pows(std::initializer_list<int> e) {
  std::vector<size_t> v;
  for (int x : e) v.push_back((size_t)1 << x);
  return v;
}

} // namespace

void ms_run_bulk(const MsOptions &o) {
  const bool small = o.quick || o.counters;
  std::printf("bulk: prefix-sums, bitonic, floyd-warshall, montgomery, cky, school, comba; column- and row-wise%s\n",
              small ? " (quick sizes)" : "");
  if (small) {
    run_alg(o, PREFIX, 1024, pows({8, 12}));
    run_alg(o, BITONIC, 32, pows({10, 12}));
    run_alg(o, BITONIC, 1024, pows({10}));
    run_alg(o, FW, 16, pows({10}));
    run_alg(o, MONT, 256, pows({10}));
    run_alg(o, CKY, 16, pows({10}), 16, 512);
    return;
  }
  /* MEMSIM_BULK_SWEEP=figure8: seed 003's Figure 8, time against p for each program;
   * sizes: the seed's larger instances (bitonic 32K, floyd-warshall 64 and 128, Montgomery
   * 1024 and 4096 bits) and bitonic 32 further in p (2^22, 2^24);
   * table7.2: seed 000's Table 7.2, CKY time against non-terminals and rules (32 strings
   * per thread, one warp);
   * cky-large: CKY with 128, 256 and 512 non-terminals, 4096 rules (n = 32, p = 32);
   * figure8-1k, figure8-32k: Figure 8's bitonic n = 1K (p = 2^16 .. 2^22, the seed's 4M)
   * and n = 32K (p = 2^12 .. 2^17; from 2^16 column-wise only), up to 16 GB of instances
   * (32 GB on the GPU, 48 GB on the host);
   * cky-rules: CKY column-wise with 32768 rules (32 non-terminals, all 32^3) and 16384 to
   * 131072 rules (64 non-terminals), n = 32, p = 32;
   * mul: seed 002's School and Comba (Table 3.1), one thread per product: 256 and 1024 bits
   * at p = 2^10, 2^14 and 102400 (400 blocks of 256), 2048 bits at p = 2^10 and 2^14.
   * mul-table34: Comba column-wise at Table 3.4's 10240 products, 1024 to 8192 bits (beside
   * kernels/toom.cu's Toom-k at the same sizes).
   * Each replaces the default sweep. */
  const char *sweep = std::getenv("MEMSIM_BULK_SWEEP");
  if (sweep && std::string(sweep) == "figure8") {
    run_alg(o, BITONIC, 32, pows({6, 8, 10, 12, 14, 16, 18, 20}));
    run_alg(o, FW, 32, pows({6, 8, 10, 12, 14, 16}));
    run_alg(o, MONT, 256, pows({6, 8, 10, 12, 14, 16, 18}));
    return;
  }
  if (sweep && std::string(sweep) == "sizes") {
    run_alg(o, BITONIC, 32768, pows({6, 10}));
    run_alg(o, FW, 64, pows({6, 10}));
    run_alg(o, FW, 128, pows({8}));
    run_alg(o, MONT, 1024, pows({8, 12, 16}));
    run_alg(o, MONT, 4096, pows({8, 12}));
    run_alg(o, BITONIC, 32, pows({22, 24}));
    return;
  }
  if (sweep && std::string(sweep) == "table7.2") {
    for (unsigned nr : {32u, 256u, 2048u, 16384u}) run_alg(o, CKY, 32, pows({5}), 32, nr);
    for (unsigned nr : {64u, 512u, 4096u}) run_alg(o, CKY, 32, pows({5}), 64, nr);
    return;
  }
  if (sweep && std::string(sweep) == "cky-large") { /* Table 7.2's larger grammars */
    for (unsigned b : {128u, 256u, 512u}) run_alg(o, CKY, 32, pows({5}), b, 4096);
    return;
  }
  if (sweep && std::string(sweep) == "figure8-1k") { /* Figure 8's bitonic 1K to 16 GB */
    run_alg(o, BITONIC, 1024, pows({16, 18, 20, 22}));
    return;
  }
  if (sweep && std::string(sweep) == "figure8-32k") { /* Figure 8's bitonic 32K to 16 GB; row-wise at
                                                          2^16 did not finish in a 250 s device call */
    run_alg(o, BITONIC, 32768, pows({12, 14}));
    run_alg(o, BITONIC, 32768, pows({16, 17}), 32, 8192, true);
    return;
  }
  if (sweep && std::string(sweep) == "cky-rules") { /* Table 7.2's rule counts above 16384 */
    run_alg(o, CKY, 32, pows({5}), 32, 32768, true);
    for (unsigned nr : {16384u, 32768u, 65536u, 131072u}) run_alg(o, CKY, 32, pows({5}), 64, nr, true);
    return;
  }
  if (sweep && std::string(sweep) == "mul-table34") {
    for (unsigned bits : {1024u, 2048u, 4096u, 8192u}) run_alg(o, COMBA, bits, {10240}, 32, 8192, true);
    return;
  }
  if (sweep && std::string(sweep) == "mul") {
    const std::vector<size_t> ps = {(size_t)1 << 10, (size_t)1 << 14, 102400};
    for (Alg alg : {SCHOOL, COMBA}) {
      run_alg(o, alg, 256, ps);
      run_alg(o, alg, 1024, ps);
      run_alg(o, alg, 2048, pows({10, 14}));
    }
    return;
  }
  /* CKY: Table 7.1's strings of 32 symbols, 32 non-terminals, 8192 rules, M = 32 p strings */
  run_alg(o, CKY, 32, pows({5, 8, 11, 14}), 32, 8192);
  run_alg(o, PREFIX, 1024, pows({8, 10, 12, 14, 16, 18, 20}));
  run_alg(o, BITONIC, 32, pows({10, 14, 18}));
  run_alg(o, BITONIC, 1024, pows({10, 14}));
  run_alg(o, FW, 32, pows({10, 14}));
  run_alg(o, MONT, 256, pows({10, 14, 16}));
}
