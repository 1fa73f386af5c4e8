/* baseline.c: the least a simulator must do per request, as a yardstick for memsim's
 * throughput (bench/throughput.sh prints both).  It reads a binary trace (docs/trace-format.md,
 * "Binary form", as written by `memsim convert --to binary`), expands each memory step's
 * addresses (u32, i64 or affine), and counts each warp's stages with the cheapest correct
 * method: distinct address groups (UMM) or the most distinct addresses in one bank (DMM).
 * No schedule, no pipeline: the rate it reaches bounds what the counting part of any
 * simulator can reach on this machine.
 *   cc -O2 -o baseline bench/baseline.c
 *   baseline umm|dmm|hmm W GROUP_WORDS TRACE.bin  -> requests, stages, seconds, M requests/s
 * (hmm: shared steps by banks, global steps by groups) */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int rd(FILE *f, void *p, size_t n) { return fread(p, 1, n, f) == n; }

/* A set of 64-bit keys cleared by bumping a stamp: 4096 slots for at most 1024 keys. */
#define HS 4096u
static uint64_t hkey[HS];
static uint32_t hstamp[HS], stamp;

static int hadd(uint64_t key) { /* 1 if new */
  uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 52);
  for (;; h = (h + 1) & (HS - 1)) {
    if (hstamp[h] != stamp) {
      hstamp[h] = stamp;
      hkey[h] = key;
      return 1;
    }
    if (hkey[h] == key) return 0;
  }
}

/* stages of one warp: n addresses (-1 inactive) */
static unsigned umm_warp(const int64_t *a, unsigned n, unsigned gshift) {
  unsigned k = 0, i = 0;
  while (i < n && a[i] < 0) i++;
  if (i == n) return 0;
  uint64_t g0 = (uint64_t)a[i] >> gshift;
  int same = 1;
  for (; i < n; i++) same &= a[i] < 0 || ((uint64_t)a[i] >> gshift) == g0;
  if (same) return 1; /* coalesced: the common case, one pass */
  stamp++;
  for (unsigned i = 0; i < n; i++)
    if (a[i] >= 0) k += hadd((uint64_t)a[i] >> gshift);
  return k;
}

static unsigned dmm_warp(const int64_t *a, unsigned n, unsigned w, unsigned *cnt) {
  unsigned k = 0;
  if (w <= 64) { /* distinct banks: conflict-free in one pass */
    uint64_t mask = 0;
    int conflict = 0, any = 0;
    for (unsigned i = 0; i < n; i++) {
      if (a[i] < 0) continue;
      uint64_t bit = 1ull << ((uint64_t)a[i] & (w - 1));
      conflict |= (mask & bit) != 0;
      mask |= bit;
      any = 1;
    }
    if (!conflict) return (unsigned)any;
  }
  stamp++;
  for (unsigned i = 0; i < n; i++) {
    if (a[i] < 0 || !hadd((uint64_t)a[i])) continue; /* same address: merged */
    unsigned c = ++cnt[(uint64_t)a[i] & (w - 1)];
    if (c > k) k = c;
  }
  for (unsigned i = 0; i < n; i++)
    if (a[i] >= 0) cnt[(uint64_t)a[i] & (w - 1)] = 0;
  return k;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: baseline umm|dmm|hmm W GROUP_WORDS TRACE.bin\n");
    return 2;
  }
  int mode = strcmp(argv[1], "dmm") == 0 ? 1 : strcmp(argv[1], "hmm") == 0 ? 2 : 0;
  unsigned w = (unsigned)atoi(argv[2]), gw = (unsigned)atoi(argv[3]);
  if (!w || (w & (w - 1)) || !gw || (gw & (gw - 1)) || w > 1024) {
    fprintf(stderr, "baseline: W and GROUP_WORDS must be powers of two (W <= 1024)\n");
    return 2;
  }
  unsigned gshift = (unsigned)__builtin_ctz(gw);
  FILE *f = fopen(argv[4], "rb");
  if (!f) {
    perror(argv[4]);
    return 1;
  }
  char magic[8];
  uint32_t ver, flags, namelen;
  uint64_t threads, bt;
  if (!rd(f, magic, 8) || memcmp(magic, "MEMSIMBT", 8) || !rd(f, &ver, 4) || !rd(f, &flags, 4) ||
      !rd(f, &threads, 8) || !rd(f, &bt, 8) || !rd(f, &namelen, 4) || fseek(f, namelen, SEEK_CUR)) {
    fprintf(stderr, "%s: not a memsim binary trace\n", argv[4]);
    return 1;
  }
  int64_t *addr = malloc(threads * sizeof *addr);
  uint32_t *u32 = malloc(threads * sizeof *u32);
  unsigned cnt[1024] = {0};
  if (!addr || !u32) return 1;
  uint64_t requests = 0, stages = 0;
  double io = 0, t0 = now();
  for (;;) {
    uint8_t h[4];
    if (!rd(f, h, 4)) {
      fprintf(stderr, "%s: truncated\n", argv[4]);
      return 1;
    }
    if (h[0] == 0xFF) break;
    if (h[0] == 2) continue;
    double r0 = now();
    if (h[2] == 0) {
      if (!rd(f, addr, threads * 8)) return 1;
    } else if (h[2] == 1) {
      if (!rd(f, u32, threads * 4)) return 1;
      for (uint64_t i = 0; i < threads; i++) addr[i] = u32[i] == 0xFFFFFFFFu ? -1 : (int64_t)u32[i];
    } else {
      int64_t base, stride;
      if (!rd(f, &base, 8) || !rd(f, &stride, 8)) return 1;
      for (uint64_t i = 0; i < threads; i++) addr[i] = base + stride * (int64_t)i;
    }
    io += now() - r0;
    for (uint64_t first = 0; first < threads; first += w) {
      unsigned n = (unsigned)(threads - first < w ? threads - first : w);
      for (unsigned i = 0; i < n; i++) requests += addr[first + i] >= 0;
      int dmm = mode == 1 || (mode == 2 && h[1] == 1); /* hmm: shared steps bank-count */
      stages += dmm ? dmm_warp(addr + first, n, w, cnt) : umm_warp(addr + first, n, gshift);
    }
  }
  double total = now() - t0;
  printf("requests %llu stages %llu read_s %.3f count_s %.3f Mreq/s %.1f\n", (unsigned long long)requests,
         (unsigned long long)stages, io, total - io, requests / (total - io) / 1e6);
  free(addr);
  free(u32);
  fclose(f);
  return 0;
}
