/* ms-colouring.c: exact edge colouring of a regular bipartite multigraph (König's theorem,
 * seed 001 Theorem 4.2.1), used for the conflict-free permutation (bank graph, w + w nodes,
 * degree n/w) and the scheduled HMM permutation (row graph, nbar + nbar nodes, degree nbar).
 *
 * Algorithm (docs/workloads/permutation.md, "Edge colouring"): the multigraph is first
 * compressed to its distinct node pairs with multiplicities.  Then, recursively,
 *  - a level whose pairs form a perfect matching (every multiplicity = degree d) takes the
 *    d colours at once;
 *  - an even degree d is split into two (d/2)-regular halves: each pair gives floor(m/2) to
 *    each half, and the pairs of odd multiplicity (every node has an even number of them)
 *    are split by walking closed trails and alternating halves (Euler partition, Gabow);
 *  - an odd degree d removes one perfect matching of the support graph (greedy, then
 *    augmenting paths found by breadth-first search), leaving degree d - 1.
 * A level costs O(pairs), and the pairs shrink with the degree, so the bank graph of any n
 * costs O(n) to bucket plus O(w^2 log(n/w)), and the row graph O(n log nbar) at worst. */
#include "ms-permutation-private.h"
#include <string.h>

typedef struct {
  guint32 nodes;
  guint64 *cursor;     /* per pair: next edge of the pair (index into pedges) */
  const guint64 *pedges; /* edges grouped by pair */
  guint32 *colour;     /* output per edge */
} Ctx;

typedef struct {
  guint32 *u, *v; /* endpoints */
  guint64 *m;     /* multiplicity */
  guint64 *id;    /* original pair id */
  guint64 np;
} Pairs;

static void pairs_alloc(Pairs *p, guint64 np) {
  p->u = g_new(guint32, np ? np : 1);
  p->v = g_new(guint32, np ? np : 1);
  p->m = g_new(guint64, np ? np : 1);
  p->id = g_new(guint64, np ? np : 1);
  p->np = 0;
}

static void pairs_free(Pairs *p) {
  g_free(p->u);
  g_free(p->v);
  g_free(p->m);
  g_free(p->id);
}

static void emit(Ctx *c, guint64 pair, guint64 first_colour, guint64 count) {
  for (guint64 k = 0; k < count; k++) c->colour[c->pedges[c->cursor[pair]++]] = (guint32)(first_colour + k);
}

/* A perfect matching of the support of a regular bipartite multigraph: match_pair[u] = the
 * index of the pair matched at left node u. */
static void perfect_matching(const Pairs *p, guint32 nodes, guint64 *match_pair) {
  guint64 *off = g_new0(guint64, nodes + 1);
  for (guint64 k = 0; k < p->np; k++) off[p->u[k] + 1]++;
  for (guint32 x = 0; x < nodes; x++) off[x + 1] += off[x];
  guint64 *adj = g_new(guint64, p->np ? p->np : 1);
  guint64 *fill = g_memdup2(off, sizeof(guint64) * nodes);
  for (guint64 k = 0; k < p->np; k++) adj[fill[p->u[k]]++] = k;
  g_free(fill);
  gint64 *mate_r = g_new(gint64, nodes); /* right node -> pair */
  for (guint32 x = 0; x < nodes; x++) {
    mate_r[x] = -1;
    match_pair[x] = G_MAXUINT64;
  }
  for (guint32 x = 0; x < nodes; x++)
    for (guint64 a = off[x]; a < off[x + 1]; a++)
      if (mate_r[p->v[adj[a]]] < 0) {
        mate_r[p->v[adj[a]]] = (gint64)adj[a];
        match_pair[x] = adj[a];
        break;
      }
  /* Augment from each free left node by BFS over alternating paths. */
  gint64 *via = g_new(gint64, nodes); /* right node -> pair used to reach it */
  guint32 *queue = g_new(guint32, nodes);
  for (guint32 x = 0; x < nodes; x++) {
    if (match_pair[x] != G_MAXUINT64) continue;
    for (guint32 y = 0; y < nodes; y++) via[y] = -1;
    guint32 qh = 0, qt = 0;
    queue[qt++] = x;
    gint64 found = -1;
    while (qh < qt && found < 0) {
      guint32 l = queue[qh++];
      for (guint64 a = off[l]; a < off[l + 1]; a++) {
        guint32 r = p->v[adj[a]];
        if (via[r] >= 0) continue;
        via[r] = (gint64)adj[a];
        if (mate_r[r] < 0) {
          found = r;
          break;
        }
        queue[qt++] = p->u[mate_r[r]];
      }
    }
    g_assert(found >= 0); /* König: a regular bipartite multigraph has a perfect matching */
    for (gint64 r = found; r >= 0;) {
      guint64 pk = (guint64)via[r];
      guint32 l = p->u[pk];
      gint64 prev = match_pair[l] == G_MAXUINT64 ? -1 : (gint64)p->v[match_pair[l]];
      mate_r[r] = (gint64)pk;
      match_pair[l] = pk;
      r = prev;
    }
  }
  g_free(via);
  g_free(queue);
  g_free(mate_r);
  g_free(adj);
  g_free(off);
}

