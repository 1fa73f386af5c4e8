#!/usr/bin/env bash
# 2026-11-28 (fifteenth session): does an SM's shared memory share its data path with global
# reads that hit L1?  sm-l1-shared-mix (G L1-resident coalesced loads and H SS-way shared loads
# per warp round) beside sm-l1-strided-read and shared-wavefronts, and the clock.  Runs from the
# repository root with the harness built here (.device/memsim-measure, `bash kernels/build.sh`).
set -uo pipefail
cd "$(dirname "$0")/../../.."
B=.device/memsim-measure
export PATH=$PATH:/usr/local/cuda/bin
mkdir -p $OUT
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u; git rev-parse --short HEAD; } > $OUT/host.txt 2>&1
nvidia-smi > $OUT/nvidia-smi.txt 2>&1
MEMSIM_ONLY=${ONLY:-sm-l1-shared-mix} $B --workload calibrate -o $OUT/mix.json > $OUT/mix.log 2>&1
echo "calibrate rc=$?" >> $OUT/host.txt
date -u >> $OUT/host.txt
# the SASS of the two L1 read kernels (instructions per load: is sm-l1-strided-read s = 1 issue-bound?)
cuobjdump -sass $B | awk '/Function : .*sm_l1_stridedEPKjmmmPj/,/\.\.\.\.\.\.\.\.\.\./' > $OUT/sass-sm_l1_strided.txt
cuobjdump -sass $B | awk '/Function : .*sm_l1_shared_mix.*Li1ELi0ELi1ELb1E/,/\.\.\.\.\.\.\.\.\.\./' > $OUT/sass-sm_l1_shared_mix-1-0-1-wl.txt
cuobjdump -sass $B | grep "Function :" | grep -i "l1_strided\|shared_mix" > $OUT/sass-functions.txt
