#!/usr/bin/env bash
# 2026-11-28 (thirteenth session): the grounded SAT 2R1W 16K (issue 12's target trace) on
# models/h100.json, 16 threads, with the engine before the session (feef37b, carried as
# .device/memsim-feef37b) and after (.device/memsim, 07755f8), alternating.
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name --format=csv,noheader; date -u; } > $OUT/sat16-host.txt
/usr/bin/time -f "gen: %e s wall %U s user %M KB" .device/memsim gen sat -a 2r1w --n 16384 --tile-threads 128 -o /tmp/s16.json 2>> $OUT/sat16.txt
for k in 1 2; do
  for M in .device/memsim .device/memsim-feef37b; do
    echo "== $M" >> $OUT/sat16.txt
    /usr/bin/time -f "run: %e s wall %U s user %M KB" $M run models/h100.json /tmp/s16.json --timing --threads 16 --json 2>> $OUT/sat16.txt | head -c 120 >> $OUT/sat16.txt
    echo >> $OUT/sat16.txt
  done
done
date -u >> $OUT/sat16-host.txt
