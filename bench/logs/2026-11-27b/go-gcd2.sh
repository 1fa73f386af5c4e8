#!/usr/bin/env bash
# 2026-11-27 call 2: the GCD records with the recorded kernels' instruction counts on the
# shipped models + issue_rate and on the L1 + issue models, both GPUs, 4 jobs each; beside it
# the full ncu profile of the GCD family on this GPU (the committed one predates the kernels).
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
M=.device/memsim; S=$OUT
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > $S/nvidia-smi.txt; nproc; date -u
for g in h100 h200; do
  cp .device/c2/ship-$g-cache.tsv $S/ship-$g-cache.tsv; cp .device/c2/l1-$g-cache.tsv $S/l1-$g-cache.tsv
  timeout -s INT ${LIMIT:-520} $M compare -m .device/$g-issue.json -M .device/gi2/gcd-$g.json \
    --train none -j 4 --cache $S/ship-$g-cache.tsv -q -f json -o /dev/null --timing $S/ship-$g-timing.tsv 2>$S/ship-$g.log &
  timeout -s INT ${LIMIT:-520} $M compare -m .device/$g-l1-issue.json -M .device/gi2/gcd-$g.json \
    --train none -j 4 --cache $S/l1-$g-cache.tsv -q -f json -o /dev/null --timing $S/l1-$g-timing.tsv 2>$S/l1-$g.log &
done
bash kernels/ncu-profile.sh .device/k/memsim-measure /tmp/prof gcd range > /tmp/prof-gcd.log 2>&1
cp /tmp/prof-gcd.log /tmp/prof/gcd.log; tar czf $S/prof.tgz -C /tmp prof
wait
date -u
for f in $S/*-cache.tsv; do echo "$f: $(grep -c '^2|' $f) results"; done
