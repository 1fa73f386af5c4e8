#!/usr/bin/env python3
"""A record's kernels, one by one: the GPU's time per launch beside the model's time per kernel.

  python3 bench/kernel-times.py medians LOG.tsv -o MEDIANS.tsv
      LOG.tsv: memsim-measure's per-launch log (MEMSIM_KERNEL_LOG=LOG.tsv, one line per kernel
      of every kept call); writes the median duration of each launch of each record over its calls.
  python3 bench/kernel-times.py compare MEDIANS.tsv ALGORITHM "PARAMS" RUN.json [--ns-per-unit X]
      RUN.json: `memsim run -j -s MODEL TRACE` of the record's trace; the model's kernel i is
      the time from the end of kernel i - 1 (or 0) to the last completion before grid barrier
      i, its launch units included, as the GPU's duration of launch i includes its start.
      X defaults to the model's time_unit_ns.

The record's time in measurements.json is the sum of its kernels' durations (not the span,
which holds the host's launch gaps), so the per-kernel figures add up to what the
validation compares.
"""
import argparse, collections, csv, json, statistics, sys


def medians(args):
    by = collections.OrderedDict()
    for r in csv.DictReader(open(args.log), delimiter='\t'):
        k = (r['workload'], r['algorithm'], r['params'], int(r['launch']))
        e = by.setdefault(k, {'kernel': r['kernel'], 'grid': r['grid'], 'block': r['block'], 'ns': []})
        e['ns'].append(int(r['ns']))
    out = open(args.output, 'w') if args.output else sys.stdout
    out.write('workload\talgorithm\tparams\tlaunch\tkernel\tgrid\tblock\tcalls\tmedian_ns\n')
    for (w, a, p, i), e in by.items():
        out.write(f"{w}\t{a}\t{p}\t{i}\t{e['kernel']}\t{e['grid']}\t{e['block']}\t{len(e['ns'])}\t"
                  f"{statistics.median(e['ns']):.0f}\n")


def model_kernels(run):
    ends, cur = [], 0
    for s in run['per_step']:
        if s['op'] == 'sync' and s.get('scope') == 'grid':
            ends.append(cur)
            continue
        if s.get('last_complete', -1) >= 0:
            cur = max(cur, s['last_complete'] + 1)
    ends.append(cur)
    ends[-1] = max(ends[-1], run['time_units'])
    out, prev = [], 0
    for e in ends:
        out.append(e - prev)
        prev = e
    return out


def compare(args):
    run = json.load(open(args.run))
    ns = args.ns_per_unit or float(run['model'].get('time_unit_ns', 1.0))
    mk = model_kernels(run)
    gpu = [r for r in csv.DictReader(open(args.medians), delimiter='\t')
           if r['algorithm'] == args.algorithm and r['params'] == args.params]
    gpu.sort(key=lambda r: int(r['launch']))
    if not gpu:
        sys.exit(f"kernel-times.py: no launches of {args.algorithm} {args.params} in {args.medians}")
    if len(gpu) != len(mk):
        print(f"note: {len(gpu)} GPU launches, {len(mk)} model kernels", file=sys.stderr)
    print(f"| launch | kernel | grid | GPU us | model us | error |")
    print(f"| ---: | --- | ---: | ---: | ---: | ---: |")
    tg = tm = 0.0
    for i in range(max(len(gpu), len(mk))):
        g = float(gpu[i]['median_ns']) if i < len(gpu) else 0.0
        m = mk[i] * ns if i < len(mk) else 0.0
        tg += g
        tm += m
        err = f"{(m / g - 1) * 100:+.1f}%" if g else "-"
        name = gpu[i]['kernel'] if i < len(gpu) else '-'
        grid = gpu[i]['grid'] if i < len(gpu) else '-'
        print(f"| {i} | {name} | {grid} | {g / 1e3:.2f} | {m / 1e3:.2f} | {err} |")
    print(f"| all | | | {tg / 1e3:.1f} | {tm / 1e3:.1f} | {(tm / tg - 1) * 100:+.1f}% |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='verb', required=True)
    a = sub.add_parser('medians')
    a.add_argument('log')
    a.add_argument('-o', '--output')
    b = sub.add_parser('compare')
    b.add_argument('medians')
    b.add_argument('algorithm')
    b.add_argument('params')
    b.add_argument('run')
    b.add_argument('--ns-per-unit', type=float)
    args = ap.parse_args()
    medians(args) if args.verb == 'medians' else compare(args)


if __name__ == '__main__':
    main()
