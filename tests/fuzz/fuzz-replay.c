/* fuzz-replay.c: run every file of a corpus directory through the fuzz target (the
 * regression test of the committed corpora; it fails by crashing or by a sanitizer report). */
#include <glib.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const guint8 *data, size_t size);

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s CORPUS-DIR\n", argv[0]);
    return 2;
  }
  GError *err = NULL;
  GDir *dir = g_dir_open(argv[1], 0, &err);
  if (!dir) {
    fprintf(stderr, "%s\n", err->message);
    g_error_free(err);
    return 2;
  }
  int n = 0;
  const char *name;
  while ((name = g_dir_read_name(dir))) {
    char *path = g_build_filename(argv[1], name, NULL);
    gchar *buf;
    gsize len;
    if (g_file_get_contents(path, &buf, &len, NULL)) {
      LLVMFuzzerTestOneInput((const guint8 *)buf, len);
      g_free(buf);
      n++;
    }
    g_free(path);
  }
  g_dir_close(dir);
  printf("replayed %d inputs from %s\n", n, argv[1]);
  return n > 0 ? 0 : 1;
}
