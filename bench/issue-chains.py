#!/usr/bin/env python3
"""The issue-rate calibration records by chains per thread (docs/calibration.md, "Fewer chains").

    python3 bench/issue-chains.py traces/measured/h100/issue-chains.json [...]

For each op (imad, alu, mixed) and chains_per_thread, the kernel's own clocks per warp
instruction (result.clocks_per_warp_instruction: clock64 in the kernel, median over blocks)
and the SM's warp instructions per clock (result.instructions_per_sm_per_clock), by warps
per SM. A record without chains_per_thread is of 8 chains (the first kernels).
"""
import collections, json, sys

for path in sys.argv[1:]:
    d = json.load(open(path))
    rows = collections.defaultdict(dict)
    warps = set()
    for r in d['records']:
        if r.get('algorithm') != 'issue-rate' or not r.get('verified'):
            continue
        p = r['params']
        key = (p['op'], int(p.get('chains_per_thread', 8)))
        w = int(p['warps_per_sm'])
        warps.add(w)
        rows[key][w] = r['result']
    ws = sorted(warps)
    print(f"{path}: {d['device']['name']}, {d['date']}")
    print()
    print('| op | chains per thread | ' + ' | '.join(f'{w} warps/SM' for w in ws) + ' |')
    print('| --- | ---: | ' + ' | '.join('---:' for _ in ws) + ' |')
    for (op, c) in sorted(rows):
        cells = []
        for w in ws:
            x = rows[(op, c)].get(w)
            cells.append(f"{x['clocks_per_warp_instruction']:.2f} / {x['instructions_per_sm_per_clock']:.2f}" if x else '-')
        print(f'| {op} | {c} | ' + ' | '.join(cells) + ' |')
    print()
