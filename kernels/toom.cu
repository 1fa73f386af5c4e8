/* Toom-k multiplication (`--workload mul`, algorithms toom-2 ... toom-9): seed 002's
 * section 3.3.2, two kernels, C = A * B for P products of w = bits / 32 words.  The trace of
 * the same accesses is `memsim gen mul -a toom-K` (sim/workloads/mul/ms-toom.c, whose header
 * comment is the algorithm; docs/workloads/mul.md, "Toom-k").  In short:
 *
 *   n = ceil(w / k) words a part, m = n + 1, N = 2k - 3, 2k - 1 points g: g = 0 is x = 0,
 *   g = 1 is infinity, g >= 2 is x = g - 1 (1 .. N); L = 2n + 4 words a work array.
 *   toom_points, one thread per point and product (tid = g P + q): g < 2 Comba of part 0
 *     (part k - 1) of A and B into V_g; g >= 2 EA = A(x), EB = B(x) (m words) then Comba of
 *     EA and EB into V_g.
 *   toom_interp, one thread per product: first divided differences of C(x) - C_inf x^(2k-2)
 *     from V, divided differences by exact division, Newton to monomial form, recomposition.
 * Global memory (32-bit words), column-wise across products: slot s of product q of an array
 * at base + s P + q; arrays A, B (k n slots), EA, EB (m (2k-1)), V ((2n+2)(2k-1)), W (L N),
 * C (2w).  Every global access is an `ld.global.u32` / `st.global.u32` in inline PTX, asm
 * volatile with a "memory" clobber (as kernels/mul.cu), so the accesses are the trace's, one
 * for one.  Comba reads an operand word unless the register already holds it.
 *
 * Inputs: word x of operand o (0 = A, 1 = B) of product q is ms_toom_word(seed, o, q, P, w, x)
 * (the generator's counter-based splitmix64), the k n - w padding words 0.  A call is both
 * kernels (A and B are never written).  Check: every product modulo two primes near 2^61
 * (A B mod p against C mod p), and three products (the first, middle and last) word for word
 * against a host schoolbook product.
 */
#include "measure.h"

#include <cstdlib>
#include <string>
#include <thread>

namespace {

typedef uint32_t u32;
typedef unsigned long long u64;
typedef unsigned __int128 u128;

enum { AR_A, AR_B, AR_EA, AR_EB, AR_V, AR_W, AR_C, AR_N };

struct Shape {
  unsigned k;
  u64 w, n, m, N, PT, L, P;
  u64 slots[AR_N], base[AR_N];
};

Shape shape(unsigned k, u64 w, u64 P) {
  Shape s;
  s.k = k;
  s.w = w;
  s.n = (w + k - 1) / k;
  s.m = s.n + 1;
  s.N = 2 * (u64)k - 3;
  s.PT = 2 * (u64)k - 1;
  s.L = 2 * s.n + 4;
  s.P = P;
  s.slots[AR_A] = s.slots[AR_B] = k * s.n;
  s.slots[AR_EA] = s.slots[AR_EB] = s.m * s.PT;
  s.slots[AR_V] = (2 * s.n + 2) * s.PT;
  s.slots[AR_W] = s.L * s.N;
  s.slots[AR_C] = 2 * w;
  u64 b = 0;
  for (int a = 0; a < AR_N; a++) {
    s.base[a] = b;
    b += s.slots[a] * P;
  }
  return s;
}

u64 shape_words(const Shape &s) { return s.base[AR_C] + s.slots[AR_C] * s.P; }

u32 toom_word(u64 seed, u64 o, u64 q, u64 P, u64 w, u64 x) { /* = ms_toom_word */
  u64 z = seed * 0x9E3779B97F4A7C15ull + ((o * P + q) * w + x + 1) * 0xD1B54A32D192ED03ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (u32)((z ^ (z >> 31)) >> 32);
}

/* ---- device ----------------------------------------------------------------------------- */

__device__ __forceinline__ u32 ld(const u32 *a) {
  u32 v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(a) : "memory");
  return v;
}

__device__ __forceinline__ void st(u32 *a, u32 v) {
  asm volatile("st.global.u32 [%0], %1;" : : "l"(a), "r"(v) : "memory");
}

