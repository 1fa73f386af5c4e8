/* ms-perm.h: the named permutations of seed 001 (section 4.4) and permutation files. */
#ifndef MS_PERM_H
#define MS_PERM_H

#include <glib.h>

/* Splitmix64: the project's one PRNG, so seeded results are the same everywhere. */
guint64 ms_rand_next(guint64 *state);
/* Uniform in [0, bound), bound > 0, without modulo bias. */
guint64 ms_rand_below(guint64 *state, guint64 bound);

/* P as an array of n destinations: P[i] is where element i goes.  Kinds: identical
 * (identity), random (seeded Fisher-Yates), transpose (n a perfect square), shuffle and
 * bit-reversal (n a power of two).  Returns NULL with error set if n does not suit. */
gint64 *ms_perm_generate(const char *kind, guint64 n, guint64 seed, GError **error);
/* TRUE if p is a bijection on [0, n). */
gboolean ms_perm_is_valid(const gint64 *p, guint64 n);
/* The inverse of a valid permutation. */
gint64 *ms_perm_inverse(const gint64 *p, guint64 n);

#endif
