/* ms-permutation-private.h: the permutation family's internals, shared by the family, its
 * CLI verbs (gen permutation, perm-info), its tests and its benchmark. */
#ifndef MS_PERMUTATION_PRIVATE_H
#define MS_PERMUTATION_PRIVATE_H

#include "ms-workloads.h"
#include "ms-perm.h"

/* ---- edge colouring (ms-colouring.c) ---- */

/* Colour the edges (left[e], right[e]), e < edges, of a regular bipartite multigraph with
 * `nodes` nodes on each side and degree d = edges / nodes: colour[e] in [0, d) such that
 * every colour class is a perfect matching.  FALSE with error set if the graph is not
 * regular. */
gboolean ms_bipartite_colour(guint32 nodes, guint64 edges, const guint32 *left,
                             const guint32 *right, guint32 *colour, GError **error);
/* TRUE if every colour class of `colour` is a perfect matching. */
gboolean ms_colouring_is_exact(guint32 nodes, guint64 edges, const guint32 *left,
                               const guint32 *right, const guint32 *colour);

/* ---- permutations (ms-permutation.c) ---- */

/* A permutation from its specification: a name of ms_perm_generate, or "file:PATH" (text:
 * whitespace-separated integers; binary, when PATH ends in .bin or .u32: little-endian
 * u32).  *n is the size asked for (0: take the file's size); on success it holds the size.
 * Returns a new array, or NULL with error set (unknown name, unreadable file, not a
 * bijection, size mismatch). */
gint64 *ms_perm_load(const char *spec, guint64 *n, guint64 seed, GError **error);

/* The distribution D_w(P) of seed 001 section 5.2: the total number of distinct address
 * groups floor(P(i)/w) over the warps {jw, ..., jw + w - 1}. */
guint64 ms_perm_distribution(const gint64 *p, guint64 n, guint32 w);
/* DMM stages of one warp's requests to addresses addr[0..count-1] (largest number of
 * distinct addresses in one of the w banks), and UMM stages (distinct address groups). */
guint32 ms_perm_warp_dmm_stages(const gint64 *addr, guint32 count, guint32 w);
guint32 ms_perm_warp_umm_stages(const gint64 *addr, guint32 count, guint32 w);

/* The in-place formulas of seed 001 section 4.4, generalised: which = 'p' (P), 'q' (P^-1),
 * 's' (S) or 'd' (D = P o S) of the named permutation at index i.  ms_perm_formula_holds
 * says whether the formula exists for (kind, which, n, w); ms_perm_formula evaluates it
 * (only call it when it holds). */
gboolean ms_perm_formula_holds(const char *kind, char which, guint64 n, guint32 w);
guint64 ms_perm_formula(const char *kind, char which, guint64 n, guint32 w, guint64 i);

/* S and D of the conflict-free permutation of one row of `len` elements by the row
 * permutation q (values in [0, len)), len a multiple of w: thread c*w + u reads the
 * element of colour c in bank u.  Writes s[len], d[len]. */
gboolean ms_perm_conflict_free_tables(const gint64 *q, guint64 len, guint32 w, guint32 *s,
                                      guint32 *d, GError **error);

/* The verified trace of ms_permutation_source() in the compact JSON form: tables (P, Q = P^-1,
 * S, D) as data arrays, steps as address expressions of tid.  With `path` (the file the text
 * will be written to) tables longer than 4096 entries go to little-endian u32 side files
 * STEM.NAME.u32 in its folder (STEM: path's name without .json); without it all are inline.
 * Returns the JSON text (g_free) or NULL with error set. */
gchar *ms_permutation_compact(const char *algorithm, GHashTable *params, const char *path, GError **error);

/* Algorithm names, NULL-terminated. */
extern const char *const ms_permutation_algorithms[];

#endif