/* Comba of m-word a (word j at a[j as]) and b into o (2m words, word c at o[c os]). */
__device__ void comba(const u32 *a, u64 as, const u32 *b, u64 bs, u64 m, u32 *o, u64 os) {
  u32 ra = 0, rb = 0;
  u64 ja = ~0ull, jb = ~0ull;
  u128 acc = 0;
  for (u64 c = 0; c + 1 < 2 * m; c++) {
    const u64 lo = c >= m ? c - m + 1 : 0, hi = c < m - 1 ? c : m - 1;
    for (u64 j = lo; j <= hi; j++) {
      if (ja != j) ra = ld(a + j * as), ja = j;
      if (jb != c - j) rb = ld(b + (c - j) * bs), jb = c - j;
      acc += (u64)ra * rb;
    }
    st(o + c * os, (u32)acc);
    acc >>= 32;
  }
  st(o + (2 * m - 1) * os, (u32)acc);
}

__global__ void toom_points(u32 *mem, Shape s) {
  const u64 tid = (u64)blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= s.PT * s.P) return;
  const u64 P = s.P, g = tid / P, q = tid % P, n = s.n, PTP = s.PT * P;
  const u32 *A = mem + s.base[AR_A] + q, *B = mem + s.base[AR_B] + q;
  u32 *V = mem + s.base[AR_V] + tid;
  if (g < 2) {
    const u64 off = g == 0 ? 0 : (s.k - 1) * n;
    comba(A + off * P, P, B + off * P, P, n, V, PTP);
    return;
  }
  const u64 x = g - 1;
  u32 *EA = mem + s.base[AR_EA] + tid, *EB = mem + s.base[AR_EB] + tid;
  for (int o = 0; o < 2; o++) {
    const u32 *S = o ? B : A;
    u32 *E = o ? EB : EA;
    u128 acc = 0;
    for (u64 y = 0; y < n; y++) {
      u64 xp = 1;
      for (unsigned j = 0; j < s.k; j++, xp *= x) acc += (u128)xp * ld(S + (j * n + y) * P);
      st(E + y * PTP, (u32)acc);
      acc >>= 32;
    }
    st(E + n * PTP, (u32)acc);
  }
  comba(EA, PTP, EB, PTP, s.m, V, PTP);
}

__device__ __forceinline__ u32 inverse32(u32 o) {
  u32 x = o;
  for (int i = 0; i < 5; i++) x *= 2 - o * x;
  return x;
}

__device__ __forceinline__ u64 upow(u64 b, unsigned e) {
  u64 r = 1;
  while (e--) r *= b;
  return r;
}

__global__ void toom_interp(u32 *mem, Shape s) {
  const u64 q = (u64)blockIdx.x * blockDim.x + threadIdx.x;
  if (q >= s.P) return;
  const u64 P = s.P, n = s.n, N = s.N, L = s.L, PT = s.PT;
  const unsigned k = s.k, ex = 2 * k - 2;
  u32 *V = mem + s.base[AR_V] + q, *W = mem + s.base[AR_W] + q, *C = mem + s.base[AR_C] + q;
  /* 1. first divided differences of C(x) - C_inf x^e */
  for (u64 i = 1; i <= N; i++) {
    const u64 gi = i + 1, gp = i == 1 ? 0 : i, lp = i == 1 ? 2 * n : 2 * n + 2;
    const u64 d = upow(i, ex) - upow(i - 1, ex);
    __int128 acc = 0;
    for (u64 y = 0; y < L; y++) {
      const u32 a = y < 2 * n + 2 ? ld(V + (y * PT + gi) * P) : 0;
      const u32 b = y < lp ? ld(V + (y * PT + gp) * P) : 0;
      const u32 c = y < 2 * n ? ld(V + (y * PT + 1) * P) : 0;
      acc += (__int128)a - (__int128)b - (__int128)d * c;
      st(W + (y * N + i - 1) * P, (u32)acc);
      acc >>= 32;
    }
  }
  /* 2. divided differences r = 2 .. N: exact division by r's odd part, then a shift */
  for (u64 r = 2; r <= N; r++) {
    const unsigned sh = __ffsll((long long)r) - 1;
    const u32 o = (u32)(r >> sh), inv = inverse32(o);
    for (u64 i = N; i >= r; i--) {
      long long dacc = 0;
      u32 borrow = 0, prev = 0;
      for (u64 y = 0; y < L; y++) {
        const u32 a = ld(W + (y * N + i - 1) * P), b = ld(W + (y * N + i - 2) * P);
        const long long dv = (long long)a - (long long)b + dacc;
        const u32 dw = (u32)dv;
        dacc = dv >> 32;
        const u32 t = dw - borrow, b1 = dw < borrow, qy = t * inv;
        borrow = (u32)(((u64)qy * o) >> 32) + b1;
        if (y >= 1) st(W + ((y - 1) * N + i - 1) * P, sh ? (prev >> sh) | (qy << (32 - sh)) : prev);
        prev = qy;
      }
      st(W + ((L - 1) * N + i - 1) * P, (u32)((int)prev >> sh));
    }
  }
  /* 3. Newton to monomial form */
  for (u64 sc = N - 1; N >= 2 && sc >= 1; sc--) {
    for (u64 t = sc; t <= N - 1; t++) {
      long long acc = 0;
      for (u64 y = 0; y < L; y++) {
        const u32 a = ld(W + (y * N + t - 1) * P), b = ld(W + (y * N + t) * P);
        acc += (long long)a - (long long)sc * b;
        st(W + (y * N + t - 1) * P, (u32)acc);
        acc >>= 32;
      }
    }
  }
  /* 4. recomposition */
  u64 acc = 0;
  const u64 top_t = 2 * (u64)k - 2;
  for (u64 z = 0; z < 2 * s.w; z++) {
    for (u64 t = 0; t <= top_t; t++) {
      if (z < n * t) continue;
      const u64 y = z - n * t;
      const bool top = t == 0 || t == top_t;
      if (y >= (top ? 2 * n : 2 * n + 1)) continue;
      acc += t == 0 ? ld(V + (y * PT) * P) : top ? ld(V + (y * PT + 1) * P) : ld(W + (y * N + t - 1) * P);
    }
    st(C + z * P, (u32)acc);
    acc >>= 32;
  }
}

