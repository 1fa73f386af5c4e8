#!/usr/bin/env bash
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader > $OUT/nvidia-smi.txt; date -u >> $OUT/nvidia-smi.txt
ncu --version >> $OUT/nvidia-smi.txt
LIMIT=${LIMIT:-540} bash bench/pipe-profile.sh .device/k/memsim-measure /tmp/pp calibrate gcd simple gf2 bulk bpbc permutation sat 2>&1 | tee $OUT/pipe.log
cp $OUT/nvidia-smi.txt /tmp/pp/
tar czf $OUT/pp.tgz -C /tmp pp
