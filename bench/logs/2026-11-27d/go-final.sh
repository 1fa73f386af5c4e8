#!/usr/bin/env bash
# 2026-11-27d final call (host CPUs): the merged engine (.device/memsim-new: repeated kernels and
# the faster dispatch loop) against the session's start (.device/memsim, the engine of 8f84a94).
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
S=/tmp/kf; rm -rf $S; mkdir -p $S
trap 'date -u >> $S/host.txt; tar czf $OUT/kf.tgz -C /tmp kf' EXIT
{ nproc; lscpu | grep "Model name"; date -u; cat .device/commit-new; } > $S/host.txt
# 1. life-word 16K x 32 steps (the validation's largest record), new binary, 16 threads, both GPUs' models
for g in h100; do
  /usr/bin/time -f "$g new life-word 16Kx32: %e s wall %U s user %M KB" timeout 120 .device/memsim-new compare -m models/$g.json \
    -M .device/kr/lw-$g.json --train none -j 16 --cache $S/lw-$g-new.tsv --timing $S/lw-$g-new-timing.tsv -q -f json -o /dev/null 2>> $S/times.txt
done
# 2. life-word 16K x 4 steps, old and new, 16 threads (H100 model)
for b in memsim memsim-new; do
  /usr/bin/time -f "h100 $b life-word 16Kx4: %e s wall %U s user %M KB" timeout 80 .device/$b compare -m models/h100.json \
    -M .device/kr/lw4-h100.json --train none -j 16 --cache $S/lw4-$b.tsv --timing $S/lw4-$b-timing.tsv -q -f json -o /dev/null 2>> $S/times.txt
done
# 3. the four bench traces, 1 and 16 threads, old and new
for b in memsim memsim-new; do SAT=0 timeout 70 bash bench/throughput-cores.sh .device/$b 16 > $S/tp-$b.txt 2>&1; done
cat $S/times.txt
