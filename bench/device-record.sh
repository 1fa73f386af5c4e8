#!/usr/bin/env bash
# On the GPU machine: build memsim-measure with nvcc alone and record the calibration
# kernels and the held-out "simple" family, with the device's identity, into OUTDIR.
#   bash bench/device-record.sh OUTDIR [GIT_COMMIT] [WORKLOADS]
# WORKLOADS is a space-separated list of memsim-measure workloads (default
# "calibrate simple"); e.g. "simple" records the held-out family alone.
# Writes OUTDIR/W.json, W.csv, W-summary.txt for each workload W, plus run.log (the
# harness's stdout, one "== W" header per workload), build.log and nvidia-smi.txt.
set -uo pipefail
out=${1:?usage: device-record.sh OUTDIR [GIT_COMMIT] [WORKLOADS]}
commit=${2:-${MEMSIM_GIT_COMMIT:-unknown}}
workloads=${3:-calibrate simple}
cd "$(dirname "$0")/.."
mkdir -p "$out"
{
  date -u +%FT%TZ
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.draw,temperature.gpu --format=csv
} > "$out/nvidia-smi.txt" 2>&1
kb=/tmp/memsim-kernels
bash kernels/build.sh "$kb" > "$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
status=0
for w in $workloads; do
  echo "== $w" | tee -a "$out/run.log"
  "$kb/memsim-measure" --workload "$w" --git-commit "$commit" -o "$out/$w.json" \
      --csv "$out/$w.csv" --summary "$out/$w-summary.txt" 2>&1 | tee -a "$out/run.log"
  st=${PIPESTATUS[0]}
  [ "$st" -eq 0 ] || status=$st
done
cat "$out/nvidia-smi.txt"
exit $status
