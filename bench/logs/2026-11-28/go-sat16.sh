#!/usr/bin/env bash
# 2026-11-28 (twelfth session): the grounded SAT 2R1W 16K (issue 12's target trace) with the models
# before the DMM port by banks (1af48b9's models/h100.json, carried as .device/h100-before.json) and
# after (models/h100.json), 16 threads, alternating, the engine of .device/commit.
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
M=.device/memsim
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name --format=csv,noheader; date -u; cat .device/commit; } > $OUT/host.txt
/usr/bin/time -f "gen: %e s wall %U s user %M KB" $M gen sat -a 2r1w --n 16384 --tile-threads 128 -o /tmp/s16.json 2>> $OUT/sat16.txt
for k in 1 2; do
  for m in models/h100.json .device/h100-before.json; do
    echo "== $m" >> $OUT/sat16.txt
    /usr/bin/time -f "run: %e s wall %U s user %M KB" $M run $m /tmp/s16.json --timing --threads 16 --json 2>> $OUT/sat16.txt | head -c 120 >> $OUT/sat16.txt
    echo >> $OUT/sat16.txt
  done
done
date -u >> $OUT/host.txt
