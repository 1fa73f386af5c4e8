/* ms-trace-binary.c: the binary address stream (docs/trace-format.md, "Binary form").
 * Little-endian throughout, versioned, read as a stream: a step's addresses are read when
 * the engine asks for them, so a file of any length runs in memory for one step's chunk. */
#include "ms-formats.h"
#include <errno.h>
#include <string.h>

#define BIN_VERSION 1u
#define ENC_I64 0
#define ENC_U32 1
#define ENC_AFFINE 2
#define OP_END 0xFF
#define MAX_NAME (1u << 16)
/* Header flags: an 8-byte shared_words follows the name (1), then an 8-byte
 * global_words (2). */
#define FLAG_SHARED_WORDS 1u
#define FLAG_GLOBAL_WORDS 2u
#define FLAGS_KNOWN (FLAG_SHARED_WORDS | FLAG_GLOBAL_WORDS)

typedef struct {
  FILE *f;
  char *fn;
  guint64 threads;
  guint64 offset; /* bytes consumed */
  guint64 step;   /* steps returned */
  gint64 cur;     /* index of the step being read, -1 in the header */
  int enc;
  gint64 base, stride;
  gboolean own;
} Bin;

static guint64 rd_le(const guint8 *b, int n) {
  guint64 v = 0;
  for (int i = n - 1; i >= 0; i--) v = (v << 8) | b[i];
  return v;
}

static gboolean rd(Bin *b, void *buf, gsize n, const char *what, GError **error) {
  gsize got = fread(buf, 1, n, b->f);
  if (got != n) {
    if (ferror(b->f))
      g_set_error(error, MS_ERROR, MS_ERROR_IO, "%s: byte %" G_GUINT64_FORMAT ": read error: %s",
                  b->fn, b->offset + got, g_strerror(errno));
    else
    {
      char stepbuf[48] = "";
      if (b->cur >= 0) g_snprintf(stepbuf, sizeof stepbuf, ", step %" G_GINT64_FORMAT, b->cur);
      g_set_error(error, MS_ERROR, MS_ERROR_SYNTAX,
                  "%s: byte %" G_GUINT64_FORMAT "%s: truncated file: %s needs %" G_GSIZE_FORMAT
                  " bytes, only %" G_GSIZE_FORMAT " present",
                  b->fn, b->offset + got, stepbuf, what, n, got);
    }
    return FALSE;
  }
  b->offset += n;
  return TRUE;
}

