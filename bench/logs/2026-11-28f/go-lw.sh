#!/usr/bin/env bash
# 2026-11-28 (seventeenth session): life-word 16K alone on the host's 16 cores (`memsim compare
# -j 1`, the engine's default threads, the shipped H100 model), the binary with the vectorized
# l2_groups (.device/memsim, 36218cd) and the one before (.device/memsim-old, f725b9a), new
# first.  Run from the repository root with .device/ carried.
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
L=bench/logs/2026-11-28f
mkdir -p $OUT/lw
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name --format=csv,noheader; date -u; cat .device/commit; } > $OUT/lw/host.txt
for b in memsim memsim-old; do
  /usr/bin/time -f "$b wall %e s, user %U s, sys %S s, max RSS %M KB" timeout 220 .device/$b compare -m models/h100.json -M $L/h100-life-word.json \
    --train none -j 1 --timing $OUT/lw/$b-timing.tsv -f json -o $OUT/lw/$b.json >> $OUT/lw/log.txt 2>&1
  echo "$b rc $?" >> $OUT/lw/log.txt
done
cat $OUT/lw/log.txt
