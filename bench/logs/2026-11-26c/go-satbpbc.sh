#!/usr/bin/env bash
# SAT (all its record files) and bpbc (life-word left out) on the L1 experimental models, both GPUs
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
date -u
for g in h100 h200; do
  m=traces/measured/$g
  timeout -s INT ${LIMIT:-400} .device/memsim compare -m models/experimental/$g-l1-instr.json \
    -M $m/sat.json $m/sat-2r1w.json $m/sat-1pr.json $m/sat-lookback.json --train none --skip-unmatched \
    -j 6 --cache $OUT/sat-$g-cache.tsv -q -f json -o /dev/null 2>$OUT/sat-$g.log &
  timeout -s INT ${LIMIT:-400} .device/memsim compare -m models/experimental/$g-l1-instr.json \
    -M .device/gi/bpbc-$g.json --train none --skip-unmatched \
    -j 2 --cache $OUT/bpbc-$g-cache.tsv -q -f json -o /dev/null 2>$OUT/bpbc-$g.log &
done
wait
date -u
for g in h100 h200; do for f in sat bpbc; do echo "$f $g: $(grep -c '^2|' $OUT/$f-$g-cache.tsv) results"; done; done
