#!/usr/bin/env bash
# 2026-11-27 call 4: bulk and gf2 with instruction counts on the shipped models + issue_rate,
# both GPUs, 4 jobs each (16 cores); every output in one tar
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
M=.device/memsim; S=/tmp/bg; mkdir -p $S
nproc > $S/host.txt; date -u >> $S/host.txt
for g in h100 h200; do for f in bulk gf2; do
  timeout -s INT ${LIMIT:-520} $M compare -m .device/$g-issue.json -M .device/gi3/$f-$g.json \
    --train none -j 4 --cache $S/$f-$g-cache.tsv -q -f json -o /dev/null --timing $S/$f-$g-timing.tsv 2>$S/$f-$g.log &
done; done
wait
date -u >> $S/host.txt
for f in $S/*-cache.tsv; do echo "$f: $(grep -c '^2|' $f) results"; done | tee -a $S/host.txt
tar czf $OUT/bg.tgz -C /tmp bg
