#!/usr/bin/env bash
# device call: life-word 16K x 2 steps with the binary before the step loader (9833418) and
# after, alternated, then life-word 16K x 32 alone with the loader; one job, 16 threads, the
# grounded H100 model
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
for b in memsim-prev memsim memsim-prev memsim; do
  /usr/bin/time -f "$b life-word 16K x 2: %e s wall %U s user" .device/$b compare -m models/h100.json \
    -M .device/lw16k2-h100.json --train none -j 16 -o /dev/null 2>&1 | tail -1
done
timeout 450 /usr/bin/time -f "life-word 16K: %e s wall %U s user %M KB" .device/memsim compare -m models/h100.json \
  -M .device/lw16k-h100.json --train none -j 16 --timing $OUT/life16-timing.tsv -o $OUT/life16.txt 2>&1 | tail -1
