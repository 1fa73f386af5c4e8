#!/usr/bin/env bash
# memsim sweep: a grid run on the local cores (one row per point, the same figures as a
# direct run), resumed after a cut, run again through GNU parallel and merged back (the
# same table), a Slurm array script, and bad specs refused with the file and the point.
#   sweep.sh MEMSIM SRCDIR
set -u
memsim=${1:?usage: sweep.sh MEMSIM SRCDIR}
src=${2:?}
memsim=$(cd "$(dirname "$memsim")" && pwd)/$(basename "$memsim")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
n=0 fails=0
ok() { n=$((n + 1)); echo "ok - $1"; }
fail() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok - $*"; }
cat >spec.json <<JSON
{"memsim_sweep": 1, "model": "$src/models/async-hmm.json",
 "model_keys": {"global_latency": [100, 400], "dmms": [2, 4]},
 "family": "sat", "algorithms": ["2r1w", "1r1w"],
 "params": {"n": [64, 128], "tile-threads": [128]}}
JSON
"$memsim" sweep spec.json -o all.csv 2>err.txt
if [ "$(wc -l <all.csv)" = 17 ] && [ "$(tail -n +2 all.csv | cut -d, -f1 | sort -n | uniq | wc -l)" = 16 ]; then ok "local_run_16_points"
else fail "local_run_16_points: $(head -3 all.csv) $(cat err.txt)"; fi
# point 13 (the last axis fastest, algorithms slowest): 1r1w, global_latency 400, dmms 2,
# n 128: the same as a direct run
row=$(grep '^13,' all.csv)
python3 - "$src/models/async-hmm.json" >m13.json <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["global_latency"] = 400; m["dmms"] = 2; print(json.dumps(m))
PY
direct=$("$memsim" gen sat -a 1r1w --n 128 --tile-threads 128 --run m13.json --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["time_units"])')
if [ "$(cut -d, -f2-7 <<<"$row")" = "1r1w,400,2,128,128,$direct" ]; then ok "row_equals_direct_run"
else fail "row_equals_direct_run: '$row' against $direct time units"; fi
# cut after 10 rows: the rerun runs the other 6 and ends with the same table
head -11 all.csv >cut.csv
"$memsim" sweep spec.json -o cut.csv 2>resume.err
sortcsv() { head -1 "$1"; tail -n +2 "$1" | sort -t, -k1,1n; }
if grep -q "10 of 16 points already there, 6 to run" resume.err && [ "$(sortcsv cut.csv)" = "$(sortcsv all.csv)" ]; then ok "resume"
else fail "resume: $(cat resume.err)"; fi
if command -v parallel >/dev/null 2>&1; then
  "$memsim" sweep spec.json --emit parallel -o pts >jobs.txt
  parallel --will-cite -j 4 <jobs.txt
  "$memsim" sweep --merge -o merged.csv pts/point-*.csv
  if [ "$(wc -l <jobs.txt)" = 16 ] && [ "$(cat merged.csv)" = "$(sortcsv all.csv)" ]; then ok "gnu_parallel_then_merge"
  else fail "gnu_parallel_then_merge: $(head -2 jobs.txt) $(diff merged.csv <(sortcsv all.csv) | head -3)"; fi
else
  n=$((n + 1)); echo "ok - gnu_parallel_then_merge # SKIP GNU parallel is not installed (scripts/setup.sh installs it)"
fi
"$memsim" sweep spec.json --emit slurm -o pts >job.sh
if grep -q '^#SBATCH --array=0-15$' job.sh && grep -q -- '--point "$SLURM_ARRAY_TASK_ID"' job.sh && bash -n job.sh; then ok "slurm_array_script"
else fail "slurm_array_script: $(cat job.sh)"; fi
# bad specs: the file, and the point where a point fails
bad() { # name, spec text, expected message
  printf '%s' "$2" >bad.json
  "$memsim" sweep bad.json -o bad.csv >/dev/null 2>bad.err; local rc=$?
  if [ "$rc" = 2 ] && grep -qF -- "$3" bad.err; then ok "$1"; else fail "$1: exit $rc: $(cat bad.err)"; fi
}
bad unknown_key "{\"memsim_sweep\": 1, \"model\": \"$src/models/async-hmm.json\", \"family\": \"sat\", \"algorithms\": [\"2r1w\"], \"parms\": {}}" \
  'bad.json: sweep: unknown key "parms"'
bad empty_axis "{\"memsim_sweep\": 1, \"model\": \"$src/models/async-hmm.json\", \"family\": \"sat\", \"algorithms\": [\"2r1w\"], \"params\": {\"n\": []}}" \
  'bad.json: params.n: expected a non-empty array of values, got an empty array'
bad family_and_trace "{\"memsim_sweep\": 1, \"model\": \"$src/models/async-hmm.json\"}" \
  'bad.json: give either "family" (with "algorithms") or "trace"'
bad bad_model_value "{\"memsim_sweep\": 1, \"model\": \"$src/models/async-hmm.json\", \"model_keys\": {\"width\": [32, 0]}, \"trace\": \"$src/traces/fig3-3.json\"}" \
  'bad.json: point 1'
n=$((n + 1))
"$memsim" sweep spec.json --point 16 >/dev/null 2>pt.err; rc=$?
if [ "$rc" = 2 ] && grep -q "point 16 is beyond the 16 points" pt.err; then echo "ok - point_out_of_range"
else fails=$((fails + 1)); echo "not ok - point_out_of_range: $rc $(cat pt.err)"; fi
echo "1..$n"
[ "$fails" = 0 ]
