#!/usr/bin/env bash
# The cost of `memsim compare` at full size, record by record: each record of the measurement
# files is simulated alone (memsim compare --jobs 2 on a one-record file: one simulation
# thread, as with --jobs N over many records), under a time limit, N records at a time.
# Writes a TSV (file, index, family, algorithm, params, requests, time_units, cpu_s,
# wall_s, max_rss_mb, status), the slowest first.
#   bash bench/compare-cost.sh [-b BUILD] [-m MODEL] [-P PARALLEL] [-t LIMIT_S] [-r FROM-TO] [-o OUT.tsv] FILE...
# Defaults: build-compare, models/h200.json, nproc, 3600 s, every record, /dev/stdout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=build-compare model=models/h200.json par=$(nproc 2>/dev/null || echo 1) limit=3600 out=/dev/stdout range=0-999999
while getopts "b:m:P:t:r:o:" opt; do
  case $opt in
    b) build=$OPTARG ;; m) model=$OPTARG ;; P) par=$OPTARG ;; t) limit=$OPTARG ;; r) range=$OPTARG ;; o) out=$OPTARG ;;
    *) echo "usage: $0 [-b BUILD] [-m MODEL] [-P N] [-t LIMIT_S] [-r FROM-TO] [-o OUT.tsv] FILE..." >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "compare-cost.sh: no measurement file" >&2; exit 2; }
case $build in /*) memsim="$build/sim/memsim" ;; *) memsim="$root/$build/sim/memsim" ;; esac
[ -x "$memsim" ] || { echo "compare-cost.sh: build first: ninja -C $build" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# one file per record: the record alone, with its file's device object
for f in "$@"; do
  python3 - "$f" "$work" "$range" <<'EOF'
import json, os, sys
path, work = sys.argv[1], sys.argv[2]
lo, hi = (int(x) for x in sys.argv[3].split("-"))
d = json.load(open(path))
tag = path.replace("/", "_")
for i, r in enumerate(d["records"]):
    if not lo <= i <= hi:
        continue
    one = dict(d, records=[r])
    with open(os.path.join(work, "%s.%04d.json" % (tag, i)), "w") as o:
        json.dump(one, o)
    with open(os.path.join(work, "%s.%04d.src" % (tag, i)), "w") as o:
        o.write("%s\t%d\n" % (path, i))
EOF
done
export memsim model limit work
one() {
  local j=$1 base=${1%.json}
  local src idx; IFS=$'\t' read -r src idx < "$base.src"
  local status=ok
  /usr/bin/time -f "%M" -o "$base.rss" timeout "$limit" "$memsim" compare --model "$model" --measured "$j" \
    --train none --skip-unmatched --jobs 2 -q --timing "$base.tsv" -o /dev/null 2> "$base.err" || status=$?
  [ "$status" = 124 ] && status="timeout after $limit s"
  local rss; rss=$(tail -1 "$base.rss" 2>/dev/null || echo 0)
  if [ "$status" = ok ] && [ "$(wc -l < "$base.tsv")" -ge 2 ]; then
    tail -n +2 "$base.tsv" | awk -F'\t' -v f="$src" -v i="$idx" -v rss="$rss" \
      'BEGIN{OFS="\t"} {$1=f; $2=i; print $1,$2,$3,$4,$5,$6,$7,$8,$9,sprintf("%.0f", rss/1024),"ok"}'
  else
    [ "$status" = ok ] && status="skipped: $(grep -o 'note: .*' "$base.err" | head -1 | cut -c7-200)"
    python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['records'][0]; print('\t'.join([sys.argv[2], sys.argv[3], r['workload'], r['algorithm'], ' '.join('%s=%s' % (k, str(v).lower() if isinstance(v, bool) else v) for k, v in r['params'].items()), '', '', '', '', sys.argv[4], sys.argv[5]]))" \
      "$j" "$src" "$idx" "$((rss / 1024))" "$status"
  fi
}
export -f one
{
  printf "file\tindex\tfamily\talgorithm\tparams\trequests\ttime_units\tcpu_s\twall_s\tmax_rss_mb\tstatus\n"
  ls "$work"/*.json | xargs -P "$par" -I{} bash -c 'one "$@"' _ {} | sort -t$'\t' -k8,8gr
} > "$out"