/* Split the pairs of odd multiplicity: side[k] = 0 or 1 for each such pair so that every
 * node has as many of them on side 0 as on side 1. */
static void euler_split(const Pairs *p, const guint64 *odd, guint64 nodd, guint32 nodes, guint8 *side) {
  guint32 nn = 2 * nodes;
  guint64 *off = g_new0(guint64, nn + 1);
  for (guint64 k = 0; k < nodd; k++) {
    off[p->u[odd[k]] + 1]++;
    off[nodes + p->v[odd[k]] + 1]++;
  }
  for (guint32 x = 0; x < nn; x++) off[x + 1] += off[x];
  guint64 *adj = g_new(guint64, 2 * nodd + 1);
  guint64 *ptr = g_memdup2(off, sizeof(guint64) * nn);
  for (guint64 k = 0; k < nodd; k++) {
    adj[ptr[p->u[odd[k]]]++] = k;
    adj[ptr[nodes + p->v[odd[k]]]++] = k;
  }
  memcpy(ptr, off, sizeof(guint64) * nn);
  guint8 *used = g_new0(guint8, nodd + 1);
  for (guint32 start = 0; start < nn; start++) {
    for (;;) {
      while (ptr[start] < off[start + 1] && used[adj[ptr[start]]]) ptr[start]++;
      if (ptr[start] == off[start + 1]) break;
      guint32 cur = start;
      guint8 s = 0;
      for (;;) {
        while (ptr[cur] < off[cur + 1] && used[adj[ptr[cur]]]) ptr[cur]++;
        if (ptr[cur] == off[cur + 1]) break;
        guint64 k = adj[ptr[cur]++];
        used[k] = 1;
        side[k] = s;
        s ^= 1;
        cur = cur < nodes ? nodes + p->v[odd[k]] : p->u[odd[k]];
      }
      g_assert(cur == start && s == 0);
    }
  }
  g_free(used);
  g_free(ptr);
  g_free(adj);
  g_free(off);
}

static void colour_rec(Ctx *c, Pairs *p, guint64 d, guint64 base) {
  for (;;) {
    if (d == 0) return;
    if (p->np == c->nodes) { /* a perfect matching of multiplicity d */
      for (guint64 k = 0; k < p->np; k++) emit(c, p->id[k], base, d);
      return;
    }
    if (d % 2 == 0) break;
    guint64 *mp = g_new(guint64, c->nodes);
    perfect_matching(p, c->nodes, mp);
    for (guint32 x = 0; x < c->nodes; x++) {
      emit(c, p->id[mp[x]], base, 1);
      p->m[mp[x]]--;
    }
    g_free(mp);
    guint64 k2 = 0;
    for (guint64 k = 0; k < p->np; k++)
      if (p->m[k]) {
        p->u[k2] = p->u[k];
        p->v[k2] = p->v[k];
        p->m[k2] = p->m[k];
        p->id[k2] = p->id[k];
        k2++;
      }
    p->np = k2;
    d--;
    base++;
  }
  guint64 nodd = 0;
  for (guint64 k = 0; k < p->np; k++) nodd += p->m[k] & 1;
  guint64 *odd = g_new(guint64, nodd + 1);
  nodd = 0;
  for (guint64 k = 0; k < p->np; k++)
    if (p->m[k] & 1) odd[nodd++] = k;
  guint8 *side = g_new(guint8, nodd + 1);
  euler_split(p, odd, nodd, c->nodes, side);
  guint64 *extra = g_new0(guint64, p->np ? p->np : 1); /* +1 for half 0 */
  for (guint64 k = 0; k < nodd; k++) extra[odd[k]] = side[k] == 0 ? 1 : 2;
  g_free(odd);
  g_free(side);
  Pairs h[2];
  for (int s = 0; s < 2; s++) {
    pairs_alloc(&h[s], p->np);
    for (guint64 k = 0; k < p->np; k++) {
      guint64 m = p->m[k] / 2 + (extra[k] == (guint64)(s + 1));
      if (!m) continue;
      guint64 j = h[s].np++;
      h[s].u[j] = p->u[k];
      h[s].v[j] = p->v[k];
      h[s].m[j] = m;
      h[s].id[j] = p->id[k];
    }
  }
  g_free(extra);
  pairs_free(p);
  memset(p, 0, sizeof *p);
  colour_rec(c, &h[0], d / 2, base);
  pairs_free(&h[0]);
  colour_rec(c, &h[1], d / 2, base + d / 2);
  pairs_free(&h[1]);
}

