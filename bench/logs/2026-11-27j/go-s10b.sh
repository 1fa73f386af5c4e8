#!/usr/bin/env bash
# 2026-11-27 (tenth session): issue 12's figures with the session's binary (DRAM rows) on a host's 16
# cores: the four bench traces at 1 and 16 threads, five runs each (bench/throughput-cores.sh, SAT=0),
# then the grounded SAT 2R1W 16K on models/h100.json (now with DRAM rows) on 16 threads, once.
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name --format=csv,noheader; date -u; cat .device/commit; } > $OUT/host.txt
RUNS=5 SAT=0 bash bench/throughput-cores.sh .device/memsim 16 > $OUT/throughput-cores.txt 2>&1
grep median $OUT/throughput-cores.txt
t=/tmp/s16.json
/usr/bin/time -f "gen %e s %M KB" .device/memsim gen sat -a 2r1w --n 16384 --tile-threads 128 -o $t > $OUT/sat16.txt 2>&1
/usr/bin/time -f "TIME %e s wall %U user %M KB" .device/memsim run models/h100.json $t --timing --threads 16 --json >> $OUT/sat16.txt 2>&1
grep -o 'simulate [0-9.]* s, [0-9.]* M requests/s\|"time_units":[0-9]*\|"dram_lone_stages":[0-9]*\|TIME.*\|gen .*' $OUT/sat16.txt
