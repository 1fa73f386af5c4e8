#!/usr/bin/env python3
"""Records with their kernels' instructions per memory step, for compute steps (docs/models.md,
"Instructions"; docs/validation.md, "instructions with the L1").

N = round(ncu's executed warp instructions of the record's kernels (the committed profiles
traces/measured/<gpu>/ncu-profile/<family>-raw.csv, smsp__inst_executed.sum, matched to the
records through <family>-launches.csv) / the warp memory steps of its trace (global and
shared dispatches of the record's simulation on the shipped grounded model, from the committed
cache docs/validation/grounded/<gpu>-cache.tsv)). A count of the compiled kernel, not a time:
the same binary executes the same instructions on both GPUs. Writes OUTDIR/<family>-<gpu>.json,
the family's record file whose records carry params.instructions = N (`memsim gen gcd
--instructions`, and `memsim compare` for every family, put a compute step of N before each
memory step).
  python3 bench/instruction-records.py [--profile DIR] FAMILY OUTDIR [GPU ...]      (FAMILY: gcd, bulk, simple or gf2)
--profile DIR takes the counts from DIR/<family>-raw.csv and -launches.csv for every GPU instead
(the same binary executes the same instructions on both GPUs). The GCD needs it: its committed
profiles (commit 426a4f6) predate the one-pass GCD kernels that gcd.json timed (9ce4391), and
their counts are 0.89-1.28x the recorded kernels'; traces/measured/h100/ncu-profile/pipes/ holds
the recorded kernels' counts (2026-11-27).
"""
import csv
import json
import os
import sys

FILES = {"gcd": "gcd.json", "bulk": "bulk.json", "simple": "simple.json", "gf2": "gf2.json"}


def norm(v):
    return 1 if v in (True, "true", "True") else 0 if v in (False, "false", "False") else v


def key_of(alg, kv):
    return (alg,) + tuple(sorted((k, str(norm(v)).lower()) for k, v in kv.items() if k != "instructions"))


def main(fam, out, gpus, profile=None):
    os.makedirs(out, exist_ok=True)
    for g in gpus:
        pdir = profile or f"traces/measured/{g}/ncu-profile"
        rows = list(csv.reader(open(f"{pdir}/{fam}-raw.csv")))
        idx = {k: i for i, k in enumerate(rows[0])}
        launches = list(csv.reader(open(f"{pdir}/{fam}-launches.csv")))[1:]
        inst = {}
        for r, l in zip(rows[2:], launches):
            kv = dict(p.split("=", 1) for p in l[3].split())
            k = key_of(l[2], kv)
            inst[k] = inst.get(k, 0.0) + float(r[idx["smsp__inst_executed.sum"]].replace(",", ""))
        rep = json.load(open(f"docs/validation/grounded/{g}.json"))
        cache = {}
        for line in open(f"docs/validation/grounded/{g}-cache.tsv"):
            if line.startswith("#") or "\t" not in line:
                continue
            k, vals = line.rstrip("\n").split("\t", 1)
            f = k.split("|")
            if len(f) >= 6 and f[2] == fam:
                cache[(f[3], f[4], f[5])] = [int(x) for x in vals.split()]
        disp = {}
        for r in rep["records"]:
            if r["family"] != fam:
                continue
            v = cache.get((r["sim_algorithm"], r["sim_params"], r.get("sim_shape", "")))
            if v:  # shared.dispatches + global.dispatches: the warp memory steps
                disp[key_of(r["algorithm"], dict(p.split("=", 1) for p in r["params"].split()))] = v[2] + v[5]
        d = json.load(open(f"traces/measured/{g}/{FILES[fam]}"))
        d["records"] = [r for r in d["records"] if r.get("workload") == fam]
        for r in d["records"]:
            k = key_of(r["algorithm"], r["params"])
            if k not in disp or k not in inst:
                print(f"{g}: {r['algorithm']} {r['params']}: no dispatches or no ncu count", file=sys.stderr)
                continue
            n = max(1, round(inst[k] / disp[k]))
            r["params"]["instructions"] = n
            print(f"{g} {r['algorithm']:18s} {json.dumps(r['params'])[:90]:90s} {inst[k]:.4g} / {disp[k]} = {n}")
        json.dump(d, open(os.path.join(out, f"{fam}-{g}.json"), "w"), indent=1)


if __name__ == "__main__":
    a = sys.argv[1:]
    prof = None
    if len(a) >= 2 and a[0] == "--profile":
        prof, a = a[1], a[2:]
    if len(a) < 2 or a[0] not in FILES:
        sys.exit(__doc__)
    main(a[0], a[1], a[2:] or ["h100", "h200"], prof)
