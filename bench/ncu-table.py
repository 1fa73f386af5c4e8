#!/usr/bin/env python3
"""Key figures per kernel from Nsight Compute's CSV (kernels/ncu-profile.sh).

    python3 bench/ncu-table.py [--docs docs/measurements.md] GPU DIR [GPU DIR ...]

DIR holds what ncu-profile.sh wrote for one GPU: <workload>-raw.csv (ncu --page raw
--csv --print-units base), <workload>-launches.csv (the harness's record list, in
launch order) and <workload>-measure.json (its device header). For every GPU this
writes docs/validation/ncu/<gpu>.md (every profiled record) and, with --docs, replaces
the block between '<!-- ncu-table:begin -->' and '<!-- ncu-table:end -->' in that file
with the key figures (the largest size of each algorithm). Every number comes from the
CSV; none is typed. Range replay gives one ncu row per record; kernel replay one row per
kernel, the records split by the harness's ms_counter_marker rows (summed: bytes and
times add, ratios are weighted by time).
"""
import csv
import json
import os
import re
import sys

STALL = re.compile(r"smsp__average_warps_issue_stalled_(\w+?)_per_issue_active\.ratio")
BW_BOUND_BYTES = 256e6  # records moving at least this much DRAM traffic are judged on bandwidth


def num(text):
    text = text.replace(",", "").strip()
    if text in ("", "n/a"):
        return 0.0
    return float(text)


