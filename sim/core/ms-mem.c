/* ms-mem.c: zeroed arrays for the engine's per-warp state, in huge pages where the system
 * lends them.  A simulation of 2^24 threads touches tens of MiB of such arrays once each;
 * on 4 KiB pages the first touches (page faults) cost a quarter of a short run. */
#include "ms-private.h"
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

/* Below this size an array comes from g_malloc0: a huge page would not be filled. */
#define MS_MEM_HUGE ((gsize)2 << 20)

/* The header before every array: the mapping to unmap, or NULL for a g_malloc0 block. */
typedef struct {
  void *base;
  gsize len;
} MemHead;
#define MS_MEM_HEAD ((gsize)64) /* a cache line: the array keeps malloc's alignment, and 64 bytes in a mapping */

/* MEMSIM_HUGE_PAGES=0 turns the huge pages off (every array from g_malloc0). */
static gboolean huge_on(void) {
  static gint on = -1;
  if (g_atomic_int_get(&on) < 0) {
    const char *v = g_getenv("MEMSIM_HUGE_PAGES");
    g_atomic_int_set(&on, !(v && strcmp(v, "0") == 0));
  }
  return g_atomic_int_get(&on) == 1;
}

gpointer ms_mem_new0(gsize bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE) && !defined(MS_NO_HUGE)
  if (bytes >= MS_MEM_HUGE && bytes <= G_MAXSIZE - 4 * MS_MEM_HUGE && huge_on()) {
    /* Room for a start past a 2 MiB boundary, with the header in the page before.  The
     * arrays start at different offsets from that boundary (k * 4160 bytes, k = 1 .. 16 in
     * turn): arrays read at the same index (a warp's cursor, ready time, pipeline ...) would
     * otherwise fall in the same cache sets.  Untouched pages cost nothing. */
    static gint turn;
    const gsize off = (gsize)((guint)g_atomic_int_add(&turn, 1) % 16 + 1) * 4160;
    const gsize len = bytes + off + 2 * MS_MEM_HUGE;
    void *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base != MAP_FAILED) {
      const guintptr a = ((guintptr)base + MS_MEM_HUGE - 1) & ~(guintptr)(MS_MEM_HUGE - 1), p = a + off;
      (void)madvise((void *)a, bytes + off, MADV_HUGEPAGE); /* advice only: 4 KiB pages if refused */
      MemHead *h = (MemHead *)(p - MS_MEM_HEAD);
      h->base = base;
      h->len = len;
      return (gpointer)p; /* anonymous pages read as zero */
    }
  }
#endif
  char *q = g_malloc0(bytes + MS_MEM_HEAD);
  ((MemHead *)q)->base = NULL;
  return q + MS_MEM_HEAD;
}

void ms_mem_free(gpointer p) {
  if (!p) return;
  MemHead *h = (MemHead *)((char *)p - MS_MEM_HEAD);
#ifdef __linux__
  if (h->base) {
    munmap(h->base, h->len);
    return;
  }
#endif
  g_free(h);
}
