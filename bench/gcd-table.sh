#!/bin/sh
# Predicted UMM time of bulk GCD (docs/workloads/gcd.md): one row per algorithm and size.
# Usage: bench/gcd-table.sh [MEMSIM] [MODEL] [INSTANCES]
M=${1:-build-gcd/sim/memsim}; MODEL=${2:-models/umm-w32.json}; P=${3:-1024}
echo "| algorithm | bits | inputs | iterations (mean) | time units | per GCD | stages | extra stages | round_sum |"
echo "|---|---|---|---|---|---|---|---|---|"
for bits in 1024 2048; do
  for alg in binary fast-binary approximate; do
    for obl in "" --oblivious; do
      out=$($M gen gcd -a $alg --bits $bits --instances $P --seed 1 $obl --run $MODEL --json 2>/tmp/gcd-stats.$$) || exit 1
      it=$(sed -n 's/.*mean \([0-9.]*\),.*/\1/p' /tmp/gcd-stats.$$)
      echo "$out" | python3 -c "
import json,sys; r=json.load(sys.stdin)
print('| $alg | $bits | %s | $it | %d | %.1f | %d | %d | %d |' % ('oblivious' if '$obl' else 'semi-oblivious', r['time_units'], r['time_units']/$P, r['stages'], r['extra_stages'], r['round_sum']))"
    done
  done
done
rm -f /tmp/gcd-stats.$$
