#!/usr/bin/env bash
# the bulk records on the L1 + instructions experimental models, with compute steps
# (bench/instruction-records.py bulk) and without (the L1 alone), both GPUs, 4 jobs each
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
for g in h100 h200; do
  for v in bulk bulk0; do
    timeout -s INT ${LIMIT:-520} .device/memsim compare -m models/experimental/$g-l1-instr.json -M .device/gi/$v-$g.json \
      --train none -j 4 --cache $OUT/$v-$g-cache.tsv -q -f json -o $OUT/$v-$g.json 2>$OUT/$v-$g.log &
  done
done
wait
date -u
for g in h100 h200; do for v in bulk bulk0; do echo "$v $g: $(grep -c '^2|' $OUT/$v-$g-cache.tsv) results"; done; done
