#!/bin/sh
# Predicted time units of the SAT algorithms for the sizes of seed 001 Table 6.2 on
# models/async-hmm.json.  Usage: bench/sat-table.sh [BUILD_DIR] [SIZES...]
B=${1:-build-release}; shift
SIZES=${*:-"1024 2048 3072 4096"}
printf "%-6s" alg; for n in $SIZES; do printf " %12s" "$n"; done; echo
for a in 2r2w 4r4w 4r1w 2r1w 1r1w 1+r; do
  printf "%-6s" "$a"
  for n in $SIZES; do
    t=$("$B/sim/memsim" gen sat -a "$a" --n "$n" --run models/async-hmm.json --json | sed 's/.*"time_units":\([0-9]*\).*/\1/')
    printf " %12s" "$t"
  done
  echo
done
