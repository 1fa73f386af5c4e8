#!/usr/bin/env bash
# Simulate measurement records one per process, many at a time, each with its own cache, then
# merge the caches: a run stopped by a time limit keeps every record it finished.
#   bash bench/sim-records.sh MEMSIM OUT_CACHE RECORDS.json...
# Each RECORDS file is split into one file per record; a file under traces/measured/<gpu>/
# is simulated with models/<gpu>.json (--train none).  JOBS (default: the processors) sets
# how many run at once, in the order of the records.
set -uo pipefail
memsim=$(realpath "${1:?usage: sim-records.sh MEMSIM OUT_CACHE RECORDS.json...}")
out=${2:?usage: sim-records.sh MEMSIM OUT_CACHE RECORDS.json...}
shift 2
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
for f in "$@"; do
  g=$(basename "$(dirname "$f")")
  python3 - "$f" "$tmp" "$g" <<'PY'
import json, sys
f, tmp, g = sys.argv[1:]
d = json.load(open(f))
for i, r in enumerate(d['records']):
    o = dict(d); o['records'] = [r]
    json.dump(o, open('%s/%s-%s-%d.json' % (tmp, g, f.replace('/', '_'), i), 'w'))
PY
done
mkdir -p "$tmp/c"
ls "$tmp"/*.json | xargs -P "${JOBS:-$(nproc)}" -I{} bash -c 'f={}; b=$(basename $f .json); g=${b%%-*}; "'"$memsim"'" compare -m models/$g.json -M $f --train none --cache "'"$tmp"'/c/$b.tsv" -q -j 1 -o /dev/null'
{ head -1 "$(ls "$tmp"/c/*.tsv | head -1)"; for c in "$tmp"/c/*.tsv; do grep -v '^#' "$c"; done; } > "$out"
echo "sim-records: $(grep -vc '^#' "$out") results in $out"
rm -rf "$tmp"
