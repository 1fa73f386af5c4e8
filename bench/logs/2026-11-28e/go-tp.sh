#!/bin/bash
# Session 16 (2026-11-28e): the serve_run inline turn.  The four bench traces at 1 and 16
# threads (bench/throughput-cores.sh, SAT=0) and the full-size GCD stream (4096 bits,
# approximate, umm-w32), the binaries before (ac9ef58) and after, interleaved; per-thread CPU
# of the GCD stream sampled from ps every 5 s.
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
out=${OUT:-/tmp}/tp; mkdir -p "$out"
nproc; lscpu | grep "Model name"; date -u
for b in memsim-ac9ef58 memsim; do
  RUNS=3 SAT=0 bash bench/throughput-cores.sh .device/$b 16 > "$out/cores-$b.txt" 2>&1
done
for b in memsim-ac9ef58 memsim; do
  /usr/bin/time -v .device/$b gen gcd -a approximate --bits 4096 --instances 65536 --run models/umm-w32.json > "$out/gcd-$b.txt" 2>&1 &
  sleep 1
  pid=$(pgrep -n -f "$b gen gcd")
  while kill -0 "$pid" 2>/dev/null; do ps -L -o tid,comm,time,pcpu -p "$pid" >> "$out/gcd-threads-$b.txt" 2>/dev/null; echo --- >> "$out/gcd-threads-$b.txt"; sleep 5; done
  wait
done
date -u
grep -h "median\|baseline" "$out"/cores-*.txt
grep -h "Elapsed\|User time\|Maximum resident" "$out"/gcd-*.txt
