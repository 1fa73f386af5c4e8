/* test-bruteforce.c: the engine against an independent, deliberately naive evaluator.
 *
 * The evaluator below is written from MODELS.md alone.  It walks time one unit at a time
 * and keeps, per warp, the index of its current step and the time it is ready; per
 * pipeline, the time its entry is free and the last warp it dispatched.  Nothing is clever:
 * stage counts are O(w^2) loops, every time unit rescans every warp.
 *
 * Random traces: MEMSIM_SEED overrides the seed (printed on failure with the trace). */
#include "ms-test-util.h"
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  guint64 time_units, stages, dispatches, requests, extra_stages, round_sum;
  guint64 shared_stages, shared_dispatches, global_stages, global_dispatches;
  guint64 grid_barriers, block_barriers;
  guint64 kernels, launch_total, global_busy, shared_busy;
  guint64 l2_hits, l2_misses, dram_stages, dram_lone_stages, dram_units;
  guint64 shuffle_steps, shuffles;
  guint64 compute_steps, instructions, issue_units;
  guint64 signals, waits;
  guint64 async_reads, awaits;
  guint64 l1_hits, l1_misses;
  guint64 nsteps;
  guint64 step_stages[64], step_disp[64], step_req[64]; /* the traces have at most 64 steps */
  gint64 first[64], last[64];
} Naive;

/* ---- stage rules ---- */

/* DMM: the most distinct addresses in one bank (bank = addr mod w). */
static guint64 naive_dmm(const gint64 *a, guint n, guint w) {
  guint64 best = 0;
  for (guint bank = 0; bank < w; bank++) {
    guint64 distinct = 0;
    for (guint i = 0; i < n; i++) {
      if (a[i] < 0 || (guint64)a[i] % w != bank) continue;
      gboolean seen = FALSE;
      for (guint j = 0; j < i; j++)
        if (a[j] == a[i]) seen = TRUE;
      if (!seen) distinct++;
    }
    if (distinct > best) best = distinct;
  }
  return best;
}

/* UMM: distinct floor(addr / group_words). */
static guint64 naive_umm(const gint64 *a, guint n, guint64 gw) {
  guint64 distinct = 0;
  for (guint i = 0; i < n; i++) {
    if (a[i] < 0) continue;
    gboolean seen = FALSE;
    for (guint j = 0; j < i; j++)
      if (a[j] >= 0 && (guint64)a[j] / gw == (guint64)a[i] / gw) seen = TRUE;
    if (!seen) distinct++;
  }
  return distinct;
}

/* UMM write under partial_write_stages pw: per distinct group, 1 stage if the warp writes all
 * gw of its words (distinct addresses), else 1 + pw. */
static guint64 naive_umm_write(const gint64 *a, guint n, guint64 gw, guint64 pw) {
  guint64 k = 0;
  for (guint i = 0; i < n; i++) {
    if (a[i] < 0) continue;
    guint64 g = (guint64)a[i] / gw;
    gboolean first = TRUE;
    for (guint j = 0; j < i; j++)
      if (a[j] >= 0 && (guint64)a[j] / gw == g) first = FALSE;
    if (!first) continue;
    guint64 words = 0; /* distinct addresses in group g */
    for (guint j = 0; j < n; j++) {
      if (a[j] < 0 || (guint64)a[j] / gw != g) continue;
      gboolean dup = FALSE;
      for (guint q = 0; q < j; q++)
        if (a[q] == a[j]) dup = TRUE;
      words += !dup;
    }
    k += words == gw ? 1 : 1 + pw;
  }
  return k;
}

/* The distinct groups a warp writes in part (fewer than gw distinct addresses). */
static guint64 naive_umm_partial(const gint64 *a, guint n, guint64 gw) {
  return naive_umm_write(a, n, gw, 1) - naive_umm(a, n, gw);
}

/* The L2 cache of l2_ways, naively: every entry (a line of q groups) keeps the time of its
 * last use (0: empty), the groups it holds and those dirty; a miss of the line takes the
 * first empty entry of the set, else the least recently used. */
typedef struct {
  guint64 sets, ways, clock, q; /* sets per partition (l2_partitions: partition p's come p-th) */
  gboolean hashed;
  guint64 parts;  /* l2_home_partitions: a line's home, a near copy for reads from elsewhere */
  gboolean home;
  guint64 *tag, *used;
  guint32 *held, *dirty;
  guint64 row, unit, lone; /* DRAM rows: groups per row (0: none); a slot's units, a lone one's */
  guint64 lonew;           /* a lone write's slot's units (dram_lone_write_rate) */
} NaiveCache;

/* One access of partition `part`; returns the DRAM slots (docs/models.md, "The L2 cache"). */
static guint64 naive_cache_in(NaiveCache *c, Naive *out, guint64 part, guint64 g, gboolean write, gboolean full) {
  const guint64 line = g / c->q;
  const guint32 bit = 1u << (g % c->q);
  guint64 base = (part * c->sets + (c->hashed ? ms_l2_hash(line) : line) % c->sets) * c->ways;
  c->clock++;
  for (guint64 i = base; i < base + c->ways; i++)
    if (c->used[i] && c->tag[i] == line) {
      c->used[i] = c->clock;
      if (c->held[i] & bit) {
        out->l2_hits++;
        guint64 cost = write && !(c->dirty[i] & bit) ? 1 : 0;
        if (write) c->dirty[i] |= bit;
        return cost;
      }
      out->l2_misses++; /* the line is held, not the group: it comes in */
      c->held[i] |= bit;
      if (write) c->dirty[i] |= bit;
      return write && !full ? 2 : 1;
    }
  out->l2_misses++;
  guint64 v = base;
  for (guint64 i = base; i < base + c->ways; i++) {
    if (!c->used[i]) {
      v = i;
      break;
    }
    if (c->used[i] < c->used[v]) v = i;
  }
  c->tag[v] = line;
  c->used[v] = c->clock;
  c->held[v] = bit;
  c->dirty[v] = write ? bit : 0;
  return write && !full ? 2 : 1; /* a partial write miss fills the group first */
}

/* The same from a warp of partition `part`, with home partitions (docs/models.md, "Home
 * partitions"): the line's home is floor(h / sets) mod parts; writes and reads from home go
 * there, a read from elsewhere keeps a copy in its own partition too, filled from home (no
 * DRAM) or from DRAM into both; one hit or one miss either way. */
static guint64 naive_cache_access(NaiveCache *c, Naive *out, guint64 part, guint64 g, gboolean write, gboolean full) {
  if (!c->home) return naive_cache_in(c, out, part, g, write, full);
  const guint64 line = g / c->q, h = c->hashed ? ms_l2_hash(line) : line;
  const guint64 hp = h / c->sets % c->parts;
  if (write || part == hp) return naive_cache_in(c, out, hp, g, write, full);
  const guint64 hits = out->l2_hits;
  naive_cache_in(c, out, part, g, FALSE, full);
  if (out->l2_hits > hits) return 0;
  out->l2_misses--;
  return naive_cache_in(c, out, hp, g, FALSE, full);
}

/* A warp's request through the cache: its distinct groups in ascending order.  Returns what
 * its DRAM slots take of the DRAM: the slots, or with DRAM rows their units, a slot of a group
 * with no other group of the request in its row at the lone rate (docs/models.md, "DRAM rows"). */
static guint64 naive_cache_warp(NaiveCache *c, Naive *out, guint64 part, const gint64 *a, guint n, guint64 gw,
                                gboolean write) {
  guint64 kd = 0;
  gint64 prev = -1; /* the last group done */
  for (;;) {
    gint64 next = -1; /* the smallest group above prev */
    for (guint i = 0; i < n; i++) {
      if (a[i] < 0) continue;
      gint64 g = a[i] / (gint64)gw;
      if (g > prev && (next < 0 || g < next)) next = g;
    }
    if (next < 0) return kd;
    guint64 words = 0;
    gboolean alone = TRUE; /* no other group of the request in next's DRAM row */
    for (guint i = 0; i < n; i++) {
      if (a[i] < 0) continue;
      const gint64 g = a[i] / (gint64)gw;
      if (c->row && g != next && (guint64)g / c->row == (guint64)next / c->row) alone = FALSE;
      if (g != next) continue;
      gboolean dup = FALSE;
      for (guint j = 0; j < i; j++)
        if (a[j] == a[i]) dup = TRUE;
      words += !dup;
    }
    const guint64 slots = naive_cache_access(c, out, part, (guint64)next, write, words == gw);
    out->dram_stages += slots;
    if (!c->row) kd += slots;
    else if (alone) {
      out->dram_lone_stages += slots;
      kd += slots * (write ? c->lonew : c->lone);
    } else {
      kd += slots * c->unit;
    }
    prev = next;
  }
}

/* ---- the evaluator ---- */

/* The L1 of l1_words, naively: per block, sets of `ways` entries, each the group it holds
 * (+1; 0: empty) and the time it was last used; the least recently used goes.  A warp's
 * groups in ascending order; the set of group g is h(g) S / 2^64 (MODELS.md extension). */
typedef struct {
  guint64 sets, ways, clock;
  guint64 *tag, *used; /* blocks x sets x ways */
} NaiveL1;

/* One warp's global request through block b's share: returns whether a read's group hit;
 * a read's hit lanes become -1 in a. */
static gboolean naive_l1_warp(NaiveL1 *c, Naive *out, guint64 b, gint64 *a, guint n, guint64 gw, gboolean write) {
  guint64 gs[64];
  guint m = 0;
  for (guint i = 0; i < n; i++) {
    if (a[i] < 0) continue;
    const guint64 g = (guint64)a[i] / gw;
    gboolean seen = FALSE;
    for (guint j = 0; j < m; j++) seen |= gs[j] == g;
    if (!seen) gs[m++] = g;
  }
  for (guint i = 0; i < m; i++) /* ascending */
    for (guint j = i + 1; j < m; j++)
      if (gs[j] < gs[i]) {
        guint64 x = gs[i];
        gs[i] = gs[j];
        gs[j] = x;
      }
  gboolean hit[64] = {0}, any = FALSE;
  for (guint j = 0; j < m; j++) {
    const guint64 set = (guint64)(((unsigned __int128)ms_l2_hash(gs[j]) * c->sets) >> 64);
    guint64 *tag = c->tag + (b * c->sets + set) * c->ways, *used = c->used + (b * c->sets + set) * c->ways;
    guint64 x = c->ways;
    for (guint64 y = 0; y < c->ways; y++)
      if (tag[y] == gs[j] + 1) x = y;
    if (x < c->ways) {
      if (!write) {
        hit[j] = any = TRUE;
        out->l1_hits++;
      }
    } else {
      if (!write) out->l1_misses++;
      x = 0; /* an empty entry, else the least recently used */
      for (guint64 y = 0; y < c->ways; y++)
        if (tag[y] == 0 || (tag[x] != 0 && used[y] < used[x])) {
          x = y;
          if (tag[y] == 0) break;
        }
      tag[x] = gs[j] + 1;
    }
    used[x] = ++c->clock;
  }
  for (guint i = 0; i < n; i++)
    for (guint j = 0; j < m; j++)
      if (a[i] >= 0 && hit[j] && (guint64)a[i] / gw == gs[j]) a[i] = -1;
  return any;
}

static gboolean is_hmm(const MsModel *m) {
  return m->kind == MS_MODEL_HMM || m->kind == MS_MODEL_ASYNC_HMM;
}

/* Loaded latency, from docs/models.md alone: the stages that entered the path in the `win`
 * time units up to `now` (entered[tau] per time unit), as a share of rate * win, in per
 * mille (at most 1000), through the curve's points. */
static guint64 naive_loaded(const MsLoadCurve *c, GArray *entered, gint64 now, gint64 win, gint64 rate) {
  gint64 n = 0;
  for (gint64 tau = MAX(0, now - win + 1); tau <= now; tau++)
    if (tau < (gint64)entered->len) n += g_array_index(entered, gint64, tau);
  guint64 u = (guint64)MIN(1000, 1000 * n / (rate * win));
  guint64 lat = c->lat[0];
  for (guint32 i = 0; i < c->n; i++) {
    if (u >= c->u[i]) lat = c->lat[i];
    if (u >= c->u[i] && i + 1 < c->n && u < c->u[i + 1]) { /* between points i and i + 1 */
      guint64 du = c->u[i + 1] - c->u[i], dl = c->lat[i + 1] - c->lat[i];
      lat = c->lat[i] + dl * (u - c->u[i]) / du;
    }
  }
  return lat;
}

/* Slots s0 .. s0 + k - 1 enter at s / rate. */
static void naive_enter(GArray *entered, gint64 s0, gint64 k, gint64 rate) {
  for (gint64 s = s0; s < s0 + k; s++) {
    guint tau = (guint)(s / rate);
    if (tau >= entered->len) g_array_set_size(entered, tau + 1);
    g_array_index(entered, gint64, tau)++;
  }
}

/* One run; keep (l2_warm): NULL, or the cache an earlier run left (tag NULL: none yet), which
 * this run takes and leaves there. */
