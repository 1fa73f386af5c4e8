#!/usr/bin/env bash
# 2026-11-28 (fifteenth session): the whole grounded validation with the experimental models
# models/experimental/<gpu>-lsu.json (the shipped command plus lsu-mix.json --dmm-port-shared:
# dmm_port_banks 2 and dmm_port_shared), both GPUs from empty caches on the host's 16 cores
# (8 jobs each), polled across calls; results checked against the shipped models' committed
# caches (which differ).  $1: start | poll; $2: poll seconds.  Run from the repository root with
# .device/ carried (.device/memsim from build-carry, .device/lib).  With REC=1 (start) the
# sm-l1-shared-mix records are made first (go-mix.sh, into $OUT/mix).
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
D=/tmp/memsim-validation
mkdir -p $OUT/vc
if [ "$1" = start ] && [ "${REC:-0}" = 1 ]; then OUT=$OUT/mix bash bench/logs/2026-11-28d/go-mix.sh; fi
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name --format=csv,noheader; date -u; cat .device/commit; } >> $OUT/vc/host.txt
if [ "$1" = start ]; then MODEL=models/experimental/GPU-lsu.json MEMSIM=.device/memsim LIBS=.device/lib bash bench/validation-cost.sh start 8 >> $OUT/vc/poll.txt 2>&1; fi
MODEL=models/experimental/GPU-lsu.json bash bench/validation-cost.sh poll "${2:-540}" >> $OUT/vc/poll.txt 2>&1
for f in $D/*.log $D/*-timing.tsv $D/*-cache.tsv $D/start $D/*.end $D/*.rc; do [ -f "$f" ] && cp "$f" $OUT/vc/; done
cd $OUT && tar czf vc.tgz vc && rm -rf vc
