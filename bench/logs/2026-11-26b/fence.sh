#!/usr/bin/env bash
# device call: bench/logs/2026-11-26b/fence.sh GPU COMMIT
# 1. the store-fence-loop calibration records of this GPU (kernels/calibrate.cu);
# 2. the grounded model's own calibration command with them added: models/GPU.json's
#    records + fence-GPU.json, --l2-ways 16 --loaded-latency (l2_posted_write_backs from the rule
#    of docs/calibration.md, "Posted write-backs");
# 3. the SAT family at full size on that model, 16 jobs of one thread each, for at most LIMIT s.
# .device/memsim (release, carried with .device/lib) and .device/k/memsim-measure.
set -u
g=$1
commit=$2
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv > "$OUT/gpu-$g.txt"
date -u +%FT%TZ >> "$OUT/gpu-$g.txt"
MEMSIM_ONLY=store-fence-loop MEMSIM_GIT_COMMIT=$commit .device/k/memsim-measure --workload calibrate \
  -o "$OUT/fence-$g.json" > "$OUT/measure-$g.log" 2>&1 || { cat "$OUT/measure-$g.log"; exit 1; }
recs=$(python3 -c "import json; print(' '.join(json.load(open('models/$g.json'))['calibration']['records']))")
.device/memsim calibrate $recs "$OUT/fence-$g.json" --l2-ways 16 --loaded-latency -o "$OUT/$g-wb.json" > "$OUT/calibrate-$g.txt" 2>&1 || { cat "$OUT/calibrate-$g.txt"; exit 1; }
grep -i 'posted_write\|fence' "$OUT/calibrate-$g.txt"
m=traces/measured/$g
/usr/bin/time -f "sat family: %e s wall %U s user" timeout -s INT ${LIMIT:-400} .device/memsim compare -m "$OUT/$g-wb.json" \
  -M $m/sat.json $m/sat-2r1w.json $m/sat-1pr.json $m/sat-lookback.json --train none --skip-unmatched -j 16 --threads 1 --cache "$OUT/wb-$g-cache.tsv" -q -f json -o /dev/null 2> "$OUT/compare-$g.log"
tail -3 "$OUT/compare-$g.log"
wc -l "$OUT/wb-$g-cache.tsv"
