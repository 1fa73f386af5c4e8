#!/bin/bash
# runall.sh BIN OUTDIR [threads...]: run every trace on h100 and h200
M=$1; O=$2; shift 2; TH=${@:-1}; mkdir -p $O
cd /work/wt-sat
for t in /tmp/sat/tr/*.json; do
  b=$(basename $t .json)
  for m in h100 h200; do
    for th in $TH; do
      $M run models/$m.json $t --threads $th --timing > $O/$b.$m.t$th.out 2> $O/$b.$m.t$th.err
    done
  done
done
