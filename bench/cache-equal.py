#!/usr/bin/env python3
"""Compare two `memsim compare --cache` files result by result.

    python3 bench/cache-equal.py REFERENCE.tsv OTHER.tsv

Prints how many of OTHER's results equal REFERENCE's to the unit (every counter of the
line), differ, or are absent from REFERENCE, and lists the first differences; exits 1 if any
result differs.  Use it to check that an engine change left every simulated record as it
was (e.g. a fresh full-size validation against the committed caches of
docs/validation/grounded/)."""
import sys


def load(path):
    out = {}
    with open(path) as f:
        for line in f:
            if line.startswith('#') or '\t' not in line:
                continue
            key, vals = line.rstrip('\n').split('\t', 1)
            out[key] = vals
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    ref, other = load(sys.argv[1]), load(sys.argv[2])
    same = [k for k in other if k in ref and ref[k] == other[k]]
    diff = [k for k in other if k in ref and ref[k] != other[k]]
    absent = [k for k in other if k not in ref]
    print('%s: %d results; %d equal to %s, %d differ, %d not in it; %d of its %d not in %s'
          % (sys.argv[2], len(other), len(same), sys.argv[1], len(diff), len(absent),
             sum(1 for k in ref if k not in other), len(ref), sys.argv[2]))
    for k in diff[:10]:
        print('  differs: %s\n    %s\n    %s' % ('|'.join(k.split('|')[2:]), ref[k], other[k]))
    sys.exit(1 if diff else 0)


if __name__ == '__main__':
    main()
