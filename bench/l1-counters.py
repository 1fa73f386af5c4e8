#!/usr/bin/env python3
# The L1 counters of the bulk and gf2 records (Nsight Compute, range replay; bench/logs/2026-11-28/ncu,
# made by bench/logs/2026-11-28/go-l1port.sh with WITH_NCU=1): per record, load sectors per request,
# the L1 hit share of those sectors, store sectors per request, and the L1 data pipe's wavefronts per
# request (loads and stores together).   python3 bench/l1-counters.py [DIR]
import csv,sys
d=sys.argv[1] if len(sys.argv)>1 else 'bench/logs/2026-11-28/ncu'
for w in ['gf2','bulk']:
    rows=list(csv.reader(open(f'{d}/{w}-raw.csv')))
    hdr=rows[0]; idx={h:i for i,h in enumerate(hdr)}
    launches=list(csv.reader(open(f'{d}/{w}-launches.csv')))
    num=lambda r,k: float(r[idx[k]].replace(',','') or 0)
    print(f"{w}: algorithm, params, load sectors per request, L1 hit share, store sectors per request, L1 data-pipe wavefronts per request (loads and stores)")
    for li,r in enumerate(rows[2:]):
        L=launches[li+1]
        lr=num(r,'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum'); ls=num(r,'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum')
        hit=num(r,'l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum')
        sr=num(r,'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum'); ss=num(r,'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum')
        wf=num(r,'l1tex__data_pipe_lsu_wavefronts.sum')
        print(f"  {L[2]:15s} {L[3][:60]:60s} {ls/max(lr,1):6.2f} {hit/max(ls,1):5.2f} {ss/max(sr,1):6.2f} {wf/max(lr+sr,1):6.2f}")