static MsNext bin_next(gpointer self, MsStep *step, GError **error) {
  Bin *b = self;
  guint8 h[4];
  guint64 at = b->offset;
  b->cur = (gint64)b->step;
  if (!rd(b, h, 4, "a step header", error)) return MS_NEXT_ERROR;
  if (h[0] == OP_END) {
    if (fgetc(b->f) != EOF) {
      g_set_error(error, MS_ERROR, MS_ERROR_SYNTAX,
                  "%s: byte %" G_GUINT64_FORMAT ": data after the end marker", b->fn, b->offset);
      return MS_NEXT_ERROR;
    }
    return MS_NEXT_END;
  }
  memset(step, 0, sizeof *step);
  /* op 3, a shuffle, is encoded as a memory step whose addresses only say which threads
   * take part (arg 0); ops 4 and 5, signal and wait, as one whose addresses are flags (arg 0);
   * op 6, compute, as one whose addresses are instruction counts (arg 0); op 7, await, as a
   * shuffle; op 8, an asynchronous global read, as a read (arg 0). */
  if (h[0] > 8 || h[1] > 1 || h[3] != 0 || (h[0] == 2 && h[2] != 0) || (h[0] != 2 && h[2] > ENC_AFFINE) ||
      (h[0] >= 3 && h[1] != 0)) {
    g_set_error(error, MS_ERROR, MS_ERROR_SYNTAX,
                "%s: byte %" G_GUINT64_FORMAT ", step %" G_GUINT64_FORMAT
                ": bad step header %02x %02x %02x %02x (misaligned or corrupt file?)",
                b->fn, at, b->step, h[0], h[1], h[2], h[3]);
    return MS_NEXT_ERROR;
  }
  static const MsOp ops[] = {MS_OP_READ,   MS_OP_WRITE, MS_OP_SYNC,    MS_OP_SHUFFLE,
                             MS_OP_SIGNAL, MS_OP_WAIT,  MS_OP_COMPUTE, MS_OP_AWAIT, MS_OP_READ};
  step->op = ops[h[0]];
  if (step->op == MS_OP_SYNC) step->scope = h[1] ? MS_SCOPE_BLOCK : MS_SCOPE_GRID;
  else if (step->op == MS_OP_READ || step->op == MS_OP_WRITE) step->space = h[1] ? MS_SPACE_SHARED : MS_SPACE_GLOBAL;
  step->async = h[0] == 8;
  b->enc = h[2];
  if (step->op != MS_OP_SYNC && b->enc == ENC_AFFINE) {
    guint8 v[16];
    if (!rd(b, v, 16, "an affine step's base and stride", error)) return MS_NEXT_ERROR;
    b->base = (gint64)rd_le(v, 8);
    b->stride = (gint64)rd_le(v + 8, 8);
    gint64 last;
    if (b->base < 0 ||
        __builtin_mul_overflow(b->stride, (gint64)(b->threads - 1), &last) ||
        __builtin_add_overflow(last, b->base, &last) || last < 0) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                  "%s: byte %" G_GUINT64_FORMAT ", step %" G_GUINT64_FORMAT
                  ": affine addresses base %" G_GINT64_FORMAT " stride %" G_GINT64_FORMAT
                  " leave the range [0, 2^63)",
                  b->fn, at, b->step, b->base, b->stride);
      return MS_NEXT_ERROR;
    }
  }
  b->step++;
  return MS_NEXT_STEP;
}

static gboolean bin_fill(gpointer self, guint64 first, guint64 count, gint64 *addr,
                         GError **error) {
  Bin *b = self;
  if (b->enc == ENC_AFFINE) {
    for (guint64 i = 0; i < count; i++) addr[i] = b->base + b->stride * (gint64)(first + i);
    return TRUE;
  }
  int sz = b->enc == ENC_I64 ? 8 : 4;
  guint8 buf[8 * 4096];
  for (guint64 done = 0; done < count;) {
    guint64 n = MIN(count - done, 4096);
    guint64 at = b->offset;
    if (!rd(b, buf, n * (guint64)sz, "the step's addresses", error)) return FALSE;
    for (guint64 i = 0; i < n; i++) {
      guint64 v = rd_le(buf + i * (guint64)sz, sz);
      gint64 a;
      if (sz == 4) a = v == 0xFFFFFFFFu ? MS_ADDR_NONE : (gint64)v;
      else {
        a = (gint64)v;
        if (a < -1) {
          g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                      "%s: byte %" G_GUINT64_FORMAT ", step %" G_GUINT64_FORMAT
                      ": negative address %" G_GINT64_FORMAT " (only -1, inactive, is allowed)",
                      b->fn, at + i * 8, b->step - 1, a);
          return FALSE;
        }
      }
      addr[done + i] = a;
    }
    done += n;
  }
  return TRUE;
}

static void bin_destroy(gpointer self) {
  Bin *b = self;
  if (b->own) fclose(b->f);
  g_free(b->fn);
  g_free(b);
}

static const MsSourceFuncs bin_funcs = {bin_next, bin_fill, bin_destroy};

