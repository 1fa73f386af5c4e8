#!/usr/bin/env python3
"""How much of the grounded models' miss is instruction issue, record by record.

    python3 bench/issue-bound.py [-o docs/validation/issue-bound.md] [GPU ...]

memsim's traces hold a kernel's memory requests, not its instructions. This script sets,
beside each grounded prediction (docs/validation/grounded/<gpu>.json), the time the
kernel's instructions alone need: ncu's smsp__inst_executed.sum of the same record
(traces/measured/<gpu>/ncu-profile/, kernels/ncu-profile.sh) issued at one warp
instruction per clock on each of the 4 schedulers of every SM the kernel occupies (Hopper's
issue rate, an architectural figure, not measured here), at the model's clock
(time_unit_ns). That is a lower bound on the kernel's time, as the model's memory time is.
It prints, per family, the MAPE of the model, the share of records whose issue bound
exceeds the prediction, and the MAPE of max(model, issue bound): an analysis of what an
instruction term could give, not a prediction memsim makes (the instruction counts are
measured on the very kernels judged; a trace does not have them). Every number comes from
the committed files.
"""
import importlib.util
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
spec = importlib.util.spec_from_file_location("ncutable", os.path.join(HERE, "ncu-table.py"))
ncut = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ncut)

ISSUE_PER_SM_CLOCK = 4  # 4 SMSPs per SM, one warp instruction each per clock (sm_90)
WORKLOADS = ("bpbc", "bulk", "gcd", "gf2", "permutation", "sat", "simple")
# Profile sets in the order read: a later set's record replaces an earlier one's (a reworked
# kernel profiled again: sat-lookback, 2026-11-26, after sat).
PROFILES = ("bpbc", "bulk", "gcd", "gf2", "permutation", "sat", "sat-lookback", "simple")


def norm(params):
    """A params text with booleans as 0/1 and keys sorted, so both sides compare."""
    out = []
    for kv in params.split():
        k, _, v = kv.partition("=")
        v = {"true": "1", "false": "0"}.get(v, v)
        out.append(f"{k}={v}")
    return " ".join(sorted(out))


def blocks_used(family, params, sms):
    """SMs the kernel can occupy: its blocks when fewer than the SMs (bulk p / tpb)."""
    vals = dict(kv.split("=", 1) for kv in params.split() if "=" in kv)
    if family == "bulk" and "p" in vals and "threads_per_block" in vals:
        return max(1, min(sms, math.ceil(int(vals["p"]) / int(vals["threads_per_block"]))))
    if family == "gcd" and "instances" in vals:  # kernels/gcd.cu: 128 threads per block
        return max(1, min(sms, math.ceil(int(vals["instances"]) / 128)))
    return sms


def analyse(gpu):
    mdir = os.path.join(ROOT, "traces", "measured", gpu)
    ndir = os.path.join(mdir, "ncu-profile")
    timed = ncut.timed_records(mdir)
    inst = {}
    for wl in PROFILES:
        if not os.path.exists(os.path.join(ndir, wl + "-raw.csv")):
            continue
        for f in ncut.records(ndir, wl, timed):
            inst[(f["workload"], f["algorithm"], norm(f["params"]))] = f["smsp__inst_executed.sum"]
    with open(os.path.join(ROOT, "docs", "validation", "grounded", gpu + ".json")) as fh:
        val = json.load(fh)
    with open(os.path.join(ROOT, "models", gpu + ".json")) as fh:
        model = json.load(fh)
    sms, tu = model["dmms"], model["time_unit_ns"]
    rows = []
    for r in val["records"]:
        if r.get("predicted_ns") is None or not r.get("measured_ns"):
            continue
        n = inst.get((r["family"], r["algorithm"], norm(r["params"])))
        if not n:
            continue
        used = blocks_used(r["family"], r["params"], sms)
        issue_ns = n / (ISSUE_PER_SM_CLOCK * used) * tu
        rows.append(dict(family=r["family"], algorithm=r["algorithm"], params=r["params"],
                         measured=r["measured_ns"], model=r["predicted_ns"], issue=issue_ns,
                         inst=n, sms=used))
    return val, rows


def err(p, m):
    return (p - m) / m


def mape(xs):
    return 100 * sum(abs(x) for x in xs) / len(xs) if xs else float("nan")


def report(gpu, val, rows):
    out = [f"## {gpu}", "",
           f"{len(rows)} records of `docs/validation/grounded/{gpu}.json` have an ncu instruction count "
           f"(of {sum(1 for r in val['records'] if r.get('predicted_ns') is not None)} with a prediction).", "",
           "| family | records | model MAPE | issue bound above the model | max(model, issue) MAPE | issue bound alone MAPE |",
           "| --- | ---: | ---: | ---: | ---: | ---: |"]
    fams = sorted({r["family"] for r in rows}) + ["all"]
    for fam in fams:
        rs = [r for r in rows if fam == "all" or r["family"] == fam]
        above = sum(1 for r in rs if r["issue"] > r["model"])
        out.append(f"| {fam} | {len(rs)} | {mape([err(r['model'], r['measured']) for r in rs]):.1f}% | {above} | "
                   f"{mape([err(max(r['model'], r['issue']), r['measured']) for r in rs]):.1f}% | "
                   f"{mape([err(r['issue'], r['measured']) for r in rs]):.1f}% |")
    out += ["", "Records where the model misses by more than 25% (model, issue bound, measured; µs):", "",
            "| family | algorithm | params | SMs used | warp instructions | model | issue bound | measured | model error | max(model, issue) error |",
            "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in sorted(rows, key=lambda r: -abs(err(r["model"], r["measured"]))):
        if abs(err(r["model"], r["measured"])) <= 0.25:
            continue
        out.append(f"| {r['family']} | {r['algorithm']} | {r['params']} | {r['sms']} | {r['inst']:.3g} | "
                   f"{r['model'] / 1e3:.1f} | {r['issue'] / 1e3:.1f} | {r['measured'] / 1e3:.1f} | "
                   f"{100 * err(r['model'], r['measured']):+.0f}% | "
                   f"{100 * err(max(r['model'], r['issue']), r['measured']):+.0f}% |")
    return out


def main(argv):
    global ISSUE_PER_SM_CLOCK
    outpath = None
    while len(argv) >= 2 and argv[0] in ("-o", "--rate"):
        if argv[0] == "-o":
            outpath = argv[1]
        else:  # warp instructions per SM per clock: 2 is one integer pipe's (traces/measured/<gpu>/issue.json)
            ISSUE_PER_SM_CLOCK = int(argv[1])
        argv = argv[2:]
    gpus = argv or ["h100", "h200"]
    lines = ["# Instruction issue beside the grounded models (generated)", "",
             "Made by `python3 bench/issue-bound.py -o docs/validation/issue-bound.md` from the committed",
             "grounded reports and ncu profiles; see the script's header for the rule. The issue bound",
             f"is inst_executed / ({ISSUE_PER_SM_CLOCK} x SMs used) clocks at the model's clock.", ""]
    for g in gpus:
        val, rows = analyse(g)
        lines += report(g, val, rows) + [""]
    text = "\n".join(lines)
    if outpath:
        with open(outpath, "w") as fh:
            fh.write(text)
    else:
        print(text)


if __name__ == "__main__":
    main(sys.argv[1:])
