#!/usr/bin/env python3
"""The model's phases of one kernel of a trace, from `memsim run -j -s MODEL TRACE > RUN.json`.

    python3 bench/kernel-phases.py RUN.json K [K ...]

Kernel k runs from the end of kernel k - 1 (0 for the first) plus the model's launch_units;
a phase ends at each block barrier of the kernel and at its end, at the last completion of
the steps before it (+1). Printed in time units (SM clocks on the grounded models), to set
beside the GPU's MEMSIM_SAT_PHASES figures (docs/validation.md, "The SAT tile kernels, kernel
by kernel and phase by phase"). The copy of gen sat's `1+r` stage at 1K:
    memsim gen sat -a 1+r -r 0.5 -n 1024 -t 128 [--chains] -o t.json
    memsim run -j -s models/h100.json t.json > run.json; python3 bench/kernel-phases.py run.json 10
"""
import json
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    run = json.load(open(sys.argv[1]))
    want = {int(k) for k in sys.argv[2:]}
    lu = run['model'].get('launch_units', 0)
    kernels = [[]]
    for s in run['per_step']:
        if s['op'] == 'sync' and s.get('scope') == 'grid':
            kernels.append([])
        else:
            kernels[-1].append(s)
    prev_end = 0
    for k, steps in enumerate(kernels):
        start = prev_end + lu
        marks, last = [], start
        for s in steps:
            if s['op'] == 'sync':
                marks.append(last)
            elif s.get('last_complete', -1) >= 0:
                last = max(last, s['last_complete'] + 1)
        if k in want:
            ph, p = [], start
            for m in marks + [last]:
                ph.append(m - p)
                p = m
            print(f"kernel {k}: starts at {start}, phases {' / '.join(map(str, ph))}, {last - start} in all")
        prev_end = last


if __name__ == '__main__':
    main()
