#!/usr/bin/env bash
# gen-classroom.sh [MEMSIM [DIR]]: draw the pictures of docs/classroom.md with memsim itself
# (run --view FILE.svg), into DIR (default docs/classroom).  tests/view.sh draws them again
# and compares, so a change to the engine or the view that alters a picture is seen.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
memsim=${1:-$root/build/sim/memsim}
out=${2:-$root/docs/classroom}
mkdir -p "$out"
# picture  model  trace
while read -r pic model trace; do
  "$memsim" run "$root/models/$model" "$root/traces/$trace" --view "$out/$pic" >/dev/null
done <<'LIST'
fig3-3-dmm.svg        textbook-dmm.json  fig3-3.json
fig3-3-umm.svg        textbook-umm.json  fig3-3.json
fig3-1-umm.svg        textbook-umm.json  fig3-1.json
strided-dmm.svg       textbook-dmm.json  strided.json
idle-pipeline.svg     umm-w4-l100.json   idle-pipeline.json
transpose-1024.svg    dmm-w32.json       transpose-1024.json
tile-transpose-padded.svg dmm-w32.json   compact/tile-transpose-padded.json
barriers-umm.svg      textbook-umm.json  barriers.json
hmm-small.svg         hmm-small.json     hmm-small.json
LIST
# a larger trace, summarised: the scheduled offline permutation of seed 001 chapter 5 on the HMM
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$memsim" gen permutation -a hmm-scheduled -P random -n 4096 -o "$tmp/hmm-scheduled-random-4096.json"
"$memsim" run "$root/models/hmm.json" "$tmp/hmm-scheduled-random-4096.json" --view "$out/summary-hmm-scheduled.svg" \
  >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
