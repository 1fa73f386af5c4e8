#!/usr/bin/env python3
"""The GCD records with their kernels' instructions per memory step, for the compute steps of
`memsim gen gcd --instructions N` (docs/models.md, "Instructions"; docs/validation.md).

N = round(ncu's executed warp instructions of the kernel (traces/measured/<gpu>/ncu-profile/
gcd-raw.csv, smsp__inst_executed.sum) / the warp memory steps of its trace (global
dispatches of the record's simulation on the shipped grounded model, from the committed cache
docs/validation/grounded/<gpu>-cache.tsv)). A count of the compiled kernel, not a time: the
same binary executes the same instructions on both GPUs. Writes one record file per GPU whose
GCD records carry params.instructions = N.
  python3 bench/gcd-instruction-records.py OUTDIR [GPU ...]
"""
import csv
import json
import os
import sys


def params_key(kv):
    ob = kv.get("oblivious")
    ob = "1" if ob in (1, True, "1", "true", "True") else "0"
    return (str(kv["bits"]), ob)


def main(out, gpus):
    os.makedirs(out, exist_ok=True)
    for g in gpus:
        rows = list(csv.reader(open(f"traces/measured/{g}/ncu-profile/gcd-raw.csv")))
        idx = {k: i for i, k in enumerate(rows[0])}
        launches = list(csv.reader(open(f"traces/measured/{g}/ncu-profile/gcd-launches.csv")))[1:]
        inst = {}
        for r, l in zip(rows[2:], launches):
            kv = dict(p.split("=", 1) for p in l[3].split())
            inst[(l[2],) + params_key(kv)] = float(r[idx["smsp__inst_executed.sum"]].replace(",", ""))
        # the shipped model's simulated dispatches of each GCD record, by the report's sim params
        rep = json.load(open(f"docs/validation/grounded/{g}.json"))
        disp = {}
        cache = {}
        for line in open(f"docs/validation/grounded/{g}-cache.tsv"):
            if line.startswith("#") or "\t" not in line:
                continue
            key, vals = line.rstrip("\n").split("\t", 1)
            f = key.split("|")
            if len(f) >= 5 and f[2] == "gcd":
                cache[(f[3], f[4])] = [int(x) for x in vals.split()]
        for r in rep["records"]:
            if r["family"] != "gcd":
                continue
            v = cache.get((r["sim_algorithm"], r["sim_params"]))
            if v:
                disp[(r["algorithm"], r["params"])] = v[5]  # global.dispatches
        d = json.load(open(f"traces/measured/{g}/gcd.json"))
        for r in d["records"]:
            kv = r["params"]
            text = " ".join(f"{k}={(1 if v is True else 0 if v is False else v)}" for k, v in kv.items())
            dk = (r["algorithm"], text)
            ik = (r["algorithm"],) + params_key(kv)
            if dk not in disp or ik not in inst:
                print(f"{g}: {r['algorithm']} {text}: no dispatches or no ncu count", file=sys.stderr)
                continue
            n = round(inst[ik] / disp[dk])
            kv["instructions"] = n
            print(f"{g} {r['algorithm']:18s} {text:60s} {inst[ik]:.4g} instructions / {disp[dk]} warp steps = {n}")
        json.dump(d, open(os.path.join(out, f"gcd-{g}.json"), "w"), indent=1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:] or ["h100", "h200"])
