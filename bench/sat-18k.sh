#!/bin/sh
# Generate, verify and simulate an 18K x 18K SAT trace (seed 001 Table 6.2's largest size).
# Usage: bench/sat-18k.sh [BUILD_DIR] [ALGORITHM]   (default build-release, 2r1w)
B=${1:-build-release}
A=${2:-2r1w}
/usr/bin/time -v "$B/sim/memsim" gen sat -a "$A" --n 18432 --run models/async-hmm.json --json 2>&1 |
  grep -E 'time_units|Elapsed|Maximum resident'
