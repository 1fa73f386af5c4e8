#!/usr/bin/env bash
# device call: the bench traces (new, old, baseline), then the whole grounded validation,
# both GPUs side by side from empty caches, started in the background (setsid)
cd "$(dirname "$0")/.."
root=$PWD
export LD_LIBRARY_PATH=$root/.device/lib
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader; date -u
for b in memsim memsim-old; do echo "=== $b"; SAT=0 bash bench/throughput-cores.sh .device/$b 16 2>&1; done
V=/tmp/val; rm -rf $V; mkdir -p $V; cp -r .device $V/bin; cp -r models traces $V/
cd $V
files() { local m=traces/measured/$1; echo "$m/measurements.json $m/permutation.json $m/gcd.json $m/simple.json $m/bulk.json $m/gf2.json $m/sat.json $m/sat-2r1w.json $m/sat-1pr.json"; }
date -u +%s > $V/start
for g in h100 h200; do
  setsid nohup bash -c "LD_LIBRARY_PATH=$V/bin/lib $V/bin/memsim compare -m models/$g.json -M $(files $g) --train none --skip-unmatched --cache $V/$g-cache.tsv -j 8 -P --timing $V/$g-timing.tsv -f json -o $V/$g.json 2> $V/$g.log; echo \$? > $V/$g.rc; date -u +%s > $V/$g.end" > /dev/null 2>&1 < /dev/null &
done
sleep 2; ps aux | grep -c "[m]emsim compare"; echo launched at $(cat $V/start)
