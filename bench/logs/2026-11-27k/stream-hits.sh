#!/bin/bash
# The stream sweep's plain copy (memsim gen simple -a copy, 2 x F MiB in all) on the H100/H200
# models with the experiments of l2-warm-home-experiment.patch: the share of L2 hits of the
# warm run (l2_warm) and of the warm run with home partitions (l2_warm + l2_home).
# Needs that patch's build at /tmp/x/exp/be/sim/memsim and /tmp/x/GPU-{warm,home}.json (the
# shipped model with "l2_warm": true, and also "l2_home": true).  Usage: stream-hits.sh h100
g=$1; M=/tmp/x/exp/be/sim/memsim
for F in ${SIZES:-16 24 28 32 34 36 38 40 42 44 48 52 64}; do
  n=$((F*131072))
  /work/main/build-release/sim/memsim gen simple -a copy -n $n -o /tmp/x/copy-$g.json 2>/dev/null
  line="$F MiB"
  for v in warm home; do
    line="$line $v $($M run /tmp/x/$g-$v.json /tmp/x/copy-$g.json --json --threads 1 | python3 -c "import json,sys;c=json.load(sys.stdin)['l2_cache'];print('%.2f'%(c['hits']/(c['hits']+c['misses'])))")"
  done
  echo $line
done
