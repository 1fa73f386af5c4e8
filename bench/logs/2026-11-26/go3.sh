#!/usr/bin/env bash
# device call: the bench traces (new binary), then life-word 16K x 32 alone on 16 threads
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; uptime
SAT=0 bash bench/throughput-cores.sh .device/memsim 16 2>&1
date -u
timeout 470 /usr/bin/time -f "life-word 16K: %e s wall %U s user %M KB" .device/memsim compare -m models/h100.json -M .device/life16-h100.json --train none -j 16 -P --timing $OUT/life16-timing.tsv -o /dev/null 2>&1 | tr '\r' '\n' | tail -5
echo "rc ${PIPESTATUS[0]}"; date -u
