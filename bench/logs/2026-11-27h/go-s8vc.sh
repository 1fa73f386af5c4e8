#!/usr/bin/env bash
# 2026-11-27 (eighth session): the whole grounded validation's cost on the host's cores
# (bench/validation-cost.sh), both GPUs from empty caches, polled across calls.
# $1: start | poll; $2: poll seconds.
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
D=/tmp/memsim-validation
mkdir -p $OUT/vc
{ nproc; lscpu | grep "Model name"; date -u; cat .device/commit; } >> $OUT/vc/host.txt
if [ "$1" = start ]; then MEMSIM=.device/memsim LIBS=.device/lib bash bench/validation-cost.sh start 8 >> $OUT/vc/poll.txt 2>&1; fi
bash bench/validation-cost.sh poll "${2:-540}" >> $OUT/vc/poll.txt 2>&1
for f in $D/*.log $D/*-timing.tsv $D/*-cache.tsv $D/start $D/*.end $D/*.rc; do [ -f "$f" ] && cp "$f" $OUT/vc/; done
cd $OUT && tar czf vc.tgz vc && rm -rf vc
