#!/usr/bin/env bash
# 2026-11-27c call 9 (H100): the SAT phases again with the copy-in diagnostics (sat_copy_round_ph: load+store, loads then stores, load+add, chase).
set -u
K=.device/k/memsim-measure
O=$OUT/c9; mkdir -p "$O"
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm --format=csv; } > "$O/nvidia-smi.txt" 2>&1
cuobjdump -sass .device/k/sat.o > /tmp/sat.sass 2>&1
awk "/Function : .*sat_copy_round_ph/{p=1;print;next} /Function :/{p=0} p" /tmp/sat.sass > "$O/copy-round.sass"
for f in sat_r2_callENS_6R2TaskES0_ sat_1r1w_stageEPKjPjii; do awk -v f="$f" '/Function :/{p=($0 ~ f"$")} p' /tmp/sat.sass | grep -E "^\s+/\*[0-9a-f]{4}\*/" | sed 's/;.*//' | md5sum; done > "$O/md5.txt"
MEMSIM_SAT_PHASES=$O/phases.tsv MEMSIM_SAT_SIZES=1024,2048,4096,8192 MEMSIM_ONLY=copy timeout 200 $K --workload sat -o "$O/copy.json" > "$O/run.log" 2>&1; echo rc $?
grep copy- "$O/phases.tsv"; cat "$O/md5.txt"
cd "$OUT" && tar czf c9.tgz c9 && rm -rf c9
