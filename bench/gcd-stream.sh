#!/bin/sh
# Full-size streaming GCD (issue 6): P = 2^16 instances of S = 4096-bit pairs simulated on
# the UMM without holding the trace in memory.  Reports wall time and peak resident memory
# (GNU time -v) per algorithm; docs/workloads/gcd.md quotes the figures.
# Usage: bench/gcd-stream.sh [MEMSIM] [MODEL] [INSTANCES] [BITS] [ALGORITHMS...]
M=${1:-build-follow/sim/memsim}; MODEL=${2:-models/umm-w32.json}; P=${3:-65536}; BITS=${4:-4096}
shift 4 2>/dev/null || shift $#
ALGS=${*:-approximate binary}
for alg in $ALGS; do
  echo "== gcd $alg --bits $BITS --instances $P --run $MODEL"
  /usr/bin/time -v "$M" gen gcd -a "$alg" --bits "$BITS" --instances "$P" --run "$MODEL" >/tmp/gcd-stream.$$ 2>&1
  rc=$?
  grep -E "^gcd|time units|^requests|^stages|Elapsed|Maximum resident|User time|System time" /tmp/gcd-stream.$$
  [ $rc -eq 0 ] || { echo "exit $rc"; tail -5 /tmp/gcd-stream.$$; }
done
rm -f /tmp/gcd-stream.$$
