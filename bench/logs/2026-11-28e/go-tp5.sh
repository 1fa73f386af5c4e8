#!/bin/bash
# Session 16 (2026-11-28e), call 5: the GCD stream (4096 bits, approximate, 65536 instances,
# umm-w32) once with each binary: the engine polling an empty loader queue for 200 us before
# it sleeps (.device/memsim), 385cb77 (run_batch, no polling) and 93a7a53 (no run_batch).
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
out=${OUT:-/tmp}/tp5; mkdir -p "$out"
nproc; date -u
for b in memsim memsim-385cb77 memsim-93a7a53; do
  timeout 150 /usr/bin/time -v .device/$b gen gcd -a approximate --bits 4096 --instances 65536 --run models/umm-w32.json > "$out/gcd-$b.txt" 2>&1
  echo "$b: $(grep -h 'Elapsed' "$out/gcd-$b.txt") $(grep -h 'User time' "$out/gcd-$b.txt") $(grep -h '^time units' "$out/gcd-$b.txt")"
done
date -u
