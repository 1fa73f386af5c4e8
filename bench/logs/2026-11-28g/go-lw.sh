#!/usr/bin/env bash
# 2026-11-28 (eighteenth session): with repeated kernel counts, life-word 16K alone on the
# host's 16 cores (`memsim compare -j 1`, the engine's default threads, the shipped H100
# model; 162.5 s of wall and 1127.8 s of user time in the seventeenth session's go-lw.sh), and
# the compact kernel loop bench/traces/kernel-loop.json (`memsim run models/h100.json`, all
# cores) with and without --count-every-kernel, twice each.  Run from the repository root with
# .device/ carried (.device/memsim from build-carry, .device/lib).
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
L=bench/logs/2026-11-28g
mkdir -p $OUT/lw
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name --format=csv,noheader; date -u; cat .device/commit; } > $OUT/lw/host.txt
/usr/bin/time -f "life-word wall %e s, user %U s, sys %S s, max RSS %M KB" timeout 200 .device/memsim compare -m models/h100.json \
  -M $L/h100-life-word.json --train none -j 1 --timing $OUT/lw/life-word-timing.tsv -f json -o $OUT/lw/life-word.json >> $OUT/lw/log.txt 2>&1
echo "life-word rc $?" >> $OUT/lw/log.txt
for k in 1 2; do
  for o in "" "--count-every-kernel"; do
    /usr/bin/time -f "kernel-loop $o wall %e s, user %U s, max RSS %M KB" .device/memsim run models/h100.json bench/traces/kernel-loop.json \
      --timing $o > $OUT/lw/kernel-loop$o-$k.txt 2>> $OUT/lw/log.txt
  done
done
cat $OUT/lw/log.txt
