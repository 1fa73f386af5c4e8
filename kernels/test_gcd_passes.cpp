/* CPU check of gcd_passes.h (the bulk GCD kernels' code), without a GPU: runs every thread
 * of `memsim gen gcd ALG --bits S --instances P --seed SEED` on the generator's own inputs
 * (the same random odd numbers: splitmix64, sim/workloads/gcd/ms-gcd.c random_odd),
 * records each thread's loads and stores, checks its GCD, and compares the accesses, thread
 * by thread and in order, with the steps of the generator's explicit trace.
 *   c++ -O2 -std=c++17 -o /tmp/tgp kernels/test_gcd_passes.cpp
 *   memsim gen gcd -a fast-binary -b 256 -p 64 --seed 3 -f explicit -o /tmp/t.json
 *   /tmp/tgp fast-binary 256 64 3 /tmp/t.json
 * Exit 0: every thread's accesses equal the trace's; 1: a difference (printed); 2: usage.
 * tests/gcd-passes.sh runs it for every algorithm over sizes and seeds. */
#define __host__
#define __device__
#define __forceinline__ inline
#define GCD_FN

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {
struct Access {
  char op;
  long long addr;
  bool operator==(const Access &o) const { return op == o.op && addr == o.addr; }
};
const uint32_t *g_base;
std::vector<Access> *g_log;
uint32_t rec_ld(const uint32_t *p) {
  g_log->push_back({'r', (long long)(p - g_base)});
  return *p;
}
void rec_st(uint32_t *p, uint32_t v) {
  g_log->push_back({'w', (long long)(p - g_base)});
  *p = v;
}
} // namespace

#define GCD_LD(p) rec_ld(p)
#define GCD_ST(p, v) rec_st((p), (v))
#include "gcd_passes.h"

using namespace gcd_passes;
typedef std::vector<u32> Big;

