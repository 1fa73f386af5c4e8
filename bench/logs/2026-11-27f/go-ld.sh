#!/usr/bin/env bash
# 2026-11-27f call 4: loading ahead (the new binary .device/memsim) against the binary before
# it (.device/memsim-before, 871e3c2), interleaved on the same host: the bench traces at 16
# threads, the GCD stream of 2048 bits, the 1024-bit
# non-oblivious binary GCD record through compare -j 8 (both).
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
O=$OUT/ld; mkdir -p $O
{ nproc; lscpu | grep "Model name"; date -u; cat .device/commit; } > $O/host.txt
for t in umm-random umm-coalesced dmm-conflict hmm-transpose; do
  m=umm-w32; [ $t = dmm-conflict ] && m=dmm-w32; [ $t = hmm-transpose ] && m=hmm
  for k in 1 2 3; do for b in memsim-before memsim; do
    echo "$t $b $(.device/$b run models/$m.json bench/traces/$t.json --timing --threads 16 2>&1 >/dev/null | grep -o 'simulate.*CPU')"
  done; done
done > $O/bench.txt 2>&1
for b in memsim-before memsim; do
  { echo "== $b gcd stream 2048 bits $(date -u +%T)"; /usr/bin/time -f "%e s wall %U s user %M KB" timeout 120 .device/$b gen gcd -a approximate --bits 2048 --instances 65536 --run models/umm-w32.json 2>&1 | grep -E "time units|requests|wall"; } >> $O/gcd-stream.txt 2>&1
done
for b in memsim-before memsim; do
  timeout 110 /usr/bin/time -f "$b %e s wall %U s user" .device/$b compare -m models/h100.json -M .device/gcd1024.json --train none --skip-unmatched -j 8 --timing $O/gcd1024-$b.tsv -q -f json -o /dev/null >> $O/gcd1024.txt 2>&1
done
date -u >> $O/host.txt
