#!/usr/bin/env python3
"""SAT records at 1K-4K recorded as usual (warm: each call after the last) and with the L2
flushed before every call (MEMSIM_FLUSH_L2), beside the committed record and the shipped
model's prediction (docs/validation/grounded/<gpu>.json).

    python3 bench/sat-flush.py DIR [GPU]

DIR holds warm-*.json and flushed-*.json (bench/logs/2026-11-28g/go-flush.sh); GPU defaults
to h200.  Prints a markdown table: per record the medians of the warm and flushed recordings,
flushed / warm, and the model's error against the committed record and against the flushed
calls."""
import glob
import json
import sys


def medians(paths):
    out = {}
    for p in paths:
        for r in json.load(open(p))['records']:
            k = (r['algorithm'], r['params']['n'], r['params'].get('r'))
            out.setdefault(k, []).append(r['median_ns'])
    return {k: sorted(v)[len(v) // 2] for k, v in out.items()}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    d, gpu = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else 'h200'
    warm = medians(sorted(glob.glob(d + '/warm-*.json')))
    flushed = medians(sorted(glob.glob(d + '/flushed-*.json')))
    rep = json.load(open('docs/validation/grounded/%s.json' % gpu))
    print('| algorithm | n | r | committed ns | warm ns | flushed ns | flushed / warm | model ns | model vs committed | model vs flushed |')
    print('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
    rows = []
    for r in rep['records']:
        if r['family'] != 'sat' or r.get('rel_error') is None:
            continue
        p = dict(kv.split('=') for kv in r['params'].split())
        k = (r['algorithm'], int(p['n']), float(p['r']) if 'r' in p else None)
        if k in warm and k in flushed:
            rows.append((k, r))
    for k, r in sorted(rows, key=lambda x: (x[0][1], x[0][0], x[0][2] or 0)):
        w, f, m = warm[k], flushed[k], r['predicted_ns']
        print('| %s | %d | %s | %.0f | %.0f | %.0f | %.2f | %.0f | %+.1f%% | %+.1f%% |' %
              (k[0], k[1], '' if k[2] is None else k[2], r['measured_ns'], w, f, f / w, m, 100 * r['rel_error'], 100 * (m / f - 1)))


if __name__ == '__main__':
    main()
