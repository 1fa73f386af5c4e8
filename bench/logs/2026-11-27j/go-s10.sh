#!/usr/bin/env bash
# 2026-11-27 (tenth session): the whole grounded validation with DRAM rows (models/experimental/GPU-dram-rows.json:
# the shipped command + --dram-rows 256), both GPUs from empty caches on the host's 16 cores, polled across calls;
# checked against the committed caches with the keys inserted (.device/ref-GPU-cache.tsv): every record without
# lone DRAM slots must come out equal.  $1: start | poll; $2: poll seconds.
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
D=/tmp/memsim-validation
mkdir -p $OUT/vc
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name --format=csv,noheader; date -u; cat .device/commit; } >> $OUT/vc/host.txt
if [ "$1" = start ]; then MODEL=models/experimental/GPU-dram-rows.json MEMSIM=.device/memsim LIBS=.device/lib REF=.device/ref-GPU-cache.tsv bash bench/validation-cost.sh start 8 >> $OUT/vc/poll.txt 2>&1; fi
REF=.device/ref-GPU-cache.tsv bash bench/validation-cost.sh poll "${2:-540}" >> $OUT/vc/poll.txt 2>&1
for f in $D/*.log $D/*-timing.tsv $D/*-cache.tsv $D/start $D/*.end $D/*.rc; do [ -f "$f" ] && cp "$f" $OUT/vc/; done
cd $OUT && tar czf vc.tgz vc && rm -rf vc
