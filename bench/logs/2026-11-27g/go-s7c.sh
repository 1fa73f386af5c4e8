#!/usr/bin/env bash
# 2026-11-27 (seventh session), call 4: the non-oblivious binary GCD records of 1024 and
# 2048 bits alone on the host's 16 cores (memsim compare -j 8: 8 engine threads), this
# session's last binary.
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
O=$OUT/c; mkdir -p $O
{ nproc; lscpu | grep "Model name"; date -u; cat .device/commit; } > $O/host.txt
for r in gcd1024 gcd2048; do
  timeout 420 /usr/bin/time -f "$r %e s wall %U s user %M KB" .device/memsim compare -m models/h100.json -M .device/$r.json --train none --skip-unmatched -j 8 --timing $O/$r.tsv -q -f json -o $O/$r.json >> $O/gcd.txt 2>&1
done
date -u >> $O/host.txt
