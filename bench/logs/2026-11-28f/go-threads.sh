#!/usr/bin/env bash
# 2026-11-28 (seventeenth session): how the two records that bound the whole validation's wall
# time (docs/validation/l2w/<gpu>-timing.tsv: life-word 16K 926 s and the non-oblivious binary
# GCD of 2048 bits 842 s, each with 2 engine threads beside 14 other jobs) go with the host's
# 16 cores to themselves: `memsim compare -j 1` (one record, the engine's default threads: all
# cores), each alone, the shipped H100 model.  Run from the repository root with .device/
# carried (.device/memsim from build-carry, .device/lib).
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
L=bench/logs/2026-11-28f
mkdir -p $OUT/t
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name --format=csv,noheader; date -u; cat .device/commit; } > $OUT/t/host.txt
for x in life-word:330 gcd-binary-1024:200; do
  f=${x%%:*}; lim=${x##*:}
  /usr/bin/time -f "$f wall %e s, user %U s, sys %S s, max RSS %M KB" timeout $lim .device/memsim compare -m models/h100.json -M $L/h100-$f.json \
    --train none -j 1 -P --timing $OUT/t/$f-timing.tsv -f json -o $OUT/t/$f.json >> $OUT/t/log.txt 2>&1
  echo "$f rc $?" >> $OUT/t/log.txt
  ps -eo pid,args | grep -c "[m]emsim" >> $OUT/t/log.txt
done
cat $OUT/t/log.txt