/* ---- host ------------------------------------------------------------------------------- */

/* a mod p, a of `len` words (word i at a[i * stride]), p < 2^62 */
u64 mod_words(const u32 *a, u64 len, u64 stride, u64 p) {
  u128 r = 0;
  for (u64 i = len; i-- > 0;) r = ((r << 32) + a[i * stride]) % p;
  return (u64)r;
}

void run_one(unsigned k, unsigned bits, unsigned P, unsigned tpb, std::vector<u32> &host,
             const Shape &s) {
  const char *alg_names[] = {"", "", "toom-2", "toom-3", "toom-4", "toom-5", "toom-6", "toom-7", "toom-8", "toom-9"};
  const char *alg = alg_names[k];
  const u64 words = shape_words(s), w = s.w;
  u32 *d_mem;
  MS_CUDA(cudaMalloc(&d_mem, words * sizeof(u32)));
  MS_CUDA(cudaMemset(d_mem, 0, words * sizeof(u32)));
  MS_CUDA(cudaMemcpy(d_mem, host.data(), 2 * s.slots[AR_A] * P * sizeof(u32), cudaMemcpyHostToDevice));
  u32 *d_c = d_mem + s.base[AR_C];
  const u64 cw = 2 * w * (u64)P;
  std::vector<u32> got(cw);
  MsRecord r;
  r.workload = "mul";
  r.algorithm = alg;
  r.p("bits", (long long)bits);
  r.p("products", (long long)P);
  r.p("threads_per_block", (long long)tpb);
  r.x("points", (long long)s.PT);
  r.x("part_words", (long long)s.n);
  auto launch = [&] {
    toom_points<<<(unsigned)((s.PT * P + tpb - 1) / tpb), tpb>>>(d_mem, s);
    toom_interp<<<(P + tpb - 1) / tpb, tpb>>>(d_mem, s);
  };
  auto verify = [&]() -> std::string {
    MS_CUDA(cudaMemcpy(got.data(), d_c, cw * sizeof(u32), cudaMemcpyDeviceToHost));
    /* every product modulo two primes, on 16 host threads */
    const u64 primes[2] = {2305843009213693951ull /* 2^61 - 1 */, 2305843009213693921ull};
    const unsigned nth = 16;
    std::vector<std::string> notes(nth);
    std::vector<std::thread> th;
    for (unsigned t = 0; t < nth; t++)
      th.emplace_back([&, t] {
        for (u64 q = t; q < P && notes[t].empty(); q += nth)
          for (u64 p : primes) {
            const u64 a = mod_words(host.data() + q, w, P, p), b = mod_words(host.data() + s.base[AR_B] + q, w, P, p);
            const u64 c = mod_words(got.data() + q, 2 * w, P, p);
            if ((u64)((u128)a * b % p) != c) {
              notes[t] = ms_fmt("%s: product %llu: C mod %llu is %llu, A B mod it is %llu", alg, q, p, c,
                                (u64)((u128)a * b % p));
              break;
            }
          }
      });
    for (auto &x : th) x.join();
    for (auto &x : notes)
      if (!x.empty()) return x;
    /* three products word for word */
    const u64 qs[3] = {0, (u64)P / 2, (u64)P - 1};
    std::vector<u64> acc(2 * w);
    for (u64 q : qs) {
      std::fill(acc.begin(), acc.end(), 0);
      for (u64 i = 0; i < w; i++) {
        u64 carry = 0;
        const u64 ai = host[i * P + q];
        for (u64 j = 0; j < w; j++) {
          const u64 z = ai * host[s.base[AR_B] + j * P + q] + acc[i + j] + carry;
          acc[i + j] = z & 0xffffffffu;
          carry = z >> 32;
        }
        acc[i + w] = carry;
      }
      for (u64 z = 0; z < 2 * w; z++)
        if (got[z * P + q] != (u32)acc[z])
          return ms_fmt("%s: product %llu word %llu of C: got %u, the schoolbook product has %u", alg, q, z,
                        got[z * P + q], (u32)acc[z]);
    }
    return std::string();
  };
  ms_measure(r, [&] { MS_CUDA(cudaMemset(d_c, 0xff, cw * sizeof(u32))); }, launch, verify);
  MS_CUDA(cudaFree(d_mem));
}

