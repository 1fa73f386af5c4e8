#!/usr/bin/env python3
"""Share of the copy's throughput (copy time / look-back time, same run) of every
look-back variant in the tuning logs: python3 bench/lb-tuning/summary.py [DIR ...]
(default: bench/lb-tuning/logs/*). Variant numbers are those of the binary that ran
(bench/lb-tuning/README.md); unverified records are the diagnostics (wrong sums)."""
import glob, json, os, re, sys

dirs = sys.argv[1:] or sorted(glob.glob(os.path.join(os.path.dirname(__file__), "logs", "*")),
                              key=lambda d: (re.sub(r"\d+", "", os.path.basename(d)), int(re.sub(r"\D", "", os.path.basename(d)) or 0)))
for d in dirs:
    rows = []
    for f in sorted(glob.glob(os.path.join(d, "v*.json")), key=lambda f: int(re.sub(r"\D", "", os.path.basename(f)))):
        j = json.load(open(f))
        t = {(r["algorithm"], r["params"]["n"]): r for r in j["records"]}
        cells = []
        for n in sorted({k[1] for k in t}):
            c, l = t.get(("copy", n)), t.get(("1r1w-lookback", n))
            if c and l:
                cells.append(f"n={n}: {l['median_ns'] / 1e3:.1f} us, {100 * c['median_ns'] / l['median_ns']:.1f}%"
                             + ("" if l["verified"] else " (unverified)"))
        rows.append(f"  {os.path.basename(f)[:-5]:>4}  " + "; ".join(cells))
        dev = f"{j['device']['name']}, {j['date']}"
    print(f"{os.path.basename(d)} ({dev})")
    print("\n".join(rows))
