#!/usr/bin/env bash
# issue-rate records on this GPU, the L1 + issue experimental models from them, and the bulk,
# simple (foreground) and GCD (background, goes on into the next call) records on those models
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
M=.device/memsim
R=.device/run; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv > $R/nvidia-smi.txt
nproc >> $R/nvidia-smi.txt; date -u | tee $R/date.txt
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
MEMSIM_ONLY=issue-rate .device/k/memsim-measure --workload calibrate -o $R/issue-$gpu.json > $R/issue-run.log 2>&1
echo "measure rc=$?"
(cuobjdump -sass -fun issue_rate .device/k/memsim-measure || $(dirname $(command -v nvcc))/cuobjdump -sass -fun issue_rate .device/k/memsim-measure) 2>&1 | grep -oE "^ +/\*[0-9a-f]+\*/ +[A-Z0-9.]+" | awk '{print $2}' | sort | uniq -c > $R/issue-sass.txt
cat $R/issue-sass.txt
python3 -c "
import json,sys
for r in json.load(open('$R/issue-$gpu.json'))['records']: print(r['params']['warps_per_sm'], r['result'], r.get('verified'))"
for g in h100 h200; do
  m=traces/measured/$g
  $M calibrate $m/calibrate.json $m/loops.json $m/l2sweep.json $m/writes.json $m/randsweep.json $m/loaded.json \
    $m/l1sweep.json $m/sm-strided.json $R/issue-$gpu.json --l2-ways 16 --loaded-latency --l1 --dmm-port --issue \
    -o $R/$g-l1-issue.json | grep -E "instruction_units|issue_rate"
done
for g in h100 h200; do
  nohup timeout -s INT ${GLIMIT:-1700} $M compare -m $R/$g-l1-issue.json -M .device/gi/gcd-$g.json --train none -j 5 \
    --cache $R/gcd-$g-cache.tsv -q -f json -o $R/gcd-$g.json > $R/gcd-$g.log 2>&1 &
done
fg=()
for g in h100 h200; do
  for v in bulk simple; do
    timeout -s INT ${LIMIT:-480} $M compare -m $R/$g-l1-issue.json -M .device/gi/$v-$g.json --train none -j 3 \
      --cache $R/$v-$g-cache.tsv -q -f json -o $R/$v-$g.json 2>$R/$v-$g.log &
    fg+=($!)
  done
done
wait "${fg[@]}"
date -u
for g in h100 h200; do for v in bulk simple gcd; do echo "$v $g: $(grep -c '^2|' $R/$v-$g-cache.tsv 2>/dev/null) results"; done; done
tar czf $OUT/run1.tgz -C .device run
