#!/usr/bin/env bash
# Engine throughput on large compact traces (2^24 threads): simulated thread-requests per
# second of the simulation phase (after the trace is opened) and peak memory, the median
# of three runs.  A benchmark, not a test: run it on an idle machine.
#   bench/throughput.sh [BUILD_DIR]       (default build-release, configured if missing)
#   THREADS_OPT="--threads 1" bench/throughput.sh     one core
set -euo pipefail
cd "$(dirname "$0")/.."
b=${1:-build-release}
[ -f "$b/build.ninja" ] || meson setup "$b" -Dbuildtype=release -Dtests=false -Dkernels=disabled >/dev/null
ninja -C "$b" sim/memsim >/dev/null
# the yardstick: bench/baseline.c reads the same addresses (the trace in binary form) and only
# counts each warp's stages
cc -O2 -std=c11 -o "$b/baseline" bench/baseline.c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf "%-15s %-10s %12s %9s %9s %10s %8s %14s\n" trace model requests open_s sim_s "Mreq/s" peak_MB "baseline_Mreq/s"
for row in "umm-coalesced umm-w32 umm" "umm-random umm-w32 umm" "dmm-conflict dmm-w32 dmm" "hmm-transpose hmm hmm"; do
  set -- $row
  runs=()
  for k in 1 2 3; do
    out=$( { /usr/bin/time -f "TIME %U %M" "$b/sim/memsim" run "models/$2.json" "bench/traces/$1.json" --json --timing ${THREADS_OPT:-}; } 2>&1 )
    req=$(grep -o '"requests":[0-9]*' <<<"$out" | head -1 | cut -d: -f2)
    read -r o s r < <(sed -n 's/.*open \([0-9.]*\) s, simulate \([0-9.]*\) s, \([0-9.]*\) M requests.*/\1 \2 \3/p' <<<"$out")
    read -r u m < <(sed -n 's/^TIME \([0-9.]*\) \([0-9]*\)$/\1 \2/p' <<<"$out")
    runs+=("$r $o $s $m")
  done
  read -r r o s m < <(printf "%s\n" "${runs[@]}" | sort -n | sed -n 2p)  # the median by requests/s
  "$b/sim/memsim" convert "bench/traces/$1.json" --to binary -o "$tmp/t.bin"
  base=$("$b/baseline" "$3" 32 32 "$tmp/t.bin" | sed -n 's/.*Mreq\/s \([0-9.]*\).*/\1/p')
  rm -f "$tmp/t.bin"
  printf "%-15s %-10s %12s %9s %9s %10s %8d %14s\n" "$1" "$2" "$req" "$o" "$s" "$r" $((m / 1024)) "$base"
done
