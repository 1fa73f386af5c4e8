#!/usr/bin/env bash
# 2026-11-27c call 5 (host CPUs only): the SAT records of 16K with the scans' chains on the shipped models + instruction_units 4, both GPUs.
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
M=.device/memsim; S=$OUT
nproc; date -u
for g in h100 h200; do
  timeout -s INT ${LIMIT:-540} $M compare -m models/$g.json -M .device/rec/chains-$g-big.json \
    --train none -j 6 --cache $S/$g-cache.tsv -q -f csv -o $S/$g.csv --timing $S/$g-timing.tsv 2>$S/$g.log &
done
wait
date -u
for g in h100 h200; do echo "$g: $(grep -c '^2|' $S/$g-cache.tsv) results"; done
