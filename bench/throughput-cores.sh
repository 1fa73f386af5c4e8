#!/usr/bin/env bash
# Engine throughput on a many-core host: the four bench traces at 1 and N threads (3 runs
# each and their median, with the blocks repeated-blocks copied), the baseline program, then a full-size SAT
# 2R1W 16K (generated once, run on N threads and on one).  A benchmark, not a test.
#   bench/throughput-cores.sh [MEMSIM] [N]   (default build-release/sim/memsim, nproc)
#   SAT=0 bench/throughput-cores.sh ...       without the SAT run (it takes about 6 minutes)
#   RUNS=K bench/throughput-cores.sh ...      K runs of each bench trace (default 3), with their median
set -uo pipefail
cd "$(dirname "$0")/.."
memsim=${1:-build-release/sim/memsim}
n=${2:-$(nproc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nproc; date -u; lscpu | grep "Model name"
cc -O2 -std=c11 -o "$tmp/baseline" bench/baseline.c
for row in "umm-coalesced umm-w32 umm" "umm-random umm-w32 umm" "dmm-conflict dmm-w32 dmm" "hmm-transpose hmm hmm"; do
  set -- $row
  for th in 1 "$n"; do
    rates=()
    for k in $(seq "${RUNS:-3}"); do
      out=$( { /usr/bin/time -f "TIME %U %M" "$memsim" run models/$2.json bench/traces/$1.json --json --timing --threads $th; } 2>&1 )
      tu=$(grep -o '"time_units":[0-9]*' <<<"$out" | head -1)
      echo "$1 threads=$th $(grep -o 'open [0-9.]* s, simulate [0-9.]* s, [0-9.]* M requests/s, [0-9]* repeated blocks' <<<"$out") $(grep TIME <<<"$out") $tu"
      rates+=("$(grep -o '[0-9.]* M requests/s' <<<"$out" | cut -d' ' -f1)")
    done
    # runs of 0.1-0.6 s spread widely on a shared host: the median says more than any one
    echo "$1 threads=$th median of ${#rates[@]}: $(printf '%s\n' "${rates[@]}" | sort -g | awk '{v[NR]=$1} END {print (NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}') M requests/s"
  done
  "$memsim" convert bench/traces/$1.json --to binary -o "$tmp/t.bin"
  echo "$1 baseline: $("$tmp/baseline" $3 32 32 "$tmp/t.bin")"
  rm -f "$tmp/t.bin"
done
[ "${SAT:-1}" = 0 ] && exit 0
date -u
/usr/bin/time -f "gen: %e s wall %U s user %M KB" "$memsim" gen sat -a 2r1w --n 16384 --tile-threads 128 -o "$tmp/s16.json"
for th in "$n" 1; do
  /usr/bin/time -f "run threads=$th: %e s wall %U s user %M KB" "$memsim" run models/h100.json "$tmp/s16.json" --timing --threads $th --json >/dev/null
done
date -u
