#!/usr/bin/env bash
# 2026-11-27 (eighth session): huge pages on the host, three ways interleaved, 9 runs each, 1 and
# 16 threads: 0fc9fcf (.device/memsim-before, no huge pages), this session's binary with its
# arrays in huge pages at staggered offsets (.device/memsim), the same with MEMSIM_HUGE_PAGES=0.
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
O=$OUT/c; mkdir -p $O
{ nproc; lscpu | grep "Model name"; date -u; cat .device/commit; } > $O/host.txt
for t in umm-coalesced dmm-conflict hmm-transpose umm-random; do
  m=umm-w32; [ $t = dmm-conflict ] && m=dmm-w32; [ $t = hmm-transpose ] && m=hmm
  for th in 1 16; do for k in 1 2 3 4 5 6 7 8 9; do for b in before on off; do
    bin=.device/memsim; [ $b = before ] && bin=.device/memsim-before; hp=1; [ $b = off ] && hp=0
    echo "$t threads=$th $b $( { MEMSIM_HUGE_PAGES=$hp /usr/bin/time -f 'TIME %e %U %M' $bin run models/$m.json bench/traces/$t.json --timing --threads $th; } 2>&1 >/dev/null | grep -o 'simulate.*CPU\|TIME.*' | tr '\n' ' ')"
  done; done; done
done > $O/bench.txt 2>&1
date -u >> $O/host.txt
