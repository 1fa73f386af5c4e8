#!/usr/bin/env bash
# The model's side of the l2-random-sweep calibration records (docs/calibration.md, "DRAM rows"),
# and with OP=write of the l2-random-write-sweep records (4-byte stores):
# 2^24 threads each read one word of a footprint of MIB MiB at a scattered address
# (((tid * 2654435761) ^ (tid >> 7)) mod the footprint's words: every word of a 64-MiB footprint
# once, in no order a line or a row keeps), declared as global_words so that the L2 rules apply;
# prints the model's ps per load (predicted_ns / loads) and its L2 cache counts, to set beside
# the GPU's ns_per_load of the record at the same footprint.  One pass, not the kernel's loop of
# repeated calls: a footprint's first touches are misses in the model where the GPU's warm calls
# may hit.
#   bench/random-sweep-model.sh MODEL MIB [MIB ...]      e.g. models/h100.json 48 64 128 256
# MEMSIM (default build-release/sim/memsim) is the binary; OP (read or write, default read) the
# step's op.
set -euo pipefail
cd "$(dirname "$0")/.."
memsim=${MEMSIM:-build-release/sim/memsim}
model=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=16777216
op=${OP:-read}
case $op in read | write) ;; *) echo "random-sweep-model.sh: OP must be read or write" >&2; exit 2 ;; esac
for mib in "$@"; do
  words=$((mib * 262144))
  cat >"$tmp/t.json" <<J
{"memsim_trace": 1, "form": "compact", "name": "random sweep, $mib MiB",
 "threads": $n, "block_threads": 256, "global_words": $words,
 "arrays": {"a": {"length": $words}},
 "steps": [{"op": "$op", "addr": "a[(((tid * 2654435761) ^ (tid >> 7)) & 0xffffffffff) % $words]"}]}
J
  "$memsim" run "$model" "$tmp/t.json" --json | python3 -c "
import json, sys
d = json.load(sys.stdin)
c = d.get('l2_cache') or {}
print('%4d MiB  %6.2f ps a $op  hits %d  misses %d  lone DRAM slots %s' % ($mib, d['predicted_ns'] * 1000 / $n,
      c.get('hits', 0), c.get('misses', 0), c.get('dram_lone_stages', '-')))"
done
