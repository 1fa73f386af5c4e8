#!/usr/bin/env bash
# the GCD records (compute steps) and the smaller gf2 records on an L1 + issue model, this call only
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
M=.device/memsim; g=${1:-h200}; R=$OUT/gcd-$g; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
timeout -s INT ${LIMIT:-530} $M compare -m .device/$g-l1-issue.json -M .device/gi/gcd-$g.json --train none -j ${J:-14} \
  --cache $R/gcd-cache.tsv -q -f json -o $R/gcd.json 2>$R/gcd.log &
a=$!
timeout -s INT ${LIMIT:-530} $M compare -m .device/$g-l1-issue.json -M .device/gi/gf2s-$g.json --train none -j 2 \
  --cache $R/gf2-cache.tsv -q -f json -o $R/gf2.json 2>$R/gf2.log &
wait $a; wait
date -u
for v in gcd gf2; do echo "$v: $(grep -c '^2|' $R/$v-cache.tsv 2>/dev/null) results"; done
