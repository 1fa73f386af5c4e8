#!/usr/bin/env python3
"""The pairwise sums' L2 transition under a warm cache: a first-order estimate, not a prediction.

The validation's records are medians of repeated calls, so a call starts with the L2 that
the call before left.  memsim's L2 does not: a trace whose global_words fit l2_words runs in
L2 (every access a hit), any larger one through a cold cache (docs/models.md, "The L2
cache").  The pairwise sums (bpbc, 2^22 instances, k = 1 .. 32) cross l2_words at k = 30
(H100), and the model jumps there from 0.5x to 1.15x the GPU's time while the GPU's own
time rises gradually from k = 21 (H100) and k = 25 (H200) (docs/validation.md).

This script asks what the model's own cache would keep between calls.  A pairwise-sum call
streams its footprint once (each word read or written by one thread, in one pass), so in
steady state under LRU a cache set holds all of its lines from call to call if at most
l2_ways of them map to it, and none (each is evicted before its next use) if more do.  It
maps every 128-byte line of the footprint to its set exactly as the engine does (hashed
sets, ms_l2_hash; the partition of the line's block, block b in partition b mod
l2_partitions; sets per partition = l2_words / l2_line_words / l2_ways / partitions) and
counts the lines in sets that do not overflow: the steady hit share h.  The estimate mixes
the model's own two times for the record, in L2 (t_fit: the model with l2_words 2^40) and
from a cold cache (t_cold: l2_words a quarter of the footprint), t = t_fit + (1 - h)
(t_cold - t_fit), and sets it beside the GPU's median.

    python3 bench/l2-steady-state.py [MEMSIM] [GPU ...]   (default build-release/sim/memsim, h100 h200)

The hit shares agree with the engine's own warm run to the third digit; the linear mix does
not: in the model the L2 pipeline and DRAM overlap, so an actual warm run is much faster than
the mix (docs/validation.md, "A warm L2 between calls").  Read the mix as an upper bound.

It runs `memsim compare --train none` on the pairwise-sum records of
traces/measured/<gpu>/measurements.json with the two model variants (about 1 s a record).
"""
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter

M64 = (1 << 64) - 1


def l2_hash(x):
    """ms_l2_hash (sim/include/memsim.h): the 64-bit finalizer of MurmurHash3."""
    x ^= x >> 33
    x = (x * 0xFF51AFD7ED558CCD) & M64
    x ^= x >> 33
    x = (x * 0xC4CEB9FE1A85EC53) & M64
    x ^= x >> 33
    return x


def steady_hit(model, k, G, block_threads):
    """Share of the footprint's lines held from call to call (sets with <= l2_ways lines)."""
    lw = model["l2_line_words"]
    parts = model.get("l2_partitions", 1)
    ways = model["l2_ways"]
    sets = max(1, model["l2_words"] // lw // ways // parts)
    n = (3 * k + (1 if k < 32 else 0)) * G  # A, B, C and the carry plane (ms-bpbc.c)
    place = []
    for w in range(0, n, lw):
        part = ((w % G) // block_threads) % parts  # thread t = w mod G, block t / block_threads
        place.append(l2_hash(w // lw) % sets + part * sets)
    load = Counter(place)
    return sum(1 for s in place if load[s] <= ways) / len(place), n


def run_compare(memsim, model_path, records_path):
    out = subprocess.run([memsim, "compare", "-m", model_path, "-M", records_path, "--train", "none",
                          "-f", "json", "-q"], check=True, capture_output=True, text=True).stdout
    return {r["params"]: r["predicted_ns"] for r in json.loads(out)["records"]}


def main():
    args = sys.argv[1:]
    memsim = args.pop(0) if args and os.path.sep in args[0] else "build-release/sim/memsim"
    gpus = args or ["h100", "h200"]
    G, tpb = (1 << 22) // 32, 256
    for gpu in gpus:
        model = json.load(open(f"models/{gpu}.json"))
        meas = json.load(open(f"traces/measured/{gpu}/measurements.json"))
        meas["records"] = [r for r in meas["records"]
                           if r["workload"] == "bpbc" and r["algorithm"] == "pairwise-sum"
                           and r["params"]["instances"] == 1 << 22 and r["params"]["k"] >= 14]
        with tempfile.TemporaryDirectory() as tmp:
            rec = os.path.join(tmp, "records.json")
            json.dump(meas, open(rec, "w"))
            shipped = run_compare(memsim, f"models/{gpu}.json", rec)
            fit = dict(model, l2_words=1 << 40)
            fit.pop("validation", None)
            json.dump(fit, open(os.path.join(tmp, "fit.json"), "w"))
            t_fit = run_compare(memsim, os.path.join(tmp, "fit.json"), rec)
            t_cold = {}
            for r in meas["records"]:  # a cold cache a quarter of the footprint: every line misses
                k = r["params"]["k"]
                cold = dict(fit, l2_words=(3 * k + 1) * G // 4)
                json.dump(cold, open(os.path.join(tmp, "cold.json"), "w"))
                one = dict(meas, records=[r])
                json.dump(one, open(os.path.join(tmp, "one.json"), "w"))
                t_cold.update(run_compare(memsim, os.path.join(tmp, "cold.json"), os.path.join(tmp, "one.json")))
        print(f"## {gpu}: pairwise sums, 2^22 instances (l2_words {model['l2_words']}, "
              f"{model['l2_ways']} ways, {model.get('l2_partitions', 1)} partitions)\n")
        print("| k | footprint MiB | steady hit share | GPU ns | shipped ns (error) | t_fit | t_cold | "
              "warm estimate ns (error) |")
        print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        es, ew = [], []
        for r in sorted(meas["records"], key=lambda r: r["params"]["k"]):
            k = r["params"]["k"]
            key = f"k={k} instances={1 << 22}"
            h, n = steady_hit(model, k, G, tpb)
            g = r["median_ns"]
            s, f, c = shipped[key], t_fit[key], t_cold[key]
            est = f + (1 - h) * (c - f)
            es.append(abs(s / g - 1))
            ew.append(abs(est / g - 1))
            print(f"| {k} | {n * 4 / 2**20:.1f} | {h:.3f} | {g:.0f} | {s:.0f} ({(s / g - 1) * 100:+.1f}%) | "
                  f"{f:.0f} | {c:.0f} | {est:.0f} ({(est / g - 1) * 100:+.1f}%) |")
        print(f"\nMAPE over these {len(es)} records: shipped {100 * sum(es) / len(es):.1f}%, "
              f"warm estimate {100 * sum(ew) / len(ew):.1f}%\n")


if __name__ == "__main__":
    main()
