#!/usr/bin/env bash
# H100: issue-rate records, the H100 model with issue_rate; then the records with instruction
# counts (gcd, simple, bulk, gf2) on both GPUs' models with issue_rate, resumed from caches in .device/ship
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
M=.device/memsim; S=.device/ship; mkdir -p $S
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv > $OUT/nvidia-smi.txt
nproc >> $OUT/nvidia-smi.txt; date -u
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
if [ "$gpu" = h100 ] && [ ! -f $S/issue-h100.json ]; then
  MEMSIM_ONLY=issue-rate .device/k/memsim-measure --workload calibrate -o $S/issue-h100.json > $S/issue-h100-run.log 2>&1
  echo "measure rc=$?"; cp $S/issue-h100.json $S/issue-h100-run.log $OUT/
  python3 -c "
import json
for r in json.load(open('$S/issue-h100.json'))['records']: print(r['params']['op'], r['params']['warps_per_sm'], r['result']['clocks_per_warp_instruction'], r['result']['instructions_per_sm_per_clock'], r.get('verified'))"
  m=traces/measured/h100
  $M calibrate $m/calibrate.json $m/loops.json $m/l2sweep.json $m/writes.json $m/randsweep.json $m/loaded.json $S/issue-h100.json \
    --l2-ways 16 --loaded-latency --issue -q -o .device/h100-issue.json
  cp .device/h100-issue.json $OUT/
fi
for g in h100 h200; do
  [ -f .device/$g-issue.json ] || continue
  for v in gcd simple bulk gf2; do
    files="$files $g:$v"
  done
done
for g in h100 h200; do
  [ -f .device/$g-issue.json ] || continue
  timeout -s INT ${LIMIT:-500} $M compare -m .device/$g-issue.json -M .device/gi/gcd-$g.json .device/gi/simple-$g.json \
    .device/gi/bulk-$g.json .device/gi/gf2-$g.json --train none -j 8 --cache $S/$g-cache.tsv -q -f json -o /dev/null 2>$S/$g.log &
done
wait
date -u
for g in h100 h200; do echo "$g: $(grep -c '^2|' $S/$g-cache.tsv 2>/dev/null) results"; cp $S/$g-cache.tsv $OUT/ 2>/dev/null; done
