#!/usr/bin/env bash
# The cost of the whole grounded validation (docs/validation.md), measured: both GPUs'
# `memsim compare` from empty caches, side by side, in the background (setsid), so that a
# run longer than one command of the device machine can be followed across calls.
#   bench/validation-cost.sh start [JOBS]   copy memsim, models and records to DIR and start
#                                           (JOBS per GPU, default: processors / 2)
#   bench/validation-cost.sh poll [S]       wait up to S s (default 570) for both to end; print
#                                           the elapsed time, each GPU's results so far and
#                                           their check against the committed caches
#   bench/validation-cost.sh stop           end the runs
# MEMSIM (default build-compare/sim/memsim) is the binary; LIBS, a folder of the shared
# libraries it needs where they are not installed; DIR (default /tmp/memsim-validation);
# MODEL (default models/GPU.json) the model, GPU standing for h100 and h200 (a candidate:
# MODEL=models/experimental/GPU-l1.json); REF (default docs/validation/grounded/GPU-cache.tsv)
# the cache the results are checked against.
# Results equal to the committed caches to the unit are the exactness check of an engine
# change at full size (bench/cache-equal.py).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dir=${DIR:-/tmp/memsim-validation}
gpus=(h100 h200)
model_of() { local m=${MODEL:-models/GPU.json}; echo "${m//GPU/$1}"; }
ref_of() { local r=${REF:-docs/validation/grounded/GPU-cache.tsv}; echo "${r//GPU/$1}"; }
files() { local m=traces/measured/$1; echo "$m/measurements.json $m/permutation.json $m/gcd.json $m/simple.json $m/bulk.json $m/gf2.json $m/gf2-2.json $m/sat.json $m/sat-2r1w.json $m/sat-1pr.json $m/sat-lookback.json"; }
case ${1:-} in
start)
  memsim=${MEMSIM:-build-compare/sim/memsim}
  [ -x "$memsim" ] || { echo "validation-cost.sh: $memsim not built" >&2; exit 2; }
  jobs=${2:-$(( $(nproc) / 2 > 0 ? $(nproc) / 2 : 1 ))}
  rm -rf "$dir" && mkdir -p "$dir/bin"
  cp "$memsim" "$dir/bin/memsim"
  [ -n "${LIBS:-}" ] && cp -r "$LIBS" "$dir/bin/lib"
  cp -r models traces "$dir/"
  date -u +%s > "$dir/start"
  for g in "${gpus[@]}"; do
    # shellcheck disable=SC2046
    (cd "$dir" && LD_LIBRARY_PATH="$dir/bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" setsid nohup bash -c \
      "echo \$\$ > $g.pid; bin/memsim compare -m $(model_of "$g") -M $(files "$g") --train none --skip-unmatched --cache $g-cache.tsv -j $jobs -P --timing $g-timing.tsv -f json -o $g.json 2> $g.log; echo \$? > $g.rc; date -u +%s > $g.end" \
      > /dev/null 2>&1 < /dev/null &)
  done
  echo "validation-cost.sh: started $(date -u) in $dir, $jobs jobs per GPU"
  ;;
poll)
  lim=${2:-570}
  t0=$(date +%s)
  while [ $(( $(date +%s) - t0 )) -lt "$lim" ]; do
    done_all=1
    for g in "${gpus[@]}"; do [ -f "$dir/$g.end" ] || done_all=0; done
    [ $done_all = 1 ] && break
    sleep 5
  done
  start=$(cat "$dir/start")
  echo "elapsed $(( $(date -u +%s) - start )) s"
  for g in "${gpus[@]}"; do
    if [ -f "$dir/$g.end" ]; then echo "$g: ended after $(( $(cat "$dir/$g.end") - start )) s, exit $(cat "$dir/$g.rc")"
    else echo "$g: running"; fi
    tr '\r' '\n' < "$dir/$g.log" | grep -v '^$' | tail -1
    [ -f "$dir/$g-cache.tsv" ] && python3 "$root/bench/cache-equal.py" "$root/$(ref_of "$g")" "$dir/$g-cache.tsv" | head -4
  done
  ;;
stop) # each run is a session of its own: end its process group
  for g in "${gpus[@]}"; do [ -f "$dir/$g.pid" ] && kill -- -"$(cat "$dir/$g.pid")" 2>/dev/null; done
  true
  ;;
*)
  sed -n '2,16p' "$0" >&2
  exit 2
  ;;
esac
