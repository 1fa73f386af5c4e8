#!/usr/bin/env python3
"""Seed 003's Figure 8 (bitonic sort, time against p, n = 32, 1K and 32K) on the H100 and
H200 beside the shipped models, as an SVG (no plotting library needed).

    python3 bench/figure8-plot.py [BUILD_DIR] [-o docs/validation/bulk-extra/figure8.svg]

Measured times come from every bitonic record of traces/measured/<gpu>/{bulk,bulk-figure8,
bulk-sizes,bulk-figure8-1k,bulk-figure8-32k}.json; predictions from `memsim compare
--cached-only` over the simulation caches already committed (docs/validation/grounded and
docs/validation/bulk-extra), so a point without a simulation with the shipped model has
no model marker.  Nothing is simulated here."""
import json, math, os, subprocess, sys, tempfile

build = "build-compare"
out = "docs/validation/bulk-extra/figure8.svg"
args = sys.argv[1:]
while args:
    a = args.pop(0)
    if a == "-o":
        out = args.pop(0)
    else:
        build = a
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SETS = ["bulk", "bulk-figure8", "bulk-sizes", "bulk-figure8-1k", "bulk-figure8-32k"]
GPUS = {"h100": "#1f5fa8", "h200": "#d9731a"}

def key(p):
    return (int(p["n"]), int(p["p"]), p["arrangement"])

meas, pred = {}, {}
for g in GPUS:
    files = [f"traces/measured/{g}/{s}.json" for s in SETS]
    for f in files:
        for r in json.load(open(f))["records"]:
            if r["algorithm"] == "bitonic" and r["verified"]:
                meas[(g,) + key(r["params"])] = r["median_ns"] / 1e6  # a later file's record replaces
    with tempfile.TemporaryDirectory() as t:
        cache = os.path.join(t, "cache.tsv")
        with open(cache, "w") as c:
            for src in (f"docs/validation/grounded/{g}-cache.tsv", f"docs/validation/bulk-extra/{g}-cache.tsv"):
                c.writelines(l for l in open(src) if not l.startswith("#"))
        rep = os.path.join(t, "r.json")
        subprocess.run([f"{build}/sim/memsim", "compare", "-m", f"models/{g}.json", "-M", *files, "--train", "none",
                        "--skip-unmatched", "-q", "--cache", cache, "--cached-only", "-f", "json", "-o", rep], check=True)
        for r in json.load(open(rep))["records"]:
            if r["algorithm"] == "bitonic" and "predicted_ns" in r:
                p = dict(x.split("=", 1) for x in r["params"].split())
                pred[(g,) + key(p)] = r["predicted_ns"] / 1e6

W, H, PW, PH, L, T = 1300, 470, 340, 330, 70, 50
svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       f'<rect width="{W}" height="{H}" fill="white"/>',
       f'<text x="{W / 2}" y="22" text-anchor="middle" font-size="15">Seed 003 Figure 8: bitonic sort, one instance of n words '
       f'per thread (ms against p; lines: measured, circles: shipped model)</text>']
for i, n in enumerate((32, 1024, 32768)):
    pts = {k: v for k, v in meas.items() if k[1] == n}
    pts.update({("m",) + k: v for k, v in pred.items() if k[1] == n})
    ps = [k[2] for k in pts] or [64]
    ts = list(pts.values()) or [1]
    x0, x1 = math.log2(min(ps)), math.log2(max(ps))
    y0, y1 = math.floor(math.log10(min(ts))), math.ceil(math.log10(max(ts)))
    if x1 == x0:
        x1 += 1
    ox = L + i * (PW + 60)
    X = lambda p: ox + (math.log2(p) - x0) / (x1 - x0) * PW
    Y = lambda t: T + PH - (math.log10(t) - y0) / (y1 - y0) * PH
    svg.append(f'<rect x="{ox}" y="{T}" width="{PW}" height="{PH}" fill="none" stroke="#888"/>')
    svg.append(f'<text x="{ox + PW / 2}" y="{T - 8}" text-anchor="middle">n = {n}</text>')
    for e in range(int(x0), int(x1) + 1, 2 if x1 - x0 <= 12 else 3):
        svg.append(f'<text x="{X(2 ** e):.1f}" y="{T + PH + 16}" text-anchor="middle">2^{e}</text>')
    for e in range(y0, y1 + 1):
        svg.append(f'<line x1="{ox}" x2="{ox + PW}" y1="{Y(10 ** e):.1f}" y2="{Y(10 ** e):.1f}" stroke="#eee"/>')
        svg.append(f'<text x="{ox - 4}" y="{Y(10 ** e) + 4:.1f}" text-anchor="end">{10.0 ** e:g}</text>')
    svg.append(f'<text x="{ox + PW / 2}" y="{T + PH + 34}" text-anchor="middle">p (instances = threads)</text>')
    for g, col in GPUS.items():
        for arr, dash in (("column", ""), ("row", ' stroke-dasharray="6,4"')):
            line = sorted((k[2], v) for k, v in meas.items() if k[0] == g and k[1] == n and k[3] == arr)
            if line:
                d = " ".join(f"{X(p):.1f},{Y(t):.1f}" for p, t in line)
                svg.append(f'<polyline points="{d}" fill="none" stroke="{col}" stroke-width="2"{dash}/>')
            for (gg, nn, p, a), t in pred.items():
                if gg == g and nn == n and a == arr:
                    fill = "white" if arr == "row" else col
                    svg.append(f'<circle cx="{X(p):.1f}" cy="{Y(t):.1f}" r="4" fill="{fill}" stroke="{col}" stroke-width="1.5"/>')
ly = H - 28
for j, (label, col, dash) in enumerate((("H100 column", GPUS["h100"], ""), ("H100 row", GPUS["h100"], "6,4"),
                                        ("H200 column", GPUS["h200"], ""), ("H200 row", GPUS["h200"], "6,4"))):
    x = L + j * 190
    svg.append(f'<line x1="{x}" x2="{x + 40}" y1="{ly}" y2="{ly}" stroke="{col}" stroke-width="2" stroke-dasharray="{dash}"/>')
    svg.append(f'<text x="{x + 46}" y="{ly + 4}">{label}</text>')
svg.append(f'<text x="{L + 4 * 190}" y="{ly + 4}">filled circle: model, column; open: model, row</text>')
svg.append("</svg>")
open(out, "w").write("\n".join(svg) + "\n")
print(f"wrote {out}: {len(meas)} measured points, {len(pred)} predicted")