static void naive_eval_run(const MsModel *m, const MtTrace *t, Naive *out, NaiveCache *keep) {
  memset(out, 0, sizeof *out);
  guint w = m->width;
  guint64 p = t->threads, nsteps = t->steps->len;
  guint64 W = (p + w - 1) / w;
  gboolean hmm = is_hmm(m);
  guint d = hmm ? m->dmms : 1;
  guint npipes = hmm ? d + 1 : 1;
  guint64 wpb = t->block_threads >= p ? W : t->block_threads / w; /* warps per block */
  out->nsteps = nsteps;

  /* partial writes: the DRAM key, or the L2's where the trace's footprint fits L2 */
  const gboolean in_l2 = m->l2_words && !m->l2_warm && t->global_words && t->global_words <= m->l2_words;
  /* L2 cache: a footprint that does not fit (or none declared) runs through it */
  const gboolean cache = m->l2_ways && !in_l2 && (hmm || m->kind == MS_MODEL_UMM);
  const guint64 pw = in_l2 || cache ? m->l2_partial_write_stages : m->partial_write_stages;
  NaiveCache nc = {0};
  const guint64 parts = MAX(1, m->l2_partitions); /* block b's warps use partition b mod parts */
  if (cache && keep && keep->tag) {
    nc = *keep;
  } else if (cache) {
    nc.parts = parts;
    nc.home = m->l2_home_partitions;
    const guint64 lw = m->l2_line_words ? m->l2_line_words : m->group_words;
    nc.q = lw / m->group_words;
    nc.hashed = m->l2_hashed_sets;
    nc.ways = m->l2_ways;
    nc.sets = MAX(1, m->l2_words / lw / m->l2_ways / parts);
    nc.tag = g_new0(guint64, parts * nc.sets * nc.ways);
    nc.used = g_new0(guint64, parts * nc.sets * nc.ways);
    nc.held = g_new0(guint32, parts * nc.sets * nc.ways);
    nc.dirty = g_new0(guint32, parts * nc.sets * nc.ways);
    if (m->dram_row_words) {
      nc.row = m->dram_row_words / m->group_words;
      /* time in 1 / (g r) units, or 1 / (g r rw) with dram_lone_write_rate rw */
      const guint64 g = m->global_rate > 1 ? m->global_rate : 1, r = m->dram_lone_rate, rw = m->dram_lone_write_rate;
      nc.unit = rw ? r * rw : r;
      nc.lone = rw ? g * rw : g;
      nc.lonew = rw ? g * r : g;
    }
  }
  /* k[s][j]: stages of warp j in step s, kd[s][j] its DRAM slots (cache); and the counters */
  guint64 *k = g_new0(guint64, nsteps * W);
  guint64 *kd = g_new0(guint64, nsteps * W);
  guint64 *kpn = g_new0(guint64, nsteps * W); /* dmm_port_banks: a global read's port slots */
  guint64 *kwn = g_new0(guint64, nsteps * W); /* l2_write_rate: a global write's partly written groups */
  guint64 *kdg = g_new0(guint64, nsteps * W); /* dmm_port_shared: its bank degree (wavefronts) */
  /* L1: each block's share of l1_words, less the shared words of the blocks a DMM holds */
  gboolean *l1h = g_new0(gboolean, nsteps * W); /* a read's group hit in the L1 */
  NaiveL1 l1 = {0};
  const guint64 nblk = (W + wpb - 1) / wpb;
  guint64 nr = 1; /* the blocks a DMM holds at once: L1 shares, issue_rate */
  if (hmm) {
    const gboolean dyn0 = m->resident_warps || m->resident_blocks || (m->shared_words_per_dmm && t->shared_words);
    nr = (nblk + d - 1) / d;
    if (dyn0) {
      guint64 lb = m->resident_blocks;
      if (m->shared_words_per_dmm && t->shared_words) {
        const guint64 cap = m->shared_words_per_dmm / t->shared_words;
        if (!lb || cap < lb) lb = cap;
      }
      if (lb) nr = MIN(nr, lb);
      if (m->resident_warps) nr = MIN(nr, m->resident_warps / wpb);
    }
    nr = MAX(nr, 1);
  }
  if (hmm && m->l1_words) {
    const gint64 free_words = (gint64)m->l1_words - (gint64)(nr * t->shared_words);
    const guint64 share = free_words > 0 ? (guint64)free_words / nr : 0, G = share / m->group_words;
    if (G) {
      l1.ways = MIN(m->l1_ways, G);
      l1.sets = G / l1.ways;
      l1.tag = g_new0(guint64, nblk * l1.sets * l1.ways);
      l1.used = g_new0(guint64, nblk * l1.sets * l1.ways);
    }
  }
  gboolean *sh = g_new0(gboolean, nsteps * W); /* shuffle, signal, wait, compute steps: warp j takes part */
  gint64 *ci = g_new0(gint64, nsteps * W);      /* compute steps: warp j's instructions (its lanes' largest) */
  /* flags: the time each was set (-1: not yet); flag numbers are small in these traces */
  guint64 nflags = 1;
  for (guint64 s = 0; s < nsteps; s++) {
    MsStep st = g_array_index(t->steps, MsStep, s);
    const gint64 *a0 = g_ptr_array_index(t->addr, s);
    if (MS_OP_IS_FLAG(st.op))
      for (guint64 i = 0; i < p; i++) nflags = MAX(nflags, (guint64)(a0[i] + 1));
  }
  gint64 *ftime = g_new(gint64, nflags);
  for (guint64 f = 0; f < nflags; f++) ftime[f] = -1;
  for (guint64 s = 0; s < nsteps; s++) {
    MsStep st = g_array_index(t->steps, MsStep, s);
    out->first[s] = out->last[s] = -1;
    if (st.op == MS_OP_SYNC) {
      if (st.scope == MS_SCOPE_GRID) {
        out->grid_barriers++;
        if (l1.tag) memset(l1.tag, 0, nblk * l1.sets * l1.ways * sizeof *l1.tag); /* a kernel boundary */
      } else {
        out->block_barriers++;
      }
      continue;
    }
    const gint64 *a0 = g_ptr_array_index(t->addr, s);
    gint64 *a = g_memdup2(a0, p * sizeof *a0); /* the L1's hit lanes become -1 */
    if (MS_OP_NO_STAGE(st.op)) { /* no stage: its warps with an active thread, and those threads */
      for (guint64 j = 0; j < W; j++)
        for (guint64 i = j * w; i < MIN(p, (j + 1) * w); i++)
          if (a[i] >= 0) {
            out->step_req[s]++;
            if (!sh[s * W + j]) out->step_disp[s]++;
            sh[s * W + j] = TRUE;
            ci[s * W + j] = MAX(ci[s * W + j], a[i]);
          }
      if (st.op == MS_OP_SIGNAL) out->signals += out->step_disp[s];
      else if (st.op == MS_OP_WAIT) out->waits += out->step_disp[s];
      else if (st.op == MS_OP_AWAIT) out->awaits += out->step_disp[s];
      else if (st.op == MS_OP_COMPUTE) {
        out->compute_steps += out->step_disp[s] > 0;
        for (guint64 j = 0; j < W; j++) out->instructions += (guint64)ci[s * W + j];
      } else {
        out->shuffles += out->step_disp[s];
        out->shuffle_steps += out->step_disp[s] > 0;
      }
      g_free(a);
      continue;
    }
    gboolean shared_rule = m->kind == MS_MODEL_DMM || (hmm && st.space == MS_SPACE_SHARED);
    g_autofree guint64 *per_dmm = g_new0(guint64, MAX(d, 1u)); /* per DMM stage sums: any d */
    guint64 sum = 0;
    for (guint64 j = 0; j < W; j++) {
      guint n = (guint)MIN((guint64)w, p - j * w);
      for (guint i = 0; i < n; i++) out->step_req[s] += a[j * w + i] >= 0;
      if (hmm && m->dmm_port_banks && !shared_rule && st.op == MS_OP_READ) /* every active lane's banks */
      {
        kdg[s * W + j] = naive_dmm(a + j * w, n, w);
        kpn[s * W + j] = MAX((guint64)m->dmm_port_banks, kdg[s * W + j]);
      }
      if (l1.tag && !shared_rule)
        l1h[s * W + j] = naive_l1_warp(&l1, out, j / wpb, a + j * w, n, m->group_words, st.op == MS_OP_WRITE);
      guint64 kk = shared_rule ? naive_dmm(a + j * w, n, w)
                   : st.op == MS_OP_WRITE && pw ? naive_umm_write(a + j * w, n, m->group_words, pw)
                                                : naive_umm(a + j * w, n, m->group_words);
      k[s * W + j] = kk;
      if (st.op == MS_OP_WRITE && !shared_rule) kwn[s * W + j] = naive_umm_partial(a + j * w, n, m->group_words);
      if (cache && !shared_rule)
        kd[s * W + j] = naive_cache_warp(&nc, out, (j / wpb) % parts, a + j * w, n, m->group_words, st.op == MS_OP_WRITE);
      out->dram_units += kd[s * W + j];
      if (kk) {
        out->step_disp[s]++;
        out->step_stages[s] += kk;
        sum += kk;
        if (hmm) per_dmm[(j / wpb) % d] += kk;
      }
    }
    if (st.async) out->async_reads += out->step_disp[s];
    if (shared_rule) {
      out->shared_stages += out->step_stages[s];
      out->shared_dispatches += out->step_disp[s];
    } else {
      out->global_stages += out->step_stages[s];
      out->global_dispatches += out->step_disp[s];
    }
    out->requests += out->step_req[s];
    if (out->step_req[s]) {
      if (hmm && st.space == MS_SPACE_SHARED) {
        guint64 mx = 0;
        for (guint b = 0; b < d; b++) mx = MAX(mx, per_dmm[b]);
        out->round_sum += mx + m->shared_latency - 1;
      } else if (hmm) {
        out->round_sum += sum + m->global_latency - 1;
      } else {
        out->round_sum += sum + m->latency - 1;
      }
    }
    g_free(a);
  }
  out->stages = out->shared_stages + out->global_stages;
  out->dispatches = out->shared_dispatches + out->global_dispatches;
  out->extra_stages = out->stages - out->dispatches;

  /* the schedule, straight from MODELS.md (GPU extensions included) */
  guint64 nblocks = (W + wpb - 1) / wpb;
  guint64 g_rate = m->global_rate > 1 ? m->global_rate : 1;
  /* L2: a declared footprint within l2_words puts the global pipeline at the L2's figures */
  gboolean l2 = m->l2_words && t->global_words && t->global_words <= m->l2_words;
  /* the cache's DRAM slots per time unit; with DRAM rows, units of 1 / (global_rate x
   * dram_lone_rate) time units per time unit */
  const gint64 d_rate = (gint64)g_rate * (m->dram_row_words ? (gint64)m->dram_lone_rate : 1) *
                       (m->dram_lone_write_rate ? (gint64)m->dram_lone_write_rate : 1);
  const gint64 d_lat = (gint64)(hmm ? m->global_latency : m->latency);
  gint64 next_dslot = 0;
  /* dmm_global_rate: each DMM's port, its next free slot */
  const gint64 p_rate = hmm ? (gint64)m->dmm_global_rate : 0;
  gint64 *next_pslot = g_new0(gint64, d);
  if (l2 || cache) g_rate = m->l2_rate;
  /* l2_write_rate: at the L2's figures, a read stage takes 1 / l2_rate time units and a write
   * stage 1 / l2_write_rate: slots of 1 / (l2_rate x l2_write_rate), wsr and wsw of them */
  gint64 wsr = 1, wsw = 1;
  if ((l2 || cache) && m->l2_write_rate) {
    wsr = (gint64)m->l2_write_rate;
    wsw = (gint64)m->l2_rate;
    g_rate *= m->l2_write_rate;
  }
  l2 = l2 || cache; /* the global pipeline at the L2's rate and latency */
  /* loaded latency: stages that entered each time unit, on the global pipeline and on the
   * cache's DRAM slots (index: the time unit) */
  const MsLoadCurve *main_curve = l2 ? &m->l2_loaded_latency : &m->global_loaded_latency;
  GArray *entered_main = g_array_new(FALSE, TRUE, sizeof(gint64));
  GArray *entered_dram = g_array_new(FALSE, TRUE, sizeof(gint64));
  gint64 L = (gint64)m->launch_units;
  /* residency: a limit that concerns this trace, on an hmm kind */
  gboolean dyn = hmm && (m->resident_warps || m->resident_blocks ||
                         (m->shared_words_per_dmm && t->shared_words));
  gboolean boundary = m->kind == MS_MODEL_ASYNC_HMM || dyn;
  guint64 lim_blocks = m->resident_blocks;
  if (dyn && m->shared_words_per_dmm && t->shared_words) {
    guint64 cap = m->shared_words_per_dmm / t->shared_words;
    if (!lim_blocks || cap < lim_blocks) lim_blocks = cap;
  }
  guint64 *pos = g_new0(guint64, W);     /* current step of each warp */
  /* issue_rate (docs/models.md, "Instructions"): each DMM's compute instructions since the
   * phase (kernel, or stretch between grid barriers) began at iphase; the phase ends no
   * earlier than iphase + ceil(the most of any DMM / issue_rate) */
  guint64 *iacc = hmm && m->issue_rate ? g_new0(guint64, d) : NULL;
  gint64 iphase = (gint64)m->launch_units;
  gint64 *ready = g_new0(gint64, W);     /* when it may be dispatched (or leave a barrier) */
  gint64 *next_slot = g_new0(gint64, npipes);
  guint64 *busy = g_new0(guint64, npipes);
  gint64 *last_warp = g_new(gint64, npipes);
  gint64 *bdmm = g_new(gint64, nblocks);  /* a block's DMM: static b mod d, or while resident */
  gboolean *placed = g_new0(gboolean, nblocks); /* placed in the current kernel */
  gboolean *resident = g_new0(gboolean, nblocks);
  gint64 *nstart = g_new0(gint64, d);    /* block_start_units: a DMM's next block starts no earlier */
  gint64 kstart = L;                     /* the current kernel's start */
  /* barrier time: a block that took part in a step of the current kernel pays for its block
   * barriers from then on */
  gboolean *seen = g_new0(gboolean, nblocks);
  for (guint64 b = 0; b < nblocks; b++) bdmm[b] = dyn ? -1 : (gint64)(b % d);
  for (guint64 j = 0; j < W; j++) ready[j] = L;
  /* read_window / posted_writes: when a warp may next issue (its last stage's entry + 1, or
   * its start), and the completion times of all its reads and writes so far */
  gboolean ext = m->read_window > 1 || m->posted_writes;
  gint64 *start = g_new(gint64, W), *issue = g_new(gint64, W);
  GArray **rdone = g_new(GArray *, W), **wdone = g_new(GArray *, W);
  /* asynchronous copies: the completion times of each warp's async reads; only an await, a
   * grid barrier and the warp's end wait for them (any model) */
  GArray **adone = g_new(GArray *, W);
  /* l2_posted_fences: when the L2 had each of a warp's writes (a signal waits for those) */
  GArray **wl2 = g_new(GArray *, W);
  const gboolean pfence = m->l2_posted_fences && m->l2_ways;
  for (guint64 j = 0; j < W; j++) {
    start[j] = issue[j] = L;
    rdone[j] = g_array_new(FALSE, FALSE, sizeof(gint64));
    wdone[j] = g_array_new(FALSE, FALSE, sizeof(gint64));
    adone[j] = g_array_new(FALSE, FALSE, sizeof(gint64));
    wl2[j] = g_array_new(FALSE, FALSE, sizeof(gint64));
  }
  for (guint q = 0; q < npipes; q++) last_warp[q] = -1;
  guint64 kernels = 1;
  gint64 last_complete = -1;
  for (gint64 now = 0;; now++) {
    cr_assert(now < 1000000, "naive evaluator ran away");
    gboolean changed = TRUE;
    while (changed) {
      changed = FALSE;
      /* 1. move warps past steps they have no request in, and through released barriers */
      for (guint64 j = 0; j < W; j++) {
        if (dyn && !resident[j / wpb]) continue;
        while (pos[j] < nsteps) {
          MsStep st = g_array_index(t->steps, MsStep, pos[j]);
          if (st.op != MS_OP_SYNC && (sh[pos[j] * W + j] || k[pos[j] * W + j] > 0 || l1h[pos[j] * W + j]))
            seen[j / wpb] = TRUE; /* it takes part in this step */
          if (MS_OP_IS_FLAG(st.op) && sh[pos[j] * W + j]) {
            /* a signal sets its lanes' flags when everything the warp issued has completed
             * (as it would arrive at a barrier) and goes on from then; a wait goes on from
             * the latest of its lanes' flags once all are set */
            const gint64 *fa = g_ptr_array_index(t->addr, pos[j]);
            gint64 tf = -1; /* a wait: the latest of its flags' times (its requests may be in flight) */
            if (st.op == MS_OP_SIGNAL) tf = ext ? MAX(ready[j], MAX(issue[j], start[j])) : ready[j];
            if (st.op == MS_OP_SIGNAL && ext && pfence) { /* its writes only until the L2 has them */
              tf = MAX(issue[j], start[j]);
              for (guint x = 0; x < rdone[j]->len; x++) tf = MAX(tf, g_array_index(rdone[j], gint64, x) + 1);
              for (guint x = 0; x < wl2[j]->len; x++) tf = MAX(tf, g_array_index(wl2[j], gint64, x) + 1);
            }
            gboolean all = TRUE;
            for (guint64 i = j * w; i < MIN(p, (j + 1) * w); i++) {
              if (fa[i] < 0) continue;
              if (st.op == MS_OP_SIGNAL) {
                cr_assert(ftime[fa[i]] < 0 || ftime[fa[i]] == tf, "a flag signalled twice by the generator");
                ftime[fa[i]] = tf;
              } else if (ftime[fa[i]] < 0) {
                all = FALSE;
              } else {
                tf = MAX(tf, ftime[fa[i]]);
              }
            }
            if (!all) break;
            ready[j] = MAX(ready[j], tf);
            if (ext) start[j] = MAX(start[j], tf);
            pos[j]++;
            changed = TRUE;
            continue;
          }
          if (st.op == MS_OP_AWAIT && sh[pos[j] * W + j]) { /* after its copies complete */
            gint64 ta = -1;
            for (guint i = 0; i < adone[j]->len; i++) ta = MAX(ta, g_array_index(adone[j], gint64, i) + 1);
            ready[j] = MAX(ready[j], ta);
            if (ext) issue[j] = MAX(issue[j], ta);
            pos[j]++;
            changed = TRUE;
            continue;
          }
          if (st.op == MS_OP_COMPUTE && sh[pos[j] * W + j] && !m->instruction_units) {
            /* without instruction_units a compute step waits for nothing and holds nothing:
             * the trace's time is as without it; issue_rate still counts it */
            if (iacc) iacc[bdmm[j / wpb]] += ci[pos[j] * W + j];
            pos[j]++;
            changed = TRUE;
            continue;
          }
          if ((st.op == MS_OP_SHUFFLE || st.op == MS_OP_COMPUTE) && sh[pos[j] * W + j]) {
            /* a shuffle it takes part in: after its reads (and, without posted writes, its
             * writes) complete, shuffle_units of its own time; no pipeline.  A compute step
             * alike, its instructions at instruction_units each */
            const gint64 su = st.op == MS_OP_SHUFFLE ? (gint64)m->shuffle_units
                                                     : ci[pos[j] * W + j] * (gint64)m->instruction_units;
            if (st.op == MS_OP_COMPUTE && iacc) iacc[bdmm[j / wpb]] += ci[pos[j] * W + j]; /* issue_rate */
            gint64 t0 = ready[j];
            if (ext) {
              t0 = MAX(issue[j], start[j]);
              for (guint i = 0; i < rdone[j]->len; i++) t0 = MAX(t0, g_array_index(rdone[j], gint64, i) + 1);
              if (!m->posted_writes)
                for (guint i = 0; i < wdone[j]->len; i++) t0 = MAX(t0, g_array_index(wdone[j], gint64, i) + 1);
              issue[j] = t0 + su;
              ready[j] = MAX(ready[j], t0 + su);
            } else {
              ready[j] = t0 + su;
            }
            if (su) {
              if (out->first[pos[j]] < 0 || t0 < out->first[pos[j]]) out->first[pos[j]] = t0;
              out->last[pos[j]] = MAX(out->last[pos[j]], t0 + su - 1);
              last_complete = MAX(last_complete, t0 + su - 1);
            }
            pos[j]++;
            changed = TRUE;
            continue;
          }
          const gboolean l1_port = hmm && p_rate && m->dmm_port_banks; /* hits go to the port */
          if (st.op == MS_OP_READ && k[pos[j] * W + j] == 0 && l1h[pos[j] * W + j] && !l1_port) {
            /* every group hit in the L1: no pipeline; it issues as a read would and
             * completes l1_latency later */
            gint64 t0 = ready[j];
            if (ext) {
              t0 = MAX(issue[j], start[j]);
              GArray *rd = rdone[j];
              if (!st.async && rd->len >= m->read_window) { /* the read_window-th latest read's completion */
                gint64 *v = g_memdup2(rd->data, rd->len * sizeof(gint64));
                for (guint x = 0; x < m->read_window; x++)
                  for (guint y = x + 1; y < rd->len; y++)
                    if (v[y] > v[x]) {
                      gint64 z = v[x];
                      v[x] = v[y];
                      v[y] = z;
                    }
                t0 = MAX(t0, v[m->read_window - 1] + 1);
                g_free(v);
              }
              if (!m->posted_writes)
                for (guint i = 0; i < wdone[j]->len; i++) t0 = MAX(t0, g_array_index(wdone[j], gint64, i) + 1);
            }
            const gint64 done = t0 + (gint64)m->l1_latency - 1;
            if (st.async) { /* the warp goes on at once */
              g_array_append_val(adone[j], done);
              if (ext) issue[j] = t0 + 1;
              ready[j] = MAX(ready[j], t0 + 1);
            } else if (ext) {
              issue[j] = t0 + 1;
              g_array_append_val(rdone[j], done);
              ready[j] = MAX(ready[j], done + 1);
            } else {
              ready[j] = done + 1;
            }
            if (out->first[pos[j]] < 0 || t0 < out->first[pos[j]]) out->first[pos[j]] = t0;
            out->last[pos[j]] = MAX(out->last[pos[j]], done);
            last_complete = MAX(last_complete, done);
            pos[j]++;
            changed = TRUE;
            continue;
          }
          if (st.op == MS_OP_SYNC || k[pos[j] * W + j] > 0 || (st.op == MS_OP_READ && l1h[pos[j] * W + j])) break;
          pos[j]++;
          changed = TRUE;
        }
      }
      for (guint64 j = 0; j < W; j++) {
        if (pos[j] >= nsteps) continue;
        guint64 s = pos[j];
        MsStep st = g_array_index(t->steps, MsStep, s);
        if (st.op != MS_OP_SYNC) continue;
        guint64 lo = 0, hi = W;
        if (st.scope == MS_SCOPE_BLOCK) {
          lo = (j / wpb) * wpb;
          hi = MIN(W, lo + wpb);
        }
        gboolean all = TRUE;
        gint64 rel = 0;
        for (guint64 i = lo; i < hi; i++) {
          /* residency: a block passes its kernel's end once it has started (and retired) */
          if (pos[i] != s || (dyn && !placed[i / wpb])) all = FALSE;
          rel = MAX(rel, ready[i]);
          if (st.scope == MS_SCOPE_GRID) /* a kernel's end waits for its copies */
            for (guint x = 0; x < adone[i]->len; x++) rel = MAX(rel, g_array_index(adone[i], gint64, x) + 1);
        }
        if (!all) continue;
        if (st.scope == MS_SCOPE_GRID && iacc) {
          guint64 most = 0;
          for (guint x = 0; x < d; x++) most = MAX(most, iacc[x]), iacc[x] = 0;
          const gint64 units = (gint64)((most + m->issue_rate - 1) / m->issue_rate);
          out->issue_units += (guint64)units;
          if (units) last_complete = MAX(last_complete, iphase + units - 1);
          rel = MAX(rel, iphase + units);
        }
        if (st.scope == MS_SCOPE_BLOCK && seen[j / wpb]) { /* barrier time: its warps served one at a time */
          gint64 end = -1;
          gboolean *taken = g_new0(gboolean, hi - lo);
          for (guint64 c = lo; c < hi; c++) { /* the earliest arrival not yet served, each time */
            guint64 best = hi;
            for (guint64 i = lo; i < hi; i++)
              if (!taken[i - lo] && (best == hi || ready[i] < ready[best])) best = i;
            taken[best - lo] = TRUE;
            end = MAX(end, ready[best]) + (gint64)m->barrier_warp_units;
          }
          g_free(taken);
          rel = end + (gint64)m->barrier_units;
        }
        if (st.scope == MS_SCOPE_GRID) memset(seen, 0, nblocks * sizeof *seen);
        if (st.scope == MS_SCOPE_GRID && boundary) { /* a kernel boundary */
          kernels++;
          rel += L;
          if (dyn) {
            kstart = rel;
            for (guint64 b = 0; b < nblocks; b++) placed[b] = resident[b] = FALSE;
          }
        }
        for (guint64 i = lo; i < hi; i++) {
          ready[i] = start[i] = rel;
          pos[i]++;
        }
        if (st.scope == MS_SCOPE_GRID) iphase = rel;
        changed = TRUE;
      }
      /* 2. residency: retire the blocks whose warps all finished the kernel with every request
       * completed (all of them first), then place waiting blocks in increasing order while a DMM
       * has room; the warps of placed blocks move in the next round (1.), so a block with no
       * request retires in the time unit it starts, after the placements of that round */
      if (dyn) {
        for (guint64 b = 0; b < nblocks; b++) {
          if (!resident[b]) continue;
          gboolean done = TRUE;
          for (guint64 j = b * wpb; j < MIN(W, (b + 1) * wpb); j++) {
            gboolean at_end = pos[j] >= nsteps;
            if (!at_end) {
              MsStep st = g_array_index(t->steps, MsStep, pos[j]);
              at_end = st.op == MS_OP_SYNC && st.scope == MS_SCOPE_GRID;
            }
            if (!at_end || ready[j] > now) done = FALSE;
            for (guint x = 0; x < adone[j]->len; x++) /* and its copies */
              if (g_array_index(adone[j], gint64, x) + 1 > now) done = FALSE;
          }
          if (done) {
            resident[b] = FALSE;
            changed = TRUE;
          }
        }
        if (changed) continue; /* move again, then retire, before placing */
        for (guint64 b = 0; b < nblocks && now >= kstart; b++) {
          if (placed[b]) continue;
          guint64 nw = MIN(wpb, W - b * wpb);
          gint64 best = -1;
          guint64 best_warps = 0;
          for (guint x = 0; x < d; x++) {
            guint64 rb = 0, rw = 0;
            for (guint64 c = 0; c < nblocks; c++)
              if (resident[c] && bdmm[c] == (gint64)x) {
                rb++;
                rw += MIN(wpb, W - c * wpb);
              }
            if (lim_blocks && rb + 1 > lim_blocks) continue;
            if (m->resident_warps && rw + nw > m->resident_warps) continue;
            if (best < 0 || rw < best_warps) {
              best = x;
              best_warps = rw;
            }
          }
          if (best < 0) break; /* blocks start in increasing order */
          placed[b] = resident[b] = TRUE;
          bdmm[b] = best;
          /* block_start_units: a block with a request in this kernel takes its DMM's next
           * start; one without starts (and retires) at once */
          gboolean req = FALSE;
          for (guint64 j = b * wpb; j < b * wpb + nw && !req; j++)
            for (guint64 s = pos[j]; s < nsteps; s++) {
              MsStep st = g_array_index(t->steps, MsStep, s);
              if (st.op == MS_OP_SYNC && st.scope == MS_SCOPE_GRID && boundary) break;
              if (st.op != MS_OP_SYNC && k[s * W + j] > 0) {
                req = TRUE;
                break;
              }
            }
          gint64 s0 = now;
          if (req && m->block_start_units) {
            s0 = MAX(now, nstart[best]);
            nstart[best] = s0 + (gint64)m->block_start_units;
          }
          for (guint64 j = b * wpb; j < b * wpb + nw; j++) ready[j] = start[j] = s0;
          changed = TRUE;
        }
      }
    }
    gboolean done = TRUE;
    for (guint64 j = 0; j < W; j++)
      if (pos[j] < nsteps) done = FALSE;
    if (done) break;
    /* 2. each pipeline takes the first ready warp after the last one it took, while its entry
     * has a free slot in this time unit (rate slots per time unit; rate 1: rules 1-4) */
    for (guint q = 0; q < npipes; q++) {
      gint64 rate = (gint64)((hmm ? q == d : m->kind == MS_MODEL_UMM) ? g_rate : 1);
      for (;;) {
        if (next_slot[q] >= (now + 1) * rate) break;
        gboolean took = FALSE;
        for (guint64 c = 1; c <= W; c++) {
          guint64 j = (guint64)((last_warp[q] + (gint64)c) % (gint64)W);
          if (dyn && !resident[j / wpb]) continue;
          if (pos[j] >= nsteps) continue;
          MsStep st = g_array_index(t->steps, MsStep, pos[j]);
          if (st.op == MS_OP_SYNC || st.op == MS_OP_SHUFFLE || st.op == MS_OP_AWAIT || MS_OP_IS_FLAG(st.op)) continue;
          if (!ext && ready[j] > now) continue;
          if (ext) { /* may it issue now? */
            if (start[j] > now || issue[j] > now) continue;
            guint inflight = 0, wait = 0;
            for (guint i = 0; i < rdone[j]->len; i++) inflight += g_array_index(rdone[j], gint64, i) >= now;
            for (guint i = 0; i < wdone[j]->len; i++) wait += g_array_index(wdone[j], gint64, i) >= now;
            if (m->posted_writes) wait = 0; /* reads and writes pass posted writes */
            if (st.async ? FALSE : st.op == MS_OP_READ ? inflight >= m->read_window : inflight > 0) continue;
            if (wait) continue;
          }
          guint pipe = !hmm ? 0 : st.space == MS_SPACE_GLOBAL ? d : (guint)bdmm[j / wpb];
          if (pipe != q) continue;
          guint64 kk = k[pos[j] * W + j];
          if (kk == 0) { /* a read whose every group hit the L1, with dmm_port_banks: no stage;
                          * its port slots from now on, its data l1_latency after the later of
                          * now and its last slot */
            const gint64 x = bdmm[j / wpb], ps = (gint64)kpn[pos[j] * W + j];
            const gint64 p0 = MAX(next_pslot[x], now * p_rate), pe = (p0 + ps - 1) / p_rate;
            next_pslot[x] = p0 + ps;
            gint64 complete = MAX(now, pe) + (gint64)m->l1_latency - 1;
            if (m->dmm_port_shared) { /* its wavefronts take the DMM's pipeline (rate 1) from now on */
              const gint64 dg = (gint64)kdg[pos[j] * W + j], b0 = MAX(next_slot[x], now);
              next_slot[x] = b0 + dg;
              busy[x] += (guint64)dg;
              complete = MAX(complete, b0 + dg - 1);
            }
            ready[j] = complete + 1;
            if (st.async) {
              g_array_append_val(adone[j], complete);
              ready[j] = now + 1;
              if (ext) {
                ready[j] = MAX(ready[j], start[j]);
                for (guint i = 0; i < rdone[j]->len; i++) ready[j] = MAX(ready[j], g_array_index(rdone[j], gint64, i) + 1);
                for (guint i = 0; i < wdone[j]->len; i++) ready[j] = MAX(ready[j], g_array_index(wdone[j], gint64, i) + 1);
                issue[j] = now + 1;
              }
            } else if (ext) {
              ready[j] = MAX(ready[j], start[j]);
              for (guint i = 0; i < rdone[j]->len; i++) ready[j] = MAX(ready[j], g_array_index(rdone[j], gint64, i) + 1);
              for (guint i = 0; i < wdone[j]->len; i++) ready[j] = MAX(ready[j], g_array_index(wdone[j], gint64, i) + 1);
              issue[j] = now + 1;
              g_array_append_val(rdone[j], complete);
            }
            last_warp[q] = (gint64)j;
            if (out->first[pos[j]] < 0 || now < out->first[pos[j]]) out->first[pos[j]] = now;
            out->last[pos[j]] = MAX(out->last[pos[j]], complete);
            last_complete = MAX(last_complete, complete);
            pos[j]++;
            took = TRUE;
            break;
          }
          guint64 l = !hmm ? m->latency : q == d ? m->global_latency : m->shared_latency;
          if (l2 && (hmm ? q == d : m->kind == MS_MODEL_UMM)) l = m->l2_latency;
          gint64 s0 = MAX(next_slot[q], now * rate);
          const gboolean gpipe = hmm ? q == d : m->kind == MS_MODEL_UMM;
          /* its slots: a read stage wsr, a whole group written wsw, a partly written group's
           * 1 + pw stages wsr each */
          const gint64 kpart = st.op == MS_OP_WRITE ? (gint64)((1 + pw) * kwn[pos[j] * W + j]) : 0;
          const gint64 ks = gpipe ? ((gint64)kk - kpart) * (st.op == MS_OP_WRITE ? wsw : wsr) + kpart * wsr : (gint64)kk;
          if (gpipe && main_curve->n) { /* loaded latency */
            l = naive_loaded(main_curve, entered_main, now, (gint64)l, rate);
            naive_enter(entered_main, s0, ks, rate);
          }
          gint64 complete = (s0 + ks - 1) / rate + (gint64)l - 1;
          gint64 at_l2 = complete; /* l2_posted_fences: the L2 has it (its port included) */
          const gint64 dk = (gint64)kd[pos[j] * W + j];
          if (dk) { /* the cache's DRAM slots, after those taken before, from now on */
            gint64 d0 = MAX(next_dslot, now * d_rate);
            gint64 dl = d_lat;
            if (m->global_loaded_latency.n) {
              dl = (gint64)naive_loaded(&m->global_loaded_latency, entered_dram, now, d_lat, d_rate);
              naive_enter(entered_dram, d0, dk, d_rate);
            }
            if (st.op != MS_OP_WRITE || !m->l2_posted_write_backs) /* else done when the L2 has it */
              complete = MAX(complete, (d0 + dk - 1) / d_rate + dl - 1);
            else /* and the trace ends no sooner than its DRAM slots */
              last_complete = MAX(last_complete, (d0 + dk - 1) / d_rate + dl - 1);
            next_dslot = d0 + dk;
          }
          if (l1h[pos[j] * W + j]) complete = MAX(complete, now + (gint64)m->l1_latency - 1); /* its L1 hits */
          gint64 entered = (s0 + ks - 1) / rate;
          if (p_rate && q == d) { /* the DMM's port: its slots too, from now on */
            const gint64 x = bdmm[j / wpb];
            /* dmm_port_banks: a read takes its bank degree (at least the key), and the port
             * is a queue: the warp is not held until its slots come */
            const gint64 ps = m->dmm_port_banks && st.op == MS_OP_READ ? (gint64)kpn[pos[j] * W + j] : (gint64)kk;
            gint64 p0 = MAX(next_pslot[x], now * p_rate);
            gint64 pe = (p0 + ps - 1) / p_rate;
            complete = MAX(complete, pe + (gint64)l - 1);
            at_l2 = MAX(at_l2, pe + (gint64)l - 1);
            if (!m->dmm_port_banks) entered = MAX(entered, pe);
            next_pslot[x] = p0 + ps;
            if (m->dmm_port_shared && st.op == MS_OP_READ) { /* its wavefronts: the DMM's pipeline */
              const gint64 dg = (gint64)kdg[pos[j] * W + j], b0 = MAX(next_slot[x], now);
              next_slot[x] = b0 + dg;
              busy[x] += (guint64)dg;
              complete = MAX(complete, b0 + dg - 1);
            }
          } else if (hmm && m->dmm_port_shared && q < d) { /* a shared access: one slot of its DMM's port */
            const gint64 p0 = MAX(next_pslot[q], now * p_rate);
            complete = MAX(complete, p0 / p_rate + (gint64)l - 1);
            next_pslot[q] = p0 + 1;
          }
          next_slot[q] = s0 + ks;
          busy[q] += (guint64)ks;
          ready[j] = complete + 1;
          if (st.async) { /* an async read: the warp goes on one time unit after it entered */
            g_array_append_val(adone[j], complete);
            ready[j] = entered + 1;
            if (ext) {
              ready[j] = MAX(ready[j], start[j]);
              for (guint i = 0; i < rdone[j]->len; i++) ready[j] = MAX(ready[j], g_array_index(rdone[j], gint64, i) + 1);
              for (guint i = 0; i < wdone[j]->len; i++) ready[j] = MAX(ready[j], g_array_index(wdone[j], gint64, i) + 1);
              issue[j] = entered + 1;
            }
          } else if (ext) { /* ready: everything complete (barriers, the end); issue: the next step */
            ready[j] = MAX(ready[j], start[j]);
            for (guint i = 0; i < rdone[j]->len; i++) ready[j] = MAX(ready[j], g_array_index(rdone[j], gint64, i) + 1);
            for (guint i = 0; i < wdone[j]->len; i++) ready[j] = MAX(ready[j], g_array_index(wdone[j], gint64, i) + 1);
            issue[j] = entered + 1;
            g_array_append_val(st.op == MS_OP_READ ? rdone[j] : wdone[j], complete);
            if (st.op == MS_OP_WRITE) g_array_append_val(wl2[j], at_l2);
          }
          last_warp[q] = (gint64)j;
          if (out->first[pos[j]] < 0 || now < out->first[pos[j]]) out->first[pos[j]] = now;
          out->last[pos[j]] = MAX(out->last[pos[j]], complete);
          last_complete = MAX(last_complete, complete);
          pos[j]++;
          took = TRUE;
          break;
        }
        if (!took) break;
      }
    }
  }
  if (iacc) { /* the last phase */
    guint64 most = 0;
    for (guint x = 0; x < d; x++) most = MAX(most, iacc[x]);
    const gint64 units = (gint64)((most + m->issue_rate - 1) / m->issue_rate);
    out->issue_units += (guint64)units;
    if (units) last_complete = MAX(last_complete, iphase + units - 1);
    g_free(iacc);
  }
  out->time_units = (guint64)(last_complete + 1);
  out->kernels = kernels;
  out->launch_total = kernels * (guint64)L;
  out->global_busy = out->shared_busy = 0;
  if (hmm || m->kind == MS_MODEL_UMM) out->global_busy = (busy[hmm ? d : 0] + g_rate - 1) / g_rate;
  if (cache) out->global_busy = MAX(out->global_busy, (out->dram_units + (guint64)d_rate - 1) / (guint64)d_rate);
  for (guint q = 0; q < npipes; q++)
    if (hmm ? q != d : m->kind == MS_MODEL_DMM) out->shared_busy = MAX(out->shared_busy, busy[q]);
  g_free(k);
  g_free(kd);
  g_free(sh);
  g_free(ci);
  g_free(ftime);
  g_free(l1h);
  g_free(kpn);
  g_free(kwn);
  g_free(kdg);
  g_free(l1.tag);
  g_free(l1.used);
  if (keep) {
    *keep = nc;
  } else {
    g_free(nc.tag);
    g_free(nc.used);
    g_free(nc.held);
    g_free(nc.dirty);
  }
  g_free(pos);
  g_free(ready);
  for (guint64 j = 0; j < W; j++) {
    g_array_free(rdone[j], TRUE);
    g_array_free(wdone[j], TRUE);
    g_array_free(adone[j], TRUE);
    g_array_free(wl2[j], TRUE);
  }
  g_free(adone);
  g_free(wl2);
  g_free(rdone);
  g_free(wdone);
  g_free(start);
  g_free(issue);
  g_free(next_slot);
  g_free(next_pslot);
  g_array_free(entered_main, TRUE);
  g_array_free(entered_dram, TRUE);
  g_free(busy);
  g_free(last_warp);
  g_free(bdmm);
  g_free(placed);
  g_free(resident);
  g_free(seen);
  g_free(nstart);
}

