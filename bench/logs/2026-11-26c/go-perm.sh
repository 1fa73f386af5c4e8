#!/usr/bin/env bash
# the permutation records on the L1 experimental models (models/experimental/<gpu>-l1-instr.json;
# their traces have no compute steps: the L1, the DMM port and loaded latency), both GPUs, 8 jobs each
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
for g in h100 h200; do
  timeout -s INT ${LIMIT:-520} .device/memsim compare -m models/experimental/$g-l1-instr.json \
    -M traces/measured/$g/permutation.json --train none --skip-unmatched \
    -j 8 --cache $OUT/perm-$g-cache.tsv -q -f json -o $OUT/perm-$g.json 2>$OUT/perm-$g.log &
done
wait
date -u
for g in h100 h200; do echo "$g: $(grep -c '^2|' $OUT/perm-$g-cache.tsv) results"; done
