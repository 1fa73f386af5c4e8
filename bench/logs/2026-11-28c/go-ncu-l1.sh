#!/usr/bin/env bash
# 2026-11-28 (fourteenth session): does the SM's L1 serve the loads of the column-wise bulk
# programs and of the GCDs?  Nsight Compute's L1 lookups (hits, misses) and the L2's sectors
# from the L1, range replay of each record (kernels/ncu-profile.sh), caches flushed before
# each profiled call (ncu's default).  Run from the repository root with .device/ carried
# (.device/memsim-measure from `bash kernels/build.sh`).
cd "$(dirname "$0")/../../.."
mkdir -p $OUT/ncu
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; date -u; "$ncu" --version | tail -1; } > $OUT/ncu/host.txt
"$ncu" --query-metrics --chip gh100 > /tmp/q.txt 2>&1 || true
want="l1tex__t_requests_pipe_lsu_mem_global_op_ld l1tex__t_sectors_pipe_lsu_mem_global_op_ld l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss l1tex__t_sectors_pipe_lsu_mem_global_op_st lts__t_sectors_srcunit_tex_op_read lts__t_sectors_srcunit_tex_op_write lts__t_sectors_srcunit_tex_op_read_lookup_hit l1tex__data_pipe_lsu_wavefronts_mem_lg smsp__inst_executed"
m=gpu__time_duration.sum
for x in $want; do if grep -q "^$x " /tmp/q.txt; then m="$m,$x.sum"; else echo "not on this chip: $x" >> $OUT/ncu/host.txt; fi; done
echo "metrics: $m" >> $OUT/ncu/host.txt
# $1: more workloads after bulk and gcd (each its whole default set), e.g. "gf2 simple"
# ONLY_MORE=1: only those (the bulk and GCD profiles left out)
[ -n "${ONLY_MORE:-}" ] || MEMSIM_ONLY=bitonic,montgomery,prefix-sums NCU_METRICS=$m NCU_TIMEOUT=200 bash kernels/ncu-profile.sh .device/memsim-measure $OUT/ncu bulk range > $OUT/ncu/bulk.log 2>&1
[ -n "${ONLY_MORE:-}" ] || MEMSIM_ONLY=binary,fast-binary,approximate NCU_METRICS=$m NCU_TIMEOUT=240 bash kernels/ncu-profile.sh .device/memsim-measure $OUT/ncu gcd range > $OUT/ncu/gcd.log 2>&1
for w in ${1:-}; do NCU_METRICS=$m NCU_TIMEOUT=${MORE_TIMEOUT:-150} bash kernels/ncu-profile.sh .device/memsim-measure $OUT/ncu $w range > $OUT/ncu/$w.log 2>&1; done
for f in $OUT/ncu/*.log; do tail -n 1 "$f"; done
rm -f $OUT/ncu/*-measure.json.tmp
cd $OUT && tar czf ncu.tgz ncu && rm -rf ncu
