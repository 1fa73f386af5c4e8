#!/usr/bin/env bash
# 2026-11-28 (thirteenth session): launch-chase (one launch of an L2 chase of 0 .. 64 hops)
# beside launch-empty, l2-chase and the clock.  Runs from the repository root with the harness
# built here (.device/memsim-measure).
set -uo pipefail
cd "$(dirname "$0")/../../.."
B=.device/memsim-measure
mkdir -p $OUT
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u; } > $OUT/lchase-host.txt 2>&1
MEMSIM_ONLY=clock-spin,launch-empty,l2-chase,launch-chase $B --workload calibrate -o $OUT/lchase.json > $OUT/lchase.log 2>&1
echo "calibrate rc=$?" >> $OUT/lchase-host.txt
date -u >> $OUT/lchase-host.txt
