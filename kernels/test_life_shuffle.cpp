/* CPU check of life_shuffle.h (the `life-multistep-shuffle` kernel's code),
 * without a GPU: each warp is emulated by 32 threads whose shuffles meet at a
 * barrier, with __shfl_up_sync/__shfl_down_sync semantics (a lane with no
 * source lane gets its own value). Compares with a byte-per-cell simulation.
 *   g++ -O2 -std=c++20 -pthread -o /tmp/tls \
 *     kernels/test_life_shuffle.cpp && /tmp/tls   (about 40 s on 2 cores)
 */
#define __host__
#define __device__
#define __forceinline__ inline
#include "life_shuffle.h"

#include <barrier>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

using life_shuffle::u64;

struct EmuWarp {
  std::barrier<> bar{32};
  u64 buf[32];
};

struct EmuShfl {
  EmuWarp *w;
  int lane;
  u64 xchg(u64 x, int src) {
    w->buf[lane] = x;
    w->bar.arrive_and_wait();
    u64 r = (src >= 0 && src < 32) ? w->buf[src] : x;
    w->bar.arrive_and_wait();
    return r;
  }
  u64 up(u64 x) { return xchg(x, lane - 1); }
  u64 down(u64 x) { return xchg(x, lane + 1); }
};

static void reference(std::vector<uint8_t> &g, int S, int steps) {
  std::vector<uint8_t> h(g.size());
  for (int t = 0; t < steps; t++) {
    for (int y = 0; y < S; y++)
      for (int x = 0; x < S; x++) {
        int s = 0;
        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++) {
            if (!dx && !dy) continue;
            int yy = y + dy, xx = x + dx;
            if (yy >= 0 && yy < S && xx >= 0 && xx < S) s += g[(size_t)yy * S + xx];
          }
        uint8_t me = g[(size_t)y * S + x];
        h[(size_t)y * S + x] = (uint8_t)(s == 3 || (me && s == 2));
      }
    g.swap(h);
  }
}

static int check(int S, int H, int steps, unsigned seed) {
  const int wpr = S / 64;
  std::vector<uint8_t> g((size_t)S * S);
  srand(seed);
  for (auto &c : g) c = (uint8_t)(rand() % 3 == 0);
  std::vector<u64> a((size_t)S * wpr, 0), b((size_t)S * wpr, ~0ull);
  for (int y = 0; y < S; y++)
    for (int x = 0; x < S; x++)
      if (g[(size_t)y * S + x]) a[(size_t)y * wpr + x / 64] |= 1ull << (x % 64);
  reference(g, S, steps);
  const int wxs = (wpr + life_shuffle::OUT_WORDS - 1) / life_shuffle::OUT_WORDS;
  const int strips = (S + H - 1) / H;
  for (int t = 0; t < steps; t += life_shuffle::T) {
    for (auto &w : b) w = ~0ull; /* poison */
    for (int strip = 0; strip < strips; strip++)
      for (int wx = 0; wx < wxs; wx++) {
        EmuWarp warp;
        std::vector<std::thread> th;
        for (int lane = 0; lane < 32; lane++)
          th.emplace_back([&, lane] {
            EmuShfl sh{&warp, lane};
            life_shuffle::warp_steps(a.data(), b.data(), S, H, lane, wx, strip, sh);
          });
        for (auto &x : th) x.join();
      }
    a.swap(b);
  }
  long bad = 0;
  for (int y = 0; y < S; y++)
    for (int x = 0; x < S; x++)
      bad += (int)((a[(size_t)y * wpr + x / 64] >> (x % 64)) & 1) != g[(size_t)y * S + x];
  std::printf("S=%d H=%d steps=%d T=%d: %ld wrong cells\n", S, H, steps, life_shuffle::T, bad);
  return bad != 0;
}

int main() {
  int fails = 0;
  fails += check(256, 64, 16, 1);   /* one warp column, lanes past the edge */
  fails += check(2048, 48, 16, 2);  /* three warp columns (wpr 32 > 30), partial strip */
  fails += check(1024, 64, 8, 3);
  return fails ? 1 : 0;
}
