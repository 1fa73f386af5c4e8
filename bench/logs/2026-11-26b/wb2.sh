#!/usr/bin/env bash
# device call: the posted-write-back models (models/experimental/<gpu>-wb.json) on the smaller
# records of every family (.device/wb2/<gpu>.list: SAT up to 8K, permutations up to 2^22, GCD up
# to 1024 bits, bulk p up to 2^16, simple, pairwise sums and three life kernels; made by
# filtering traces/measured/<gpu>/*.json), both GPUs side by side, 8 jobs of 2 threads each,
# into docs/validation/wb/<gpu>-cache.tsv, for at most LIMIT s.
set -u
cd "$(dirname "$0")/../../.."
export LD_LIBRARY_PATH=$PWD/.device/lib
start=$(date +%s)
for g in h100 h200; do
  # shellcheck disable=SC2046
  timeout -s INT ${LIMIT:-400} .device/memsim compare -m models/experimental/$g-wb.json -M $(cat .device/wb2/$g.list) --train none \
    --skip-unmatched -j 8 --threads 2 --cache docs/validation/wb/$g-cache.tsv -q -f json -o /dev/null 2> "$OUT/compare-$g.log" &
done
wait
echo "validation: $(( $(date +%s) - start )) s"
for g in h100 h200; do cp docs/validation/wb/$g-cache.tsv "$OUT/"; echo "$g: $(grep -c . docs/validation/wb/$g-cache.tsv) cache lines"; done
