#!/usr/bin/env python3
"""Rewrites `memsim compare` cache files for the cache key of commit b95f420: a record without
compute steps (no "instructions=" in its simulated parameters) is keyed without the model's
instruction_units and issue_rate, which act on compute steps only (docs/models.md,
"Instructions"), so that its result serves every model that differs by those keys alone.
  python3 bench/cache-migrate-instructions.py CACHE.tsv [...]     (in place)
"""
import re
import sys

for path in sys.argv[1:]:
    out, n = [], 0
    for line in open(path):
        if line.startswith("2|") and "\t" in line:
            key, val = line.split("\t", 1)
            parts = key.split("|")
            if len(parts) >= 6 and "instructions=" not in parts[4]:
                new = re.sub(r" (instruction_units|issue_rate)=\d+", "", parts[1])
                if new != parts[1]:
                    parts[1] = new
                    n += 1
                    line = "|".join(parts) + "\t" + val
        out.append(line)
    open(path, "w").writelines(out)
    print(f"{path}: {n} keys rewritten")
