#!/usr/bin/env python3
"""Issue 17, target 4: every profiled record moving >= 256 MB of DRAM traffic and under 80%
of the copy's DRAM bandwidth, per GPU (all sizes, not only the largest of each algorithm).

    python3 bench/ncu-under80.py [--all] [GPU ...]      (from the repository root)

Reads traces/measured/<gpu>/ncu-profile/ with bench/ncu-table.py's own functions (imported,
nothing copied but its record-selection loop from main(), which writes files), so the
records, times, copy bandwidth and the 256 MB line are the ones behind
docs/validation/ncu/<gpu>.md. Writes nothing. Copy records (other than the one that sets
the line) are listed too; ncu-table.py's key list leaves them out. --all also prints the
records above 100% of copy.
"""
import importlib.util
import json
import os
import sys

ROOT = os.getcwd()
spec = importlib.util.spec_from_file_location("ncu_table", os.path.join(ROOT, "bench", "ncu-table.py"))
nt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(nt)


def gpu_records(gpu):
    d = os.path.join(ROOT, "traces", "measured", gpu, "ncu-profile")
    wls = sorted(f[:-8] for f in os.listdir(d) if f.endswith("-raw.csv"))
    timed = nt.timed_records(os.path.dirname(d))

    def run_date(w):
        with open(os.path.join(d, w + "-measure.json")) as fh:
            return json.load(fh)["date"]
    recs, at = [], {}
    for w in wls:  # as ncu-table.py main(): the newest profile of a record wins
        wd = run_date(w)
        for r in nt.records(d, w, timed):
            k = (r["workload"], r["algorithm"], r["params"])
            if k not in at:
                at[k] = (len(recs), wd)
                recs.append(r)
            elif wd > at[k][1]:
                recs[at[k][0]], at[k] = r, (at[k][0], wd)
    copy_bw = max([(r["dram__bytes_read.sum"] + r["dram__bytes_write.sum"]) / r["time_s"]
                   for r in recs if r["algorithm"] == "copy" and r["time_s"] > 0 and
                   r["dram__bytes_read.sum"] + r["dram__bytes_write.sum"] >= nt.BW_BOUND_BYTES]
                  or [0.0])
    return recs, copy_bw


def main(argv):
    show_all = "--all" in argv
    gpus = [a for a in argv if not a.startswith("--")] or ["h100", "h200"]
    print("| GPU | workload | algorithm | params | DRAM GB (read/write) | % of copy | L2 GB | "
          "L2 hit % | warps active % | instructions (M) | top stalls |")
    print("| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for gpu in gpus:
        recs, copy_bw = gpu_records(gpu)
        print(f"<!-- {gpu}: copy DRAM bandwidth {copy_bw / 1e9:.0f} GB/s -->")
        for r in recs:
            g = nt.fig(r, copy_bw)
            if not g["bound"]:
                continue
            low = g["of_copy"] < 80
            if not (low or (show_all and g["of_copy"] > 100)):
                continue
            rd, wr = r["dram__bytes_read.sum"] / 1e9, r["dram__bytes_write.sum"] / 1e9
            print(f"| {gpu} | {r['workload']} | {r['algorithm']} | {r['params']} | "
                  f"{g['dram_gb']:.3f} ({rd:.3f}/{wr:.3f}) | {g['of_copy']:.0f} | "
                  f"{r['lts__t_bytes.sum'] / 1e9:.3f} | {g['hit']:.1f} | {g['occ']:.1f} | "
                  f"{r['smsp__inst_executed.sum'] / 1e6:.1f} | {g['stalls']} |")


if __name__ == "__main__":
    main(sys.argv[1:])
