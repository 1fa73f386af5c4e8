#!/usr/bin/env bash
# the GCD records with compute steps (bench/instruction-records.py) on the L1 + instructions
# experimental models, both GPUs side by side, 8 jobs each, into caches under $OUT
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
for g in h100 h200; do
  [ -f .device/gi/$g-cache.tsv ] && cp .device/gi/$g-cache.tsv $OUT/gi-$g-cache.tsv
  timeout -s INT ${LIMIT:-520} .device/memsim compare -m models/experimental/$g-l1-instr.json -M .device/gi/gcd-$g.json \
    --train none -j ${JOBS:-8} --cache $OUT/gi-$g-cache.tsv -q -f json -o $OUT/gi-$g.json 2>$OUT/gi-$g.log &
done
wait
date -u
for g in h100 h200; do echo "$g: $(grep -c '^2|' $OUT/gi-$g-cache.tsv) results"; done
