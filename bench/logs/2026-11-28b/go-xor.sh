#!/usr/bin/env bash
# 2026-11-28 (thirteenth session): the GF(2) row-wise XOR on one SM's L1 (sm-l1-xor: strides
# 1, 32, 64, every lane or about half, with and without the pivot's broadcast load) beside the
# load-and-store-back records (sm-l1-strided-rmw) and the clock.  Runs from the repository root
# with the harness built here (.device/memsim-measure, `bash kernels/build.sh`).
set -uo pipefail
cd "$(dirname "$0")/../../.."
B=.device/memsim-measure
mkdir -p $OUT
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u; git rev-parse --short HEAD; } > $OUT/host.txt 2>&1
nvidia-smi > $OUT/nvidia-smi.txt 2>&1
MEMSIM_ONLY=clock-spin,sm-l1-strided-rmw,sm-l1-xor $B --workload calibrate -o $OUT/sm-xor.json > $OUT/sm-xor.log 2>&1
echo "calibrate rc=$?" >> $OUT/host.txt
date -u >> $OUT/host.txt
