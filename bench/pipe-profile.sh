#!/usr/bin/env bash
# Per-pipe instruction counts of memsim-measure's records (ncu, range replay: one row per
# record), for the issue limit's pipes (docs/models.md, "The issue limit").
#   bash bench/pipe-profile.sh BIN OUTDIR WORKLOAD ...      (on a GPU machine with ncu)
# Profiles smsp__inst_executed.sum and every smsp__inst_executed_pipe_* counter this ncu
# knows for the GPU (the list is kept in OUTDIR/pipe-metrics.txt) with kernels/ncu-profile.sh;
# OUTDIR/<workload>-raw.csv and -launches.csv as that script writes them. The workload
# `calibrate` profiles only its issue-rate kernels (which pipe IMAD and LOP3 go to).
# LIMIT=SECONDS (default 540) bounds the whole run; each workload gets what is left.
set -uo pipefail
bin=${1:?usage: pipe-profile.sh BIN OUTDIR WORKLOAD ...}
out=${2:?usage: pipe-profile.sh BIN OUTDIR WORKLOAD ...}
shift 2
ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
mkdir -p "$out"
"$ncu" --query-metrics > "$out/query-metrics.txt" 2>&1
awk '$1 ~ /^smsp__inst_executed_pipe_[a-z0-9_]+$/ {print $1}' "$out/query-metrics.txt" | sort -u > "$out/pipe-metrics.txt"
m=smsp__inst_executed.sum
while read -r p; do m+=",$p.sum"; done < "$out/pipe-metrics.txt"
echo "pipe-profile.sh: $(wc -l < "$out/pipe-metrics.txt") pipe counters"
end=$(( $(date +%s) + ${LIMIT:-540} ))
here=$(cd "$(dirname "$0")/.." && pwd)
for w in "$@"; do
  left=$(( end - $(date +%s) ))
  [ "$left" -gt 20 ] || { echo "pipe-profile.sh: no time left for $w"; continue; }
  only=${MEMSIM_ONLY:-}
  [ "$w" = calibrate ] && only=issue-rate
  echo "pipe-profile.sh: $w ($left s left) $(date -u +%T)"
  MEMSIM_ONLY=$only NCU_METRICS=$m NCU_TIMEOUT=$left bash "$here/kernels/ncu-profile.sh" "$bin" "$out" "$w" range \
    > "$out/$w.log" 2>&1
  echo "pipe-profile.sh: $w rc=$? $(tail -n 1 "$out/$w.log") $(date -u +%T)"
done
