#!/usr/bin/env bash
# The partial-write keys on the records where a full-size simulation is cheap: each GPU's
# permutation records with n <= 2^20 (83 of 110), simulated with the shipped model and with
# the same model plus partial_write_stages / l2_partial_write_stages (memsim calibrate with
# writes.json).  Prints the MAPE of each and the records whose error moved.
#   bash bench/partial-writes.sh [MEMSIM] [JOBS]
set -euo pipefail
memsim=${1:-build-compare/sim/memsim}
jobs=${2:-$(nproc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for gpu in h100 h200; do
  d=traces/measured/$gpu
  python3 - "$d/measurements.json" "$tmp/$gpu-records.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['records'] = [r for r in d['records'] if r['workload'] == 'permutation' and r['params'].get('n', 0) <= 2**20]
json.dump(d, open(sys.argv[2], 'w'))
PY
  "$memsim" calibrate "$d/calibrate.json" "$d/loops.json" "$d/l2sweep.json" "$d/writes.json" -o "$tmp/$gpu-pw.json" > /dev/null
  for m in models/$gpu.json "$tmp/$gpu-pw.json"; do
    "$memsim" compare --model "$m" --measured "$tmp/$gpu-records.json" --train none --skip-unmatched --jobs "$jobs" -q \
      --format json -o "$tmp/$gpu-$(basename "$m" .json).out"
  done
  python3 - "$gpu" "$tmp/$gpu-$gpu.out" "$tmp/$gpu-$gpu-pw.out" <<'PY'
import json, sys
gpu, a, b = sys.argv[1], json.load(open(sys.argv[2]))['records'], json.load(open(sys.argv[3]))['records']
err = lambda r: (r['predicted_ns'] - r['measured_ns']) / r['measured_ns'] * 100
ea = [err(r) for r in a if r.get('predicted_ns') is not None]
eb = [err(r) for r in b if r.get('predicted_ns') is not None]
print(f"{gpu}: {len(ea)} permutation records (n <= 2^20): MAPE {sum(map(abs, ea)) / len(ea):.1f}% shipped model, "
      f"{sum(map(abs, eb)) / len(eb):.1f}% with the partial-write keys")
for x, y in zip(a, b):
    if x.get('predicted_ns') is None or abs(err(x) - err(y)) < 0.5: continue
    p = x['params']
    print(f"  {x['algorithm']:17} n={p['n']:<8} {p.get('permutation', ''):12} {err(x):+7.1f}% -> {err(y):+7.1f}%")
PY
done
