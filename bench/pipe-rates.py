#!/usr/bin/env python3
"""What each record's SMs issued, per pipe, against the issue limit's figures.

    python3 bench/pipe-rates.py [PROFILE_DIR] [GPU ...]

PROFILE_DIR (default traces/measured/h100/ncu-profile/pipes, bench/pipe-profile.sh) holds
<family>-raw.csv with smsp__inst_executed.sum and the smsp__inst_executed_pipe_* counters.
The counts are the compiled kernels', the same on both GPUs; each record's time is its
median from traces/measured/<gpu>/<family>.json. Prints per record the warp instructions
issued per SM per clock (sm_count and the SM clock of the record file's device header) in
all and on the alu, fma and lsu pipes, beside the calibration's figures (issue.json: 2 per
SM per clock on one pipe, 3.81 on two). Every number comes from the committed files.
"""
import csv
import json
import os
import sys

FAMILIES = ("gcd", "simple", "gf2")


def load(pdir, fam):
    path = os.path.join(pdir, f"{fam}-raw.csv")
    if not os.path.exists(path):
        return {}
    rows = list(csv.reader(open(path)))
    idx = {k: i for i, k in enumerate(rows[0])}
    launches = list(csv.reader(open(os.path.join(pdir, f"{fam}-launches.csv"))))[1:]

    def val(r, m):
        i = idx.get(m)
        return float(r[i].replace(",", "") or 0) if i is not None else 0.0

    out = {}
    for r, l in zip(rows[2:], launches):
        key = (l[2], frozenset(l[3].split()))
        out[key] = [val(r, "smsp__inst_executed.sum")] + [
            val(r, f"smsp__inst_executed_pipe_{p}.sum") for p in ("alu", "fma", "lsu")]
    return out


def norm(v):
    return str(v).lower()


def main(pdir, gpus):
    for g in gpus:
        for fam in FAMILIES:
            counts = load(pdir, fam)
            rec_path = f"traces/measured/{g}/{fam}.json"
            if not counts or not os.path.exists(rec_path):
                continue
            d = json.load(open(rec_path))
            dev = d.get("device", {})
            sms = dev.get("sm_count", 132)
            mhz = dev.get("sm_clock_mhz", 1980)
            print(f"## {g} {fam} ({d.get('device', {}).get('name', '?')}, {sms} SMs, {mhz} MHz)")
            print("| algorithm | params | us | all | alu | fma | lsu |")
            print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
            for r in d["records"]:
                if r.get("workload") != fam:
                    continue
                key = (r["algorithm"], frozenset(f"{k}={norm(v)}" for k, v in r["params"].items()))
                c = counts.get(key)
                if not c:
                    continue
                clocks = r["median_ns"] * mhz / 1000.0 * sms
                p = " ".join(f"{k}={v}" for k, v in r["params"].items())
                print(f"| {r['algorithm']} | {p} | {r['median_ns'] / 1000:.1f} | "
                      + " | ".join(f"{x / clocks:.2f}" for x in c) + " |")
            print()


if __name__ == "__main__":
    a = sys.argv[1:]
    pdir = "traces/measured/h100/ncu-profile/pipes"
    if a and os.path.isdir(a[0]):
        pdir, a = a[0], a[1:]
    main(pdir, a or ["h100", "h200"])
