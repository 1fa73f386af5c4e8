#!/usr/bin/env bash
# 2026-11-27 (eleventh session): the warm L2 with home partitions on the larger GCD records: every
# 1024-bit one but the non-oblivious binary, and the oblivious approximate, approximate-ptx64 and
# fast-binary of 2048 bits; both GPUs side by side, 8 jobs each, one call.
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
D=/tmp/memsim-whg
mkdir -p $OUT/whg $D
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name --format=csv,noheader; date -u; cat .device/commit; } >> $OUT/whg/host.txt
for g in h100 h200; do
  python3 - "$g" "$D" <<'PY'
import json, sys
g, D = sys.argv[1], sys.argv[2]
d = json.load(open(f"traces/measured/{g}/gcd.json"))
keep = []
for r in d["records"]:
    b, o, a = r["params"]["bits"], r["params"]["oblivious"], r["algorithm"]
    if b == 1024 and not (a == "binary" and not o): keep.append(r)
    if b == 2048 and o and a in ("approximate", "approximate-ptx64", "fast-binary"): keep.append(r)
d["records"] = keep
json.dump(d, open(f"{D}/gcd-{g}.json", "w"))
PY
  .device/memsim compare -m models/experimental/$g-warm-home.json -M $D/gcd-$g.json --train none --cache $OUT/whg/$g-cache.tsv -j 8 --timing $OUT/whg/$g-timing.tsv -f json -o $OUT/whg/$g.json 2> $OUT/whg/$g.log &
done
wait
date -u >> $OUT/whg/host.txt
