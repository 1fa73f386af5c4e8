#!/usr/bin/env bash
# 2026-11-28 (fourteenth session): the other families (permutation, sat, gcd, bpbc) with the
# L1 models (models/experimental/<gpu>-l1-port.json), both GPUs side by side, 8 jobs each,
# from .device/rec/<gpu>/ (the committed record files less life-word 16K x 32 and the
# non-oblivious binary GCD of 2048 bits, the two longest simulations); cached, so that a
# second call goes on.  $1: seconds (default 530).
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
L=${1:-530}
C=/tmp/memsim-l1b
mkdir -p $C $OUT/l1b
for g in h100 h200; do
  R=.device/rec/$g
  ( timeout $L .device/memsim compare -m models/experimental/$g-l1-port.json \
      -M $R/measurements.json $R/permutation.json $R/gcd.json $R/sat.json $R/sat-2r1w.json $R/sat-1pr.json $R/sat-lookback.json \
      --train none --skip-unmatched -j 8 -P --cache $C/$g-cache.tsv --timing $C/$g-timing.tsv \
      -f markdown -o $C/$g.md > $C/$g.log 2>&1; echo "$g rc $?" >> $C/rc.txt ) &
done
wait
{ nproc; nvidia-smi --query-gpu=name --format=csv,noheader; date -u; cat .device/commit; cat $C/rc.txt; } > $C/host.txt
cp $C/h100-cache.tsv $C/h200-cache.tsv $C/h100-timing.tsv $C/h200-timing.tsv $C/host.txt $OUT/l1b/ 2>/dev/null
tail -c 3000 $C/h100.log > $OUT/l1b/h100.log; tail -c 3000 $C/h200.log > $OUT/l1b/h200.log
