#!/usr/bin/env bash
# 2026-11-27 (twelfth session): the DMM port by banks (models/experimental/GPU-banks.json:
# the shipped keys + dmm_global_rate 1 (--dmm-port) + dmm_port_banks 4) on every record but the GCDs of 2048
# bits and life-word (their cost is beyond this session's device time), both GPUs side by
# side, 8 jobs each, polled across calls.  $1: start | poll; $2: poll seconds.
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
# BIG=1: only those (the GCDs of 2048 bits and life-word), 7 jobs per GPU
D=/tmp/memsim-pb${BIG:+big}
mkdir -p $OUT/pb
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name --format=csv,noheader; date -u; cat .device/commit; } >> $OUT/pb/host.txt
if [ "$1" = start ]; then
  # the one-SM calibration records (L1 hits, stores, a load and its store back) on this GPU first
  [ "${BIG:-0}" = 1 ] || MEMSIM_ONLY=clock-spin,sm-strided-read,sm-strided-write,sm-l1-strided-read,sm-l1-strided-write,sm-l1-strided-rmw \
    .device/memsim-measure --workload calibrate -o $OUT/pb/sm-l1.json > $OUT/pb/sm-l1.log 2>&1
  rm -rf $D && mkdir -p $D/bin && cp .device/memsim $D/bin/ && cp -r models traces $D/
  for g in h100 h200; do
    BIG=${BIG:-0} python3 - "$g" "$D" <<'PY'
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
        big = (r.get("workload") == "gcd" and r["params"].get("bits", 0) >= 2048) or r.get("algorithm") == "life-word"
        if big == (os.environ.get("BIG") == "1"): keep.append(r)
    d["records"] = keep
    json.dump(d, open(f"{out}/{f}", "w"))
PY
    (cd $D && setsid nohup bash -c "echo \$\$ > $g.pid; bin/memsim compare -m models/experimental/$g-banks.json -M rec/$g/measurements.json rec/$g/permutation.json rec/$g/gcd.json rec/$g/simple.json rec/$g/bulk.json rec/$g/gf2.json rec/$g/gf2-2.json rec/$g/sat.json rec/$g/sat-2r1w.json rec/$g/sat-1pr.json rec/$g/sat-lookback.json --train none --skip-unmatched --cache $g-cache.tsv -j ${JOBS:-8} -P --timing $g-timing.tsv -f json -o $g.json 2> $g.log; echo \$? > $g.rc; date -u +%s > $g.end" > /dev/null 2>&1 < /dev/null &)
  done
  date -u +%s > $D/start
  echo "started $(date -u)" >> $OUT/pb/poll.txt
fi
t0=$(date +%s)
while [ $(( $(date +%s) - t0 )) -lt "${2:-540}" ]; do
  [ -f $D/h100.end ] && [ -f $D/h200.end ] && break
  sleep 5
done
echo "elapsed $(( $(date -u +%s) - $(cat $D/start) )) s" >> $OUT/pb/poll.txt
for g in h100 h200; do
  [ -f $D/$g.end ] && echo "$g ended, exit $(cat $D/$g.rc)" >> $OUT/pb/poll.txt
  tr '\r' '\n' < $D/$g.log | grep -v '^$' | tail -2 >> $OUT/pb/poll.txt
  wc -l $D/$g-cache.tsv >> $OUT/pb/poll.txt 2>/dev/null
done
for f in $D/*.log $D/*-timing.tsv $D/*-cache.tsv $D/*.json $D/start $D/*.end $D/*.rc; do [ -f "$f" ] && cp "$f" $OUT/pb/; done
cd $OUT && tar czf pb.tgz pb && rm -rf pb
