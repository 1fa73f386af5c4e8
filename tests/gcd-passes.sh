#!/usr/bin/env bash
# The bulk GCD kernels' code (kernels/gcd_passes.h) against the generator's traces, on the
# CPU: every thread's loads and stores, in order, equal the trace's (kernels/test_gcd_passes.cpp).
# tests/gcd-passes.sh MEMSIM SRCDIR; skipped (77) without a C++ compiler.
set -u
memsim=$1
src=$2
cxx=$(command -v c++ || command -v g++ || command -v clang++ || true)
[ -n "$cxx" ] || { echo "gcd-passes: no C++ compiler: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cxx" -O2 -std=c++17 -Wall -Wextra -Werror -o "$tmp/tgp" "$src/kernels/test_gcd_passes.cpp" || exit 1
fail=0
for case in "32 64 5" "96 48 2" "256 64 3" "544 16 7"; do
  set -- $case
  for alg in binary fast-binary approximate approximate-ptx64; do
    gen=$alg
    [ "$alg" = approximate-ptx64 ] && gen=approximate
    "$memsim" gen gcd -a "$gen" -b "$1" -p "$2" --seed "$3" -f explicit -o "$tmp/t.json" 2>/dev/null ||
      { echo "gcd-passes: memsim gen gcd -a $gen -b $1 -p $2 failed"; fail=1; continue; }
    "$tmp/tgp" "$alg" "$1" "$2" "$3" "$tmp/t.json" || fail=1
  done
done
exit $fail
