#!/usr/bin/env bash
# meson install into a temporary root, then a user's C program built against the installed
# libmemsim through pkg-config: it runs seed 001 Figure 3.3 on the textbook DMM (7 time
# units); the man page and the bash completion are installed and list the options of
# `memsim run --help`.   install.sh BUILD_DIR
set -u
build=${1:?usage: install.sh BUILD_DIR}
if [ "${MEMSIM_SANITIZED:-0}" = 1 ]; then
  echo "1..0 # SKIP a sanitized build's library needs the sanitizer runtime to link"; exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "not ok - $*"; fails=$((fails + 1)); }
if ! DESTDIR="$tmp/root" meson install -C "$build" --no-rebuild --quiet >"$tmp/install.log" 2>&1; then
  echo "not ok - meson install: $(tail -5 "$tmp/install.log")"; exit 1
fi
echo "ok - meson install"
pc=$(find "$tmp/root" -name memsim.pc | head -1)
[ -n "$pc" ] || { echo "not ok - no memsim.pc installed"; exit 1; }
prefix=$(sed -n 's/^prefix=//p' "$pc")
# the installed tree, as if installed at its own prefix
mkdir -p "$tmp/pc"
sed "s#^prefix=.*#prefix=$tmp/root$prefix#" "$pc" >"$tmp/pc/memsim.pc"
cat >"$tmp/prog.c" <<'C'
#include <memsim.h>
#include <string.h>

int main(void) {
  static const char model[] = "{\"model\": \"dmm\", \"width\": 4, \"latency\": 5}";
  static const char trace[] = "{\"memsim_trace\": 1, \"threads\": 8, \"steps\": [{\"op\": \"read\", \"space\": \"shared\","
                              " \"addr\": [7, 5, 15, 0, 10, 11, 12, 9]}]}";
  GError *err = NULL;
  MsModel *m = ms_model_parse(model, strlen(model), "model", &err);
  MsSource *s = m ? ms_trace_open_memory(trace, strlen(trace), "trace", &err) : NULL;
  MsResult *r = s ? ms_simulate(m, s, NULL, &err) : NULL;
  if (!r) {
    fprintf(stderr, "%s\n", err ? err->message : "?");
    return 1;
  }
  printf("%" G_GUINT64_FORMAT "\n", r->time_units);
  ms_result_free(r);
  ms_source_free(s);
  ms_model_free(m);
  return 0;
}
C
flags=$(PKG_CONFIG_PATH="$tmp/pc" pkg-config --cflags --libs memsim 2>"$tmp/pc.err")
if [ -z "$flags" ]; then fail "pkg-config memsim: $(cat "$tmp/pc.err")"
elif ! cc -std=c11 -Wall -Wextra -Werror "$tmp/prog.c" $flags -o "$tmp/prog" 2>"$tmp/cc.err"; then
  fail "build against the installed library: $(head -c 500 "$tmp/cc.err")"
else
  libdir=$(PKG_CONFIG_PATH="$tmp/pc" pkg-config --variable=libdir memsim)
  out=$(LD_LIBRARY_PATH="$libdir" "$tmp/prog" 2>&1)
  if [ "$out" = 7 ] && LD_LIBRARY_PATH="$libdir" ldd "$tmp/prog" 2>/dev/null | grep -q "$libdir/libmemsim.so"; then
    echo "ok - a C program linked through pkg-config against the installed libmemsim.so"
  else fail "installed-library program: '$out' ($(LD_LIBRARY_PATH="$libdir" ldd "$tmp/prog" | grep memsim))"; fi
fi
man=$(find "$tmp/root" -path '*man1/memsim.1' | head -1)
comp=$(find "$tmp/root" -path '*completions/memsim' | head -1)
if [ -n "$man" ] && grep -q '^\.SH RUN' "$man" && grep -q '\\-\\-threads' "$man" && grep -q '^\.SH GEN SAT' "$man"; then
  echo "ok - memsim(1) installed, with every verb's and generator's --help"
else fail "memsim(1): $man"; fi
if [ -n "$comp" ] && bash -n "$comp" && grep -q 'run) opts=".*--threads' "$comp" &&
   bash -c "source '$comp'; COMP_WORDS=(memsim gen sat --un); COMP_CWORD=3; _memsim; [ \"\${COMPREPLY[*]}\" = --unroll ]"; then
  echo "ok - bash completion installed; memsim gen sat --un completes to --unroll"
else fail "bash completion: $comp"; fi
pyinit=$(find "$tmp/root" -path '*/memsim/__init__.py' | head -1)
if [ -z "$pyinit" ]; then
  echo "ok - python module # SKIP not installed (no python3 installation found by meson)"
elif out=$(PYTHONPATH=$(dirname "$(dirname "$pyinit")") MEMSIM_LIB="$libdir/libmemsim.so" python3 -c '
import memsim
m = memsim.Model.from_dict({"model": "dmm", "width": 4, "latency": 5})
print(m.run(memsim.Trace.from_steps(8, [("read", "shared", [7, 5, 15, 0, 10, 11, 12, 9])]))["time_units"])' 2>&1) &&
     [ "$out" = 7 ] && grep -q '^LIBDIR = ' "$(dirname "$pyinit")/_config.py"; then
  echo "ok - the installed python module runs Figure 3.3 on the installed library"
else fail "installed python module: $out"; fi
[ "$fails" = 0 ]
