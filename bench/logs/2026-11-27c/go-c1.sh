#!/usr/bin/env bash
# 2026-11-27c call 1: fewer-chain issue calibration, per-launch SAT kernel log, SASS, kernel-mode ncu.
set -u
K=.device/k/memsim-measure
O=$OUT/c1; mkdir -p "$O"
start=$(date +%s)
{ date -u; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm --format=csv; } > "$O/nvidia-smi.txt" 2>&1
echo "== issue-rate $(date -u +%T)"
MEMSIM_ONLY=issue-rate timeout 150 $K --workload calibrate -o "$O/issue-chains.json" > "$O/issue-chains.log" 2>&1; echo rc $?
echo "== sat kernel log $(date -u +%T)"
MEMSIM_KERNEL_LOG=$O/sat-kernels.tsv MEMSIM_SAT_SIZES=1024,2048,4096,8192 MEMSIM_ONLY=copy,1r1w,2r1w,1+r,2r2w,4r4w \
  timeout 200 $K --workload sat -o "$O/sat-small.json" > "$O/sat-small.log" 2>&1; echo rc $?
tail -3 "$O/sat-small.log"
echo "== sass $(date -u +%T)"
for f in sat gcd bulk gf2 simple; do cuobjdump -sass .device/k/$f.o > "$O/$f.sass" 2>&1; done
echo "== ncu kernel mode $(date -u +%T)"
MEMSIM_SAT_SIZES=1024 MEMSIM_ONLY=1r1w,2r1w,1+r NCU_EXTRA="--cache-control none" NCU_TIMEOUT=150 \
  bash kernels/ncu-profile.sh $K "$O/ncu" sat kernel > "$O/ncu.log" 2>&1; echo rc $?
tail -2 "$O/ncu.log"
echo "== done $(( $(date +%s) - start )) s"
cd "$OUT" && tar czf c1.tgz c1 && rm -rf c1
