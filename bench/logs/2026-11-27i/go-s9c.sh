#!/usr/bin/env bash
# 2026-11-27 (ninth session): issue 12's figures with the session's binary on the host's 16
# cores: bench/throughput-cores.sh (the four bench traces at 1 and 16 threads, three runs each,
# then the grounded SAT 2R1W 16K); $1 = gcd: the GCD stream of 4096 bits instead.
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name --format=csv,noheader; date -u; cat .device/commit; } > $OUT/host.txt
if [ "${1:-}" = gcd ]; then
  bash bench/gcd-stream.sh .device/memsim models/umm-w32.json 65536 4096 approximate > $OUT/gcd-stream.txt 2>&1
  cat $OUT/gcd-stream.txt
else
  RUNS=3 bash bench/throughput-cores.sh .device/memsim 16 > $OUT/throughput-cores.txt 2>&1
  tail -40 $OUT/throughput-cores.txt
fi
