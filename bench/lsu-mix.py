#!/usr/bin/env python3
"""The sm-l1-shared-mix records (docs/calibration.md, "Shared and L1 reads") beside the two
stages in series of dmm_port_shared (docs/models.md): max(b G + H, G + H SS) clocks a warp
round, b the clocks of a global read alone (the median over the records without shared loads).
  python3 bench/lsu-mix.py [RECORDS.json ...]     (default: traces/measured/{h100,h200}/lsu-mix.json)
"""
import json
import statistics
import sys

files = sys.argv[1:] or ["traces/measured/h100/lsu-mix.json", "traces/measured/h200/lsu-mix.json"]
for f in files:
    d = json.load(open(f))
    recs = [r for r in d["records"] if r["algorithm"] == "sm-l1-shared-mix"]
    b = statistics.median(r["result"]["clocks_per_warp_round"] / r["params"]["global_loads"]
                          for r in recs if r["params"]["shared_loads"] == 0 and r["params"]["global_loads"] > 0)
    B = round(b)
    print(f"{f}: {d['device']['name']}, {d['date']}: {len(recs)} records, a global read alone {b:.2f} clocks (b = {B})")
    print(f"{'G':>3} {'H':>3} {'SS':>3} {'own lines':>9} {'measured':>9} {'bG + H':>7} {'G + H SS':>9} {'bound':>6} {'miss':>7}")
    for r in recs:
        p = r["params"]
        g, h, ss = p["global_loads"], p["shared_loads"], p["shared_stride"]
        c = r["result"]["clocks_per_warp_round"]
        a, s2 = B * g + h, g + h * ss
        print(f"{g:>3} {h:>3} {ss:>3} {p.get('warp_lines', 0):>9} {c:>9.2f} {a:>7} {s2:>9} {max(a, s2):>6} {100 * (max(a, s2) / c - 1):>6.1f}%")
