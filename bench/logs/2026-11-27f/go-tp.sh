#!/usr/bin/env bash
# 2026-11-27f: issue 12's 16-core figures with the current engine: the four bench traces
# (1 and 16 threads, 3 runs each, beside the baseline), the grounded SAT 2R1W 16K (16 and 1
# threads) and the full-size GCD stream (16 threads).
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
{ nproc; lscpu | grep "Model name"; date -u; cat .device/commit; } > $OUT/tp-host.txt
bash bench/throughput-cores.sh .device/memsim 16 > $OUT/throughput-cores.txt 2>&1
echo "== gcd stream, 16 threads $(date -u)" > $OUT/gcd-stream.txt
/usr/bin/time -v .device/memsim gen gcd -a approximate --bits 4096 --instances 65536 --run models/umm-w32.json >> $OUT/gcd-stream.txt 2>&1
date -u >> $OUT/gcd-stream.txt
