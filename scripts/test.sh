#!/usr/bin/env bash
# The whole test suite: a normal build, then the same suite under ASan + UBSan (any report
# fails it).  Ends with one line "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
summarize() { # build dir -> prints counts
  python3 - "$1/meson-logs/testlog.json" <<'PY'
import json, sys
ok = bad = skip = 0
for line in open(sys.argv[1]):
    r = json.loads(line)["result"]
    if r in ("OK", "EXPECTEDFAIL"): ok += 1
    elif r == "SKIP": skip += 1
    else: bad += 1
print(ok, bad, skip)
PY
}
run_suite() { # name, build dir, meson setup args...
  local name=$1 dir=$2; shift 2
  if [ ! -f "$dir/build.ninja" ]; then
    meson setup "$dir" "$@" >/dev/null || { echo "test: meson setup $dir failed" >&2; return 1; }
  fi
  ninja -C "$dir" || return 1
  echo "== $name suite" >&2
  meson test -C "$dir" --print-errorlogs --num-processes 2 || status=1
}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export MEMSIM_SANITIZED=0
run_suite plain build || status=1
read -r p1 f1 s1 < <(summarize build)
export MEMSIM_SANITIZED=1
run_suite "ASan+UBSan" build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug -Dkernels=disabled || status=1
read -r p2 f2 s2 < <(summarize build-asan)
passed=$((p1 + p2)); failed=$((f1 + f2)); skipped=$((s1 + s2))
[ "$failed" -eq 0 ] || status=1
echo "tests: $passed passed, $failed failed, $skipped skipped"
exit $status
