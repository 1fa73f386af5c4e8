#!/usr/bin/env python3
"""How far the grounded models' predictions erred, by what bounds them: the "validation" key
of models/<gpu>.json, which `memsim run` prints beside a prediction (docs/cli.md).

From the committed grounded report docs/validation/grounded/<gpu>.json (every record,
--train none): for each bound class of ms_result_bound() (latency, global bandwidth, shared
memory, launch) the records, the median of |error| and the 10th and 90th percentiles of
the signed error (predicted / measured - 1). It reads the records and writes only this
summary: no model key that makes a prediction changes.
  python3 bench/validation-bands.py [--check] [GPU ...]   (default h100 h200)
--check: exit 1 if a model's key differs from what the report gives (tests/cli.sh).
"""
import json
import sys


def percentile(v, q):
    """Linear interpolation between closest ranks (numpy's default)."""
    v = sorted(v)
    if len(v) == 1:
        return v[0]
    x = q * (len(v) - 1)
    i = int(x)
    f = x - i
    return v[i] + (v[min(i + 1, len(v) - 1)] - v[i]) * f


def bands(report_path):
    rep = json.load(open(report_path))
    by = {}
    for r in rep["records"]:
        if r.get("rel_error") is None or r.get("bound") in (None, "none"):
            continue
        by.setdefault(r["bound"], []).append(r["rel_error"])
    out = []
    for b in ("latency", "global bandwidth", "shared memory", "launch"):
        e = by.get(b)
        if not e:
            continue
        out.append({"bound": b, "records": len(e),
                    "median_abs_error": round(percentile([abs(x) for x in e], 0.5), 4),
                    "p10": round(percentile(e, 0.1), 4), "p90": round(percentile(e, 0.9), 4)})
    return out, sum(len(v) for v in by.values())


def main(argv):
    check = "--check" in argv
    gpus = [a for a in argv if a != "--check"] or ["h100", "h200"]
    bad = 0
    for g in gpus:
        report = f"docs/validation/grounded/{g}.json"
        b, n = bands(report)
        val = {"report": f"docs/validation/grounded/{g}.md", "records": n,
               "made_by": "python3 bench/validation-bands.py " + g, "bounds": b}
        path = f"models/{g}.json"
        text = open(path).read()
        model = json.loads(text)
        if check:
            if model.get("validation") != val:
                print(f"{path}: its validation key differs from {report}", file=sys.stderr)
                bad = 1
            continue
        # the file is cJSON's (memsim calibrate's): keep its text and put the key last
        k = text.find(',\n\t"validation":')
        body = text[:k] if k >= 0 else text.rstrip()[:-1].rstrip()
        with open(path, "w") as f:
            f.write(body + ',\n\t"validation":\t' + json.dumps(val) + "\n}\n")
        assert json.load(open(path)).get("validation") == val
        for x in b:
            print(f"{g} {x['bound']:16s} {x['records']:4d} records  median |error| {100 * x['median_abs_error']:5.1f}%"
                  f"  80% within {100 * x['p10']:+6.1f}% .. {100 * x['p90']:+6.1f}%")
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
