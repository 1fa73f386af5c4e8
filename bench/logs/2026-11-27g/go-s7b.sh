#!/usr/bin/env bash
# 2026-11-27 (seventh session): issue 12 on the host's 16 cores, this session's binary
# (.device/memsim) beside 871e3c2's (.device/memsim-before), interleaved: the four bench
# traces at 1 and 16 threads (3 runs each), the GCD stream of 2048 bits (both) and of 4096
# bits (this one), the 1024-bit non-oblivious binary GCD record through compare -j 8 (both).
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
O=$OUT/b; mkdir -p $O
{ nproc; lscpu | grep "Model name"; date -u; cat .device/commit; } > $O/host.txt
for t in umm-coalesced umm-random dmm-conflict hmm-transpose; do
  m=umm-w32; [ $t = dmm-conflict ] && m=dmm-w32; [ $t = hmm-transpose ] && m=hmm
  for th in 1 16; do for k in 1 2 3; do for b in memsim-before memsim; do
    echo "$t threads=$th $b $(.device/$b run models/$m.json bench/traces/$t.json --timing --threads $th 2>&1 >/dev/null | grep -o 'simulate.*CPU')"
  done; done; done
done > $O/bench.txt 2>&1
for b in memsim-before memsim; do
  { echo "== $b gcd stream 2048 bits $(date -u +%T)"; /usr/bin/time -f "%e s wall %U s user %M KB" timeout 120 .device/$b gen gcd -a approximate --bits 2048 --instances 65536 --run models/umm-w32.json 2>&1 | grep -E "time units|requests|wall"; } >> $O/gcd-stream.txt 2>&1
done
for b in memsim-before memsim; do
  timeout 110 /usr/bin/time -f "$b %e s wall %U s user" .device/$b compare -m models/h100.json -M .device/gcd1024.json --train none --skip-unmatched -j 8 --timing $O/gcd1024-$b.tsv -q -f json -o /dev/null >> $O/gcd1024.txt 2>&1
done
{ echo "== memsim gcd stream 4096 bits $(date -u +%T)"; /usr/bin/time -f "%e s wall %U s user %M KB" timeout 200 .device/memsim gen gcd -a approximate --bits 4096 --instances 65536 --run models/umm-w32.json 2>&1 | grep -E "time units|requests|wall"; } >> $O/gcd-stream.txt 2>&1
date -u >> $O/host.txt
