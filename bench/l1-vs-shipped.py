#!/usr/bin/env python3
"""Per-family MAPE of two compare reports (JSON, --train none) on the records both have.

  python3 bench/l1-vs-shipped.py SHIPPED.json OTHER.json [LABEL]

Records are matched by (family, algorithm, params); a record missing from either report is
left out of both columns, and the counts say so.  Prints a markdown table."""
import json, sys
from collections import defaultdict

def load(p):
    d = json.load(open(p))
    out = {}
    for r in d['records']:
        e = r.get('rel_error')
        if e is None:
            continue
        out[(r['family'], r['algorithm'], r['params'])] = e
    return out

a, b = load(sys.argv[1]), load(sys.argv[2])
label = sys.argv[3] if len(sys.argv) > 3 else 'other'
fam = defaultdict(list)
for k in a:
    if k in b:
        fam[k[0]].append((abs(a[k]), abs(b[k])))
print(f'| family | records in both | shipped MAPE | {label} MAPE |')
print('|---|---:|---:|---:|')
alla, allb = [], []
for f in ['permutation', 'sat', 'gcd', 'bpbc', 'simple', 'bulk', 'gf2']:
    v = fam.get(f, [])
    if not v:
        continue
    alla += [x for x, _ in v]; allb += [y for _, y in v]
    print(f'| {f} | {len(v)} | {100*sum(x for x,_ in v)/len(v):.1f}% | {100*sum(y for _,y in v)/len(v):.1f}% |')
print(f'| **all** | {len(alla)} | {100*sum(alla)/len(alla):.1f}% | {100*sum(allb)/len(allb):.1f}% |')