/* l2_warm: the run reported starts with the cache one earlier run of the trace left. */
static void naive_eval(const MsModel *m, const MtTrace *t, Naive *out) {
  const gboolean cache = m->l2_ways && (is_hmm(m) || m->kind == MS_MODEL_UMM);
  if (!m->l2_warm || !cache) {
    naive_eval_run(m, t, out, NULL);
    return;
  }
  NaiveCache keep = {0};
  Naive first;
  naive_eval_run(m, t, &first, &keep);
  naive_eval_run(m, t, out, &keep);
  g_free(keep.tag);
  g_free(keep.used);
  g_free(keep.held);
  g_free(keep.dirty);
}

/* ---- random traces ---- */

static const guint widths[] = {1, 2, 3, 4, 8, 32}; /* 32: more distinct groups than the engine's short list */

static MsModel *random_model(GRand *g) {
  MsModelKind kind = (MsModelKind)g_rand_int_range(g, 0, 4);
  guint w = widths[g_rand_int_range(g, 0, G_N_ELEMENTS(widths))];
  MsModel *m;
  if (kind == MS_MODEL_HMM || kind == MS_MODEL_ASYNC_HMM)
    m = ms_model_new(kind, w, 0, (guint32)g_rand_int_range(g, 1, 5),
                     (guint64)g_rand_int_range(g, 1, 13), (guint64)g_rand_int_range(g, 1, 13));
  else
    m = ms_model_new(kind, w, (guint64)g_rand_int_range(g, 1, 13), 1, 0, 0);
  if (kind != MS_MODEL_DMM && g_rand_int_range(g, 0, 4) == 0)
    m->group_words = (guint64)g_rand_int_range(g, 1, 17);
  return m;
}

