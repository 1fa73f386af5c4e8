#!/usr/bin/env bash
# On the GPU machine: build memsim-measure with nvcc alone and record the calibration
# kernels and the held-out "simple" family, with the device's identity, into OUTDIR.
#   bash bench/device-record.sh OUTDIR [GIT_COMMIT]
# Writes OUTDIR/calibrate.json, simple.json (+ .csv, summaries, run.log, nvidia-smi.txt).
set -uo pipefail
out=${1:?usage: device-record.sh OUTDIR [GIT_COMMIT]}
commit=${2:-${MEMSIM_GIT_COMMIT:-unknown}}
cd "$(dirname "$0")/.."
mkdir -p "$out"
{
  date -u +%FT%TZ
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.draw,temperature.gpu --format=csv
} > "$out/nvidia-smi.txt" 2>&1
kb=/tmp/memsim-kernels
bash kernels/build.sh "$kb" > "$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
status=0
for w in calibrate simple; do
  echo "== $w" | tee -a "$out/run.log"
  "$kb/memsim-measure" --workload "$w" --git-commit "$commit" -o "$out/$w.json" \
      --csv "$out/$w.csv" --summary "$out/$w-summary.txt" >> "$out/run.log" 2>&1 || status=$?
  tail -n 40 "$out/$w-summary.txt" 2>/dev/null
done
cat "$out/nvidia-smi.txt"
exit $status
