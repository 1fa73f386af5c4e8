#!/usr/bin/env python3
"""Where the GCD kernels' time goes, per warp: executed instructions against memory requests.

For each GCD record of the grounded reports (docs/validation/grounded/<gpu>.json) this puts
the kernel's executed warp instructions (ncu's smsp__inst_executed.sum, from the committed
profiles traces/measured/<gpu>/ncu-profile/gcd-raw.csv) beside its trace's requests:
  instr/req   warp instructions per request of a thread (= per warp memory step);
  GPU clk/req the measured time in SM clocks per request of a thread (every warp runs the
              whole time: one thread per instance, all warps resident from the start);
  clk/instr   GPU clocks per executed instruction of one warp;
  model clk/req  the model's time units per request.
Counts and times only (no fit). Usage: python3 bench/gcd-instructions.py [GPU ...]
"""
import csv
import json
import sys


def params_key(text):
    kv = dict(p.split("=", 1) for p in text.split())
    ob = kv.get("oblivious")
    ob = "1" if ob in ("1", "true", "True") else "0"
    return (kv["bits"], ob)


def main(gpus):
    for g in gpus:
        rep = json.load(open(f"docs/validation/grounded/{g}.json"))
        tu = rep["model"]["time_unit_ns"] if isinstance(rep.get("model"), dict) and "time_unit_ns" in rep["model"] else None
        if tu is None:
            tu = json.load(open(f"models/{g}.json"))["time_unit_ns"]
        rows = list(csv.reader(open(f"traces/measured/{g}/ncu-profile/gcd-raw.csv")))
        idx = {k: i for i, k in enumerate(rows[0])}
        launches = list(csv.reader(open(f"traces/measured/{g}/ncu-profile/gcd-launches.csv")))[1:]
        inst = {}
        for r, l in zip(rows[2:], launches):
            inst[(l[2],) + params_key(l[3])] = float(r[idx["smsp__inst_executed.sum"]].replace(",", ""))
        print(f"\n{g} (time unit {tu:.6f} ns = one SM clock)\n")
        print("| algorithm | bits | oblivious | instr/req | GPU clk/req | clk/instr | model clk/req | error |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for r in rep["records"]:
            if r["family"] != "gcd" or r.get("predicted_ns") is None:
                continue
            key = (r["algorithm"],) + params_key(r["params"])
            if key not in inst:
                continue
            kv = dict(p.split("=", 1) for p in r["params"].split())
            threads = int(kv["instances"])
            warps = threads / 32
            req = r["requests"] / threads  # requests of one thread = memory steps of its warp
            ipr = inst[key] / warps / req
            gpu_clk = r["measured_ns"] / tu / req
            model_clk = r["time_units"] / req
            print(f"| {r['algorithm']} | {kv['bits']} | {key[2]} | {ipr:.1f} | {gpu_clk:.1f} | "
                  f"{gpu_clk / ipr:.2f} | {model_clk:.1f} | {100 * r['rel_error']:+.1f}% |")


if __name__ == "__main__":
    main(sys.argv[1:] or ["h100", "h200"])
