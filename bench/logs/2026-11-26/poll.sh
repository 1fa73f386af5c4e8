#!/usr/bin/env bash
# wait up to $1 s (default 570) for the background validation; progress; results to $OUT when done
V=/tmp/val; lim=${1:-570}; t0=$(date +%s)
while [ $(( $(date +%s) - t0 )) -lt $lim ]; do
  [ -f $V/h100.end ] && [ -f $V/h200.end ] && break
  sleep 5
done
now=$(date -u +%s); echo "elapsed $(( now - $(cat $V/start) )) s"
for g in h100 h200; do
  echo "$g: $(grep -vc '^#' $V/$g-cache.tsv 2>/dev/null) cached; end $( [ -f $V/$g.end ] && echo $(( $(cat $V/$g.end) - $(cat $V/start) )) s rc $(cat $V/$g.rc) || echo running)"
  tail -c 400 $V/$g.log | tr '\r' '\n' | tail -2
done
uptime
cp $V/*-cache.tsv $V/*-timing.tsv $V/*.log $V/start $V/*.end $OUT/ 2>/dev/null; ls $OUT
