#!/usr/bin/env bash
# 2026-11-27 (ninth session): the same records with the binary before this session (9e446bd,
# .device/memsim-old) and after (.device/memsim), alternating, one job each, on the host's
# cores (the engine's threads: all 16); the same model file (the shipped one before
# l2_posted_fences, which the old binary does not know).  Then bench/throughput.sh's four
# traces on 16 threads with each binary, alternating.
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
{ nproc; lscpu | grep "Model name"; nvidia-smi --query-gpu=name --format=csv,noheader; date -u; cat .device/commit; } > $OUT/host.txt
for k in 1 2 3; do
  for b in memsim-old memsim; do
    for i in 0 1 2; do
      /usr/bin/time -f "$b cmp$i %U %e" .device/$b compare -m .device/h100-old.json -M .device/cmp$i.json --train none --skip-unmatched -j 1 -f json -o /dev/null 2>&1 | tail -1
    done
  done
done > $OUT/records.txt
for k in 1 2 3; do
  for b in memsim-old memsim; do
    for row in "umm-coalesced umm-w32" "umm-random umm-w32" "dmm-conflict dmm-w32" "hmm-transpose hmm"; do
      set -- $row
      r=$(.device/$b run models/$2.json bench/traces/$1.json --json --timing 2>&1 | sed -n 's/.*simulate \([0-9.]*\) s, \([0-9.]*\) M requests.*/\1 \2/p')
      echo "$b $1 $r"
    done
  done
done > $OUT/throughput.txt
cat $OUT/records.txt $OUT/throughput.txt
