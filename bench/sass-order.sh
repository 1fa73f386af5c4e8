#!/usr/bin/env bash
# The global load/store order of the kernels whose traces follow the compiled code
# (sat --unroll, bpbc pairwise-sum --unroll): cuobjdump's SASS of memsim-measure, cut down
# to the function headers and the memory and branch instructions.
#   bash bench/sass-order.sh MEMSIM_MEASURE > traces/measured/<gpu>/sass-order.txt
# Needs cuobjdump (the CUDA toolkit); no GPU.
set -euo pipefail
bin=${1:?usage: sass-order.sh MEMSIM_MEASURE}
echo "# cuobjdump -sass $(basename "$bin"), $(date -u +%FT%TZ), $(cuobjdump --version | tail -1)"
cuobjdump -sass "$bin" | python3 -c '
import re, sys
keep = ("sat_col_prefix", "sat_row_prefix", "bpbc_pairwise")
on = False
for line in sys.stdin:
    if "Function :" in line:
        on = any(k in line for k in keep)
        if on: sys.stdout.write(line)
        continue
    if on and re.search(r"\b(LDG|STG|LDS|STS|BRA|BAR|EXIT|ATOM|RED)\b", line):
        sys.stdout.write(line)
'
