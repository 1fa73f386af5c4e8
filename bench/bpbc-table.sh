#!/bin/sh
# Predicted UMM time of the BPBC workloads (docs/workloads/bpbc.md).
# Usage: bench/bpbc-table.sh [MEMSIM] [MODEL]
M=${1:-build-gcd/sim/memsim}; MODEL=${2:-models/umm-w32.json}
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
