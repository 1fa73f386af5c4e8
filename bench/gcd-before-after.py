#!/usr/bin/env python3
# bench/gcd-before-after.py: the bulk GCD kernels before and after the one-pass rework
# (kernels/gcd_passes.h): median ns of traces/measured/<gpu>/measurements.json and
# supplement.json (the old kernels) against gcd.json (2026-11-24), as markdown tables.
import json,sys
for g in ['h100','h200']:
    old={}
    for f in ['measurements.json','supplement.json']:
        for r in json.load(open(f'traces/measured/{g}/{f}'))['records']:
            if r['workload']=='gcd':
                p=r['params']; old[(r['algorithm'],p['bits'],p['oblivious'])]=r['median_ns']
    new=json.load(open(f'traces/measured/{g}/gcd.json'))
    print(f'{g}: {new["device"]["name"]}, {new["date"]}')
    print('| algorithm | bits | inputs | before µs | after µs | speed-up |')
    print('|---|---:|---|---:|---:|---:|')
    for r in new['records']:
        p=r['params']; k=(r['algorithm'],p['bits'],p['oblivious'])
        o=old.get(k)
        print(f"| {r['algorithm']} | {p['bits']} | {'oblivious' if p['oblivious'] else 'own pair'} | {o/1e3:.1f} | {r['median_ns']/1e3:.1f} | {o/r['median_ns']:.2f}× |" if o else f"| {r['algorithm']} | {p['bits']} | - | - | {r['median_ns']/1e3:.1f} | - |")
