#!/usr/bin/env bash
# 2026-11-28 (eighteenth session): the whole grounded validation with the shipped models
# (models/<gpu>.json), repeated kernel counts and the big records' threads and priority, both GPUs from
# empty caches on the host's 16 cores (8 jobs each), polled across calls.  $1: start | poll;
# $2: poll seconds.  Run from the repository root with .device/ carried (.device/memsim from
# build-carry, .device/lib).
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
D=/tmp/memsim-validation
mkdir -p $OUT/vc
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name --format=csv,noheader; date -u; cat .device/commit; } >> $OUT/vc/host.txt
if [ "$1" = start ]; then MEMSIM=.device/memsim LIBS=.device/lib bash bench/validation-cost.sh start 8 >> $OUT/vc/poll.txt 2>&1; fi
# the engine threads' nice values and CPU shares a minute on (the big records' threads at 0)
(sleep 60; ps -eLo pid,tid,ni,pcpu,comm | grep -E 'memsim' > $OUT/vc/ps-$1.txt) &
bash bench/validation-cost.sh poll "${2:-540}" >> $OUT/vc/poll.txt 2>&1
wait
for f in $D/*.log $D/*-timing.tsv $D/*-cache.tsv $D/*.json $D/start $D/*.end $D/*.rc; do [ -f "$f" ] && cp "$f" $OUT/vc/; done
cd $OUT && tar czf vc.tgz vc && rm -rf vc
