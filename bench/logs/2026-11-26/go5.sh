#!/usr/bin/env bash
# device call (the session's last engine commit): the bench traces on 1 and 16 threads, then
# the full-size GCD stream (approximate, 4096 bits x 65536 instances) on 16 threads
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
SAT=0 bash bench/throughput-cores.sh .device/memsim 16 2>&1
date -u
timeout 300 /usr/bin/time -f "gcd-stream: %e s wall %U s user %M KB" .device/memsim gen gcd -a approximate --bits 4096 --instances 65536 --run models/umm-w32.json 2>&1 | grep -E "time units|requests|stages|gcd-stream"
date -u