MsSource *ms_trace_binary_open(FILE *f, const char *fn, GError **error) {
  Bin *b = g_new0(Bin, 1);
  b->f = f;
  b->own = f != stdin;
  b->fn = g_strdup(fn);
  b->cur = -1;
  guint8 h[32];
  gsize got = fread(h, 1, 32, f);
  b->offset = got;
  if (memcmp(h, MS_BINARY_MAGIC, MIN(got, 8)) != 0 || got == 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_SYNTAX,
                "%s: byte 0: not a memsim trace (no JSON object, no binary magic \"%s\")", fn,
                MS_BINARY_MAGIC);
    goto fail;
  }
  if (got < 32) {
    g_set_error(error, MS_ERROR, MS_ERROR_SYNTAX,
                "%s: byte %" G_GSIZE_FORMAT ": truncated file: the header needs 32 bytes, only %" G_GSIZE_FORMAT " present",
                fn, got, got);
    goto fail;
  }
  guint32 ver = (guint32)rd_le(h + 8, 4), flags = (guint32)rd_le(h + 12, 4);
  if (ver != BIN_VERSION) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "%s: byte 8: unsupported binary trace version %u (this memsim reads %u)", fn, ver,
                BIN_VERSION);
    goto fail;
  }
  if (flags & ~FLAGS_KNOWN) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: byte 12: unknown flags 0x%x", fn, flags & ~FLAGS_KNOWN);
    goto fail;
  }
  b->threads = rd_le(h + 16, 8);
  guint64 bt = rd_le(h + 24, 8);
  if (b->threads == 0 || b->threads > MS_MAX_THREADS) {
    g_set_error(error, MS_ERROR, b->threads ? MS_ERROR_LIMIT : MS_ERROR_INVALID,
                "%s: byte 16: threads %" G_GUINT64_FORMAT " is out of range [1, 2^32]", fn, b->threads);
    goto fail;
  }
  if (bt == 0 || bt > MS_MAX_THREADS) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "%s: byte 24: block_threads %" G_GUINT64_FORMAT " is out of range [1, 2^32]", fn, bt);
    goto fail;
  }
  guint8 nl[4];
  if (!rd(b, nl, 4, "the name length", error)) goto fail;
  guint32 len = (guint32)rd_le(nl, 4);
  if (len > MAX_NAME) {
    g_set_error(error, MS_ERROR, MS_ERROR_LIMIT, "%s: byte 32: name length %u is over %u", fn, len, MAX_NAME);
    goto fail;
  }
  char *name = g_malloc(len + 1);
  if (!rd(b, name, len, "the name", error)) {
    g_free(name);
    goto fail;
  }
  name[len] = '\0';
  g_free(name);
  guint64 words[2] = {0, 0};
  static const char *const word_keys[2] = {"shared_words", "global_words"};
  static const guint32 word_flags[2] = {FLAG_SHARED_WORDS, FLAG_GLOBAL_WORDS};
  for (int k = 0; k < 2; k++) {
    if (!(flags & word_flags[k])) continue;
    guint8 sw[8];
    guint64 at = b->offset;
    if (!rd(b, sw, 8, word_keys[k], error)) goto fail;
    words[k] = rd_le(sw, 8);
    if (words[k] > (guint64)MS_MAX_JSON_INT) {
      g_set_error(error, MS_ERROR, MS_ERROR_LIMIT,
                  "%s: byte %" G_GUINT64_FORMAT ": %s %" G_GUINT64_FORMAT " is out of range [0, 2^53 - 1]", fn, at,
                  word_keys[k], words[k]);
      goto fail;
    }
  }
  MsSource *src = ms_source_new(fn, b->threads, bt, &bin_funcs, b);
  ms_source_set_shared_words(src, words[0]);
  ms_source_set_global_words(src, words[1]);
  return src;
fail:
  bin_destroy(b);
  return NULL;
}

static void wr_le(guint8 *b, guint64 v, int n) {
  for (int i = 0; i < n; i++) b[i] = (guint8)(v >> (8 * i));
}

