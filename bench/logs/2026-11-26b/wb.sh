#!/usr/bin/env bash
# device call: bench/logs/2026-11-26b/wb.sh COMMIT [MEASURE_GPU]
# With MEASURE_GPU: its store-fence-loop records (kernels/calibrate.cu) and its model with them,
# models/experimental/GPU-wb.json (the shipped model's own records and command, + fence.json).
# Then the grounded validation with models/experimental/<gpu>-wb.json (both GPUs side by side,
# 8 jobs of one thread each per GPU) into the caches docs/validation/wb/<gpu>-cache.tsv (carried
# in the working tree from the last call: each call goes on where the last stopped), for at
# most LIMIT s.  .device/memsim (release) with .device/lib, .device/k/memsim-measure.
set -u
commit=$1
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
if [ -n "${2:-}" ]; then
  g=$2
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv > "$OUT/gpu-$g.txt"
  MEMSIM_ONLY=store-fence-loop MEMSIM_GIT_COMMIT=$commit .device/k/memsim-measure --workload calibrate \
    -o "$OUT/fence-$g.json" > "$OUT/measure-$g.log" 2>&1 || { cat "$OUT/measure-$g.log"; exit 1; }
  cp "$OUT/fence-$g.json" traces/measured/$g/fence.json
  recs=$(python3 -c "import json; print(' '.join(json.load(open('models/$g.json'))['calibration']['records']))")
  .device/memsim calibrate $recs traces/measured/$g/fence.json --l2-ways 16 --loaded-latency \
    -o models/experimental/$g-wb.json > "$OUT/calibrate-$g.txt" 2>&1 || { cat "$OUT/calibrate-$g.txt"; exit 1; }
  cp models/experimental/$g-wb.json "$OUT/"
  grep 'posted_write_backs' "$OUT/calibrate-$g.txt"
fi
files() { local m=traces/measured/$1; echo "$m/measurements.json $m/permutation.json $m/gcd.json $m/simple.json $m/bulk.json $m/gf2.json $m/sat.json $m/sat-2r1w.json $m/sat-1pr.json $m/sat-lookback.json"; }
start=$(date +%s)
for g in h100 h200; do
  # shellcheck disable=SC2046
  timeout -s INT ${LIMIT:-400} .device/memsim compare -m models/experimental/$g-wb.json -M $(files $g) --train none \
    --skip-unmatched -j 8 --threads 1 --cache docs/validation/wb/$g-cache.tsv -q -f json -o /dev/null 2> "$OUT/compare-$g.log" &
done
wait
echo "validation: $(( $(date +%s) - start )) s"
for g in h100 h200; do cp docs/validation/wb/$g-cache.tsv "$OUT/"; echo "$g: $(grep -c . docs/validation/wb/$g-cache.tsv) cache lines"; done
