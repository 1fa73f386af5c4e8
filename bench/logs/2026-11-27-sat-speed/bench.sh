#!/bin/bash
# bench.sh: base vs final, interleaved, 3 rounds, the brief's 4K runs
cd /work/wt-sat
for round in 1 2 3; do
  for b in base final; do
    M=/tmp/sat/memsim.$b
    /usr/bin/time -f "$b gen 1+r %e" $M gen sat -a 1+r --n 4096 -r 0.0625 --chains --tile-threads 128 -o /tmp/sat/b-$b-1pr.json 2>&1 | grep gen
    echo "$b run 1+r $($M run models/h100.json /tmp/sat/tr/1pr-4096-c.json --threads 1 --timing 2>&1 >/dev/null)"
    /usr/bin/time -f "$b gen 2r1w %e" $M gen sat -a 2r1w --n 4096 --chains --tile-threads 128 -o /tmp/sat/b-$b-2r.json 2>&1 | grep gen
    echo "$b run 2r1w $($M run models/h100.json /tmp/sat/tr/2r-4096-c.json --threads 1 --timing 2>&1 >/dev/null)"
  done
done
