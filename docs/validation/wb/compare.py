#!/usr/bin/env python3
"""docs/validation/wb/shipped-vs-wb.txt: the records with a result under both the shipped
grounded models (docs/validation/grounded/<gpu>.json) and the posted-write-back models
(docs/validation/wb/<gpu>.json), MAPE per family, and the records that moved most.
Usage: python3 docs/validation/wb/compare.py > docs/validation/wb/shipped-vs-wb.txt"""
import json
for g in ["h100", "h200"]:
    new = json.load(open(f"docs/validation/wb/{g}.json"))
    old = json.load(open(f"docs/validation/grounded/{g}.json"))
    def recs(d):
        return {(r["family"], r["algorithm"], r["params"]): r for r in d["records"] if r.get("rel_error") is not None}
    N, O = recs(new), recs(old)
    keys = [k for k in N if k in O]
    fams = {}
    for k in keys:
        fams.setdefault(k[0], []).append(k)
    print(f"## {g}: {len(keys)} records with a result under both models")
    mape = lambda D, ks: sum(abs(D[k]["rel_error"]) for k in ks) / len(ks) * 100
    for f, ks in fams.items():
        print(f"{f}: {len(ks)} records, MAPE shipped {mape(O, ks):.1f}% -> wb {mape(N, ks):.1f}%")
    print(f"all: {len(keys)} records, MAPE shipped {mape(O, keys):.1f}% -> wb {mape(N, keys):.1f}%")
    for k in sorted(keys, key=lambda k: -abs(abs(N[k]["rel_error"]) - abs(O[k]["rel_error"])))[:14]:
        print(f"  {k[0]} {k[1]} {k[2][:60]}: {O[k]['rel_error']*100:+.0f}% -> {N[k]['rel_error']*100:+.0f}%")
    print(f"  records without a wb result: {len([k for k in O if k not in N])}")
