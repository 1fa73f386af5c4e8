#!/usr/bin/env bash
# 2026-11-27 (seventh session), call 6: shares taken by whoever is free.  The 512-bit
# non-oblivious binary GCD record through memsim compare -j 8 (8 engine threads), the binary
# before (d427414, .device/memsim-before) and after (.device/memsim), interleaved: alone, then
# beside 16 busy loops (the whole validation's 16 jobs on 16 cores).
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
O=$OUT/e; mkdir -p $O
{ nproc; lscpu | grep "Model name"; date -u; cat .device/commit; } > $O/host.txt
run() { timeout 100 /usr/bin/time -f "$1 $2 %e s wall %U s user" .device/$2 compare -m models/h100.json -M .device/gcd512.json --train none --skip-unmatched -j 8 -q -o /dev/null >> $O/gcd512.txt 2>&1; }
for b in memsim-before memsim; do run alone $b; done
for i in $(seq 16); do yes > /dev/null & done
sleep 1
for k in 1 2; do for b in memsim-before memsim; do run busy $b; done; done
kill $(jobs -p) 2>/dev/null
date -u >> $O/host.txt
