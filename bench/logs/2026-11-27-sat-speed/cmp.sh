#!/bin/bash
# cmp.sh NEWDIR: compare outputs with out-base (t1), both models, and t2 when present
N=$1; bad=0
for f in /tmp/sat/out-base/*.t1.out; do
  b=$(basename $f .t1.out)
  for th in 1 2; do
    [ -f $N/$b.t$th.out ] || continue
    cmp -s $f $N/$b.t$th.out || { echo "DIFF $b t$th"; bad=1; }
  done
done
echo "compare done bad=$bad"
printf "%-22s %10s %10s\n" trace base new
for f in /tmp/sat/out-base/*.h100.t1.err; do b=$(basename $f .err); printf "%-22s %10s %10s   %s -> %s\n" $b $(awk '{print $7}' $f) $(awk '{print $7}' $N/$b.err) "$(awk '{print $9}' $f)" "$(awk '{print $9}' $N/$b.err)"; done
