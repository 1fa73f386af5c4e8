#!/usr/bin/env bash
# 2026-11-27 (eleventh session): models/experimental/GPU-warm-home-writes.json (warm L2, home partitions,
# dram_lone_write_rate) on the bulk, bpbc and SAT records (not life-word, not the three largest bulk
# records), both GPUs side by side, 8 jobs each, one call cut at 540 s (the caches keep what finished).
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
D=/tmp/memsim-whw
mkdir -p $OUT/whw $D
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name --format=csv,noheader; date -u; cat .device/commit; } > $OUT/whw/host.txt
for g in h100 h200; do
  python3 - "$g" "$D" <<'PY'
import json, sys
g, D = sys.argv[1], sys.argv[2]
big = {("prefix-sums", 1024, 1048576, "row"), ("floyd-warshall", 32, 16384, "row"), ("bitonic", 1024, 16384, "row")}
for f in ["measurements.json", "bulk.json", "sat.json", "sat-2r1w.json", "sat-1pr.json", "sat-lookback.json"]:
    d = json.load(open(f"traces/measured/{g}/{f}"))
    keep = []
    for r in d["records"]:
        p = r["params"]
        if r.get("workload") not in ("bulk", "bpbc", "sat") or r.get("algorithm") == "life-word": continue
        if r.get("workload") == "bulk" and (r["algorithm"], p.get("n"), p.get("p"), p.get("arrangement")) in big: continue
        keep.append(r)
    d["records"] = keep
    json.dump(d, open(f"{D}/{g}-{f}", "w"))
PY
  timeout 540 .device/memsim compare -m models/experimental/$g-warm-home-writes.json -M $D/$g-measurements.json $D/$g-bulk.json $D/$g-sat.json $D/$g-sat-2r1w.json $D/$g-sat-1pr.json $D/$g-sat-lookback.json --train none --skip-unmatched --cache $OUT/whw/$g-cache.tsv -j 8 --timing $OUT/whw/$g-timing.tsv -f json -o $OUT/whw/$g.json 2> $OUT/whw/$g.log &
done
wait
date -u >> $OUT/whw/host.txt