static MtTrace *random_trace(GRand *g, guint w) {
  guint64 threads = (guint64)g_rand_int_range(g, 1, 41);
  guint64 bt = threads;
  if (g_rand_boolean(g)) bt = (guint64)w * (guint64)g_rand_int_range(g, 1, (gint32)(threads / w + 3));
  MtTrace *t = mt_trace_new(threads, bt);
  guint nsteps = (guint)g_rand_int_range(g, 1, 9);
  gint64 range = g_rand_int_range(g, 1, 3 * (gint32)w + 6);
  guint64 W = (threads + w - 1) / w;
  for (guint s = 0; s < nsteps; s++) {
    int r = g_rand_int_range(g, 0, 10);
    if (r < 2) {
      mt_sync(t, g_rand_boolean(g) ? MS_SCOPE_BLOCK : MS_SCOPE_GRID);
      continue;
    }
    if (r == 2) { /* a shuffle or a compute step: every thread, or a random part of them */
      /* (which one, and the counts, without drawing: the draws of other tests' traces stay) */
      const gboolean comp = (s + threads) % 2 == 1;
      gint64 *a = mt_mem(t, comp ? MS_OP_COMPUTE : MS_OP_SHUFFLE, MS_SPACE_GLOBAL);
      const gboolean all = g_rand_boolean(g);
      for (guint64 i = 0; i < threads; i++)
        a[i] = all || g_rand_int_range(g, 0, 3) == 0 ? (comp ? (gint64)((i * 7 + s) % 4 + 1) : 0) : MS_ADDR_NONE;
      continue;
    }
    gint64 *a = mt_mem(t, g_rand_boolean(g) ? MS_OP_READ : MS_OP_WRITE,
                       g_rand_boolean(g) ? MS_SPACE_SHARED : MS_SPACE_GLOBAL);
    gint64 base = g_rand_int_range(g, 0, 3) * 1000;
    /* random addresses, or lanes at base + (lane * stride) / div ascending or descending
     * (coalesced, strided and repeated patterns: the engine's no-set path for UMM groups) */
    int pattern = g_rand_int_range(g, 0, 3);
    gint64 stride = g_rand_int_range(g, 0, 2 * (gint32)w + 2), div = g_rand_int_range(g, 1, 4);
    for (guint64 j = 0; j < W; j++) {
      gboolean idle = g_rand_int_range(g, 0, 7) == 0; /* an all-inactive warp */
      for (guint64 i = j * w; i < MIN(threads, (j + 1) * w); i++) {
        gint64 lane = pattern == 1 ? (gint64)(i - j * w) : (gint64)((j + 1) * w - 1 - i);
        gint64 v = pattern == 0 ? g_rand_int_range(g, 0, (gint32)range) : lane * stride / div;
        a[i] = idle || g_rand_int_range(g, 0, 5) == 0 ? MS_ADDR_NONE : base + v;
      }
    }
  }
  return t;
}

static char *describe(const MsModel *m, const MtTrace *t, guint32 seed, guint iter) {
  GString *s = g_string_new(NULL);
  g_autofree char *md = ms_model_describe(m);
  g_string_append_printf(s, "seed %u iteration %u: %s; threads %lu block_threads %lu shared_words %lu global_words %lu\n",
                         seed, iter, md, (unsigned long)t->threads, (unsigned long)t->block_threads,
                         (unsigned long)t->shared_words, (unsigned long)t->global_words);
  for (guint i = 0; i < t->steps->len; i++) {
    MsStep st = g_array_index(t->steps, MsStep, i);
    const gint64 *a = g_ptr_array_index(t->addr, i);
    if (st.op == MS_OP_SYNC) {
      g_string_append_printf(s, "  sync %s\n", ms_scope_name(st.scope));
      continue;
    }
    if (MS_OP_IS_FLAG(st.op)) {
      g_string_append_printf(s, "  %s [", ms_op_name(st.op));
      for (guint64 j = 0; j < t->threads; j++) {
        if (j) g_string_append(s, j % m->width ? ", " : " | ");
        if (a[j] < 0) g_string_append(s, "null");
        else g_string_append_printf(s, "f%ld", (long)a[j]);
      }
      g_string_append(s, "]\n");
      continue;
    }
    if (st.op == MS_OP_COMPUTE) {
      g_string_append(s, "  compute [");
      for (guint64 j = 0; j < t->threads; j++) {
        if (j) g_string_append(s, j % m->width ? ", " : " | ");
        if (a[j] < 0) g_string_append(s, "null");
        else g_string_append_printf(s, "%ld", (long)a[j]);
      }
      g_string_append(s, "]\n");
      continue;
    }
    if (st.op == MS_OP_SHUFFLE || st.op == MS_OP_AWAIT) {
      g_string_append_printf(s, "  %s [", ms_op_name(st.op));
      for (guint64 j = 0; j < t->threads; j++) g_string_append(s, a[j] < 0 ? "." : "x");
      g_string_append(s, "]\n");
      continue;
    }
    g_string_append_printf(s, "  %s%s %s [", ms_op_name(st.op), st.async ? " async" : "", ms_space_name(st.space));
    for (guint64 j = 0; j < t->threads; j++) {
      if (j) g_string_append(s, j % m->width ? ", " : " | ");
      if (a[j] < 0) g_string_append(s, "null");
      else g_string_append_printf(s, "%ld", (long)a[j]);
    }
    g_string_append(s, "]\n");
  }
  return g_string_free(s, FALSE);
}

#define CHECK(field, got, want)                                                            \
  cr_assert_eq((guint64)(got), (guint64)(want), "%s: engine %ld, naive %ld\n%s", field,    \
               (long)(got), (long)(want), desc)

static void compare(const MsResult *r, const Naive *n, const char *desc) {
  CHECK("time_units", r->time_units, n->time_units);
  CHECK("stages", r->stages, n->stages);
  CHECK("dispatches", r->dispatches, n->dispatches);
  CHECK("requests", r->requests, n->requests);
  CHECK("extra_stages", r->extra_stages, n->extra_stages);
  CHECK("round_sum", r->round_sum, n->round_sum);
  CHECK("shared.stages", r->shared.stages, n->shared_stages);
  CHECK("shared.dispatches", r->shared.dispatches, n->shared_dispatches);
  CHECK("global.stages", r->global.stages, n->global_stages);
  CHECK("global.dispatches", r->global.dispatches, n->global_dispatches);
  CHECK("grid_barriers", r->grid_barriers, n->grid_barriers);
  CHECK("block_barriers", r->block_barriers, n->block_barriers);
  CHECK("steps", r->steps, n->nsteps);
  CHECK("kernels", r->kernels, n->kernels);
  CHECK("launch_total", r->launch_total, n->launch_total);
  CHECK("global_busy", r->global_busy, n->global_busy);
  CHECK("shared_busy", r->shared_busy, n->shared_busy);
  CHECK("l2_hits", r->l2_hits, n->l2_hits);
  CHECK("l2_misses", r->l2_misses, n->l2_misses);
  CHECK("dram_stages", r->dram_stages, n->dram_stages);
  CHECK("dram_lone_stages", r->dram_lone_stages, n->dram_lone_stages);
  CHECK("shuffle_steps", r->shuffle_steps, n->shuffle_steps);
  CHECK("shuffles", r->shuffles, n->shuffles);
  CHECK("compute_steps", r->compute_steps, n->compute_steps);
  CHECK("instructions", r->instructions, n->instructions);
  CHECK("issue_units", r->issue_units, n->issue_units);
  CHECK("signals", r->signals, n->signals);
  CHECK("waits", r->waits, n->waits);
  CHECK("async_reads", r->async_reads, n->async_reads);
  CHECK("awaits", r->awaits, n->awaits);
  CHECK("l1_hits", r->l1_hits, n->l1_hits);
  CHECK("l1_misses", r->l1_misses, n->l1_misses);
  if (!r->per_step) return;
  cr_assert_eq(r->per_step->len, n->nsteps, "per_step length\n%s", desc);
  for (guint s = 0; s < n->nsteps; s++) {
    const MsStepResult *ps = &g_array_index(r->per_step, MsStepResult, s);
    char f[64];
    g_snprintf(f, sizeof f, "step %u stages", s);
    CHECK(f, ps->stages, n->step_stages[s]);
    g_snprintf(f, sizeof f, "step %u dispatches", s);
    CHECK(f, ps->dispatches, n->step_disp[s]);
    g_snprintf(f, sizeof f, "step %u requests", s);
    CHECK(f, ps->requests, n->step_req[s]);
    g_snprintf(f, sizeof f, "step %u first_dispatch", s);
    CHECK(f, ps->first_dispatch, n->first[s]);
    g_snprintf(f, sizeof f, "step %u last_complete", s);
    CHECK(f, ps->last_complete, n->last[s]);
  }
}

static guint32 test_seed(guint32 fallback) {
  const char *e = g_getenv("MEMSIM_SEED");
  return e ? (guint32)strtoul(e, NULL, 10) : fallback;
}

#define RANDOM_TRACES 3000

Test(bruteforce, engine_should_match_naive_evaluator_on_random_traces) {
  guint32 seed = test_seed(20240601u);
  GRand *g = g_rand_new_with_seed(seed);
  guint kinds[4] = {0};
  for (guint it = 0; it < RANDOM_TRACES; it++) {
    MsModel *m = random_model(g);
    MtTrace *t = random_trace(g, m->width);
    kinds[m->kind]++;
    g_autofree char *desc = describe(m, t, seed, it);
    Naive n;
    naive_eval(m, t, &n);
    MsSimOptions opt = {.per_step = TRUE};
    MsResult *r = mt_run(m, t, &opt);
    compare(r, &n, desc);
    ms_result_free(r);
    mt_trace_free(t);
    ms_model_free(m);
  }
  for (int k = 0; k < 4; k++) cr_expect_gt(kinds[k], RANDOM_TRACES / 8, "kind %d under-tested", k);
  g_rand_free(g);
}

static void random_curve(GRand *g, MsLoadCurve *c) {
  c->n = (guint32)g_rand_int_range(g, 1, 5);
  guint32 u = (guint32)g_rand_int_range(g, 0, 300);
  guint64 lat = (guint64)g_rand_int_range(g, 1, 6);
  for (guint32 i = 0; i < c->n; i++) {
    c->u[i] = u;
    c->lat[i] = lat;
    u += (guint32)g_rand_int_range(g, 1, 300);
    if (u > 1000) {
      c->n = i + 1;
      break;
    }
    lat += (guint64)g_rand_int_range(g, 0, 6);
  }
}

/* Loaded latency, from a generator of its own (so that the other draws stay those of
 * earlier seeds): random curves of 1 .. 4 points on a third of the models that can have them. */
static void random_loaded(GRand *g, MsModel *m) {
  if (m->kind != MS_MODEL_DMM && g_rand_int_range(g, 0, 3) == 0) random_curve(g, &m->global_loaded_latency);
  if (m->l2_words && g_rand_int_range(g, 0, 3) == 0) random_curve(g, &m->l2_loaded_latency);
}

/* The GPU extensions: global_rate, residency (warps, blocks, shared words), launch_units, each
 * set at random on top of a random model and trace (limits drawn so that every block fits). */
static void random_extensions(GRand *g, MsModel *m, MtTrace *t) {
  guint64 W = (t->threads + m->width - 1) / m->width;
  guint64 wpb = t->block_threads >= t->threads ? W : t->block_threads / m->width;
  if (m->kind != MS_MODEL_DMM && g_rand_int_range(g, 0, 3)) m->global_rate = (guint32)g_rand_int_range(g, 1, 6);
  if (g_rand_int_range(g, 0, 3) == 0) m->launch_units = (guint64)g_rand_int_range(g, 0, 7);
  if (m->kind != MS_MODEL_DMM && g_rand_int_range(g, 0, 4) == 0) {
    m->l2_words = (guint64)g_rand_int_range(g, 1, 3000);
    m->l2_latency = (guint64)g_rand_int_range(g, 1, 9);
    m->l2_rate = (guint32)g_rand_int_range(g, 1, 5);
    t->global_words = (guint64)g_rand_int_range(g, 1, 3000);
    if (g_rand_int_range(g, 0, 2) == 0) m->l2_partial_write_stages = (guint32)g_rand_int_range(g, 1, 4);
    if (g_rand_int_range(g, 0, 2) == 0) { /* the L2 cache: a few small sets, so that groups are evicted */
      m->l2_ways = (guint32)g_rand_int_range(g, 1, 5);
      m->l2_words = (guint64)g_rand_int_range(g, 1, 120);
      t->global_words = g_rand_int_range(g, 0, 3) ? m->l2_words + 1 : 0;
      /* partitions: each at least one set */
      const guint64 sets = m->l2_words / m->group_words / m->l2_ways;
      if (ms_model_is_hmm(m) && sets >= 2 && g_rand_boolean(g))
        m->l2_partitions = (guint32)g_rand_int_range(g, 2, (gint32)MIN(sets, 4) + 1);
      /* lines of 2 or 4 groups, where each partition keeps a set */
      const guint64 q = g_rand_boolean(g) ? (guint64)(2 << g_rand_int_range(g, 0, 2)) : 1;
      if (q > 1 && m->l2_words / (q * m->group_words) / m->l2_ways >= MAX(1u, m->l2_partitions))
        m->l2_line_words = q * m->group_words;
      m->l2_hashed_sets = g_rand_boolean(g);
    }
  }
  if (m->kind != MS_MODEL_DMM && !m->l2_ways && g_rand_int_range(g, 0, 3) == 0)
    m->partial_write_stages = (guint32)g_rand_int_range(g, 1, 4);
  if (ms_model_is_hmm(m)) {
    if (g_rand_boolean(g)) m->resident_warps = wpb + (guint64)g_rand_int_range(g, 0, (gint32)(2 * wpb + 1));
    if (g_rand_boolean(g)) m->resident_blocks = (guint64)g_rand_int_range(g, 1, 4);
    if ((m->resident_warps || m->resident_blocks) && g_rand_boolean(g))
      m->block_start_units = (guint64)g_rand_int_range(g, 1, 6);
    if (g_rand_int_range(g, 0, 3) == 0) {
      m->dmm_global_rate = (guint32)g_rand_int_range(g, 1, 4);
      /* dmm_port_banks on half of them, from a generator of its own: the other draws (and so
       * the other keys' coverage) stay as they were */
      static GRand *pb;
      if (!pb) pb = g_rand_new_with_seed(20261128);
      if (g_rand_boolean(pb)) m->dmm_port_banks = (guint32)g_rand_int_range(pb, 1, 5);
    }
    if (g_rand_int_range(g, 0, 3) == 0) {
      t->shared_words = (guint64)g_rand_int_range(g, 1, 50);
      m->shared_words_per_dmm = t->shared_words * (guint64)g_rand_int_range(g, 1, 4) +
                                (guint64)g_rand_int_range(g, 0, (gint32)t->shared_words);
    }
  }
  /* warp issue: reads in flight, posted writes */
  if (g_rand_int_range(g, 0, 3) == 0) m->read_window = (guint32)g_rand_int_range(g, 1, 5);
  if (g_rand_int_range(g, 0, 3) == 0) m->posted_writes = TRUE;
  /* warp shuffles (not with block starts: a shuffle before a block's first request delays
   * its start, which the evaluator's placement-time starts do not see) */
  if (!m->block_start_units && g_rand_int_range(g, 0, 3) == 0) m->shuffle_units = (guint64)g_rand_int_range(g, 1, 6);
  /* the L1: small shares of few ways, so that groups hit and are evicted (not with block
   * starts, for the same reason as shuffles: a read that hits is a block's request) */
  if (ms_model_is_hmm(m) && !m->block_start_units && g_rand_boolean(g)) {
    m->l1_words = (guint64)g_rand_int_range(g, 1, 80);
    m->l1_latency = (guint64)g_rand_int_range(g, 1, 7);
    m->l1_ways = (guint32)g_rand_int_range(g, 1, 5);
  }
  /* instructions (not with block starts either: a compute step does not start a block), a
   * third of the models, without drawing (the draws of the traces that follow stay) */
  static guint calls;
  calls++;
  if (!m->block_start_units && calls % 3 == 0) m->instruction_units = 1 + (calls / 3) % 3;
  /* and on half of those hmm models an issue limit, 1 .. 4 instructions per time unit */
  /* and an issue limit on half the hmm models, 1 or 2 instructions per time unit (with or
   * without instruction_units: the two are apart) */
  if (ms_model_is_hmm(m) && !m->block_start_units && calls % 2 == 0) m->issue_rate = (calls / 2) % 4 == 0 ? 2 : 1;
}

