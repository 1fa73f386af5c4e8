#!/usr/bin/env bash
# Derives the performance ratios from a memsim-measure JSON record
# file (needs jq). Every number printed comes from the file's median_ns.
#   bash kernels/ratios.sh traces/measured/h200/measurements.json
set -euo pipefail
f=${1:?usage: ratios.sh MEASUREMENTS.json}
jq -r '
def med(w; a; cond): [.records[] | select(.workload == w and .algorithm == a and .verified) | select(.params | cond) | .median_ns] | first;
def f2: . * 100 | round / 100;
. as $d |
"device: \($d.device.name), \($d.device.sm_count) SMs, timing \($d.timing), commit \($d.git_commit), \($d.date)",
"",
"DMM offline permutation, n = 1024 per block, time per call relative to the shared-memory copy",
"(same blocks and inner repeats; model: DMM stages per permutation pass)",
( [1, 2][] as $ew |
  ($d | med("permutation"; "copy"; .elem_words == $ew and .permutation == "identical")) as $copy |
  ["identical", "random", "transpose", "shuffle", "bit-reversal"][] as $p |
  [ "d-designated", "s-designated", "conflict-free" ][] as $a |
  ($d | med("permutation"; $a; .elem_words == $ew and .permutation == $p and .n == 1024)) as $t |
  "  elem_words=\($ew) \($p | . + " " * (13 - length)) \($a | . + " " * (14 - length)) \($t / 1000 | f2) us  x\($t / $copy | f2) of copy"),
"",
"HMM permutation (global memory), median us: d-designated / s-designated / thrust-scatter / hmm-transpose / hmm-scheduled",
( [.records[] | select(.workload == "permutation" and .params.n > 1024) | .params.n] | unique[] as $n |
  ["identical", "random", "transpose", "bit-reversal"][] as $p |
  "  n=\($n) \($p): " + ([[ "hmm-d-designated", "hmm-s-designated", "thrust-scatter", "hmm-transpose", "hmm-scheduled" ][] as $a
     | ($d | med("permutation"; $a; .n == $n and .permutation == $p)) | if . == null then "-" else (. / 1000 | f2 | tostring) end] | join(" / ")) ),
"",
"SAT, 32-bit n x n: median us, and copy time / algorithm time (fraction of copy throughput)",
( [.records[] | select(.workload == "sat") | .params.n] | unique[] as $n |
  ($d | med("sat"; "copy"; .n == $n)) as $copy |
  ([$d.records[] | select(.workload == "sat" and .params.n == $n and .algorithm != "copy" and .verified)] | min_by(.median_ns)) as $best |
  "  n=\($n): copy \($copy / 1000 | f2) us; best \($best.algorithm)\(if $best.params.r then " r=\($best.params.r)" else "" end) \($best.median_ns / 1000 | f2) us = \($copy / $best.median_ns * 100 | f2)% of copy throughput",
  ( $d.records[] | select(.workload == "sat" and .params.n == $n and .algorithm != "copy") |
    "      \(.algorithm)\(if .params.r then " r=\(.params.r)" else "" end): \(.median_ns / 1000 | f2) us (\($copy / .median_ns * 100 | f2)%)") ),
"",
"GCD, one thread per pair: time per GCD (median / instances)",
( .records[] | select(.workload == "gcd") |
  "  \(.params.bits)-bit \(if .params.oblivious then "oblivious     " else "semi-oblivious" end) \(.algorithm | . + " " * (12 - length)) \(.median_ns / 1000 | f2) us for \(.params.instances): \(.median_ns / .params.instances | f2) ns per GCD" ),
"",
"BPBC pairwise sums: median us (naive 32-bit for comparison)",
( .records[] | select(.workload == "bpbc" and (.algorithm | startswith("pairwise"))) |
  "  \(.algorithm) k=\(.params.k) instances=\(.params.instances): \(.median_ns / 1000 | f2) us" ),
"",
"Game of Life: cell updates per second",
( .records[] | select(.workload == "bpbc" and (.algorithm | startswith("life"))) |
  "  \(.algorithm | . + " " * (15 - length)) size=\(.params.size) steps=\(.params.steps): \(.median_ns / 1000 | f2) us, \(.params.size * .params.size * .params.steps / .median_ns | f2) x 10^9 updates/s" ),
"",
"records: \(.records | length), verified: \([.records[] | select(.verified)] | length)"
' "$f"
