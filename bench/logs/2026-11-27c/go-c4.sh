#!/usr/bin/env bash
# 2026-11-27c call 4 (H200): look-back SAT with the next chunk prefetched into registers (variants 8, 9) beside the recorded kernel (0); SAT stage phases; SASS and register use.
set -u
K=.device/k/memsim-measure
O=$OUT/c4; mkdir -p "$O"
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm --format=csv; } > "$O/nvidia-smi.txt" 2>&1
cuobjdump -sass .device/k/sat.o > "$O/sat.sass" 2>&1
cuobjdump -res-usage .device/k/sat.o > "$O/sat.res" 2>&1
bash bench/lb-tuning/run.sh $K "$O/lb1" "0 8 9" 8192,16384 > "$O/lb1.log" 2>&1; echo rc $?
bash bench/lb-tuning/run.sh $K "$O/lb2" "8 0" 8192,16384 > "$O/lb2.log" 2>&1; echo rc $?
grep -H "1r1w-lookback\|copy " "$O"/lb*/v*.log | head -30
MEMSIM_SAT_PHASES=$O/phases.tsv MEMSIM_SAT_SIZES=1024,2048,4096,8192 MEMSIM_ONLY=copy timeout 200 $K --workload sat -o "$O/copy.json" > "$O/phases-run.log" 2>&1; echo rc $?
cd "$OUT" && tar czf c4.tgz c4 && rm -rf c4
