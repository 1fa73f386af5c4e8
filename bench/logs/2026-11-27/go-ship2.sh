#!/usr/bin/env bash
# the GCD and simple records with instruction counts on the shipped models + issue_rate (no
# instruction_units), both GPUs, 8 jobs each, one call
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
M=.device/memsim; S=$OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
for g in h100 h200; do
  timeout -s INT ${LIMIT:-520} $M compare -m .device/$g-issue.json -M .device/gi/gcd-$g.json .device/gi/simple-$g.json \
    --train none -j 8 --cache $S/$g-cache.tsv -q -f json -o /dev/null --timing $S/$g-timing.tsv 2>$S/$g.log &
done
wait
date -u
for g in h100 h200; do echo "$g: $(grep -c '^2|' $S/$g-cache.tsv 2>/dev/null) results"; done