/* Flags: the trace `t` again with signal and wait steps put between its steps (at most 16
 * steps in all).  A signal's warp names one new flag on some of its lanes; a wait's lanes name
 * flags signalled at an earlier step by a warp of the same block or of a lower-numbered one,
 * so that no trace deadlocks: blocks are placed in increasing order, and a signal before the
 * wait cannot need the waiting warp at a later step. */
typedef struct {
  guint64 step, block;
  gint64 flag;
} SigRec;

static MtTrace *random_flags(GRand *g, const MtTrace *t, guint w) {
  const guint64 p = t->threads, W = (p + w - 1) / w;
  const guint64 wpb = t->block_threads >= p ? W : t->block_threads / w;
  MtTrace *o = mt_trace_new(p, t->block_threads);
  o->shared_words = t->shared_words;
  o->global_words = t->global_words;
  GArray *sig = g_array_new(FALSE, FALSE, sizeof(SigRec));
  gint64 nextf = 0;
  guint room = 16 - t->steps->len;
  for (guint s = 0; s <= t->steps->len; s++) {
    for (int k = 0; k < 2 && room; k++) {
      if (g_rand_int_range(g, 0, 3)) continue;
      const gboolean wait = k == 1 && sig->len;
      const guint64 here = o->steps->len;
      gint64 *a = mt_mem(o, wait ? MS_OP_WAIT : MS_OP_SIGNAL, MS_SPACE_GLOBAL);
      room--;
      for (guint64 j = 0; j < W; j++) {
        if (g_rand_int_range(g, 0, 3) == 0) continue; /* a warp that takes no part */
        const guint64 b = j / wpb;
        const gint64 f = nextf;
        gboolean used = FALSE;
        for (guint64 i = j * w; i < MIN(p, (j + 1) * w); i++) {
          if (g_rand_int_range(g, 0, 3) == 0) continue;
          if (!wait) {
            a[i] = f;
            used = TRUE;
            continue;
          }
          const SigRec *c = &g_array_index(sig, SigRec, g_rand_int_range(g, 0, (gint32)sig->len));
          if (c->step < here && c->block <= b) a[i] = c->flag;
        }
        if (used) {
          SigRec r = {here, b, f};
          g_array_append_val(sig, r);
          nextf++;
        }
      }
    }
    if (s == t->steps->len) break;
    const MsStep st = g_array_index(t->steps, MsStep, s);
    if (st.op == MS_OP_SYNC) mt_sync(o, st.scope);
    else mt_mem_arr(o, st.op, st.space, g_ptr_array_index(t->addr, s));
  }
  g_array_free(sig, TRUE);
  return o;
}

#define RANDOM_FLAG_TRACES 3000

/* Signal and wait steps (docs/models.md, "Flags"), on random models with and without the GPU
 * extensions. */
Test(bruteforce, engine_should_match_naive_evaluator_with_flags) {
  guint32 seed = test_seed(20261126u);
  GRand *g = g_rand_new_with_seed(seed);
  GRand *gf = g_rand_new_with_seed(seed ^ 0x0f0f0f0fu);
  guint fenced = 0; /* traces whose time l2_posted_fences changes */
  guint waited = 0, delayed = 0, dyn = 0;
  for (guint it = 0; it < RANDOM_FLAG_TRACES; it++) {
    MsModel *m = random_model(g);
    MtTrace *t0 = random_trace(g, m->width);
    if (g_rand_boolean(g)) random_extensions(g, m, t0);
    m->block_start_units = 0; /* as for shuffles: a wait before a block's first request */
    if (m->l2_ways) m->l2_posted_fences = g_rand_boolean(gf); /* its own generator: the draws above stay */
    MtTrace *t = random_flags(g, t0, m->width);
    mt_trace_free(t0);
    g_autofree char *desc = describe(m, t, seed, it);
    Naive n;
    naive_eval(m, t, &n);
    MsSimOptions opt = {.per_step = TRUE};
    MsResult *r = mt_run(m, t, &opt);
    compare(r, &n, desc);
    waited += r->waits > 0;
    dyn += r->waits > 0 && ms_model_is_hmm(m) && (m->resident_warps || m->resident_blocks);
    /* the same trace without its waits, to count the traces whose waits change the time (not
     * always later: a delayed warp changes the round robin's order, which can end sooner) */
    MtTrace *nw = mt_trace_new(t->threads, t->block_threads);
    nw->shared_words = t->shared_words;
    nw->global_words = t->global_words;
    for (guint s = 0; s < t->steps->len; s++) {
      const MsStep st = g_array_index(t->steps, MsStep, s);
      if (st.op == MS_OP_SYNC) mt_sync(nw, st.scope);
      else if (st.op != MS_OP_WAIT) mt_mem_arr(nw, st.op, st.space, g_ptr_array_index(t->addr, s));
    }
    MsResult *r2 = mt_run(m, nw, &opt);
    delayed += r2->time_units != r->time_units;
    ms_result_free(r2);
    mt_trace_free(nw);
    if (m->l2_posted_fences) { /* does it matter? the same without the key */
      MsModel *m2 = ms_model_copy(m);
      m2->l2_posted_fences = FALSE;
      MsResult *r3 = mt_run(m2, t, &opt);
      fenced += r3->time_units != r->time_units;
      ms_result_free(r3);
      ms_model_free(m2);
    }
    ms_result_free(r);
    mt_trace_free(t);
    ms_model_free(m);
  }
  cr_expect_gt(waited, RANDOM_FLAG_TRACES / 4, "waits under-tested: %u", waited);
  cr_expect_gt(delayed, RANDOM_FLAG_TRACES / 40, "waits that delay under-tested: %u", delayed);
  cr_expect_gt(dyn, RANDOM_FLAG_TRACES / 50, "waits with residency limits under-tested: %u", dyn);
  /* (rarely: the posted_fences test below makes the traces where it does) */
  cr_log_info("l2_posted_fences: %u traces whose time depends on it", fenced);
  g_rand_free(g);
  g_rand_free(gf);
}

/* Asynchronous copies (docs/models.md, "Asynchronous copies"): t's global reads, each made
 * async or not at random, with await steps of random warps and lanes put between the steps. */
static MtTrace *random_async(GRand *g, const MtTrace *t, guint w) {
  const guint64 p = t->threads, W = (p + w - 1) / w;
  MtTrace *o = mt_trace_new(p, t->block_threads);
  o->shared_words = t->shared_words;
  o->global_words = t->global_words;
  guint room = 16 - t->steps->len;
  for (guint s = 0; s <= t->steps->len; s++) {
    if (room && g_rand_int_range(g, 0, 3) == 0) {
      gint64 *a = mt_mem(o, MS_OP_AWAIT, MS_SPACE_GLOBAL);
      room--;
      const gboolean all = g_rand_boolean(g);
      for (guint64 j = 0; j < W; j++) {
        const gboolean part = all || g_rand_int_range(g, 0, 3) != 0;
        for (guint64 i = j * w; i < MIN(p, (j + 1) * w); i++)
          a[i] = part && (all || g_rand_int_range(g, 0, 2)) ? 0 : MS_ADDR_NONE;
      }
    }
    if (s == t->steps->len) break;
    const MsStep st = g_array_index(t->steps, MsStep, s);
    if (st.op == MS_OP_SYNC) {
      mt_sync(o, st.scope);
      continue;
    }
    mt_mem_arr(o, st.op, st.space, g_ptr_array_index(t->addr, s));
    if (st.op == MS_OP_READ && st.space == MS_SPACE_GLOBAL && g_rand_int_range(g, 0, 3))
      g_array_index(o->steps, MsStep, o->steps->len - 1).async = TRUE;
  }
  return o;
}

/* The same trace without its asynchrony: async reads made plain, await steps left out. */
static MtTrace *without_async(const MtTrace *t) {
  MtTrace *o = mt_trace_new(t->threads, t->block_threads);
  o->shared_words = t->shared_words;
  o->global_words = t->global_words;
  for (guint s = 0; s < t->steps->len; s++) {
    const MsStep st = g_array_index(t->steps, MsStep, s);
    if (st.op == MS_OP_SYNC) mt_sync(o, st.scope);
    else if (st.op != MS_OP_AWAIT) mt_mem_arr(o, st.op, st.space, g_ptr_array_index(t->addr, s));
  }
  return o;
}

#define RANDOM_ASYNC_TRACES 3000

/* Async reads and await steps, on random models with and without the GPU extensions. */
Test(bruteforce, engine_should_match_naive_evaluator_with_async_copies) {
  guint32 seed = test_seed(20261127u);
  GRand *g = g_rand_new_with_seed(seed);
  guint copied = 0, sooner = 0, held = 0, dyn = 0, ext = 0;
  for (guint it = 0; it < RANDOM_ASYNC_TRACES; it++) {
    MsModel *m = random_model(g);
    MtTrace *t0 = random_trace(g, m->width);
    if (g_rand_boolean(g)) random_extensions(g, m, t0);
    MtTrace *t = random_async(g, t0, m->width);
    mt_trace_free(t0);
    g_autofree char *desc = describe(m, t, seed, it);
    if (g_getenv("DBG")) fprintf(stderr, "%s\n", desc);
    Naive n;
    naive_eval(m, t, &n);
    MsSimOptions opt = {.per_step = TRUE};
    MsResult *r = mt_run(m, t, &opt);
    compare(r, &n, desc);
    if (r->async_reads) {
      copied++;
      dyn += ms_model_is_hmm(m) && (m->resident_warps || m->resident_blocks);
      ext += m->read_window > 1 || m->posted_writes;
      /* the same without asynchrony: sooner (the copies overlap), and the awaits alone */
      MtTrace *plain = without_async(t);
      MsResult *rp = mt_run(m, plain, &opt);
      sooner += r->time_units < rp->time_units;
      ms_result_free(rp);
      mt_trace_free(plain);
      MtTrace *noawait = without_async(t);
      for (guint s = 0, q = 0; s < t->steps->len; s++) { /* async again, awaits still out */
        const MsStep st = g_array_index(t->steps, MsStep, s);
        if (st.op == MS_OP_AWAIT) continue;
        g_array_index(noawait->steps, MsStep, q++).async = st.async;
      }
      MsResult *rn = mt_run(m, noawait, &opt);
      held += rn->time_units != r->time_units;
      ms_result_free(rn);
      mt_trace_free(noawait);
    }
    ms_result_free(r);
    mt_trace_free(t);
    ms_model_free(m);
  }
  cr_expect_gt(copied, RANDOM_ASYNC_TRACES / 4, "async reads under-tested: %u", copied);
  cr_expect_gt(sooner, RANDOM_ASYNC_TRACES / 20, "async reads that overlap under-tested: %u", sooner);
  cr_expect_gt(held, RANDOM_ASYNC_TRACES / 40, "awaits that hold under-tested: %u", held);
  cr_expect_gt(dyn, RANDOM_ASYNC_TRACES / 50, "async reads with residency limits under-tested: %u", dyn);
  cr_expect_gt(ext, RANDOM_ASYNC_TRACES / 20, "async reads with the warp issue keys under-tested: %u", ext);
  cr_log_info("async: %u traces with copies, %u sooner than without, %u held by their awaits", copied, sooner, held);
  g_rand_free(g);
}

#define RANDOM_FENCE_TRACES 2000

/* l2_posted_fences (docs/models.md, "Posted fences"): traces with flags on umm and hmm models
 * that run them through an L2 cache, with posted writes, so that a signal has writes in flight
 * whose DRAM slots come after the L2 has them. */
Test(bruteforce, engine_should_match_naive_evaluator_with_posted_fences) {
  guint32 seed = test_seed(20261128u);
  GRand *g = g_rand_new_with_seed(seed);
  guint fenced = 0;
  for (guint it = 0; it < RANDOM_FENCE_TRACES; it++) {
    MsModel *m = random_model(g);
    while (m->kind == MS_MODEL_DMM) {
      ms_model_free(m);
      m = random_model(g);
    }
    MtTrace *t0 = random_trace(g, m->width);
    random_extensions(g, m, t0);
    if (!m->l2_ways) { /* a small cache the trace does not fit */
      m->l2_words = (guint64)g_rand_int_range(g, (gint32)m->group_words, 120);
      m->l2_latency = (guint64)g_rand_int_range(g, 1, 9);
      m->l2_rate = (guint32)g_rand_int_range(g, 1, 5);
      m->l2_ways = (guint32)g_rand_int_range(g, 1, 5);
      m->partial_write_stages = 0;
      t0->global_words = m->l2_words + 1;
    }
    m->posted_writes = TRUE;
    m->l2_posted_fences = TRUE;
    m->block_start_units = 0; /* as in the flags test */
    MtTrace *t = random_flags(g, t0, m->width);
    mt_trace_free(t0);
    g_autofree char *desc = describe(m, t, seed, it);
    Naive n;
    naive_eval(m, t, &n);
    MsSimOptions opt = {.per_step = TRUE};
    MsResult *r = mt_run(m, t, &opt);
    compare(r, &n, desc);
    MsModel *m2 = ms_model_copy(m);
    m2->l2_posted_fences = FALSE;
    MsResult *r2 = mt_run(m2, t, &opt);
    fenced += r2->time_units != r->time_units;
    ms_result_free(r2);
    ms_model_free(m2);
    ms_result_free(r);
    mt_trace_free(t);
    ms_model_free(m);
  }
  cr_expect_gt(fenced, RANDOM_FENCE_TRACES / 20, "signals that the key moves under-tested: %u", fenced);
  cr_log_info("l2_posted_fences: %u traces whose time depends on it", fenced);
  g_rand_free(g);
}

#define RANDOM_DRAM_ROW_TRACES 2000

/* DRAM rows (docs/models.md, "DRAM rows"): umm and hmm models with an L2 cache that the trace
 * does not fit, rows of 1, 2, 4 or 8 groups and a lone rate of 1 .. global_rate, on random
 * traces with and without the other extensions. */
