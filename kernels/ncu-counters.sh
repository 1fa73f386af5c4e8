#!/usr/bin/env bash
# Hardware-counter run: every kernel of memsim-measure's counters mode (one
# small launch each: one 1024-element block for the DMM permutations, 512x512
# for SAT, ...) under Nsight Compute, raw CSV kept as ncu writes it.
#   bash kernels/ncu-counters.sh BIN OUTDIR [WORKLOAD]
# Writes OUTDIR/ncu-raw.csv (ncu --page raw --csv: one row per kernel launch,
# in launch order) and OUTDIR/ncu-launches.csv (launch index -> workload,
# algorithm, params). Before each record's kernels the harness launches
# ms_counter_marker with a grid of (launch index + 1) blocks: the ncu rows
# after that marker row, up to the next marker, are that record's kernels.
set -euo pipefail
bin=${1:?usage: ncu-counters.sh BIN OUTDIR [WORKLOAD]}
out=${2:?usage: ncu-counters.sh BIN OUTDIR [WORKLOAD]}
workload=${3:-all}
ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,\
smsp__inst_executed_op_shared_ld.sum,\
smsp__inst_executed_op_shared_st.sum,\
gpu__time_duration.sum
mkdir -p "$out"
rep=$(mktemp -d)/counters
required=${metrics%,smsp__inst_executed_op_shared_ld.sum*},gpu__time_duration.sum
if ! "$ncu" --metrics "$metrics" --clock-control none -f -o "$rep" \
     "$bin" --counters --workload "$workload" --launch-log "$out/ncu-launches.csv"; then
  echo "ncu-counters.sh: retrying with the required metrics only" >&2
  "$ncu" --metrics "$required" --clock-control none -f -o "$rep" \
    "$bin" --counters --workload "$workload" --launch-log "$out/ncu-launches.csv"
fi
# Only the metrics asked for (ncu's raw page otherwise adds every device
# attribute); the unfiltered page if this ncu refuses the filter.
"$ncu" --import "$rep.ncu-rep" --csv --page raw --metrics "$metrics" > "$out/ncu-raw.csv" ||
  "$ncu" --import "$rep.ncu-rep" --csv --page raw > "$out/ncu-raw.csv"
echo "ncu-counters.sh: $(($(wc -l < "$out/ncu-raw.csv") - 2)) kernel rows in $out/ncu-raw.csv"
