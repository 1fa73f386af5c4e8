#!/usr/bin/env bash
# Regenerates docs/validation/ from the committed GPU records: for every GPU under
# traces/measured/<gpu>/, the Markdown report (held-out metrics, per-record table, ncu
# counters), the JSON report, the plots, and the fitted model models/<gpu>-hmm.json; then the
# model extensions (8-word groups for 32-byte sectors) as a second report.
#   bash bench/compare-validation.sh [BUILD_DIR]      (default build-compare)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build-compare}
memsim="$root/$build/sim/memsim"
[ -x "$memsim" ] || { echo "compare-validation.sh: build first: ninja -C $build" >&2; exit 2; }
cd "$root"
out=docs/validation
mkdir -p "$out"
threads=$(nproc 2>/dev/null || echo 1)
for dir in traces/measured/*/; do
  gpu=$(basename "$dir")
  m="$dir/measurements.json"
  [ -f "$m" ] || continue
  counters=()
  [ -f "$dir/ncu-raw.csv" ] && counters=(--counters "$dir/ncu-raw.csv" --launch-log "$dir/ncu-launches.csv")
  echo "== $gpu: base model models/hmm.json, --train every:2" >&2
  /usr/bin/time -f "compare-validation.sh: $gpu: %e s" \
  "$memsim" compare --model models/hmm.json --measured "$m" --train every:2 --skip-unmatched \
    --threads "$threads" --cache "$out/sim-cache.tsv" --format markdown -o "$out/$gpu.md" "${counters[@]}" \
    --write-model "models/$gpu-hmm.json" \
    --plot "$out/$gpu" --timeline traces/fig3-3.json --timeline-model models/textbook-dmm.json
  "$memsim" compare --model "models/$gpu-hmm.json" --measured "$m" --train none --skip-unmatched \
    --threads "$threads" --cache "$out/sim-cache.tsv" --format json -o "$out/$gpu.json"
  echo "== $gpu: extension: group_words = 8 (32-byte sectors)" >&2
  sectors=$(mktemp --suffix=.json)
  sed 's/"global_latency": 400}/"global_latency": 400, "group_words": 8}/; s/"name": "HMM: /"name": "HMM with 8-word groups: /' models/hmm.json > "$sectors"
  "$memsim" compare --model "$sectors" --measured "$m" --train every:2 --skip-unmatched \
    --threads "$threads" --cache "$out/sim-cache.tsv" --format markdown -o "$out/$gpu-sectors.md"
  rm -f "$sectors"
done