Test(bruteforce, engine_should_match_naive_evaluator_with_dram_rows) {
  guint32 seed = test_seed(20261129u);
  GRand *g = g_rand_new_with_seed(seed);
  guint moved = 0, lone = 0, wrate = 0, wmoved = 0;
  for (guint it = 0; it < RANDOM_DRAM_ROW_TRACES; it++) {
    MsModel *m = random_model(g);
    while (m->kind == MS_MODEL_DMM) {
      ms_model_free(m);
      m = random_model(g);
    }
    MtTrace *t = random_trace(g, m->width);
    if (g_rand_boolean(g)) random_extensions(g, m, t);
    if (!m->l2_ways) { /* a small cache the trace does not fit */
      m->l2_words = (guint64)g_rand_int_range(g, (gint32)m->group_words, 120);
      m->l2_latency = (guint64)g_rand_int_range(g, 1, 9);
      m->l2_rate = (guint32)g_rand_int_range(g, 1, 5);
      m->l2_ways = (guint32)g_rand_int_range(g, 1, 5);
      m->l2_partitions = 1;
      m->l2_line_words = 0;
      m->partial_write_stages = 0;
      t->global_words = g_rand_boolean(g) ? m->l2_words + 1 : 0;
    }
    if (m->global_rate < 2) m->global_rate = (guint32)g_rand_int_range(g, 2, 6); /* a lone slot can cost more */
    m->dram_row_words = m->group_words << g_rand_int_range(g, 0, 4);
    m->dram_lone_rate = (guint32)g_rand_int_range(g, 1, (gint32)m->global_rate + 1);
    if (it % 2) m->dram_lone_write_rate = (guint32)g_rand_int_range(g, 1, (gint32)m->global_rate + 1);
    wrate += m->dram_lone_write_rate > 0;
    g_autofree char *desc = describe(m, t, seed, it);
    Naive n;
    naive_eval(m, t, &n);
    MsSimOptions opt = {.per_step = TRUE};
    MsResult *r = mt_run(m, t, &opt);
    compare(r, &n, desc);
    lone += r->dram_lone_stages > 0;
    if (m->dram_lone_write_rate) { /* the same without the write rate */
      MsModel *m3 = ms_model_copy(m);
      m3->dram_lone_write_rate = 0;
      MsResult *r3 = mt_run(m3, t, &opt);
      wmoved += r3->time_units != r->time_units;
      ms_result_free(r3);
      ms_model_free(m3);
    }
    MsModel *m2 = ms_model_copy(m);
    m2->dram_row_words = 0;
    m2->dram_lone_rate = 0;
    m2->dram_lone_write_rate = 0;
    MsResult *r2 = mt_run(m2, t, &opt);
    moved += r2->time_units != r->time_units;
    cr_assert_eq(r2->dram_stages, r->dram_stages, "%s: the rows change no slot count", desc);
    ms_result_free(r2);
    ms_model_free(m2);
    ms_result_free(r);
    mt_trace_free(t);
    ms_model_free(m);
  }
  cr_expect_gt(lone, RANDOM_DRAM_ROW_TRACES / 4, "lone DRAM slots under-tested: %u", lone);
  cr_expect_gt(moved, RANDOM_DRAM_ROW_TRACES / 10, "traces whose time the rows move under-tested: %u", moved);
  cr_expect_gt(wmoved, wrate / 20, "dram_lone_write_rate that moves a time under-tested: %u of %u", wmoved, wrate);
  cr_log_info("dram rows: %u traces with lone slots, %u whose time they move; %u with a write rate, %u moved", lone,
              moved, wrate, wmoved);
  g_rand_free(g);
}

#define RANDOM_WRITE_RATE_TRACES 1500

/* l2_write_rate (docs/models.md, "Whole writes in L2"): random umm and hmm models with the L2
 * keys, their traces in L2 (a footprint within l2_words) or through a small cache (half each),
 * the GPU extensions on half, and a write rate of 1 .. l2_rate + 1 (so also above the read
 * rate, the key's range). */
Test(bruteforce, engine_should_match_naive_evaluator_with_l2_write_rate) {
  guint32 seed = test_seed(20261130u);
  GRand *g = g_rand_new_with_seed(seed);
  guint moved = 0, writes = 0;
  for (guint it = 0; it < RANDOM_WRITE_RATE_TRACES; it++) {
    MsModel *m = random_model(g);
    while (m->kind == MS_MODEL_DMM) {
      ms_model_free(m);
      m = random_model(g);
    }
    MtTrace *t = random_trace(g, m->width);
    if (g_rand_boolean(g)) random_extensions(g, m, t);
    if (!m->l2_words) {
      m->l2_words = (guint64)g_rand_int_range(g, (gint32)m->group_words, 120);
      m->l2_latency = (guint64)g_rand_int_range(g, 1, 9);
      m->l2_rate = (guint32)g_rand_int_range(g, 1, 5);
      m->partial_write_stages = 0;
      if (it % 2) { /* through a cache it does not fit */
        m->l2_ways = (guint32)g_rand_int_range(g, 1, 5);
        m->l2_partitions = 1;
        m->l2_line_words = 0;
        t->global_words = m->l2_words + 1;
      } else { /* in L2 */
        t->global_words = (guint64)g_rand_int_range(g, 1, (gint32)m->l2_words + 1);
      }
    }
    m->l2_write_rate = (guint32)g_rand_int_range(g, 1, (gint32)m->l2_rate + 2);
    /* partly written groups stay at the read rate: with and without their extra stages */
    m->l2_partial_write_stages = it % 3 ? (guint32)g_rand_int_range(g, 1, 4) : 0;
    /* whole groups written: on three in four, every global write of every lane at consecutive words
     * from an offset (a random trace's writes leave most groups in part) */
    if (it % 4)
      for (guint st = 0; st < t->steps->len; st++) {
        const MsStep *ms = &g_array_index(t->steps, MsStep, st);
        if (ms->op != MS_OP_WRITE || ms->space != MS_SPACE_GLOBAL) continue;
        gint64 *a = g_ptr_array_index(t->addr, st);
        const gint64 off = g_rand_int_range(g, 0, 3) ? 0 : g_rand_int_range(g, 1, (gint32)m->group_words + 1);
        for (guint64 i = 0; i < t->threads; i++) a[i] = off + (gint64)i;
      }
    g_autofree char *desc = describe(m, t, seed, it);
    Naive n;
    naive_eval(m, t, &n);
    MsSimOptions opt = {.per_step = TRUE};
    MsResult *r = mt_run(m, t, &opt);
    compare(r, &n, desc);
    for (guint s = 0; s < t->steps->len; s++)
      if (g_array_index(t->steps, MsStep, s).op == MS_OP_WRITE) {
        writes++;
        break;
      }
    MsModel *m2 = ms_model_copy(m);
    m2->l2_write_rate = 0;
    MsResult *r2 = mt_run(m2, t, &opt);
    moved += r2->time_units != r->time_units;
    cr_assert_eq(r2->stages, r->stages, "%s: the write rate changes no stage count", desc);
    if (m->l2_write_rate == m->l2_rate) cr_assert_eq(r2->time_units, r->time_units, "%s: a write rate equal to the read rate is none", desc);
    ms_result_free(r2);
    ms_model_free(m2);
    ms_result_free(r);
    mt_trace_free(t);
    ms_model_free(m);
  }
  /* (only whole groups written move: about one trace in twelve) */
  cr_expect_gt(moved, RANDOM_WRITE_RATE_TRACES / 15, "traces whose time the write rate moves under-tested: %u", moved);
  cr_log_info("l2 write rate: %u traces with writes, %u whose time it moves", writes, moved);
  g_rand_free(g);
}

#define RANDOM_SHARED_WORD_TRACES 1500

/* Warps whose lanes share words (a byte-per-thread kernel's four lanes to a word): every
 * lane of every global step active, in order, at base + (lane x stride) / div, through a
 * small L2 cache (partial write stages on half), so that the cache pass sees whole and
 * partly covered groups of such warps (l2_groups' vector path, docs/performance.md). */
Test(bruteforce, engine_should_match_naive_evaluator_on_warps_sharing_words) {
  guint32 seed = test_seed(20261201u);
  GRand *g = g_rand_new_with_seed(seed);
  guint cached = 0;
  for (guint it = 0; it < RANDOM_SHARED_WORD_TRACES; it++) {
    MsModel *m = random_model(g);
    while (m->kind == MS_MODEL_DMM) {
      ms_model_free(m);
      m = random_model(g);
    }
    MtTrace *t = random_trace(g, m->width);
    if (g_rand_boolean(g)) random_extensions(g, m, t);
    if (!m->l2_ways) { /* a small cache the trace does not fit */
      m->l2_words = (guint64)g_rand_int_range(g, (gint32)m->group_words, 120);
      m->l2_latency = (guint64)g_rand_int_range(g, 1, 9);
      m->l2_rate = (guint32)g_rand_int_range(g, 1, 5);
      m->l2_ways = (guint32)g_rand_int_range(g, 1, 5);
      m->l2_partitions = 1;
      m->l2_line_words = 0;
      m->partial_write_stages = 0;
      t->global_words = m->l2_words + 1;
    }
    if (it % 2) m->l2_partial_write_stages = (guint32)g_rand_int_range(g, 1, 4);
    const guint64 w = m->width;
    for (guint st = 0; st < t->steps->len; st++) {
      const MsStep *ms = &g_array_index(t->steps, MsStep, st);
      if ((ms->op != MS_OP_READ && ms->op != MS_OP_WRITE) || ms->space != MS_SPACE_GLOBAL) continue;
      gint64 *a = g_ptr_array_index(t->addr, st);
      const gint64 stride = g_rand_int_range(g, 1, 4), div = g_rand_int_range(g, 1, 5);
      const gint64 base = g_rand_int_range(g, 0, 2 * (gint32)m->group_words + 1);
      for (guint64 i = 0; i < t->threads; i++)
        a[i] = base + (gint64)(i / w) * (gint64)(w * (guint64)stride / (guint64)div + 1) + (gint64)(i % w) * stride / div;
    }
    g_autofree char *desc = describe(m, t, seed, it);
    Naive n;
    naive_eval(m, t, &n);
    MsSimOptions opt = {.per_step = TRUE};
    MsResult *r = mt_run(m, t, &opt);
    compare(r, &n, desc);
    cached += r->dram_stages > 0;
    ms_result_free(r);
    mt_trace_free(t);
    ms_model_free(m);
  }
  cr_expect_gt(cached, RANDOM_SHARED_WORD_TRACES / 4, "traces through the cache under-tested: %u", cached);
  g_rand_free(g);
}

#define RANDOM_WARM_TRACES 2000

/* A warm L2 and home partitions (docs/models.md, "A warm L2", "Home partitions"): small
 * caches of random models, half of the hmm ones in 2 .. 4 partitions with home partitions on
 * half of those, a warm start on half of all (their traces may fit l2_words: a warm cache
 * runs them too), the GPU extensions on half. */
Test(bruteforce, engine_should_match_naive_evaluator_with_warm_and_home_l2) {
  guint32 seed = test_seed(20261130u);
  GRand *g = g_rand_new_with_seed(seed);
  guint warm_moved = 0, home_moved = 0, warm = 0, home = 0;
  for (guint it = 0; it < RANDOM_WARM_TRACES; it++) {
    MsModel *m = random_model(g);
    while (m->kind == MS_MODEL_DMM) {
      ms_model_free(m);
      m = random_model(g);
    }
    MtTrace *t = random_trace(g, m->width);
    if (g_rand_boolean(g)) random_extensions(g, m, t);
    m->l2_words = (guint64)g_rand_int_range(g, (gint32)m->group_words, 160);
    m->l2_latency = (guint64)g_rand_int_range(g, 1, 9);
    m->l2_rate = (guint32)g_rand_int_range(g, 1, 5);
    m->l2_ways = (guint32)g_rand_int_range(g, 1, 5);
    m->l2_line_words = 0;
    m->partial_write_stages = 0;
    m->l2_partitions = 1;
    const guint64 sets = m->l2_words / m->group_words / m->l2_ways;
    if (ms_model_is_hmm(m) && sets >= 2 && g_rand_boolean(g))
      m->l2_partitions = (guint32)g_rand_int_range(g, 2, (gint32)MIN(sets, 4) + 1);
    m->l2_hashed_sets = g_rand_boolean(g);
    m->l2_home_partitions = m->l2_partitions > 1 && g_rand_boolean(g);
    m->l2_warm = g_rand_boolean(g);
    t->global_words = g_rand_int_range(g, 0, 3) == 0 ? 0 : (guint64)g_rand_int_range(g, 1, 2 * (gint32)m->l2_words);
    g_autofree char *desc = describe(m, t, seed, it);
    Naive n;
    naive_eval(m, t, &n);
    MsSimOptions opt = {.per_step = TRUE};
    MsResult *r = mt_run(m, t, &opt);
    compare(r, &n, desc);
    cr_assert_eq(r->l2_warm, m->l2_warm, "%s: the result says whether the run was warm", desc);
    warm += m->l2_warm;
    home += m->l2_home_partitions;
    for (int key = 0; key < 2; key++) { /* the same trace without the key */
      if (key == 0 ? !m->l2_warm : !m->l2_home_partitions) continue;
      MsModel *m2 = ms_model_copy(m);
      if (key == 0) m2->l2_warm = FALSE;
      else m2->l2_home_partitions = FALSE;
      MsResult *r2 = mt_run(m2, t, &opt);
      const gboolean moved = r2->time_units != r->time_units || r2->l2_hits != r->l2_hits;
      if (key == 0) warm_moved += moved;
      else home_moved += moved;
      ms_result_free(r2);
      ms_model_free(m2);
    }
    ms_result_free(r);
    mt_trace_free(t);
    ms_model_free(m);
  }
  cr_expect_gt(warm_moved, warm / 4, "warm starts that change a result under-tested: %u of %u", warm_moved, warm);
  cr_expect_gt(home_moved, home / 8, "home partitions that change a result under-tested: %u of %u", home_moved, home);
  cr_log_info("warm L2: %u traces, %u whose result it changes; home partitions: %u traces, %u changed", warm,
              warm_moved, home, home_moved);
  g_rand_free(g);
}

#define RANDOM_BARRIER_TRACES 2000

/* Barrier time (docs/models.md): barrier_units and barrier_warp_units on random models, with
 * and without the GPU extensions, flags and async copies among the steps. */
Test(bruteforce, engine_should_match_naive_evaluator_with_barrier_time) {
  guint32 seed = test_seed(20261129u);
  GRand *g = g_rand_new_with_seed(seed);
  guint costly = 0;
  for (guint it = 0; it < RANDOM_BARRIER_TRACES; it++) {
    MsModel *m = random_model(g);
    MtTrace *t = random_trace(g, m->width);
    if (g_rand_boolean(g)) random_extensions(g, m, t);
    if (it % 3 == 1) {
      MtTrace *f = random_flags(g, t, m->width);
      mt_trace_free(t);
      t = f;
      m->block_start_units = 0;
    } else if (it % 3 == 2) {
      MtTrace *f = random_async(g, t, m->width);
      mt_trace_free(t);
      t = f;
    }
    m->barrier_units = (guint64)g_rand_int_range(g, 0, 6);
    m->barrier_warp_units = (guint64)g_rand_int_range(g, 0, 4);
    /* (not with block starts: a barrier before a block's first request would delay the start
     * the evaluator places at the block's placement, as a shuffle's or a wait's would) */
    m->block_start_units = 0;
    g_autofree char *desc = describe(m, t, seed, it);
    Naive n;
    naive_eval(m, t, &n);
    MsSimOptions opt = {.per_step = TRUE};
    MsResult *r = mt_run(m, t, &opt);
    compare(r, &n, desc);
    MsModel *m0 = ms_model_copy(m);
    m0->barrier_units = m0->barrier_warp_units = 0;
    MsResult *r0 = mt_run(m0, t, &opt);
    costly += r0->time_units != r->time_units;
    ms_result_free(r0);
    ms_model_free(m0);
    ms_result_free(r);
    mt_trace_free(t);
    ms_model_free(m);
  }
  cr_expect_gt(costly, RANDOM_BARRIER_TRACES / 10, "block barriers that cost under-tested: %u", costly);
  cr_log_info("barrier time: %u traces whose time depends on it", costly);
  g_rand_free(g);
}

/* The L1 with the DMM's port by banks: a read whose every group hits still takes its port
 * slots, in the global pipeline's dispatch order (docs/models.md, "The L1 cache").  The draws
 * of the test above put the two together on about 1% of its traces; here every hmm model has
 * both. */
Test(bruteforce, engine_should_match_naive_evaluator_with_l1_hits_at_the_port) {
  guint32 seed = test_seed(20261128u);
  GRand *g = g_rand_new_with_seed(seed);
  guint tried = 0, hits = 0;
  for (guint it = 0; it < 1500; it++) {
    MsModel *m = random_model(g);
    MtTrace *t = random_trace(g, m->width);
    random_extensions(g, m, t);
    if (!ms_model_is_hmm(m)) {
      ms_model_free(m);
      mt_trace_free(t);
      continue;
    }
    m->block_start_units = 0; /* not with the L1 (above) */
    if (!m->dmm_global_rate) m->dmm_global_rate = (guint32)g_rand_int_range(g, 1, 4);
    m->dmm_port_banks = (guint32)g_rand_int_range(g, 1, 5);
    if (!m->l1_words) {
      m->l1_words = (guint64)g_rand_int_range(g, 8, 120);
      m->l1_latency = (guint64)g_rand_int_range(g, 1, 7);
      m->l1_ways = (guint32)g_rand_int_range(g, 1, 5);
    }
    g_autofree char *desc = describe(m, t, seed, it);
    Naive n;
    naive_eval(m, t, &n);
    MsSimOptions opt = {.per_step = TRUE};
    MsResult *r = mt_run(m, t, &opt);
    compare(r, &n, desc);
    tried++;
    hits += r->l1_hits > 0;
    ms_result_free(r);
    ms_model_free(m);
    mt_trace_free(t);
  }
  cr_log_info("l1 at the port: %u hmm traces, %u with hits", tried, hits);
  cr_expect_gt(hits, tried / 5, "L1 hits under-tested: %u of %u", hits, tried);
  g_rand_free(g);
}

