#!/usr/bin/env bash
# Nsight Compute profile of memsim-measure's records at full size: achieved DRAM
# and L2 bandwidth, occupancy, stall reasons, shared-memory wavefronts.
#   bash kernels/ncu-profile.sh BIN OUTDIR WORKLOAD [range|kernel]
# The harness runs each record as usual (checked call), then once more inside a
# cudaProfilerStart/Stop range; ncu (--profile-from-start off) profiles only
# that call. Range replay (default) gives one result per record, the whole
# call's kernels together; kernel replay one result per kernel, split into
# records by the harness's marker kernels. MEMSIM_ONLY=alg,... restricts the
# algorithms (records with thousands of launches take long under kernel replay).
# Writes OUTDIR/WORKLOAD-raw.csv (ncu --page raw --csv, as ncu wrote it),
# OUTDIR/WORKLOAD-launches.csv (index,workload,algorithm,params) and
# OUTDIR/WORKLOAD-measure.json (the harness's records of the checked calls).
# bench/ncu-table.py turns them into the table of docs/measurements.md.
set -euo pipefail
bin=${1:?usage: ncu-profile.sh BIN OUTDIR WORKLOAD [range|kernel]}
out=${2:?usage: ncu-profile.sh BIN OUTDIR WORKLOAD [range|kernel]}
workload=${3:?usage: ncu-profile.sh BIN OUTDIR WORKLOAD [range|kernel]}
mode=${4:-range}
ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
stalls=""
for s in long_scoreboard short_scoreboard barrier membar lg_throttle mio_throttle wait \
         math_pipe_throttle not_selected no_instruction drain dispatch_stall branch_resolving; do
  stalls+=",smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio"
done
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,\
dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,lts__t_sector_hit_rate.pct,\
sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,\
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,\
smsp__inst_executed.sum$stalls
# NCU_METRICS=m1,m2,... profiles those metrics instead (e.g. the per-pipe instruction counts,
# bench/pipe-profile.sh).
metrics=${NCU_METRICS:-$metrics}
mkdir -p "$out"
rep=$(mktemp -d)/profile
# Range replay takes its ranges from cudaProfilerStart/Stop by itself; kernel
# replay profiles only inside them with --profile-from-start off.
replay=(--replay-mode kernel --profile-from-start off)
[ "$mode" = range ] && replay=(--replay-mode range)
# NCU_TIMEOUT=SECONDS stops ncu (and the application under it) after that long.
# NCU_EXTRA="--cache-control none ..." adds ncu options (by default ncu flushes the caches
# before each profiled kernel or range).
${NCU_TIMEOUT:+timeout -k 10 "$NCU_TIMEOUT"} \
"$ncu" --metrics "$metrics" "${replay[@]}" --clock-control none ${NCU_EXTRA:-} \
  -f -o "$rep" "$bin" --profile "$mode" --workload "$workload" \
  --launch-log "$out/$workload-launches.csv" -o "$out/$workload-measure.json"
"$ncu" --import "$rep.ncu-rep" --csv --print-units base --page raw --metrics "$metrics" \
  > "$out/$workload-raw.csv" ||
  "$ncu" --import "$rep.ncu-rep" --csv --page raw > "$out/$workload-raw.csv"
echo "ncu-profile.sh: $(($(wc -l < "$out/$workload-raw.csv") - 2)) result rows in $out/$workload-raw.csv"
