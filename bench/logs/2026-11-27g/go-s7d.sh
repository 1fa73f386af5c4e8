#!/usr/bin/env bash
# 2026-11-27 (seventh session), call 5: issue 12's 16-core figures with the session's last
# binary (.device/memsim): the four bench traces, 9 runs each at 1 and 16 threads with
# their medians; the grounded SAT 2R1W 16K on 16 threads.
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
O=$OUT/d; mkdir -p $O
{ nproc; lscpu | grep "Model name"; date -u; cat .device/commit; } > $O/host.txt
RUNS=9 SAT=0 bash bench/throughput-cores.sh .device/memsim 16 > $O/throughput-cores.txt 2>&1
/usr/bin/time -f "gen: %e s wall %U s user %M KB" .device/memsim gen sat -a 2r1w --n 16384 --tile-threads 128 -o /tmp/s16.json > $O/sat.txt 2>&1
/usr/bin/time -f "run threads=16: %e s wall %U s user %M KB" .device/memsim run models/h100.json /tmp/s16.json --timing --threads 16 --json 2>>$O/sat.txt | grep -o '"time_units":[0-9]*' >> $O/sat.txt
date -u >> $O/host.txt