gboolean ms_trace_binary_write(MsSource *src, FILE *out, const char *name, GError **error) {
  guint64 p = ms_source_threads(src);
  guint8 h[36];
  memcpy(h, MS_BINARY_MAGIC, 8);
  wr_le(h + 8, BIN_VERSION, 4);
  const guint64 sw = ms_source_shared_words(src), gw = ms_source_global_words(src);
  wr_le(h + 12, (sw ? FLAG_SHARED_WORDS : 0) | (gw ? FLAG_GLOBAL_WORDS : 0), 4);
  wr_le(h + 16, p, 8);
  wr_le(h + 24, ms_source_block_threads(src), 8);
  const char *nm = ms_source_name(src);
  gsize nlen = MIN(strlen(nm), MAX_NAME);
  wr_le(h + 32, nlen, 4);
  fwrite(h, 1, 36, out);
  fwrite(nm, 1, nlen, out);
  if (sw) {
    guint8 v[8];
    wr_le(v, sw, 8);
    fwrite(v, 1, 8, out);
  }
  if (gw) {
    guint8 v[8];
    wr_le(v, gw, 8);
    fwrite(v, 1, 8, out);
  }
  gint64 *a = g_new(gint64, p);
  guint8 *buf = g_new(guint8, 8 * MIN(p, 65536));
  gboolean ok = TRUE;
  for (;;) {
    MsStep st;
    MsNext nx = ms_source_next(src, &st, error);
    if (nx == MS_NEXT_ERROR) {
      ok = FALSE;
      break;
    }
    guint8 sh[4] = {0, 0, 0, 0};
    if (nx == MS_NEXT_END) {
      sh[0] = OP_END;
      fwrite(sh, 1, 4, out);
      break;
    }
    sh[0] = st.op == MS_OP_READ ? 0 : st.op == MS_OP_WRITE ? 1 : st.op == MS_OP_SYNC ? 2 : st.op == MS_OP_SHUFFLE ? 3
            : st.op == MS_OP_SIGNAL ? 4 : st.op == MS_OP_WAIT ? 5 : st.op == MS_OP_COMPUTE ? 6 : 7;
    if (st.op == MS_OP_SYNC) {
      sh[1] = st.scope == MS_SCOPE_BLOCK;
      fwrite(sh, 1, 4, out);
      continue;
    }
    sh[1] = (st.op == MS_OP_READ || st.op == MS_OP_WRITE) && st.space == MS_SPACE_SHARED;
    if (st.async) sh[0] = 8; /* a global read */
    if (!ms_source_fill(src, 0, p, a, error)) {
      ok = FALSE;
      break;
    }
    if (st.op == MS_OP_SHUFFLE || st.op == MS_OP_AWAIT) /* only activity counts: 0 for an active thread */
      for (guint64 i = 0; i < p; i++) a[i] = a[i] < 0 ? MS_ADDR_NONE : 0;
    /* smallest encoding that holds the step exactly */
    gboolean affine = p >= 2 && a[0] >= 0, small = TRUE;
    gint64 stride = p >= 2 ? a[1] - a[0] : 0;
    for (guint64 i = 0; i < p; i++) {
      if (a[i] >= 0xFFFFFFFFll) small = FALSE;
      if (affine && (a[i] < 0 || a[i] != a[0] + stride * (gint64)i)) affine = FALSE;
    }
    if (affine) {
      sh[2] = ENC_AFFINE;
      guint8 v[16];
      wr_le(v, (guint64)a[0], 8);
      wr_le(v + 8, (guint64)stride, 8);
      fwrite(sh, 1, 4, out);
      fwrite(v, 1, 16, out);
      continue;
    }
    int sz = small ? 4 : 8;
    sh[2] = small ? ENC_U32 : ENC_I64;
    fwrite(sh, 1, 4, out);
    for (guint64 f = 0; f < p; f += 65536) {
      guint64 n = MIN(65536, p - f);
      for (guint64 i = 0; i < n; i++) {
        gint64 v = a[f + i];
        if (small) wr_le(buf + 4 * i, v < 0 ? 0xFFFFFFFFu : (guint64)v, 4);
        else wr_le(buf + 8 * i, (guint64)v, 8);
      }
      fwrite(buf, 1, n * (guint64)sz, out);
    }
  }
  g_free(a);
  g_free(buf);
  fflush(out);
  if (ok && ferror(out)) {
    g_set_error(error, MS_ERROR, MS_ERROR_IO, "%s: write error: %s", name, g_strerror(errno));
    ok = FALSE;
  }
  return ok;
}