gboolean ms_bipartite_colour(guint32 nodes, guint64 edges, const guint32 *left,
                             const guint32 *right, guint32 *colour, GError **error) {
  if (nodes == 0 || edges % nodes != 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "edge colouring: %" G_GUINT64_FORMAT " edges on %u + %u nodes cannot be regular", edges, nodes, nodes);
    return FALSE;
  }
  guint64 d = edges / nodes;
  if (d > G_MAXUINT32) {
    g_set_error(error, MS_ERROR, MS_ERROR_LIMIT, "edge colouring: degree %" G_GUINT64_FORMAT " is too large", d);
    return FALSE;
  }
  /* Check regularity and bucket the edges by left node. */
  guint64 *degl = g_new0(guint64, nodes + 1), *degr = g_new0(guint64, nodes);
  for (guint64 e = 0; e < edges; e++) {
    if (left[e] >= nodes || right[e] >= nodes) {
      g_free(degl);
      g_free(degr);
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "edge colouring: edge %" G_GUINT64_FORMAT " has a node out of range", e);
      return FALSE;
    }
    degl[left[e] + 1]++;
    degr[right[e]]++;
  }
  for (guint32 x = 0; x < nodes; x++)
    if (degl[x + 1] != d || degr[x] != d) {
      g_free(degl);
      g_free(degr);
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "edge colouring: the graph is not %" G_GUINT64_FORMAT "-regular (node %u)", d, x);
      return FALSE;
    }
  g_free(degr);
  for (guint32 x = 0; x < nodes; x++) degl[x + 1] += degl[x];
  guint64 *byl = g_new(guint64, edges ? edges : 1);
  for (guint64 e = 0; e < edges; e++) byl[degl[left[e]]++] = e;
  g_free(degl);
  /* Distinct pairs, in order of left node. */
  guint32 *stamp = g_new0(guint32, nodes);
  guint64 *pid_of = g_new(guint64, nodes);
  guint64 *epair = g_new(guint64, edges ? edges : 1);
  Pairs p;
  pairs_alloc(&p, edges);
  for (guint64 a = 0; a < edges; a++) {
    guint64 e = byl[a];
    guint32 u = left[e], v = right[e];
    if (stamp[v] != u + 1) {
      stamp[v] = u + 1;
      pid_of[v] = p.np;
      p.u[p.np] = u;
      p.v[p.np] = v;
      p.m[p.np] = 0;
      p.id[p.np] = p.np;
      p.np++;
    }
    p.m[pid_of[v]]++;
    epair[e] = pid_of[v];
  }
  g_free(stamp);
  g_free(pid_of);
  g_free(byl);
  guint64 *poff = g_new0(guint64, p.np + 1);
  for (guint64 e = 0; e < edges; e++) poff[epair[e] + 1]++;
  for (guint64 k = 0; k < p.np; k++) poff[k + 1] += poff[k];
  guint64 *pedges = g_new(guint64, edges ? edges : 1);
  guint64 *cursor = g_memdup2(poff, sizeof(guint64) * (p.np + 1));
  for (guint64 e = 0; e < edges; e++) pedges[cursor[epair[e]]++] = e;
  memcpy(cursor, poff, sizeof(guint64) * (p.np + 1));
  g_free(epair);
  g_free(poff);
  Ctx c = {nodes, cursor, pedges, colour};
  colour_rec(&c, &p, d, 0);
  pairs_free(&p);
  g_free(cursor);
  g_free(pedges);
  return TRUE;
}

gboolean ms_colouring_is_exact(guint32 nodes, guint64 edges, const guint32 *left,
                               const guint32 *right, const guint32 *colour) {
  guint64 d = edges / nodes;
  guint8 *seen_l = g_new0(guint8, d * nodes), *seen_r = g_new0(guint8, d * nodes);
  gboolean ok = TRUE;
  for (guint64 e = 0; e < edges && ok; e++) {
    if (colour[e] >= d) ok = FALSE;
    else if (seen_l[(guint64)colour[e] * nodes + left[e]]++ || seen_r[(guint64)colour[e] * nodes + right[e]]++) ok = FALSE;
  }
  g_free(seen_l);
  g_free(seen_r);
  return ok;
}
