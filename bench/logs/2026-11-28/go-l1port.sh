#!/usr/bin/env bash
# 2026-11-28 (twelfth session): the SM's L1 hit path. Runs on a device machine from the repository
# root with the harness built on the development machine (.device/memsim-measure, `bash
# kernels/build.sh`): the sm-l1-strided-read calibration records beside sm-strided-read and the
# clock, then (WITH_NCU=1) Nsight Compute's L1 counters of the bulk and gf2 records (range replay).
set -uo pipefail
cd "$(dirname "$0")/../../.."
B=.device/memsim-measure
mkdir -p $OUT
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; date -u; git rev-parse --short HEAD; } > $OUT/host.txt 2>&1
nvidia-smi > $OUT/nvidia-smi.txt 2>&1
MEMSIM_ONLY=${CAL_ONLY:-clock-spin,sm-strided-read,sm-strided-write,sm-l1-strided-read,sm-l1-strided-write,sm-l1-strided-rmw} $B --workload calibrate -o $OUT/sm-l1.json > $OUT/sm-l1.log 2>&1
echo "calibrate rc=$?" >> $OUT/host.txt
if [ "${WITH_NCU:-0}" = 1 ]; then
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  $ncu --query-metrics > $OUT/query-metrics.txt 2>&1
  want='^(l1tex__t_requests_pipe_lsu_mem_global_op_ld|l1tex__t_sectors_pipe_lsu_mem_global_op_ld|l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit|l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss|l1tex__data_pipe_lsu_wavefronts_mem_lg|l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_read|l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld|l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld|l1tex__lsu_writeback_active_mem_lg|l1tex__data_pipe_lsu_wavefronts|l1tex__t_set_accesses_pipe_lsu_mem_global_op_ld|l1tex__t_set_conflicts_pipe_lsu_mem_global_op_ld|l1tex__t_requests_pipe_lsu_mem_global_op_st|l1tex__t_sectors_pipe_lsu_mem_global_op_st|l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_st|l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_write)$'
  m=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum
  for x in $(awk '{print $1}' $OUT/query-metrics.txt | grep -E "$want" | sort -u); do m+=",$x.sum"; done
  echo "$m" > $OUT/ncu-metrics.txt
  # gf2 at 256 and 1024 symbols (length 1024), both arrangements; bulk's four programs at full size
  MEMSIM_GF2_SIZES=256x1024,1024x1024 NCU_METRICS=$m NCU_TIMEOUT=${NCU_LIMIT:-170} \
    bash kernels/ncu-profile.sh $B $OUT/ncu gf2 range > $OUT/ncu-gf2.log 2>&1
  echo "ncu gf2 rc=$?" >> $OUT/host.txt
  MEMSIM_ONLY=prefix-sums,bitonic,floyd-warshall,montgomery NCU_METRICS=$m NCU_TIMEOUT=${NCU_LIMIT:-170} \
    bash kernels/ncu-profile.sh $B $OUT/ncu bulk range > $OUT/ncu-bulk.log 2>&1
  echo "ncu bulk rc=$?" >> $OUT/host.txt
  tar czf $OUT/ncu.tgz -C $OUT ncu && rm -rf $OUT/ncu   # one file: the harness returns few files per folder
fi
date -u >> $OUT/host.txt
# every launch of the GF(2) records at 256 and 1024 symbols (CUPTI: start, end): the kernels and
# the gaps between them
if [ "${WITH_KLOG:-0}" = 1 ]; then
  MEMSIM_KERNEL_LOG=$OUT/gf2-kernels.log MEMSIM_GF2_SIZES=256x1024,1024x1024 $B --workload gf2 -o $OUT/gf2-klog.json > $OUT/gf2-klog.log 2>&1
  echo "klog rc=$?" >> $OUT/host.txt
  gzip -f $OUT/gf2-kernels.log
fi
