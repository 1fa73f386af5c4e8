#!/usr/bin/env bash
# 2026-11-27f call 5: issue 12's two full-size traces with loading ahead: the grounded SAT
# 2R1W 16K on 16 threads (the new binary and the one before, interleaved) and the GCD stream
# of 4096 bits (the new binary).
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
O=$OUT/ld2; mkdir -p $O
{ nproc; lscpu | grep "Model name"; date -u; cat .device/commit; } > $O/host.txt
/usr/bin/time -f "gen: %e s wall %U s user %M KB" .device/memsim gen sat -a 2r1w --n 16384 --tile-threads 128 -o /tmp/s16.json > $O/sat.txt 2>&1
for b in memsim memsim-before; do
  /usr/bin/time -f "$b run threads=16: %e s wall %U s user %M KB" .device/$b run models/h100.json /tmp/s16.json --timing --threads 16 --json 2>>$O/sat.txt | grep -o '"time_units":[0-9]*' >> $O/sat.txt
done
{ echo "== memsim gcd stream 4096 bits $(date -u +%T)"; /usr/bin/time -f "%e s wall %U s user %M KB" timeout 140 .device/memsim gen gcd -a approximate --bits 4096 --instances 65536 --run models/umm-w32.json 2>&1 | grep -E "time units|^requests|wall"; } > $O/gcd-stream.txt 2>&1
date -u >> $O/host.txt
