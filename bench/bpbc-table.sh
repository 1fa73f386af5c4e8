#!/bin/sh
# Predicted UMM time of the BPBC workloads (docs/workloads/bpbc.md).
# Usage: bench/bpbc-table.sh [MEMSIM] [MODEL]             (UMM tables)
#        bench/bpbc-table.sh MEMSIM HMM-MODEL multistep [N] [T]  (life-multistep table, HMM)
M=${1:-build-gcd/sim/memsim}; MODEL=${2:-models/umm-w32.json}
if [ "$3" = multistep ]; then
  N=${4:-2048}; T=${5:-16}
  echo "Game of Life, N x N = $N x $N, T = $T steps, on $MODEL: life-multistep (64 x 64 blocks, DOUBLE-WORD in shared memory) beside life-double (one kernel per step)"
  echo
  echo "| algorithm | t | arrangement | kernels | blocks | global requests | global stages | shared stages | shared extra | time units | cell updates per time unit |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  for t in 1 2 4 8 16; do for arr in shift regular; do
    $M gen bpbc -a life-multistep --size $N --steps $T --steps-per-kernel $t --arrangement $arr --run $MODEL --json | python3 -c "
import json,sys; r=json.load(sys.stdin)
print('| life-multistep | $t | $arr | %d | %d | %d | %d | %d | %d | %d | %.1f |' % (r['grid_barriers']+1, r['blocks'], r['global']['requests'], r['global']['stages'], r['shared']['stages'], r['shared']['extra_stages'], r['time_units'], $N*$N*$T/r['time_units']))" || exit 1
  done; done
  $M gen bpbc -a life-double --size $N --steps $T --run $MODEL --json | python3 -c "
import json,sys; r=json.load(sys.stdin)
print('| life-double | 1 | - | %d | %d | %d | %d | %d | %d | %d | %.1f |' % (r['grid_barriers']+1, r['blocks'], r['global']['requests'], r['global']['stages'], r['shared']['stages'], r['shared']['extra_stages'], r['time_units'], $N*$N*$T/r['time_units']))"
  exit 0
fi
row() { # label, args...
  label=$1; shift
  $M gen bpbc "$@" --run $MODEL --json | python3 -c "
import json,sys; r=json.load(sys.stdin)
print('| $label | %d | %d | %d | %d | %d |' % (r['requests'], r['stages'], r['extra_stages'], r['time_units'], r['round_sum']))"
}
echo "Pairwise sums of M = 1048576 pairs (Table 5.1)"
echo
echo "| algorithm | requests | stages | extra stages | time units | round_sum |"
echo "|---|---|---|---|---|---|"
for k in 1 2 4 8 16 24 32; do row "pairwise-sum k=$k" -a pairwise-sum --bits $k --instances 1048576; done
row "pairwise-sum-naive" -a pairwise-sum-naive --instances 1048576
echo
echo "One step of the Game of Life, N x N = 2048 x 2048, torus (Table 6.1's kernels)"
echo
echo "| algorithm | requests | stages | extra stages | time units | round_sum |"
echo "|---|---|---|---|---|---|"
for a in life-word life-single life-double; do row "$a" -a $a --size 2048 --steps 1; done
for a in life-word life-single life-double; do row "$a dead boundary" -a $a --size 2048 --steps 1 --boundary dead; done
