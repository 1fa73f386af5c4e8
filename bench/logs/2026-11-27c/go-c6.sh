#!/usr/bin/env bash
# 2026-11-27c call 6 (H200): the GF(2) records timed as recorded and with the L2 flushed before every call (MEMSIM_FLUSH_L2=256).
set -u
K=.device/k/memsim-measure
O=$OUT/c6; mkdir -p "$O"
export MEMSIM_GIT_COMMIT=$(cat .device/commit 2>/dev/null || echo unknown)
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm --format=csv; } > "$O/nvidia-smi.txt" 2>&1
S=256x4096,512x4096,1024x4096,2048x4096,4096x4096,256x1024,1024x1024
MEMSIM_GF2_SIZES=$S timeout 250 $K --workload gf2 -o "$O/gf2-plain.json" > "$O/gf2-plain.log" 2>&1; echo rc $?
MEMSIM_FLUSH_L2=256 MEMSIM_GF2_SIZES=$S timeout 250 $K --workload gf2 -o "$O/gf2-flush.json" > "$O/gf2-flush.log" 2>&1; echo rc $?
grep -h "gf2 " "$O"/gf2-plain.log | head -20; grep -h "gf2 " "$O"/gf2-flush.log | head -20
cd "$OUT" && tar czf c6.tgz c6 && rm -rf c6
