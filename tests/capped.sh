#!/usr/bin/env bash
# Run a test program under an address-space cap: the bad-input tests must give their
# messages, never an abort, when memory is short.   capped.sh KIB PROGRAM
set -u
[ "${MEMSIM_SANITIZED:-0}" = 1 ] && { echo "1..0 # SKIP ASan reserves more address space than the cap"; exit 77; }
ulimit -v "$1" || exit 1
exec "$2"
