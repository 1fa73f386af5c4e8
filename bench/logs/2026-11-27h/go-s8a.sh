#!/usr/bin/env bash
# 2026-11-27 (eighth session): issue 12 on the host's 16 cores, this session's binary
# (.device/memsim, huge pages for the engine's arrays) beside 0fc9fcf's (.device/memsim-before),
# interleaved: the four bench traces at 1 and 16 threads (5 runs each), the grounded SAT 2R1W
# 16K on 16 threads (both), the GCD stream of 4096 bits (both).
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
O=$OUT/a; mkdir -p $O
{ nproc; lscpu | grep "Model name"; date -u; cat .device/commit; cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; grep -i hugepages /proc/meminfo; } > $O/host.txt
for t in umm-coalesced umm-random dmm-conflict hmm-transpose; do
  m=umm-w32; [ $t = dmm-conflict ] && m=dmm-w32; [ $t = hmm-transpose ] && m=hmm
  for th in 1 16; do for k in 1 2 3 4 5; do for b in memsim-before memsim; do
    echo "$t threads=$th $b $( { /usr/bin/time -f 'TIME %e %U %M' .device/$b run models/$m.json bench/traces/$t.json --timing --threads $th; } 2>&1 >/dev/null | grep -o 'simulate.*CPU\|TIME.*' | tr '\n' ' ')"
  done; done; done
done > $O/bench.txt 2>&1
.device/memsim gen sat -a 2r1w --n 16384 --tile-threads 128 -o /tmp/s16.json
for b in memsim-before memsim; do
  echo "$b sat 2r1w 16K threads=16 $( { /usr/bin/time -f 'TIME %e %U %M' timeout 100 .device/$b run models/h100.json /tmp/s16.json --timing --threads 16 --json; } 2>&1 >/dev/null | grep -o 'simulate.*CPU\|TIME.*' | tr '\n' ' ')" >> $O/sat.txt
done
for b in memsim-before memsim; do
  { echo "== $b gcd stream 4096 bits $(date -u +%T)"; /usr/bin/time -f "%e s wall %U s user %M KB" timeout 150 .device/$b gen gcd -a approximate --bits 4096 --instances 65536 --run models/umm-w32.json 2>&1 | grep -E "time units|requests|wall"; } >> $O/gcd-stream.txt 2>&1
done
date -u >> $O/host.txt
