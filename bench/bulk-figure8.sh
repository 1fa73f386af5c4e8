#!/usr/bin/env bash
# Seed 003's Figure 8 (time against p for bitonic, floyd-warshall and montgomery, both
# arrangements) and seed 000's Tables 7.1-7.2 (CKY), measured on the H100 and H200 beside
# the grounded models' predictions, as Markdown tables (docs/workloads/bulk.md).
#   bench/bulk-figure8.sh [BUILD_DIR]    (default build-compare; about a minute of CPU)
set -euo pipefail
cd "$(dirname "$0")/.."
memsim=${1:-build-compare}/sim/memsim
out=docs/validation/bulk-extra
mkdir -p "$out"
for g in h100 h200; do
  "$memsim" compare -m models/$g.json -M traces/measured/$g/bulk-figure8.json traces/measured/$g/cky-table72.json \
    traces/measured/$g/cky.json --train none --skip-unmatched -q --cache "$out/$g-cache.tsv" -f json -o "$out/$g.json"
done
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
d = {g: json.load(open(f"{out}/{g}.json"))["records"] for g in ("h100", "h200")}
def kv(p):
    return dict(x.split("=", 1) for x in p.split()) if isinstance(p, str) else {k: str(v) for k, v in p.items()}
rows = {}
for g, recs in d.items():
    for r in recs:
        p = kv(r["params"])
        key = (r["algorithm"], p.get("nonterminals", ""), p.get("rules", ""), int(p["p"]), p["arrangement"])
        rows.setdefault(key, {})[g] = (r["measured_ns"] / 1e3, r["predicted_ns"] / 1e3, 100 * r["rel_error"])
def table(title, keys):
    print(f"\n{title}\n")
    print("| algorithm | p | arrangement | H100 µs | predicted | error | H200 µs | predicted | error |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for k in keys:
        a, b = rows[k]["h100"], rows[k]["h200"]
        name = k[0] if k[0] != "cky" else f"cky b={k[1]} R={k[2]}"
        print(f"| {name} | {k[3]} | {k[4]} | {a[0]:.1f} | {a[1]:.1f} | {a[2]:+.0f}% | {b[0]:.1f} | {b[1]:.1f} | {b[2]:+.0f}% |")
for alg in ("bitonic", "floyd-warshall", "montgomery"):
    table(f"**{alg}**", sorted(k for k in rows if k[0] == alg and k[3] >= 64 and rows[k]))
table("**cky, Table 7.2's axes (n = 32, p = 32: 1024 strings)**",
      sorted((k for k in rows if k[0] == "cky" and k[3] == 32), key=lambda k: (int(k[1]), int(k[2]), k[4])))
PY
