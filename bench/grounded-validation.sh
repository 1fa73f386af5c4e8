#!/usr/bin/env bash
# bench/grounded-validation.sh [GPU ...]: the grounded validation of docs/validation.md.
# Simulates the records of traces/measured/<gpu>/ with models/<gpu>.json at full size,
# --train none, into the cache docs/validation/grounded/<gpu>-cache.tsv, for at most
# LIMIT seconds (default 560: one call of the device machine), then writes the reports
# <gpu>.md and <gpu>.json from what the cache holds (and the models' validation bands, bench/validation-bands.py). Run it again to go on where it was
# cut off; the GPUs run side by side, JOBS records each (default: processors / GPUs).
# MEMSIM (default build-compare/sim/memsim) is the binary.
set -u
cd "$(dirname "$0")/.."
memsim=${MEMSIM:-build-compare/sim/memsim}
[ -x "$memsim" ] || { echo "grounded-validation.sh: $memsim not built (ninja -C build-compare)" >&2; exit 2; }
gpus=("$@")
[ ${#gpus[@]} -gt 0 ] || gpus=(h100 h200)
limit=${LIMIT:-560}
jobs=${JOBS:-$(( $(nproc) / ${#gpus[@]} > 0 ? $(nproc) / ${#gpus[@]} : 1 ))}
out=docs/validation/grounded
files() { local m=traces/measured/$1; echo "$m/measurements.json $m/permutation.json $m/gcd.json $m/simple.json $m/bulk.json $m/gf2.json $m/gf2-2.json $m/sat.json $m/sat-2r1w.json $m/sat-1pr.json $m/sat-lookback.json"; }
for g in "${gpus[@]}"; do
  [ -f "models/$g.json" ] || { echo "grounded-validation.sh: no models/$g.json" >&2; exit 2; }
  # shellcheck disable=SC2046
  timeout -s INT "$limit" "$memsim" compare -m "models/$g.json" -M $(files "$g") --train none --skip-unmatched \
    --cache "$out/$g-cache.tsv" -j "$jobs" -q -f json -o /dev/null 2>"${TMPDIR:-/tmp}/grounded-$g.log" &
done
wait
for g in "${gpus[@]}"; do
  for f in markdown json; do
    ext=$([ $f = json ] && echo json || echo md)
    # shellcheck disable=SC2046
    "$memsim" compare -m "models/$g.json" -M $(files "$g") --train none --skip-unmatched \
      --cache "$out/$g-cache.tsv" --cached-only -q -f $f -o "$out/$g.$ext" 2>>"${TMPDIR:-/tmp}/grounded-$g.log" || exit 1
  done
  echo "$g: $(grep -c . "$out/$g-cache.tsv") cache lines; $(grep -o '| \*\*overall\*\* | [0-9]* | [0-9.]*%' "$out/$g.md")"
done
# the models' validation bands follow their reports (models/<gpu>.json "validation", which
# tests/cli.sh checks against them)
python3 bench/validation-bands.py "${gpus[@]}" >/dev/null
