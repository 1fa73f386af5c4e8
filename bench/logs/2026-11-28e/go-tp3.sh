#!/bin/bash
# Session 16 (2026-11-28e), call 3: the binary of 385cb77 (run_batch: serve_run's turns of a
# step in one loop; the turn and advance()'s common case inline; the loader woken at half)
# beside ac9ef58's, interleaved: the four bench traces (RUNS=5, 1 and 16 threads) and the GCD
# stream (4096 bits, approximate, umm-w32) twice each, each thread's CPU from ps every 5 s.
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
out=${OUT:-/tmp}/tp3; mkdir -p "$out"
nproc; lscpu | grep "Model name"; date -u
for b in memsim-ac9ef58 memsim; do
  RUNS=5 SAT=0 bash bench/throughput-cores.sh .device/$b 16 > "$out/cores-$b.txt" 2>&1
done
for round in 1 2; do
  for b in memsim-ac9ef58 memsim; do
    /usr/bin/time -v .device/$b gen gcd -a approximate --bits 4096 --instances 65536 --run models/umm-w32.json > "$out/gcd-$b-$round.txt" 2>&1 &
    sleep 1
    pid=$(pgrep -n -f "$b gen gcd")
    while kill -0 "$pid" 2>/dev/null; do ps -L -o tid,comm,time,pcpu -p "$pid" >> "$out/gcd-threads-$b-$round.txt" 2>/dev/null; echo --- >> "$out/gcd-threads-$b-$round.txt"; sleep 5; done
    wait
  done
done
date -u
for f in "$out"/cores-*.txt; do echo "== $f"; grep -h "median" "$f"; done
for f in "$out"/gcd-memsim*.txt; do echo "== $f"; grep -h "Elapsed\|User time" "$f"; done
