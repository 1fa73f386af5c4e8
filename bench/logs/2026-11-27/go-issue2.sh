#!/usr/bin/env bash
# issue-rate records (imad, alu, mixed) on this GPU, its L1 + issue experimental model, and the
# gcd (background: goes on into the next call), bulk, simple and gf2 records on it
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
pkill -f "memsim compare" 2>/dev/null; sleep 1
M=.device/memsim
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo h200 || echo h100)
R=.device/run2-$gpu; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv > $R/nvidia-smi.txt
nproc >> $R/nvidia-smi.txt; date -u | tee $R/date.txt
MEMSIM_ONLY=issue-rate .device/k/memsim-measure --workload calibrate -o $R/issue.json > $R/issue-run.log 2>&1
echo "measure rc=$?"
CO=$(command -v cuobjdump || echo $(dirname $(command -v nvcc))/cuobjdump)
$CO -sass .device/k/memsim-measure > $R/all.sass 2>&1
python3 - $R/all.sass > $R/issue-sass.txt <<'PY'
import re,sys
txt=open(sys.argv[1]).read()
for name in re.findall(r'Function : (\S*issue_rate\S*)', txt):
    body=txt.split('Function : '+name,1)[1].split('Function : ',1)[0]
    ops=re.findall(r'/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\d\s+)?([A-Z][A-Z0-9_.]*)', body)
    from collections import Counter
    print(name, dict(Counter(o.split('.')[0] for o in ops)))
PY
rm -f $R/all.sass; cat $R/issue-sass.txt
python3 -c "
import json
for r in json.load(open('$R/issue.json'))['records']: print(r['params']['op'], r['params']['warps_per_sm'], r['result']['clocks_per_warp_instruction'], r['result']['instructions_per_sm_per_clock'], r.get('verified'))"
m=traces/measured/$gpu
$M calibrate $m/calibrate.json $m/loops.json $m/l2sweep.json $m/writes.json $m/randsweep.json $m/loaded.json \
  $m/l1sweep.json $m/sm-strided.json $R/issue.json --l2-ways 16 --loaded-latency --l1 --dmm-port --issue \
  -o $R/$gpu-l1-issue.json | grep -E "instruction_units|issue_rate"
nohup timeout -s INT ${GLIMIT:-1700} $M compare -m $R/$gpu-l1-issue.json -M .device/gi/gcd-$gpu.json --train none -j 8 \
  --cache $R/gcd-cache.tsv -q -f json -o $R/gcd.json > $R/gcd.log 2>&1 &
fg=()
for v in bulk simple gf2; do
  timeout -s INT ${LIMIT:-400} $M compare -m $R/$gpu-l1-issue.json -M .device/gi/$v-$gpu.json --train none -j 3 \
    --cache $R/$v-cache.tsv -q -f json -o $R/$v.json 2>$R/$v.log &
  fg+=($!)
done
wait "${fg[@]}"
date -u
for v in bulk simple gf2 gcd; do echo "$v: $(grep -c '^2|' $R/$v-cache.tsv 2>/dev/null) results"; done
tar czf $OUT/run2-$gpu.tgz -C .device run2-$gpu
