#!/usr/bin/env bash
# device call 1: the bench traces on 1 and 16 threads, new and old binary, then the GCD stream
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for b in memsim memsim-old; do
  echo "=== $b"; SAT=0 bash bench/throughput-cores.sh .device/$b 16 2>&1
done
echo "=== gcd stream approximate 4096 x 65536, new binary, 16 threads"; date -u
timeout 330 /usr/bin/time -f "gcd-stream: %e s wall %U s user %M KB" .device/memsim gen gcd -a approximate --bits 4096 --instances 65536 --run models/umm-w32.json 2>&1 | grep -E "time units|requests|stages|gcd-stream|Elapsed"
date -u