def read_rows(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if len(rows) < 2:
        return [], {}
    head, units = rows[0], rows[1]
    scale = {}
    for h, u in zip(head, units):
        scale[h] = {"ns": 1e-9, "us": 1e-6, "usecond": 1e-6, "ms": 1e-3, "msecond": 1e-3,
                    "s": 1.0, "second": 1.0, "nsecond": 1e-9, "byte": 1.0, "Kbyte": 1e3,
                    "Mbyte": 1e6, "Gbyte": 1e9, "hz": 1.0, "Khz": 1e3, "Mhz": 1e6,
                    "Ghz": 1e9, "cycle/second": 1.0}.get(u, 1.0)
    out = []
    for r in rows[2:]:
        d = dict(zip(head, r))
        d["_scale"] = scale
        out.append(d)
    return out, scale


def metric(d, name):
    return num(d.get(name, "")) * d["_scale"].get(name, 1.0)


def merge(rows):
    """One record's figures from its ncu rows (one row per range, or one per kernel)."""
    t = sum(metric(r, "gpu__time_duration.sum") for r in rows)
    f = {"time_s": t}
    for k in ("dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_bytes.sum",
              "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
              "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "smsp__inst_executed.sum"):
        f[k] = sum(metric(r, k) for r in rows)
    w = [max(metric(r, "gpu__time_duration.sum"), 1e-12) for r in rows]
    for k in ("dram__throughput.avg.pct_of_peak_sustained_elapsed", "lts__t_sector_hit_rate.pct",
              "sm__warps_active.avg.pct_of_peak_sustained_active",
              "sm__cycles_elapsed.avg.per_second"):
        f[k] = sum(metric(r, k) * x for r, x in zip(rows, w)) / sum(w)
    stalls = {}
    for r in rows:
        for k in r:
            m = STALL.fullmatch(k)
            if m:
                stalls[m.group(1)] = stalls.get(m.group(1), 0.0) + metric(r, k) * max(
                    metric(r, "gpu__time_duration.sum"), 1e-12)
    f["stalls"] = {k: v / sum(w) for k, v in stalls.items()}
    return f


def params_text(params):
    """The harness's 'k=v k=v' text of a JSON params object (launch-log form)."""
    def v(x):
        if isinstance(x, bool):
            return "true" if x else "false"
        if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:
            return str(int(x))
        return str(x)
    return " ".join(f"{k}={v(x)}" for k, x in params.items())


def timed_records(gpu_dir):
    """(workload, algorithm, params text) -> (median ns, file) from every record file of
    the GPU's folder, timed without the profiler (CUPTI); the newest file wins."""
    files = []
    for f in sorted(os.listdir(gpu_dir)):
        if not f.endswith(".json"):
            continue
        try:
            with open(os.path.join(gpu_dir, f)) as fh:
                j = json.load(fh)
        except (OSError, ValueError):
            continue
        if isinstance(j, dict) and "memsim_measurements" in j and j.get("timing") == "cupti":
            files.append((j.get("date", ""), f, j))
    out = {}
    for _, f, j in sorted(files, key=lambda x: x[0]):
        for r in j["records"]:
            if r.get("verified") and r.get("median_ns"):
                out[(r["workload"], r["algorithm"], params_text(r["params"]))] = (
                    r["median_ns"], f)
    return out


def records(d, workload, timed):
    raw, _ = read_rows(os.path.join(d, workload + "-raw.csv"))
    with open(os.path.join(d, workload + "-measure.json")) as fh:
        measured = json.load(fh)["records"]
    with open(os.path.join(d, workload + "-launches.csv"), newline="") as fh:
        launches = list(csv.DictReader(fh))
    if raw and raw[0].get("Kernel Name", "") == "range":
        groups = [[r] for r in raw]
    else:  # kernel replay: rows after a marker up to the next marker
        groups = []
        for r in raw:
            if "ms_counter_marker" in r.get("Kernel Name", ""):
                groups.append([])
            elif groups:
                groups[-1].append(r)
    if len(groups) != len(launches):
        sys.exit(f"ncu-table.py: {d}/{workload}: {len(groups)} ncu results for "
                 f"{len(launches)} records: the files do not belong together")
    if len(measured) != len(launches):
        sys.exit(f"ncu-table.py: {d}/{workload}: {len(measured)} timed records for "
                 f"{len(launches)} profiled ones")
    out = []
    for l, g, m in zip(launches, groups, measured):
        if (m["workload"], m["algorithm"]) != (l["workload"], l["algorithm"]):
            sys.exit(f"ncu-table.py: {d}/{workload}: record {l['launch']} is "
                     f"{l['algorithm']} in the launch log, {m['algorithm']} in the JSON")
        if not g:
            continue
        f = merge(g)
        # The record's time: the median of the same record timed by CUPTI without the
        # profiler (the GPU's committed records), else of the profile run's event-timed
        # calls; not ncu's range duration, which adds the profiler's own time. Under ncu
        # every launch is intercepted, so event times of many-launch records run long.
        f["ncu_time_s"] = f["time_s"]
        key = (l["workload"], l["algorithm"], l["params"])
        if key in timed:
            f["time_s"], f["time_from"] = timed[key][0] * 1e-9, timed[key][1]
        else:
            f["time_s"], f["time_from"] = m["median_ns"] * 1e-9, None
        f.update(workload=l["workload"], algorithm=l["algorithm"], params=l["params"],
                 verified=m["verified"])
        out.append(f)
    return out


def size_of(params):
    """The record's size, for 'largest size per algorithm': n, nbar, p, bits..."""
    vals = dict(kv.split("=", 1) for kv in params.split() if "=" in kv)
    for k in ("n", "nbar", "p", "symbols", "bits", "m", "S", "instances"):
        if k in vals:
            try:
                return float(vals[k])
            except ValueError:
                pass
    return 0.0


def top_stalls(st, k=2):
    items = sorted(st.items(), key=lambda x: -x[1])[:k]
    return ", ".join(f"{n} {v:.1f}" for n, v in items if v > 0)


def fig(f, copy_bw):
    dram = f["dram__bytes_read.sum"] + f["dram__bytes_write.sum"]
    t = f["time_s"]
    bw = dram / t if t > 0 else 0.0
    return {
        "us": t * 1e6,
        "us_mark": "" if f.get("time_from") else "*",
        "ncu_us": f["ncu_time_s"] * 1e6,
        "dram_gb": dram / 1e9,
        "bw": bw / 1e9,
        "of_copy": 100.0 * bw / copy_bw if copy_bw > 0 else 0.0,
        "l2": f["lts__t_bytes.sum"] / t / 1e9 if t > 0 else 0.0,
        "peak": f["dram__throughput.avg.pct_of_peak_sustained_elapsed"] * f["ncu_time_s"] / t
        if t > 0 else 0.0,
        "hit": f["lts__t_sector_hit_rate.pct"],
        "occ": f["sm__warps_active.avg.pct_of_peak_sustained_active"],
        "wf": f["l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"],
        "bc": f["l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"],
        "stalls": top_stalls(f["stalls"]),
        "bound": dram >= BW_BOUND_BYTES,
    }


HEAD = ("| workload | algorithm | params | time (us) | DRAM (GB) | DRAM GB/s | % of peak | "
        "% of copy | ncu time (us) | L2 GB/s | L2 hit % | occupancy % | top stalls (cycles per issue) | "
        "shared wavefronts | bank conflicts |\n"
        "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |\n")


def row(f, g):
    return (f"| {f['workload']} | {f['algorithm']} | {f['params']} | {g['us']:.1f}{g['us_mark']} | "
            f"{g['dram_gb']:.3f} | {g['bw']:.0f} | {g['peak']:.1f} | {g['of_copy']:.0f} | {g['ncu_us']:.1f} | "
            f"{g['l2']:.0f} | {g['hit']:.1f} | {g['occ']:.1f} | {g['stalls']} | "
            f"{g['wf']:.0f} | {g['bc']:.0f} |\n")


def main(argv):
    docs = None
    if len(argv) >= 2 and argv[0] == "--docs":
        docs, argv = argv[1], argv[2:]
    if not argv or len(argv) % 2:
        sys.exit("usage: ncu-table.py [--docs FILE.md] GPU DIR [GPU DIR ...]")
    key_block = []
    for gpu, d in zip(argv[0::2], argv[1::2]):
        wls = sorted(f[:-8] for f in os.listdir(d) if f.endswith("-raw.csv"))
        timed = timed_records(os.path.dirname(os.path.abspath(d)))
        # A later profile of the same record (a reworked kernel profiled again, e.g.
        # sat-lookback after sat) replaces the earlier one: the newest profile run wins.
        def run_date(w):
            with open(os.path.join(d, w + "-measure.json")) as fh:
                return json.load(fh)["date"]
        recs, at = [], {}
        for w in wls:
            wd = run_date(w)
            for r in records(d, w, timed):
                k = (r["workload"], r["algorithm"], r["params"])
                if k not in at:
                    at[k] = (len(recs), wd)
                    recs.append(r)
                elif wd > at[k][1]:
                    recs[at[k][0]], at[k] = r, (at[k][0], wd)
        untimed = sum(1 for r in recs if not r.get("time_from"))
        dev, runs = {}, set()
        for w in wls:
            mj = os.path.join(d, w + "-measure.json")
            if os.path.exists(mj):
                with open(mj) as fh:
                    j = json.load(fh)
                dev = {"name": j["device"]["name"], "driver": j["device"]["driver_version"]}
                runs.add((j["date"][:10], j["git_commit"]))
        dev["date"] = ", ".join(sorted({r[0] for r in runs}))
        dev["commit"] = ", ".join(sorted({r[1] for r in runs}))
        # The copy's DRAM bandwidth: the best of the copy records moving >= 256 MB.
        copy_bw = max([(r["dram__bytes_read.sum"] + r["dram__bytes_write.sum"]) / r["time_s"]
                       for r in recs if r["algorithm"] == "copy" and r["time_s"] > 0 and
                       r["dram__bytes_read.sum"] + r["dram__bytes_write.sum"] >= BW_BOUND_BYTES]
                      or [0.0])
        src = (f"{dev.get('name', gpu)}, driver {dev.get('driver', '?')}, profiled "
               f"{dev.get('date', '?')} at commits {dev.get('commit', '?')}; "
               f"copy DRAM bandwidth {copy_bw / 1e9:.0f} GB/s; {len(recs)} records, "
               f"{untimed} timed under ncu (*)")
        os.makedirs("docs/validation/ncu", exist_ok=True)
        with open(f"docs/validation/ncu/{gpu}.md", "w") as out:
            out.write(f"# Nsight Compute profile: {gpu}\n\n"
                      "Generated by `python3 bench/ncu-table.py` from the CSV of "
                      f"`kernels/ncu-profile.sh` ({src}). Every record's profiled call, "
                      "caches flushed before it (ncu's default). '% of copy': achieved "
                      "DRAM bandwidth over the copy's. Stalls: ncu's warp-state cycles "
                      "per issued instruction, the two largest.\n\n")
            out.write(HEAD)
            for r in recs:
                out.write(row(r, fig(r, copy_bw)))
        # Key figures: the largest size of each (workload, algorithm).
        best = {}
        for r in recs:
            k = (r["workload"], r["algorithm"])
            if k not in best or size_of(r["params"]) > size_of(best[k]["params"]):
                best[k] = r
        key_block.append(f"\n**{gpu}** ({src}; every record: "
                         f"[docs/validation/ncu/{gpu}.md](validation/ncu/{gpu}.md)).\n\n")
        key_block.append(HEAD)
        low = []
        for r in best.values():
            g = fig(r, copy_bw)
            key_block.append(row(r, g))
            if g["bound"] and g["of_copy"] < 80 and r["algorithm"] != "copy":
                low.append(f"{r['workload']} {r['algorithm']} ({r['params']}): "
                           f"{g['of_copy']:.0f}%")
        key_block.append("\nMoving at least 256 MB of DRAM traffic and under 80% of the "
                         "copy's bandwidth: " + ("; ".join(low) if low else "none") + ".\n")
    if docs:
        with open(docs) as fh:
            text = fh.read()
        b, e = "<!-- ncu-table:begin -->", "<!-- ncu-table:end -->"
        if b not in text or e not in text:
            sys.exit(f"ncu-table.py: {docs} has no {b} ... {e} block")
        pre, rest = text.split(b, 1)
        _, post = rest.split(e, 1)
        with open(docs, "w") as fh:
            fh.write(pre + b + "\n" + "".join(key_block) + e + post)


if __name__ == "__main__":
    main(sys.argv[1:])
