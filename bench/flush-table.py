#!/usr/bin/env python3
"""Records timed as usual (warm: each call after the last) beside the same records timed with
the L2 flushed before every call (MEMSIM_FLUSH_L2), the committed record and the shipped
model's prediction (docs/validation/grounded/<gpu>.json).

    python3 bench/flush-table.py DIR [GPU]

DIR holds warm-*.json and flushed-*.json (bench/logs/2026-11-28g/go-flush.sh,
go-flush-pairwise.sh); GPU defaults to h200.  Prints a markdown table: per record the medians
of the warm and of the flushed recordings (the lower middle of an even count), flushed / warm,
and the model's error against the committed record, the warm and the flushed calls."""
import glob
import json
import sys


def key(alg, params):
    return (alg, tuple(sorted((k, str(v)) for k, v in params.items())))


def medians(paths):
    out = {}
    for p in paths:
        for r in json.load(open(p))['records']:
            out.setdefault(key(r['algorithm'], r['params']), []).append(r['median_ns'])
    return {k: sorted(v)[(len(v) - 1) // 2] for k, v in out.items()}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    d, gpu = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else 'h200'
    warm = medians(sorted(glob.glob(d + '/warm-*.json')))
    flushed = medians(sorted(glob.glob(d + '/flushed-*.json')))
    rep = json.load(open('docs/validation/grounded/%s.json' % gpu))
    rows = []
    for r in rep['records']:
        if r.get('rel_error') is None:
            continue
        p = dict(kv.split('=', 1) for kv in r['params'].split())
        for drop in ('seed',):
            p.pop(drop, None)
        k = key(r['algorithm'], p)
        if k in warm and k in flushed:
            rows.append((k, r))
    print('| algorithm | params | committed ns | warm ns | flushed ns | flushed / warm | model ns | model vs committed | vs warm | vs flushed |')
    print('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
    for k, r in rows:
        w, f, m = warm[k], flushed[k], r['predicted_ns']
        print('| %s | %s | %.0f | %.0f | %.0f | %.2f | %.0f | %+.1f%% | %+.1f%% | %+.1f%% |' %
              (k[0], r['params'], r['measured_ns'], w, f, f / w, m, 100 * r['rel_error'], 100 * (m / w - 1),
               100 * (m / f - 1)))


if __name__ == '__main__':
    main()
