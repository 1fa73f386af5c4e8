#!/bin/bash
cd /work/wt-sat
for b in final base; do
  M=/tmp/sat/memsim.$b
  /usr/bin/time -f "$b gen16 1+r %e s %M KB" $M gen sat -a 1+r --n 16384 -r 0.0625 --chains --tile-threads 128 -o /tmp/sat/16-$b-1pr.json
  /usr/bin/time -f "$b run16 1+r %e s %M KB" $M run models/h100.json /tmp/sat/16-$b-1pr.json --threads 1 --timing > /tmp/sat/16-$b-1pr.out
done
cmp /tmp/sat/16-final-1pr.json /tmp/sat/16-base-1pr.json && echo "gen16 1+r same"
cmp /tmp/sat/16-final-1pr.out /tmp/sat/16-base-1pr.out && echo "run16 1+r same"
for b in final base; do
  M=/tmp/sat/memsim.$b
  /usr/bin/time -f "$b gen16 2r1w %e s %M KB" $M gen sat -a 2r1w --n 16384 --chains --tile-threads 128 -o /tmp/sat/16-$b-2r.json
  /usr/bin/time -f "$b run16 2r1w %e s %M KB" $M run models/h100.json /tmp/sat/16-$b-2r.json --threads 1 --timing > /tmp/sat/16-$b-2r.out
done
cmp /tmp/sat/16-final-2r.json /tmp/sat/16-base-2r.json && echo "gen16 2r1w same"
cmp /tmp/sat/16-final-2r.out /tmp/sat/16-base-2r.out && echo "run16 2r1w same"
echo ALLDONE
