#!/usr/bin/env bash
# 2026-11-27c call 3: the SAT stage kernels' phases (MEMSIM_SAT_PHASES), and the SASS of the recorded kernels to check they did not change.
set -u
K=.device/k/memsim-measure
O=$OUT/c3; mkdir -p "$O"
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm --format=csv; } > "$O/nvidia-smi.txt" 2>&1
cuobjdump -sass .device/k/sat.o > "$O/sat.sass" 2>&1
MEMSIM_SAT_PHASES=$O/phases.tsv MEMSIM_SAT_SIZES=1024,2048,4096,8192 MEMSIM_ONLY=copy timeout 200 $K --workload sat -o "$O/copy.json" > "$O/run.log" 2>&1; echo rc $?
tail -2 "$O/run.log"; wc -l "$O/phases.tsv"
cd "$OUT" && tar czf c3.tgz c3 && rm -rf c3
