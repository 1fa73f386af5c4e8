#!/usr/bin/env bash
# Run the four libFuzzer targets (build: CC=clang meson setup build-fuzz -Dfuzz=true
# -Db_sanitize=address,undefined -Db_lundef=false), each for SECONDS of wall time, then merge
# what they found into the committed corpora under tests/fuzz/corpus/.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-1800}
ninja -C build-fuzz tests/fuzz/fuzz-model tests/fuzz/fuzz-explicit tests/fuzz/fuzz-compact tests/fuzz/fuzz-binary
for t in model explicit compact binary; do
  mkdir -p /tmp/fuzz/$t
  ( nice -n "${FUZZ_NICE:-0}" /usr/bin/time -f "$t: %U s user CPU, %e s wall" -o /tmp/fuzz/$t.time \
      build-fuzz/tests/fuzz/fuzz-$t /tmp/fuzz/$t tests/fuzz/corpus/$t -dict=tests/fuzz/memsim.dict \
      -max_total_time="$secs" -timeout=60 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
      > /tmp/fuzz/$t.log 2>&1 || true ) &
done
wait
for t in model explicit compact binary; do
  build-fuzz/tests/fuzz/fuzz-$t -merge=1 tests/fuzz/corpus/$t /tmp/fuzz/$t > /dev/null 2>&1 || true
  cat /tmp/fuzz/$t.time
  grep -E "stat::number_of_executed_units|ERROR|SUMMARY" /tmp/fuzz/$t.log || true
done
