#!/usr/bin/env bash
# 2026-11-27d: life-word 16K x 32 (the validation's largest record) with the merged engine, both GPUs' models
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
S=/tmp/kl; rm -rf $S; mkdir -p $S
trap 'date -u >> $S/host.txt; tar czf $OUT/kl.tgz -C /tmp kl' EXIT
{ nproc; lscpu | grep "Model name"; date -u; cat .device/commit-new; } > $S/host.txt
for g in h100 h200; do
  /usr/bin/time -f "$g new life-word 16Kx32: %e s wall %U s user %M KB" timeout 280 .device/memsim-new compare -m models/$g.json \
    -M .device/kr/lw-$g.json --train none -j 16 --cache $S/lw-$g-new.tsv --timing $S/lw-$g-new-timing.tsv -q -f json -o /dev/null 2>> $S/times.txt
done
cat $S/times.txt; cat $S/*timing.tsv; cut -f2 $S/lw-*-new.tsv
