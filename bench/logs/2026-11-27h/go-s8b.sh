#!/usr/bin/env bash
# 2026-11-27 (eighth session): on an H100 host, (1) ncu of copy and the reworked look-back SAT
# at 8K and 16K (kernels/ncu-profile.sh, range replay), (2) the four bench traces at 1 and 16
# threads, 9 runs each, this session's binary (.device/memsim, 9fdd345) and 0fc9fcf's
# (.device/memsim-before) interleaved.
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > $OUT/nvidia-smi.txt
bash kernels/build.sh /tmp/mk >/dev/null 2>&1 || exit 4
MEMSIM_SAT_SIZES=8192,16384 MEMSIM_ONLY=copy,1r1w-lookback bash kernels/ncu-profile.sh /tmp/mk/memsim-measure $OUT/ncu sat range > $OUT/ncu.log 2>&1
export LD_LIBRARY_PATH=$PWD/.device/lib
O=$OUT/b; mkdir -p $O
{ nproc; lscpu | grep "Model name"; date -u; cat .device/commit; } > $O/host.txt
for t in umm-coalesced umm-random dmm-conflict hmm-transpose; do
  m=umm-w32; [ $t = dmm-conflict ] && m=dmm-w32; [ $t = hmm-transpose ] && m=hmm
  for th in 1 16; do for k in 1 2 3 4 5 6 7 8 9; do for b in memsim-before memsim; do
    echo "$t threads=$th $b $( { /usr/bin/time -f 'TIME %e %U %M' .device/$b run models/$m.json bench/traces/$t.json --timing --threads $th; } 2>&1 >/dev/null | grep -o 'simulate.*CPU\|TIME.*' | tr '\n' ' ')"
  done; done; done
done > $O/bench.txt 2>&1
date -u >> $O/host.txt
