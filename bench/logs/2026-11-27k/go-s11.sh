#!/usr/bin/env bash
# 2026-11-27 (eleventh session): the warm L2 with home partitions (models/experimental/GPU-warm-home.json:
# the shipped command + --l2-warm --l2-home-partitions) on every record but the GCDs of 1024 and 2048
# bits and life-word (their cost with the keys is beyond this session's device time), both GPUs side by
# side, 8 jobs each, polled across calls.  $1: start | poll; $2: poll seconds.
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
D=/tmp/memsim-wh
mkdir -p $OUT/wh
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name --format=csv,noheader; date -u; cat .device/commit; } >> $OUT/wh/host.txt
if [ "$1" = start ]; then
  rm -rf $D && mkdir -p $D/bin && cp .device/memsim $D/bin/ && cp -r models traces $D/
  for g in h100 h200; do
    python3 - "$g" "$D" <<'PY'
import json, sys, os
g, D = sys.argv[1], sys.argv[2]
src = f"traces/measured/{g}"
out = f"{D}/rec/{g}"
os.makedirs(out, exist_ok=True)
for f in ["measurements.json", "permutation.json", "gcd.json", "simple.json", "bulk.json", "gf2.json", "gf2-2.json",
          "sat.json", "sat-2r1w.json", "sat-1pr.json", "sat-lookback.json"]:
    d = json.load(open(f"{src}/{f}"))
    keep = []
    for r in d["records"]:
        if r.get("workload") == "gcd" and r["params"].get("bits", 0) >= 1024: continue
        if r.get("algorithm") == "life-word": continue
        keep.append(r)
    d["records"] = keep
    json.dump(d, open(f"{out}/{f}", "w"))
PY
    (cd $D && setsid nohup bash -c "echo \$\$ > $g.pid; bin/memsim compare -m models/experimental/$g-warm-home.json -M rec/$g/measurements.json rec/$g/permutation.json rec/$g/gcd.json rec/$g/simple.json rec/$g/bulk.json rec/$g/gf2.json rec/$g/gf2-2.json rec/$g/sat.json rec/$g/sat-2r1w.json rec/$g/sat-1pr.json rec/$g/sat-lookback.json --train none --skip-unmatched --cache $g-cache.tsv -j 8 -P --timing $g-timing.tsv -f json -o $g.json 2> $g.log; echo \$? > $g.rc; date -u +%s > $g.end" > /dev/null 2>&1 < /dev/null &)
  done
  date -u +%s > $D/start
  echo "started $(date -u)" >> $OUT/wh/poll.txt
fi
t0=$(date +%s)
while [ $(( $(date +%s) - t0 )) -lt "${2:-540}" ]; do
  [ -f $D/h100.end ] && [ -f $D/h200.end ] && break
  sleep 5
done
echo "elapsed $(( $(date -u +%s) - $(cat $D/start) )) s" >> $OUT/wh/poll.txt
for g in h100 h200; do
  [ -f $D/$g.end ] && echo "$g ended, exit $(cat $D/$g.rc)" >> $OUT/wh/poll.txt
  tr '\r' '\n' < $D/$g.log | grep -v '^$' | tail -2 >> $OUT/wh/poll.txt
  wc -l $D/$g-cache.tsv >> $OUT/wh/poll.txt 2>/dev/null
done
for f in $D/*.log $D/*-timing.tsv $D/*-cache.tsv $D/*.json $D/start $D/*.end $D/*.rc; do [ -f "$f" ] && cp "$f" $OUT/wh/; done
cd $OUT && tar czf wh.tgz wh && rm -rf wh
