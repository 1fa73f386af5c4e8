#!/usr/bin/env python3
"""The SM's L1 on the recorded kernels: Nsight Compute's global-load lookups per record.

  python3 bench/ncu-l1-table.py DIR [WORKLOAD ...]

DIR holds WORKLOAD-raw.csv and WORKLOAD-launches.csv from kernels/ncu-profile.sh with the
metrics of bench/logs/2026-11-28c/go-ncu-l1.sh (default workloads: bulk gcd).  Prints a
markdown table: load requests, sectors per request, the share of load sectors that hit the
L1, the L2's read sectors from the L1 per load sector, store sectors, warp instructions per
load request, and the profiled call's duration."""
import csv, sys

d = sys.argv[1]
works = sys.argv[2:] or ['bulk', 'gcd']
print('| workload | algorithm | params | load requests | sectors / request | L1 hits | L2 reads / load sector | store sectors | instructions / load request | ns |')
print('|---|---|---|---:|---:|---:|---:|---:|---:|---:|')
for w in works:
    rows = list(csv.reader(open(f'{d}/{w}-raw.csv')))
    h = rows[0]
    launches = list(csv.reader(open(f'{d}/{w}-launches.csv')))[1:]
    for r, l in zip(rows[2:], launches):
        f = lambda n: float(r[h.index(n)].replace(',', ''))
        ld = f('l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum')
        hit = f('l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum')
        req = f('l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum')
        print(f"| {l[1]} | {l[2]} | {l[3]} | {req:.0f} | {ld / max(req, 1):.1f} | {100 * hit / max(ld, 1):.1f}% | "
              f"{f('lts__t_sectors_srcunit_tex_op_read.sum') / max(ld, 1):.2f} | {f('l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum'):.0f} | "
              f"{f('smsp__inst_executed.sum') / max(req, 1):.1f} | {f('gpu__time_duration.sum'):.0f} |")
