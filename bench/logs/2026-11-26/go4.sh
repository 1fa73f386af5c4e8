#!/usr/bin/env bash
# device call (9833418): life-word 16K x 32 alone, one job, 16 threads, the grounded H100 model
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
timeout 570 /usr/bin/time -f "life-word 16K: %e s wall %U s user %M KB" .device/memsim compare -m models/h100.json \
  -M .device/lw16k-h100.json --train none -j 1 --threads 16 --timing $OUT/life16-timing.tsv -o $OUT/life16.txt
