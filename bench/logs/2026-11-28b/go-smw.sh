#!/usr/bin/env bash
# 2026-11-28 (thirteenth session): one SM's stores to lines not in its L1 at strides 1, 4, 8,
# 16, 32, 33 (sm-strided-write; reads beside them) and to lines in it (sm-l1-strided-write), one
# run, with the clock.  Runs from the repository root with the harness built here.
set -uo pipefail
cd "$(dirname "$0")/../../.."
B=.device/memsim-measure
mkdir -p $OUT
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u; } > $OUT/smw-host.txt 2>&1
MEMSIM_ONLY=clock-spin,sm-strided-read,sm-strided-write,sm-l1-strided-write $B --workload calibrate -o $OUT/smw.json > $OUT/smw.log 2>&1
echo "calibrate rc=$?" >> $OUT/smw-host.txt
date -u >> $OUT/smw-host.txt