/* Shared and global reads on one port (dmm_port_shared, docs/models.md): a shared access takes
 * a slot of its DMM's port, a global read its bank degree of the DMM's own pipeline.  Every hmm
 * model here has the port by banks and the key; a third have the L1 as well (its hits take the
 * DMM's pipeline too). */
Test(bruteforce, engine_should_match_naive_evaluator_with_shared_and_global_on_one_port) {
  guint32 seed = test_seed(20261129u);
  GRand *g = g_rand_new_with_seed(seed);
  guint tried = 0, both = 0, l1 = 0;
  for (guint it = 0; it < 1500; it++) {
    MsModel *m = random_model(g);
    MtTrace *t = random_trace(g, m->width);
    random_extensions(g, m, t);
    if (!ms_model_is_hmm(m)) {
      ms_model_free(m);
      mt_trace_free(t);
      continue;
    }
    if (!m->dmm_global_rate) m->dmm_global_rate = (guint32)g_rand_int_range(g, 1, 4);
    m->dmm_port_banks = (guint32)g_rand_int_range(g, 1, 5);
    m->dmm_port_shared = TRUE;
    if (!m->l1_words && g_rand_int_range(g, 0, 3) == 0) {
      m->block_start_units = 0; /* not with the L1 (above) */
      m->l1_words = (guint64)g_rand_int_range(g, 8, 120);
      m->l1_latency = (guint64)g_rand_int_range(g, 1, 7);
      m->l1_ways = (guint32)g_rand_int_range(g, 1, 5);
    }
    g_autofree char *desc = describe(m, t, seed, it);
    Naive n;
    naive_eval(m, t, &n);
    MsSimOptions opt = {.per_step = TRUE};
    MsResult *r = mt_run(m, t, &opt);
    compare(r, &n, desc);
    tried++;
    both += r->shared.stages > 0 && r->global.stages > 0;
    l1 += r->l1_hits > 0;
    ms_result_free(r);
    ms_model_free(m);
    mt_trace_free(t);
  }
  cr_log_info("shared and global on one port: %u hmm traces, %u with both, %u with L1 hits", tried, both, l1);
  cr_expect_gt(both, tried / 5, "shared and global together under-tested: %u of %u", both, tried);
  cr_expect_gt(l1, tried / 20, "L1 hits under-tested: %u of %u", l1, tried);
  g_rand_free(g);
}

#define RANDOM_EXTENSION_TRACES 4000

Test(bruteforce, engine_should_match_naive_evaluator_with_gpu_extensions) {
  guint32 seed = test_seed(20261122u);
  GRand *g = g_rand_new_with_seed(seed);
  GRand *gc = g_rand_new_with_seed(seed ^ 0x5a5a5a5au);
  guint rate = 0, dyn = 0, launch = 0, window = 0, posted = 0, partial = 0, cached = 0, evicting = 0, parted = 0, starts = 0, lined = 0, hashed = 0, postwb = 0, ported = 0, banked = 0, shuffled = 0, computed = 0, l1hit = 0, l1evict = 0, loaded = 0, issued = 0;
  for (guint it = 0; it < RANDOM_EXTENSION_TRACES; it++) {
    MsModel *m = random_model(g);
    MtTrace *t = random_trace(g, m->width);
    random_extensions(g, m, t);
    random_loaded(gc, m);
    if (m->l2_ways) m->l2_posted_write_backs = g_rand_boolean(gc); /* its own generator, as the curves */
    if (m->l2_words && g_rand_int_range(gc, 0, 4) == 0) m->l2_write_rate = (guint32)g_rand_int_range(gc, 1, 5);
    rate += m->global_rate > 1;
    launch += m->launch_units > 0;
    window += m->read_window > 1;
    posted += m->posted_writes;
    partial += m->partial_write_stages > 0 || m->l2_partial_write_stages > 0;
    dyn += ms_model_is_hmm(m) && (m->resident_warps || m->resident_blocks || t->shared_words);
    g_autofree char *desc = describe(m, t, seed, it);
    Naive n;
    naive_eval(m, t, &n);
    MsSimOptions opt = {.per_step = TRUE};
    MsResult *r = mt_run(m, t, &opt);
    compare(r, &n, desc);
    cached += r->l2_cached && r->dram_stages > 0;
    evicting += r->l2_cached && r->l2_misses > m->l2_words / m->group_words;
    parted += r->l2_cached && m->l2_partitions > 1 && r->dram_stages > 0;
    starts += m->block_start_units > 0 && r->blocks > m->dmms;
    lined += r->l2_cached && m->l2_line_words > m->group_words && r->dram_stages > 0;
    hashed += r->l2_cached && m->l2_hashed_sets && r->dram_stages > 0;
    postwb += r->l2_cached && m->l2_posted_write_backs && r->dram_stages > 0;
    ported += m->dmm_global_rate > 0 && r->global.stages > 0;
    banked += m->dmm_port_banks > 0 && r->global.stages > 0;
    shuffled += m->shuffle_units > 0 && r->shuffles > 0;
    computed += m->instruction_units > 0 && r->instructions > 0;
    if (m->issue_rate && r->instructions > 0) { /* does the issue limit matter? the same without it */
      MsModel *free_issue = ms_model_copy(m);
      free_issue->issue_rate = 0;
      MsResult *ri = mt_run(free_issue, t, &opt);
      issued += ri->time_units != r->time_units;
      ms_result_free(ri);
      ms_model_free(free_issue);
    }
    l1hit += r->l1_hits > 0;
    l1evict += r->l1_hits > 0 && r->l1_misses > r->l1_share_words / m->group_words;
    if (m->global_loaded_latency.n > 1 || m->l2_loaded_latency.n > 1) {
      /* does the load matter? the same curves held at their first point */
      MsModel *flat = ms_model_copy(m);
      flat->global_loaded_latency.n = MIN(flat->global_loaded_latency.n, 1u);
      flat->l2_loaded_latency.n = MIN(flat->l2_loaded_latency.n, 1u);
      MsResult *rf = mt_run(flat, t, &opt);
      loaded += rf->time_units != r->time_units;
      ms_result_free(rf);
      ms_model_free(flat);
    }
    ms_result_free(r);
    mt_trace_free(t);
    ms_model_free(m);
  }
  cr_expect_gt(rate, RANDOM_EXTENSION_TRACES / 4, "global_rate under-tested: %u", rate);
  cr_expect_gt(loaded, RANDOM_EXTENSION_TRACES / 40, "loaded latency under-tested: %u", loaded);
  cr_log_info("loaded latency: %u traces whose time depends on the load", loaded);
  cr_expect_gt(dyn, RANDOM_EXTENSION_TRACES / 5, "residency under-tested: %u", dyn);
  cr_expect_gt(launch, RANDOM_EXTENSION_TRACES / 5, "launch_units under-tested: %u", launch);
  cr_expect_gt(window, RANDOM_EXTENSION_TRACES / 5, "read_window under-tested: %u", window);
  cr_expect_gt(posted, RANDOM_EXTENSION_TRACES / 5, "posted_writes under-tested: %u", posted);
  cr_expect_gt(partial, RANDOM_EXTENSION_TRACES / 5, "partial_write_stages under-tested: %u", partial);
  cr_expect_gt(cached, RANDOM_EXTENSION_TRACES / 20, "l2_ways under-tested: %u", cached);
  cr_expect_gt(evicting, RANDOM_EXTENSION_TRACES / 50, "l2_ways evictions under-tested: %u", evicting);
  cr_expect_gt(parted, RANDOM_EXTENSION_TRACES / 100, "l2_partitions under-tested: %u", parted);
  cr_expect_gt(starts, RANDOM_EXTENSION_TRACES / 100, "block_start_units under-tested: %u", starts);
  cr_expect_gt(lined, RANDOM_EXTENSION_TRACES / 100, "l2_line_words under-tested: %u", lined);
  cr_expect_gt(hashed, RANDOM_EXTENSION_TRACES / 50, "l2_hashed_sets under-tested: %u", hashed);
  cr_expect_gt(postwb, RANDOM_EXTENSION_TRACES / 50, "l2_posted_write_backs under-tested: %u", postwb);
  cr_expect_gt(ported, RANDOM_EXTENSION_TRACES / 20, "dmm_global_rate under-tested: %u", ported);
  cr_expect_gt(banked, RANDOM_EXTENSION_TRACES / 40, "dmm_port_banks under-tested: %u", banked);
  cr_expect_gt(shuffled, RANDOM_EXTENSION_TRACES / 20, "shuffle_units under-tested: %u", shuffled);
  cr_expect_gt(computed, RANDOM_EXTENSION_TRACES / 20, "instruction_units under-tested: %u", computed);
  cr_expect_gt(issued, RANDOM_EXTENSION_TRACES / 200, "issue_rate under-tested: %u", issued);
  cr_log_info("issue_rate: %u traces whose time depends on it", issued);
  cr_expect_gt(l1hit, RANDOM_EXTENSION_TRACES / 20, "l1_words under-tested: %u", l1hit);
  cr_expect_gt(l1evict, RANDOM_EXTENSION_TRACES / 100, "l1 evictions under-tested: %u", l1evict);
  g_rand_free(g);
  g_rand_free(gc);
}

/* Kernels in which whole blocks have no request (a prefix, a suffix, a middle range or a
 * random part of the blocks active, or none): the engine's idle blocks jump over a kernel,
 * are placed without their warps walking it, and trailing ones arrive at the barrier at
 * once; warps idle in an active block jump over runs.  With the GPU extensions (residency
 * limits, block starts, launches, caches), as the test above. */
static MtTrace *idle_block_trace(GRand *g, guint w) {
  const guint64 wpb = (guint64)g_rand_int_range(g, 1, 4), nb = (guint64)g_rand_int_range(g, 2, 13);
  guint64 threads = nb * wpb * w;
  if (g_rand_int_range(g, 0, 3) == 0) threads -= (guint64)g_rand_int_range(g, 0, (gint32)(wpb * w)); /* a partial last block */
  MtTrace *t = mt_trace_new(threads, wpb * w);
  const guint nk = (guint)g_rand_int_range(g, 1, 5);
  gboolean *act = g_new(gboolean, nb);
  for (guint k = 0; k < nk; k++) {
    if (k) mt_sync(t, MS_SCOPE_GRID);
    const int pat = g_rand_int_range(g, 0, 6);
    const guint64 a = (guint64)g_rand_int_range(g, 0, (gint32)nb), b = (guint64)g_rand_int_range(g, (gint32)a, (gint32)nb + 1);
    for (guint64 x = 0; x < nb; x++)
      act[x] = pat == 0 ? x < b : pat == 1 ? x >= a : pat == 2 ? x >= a && x < b : pat == 3 ? g_rand_boolean(g) : pat == 4;
    const guint ns = (guint)g_rand_int_range(g, 1, 8);
    for (guint s = 0; s < ns; s++) {
      const int r = g_rand_int_range(g, 0, 8);
      if (r == 0) {
        mt_sync(t, MS_SCOPE_BLOCK);
        continue;
      }
      const gboolean comp = r == 1;
      gint64 *ad = mt_mem(t, comp ? MS_OP_COMPUTE : g_rand_boolean(g) ? MS_OP_READ : MS_OP_WRITE,
                          g_rand_boolean(g) ? MS_SPACE_SHARED : MS_SPACE_GLOBAL);
      const gint64 base = g_rand_int_range(g, 0, 3) * 100, stride = g_rand_int_range(g, 0, 3);
      for (guint64 j = 0; j * w < threads; j++) {
        const gboolean idle = !act[j / wpb] || g_rand_int_range(g, 0, 3) == 0;
        for (guint64 i = j * w; i < MIN(threads, (j + 1) * w); i++)
          ad[i] = idle || g_rand_int_range(g, 0, 5) == 0 ? MS_ADDR_NONE
                  : comp                                 ? (gint64)g_rand_int_range(g, 1, 4)
                  : stride                               ? base + (gint64)i * stride
                                                         : base + g_rand_int_range(g, 0, 3 * (gint32)w);
      }
    }
  }
  if (g_rand_boolean(g)) mt_sync(t, MS_SCOPE_GRID);
  g_free(act);
  return t;
}

Test(bruteforce, engine_should_match_naive_evaluator_on_kernels_with_idle_blocks) {
  guint32 seed = test_seed(20261127u);
  GRand *g = g_rand_new_with_seed(seed);
  guint dyn = 0;
  for (guint it = 0; it < 2000; it++) {
    MsModel *m = random_model(g);
    MtTrace *t = idle_block_trace(g, m->width);
    random_extensions(g, m, t);
    dyn += ms_model_is_hmm(m) && (m->resident_warps || m->resident_blocks || t->shared_words);
    g_autofree char *desc = describe(m, t, seed, it);
    Naive n;
    naive_eval(m, t, &n);
    MsSimOptions opt = {.per_step = TRUE};
    MsResult *r = mt_run(m, t, &opt);
    compare(r, &n, desc);
    ms_result_free(r);
    mt_trace_free(t);
    ms_model_free(m);
  }
  cr_expect_gt(dyn, 2000 / 5, "residency under-tested: %u", dyn);
  g_rand_free(g);
}

/* Limits wide enough to hold every block change nothing but make grid barriers kernel
 * boundaries: with launch_units 0 the time is the unlimited model's, to the unit. */
Test(bruteforce, ample_residency_should_equal_unlimited) {
  guint32 seed = test_seed(5u);
  GRand *g = g_rand_new_with_seed(seed);
  for (guint it = 0; it < 1000; it++) {
    MsModel *m = ms_model_new(g_rand_boolean(g) ? MS_MODEL_HMM : MS_MODEL_ASYNC_HMM,
                              widths[g_rand_int_range(g, 0, G_N_ELEMENTS(widths))], 0,
                              (guint32)g_rand_int_range(g, 1, 5), (guint64)g_rand_int_range(g, 1, 13),
                              (guint64)g_rand_int_range(g, 1, 13));
    MtTrace *t = random_trace(g, m->width);
    g_autofree char *desc = describe(m, t, seed, it);
    MsSimOptions opt = {.per_step = TRUE};
    MsResult *a = mt_run(m, t, &opt);
    m->resident_warps = 1000;
    m->resident_blocks = 1000;
    MsResult *b = mt_run(m, t, &opt);
    CHECK("time_units", b->time_units, a->time_units);
    CHECK("stages", b->stages, a->stages);
    for (guint s = 0; s < a->per_step->len; s++) {
      CHECK("first_dispatch", g_array_index(b->per_step, MsStepResult, s).first_dispatch,
            g_array_index(a->per_step, MsStepResult, s).first_dispatch);
      CHECK("last_complete", g_array_index(b->per_step, MsStepResult, s).last_complete,
            g_array_index(a->per_step, MsStepResult, s).last_complete);
    }
    ms_result_free(a);
    ms_result_free(b);
    mt_trace_free(t);
    ms_model_free(m);
  }
  g_rand_free(g);
}

/* Wide warps and many threads: exercises the engine's chunked loading and hash paths. */
Test(bruteforce, engine_should_match_naive_evaluator_on_wider_traces) {
  guint32 seed = test_seed(7u);
  GRand *g = g_rand_new_with_seed(seed);
  for (guint it = 0; it < 60; it++) {
    guint w = g_rand_boolean(g) ? 32 : 80;
    MsModelKind kind = (MsModelKind)g_rand_int_range(g, 0, 4);
    MsModel *m = kind >= MS_MODEL_HMM ? ms_model_new(kind, w, 0, 3, 2, 20)
                                      : ms_model_new(kind, w, 7, 1, 0, 0);
    MtTrace *t = mt_trace_new((guint64)g_rand_int_range(g, 1, 700), 0);
    if (g_rand_boolean(g) && t->threads > 2 * w) t->block_threads = 2 * w;
    for (int s = 0; s < 4; s++) {
      if (g_rand_int_range(g, 0, 5) == 0) {
        mt_sync(t, g_rand_boolean(g) ? MS_SCOPE_BLOCK : MS_SCOPE_GRID);
        continue;
      }
      gint64 *a = mt_mem(t, MS_OP_READ, g_rand_boolean(g) ? MS_SPACE_SHARED : MS_SPACE_GLOBAL);
      gint32 range = g_rand_int_range(g, 1, 4 * (gint32)w);
      for (guint64 i = 0; i < t->threads; i++)
        a[i] = g_rand_int_range(g, 0, 6) == 0 ? MS_ADDR_NONE : g_rand_int_range(g, 0, range);
    }
    g_autofree char *desc = describe(m, t, seed, it);
    Naive n;
    naive_eval(m, t, &n);
    MsResult *r = mt_run(m, t, NULL);
    compare(r, &n, desc);
    ms_result_free(r);
    mt_trace_free(t);
    ms_model_free(m);
  }
  g_rand_free(g);
}

