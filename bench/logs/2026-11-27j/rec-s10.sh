#!/usr/bin/env bash
# 2026-11-27 (tenth session): record l2-random-write-sweep (and l2-random-sweep again, in the same call)
# with the memsim-measure built on the development machine at 559e83b (.device/kb), into $OUT/rec.
cd "$(dirname "$0")/.."
out=$OUT/rec
mkdir -p "$out"
{
  date -u +%FT%TZ
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.draw,temperature.gpu --format=csv
} > "$out/nvidia-smi.txt" 2>&1
MEMSIM_ONLY=l2-random-write-sweep,l2-random-sweep .device/kb/memsim-measure --workload calibrate --git-commit 559e83b \
  -o "$out/randwrite.json" --csv "$out/randwrite.csv" --summary "$out/randwrite-summary.txt" > "$out/run.log" 2>&1
echo "rc $?" >> "$out/run.log"
cat "$out/nvidia-smi.txt"; tail -32 "$out/run.log"
