#!/usr/bin/env python3
"""SAT records against issue 17's targets: time of each algorithm over 2R1W's, and the
fraction of the copy's throughput (copy time / algorithm time), per n, from a record file.

    python3 bench/sat-ratios.py traces/measured/h100/sat.json [...]
"""
import json
import sys

ALGS = [("2r1w", None), ("1r1w", None), ("1+r", 0.25), ("1r1w-ordered", None),
        ("1+r-ordered", 0.25), ("1r1w-lookback", None)]

for path in sys.argv[1:]:
    with open(path) as f:
        j = json.load(f)
    t = {}
    for r in j["records"]:
        if r["workload"] == "sat" and r["verified"]:
            t[(r["algorithm"], r["params"]["n"], r["params"].get("r"))] = r["median_ns"] / 1e3
    print(f"{path}: {j['device']['name']}, commit {j['git_commit']}, {j['date']}\n")
    print("| n | copy us | " + " | ".join(
        f"{a}{' r=' + str(r) if r else ''} us (x 2r1w, % of copy)" for a, r in ALGS) + " |")
    print("| ---: | ---: |" + " ---: |" * len(ALGS))
    for n in sorted({k[1] for k in t}):
        copy, base = t.get(("copy", n, None)), t.get(("2r1w", n, None))
        if not copy:
            continue
        cells = []
        for a, r in ALGS:
            x = t.get((a, n, r))
            cells.append("-" if x is None else f"{x:.0f} ({x / base:.2f}, {100 * copy / x:.0f}%)" if base
                         else f"{x:.0f} (-, {100 * copy / x:.1f}%)")
        print(f"| {n} | {copy:.1f} | " + " | ".join(cells) + " |")
    print()
