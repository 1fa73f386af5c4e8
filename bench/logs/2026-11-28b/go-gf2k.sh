#!/usr/bin/env bash
# 2026-11-28 (thirteenth session): every launch of the GF(2) records at 256 and 1024 symbols
# (length 1024, both arrangements), CUPTI start and end (MEMSIM_KERNEL_LOG), to set beside the
# model kernel by kernel (bench/kernel-times.py).  Runs from the repository root with the harness
# built here (.device/memsim-measure).
set -uo pipefail
cd "$(dirname "$0")/../../.."
B=.device/memsim-measure
mkdir -p $OUT
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u; } > $OUT/gf2k-host.txt 2>&1
MEMSIM_KERNEL_LOG=$OUT/gf2-kernels.tsv MEMSIM_GF2_SIZES=256x1024,1024x1024 $B --workload gf2 -o $OUT/gf2k.json > $OUT/gf2k.log 2>&1
echo "gf2 rc=$?" >> $OUT/gf2k-host.txt
gzip -f $OUT/gf2-kernels.tsv
date -u >> $OUT/gf2k-host.txt
