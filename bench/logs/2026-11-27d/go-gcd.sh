#!/usr/bin/env bash
# 2026-11-27d: two 512-bit GCD records (models/h100.json), the session's first engine against the merged one, 16 threads
cd "$(dirname "$0")/.."
export LD_LIBRARY_PATH=$PWD/.device/lib
S=/tmp/kg; rm -rf $S; mkdir -p $S
trap 'date -u >> $S/host.txt; tar czf $OUT/kg.tgz -C /tmp kg' EXIT
{ nproc; lscpu | grep "Model name"; date -u; cat .device/commit-new; } > $S/host.txt
for f in gcd512-binary-0 gcd512-approximate-1; do for b in memsim memsim-new; do
  /usr/bin/time -f "$f $b: %e s wall %U s user %M KB" timeout 90 .device/$b compare -m models/h100.json \
    -M .device/kr/$f.json --train none -j 16 --cache $S/$f-$b.tsv -q -f json -o /dev/null 2>> $S/times.txt
done; done
cat $S/times.txt; cut -f2 $S/*.tsv | grep -v "^time" | sort | uniq -c
