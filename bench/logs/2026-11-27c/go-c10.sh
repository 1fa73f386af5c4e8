#!/usr/bin/env bash
# 2026-11-27c call 10 (host CPUs): bench/throughput-cores.sh with the session's release build (16 threads).
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
timeout 570 bash bench/throughput-cores.sh .device/memsim 16 > $OUT/throughput.txt 2>&1
echo rc $?; tail -40 $OUT/throughput.txt
