#!/usr/bin/env bash
# 2026-11-28 (eighteenth session): how much of a pairwise-sum call (bpbc, 2^22 instances, k = 1 ... 32)
# comes from the L2 the call before left: memsim-measure's pairwise-sum records
# recorded as usual (each call after the last, warm) and with
# MEMSIM_FLUSH_L2=256 (a 256-MiB read-modify-write kernel before every call, outside the timed
# window), alternating twice.  Run from the repository root on the GPU machine.
cd "$(dirname "$0")/../../.."
kb=/tmp/memsim-kernels
mkdir -p $OUT/fp
{ nproc; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; date -u; cat .device/commit; } > $OUT/fp/host.txt
bash kernels/build.sh $kb > $OUT/fp/build.log 2>&1 || { tail -20 $OUT/fp/build.log; exit 1; }
export MEMSIM_ONLY=pairwise-sum
c=$(cat .device/commit 2>/dev/null || echo unknown)
for r in 1 2; do
  $kb/memsim-measure --workload bpbc --git-commit $c -o $OUT/fp/warm-$r.json >> $OUT/fp/run.log 2>&1; echo "warm $r rc $?"
  MEMSIM_FLUSH_L2=256 $kb/memsim-measure --workload bpbc --git-commit $c -o $OUT/fp/flushed-$r.json >> $OUT/fp/run.log 2>&1; echo "flushed $r rc $?"
done
tail -3 $OUT/fp/build.log
