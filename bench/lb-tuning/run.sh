#!/usr/bin/env bash
# Tuning runs of the look-back SAT's variants (kernels/sat.cu lb_variant), on the device:
#   bash bench/lb-tuning/run.sh BIN OUT "VARIANTS" "SIZES"
# copy and 1r1w-lookback only, each variant its own record file OUT/v<k>.json.
set -euo pipefail
bin=${1:?BIN}; out=${2:?OUT}; vars=${3:-"0 1 2 3 4 5"}; sizes=${4:-8192,16384}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$out/nvidia-smi.txt" || true
for v in $vars; do
  MEMSIM_LB_VARIANT=$v MEMSIM_SAT_SIZES=$sizes MEMSIM_ONLY=copy,1r1w-lookback \
    "$bin" --workload sat -o "$out/v$v.json" > "$out/v$v.log" 2>&1 || { echo "variant $v failed"; tail -5 "$out/v$v.log"; }
done
