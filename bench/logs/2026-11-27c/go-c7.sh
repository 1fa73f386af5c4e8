#!/usr/bin/env bash
# 2026-11-27c call 7/8: the GF(2) family recorded again (the H200's column-wise records of 2026-11-24 did not reproduce).
set -u
bash bench/device-record.sh $OUT/rec "$(cat .device/commit)" gf2 > $OUT/rec-stdout.log 2>&1; echo rc $?
tail -4 $OUT/rec-stdout.log
cd "$OUT" && tar czf rec.tgz rec rec-stdout.log && rm -rf rec rec-stdout.log
