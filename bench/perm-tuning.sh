#!/bin/bash
# Tuning runs of hmm-scheduled on the GPU machine: bash bench/perm-tuning.sh OUTDIR
# (the fused column round against the five kernels, MEMSIM_SCHED_FIVE=1, and strip widths,
# MEMSIM_COLUMN_STRIP=C; each run .json is a memsim-measure record file)
set -u
OUT=$1
kb=/tmp/memsim-kernels
bash kernels/build.sh $kb > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
M=$kb/memsim-measure
run() { tag=$1; shift; env "$@" $M --workload permutation --git-commit test -o $OUT/$tag.json > $OUT/$tag.txt 2>&1; grep -E "hmm-sched|thrust|hmm-d-des" $OUT/$tag.txt | grep -E "random|identical" | awk -v t=$tag '{print t, $2, $3, $5, $(NF-2), $NF}'; }
run fused MEMSIM_ONLY=hmm-scheduled,thrust-scatter,hmm-d-designated
run five MEMSIM_ONLY=hmm-scheduled MEMSIM_SCHED_FIVE=1

run c16 MEMSIM_ONLY=hmm-scheduled MEMSIM_COLUMN_STRIP=16
