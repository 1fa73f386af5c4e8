#!/usr/bin/env bash
# 2026-11-27 (tenth session): the grounded SAT 2R1W 16K, 16 threads, with the models before (a0eefe3) and after
# (DRAM rows), alternating, the same binary, on one host.
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
t=/tmp/s16.json
[ -f $t ] || .device/memsim gen sat -a 2r1w --n 16384 --tile-threads 128 -o $t > /dev/null 2>&1
for k in 1 2; do
  for m in .device/h100-a0eefe3.json models/h100.json; do
    echo "$m $( { /usr/bin/time -f 'TIME %e s wall %U user %M KB' .device/memsim run $m $t --timing --threads 16 --json; } 2>&1 | grep -o 'simulate [0-9.]* s, [0-9.]* M requests/s\|"time_units":[0-9]*\|TIME.*' | tr '\n' ' ')"
  done
done | tee $OUT/sat16-before-after.txt
