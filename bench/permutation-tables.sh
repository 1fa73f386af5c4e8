#!/usr/bin/env bash
# permutation-tables.sh: regenerate the predicted-time tables of docs/workloads/permutation.md.
#   dmm:  DMM w = 32, l = 1 (models/dmm-w32.json), n = 1024, every algorithm x permutation
#   hmm:  HMM w = 32, d = 8, L = 400 (models/hmm.json), nbar = 256 ... 4096
# Usage: bench/permutation-tables.sh dmm|hmm [MAXNBAR] [BUILD_DIR] [MINNBAR]
# SCHED_PERMS (environment) restricts the permutations of hmm-scheduled (its time does not
# depend on P: tests/permutation checks this), e.g. SCHED_PERMS=random for the big sizes.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
what=${1:-dmm}
maxnbar=${2:-4096}
build=${3:-$root/build-permutation}
minnbar=${4:-256}
memsim=$build/sim/memsim
field() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['$1'])" 2>/dev/null; }
perms="identical random transpose shuffle bit-reversal"
if [ "$what" = dmm ]; then
  echo "| algorithm | identical | random | transpose | shuffle | bit-reversal |"
  echo "|---|---|---|---|---|---|"
  for a in copy d-designated s-designated conflict-free d-designated-inplace s-designated-inplace conflict-free-inplace; do
    row="| $a |"
    for p in $perms; do
      t=$("$memsim" gen permutation --algorithm "$a" --permutation "$p" --n 1024 --run "$root/models/dmm-w32.json" --json 2>/dev/null | field time_units) || t="-"
      row="$row ${t:--} |"
    done
    echo "$row"
  done
else
  echo "| algorithm | permutation | nbar | n | time_units | round_sum | global stages | D_w(P) |"
  echo "|---|---|---|---|---|---|---|---|"
  for nb in 256 512 1024 2048 4096; do
    [ "$nb" -le "$maxnbar" ] && [ "$nb" -ge "$minnbar" ] || continue
    n=$((nb * nb))
    for a in hmm-d-designated hmm-s-designated hmm-scheduled; do
      pl=$perms; [ $a = hmm-scheduled ] && pl=${SCHED_PERMS:-$perms}
      for p in $pl; do
        out=$("$memsim" gen permutation --algorithm "$a" --permutation "$p" --n $n --run "$root/models/hmm.json" --json) || continue
        dw=$("$memsim" perm-info "$p" --n $n --json | field D_w)
        echo "| $a | $p | $nb | $n | $(echo "$out" | field time_units) | $(echo "$out" | field round_sum) | $(echo "$out" | python3 -c "import json,sys; print(json.load(sys.stdin)['global']['stages'])") | $dw |"
      done
    done
    for a in hmm-transpose hmm-row-wise hmm-column-wise; do
      p=identical; [ $a = hmm-transpose ] && p=transpose
      out=$("$memsim" gen permutation --algorithm "$a" --permutation "$p" --n $n --run "$root/models/hmm.json" --json) || continue
      echo "| $a | $p | $nb | $n | $(echo "$out" | field time_units) | $(echo "$out" | field round_sum) | $(echo "$out" | python3 -c "import json,sys; print(json.load(sys.stdin)['global']['stages'])") | - |"
    done
  done
fi