/* Many warps (more than 4096 on a pipeline) with scattered ready times: exercises the
 * engine's skipping of waiting warps that cannot be ready (per 64 and 4096 members) and,
 * with more than 16 pipelines (iterations 8 .. 11: hmm kinds of 17 to 40 DMMs, as the
 * grounded models' 132), its heap of pipelines. */
Test(bruteforce, engine_should_match_naive_evaluator_with_thousands_of_warps) {
  guint32 seed = test_seed(11u);
  GRand *g = g_rand_new_with_seed(seed);
  for (guint it = 0; it < 12; it++) {
    MsModelKind kind = it < 8 ? (MsModelKind)g_rand_int_range(g, 0, 4) : (MsModelKind)g_rand_int_range(g, 2, 4);
    guint w = 1 + (guint)g_rand_int_range(g, 0, 2);
    const guint32 d = it < 8 ? (guint32)g_rand_int_range(g, 1, 3) : (guint32)g_rand_int_range(g, 17, 41);
    MsModel *m = kind >= MS_MODEL_HMM
                     ? ms_model_new(kind, w, 0, d, (guint64)g_rand_int_range(g, 1, 9), (guint64)g_rand_int_range(g, 1, 300))
                     : ms_model_new(kind, w, (guint64)g_rand_int_range(g, 1, 300), 1, 0, 0);
    if (kind != MS_MODEL_DMM) m->global_rate = (guint32)g_rand_int_range(g, 16, 200);
    /* more than 4096 warps on one pipeline; blocks of 64 warps and block barriers only, since
     * the naive evaluator checks a barrier over its whole scope for every waiting warp */
    MtTrace *t = mt_trace_new((guint64)g_rand_int_range(g, 4200, 5200) * w, 0);
    t->block_threads = 64 * w;
    for (int s = 0; s < 4; s++) {
      if (g_rand_int_range(g, 0, 5) == 0) {
        mt_sync(t, MS_SCOPE_BLOCK);
        continue;
      }
      MsSpace sp = kind == MS_MODEL_DMM || (kind >= MS_MODEL_HMM && g_rand_int_range(g, 0, 4) == 0)
                       ? MS_SPACE_SHARED : MS_SPACE_GLOBAL;
      gint64 *a = mt_mem(t, MS_OP_READ, sp);
      /* idle runs of warps, and warps with 1 or several stages */
      gint32 idle = g_rand_int_range(g, 0, 4);
      for (guint64 i = 0; i < t->threads; i++)
        a[i] = g_rand_int_range(g, 0, 8) < idle ? MS_ADDR_NONE : g_rand_int_range(g, 0, 4 * (gint32)w);
    }
    g_autofree char *desc = describe(m, t, seed, it);
    Naive n;
    naive_eval(m, t, &n);
    MsResult *r = mt_run(m, t, NULL);
    compare(r, &n, desc);
    ms_result_free(r);
    mt_trace_free(t);
    ms_model_free(m);
  }
  g_rand_free(g);
}

/* ---- conversion invariance ---- */

static MsResult *run_via_file(const MsModel *m, const MtTrace *t, MsFormat format) {
  GError *err = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp("memsim-test-XXXXXX", &path, &err);
  cr_assert(fd >= 0, "tmp file: %s", err ? err->message : "?");
  FILE *f = fdopen(fd, "wb");
  MsSource *src = mt_source(t, "random");
  cr_assert(ms_trace_write(src, format, f, path, &err), "write: %s", err ? err->message : "?");
  ms_source_free(src);
  fclose(f);
  MsSource *back = ms_trace_open(path, &err);
  cr_assert_not_null(back, "reopen: %s", err ? err->message : "?");
  cr_expect_eq(ms_source_threads(back), t->threads);
  cr_expect_eq(ms_source_block_threads(back), t->block_threads);
  MsSimOptions opt = {.per_step = TRUE};
  MsResult *r = mt_run_source(m, back, &opt);
  ms_source_free(back);
  unlink(path);
  g_free(path);
  return r;
}

Test(convert, written_and_reopened_traces_should_give_the_same_result) {
  guint32 seed = test_seed(99u);
  GRand *g = g_rand_new_with_seed(seed);
  for (guint it = 0; it < 200; it++) {
    MsModel *m = random_model(g);
    MtTrace *t = random_trace(g, m->width);
    g_autofree char *desc = describe(m, t, seed, it);
    Naive n;
    naive_eval(m, t, &n);
    for (int fmt = MS_FORMAT_EXPLICIT; fmt <= MS_FORMAT_BINARY; fmt++) {
      MsResult *r = run_via_file(m, t, (MsFormat)fmt);
      compare(r, &n, desc);
      ms_result_free(r);
    }
    mt_trace_free(t);
    ms_model_free(m);
  }
  g_rand_free(g);
}

/* Many cores, same answer: random traces of every kind, with and without the GPU
 * extensions, give the same result (every count, every step's figures) on 1, 2 and 7
 * engine threads, with every step sent to the workers (par_min_warps 1) and loaded ahead
 * (load_ahead_min_threads 1), and on 3 threads without loading ahead. */
static void same_result(const MsResult *a, const MsResult *b, const char *desc) {
  cr_assert_eq(a->time_units, b->time_units, "%s", desc);
  cr_assert_eq(a->stages, b->stages, "%s", desc);
  cr_assert_eq(a->dispatches, b->dispatches, "%s", desc);
  cr_assert_eq(a->requests, b->requests, "%s", desc);
  cr_assert_eq(a->round_sum, b->round_sum, "%s", desc);
  cr_assert_eq(a->global_busy, b->global_busy, "%s", desc);
  cr_assert_eq(a->shared_busy, b->shared_busy, "%s", desc);
  cr_assert_eq(a->kernels, b->kernels, "%s", desc);
  cr_assert_eq(a->signals, b->signals, "%s", desc);
  cr_assert_eq(a->waits, b->waits, "%s", desc);
  cr_assert_eq(a->async_reads, b->async_reads, "%s", desc);
  cr_assert_eq(a->block_barriers, b->block_barriers, "%s", desc);
  cr_assert_eq(a->awaits, b->awaits, "%s", desc);
  cr_assert_eq(a->l2_hits, b->l2_hits, "%s", desc);
  cr_assert_eq(a->l2_misses, b->l2_misses, "%s", desc);
  cr_assert_eq(a->l1_hits, b->l1_hits, "%s", desc);
  cr_assert_eq(a->l1_misses, b->l1_misses, "%s", desc);
  cr_assert_eq(a->dram_stages, b->dram_stages, "%s", desc);
  cr_assert_eq(a->dram_lone_stages, b->dram_lone_stages, "%s", desc);
  cr_assert_eq(a->per_step->len, b->per_step->len, "%s", desc);
  cr_assert(memcmp(a->per_step->data, b->per_step->data, a->per_step->len * sizeof(MsStepResult)) == 0, "%s", desc);
}

Test(threads, results_should_not_depend_on_the_number_of_threads) {
  guint32 seed = test_seed(20261124u);
  GRand *g = g_rand_new_with_seed(seed);
  guint kinds[4] = {0}, rows = 0, homes = 0, warms = 0;
  for (guint it = 0; it < 1500; it++) {
    MsModel *m = random_model(g);
    MtTrace *t = random_trace(g, m->width);
    if (it % 2) random_extensions(g, m, t);
    if (m->l2_ways && it % 4 == 1) { /* DRAM rows (no draw: the traces stay those of before) */
      if (m->global_rate < 2) m->global_rate = 3;
      m->dram_row_words = m->group_words << (it % 3);
      m->dram_lone_rate = 1;
    }
    /* home partitions and a warm start (no draw either): a read may take its set in two
     * partitions, the same worker's in the batched cache pass */
    if (m->l2_partitions > 1 && it % 4 != 0) m->l2_home_partitions = TRUE;
    if (m->l2_ways && it % 6 == 5) m->l2_warm = TRUE;
    homes += m->l2_home_partitions;
    warms += m->l2_warm;
    if (it % 3 == 2) { /* signal and wait steps, counted on the engine's thread */
      MtTrace *f = random_flags(g, t, m->width);
      mt_trace_free(t);
      t = f;
      m->block_start_units = 0;
    } else if (it % 5 == 4) { /* async reads and await steps, and barrier time */
      m->barrier_units = (guint64)(it % 4);
      m->barrier_warp_units = (guint64)(it % 3);
      MtTrace *f = random_async(g, t, m->width);
      mt_trace_free(t);
      t = f;
    }
    kinds[m->kind]++;
    g_autofree char *desc = describe(m, t, seed, it);
    MsSimOptions one = {.per_step = TRUE, .threads = 1};
    MsResult *r1 = mt_run(m, t, &one);
    rows += r1->dram_lone_stages > 0;
    for (guint n = 2; n <= 7; n += 5) { /* the steps loaded ahead on a thread of their own */
      MsSimOptions many = {.per_step = TRUE, .threads = n, .par_min_warps = 1, .load_ahead_min_threads = 1};
      MsResult *rn = mt_run(m, t, &many);
      same_result(r1, rn, desc);
      ms_result_free(rn);
    }
    { /* and on the engine's thread */
      MsSimOptions many = {.per_step = TRUE, .threads = 3, .par_min_warps = 1, .load_ahead_min_threads = G_MAXUINT64};
      MsResult *rn = mt_run(m, t, &many);
      same_result(r1, rn, desc);
      ms_result_free(rn);
    }
    ms_result_free(r1);
    mt_trace_free(t);
    ms_model_free(m);
  }
  for (int k = 0; k < 4; k++) cr_expect_gt(kinds[k], 100, "kind %d under-tested", k);
  cr_expect_gt(rows, 10, "DRAM rows with lone slots under-tested: %u", rows);
  cr_expect_gt(homes, 10, "home partitions under-tested: %u", homes);
  cr_expect_gt(warms, 10, "warm starts under-tested: %u", warms);
  cr_log_info("threads: %u models with home partitions, %u with a warm start", homes, warms);
  g_rand_free(g);
}

/* Repeated kernels (docs/performance.md, "Repeated kernels"): a random trace's steps taken as
 * one kernel, 2 to 5 times between grid barriers (on half the traces one of them with its
 * first memory step moved by a word, so that it differs), dispatch each distinct kernel once
 * from each state. The result must be the naive evaluator's and the one of dispatching every
 * kernel, to the unit (every count, every step's figures), with and without the GPU
 * extensions; and kernels must be taken often enough for the test to mean something.  The
 * test source keys each kernel by its steps and addresses (repeated kernel counts), so a
 * kernel repeated from the same L2 state is not counted either: the result must also be the
 * one of counting every kernel, on one thread and loading ahead on another. */
static MtTrace *repeat_kernels(GRand *g, const MtTrace *t) {
  MtTrace *o = mt_trace_new(t->threads, t->block_threads);
  o->shared_words = t->shared_words;
  o->global_words = t->global_words;
  const guint reps = MIN((guint)g_rand_int_range(g, 2, 6), 64u / (t->steps->len + 1)); /* Naive's 64 steps */
  const gint alter = g_rand_boolean(g) ? g_rand_int_range(g, 0, (gint32)reps) : -1;
  for (guint k = 0; k < reps; k++) {
    gboolean moved = FALSE;
    for (guint s = 0; s < t->steps->len; s++) {
      const MsStep *st = &g_array_index(t->steps, MsStep, s);
      if (st->op == MS_OP_SYNC) {
        mt_sync(o, st->scope);
        continue;
      }
      const gint64 *a = g_ptr_array_index(t->addr, s);
      gint64 *b = mt_mem(o, st->op, st->space);
      memcpy(b, a, t->threads * sizeof *a);
      if ((gint)k == alter && !moved && (st->op == MS_OP_READ || st->op == MS_OP_WRITE)) {
        for (guint64 i = 0; i < t->threads; i++)
          if (b[i] >= 0) b[i]++;
        moved = TRUE;
      }
    }
    mt_sync(o, MS_SCOPE_GRID);
  }
  return o;
}

Test(bruteforce, repeated_kernels_should_match_naive_evaluator) {
  guint32 seed = test_seed(20261127u);
  GRand *g = g_rand_new_with_seed(seed);
  GRand *gc = g_rand_new_with_seed(seed ^ 0x3c3c3c3cu);
  guint taken = 0, taken_ext = 0, uncounted = 0, uncounted_ahead = 0, uncounted_l2 = 0, rows = 0;
  for (guint it = 0; it < 3000; it++) {
    MsModel *m = random_model(g);
    MtTrace *t0 = random_trace(g, m->width);
    if (it % 2) {
      random_extensions(g, m, t0);
      random_loaded(gc, m);
      if (m->l2_ways) m->l2_posted_write_backs = g_rand_boolean(gc);
      m->block_start_units = 0; /* (they turn repeated kernels off) */
    }
    MtTrace *t = repeat_kernels(g, t0);
    mt_trace_free(t0);
    g_autofree char *desc = describe(m, t, seed, it);
    Naive n;
    naive_eval(m, t, &n);
    const gboolean ps = it % 7 != 3; /* and some runs without per-step figures */
    /* one in three on two threads, loading ahead (the loading thread waits at a keyed
     * barrier for the dispatch's decision) */
    const gboolean ahead = it % 3 == 1;
    MsSimOptions opt = {.per_step = ps, .threads = ahead ? 2 : 1, .load_ahead_min_threads = ahead, .par_min_warps = ahead};
    MsResult *r = mt_run(m, t, &opt);
    if (ps) compare(r, &n, desc);
    else cr_assert_eq(r->time_units, n.time_units, "%s", desc);
    /* repeated kernel counts: the test source keys kernels by their steps and addresses */
    MsSimOptions counted = opt;
    counted.count_every_kernel = TRUE;
    MsResult *rc = mt_run(m, t, &counted);
    cr_assert_eq(rc->kernels_not_counted, 0, "%s", desc);
    cr_assert_leq(r->kernels_not_counted, r->repeated_kernels, "%s", desc);
    cr_assert_eq(r->repeated_kernels, rc->repeated_kernels, "%s", desc);
    if (ps) same_result(r, rc, desc);
    else cr_assert_eq(r->time_units, rc->time_units, "%s", desc);
    uncounted += r->kernels_not_counted > 0;
    uncounted_ahead += r->kernels_not_counted > 0 && ahead;
    uncounted_l2 += r->kernels_not_counted > 0 && m->l2_ways;
    ms_result_free(rc);
    if (m->l2_ways && r->kernels_not_counted) { /* and with DRAM rows (the counters of lone slots) */
      MsModel *m2 = ms_model_copy(m);
      if (m2->global_rate < 2) m2->global_rate = 3;
      m2->dram_row_words = m2->group_words << (it % 3);
      m2->dram_lone_rate = 1;
      MsResult *r2 = mt_run(m2, t, &opt), *r2c = mt_run(m2, t, &counted);
      if (ps) same_result(r2, r2c, desc);
      else cr_assert_eq(r2->time_units, r2c->time_units, "%s", desc);
      cr_assert_eq(r2->dram_lone_stages, r2c->dram_lone_stages, "%s", desc);
      rows += r2->kernels_not_counted > 0 && r2->dram_lone_stages > 0;
      ms_result_free(r2);
      ms_result_free(r2c);
      ms_model_free(m2);
    }
    MsSimOptions every = {.per_step = ps, .dispatch_every_kernel = TRUE};
    MsResult *re = mt_run(m, t, &every);
    cr_assert_eq(re->repeated_kernels, 0, "%s", desc);
    cr_assert_eq(re->kernels_not_counted, 0, "%s", desc);
    if (ps) {
      same_result(r, re, desc);
    } else {
      cr_assert_eq(r->time_units, re->time_units, "%s", desc);
      cr_assert_eq(r->global_busy, re->global_busy, "%s", desc);
      cr_assert_eq(r->shared_busy, re->shared_busy, "%s", desc);
      cr_assert_eq(r->kernels, re->kernels, "%s", desc);
      cr_assert_eq(r->dram_stages, re->dram_stages, "%s", desc);
    }
    cr_assert_eq(r->dram_stages, re->dram_stages, "%s", desc);
    taken += r->repeated_kernels > 0;
    taken_ext += r->repeated_kernels > 0 && it % 2;
    ms_result_free(r);
    ms_result_free(re);
    mt_trace_free(t);
    ms_model_free(m);
  }
  cr_expect_gt(taken, 3000 / 4, "repeated kernels under-tested: %u", taken);
  cr_expect_gt(taken_ext, 3000 / 10, "repeated kernels with GPU extensions under-tested: %u", taken_ext);
  cr_expect_gt(uncounted, 3000 / 10, "repeated kernel counts under-tested: %u", uncounted);
  cr_expect_gt(uncounted_ahead, 3000 / 50, "repeated kernel counts loading ahead under-tested: %u", uncounted_ahead);
  cr_expect_gt(uncounted_l2, 3000 / 150, "repeated kernel counts with an L2 cache under-tested: %u", uncounted_l2);
  cr_expect_gt(rows, 3000 / 300, "repeated kernel counts with DRAM rows under-tested: %u", rows);
  cr_log_info("repeated kernels taken on %u of 3000 traces (%u with GPU extensions); kernels not counted on %u (%u "
              "loading ahead, %u with an L2 cache, %u with lone DRAM slots)",
              taken, taken_ext, uncounted, uncounted_ahead, uncounted_l2, rows);
  g_rand_free(g);
  g_rand_free(gc);
}