static uint64_t rand_next(uint64_t *s) { /* ms_rand_next */
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static void trim(Big &x) {
  while (!x.empty() && x.back() == 0) x.pop_back();
}
static int cmp(const Big &x, const Big &y) {
  if (x.size() != y.size()) return x.size() < y.size() ? -1 : 1;
  for (size_t k = x.size(); k-- > 0;)
    if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
  return 0;
}
/* The reference: Euclid's remainder by repeated binary long division would be long; the
 * fast binary algorithm on vectors (x, y odd) is short and independent of gcd_passes.h. */
static Big ref_gcd(Big x, Big y) {
  trim(x);
  trim(y);
  if (cmp(x, y) < 0) std::swap(x, y);
  while (!y.empty()) {
    u64 borrow = 0;
    for (size_t k = 0; k < x.size(); k++) {
      u64 d = (u64)x[k] - (k < y.size() ? y[k] : 0u) - borrow;
      x[k] = (u32)d;
      borrow = (d >> 32) & 1;
    }
    trim(x);
    if (!x.empty()) {
      size_t z = 0;
      while (x[z] == 0) z++;
      int b = __builtin_ctz(x[z]);
      Big s(x.size() - z);
      for (size_t k = 0; k < s.size(); k++) {
        u32 lo = x[k + z], hi = k + z + 1 < x.size() ? x[k + z + 1] : 0u;
        s[k] = b ? (lo >> b) | (hi << (32 - b)) : lo;
      }
      x = s;
      trim(x);
    }
    if (cmp(x, y) < 0) std::swap(x, y);
  }
  return x;
}

/* Per-thread access lists from an explicit trace: one step per line, "op" then "addr". */
static bool read_trace(const char *path, size_t P, std::vector<std::vector<Access>> &out) {
  FILE *f = std::fopen(path, "r");
  if (!f) {
    std::fprintf(stderr, "test_gcd_passes: %s: cannot open\n", path);
    return false;
  }
  out.assign(P, {});
  std::string line;
  char buf[1 << 16];
  bool ok = true;
  while (std::fgets(buf, sizeof buf, f)) {
    line += buf;
    if (line.empty() || line.back() != '\n') continue; /* a long line: read on */
    const char *op = std::strstr(line.c_str(), "\"op\": \"");
    const char *ad = std::strstr(line.c_str(), "\"addr\": [");
    if (op && ad) {
      char c = op[7] == 'r' ? 'r' : 'w';
      const char *p = ad + 9;
      for (size_t t = 0; t < P; t++) {
        while (*p == ' ' || *p == ',') p++;
        if (std::strncmp(p, "null", 4) == 0) {
          p += 4;
        } else {
          char *e;
          long long a = std::strtoll(p, &e, 10);
          if (e == p) {
            ok = false;
            break;
          }
          out[t].push_back({c, a});
          p = e;
        }
      }
    }
    line.clear();
  }
  std::fclose(f);
  if (!ok) std::fprintf(stderr, "test_gcd_passes: %s: a step's addr list is not %zu numbers\n", path, P);
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: test_gcd_passes ALG BITS INSTANCES SEED TRACE.json\n");
    return 2;
  }
  const std::string alg_name = argv[1];
  const int bits = std::atoi(argv[2]);
  const size_t P = (size_t)std::atoll(argv[3]);
  uint64_t state = std::strtoull(argv[4], nullptr, 10);
  int alg = alg_name == "binary" ? GCD_BINARY : alg_name == "fast-binary" ? GCD_FAST_BINARY
          : alg_name == "approximate" ? GCD_APPROX : alg_name == "approximate-ptx64" ? GCD_APPROX_PTX : -1;
  if (alg < 0 || bits < 32 || bits % 32 || P == 0) {
    std::fprintf(stderr, "test_gcd_passes: bad arguments\n");
    return 2;
  }
  const int W = bits / 32;
  std::vector<u32> mem(2 * (size_t)W * P);
  std::vector<Big> X(P), Y(P);
  for (size_t t = 0; t < P; t++)
    for (Big *b : {&X[t], &Y[t]}) {
      b->resize(W);
      for (int k = 0; k < W; k++) (*b)[k] = (u32)(rand_next(&state) >> 32);
      (*b)[0] |= 1u;
      (*b)[W - 1] |= 0x80000000u;
    }
  for (size_t t = 0; t < P; t++)
    for (int k = 0; k < W; k++) {
      mem[(size_t)k * P + t] = X[t][k];
      mem[(size_t)W * P + (size_t)k * P + t] = Y[t][k];
    }
  std::vector<std::vector<Access>> want;
  if (!read_trace(argv[5], P, want)) return 2;
  g_base = mem.data();
  size_t differ = 0, accesses = 0;
  for (size_t t = 0; t < P; t++) {
    std::vector<Access> log;
    g_log = &log;
    u32 info = alg == GCD_BINARY        ? gcd_thread<GCD_BINARY>(mem.data(), t, W, P)
               : alg == GCD_FAST_BINARY ? gcd_thread<GCD_FAST_BINARY>(mem.data(), t, W, P)
               : alg == GCD_APPROX      ? gcd_thread<GCD_APPROX>(mem.data(), t, W, P)
                                        : gcd_thread<GCD_APPROX_PTX>(mem.data(), t, W, P);
    Big g = ref_gcd(X[t], Y[t]);
    const u32 len = info >> 1, plane = info & 1u;
    bool right = len == g.size();
    for (u32 k = 0; right && k < len; k++)
      right = mem[(size_t)plane * W * P + (size_t)k * P + t] == g[k];
    if (!right) {
      std::fprintf(stderr, "thread %zu: the GCD is wrong\n", t);
      return 1;
    }
    accesses += log.size();
    if (log != want[t]) {
      size_t i = 0;
      while (i < log.size() && i < want[t].size() && log[i] == want[t][i]) i++;
      if (differ < 5)
        std::fprintf(stderr,
                     "thread %zu: %zu accesses, the trace %zu; first difference at %zu: kernel %c%lld, trace %c%lld\n",
                     t, log.size(), want[t].size(), i, i < log.size() ? log[i].op : '-',
                     i < log.size() ? log[i].addr : -1, i < want[t].size() ? want[t][i].op : '-',
                     i < want[t].size() ? want[t][i].addr : -1);
      differ++;
    }
  }
  std::printf("%s bits=%d instances=%zu: %zu accesses, %zu of %zu threads differ from the trace\n",
              alg_name.c_str(), bits, P, accesses, differ, P);
  return differ ? 1 : 0;
}
