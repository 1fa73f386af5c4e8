#!/usr/bin/env bash
# On the GPU machine: the records of seed 002's multiplications that issue 14 added, and the
# shuffle calibration, with the device's identity, into OUTDIR (what made
# traces/measured/<gpu>/{toom,mul-column,shuffles}.json on 2026-11-25).
#   bash bench/mul-records.sh OUTDIR GIT_COMMIT
# Writes OUTDIR/toom-quick.json (a smoke run), shuffles.json, mul-column.json, toom.json, their
# -summary.txt, run.log and nvidia-smi.txt.  TOOM_S limits the Toom-k sweep (default 300 s).
set -uo pipefail
out=${1:?usage: mul-records.sh OUTDIR GIT_COMMIT}
export MEMSIM_GIT_COMMIT=${2:?usage: mul-records.sh OUTDIR GIT_COMMIT}
cd "$(dirname "$0")/.."
mkdir -p "$out"
kb=/tmp/memsim-kernels
T="toom-2,toom-3,toom-4,toom-5,toom-6,toom-7,toom-8,toom-9"
{
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
bash kernels/build.sh "$kb" 2>&1 | tail -1
nvidia-smi > "$out/nvidia-smi.txt"
echo "== toom quick"; MEMSIM_ONLY=$T timeout 120 "$kb/memsim-measure" --workload mul --quick -o "$out/toom-quick.json" 2>&1 | tail -12
echo "== shuffles"; MEMSIM_ONLY=shuffle-latency,shuffle-rate timeout 120 "$kb/memsim-measure" --workload calibrate -o "$out/shuffles.json" --summary "$out/shuffles-summary.txt" 2>&1 | tail -6
echo "== one-warp methods"; MEMSIM_ONLY=sum-rotate,sum-rotate-shared,column-based timeout 200 "$kb/memsim-measure" --workload mul -o "$out/mul-column.json" --summary "$out/mul-column-summary.txt" 2>&1 | tail -22
echo "== toom"; MEMSIM_ONLY=$T timeout "${TOOM_S:-300}" "$kb/memsim-measure" --workload mul --warmups 1 --reps 5 -o "$out/toom.json" --summary "$out/toom-summary.txt" 2>&1 | tail -60
echo "measure rc=$?"
date -u
} > "$out/run.log" 2>&1
tail -110 "$out/run.log"
