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
printf "%-15s %-10s %12s %9s %9s %10s %8s\n" trace model requests open_s sim_s "Mreq/s" peak_MB
for row in "umm-coalesced umm-w32" "umm-random umm-w32" "dmm-conflict dmm-w32" "hmm-transpose hmm"; do
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
  printf "%-15s %-10s %12s %9s %9s %10s %8d\n" "$1" "$2" "$req" "$o" "$s" "$r" $((m / 1024))
done
