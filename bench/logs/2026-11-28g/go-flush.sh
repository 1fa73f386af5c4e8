#!/usr/bin/env bash
# 2026-11-28 (eighteenth session): does a SAT call at 1K-4K get its data from the L2 the call
# before left?  memsim-measure's SAT records at n = 1024, 2048, 4096 (copy, 2r1w, 1r1w, 1+r,
# 1r1w-lookback), recorded as usual (each call after the last, warm) and with
# MEMSIM_FLUSH_L2=256 (a 256-MiB read-modify-write kernel before every call, outside the timed
# window), alternating twice.  Run from the repository root on the GPU machine.
cd "$(dirname "$0")/../../.."
kb=/tmp/memsim-kernels
mkdir -p $OUT/fl
{ nproc; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; date -u; git rev-parse --short HEAD 2>/dev/null; } > $OUT/fl/host.txt
bash kernels/build.sh $kb > $OUT/fl/build.log 2>&1 || { tail -20 $OUT/fl/build.log; exit 1; }
export MEMSIM_SAT_SIZES=1024,2048,4096 MEMSIM_ONLY=copy,2r1w,1r1w,1+r,1r1w-lookback
c=$(cat .device/commit 2>/dev/null || echo unknown)
for r in 1 2; do
  $kb/memsim-measure --workload sat --git-commit $c -o $OUT/fl/warm-$r.json > $OUT/fl/warm-$r.log 2>&1; echo "warm $r rc $?"
  MEMSIM_FLUSH_L2=256 $kb/memsim-measure --workload sat --git-commit $c -o $OUT/fl/flushed-$r.json > $OUT/fl/flushed-$r.log 2>&1; echo "flushed $r rc $?"
done
tail -3 $OUT/fl/build.log
