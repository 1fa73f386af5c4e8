#!/usr/bin/env python3
"""A record's timed median beside ncu's duration of the same record's profiled call.

    python3 bench/record-vs-ncu.py FAMILY [GPU ...]      (e.g. gf2 h100 h200)

ncu's range duration (gpu__time_duration.sum, kernels/ncu-profile.sh, range replay) adds the
profiler's own time per launch, so the ratio timed / ncu sits below 1 and rises towards 1 as
the kernels grow. A record far off its neighbours' ratio, or off the other GPU's, was timed
under conditions the profiled call did not have. Reads traces/measured/<gpu>/<FAMILY>.json
and traces/measured/<gpu>/ncu-profile/<FAMILY>-raw.csv and -launches.csv; prints a markdown
table. Every number comes from the committed files.
"""
import csv
import json
import sys


def main(fam, gpus):
    ncu, rec = {}, {}
    for g in gpus:
        rows = list(csv.reader(open(f"traces/measured/{g}/ncu-profile/{fam}-raw.csv")))
        idx = {k: i for i, k in enumerate(rows[0])}
        launches = list(csv.reader(open(f"traces/measured/{g}/ncu-profile/{fam}-launches.csv")))[1:]
        for r, l in zip(rows[2:], launches):
            key = (l[2], frozenset(l[3].split()))
            ncu[g, key] = float(r[idx["gpu__time_duration.sum"]].replace(",", ""))
        for r in json.load(open(f"traces/measured/{g}/{fam}.json"))["records"]:
            if r.get("workload") != fam:
                continue
            key = (r["algorithm"], frozenset(f"{k}={str(v).lower()}" for k, v in r["params"].items()))
            rec[g, key] = (r["median_ns"], " ".join(f"{k}={v}" for k, v in r["params"].items()))
    print("| algorithm | params | " + " | ".join(f"{g} timed us | {g} ncu us | {g} ratio" for g in gpus) + " |")
    print("| --- | --- |" + " ---: | ---: | ---: |" * len(gpus))
    for (g, key), (ns, text) in rec.items():
        if g != gpus[0]:
            continue
        cells = []
        for h in gpus:
            t = rec.get((h, key), (None,))[0]
            n = ncu.get((h, key))
            cells.append(f"{t / 1e3:.1f} | {n / 1e3:.1f} | {t / n:.3f}" if t and n else "- | - | -")
        print(f"| {key[0]} | {text} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:] or ["h100", "h200"])
