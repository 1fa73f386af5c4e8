#!/usr/bin/env bash
# 2026-11-27c call 2 (H200): fewer-chain issue calibration, per-launch SAT kernel log, the GCD profile of the recorded kernels.
set -u
K=.device/k/memsim-measure
export MEMSIM_GIT_COMMIT=c1bc0cc
O=$OUT/c2; mkdir -p "$O"
start=$(date +%s)
{ date -u; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm --format=csv; } > "$O/nvidia-smi.txt" 2>&1
echo "== issue-rate $(date -u +%T)"
MEMSIM_ONLY=issue-rate timeout 150 $K --workload calibrate -o "$O/issue-chains.json" > "$O/issue-chains.log" 2>&1; echo rc $?
echo "== sat kernel log $(date -u +%T)"
MEMSIM_KERNEL_LOG=$O/sat-kernels.tsv MEMSIM_SAT_SIZES=1024,2048,4096,8192 MEMSIM_ONLY=copy,1r1w,2r1w,1+r,2r2w,4r4w \
  timeout 200 $K --workload sat -o "$O/sat-small.json" > "$O/sat-small.log" 2>&1; echo rc $?
echo "== gcd ncu $(date -u +%T)"
NCU_TIMEOUT=$(( 540 - ($(date +%s) - start) )) bash kernels/ncu-profile.sh $K "$O/ncu" gcd range > "$O/ncu-gcd.log" 2>&1; echo rc $?
tail -2 "$O/ncu-gcd.log"
echo "== done $(( $(date +%s) - start )) s"
cd "$OUT" && tar czf c2.tgz c2 && rm -rf c2
