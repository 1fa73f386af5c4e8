#!/bin/bash
# Session 16 (2026-11-28e), call 4: the GCD stream (4096 bits, approximate, 65536 instances,
# umm-w32) with the binaries of ac9ef58, 93a7a53 and 385cb77 (.device/memsim), interleaved,
# two rounds; each thread's CPU from ps every 5 s, one log per binary.
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
out=${OUT:-/tmp}/tp4; mkdir -p "$out"
nproc; lscpu | grep "Model name"; date -u
for round in 1 2; do
  for b in memsim-ac9ef58 memsim-93a7a53 memsim; do
    /usr/bin/time -v .device/$b gen gcd -a approximate --bits 4096 --instances 65536 --run models/umm-w32.json > "$out/gcd-$b-$round.txt" 2>&1 &
    sleep 1
    pid=$(pgrep -n -f "$b gen gcd")
    echo "=== round $round" >> "$out/threads-$b.txt"
    while kill -0 "$pid" 2>/dev/null; do ps -L -o tid,comm,time -p "$pid" | grep -v pool-gcd >> "$out/threads-$b.txt" 2>/dev/null; echo --- >> "$out/threads-$b.txt"; sleep 5; done
    wait
    echo "$b round $round: $(grep -h 'Elapsed' "$out/gcd-$b-$round.txt") $(grep -h 'User time' "$out/gcd-$b-$round.txt")"
  done
done
date -u
