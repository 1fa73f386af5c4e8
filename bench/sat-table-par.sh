#!/usr/bin/env bash
# Predicted time units of the SAT algorithms for the sizes of seed 001 Table 6.2, one cell
# per process, JOBS at a time, the largest cells first.  Each cell generates the trace,
# verifies it on real data and simulates it on MODEL:
#   memsim gen sat -a ALG --n N --run MODEL --json
# Output: one TSV line per cell (alg, n, time_units, wall s, peak RSS KB, status) on stdout,
# in completion order; a cell that runs past CELL_TIMEOUT seconds is reported as "timeout".
#   bench/sat-table-par.sh MEMSIM [SIZES...]     env: JOBS (nproc), MODEL, CELL_TIMEOUT (3600)
set -u
memsim=${1:?usage: sat-table-par.sh MEMSIM [SIZES...]}; shift
sizes=${*:-"1024 2048 3072 4096 5120 6144 7168 8192 10240 12288 14336 16384 18432"}
model=${MODEL:-$(dirname "$0")/../models/async-hmm.json}
jobs=${JOBS:-$(nproc)}
export memsim model CELL_TIMEOUT=${CELL_TIMEOUT:-3600}
cell() {
  local a=$1 n=$2 t0 t1 out rc tu st peak=- tf
  tf=$(mktemp)
  t0=$(date +%s.%N)
  if [ -x /usr/bin/time ]; then
    out=$(/usr/bin/time -o "$tf" -f "%M" timeout "$CELL_TIMEOUT" "$memsim" gen sat -a "$a" --n "$n" --run "$model" --json 2>&1)
    rc=$?
    peak=$(tail -n 1 "$tf")
  else
    out=$(timeout "$CELL_TIMEOUT" "$memsim" gen sat -a "$a" --n "$n" --run "$model" --json 2>&1)
    rc=$?
  fi
  t1=$(date +%s.%N)
  rm -f "$tf"
  tu=$(grep -o '"time_units":[0-9]*' <<<"$out" | cut -d: -f2)
  st=ok
  [ "$rc" = 124 ] && st=timeout
  [ "$rc" != 0 ] && [ "$rc" != 124 ] && st="error: $(head -c 200 <<<"$out" | tr '\n\t' '  ')"
  printf "%s\t%s\t%s\t%s\t%s\t%s\n" "$a" "$n" "${tu:--}" "$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b - a}')" "$peak" "$st"
}
export -f cell
# largest first: cost ~ n^2 times a per-algorithm weight measured at n = 2048
for n in $sizes; do
  for aw in "1+r 75" "2r1w 65" "1r1w 40" "4r4w 26" "4r1w 18" "2r2w 6"; do
    set -- $aw
    echo "$(( n / 64 * n / 64 * $2 )) $1 $n"
  done
done | sort -rn | awk '{print $2, $3}' | xargs -P "$jobs" -n 2 bash -c 'cell "$0" "$1"'