void run_size(const MsOptions &o, unsigned bits, unsigned P, unsigned tpb) {
  bool any = false;
  for (unsigned k = 2; k <= 9; k++) any |= ms_selected(ms_fmt("toom-%u", k).c_str()) && bits / 32 >= 2 * k;
  if (!any) return;
  for (unsigned k = 2; k <= 9; k++) {
    if (!ms_selected(ms_fmt("toom-%u", k).c_str()) || bits / 32 < 2 * k) continue;
    const Shape s = shape(k, bits / 32, P);
    /* A and B with their padding (slots k n, words w .. k n - 1 zero) */
    std::vector<u32> host(2 * s.slots[AR_A] * (u64)P, 0);
    for (u64 q = 0; q < P; q++)
      for (u64 x = 0; x < s.w; x++) {
        host[x * P + q] = toom_word(o.seed, 0, q, P, s.w, x);
        host[s.base[AR_B] + x * P + q] = toom_word(o.seed, 1, q, P, s.w, x);
      }
    run_one(k, bits, P, tpb, host, s);
  }
}

} // namespace

void ms_run_toom(const MsOptions &o) {
  const bool small = o.quick || o.counters;
  unsigned tpb = 128;
  if (const char *e = std::getenv("MEMSIM_TOOM_TPB")) {
    const long v = std::strtol(e, nullptr, 10);
    if (v < 32 || v > 1024 || v % 32) {
      std::fprintf(stderr, "memsim-measure: MEMSIM_TOOM_TPB: '%s' is not a multiple of 32 from 32 to 1024\n", e);
      return;
    }
    tpb = (unsigned)v;
  }
  std::printf("mul: toom-2 .. toom-9 (seed 002 section 3.3.2: 2k-1 point products, then interpolation), "
              "%u threads a block%s\n", tpb, small ? " (quick sizes)" : "");
  if (small) {
    for (unsigned bits : {1024u, 2048u}) run_size(o, bits, 1024, tpb);
    return;
  }
  /* Table 3.4's sizes above 1024 bits, 10240 products; MEMSIM_TOOM_BITS=a,b,.. picks some */
  std::vector<unsigned> sizes = {2048, 4096, 8192, 16384, 32768, 65536};
  if (const char *e = std::getenv("MEMSIM_TOOM_BITS")) {
    sizes.clear();
    for (const char *p = e; *p;) {
      char *end;
      const long v = std::strtol(p, &end, 10);
      if (end == p || v < 64 || v % 32) {
        std::fprintf(stderr, "memsim-measure: MEMSIM_TOOM_BITS: '%s' is not a list of multiples of 32\n", e);
        return;
      }
      sizes.push_back((unsigned)v);
      p = *end == ',' ? end + 1 : end;
    }
  }
  for (unsigned bits : sizes) run_size(o, bits, 10240, tpb);
}
