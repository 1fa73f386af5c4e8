#!/usr/bin/env bash
# 2026-11-28 (fourteenth session): the bulk, simple and GF(2) families with the shipped
# models plus the L1 (models/experimental/<gpu>-l1-port.json: `memsim calibrate ... l1sweep.json
# --l1`), whose hits now take their DMM's port slots; both GPUs side by side on the host's 16
# cores (8 jobs each), results cached so that a second call goes on.  $1: seconds (default 530).
# Run from the repository root with .device/ carried (.device/memsim from build-carry, .device/lib).
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
L=${1:-530}
C=/tmp/memsim-l1
mkdir -p $C $OUT/l1
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name --format=csv,noheader; date -u; cat .device/commit; } > $OUT/l1/host.txt
for g in h100 h200; do
  ( /usr/bin/time -v timeout $L .device/memsim compare -m models/experimental/$g-l1-port.json \
      -M traces/measured/$g/bulk.json traces/measured/$g/simple.json traces/measured/$g/gf2.json traces/measured/$g/gf2-2.json \
      --train none --skip-unmatched -j 8 -P --cache $C/$g-cache.tsv --timing $C/$g-timing.tsv \
      -f markdown -o $C/$g.md > $C/$g.log 2>&1; echo $? > $C/$g.rc ) &
done
wait
cp $C/* $OUT/l1/
date -u >> $OUT/l1/host.txt
