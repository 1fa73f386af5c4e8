#!/usr/bin/env bash
# cli.sh MEMSIM SRCDIR: the memsim command's contract: exit status 2 and a message on stderr
# naming the file for bad input, nothing on stdout; --help, --version; run --json keys.
set -u
memsim=$(realpath "$1")
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
n=0

fail() { echo "not ok - $*"; fails=$((fails + 1)); }

# expect NAME STATUS STDERR_SUBSTRING -- ARGS...: stdout must be empty when STATUS != 0
expect() {
  local name=$1 want=$2 msg=$3
  shift 4
  n=$((n + 1))
  "$memsim" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" != "$want" ]; then fail "$name: exit $rc, expected $want ($(head -c 300 "$tmp/err"))"; return; fi
  if [ "$want" != 0 ] && [ -s "$tmp/out" ]; then fail "$name: stdout not empty: $(head -c 200 "$tmp/out")"; return; fi
  if ! grep -qF -- "$msg" "$tmp/err"; then fail "$name: stderr lacks '$msg': $(head -c 300 "$tmp/err")"; return; fi
  echo "ok - $name"
}

cd "$tmp" || exit 1
dmm=$src/models/textbook-dmm.json
fig=$src/traces/fig3-3.json
printf '' >empty.json
printf '{"model": "dmm",\n "width": 4 "latency": 5}' >syntax.json
printf '{"model":"dmm","width":0,"latency":5}' >zero.json
printf '{"memsim_trace":1,"threads":4,"steps":[{"op":"read","addr":[0,1]}]}' >short.json
printf '{"memsim_trace":1,"threads":8,"block_threads":6,"steps":[]}' >bt.json
printf 'MEMSIMBT\001\000\000\000' >trunc.bin

expect missing_model 2 "nope.json: cannot open: No such file or directory" -- run nope.json "$fig"
expect missing_trace 2 "nope.json: cannot open: No such file or directory" -- run "$dmm" nope.json
expect empty_model 2 "memsim run: empty.json: file is empty" -- run empty.json "$fig"
expect empty_trace 2 "memsim run: empty.json: file is empty" -- run "$dmm" empty.json
expect syntax 2 "memsim run: syntax.json:2:13: invalid JSON" -- run syntax.json "$fig"
expect zero_width 2 "memsim run: zero.json: width: 0 is out of range [1, 4096]" -- run zero.json "$fig"
expect short_addr 2 "short.json: steps[0].addr: has 2 entries, expected one per thread (4)" -- run "$dmm" short.json
expect block_threads 2 "bt.json: block_threads: 6 is not a multiple of the width w = 4" -- run "$dmm" bt.json
expect truncated_binary 2 "trunc.bin: byte 12: truncated file" -- run "$dmm" trunc.bin
expect json_flag_bad_input 2 "zero.json" -- run zero.json "$fig" --json
expect no_args 2 "" --
expect run_no_args 2 "memsim run: expected MODEL and TRACE, got 0 arguments" -- run
expect run_three_args 2 "memsim run: expected MODEL and TRACE" -- run "$dmm" "$fig" extra
expect unknown_option 2 "Try 'memsim run --help'" -- run --bogus "$dmm" "$fig"
expect unknown_verb 2 "memsim: unknown verb 'frob'" -- frob

# --help, run --help, --version: status 0, text on stdout
n=$((n + 1))
if out=$("$memsim" --help 2>/dev/null) && grep -q "Usage: memsim VERB" <<<"$out" && grep -q "run" <<<"$out"; then
  echo "ok - help"; else fail "help"; fi
n=$((n + 1))
if out=$("$memsim" run --help 2>/dev/null) && grep -q "MODEL TRACE" <<<"$out" && grep -q -- "--json" <<<"$out"; then
  echo "ok - run_help"; else fail "run_help"; fi
n=$((n + 1))
if out=$("$memsim" --version 2>/dev/null) && [[ "$out" =~ ^memsim\ [0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "ok - version"; else fail "version: '$out'"; fi

# run --json on the shipped Figure 3.3: the keys and values of MODELS.md "Output"
n=$((n + 1))
if "$memsim" run "$dmm" "$fig" --json >json.out 2>json.err && [ ! -s json.err ]; then
  if python3 - json.out <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
want = {"time_units": 7, "stages": 3, "dispatches": 2, "requests": 8, "extra_stages": 1,
        "round_sum": 7}
for k, v in want.items():
    assert r[k] == v, (k, r[k], v)
assert r["shared"]["stages"] == 3 and r["shared"]["dispatches"] == 2, r["shared"]
assert r["global"]["stages"] == 0 and r["global"]["dispatches"] == 0, r["global"]
PY
  then echo "ok - run_json"; else fail "run_json: $(cat json.out)"; fi
else
  fail "run_json: exit or stderr: $(cat json.err)"
fi

# the human summary states the model and trace before the results
n=$((n + 1))
if out=$("$memsim" run "$dmm" "$fig" 2>/dev/null) && grep -q "dmm" <<<"$out" && grep -q "7" <<<"$out"; then
  echo "ok - run_text"; else fail "run_text: $out"; fi

# the timeline of Figure 3.3: W1's single stage enters at t = 2 and completes at t = 6
n=$((n + 1))
if out=$("$memsim" run "$dmm" "$fig" --timeline 2>&1) &&
   grep -qE '^ +2 \| W1\.0 ' <<<"$out" && grep -qE '^ +6 \| (\. +){4}W1\.0' <<<"$out" &&
   grep -q "total: 7 time units" <<<"$out"; then
  echo "ok - timeline"; else fail "timeline: $out"; fi
expect timeline_too_big 2 "too large to draw a timeline" -- run "$src/models/umm-w32.json" "$src/traces/compact/coalesced-loop.json" --timeline

# --view (the browser checks are in tests/view.sh): bad names and unwritable files are exit 2
# with nothing on stdout; the summary and --json are those of the plain run
expect view_bad_extension 2 "memsim run: --view: fig.png: expected a file name ending in .html (the page) or .svg (the picture)" -- run "$dmm" "$fig" --view fig.png
expect view_unwritable 2 "memsim run: no/such/dir/v.svg: cannot create: No such file or directory" -- run "$dmm" "$fig" --view no/such/dir/v.svg
expect view_bad_trace 2 "nope.json: cannot open: No such file or directory" -- run "$dmm" nope.json --view v.html
n=$((n + 1))
if "$memsim" run "$dmm" "$fig" --json >plain.json && "$memsim" run "$dmm" "$fig" --json --view v.svg >view.json 2>view.err &&
   cmp -s plain.json view.json && [ ! -s view.err ] && grep -q 'data-time-units="7"' v.svg &&
   "$memsim" run "$dmm" "$fig" --per-step >plain.txt && "$memsim" run "$dmm" "$fig" --per-step --view v.html >view.txt &&
   cmp -s plain.txt view.txt && "$memsim" run "$dmm" "$fig" >plain.txt && "$memsim" run "$dmm" - --view v.html <"$fig" >view.txt &&
   [ "$(grep -c . plain.txt)" = "$(grep -c . view.txt)" ] && grep -q '<!DOCTYPE html>' v.html; then
  echo "ok - view_same_result"; else fail "view_same_result: $(diff plain.json view.json; diff plain.txt view.txt; cat view.err)"; fi
# the pictures of docs/classroom.md are what memsim draws now (scripts/gen-classroom.sh)
n=$((n + 1))
if bash "$src/scripts/gen-classroom.sh" "$memsim" "$tmp/pictures" 2>pics.err && diff -r -q "$src/docs/classroom" "$tmp/pictures" >pics.diff 2>&1
then echo "ok - classroom_pictures_current"
else fail "classroom_pictures_current: run scripts/gen-classroom.sh: $(head -c 300 pics.err) $(head -c 300 pics.diff)"; fi
n=$((n + 1))
"$memsim" run "$src/models/umm-w32.json" "$src/traces/compact/coalesced-loop.json" --view big.html >/dev/null 2>big.err; rc=$?
if [ "$rc" = 0 ] && grep -qF "big.html: a summarised view (more than 4000 dispatches)" big.err && grep -q '"mode":"summary"' big.html; then
  echo "ok - view_summarised"; else fail "view_summarised: exit $rc: $(head -c 300 big.err)"; fi

# every shipped trace gives identical results after conversion to explicit and to binary
for t in "$src"/traces/*.json "$src"/traces/compact/*.json; do
  case $t in *coalesced-loop*) continue ;; esac  # 2^20 threads: too big to expand here
  for m in "$src"/models/textbook-dmm.json "$src"/models/hmm-small.json "$src"/models/textbook-umm.json; do
    n=$((n + 1))
    name="convert $(basename "$t") on $(basename "$m")"
    a=$("$memsim" run "$m" "$t" --json --per-step 2>&1 | sed 's/"trace":"[^"]*"//')
    "$memsim" convert "$t" -o conv.json && "$memsim" convert --to binary "$t" -o conv.bin || { fail "$name: convert failed"; continue; }
    b=$("$memsim" run "$m" conv.json --json --per-step 2>&1 | sed 's/"trace":"[^"]*"//')
    c=$("$memsim" run "$m" conv.bin --json --per-step 2>&1 | sed 's/"trace":"[^"]*"//')
    if [ "$a" = "$b" ] && [ "$a" = "$c" ] && grep -q time_units <<<"$a"; then echo "ok - $name"
    else fail "$name: $a / $b / $c"; fi
  done
done

# a large trace gives the same result on one thread and with addresses made on a second
n=$((n + 1))
one=$("$memsim" run "$src/models/hmm.json" "$src/traces/compact/coalesced-loop.json" --json --per-step --threads 1 2>&1)
two=$("$memsim" run "$src/models/hmm.json" "$src/traces/compact/coalesced-loop.json" --json --per-step --threads 2 2>&1)
if [ "$one" = "$two" ] && grep -q '"requests":16777216' <<<"$one"; then echo "ok - threads_agree"
else fail "threads_agree: $one / $two"; fi
expect threads_bad 2 "--threads: 65 is not in 0 .. 64 (0: the processors)" -- run "$dmm" "$fig" --threads 65

# repeated kernels: four identical kernels on the grounded model, three of them taken from the
# first one dispatched after a barrier; the same result, step by step, as dispatching each
n=$((n + 1))
cat >krep.json <<'KREP'
{"memsim_trace": 1, "form": "compact", "threads": 65536, "block_threads": 256, "global_words": 65536,
 "arrays": {"a": {"length": 65536}, "b": {"length": 65536}},
 "steps": [{"repeat": 5, "steps": [
   {"op": "read", "space": "global", "addr": "a[(tid * 33) % 65536]"},
   {"op": "write", "space": "global", "addr": "b[tid]"},
   {"op": "sync", "scope": "grid"}]}]}
KREP
one=$("$memsim" run "$src/models/h100.json" krep.json --json --per-step --timing 2>krep1.err)
two=$("$memsim" run "$src/models/h100.json" krep.json --json --per-step --timing --dispatch-every-kernel 2>krep2.err)
if [ -n "$one" ] && [ "$one" = "$two" ] && grep -q ' 3 repeated kernels' krep1.err && grep -q ' 0 repeated kernels' krep2.err
then echo "ok - repeated_kernels_agree"
else fail "repeated_kernels_agree: $(cat krep1.err krep2.err)"; fi
# repeated kernel counts: the compact form keys a kernel by the items a walk to its closing
# barrier meets (with the loop variables they read); kernels repeated from the same L2 state
# are not counted, and every figure, step by step, is the one of counting each
n=$((n + 1))
three=$("$memsim" run "$src/models/h100.json" krep.json --json --per-step --timing --count-every-kernel 2>krep3.err)
if [ "$one" = "$three" ] && grep -q ' 3 repeated kernels (3 not counted)' krep1.err && grep -q '(0 not counted)' krep3.err
then echo "ok - kernels_not_counted_agree"
else fail "kernels_not_counted_agree: $(cat krep1.err krep3.err)"; fi
n=$((n + 1))
cat >kcount.json <<'KCOUNT'
{"memsim_trace": 1, "form": "compact", "threads": 64, "block_threads": 16, "global_words": 256,
 "arrays": {"a": {"length": 256}},
 "steps": [{"repeat": 4, "var": "v", "steps": [
   {"op": "read", "space": "global", "addr": "a[(v % 2) * 128 + (tid * 5) % 128]"},
   {"op": "write", "space": "global", "addr": "a[(1 - v % 2) * 128 + tid]"},
   {"op": "sync", "scope": "grid"}]},
  {"repeat": 3, "var": "u", "steps": [
   {"repeat": "u + 1", "steps": [{"op": "read", "space": "global", "addr": "a[(tid * 3) % 256]"}]},
   {"op": "sync", "scope": "grid"}]},
  {"repeat": 5, "steps": [
   {"op": "read", "space": "global", "addr": "a[(tid * 7) % 256]", "when": "tid % 3 != 1"},
   {"op": "write", "space": "global", "addr": "a[tid + 64]"},
   {"op": "sync", "scope": "block"},
   {"op": "sync", "scope": "grid"}]},
  {"op": "read", "space": "global", "addr": "a[tid]"}]}
KCOUNT
ok=1 uncounted=0
for m in umm-l2-cache hmm-l2-partitions umm-dram-rows umm-l2-posted-write-backs; do
  x=$("$memsim" run "$src/models/extensions/$m.json" kcount.json --json --per-step --timing 2>kc1.err) || ok=0
  y=$("$memsim" run "$src/models/extensions/$m.json" kcount.json --json --per-step --count-every-kernel 2>kc2.err) || ok=0
  [ -n "$x" ] && [ "$x" = "$y" ] || ok=0
  grep -q '(0 not counted)' kc1.err || uncounted=$((uncounted + 1))
done
if [ $ok = 1 ] && [ $uncounted -ge 2 ]; then echo "ok - kernels_not_counted_compact_agree"
else fail "kernels_not_counted_compact_agree: ok=$ok uncounted=$uncounted $(cat kc1.err kc2.err)"; fi
# ... and a loop variable read by shared steps only (no L2 state tells the kernels apart:
# a key that left out the loop variables would take v = 1's counts for v = 2)
n=$((n + 1))
cat >kcount2.json <<'KCOUNT'
{"memsim_trace": 1, "form": "compact", "threads": 256, "block_threads": 64, "shared_words": 128, "global_words": 512,
 "arrays": {"a": {"length": 512}, "s": {"length": 128}},
 "steps": [{"repeat": 6, "var": "v", "steps": [
   {"op": "read", "space": "global", "addr": "a[tid]"},
   {"op": "write", "space": "shared", "addr": "s[(ltid * (1 + v % 2)) % 128]"},
   {"op": "read", "space": "shared", "addr": "s[(ltid * (1 + (v / 2) % 2) * 2) % 128]"},
   {"op": "sync", "scope": "grid"}]},
  {"op": "read", "space": "global", "addr": "a[tid]"}]}
KCOUNT
x=$("$memsim" run "$src/models/hmm.json" kcount2.json --json --per-step 2>/dev/null)
y=$("$memsim" run "$src/models/hmm.json" kcount2.json --json --per-step --count-every-kernel 2>/dev/null)
if [ -n "$x" ] && [ "$x" = "$y" ]; then echo "ok - kernel_keys_read_loop_variables"
else fail "kernel_keys_read_loop_variables"; fi
# ... and an address affine in tid keys by its values at threads 0 and 1: a ping-pong over
# u % 2 repeats every other kernel (kernels not counted), while a stride that changes with
# v (the same first address) must not (a key of thread 0's address alone fails it)
n=$((n + 1))
cat >kcount3.json <<'KCOUNT'
{"memsim_trace": 1, "form": "compact", "threads": 256, "block_threads": 64, "global_words": 1024,
 "arrays": {"a": {"length": 1024}},
 "steps": [{"repeat": 6, "var": "v", "steps": [
   {"op": "read", "space": "global", "addr": "a[tid * (1 + v % 2)]"},
   {"op": "write", "space": "global", "addr": "a[(v % 3) * 256 + tid]"},
   {"op": "sync", "scope": "grid"}]},
  {"repeat": 6, "var": "u", "steps": [
   {"op": "read", "space": "global", "addr": "a[(u % 2) * 512 + tid * 2]"},
   {"op": "write", "space": "global", "addr": "a[(1 - u % 2) * 512 + tid]"},
   {"op": "sync", "scope": "grid"}]},
  {"op": "read", "space": "global", "addr": "a[tid]"}]}
KCOUNT
x=$("$memsim" run "$src/models/hmm.json" kcount3.json --json --per-step --timing 2>kc3.err)
y=$("$memsim" run "$src/models/hmm.json" kcount3.json --json --per-step --count-every-kernel 2>/dev/null)
if [ -n "$x" ] && [ "$x" = "$y" ] && ! grep -q '(0 not counted)' kc3.err; then echo "ok - kernel_keys_affine_addresses"
else fail "kernel_keys_affine_addresses: $(cat kc3.err)"; fi

# gen sat: Table 6.1 counts as JSON (--stats), the tile kernels' copy threads
n=$((n + 1))
if out=$("$memsim" gen sat -a 1r1w --n 64 --block 8 --tile-threads 16 --stats 2>/dev/null) &&
   grep -q '"block_threads": 16' <<<"$out" && grep -q '"verified": true' <<<"$out" && grep -q '"grid_barriers": 14' <<<"$out"; then
  echo "ok - sat_stats"
else fail "sat_stats: $out"; fi
expect sat_stats_no_run 2 "--stats prints counts to stdout" -- gen sat -a 2r1w --n 64 --stats --run "$dmm"
expect sat_tile_threads_alg 2 "--tile-threads applies to 2r1w, 1r1w and 1+r only" -- gen sat -a 2r2w --n 64 --tile-threads 64
expect sat_tile_threads_pow 2 "--tile-threads 96 is not --block 32 times a power of two" -- gen sat -a 1+r --n 64 --tile-threads 96

# gen gf2: the compact text written and run gives the in-process source's figures
n=$((n + 1))
if "$memsim" gen gf2 -n 40 -L 70 --arrangement column -o gf2.json 2>/dev/null &&
   a=$("$memsim" run "$src/models/h100.json" gf2.json --json 2>/dev/null) &&
   b=$("$memsim" gen gf2 -n 40 -L 70 --arrangement column --run "$src/models/h100.json" --json 2>/dev/null) &&
   [ "$(grep -o '"time_units":[0-9]*' <<<"$a")" = "$(grep -o '"time_units":[0-9]*' <<<"$b")" ] &&
   grep -q '"time_units":[1-9]' <<<"$a"; then echo "ok - gf2_text_equals_source"
else fail "gf2_text_equals_source: $a / $b"; fi
expect gf2_bad_arrangement 2 "memsim gen gf2: gf2: --arrangement must be row or column, got \"diagonal\"" -- gen gf2 --arrangement diagonal
expect gf2_extra_argument 2 "memsim gen gf2: unexpected argument" -- gen gf2 extra
expect mul_unknown_algorithm 2 "memsim gen mul: unknown algorithm \"karatsuba\" (school, comba, sum-rotate, sum-rotate-shared, column-based, toom-2 ... toom-9)" -- gen mul -a karatsuba
expect mul_sum_rotate_bits 2 "memsim gen mul: mul sum-rotate: bits: 96 is not 64, 128, 256, 512 or 1024" -- gen mul -a sum-rotate --bits 96
expect mul_sum_rotate_arrangement 2 "memsim gen mul: --arrangement is for school and comba" -- gen mul -a sum-rotate --arrangement row
expect mul_toom_bits 2 "memsim gen mul: mul toom-5: bits: 256 is not a multiple of 32 of at least 320 (two words a part)" -- gen mul -a toom-5 --bits 256
expect mul_toom_arrangement 2 "memsim gen mul: --arrangement is for school and comba (Toom-k's arrays are column-wise)" -- gen mul -a toom-3 --arrangement row
# Toom-4 of 64 products: two kernels, one coalesced 32-word group per warp and access (the
# --info counts times 64 / 32), every product checked
n=$((n + 1))
if a=$("$memsim" gen mul -a toom-4 --bits 1024 -p 64 --info --run "$src/models/umm-w32.json" --json 2>"$tmp/toom-info") &&
   grep -q '"grid_barriers":1,' <<<"$a" && grep -q '"stages":6646,' <<<"$a" &&
   grep -qF "kernel 1 1372 reads and 212 writes, kernel 2 1175 reads and 564 writes; 3 products executed" "$tmp/toom-info"
then echo "ok - mul_toom_two_kernels"
else fail "mul_toom_two_kernels: $a / $(cat "$tmp/toom-info")"; fi
# sum-rotate: 2 reads and 2 writes a thread (64 products x 8 lanes), 3n shuffles a warp and
# the carry rounds; through shared memory the same exchanges are shared requests instead
n=$((n + 1))
if a=$("$memsim" gen mul -a sum-rotate --bits 256 -p 64 --run "$src/models/hmm.json" --json 2>/dev/null) &&
   b=$("$memsim" gen mul -a sum-rotate-shared --bits 256 -p 64 --run "$src/models/hmm.json" --json 2>/dev/null) &&
   grep -q '"requests":2048,' <<<"$a" && grep -q '"shuffle_steps":' <<<"$a" &&
   python3 -c 'import json,sys; a=json.loads(sys.argv[1]); b=json.loads(sys.argv[2]); assert a["shuffles"] >= 16 * 24, a; assert b["shared"]["requests"] == 2 * 32 * a["shuffles"], (a["shuffles"], b["shared"]); assert b["global"]["requests"] == 2048' "$a" "$b"
then echo "ok - mul_sum_rotate_shuffles"
else fail "mul_sum_rotate_shuffles: $a / $b"; fi
# column-based (docs/workloads/mul.md): per thread 2 global reads and 2 writes, 2n + 10 shared
# requests and 4 a carry round of its warp (the trace's K); no bank conflict (n = 2, 8, 32)
for bits in 64 256 1024; do
  n=$((n + 1))
  if "$memsim" gen mul -a column-based --bits "$bits" -p $((16384 / bits)) -o col.json 2>/dev/null &&
     a=$("$memsim" gen mul -a column-based --bits "$bits" -p $((16384 / bits)) --run "$src/models/hmm.json" --json 2>/dev/null) &&
     python3 -c 'import json,sys; t=json.load(open("col.json")); a=json.loads(sys.argv[1]); w=int(sys.argv[2]) // 32; K=t["arrays"]["K"]["data"]
assert t["threads"] == 512 and len(K) == 16 and sum(K) > 0 and t["shared_words"] == 128, (t["threads"], K, t["shared_words"])
assert a["global"]["requests"] == 4 * 512, a["global"]
assert a["shared"]["requests"] == 512 * (2 * w + 10) + 4 * 32 * sum(K), (a["shared"], sum(K))
assert a["shared"]["extra_stages"] == 0 and a["shared"]["stages"] == a["shared"]["requests"] // 32, a["shared"]' "$a" "$bits"
  then echo "ok - mul_column_based_requests_$bits"
  else fail "mul_column_based_requests_$bits: $a"; fi
done
# column-based: the explicit trace's addresses carry the method's data (the operands are
# kernels/mul.cu's splitmix64 draws): running it word by word through them gives A * B
n=$((n + 1))
if "$memsim" gen mul -a column-based --bits 128 -p 40 --seed 7 -b 64 -o colx.json --format explicit 2>/dev/null &&
   python3 - colx.json 7 <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
M, W = (1 << 64) - 1, 0xffffffff
T, bt, steps = t["threads"], t["block_threads"], t["steps"]
n = 4
st = (int(sys.argv[2]) * 0x9E3779B97F4A7C15 + 1) & M
def draw():
    global st
    st = (st + 0x9e3779b97f4a7c15) & M
    z = ((st ^ (st >> 30)) * 0xbf58476d1ce4e5b9) & M
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
    return (z ^ (z >> 31)) >> 32
G = [draw() for _ in range(2 * T)] + [None] * (2 * T)
S = {}
def rd(k, th):
    a = steps[k]["addr"][th]
    return None if a is None else G[a] if steps[k]["space"] == "global" else S[th // bt, a]
def wr(k, th, v):
    a = steps[k]["addr"][th]
    if a is not None and steps[k]["space"] == "global": G[a] = v
    elif a is not None: S[th // bt, a] = v
# each step over all threads before the next: the kernel's __syncwarp between the phases
a = [rd(0, th) for th in range(T)]
b = [rd(1, th) for th in range(T)]
for th in range(T): wr(2, th, a[th]); wr(3, th, b[th])
acc, c1, k = [0] * T, [0] * T, 4
for s in range(n):
    for th in range(T):
        acc[th] += rd(k, th) * rd(k + 1, th)
        if s == th % n: c1[th], acc[th] = acc[th], 0
    k += 2
for th in range(T):
    for j, v in enumerate((c1[th] >> 32 & W, acc[th] >> 32 & W, c1[th] >> 64, acc[th] >> 64)): wr(k + j, th, v)
x = [[rd(k + 4 + j, th) for j in range(4)] for th in range(T)]
w1 = [(c1[th] & W) + x[th][0] + x[th][2] for th in range(T)]
w2 = [(acc[th] & W) + x[th][1] + x[th][3] for th in range(T)]
k += 8
while steps[k]["space"] == "shared":
    for th in range(T): wr(k, th, w1[th] >> 32); wr(k + 1, th, w2[th] >> 32)
    for th in range(T):
        if steps[k + 2]["addr"][th] is not None:
            w1[th], w2[th] = (w1[th] & W) + rd(k + 2, th), (w2[th] & W) + rd(k + 3, th)
    k += 4
assert k == len(steps) - 2 and k > 20, (k, len(steps))
for th in range(T): wr(k, th, w1[th]); wr(k + 1, th, w2[th])
num = lambda ws: sum(w << (32 * i) for i, w in enumerate(ws))
for q in range(T // n):
    assert num(G[2 * T + 2 * n * q:2 * T + 2 * n * (q + 1)]) == num(G[n * q:n * q + n]) * num(G[T + n * q:T + n * q + n]), q
PY
then echo "ok - mul_column_based_trace_computes"
else fail "mul_column_based_trace_computes"; fi
expect mul_bits_rule 2 "bits" -- gen mul -a school --bits 100
n=$((n + 1))
if out=$("$memsim" gen mul -a comba --bits 256 -p 64 --run "$src/models/umm-w32.json" --json 2>/dev/null) &&
   grep -q '"requests":9088' <<<"$out"; then echo "ok - mul_comba_requests"   # 64 x (2 * 8^2 - 2 + 2 * 8)
else fail "mul_comba_requests: $out"; fi

# run: what bounds the time and, on a calibrated model, the predicted ns (MODELS.md)
n=$((n + 1))
h200=$src/models/h200.json
if "$memsim" run "$h200" "$fig" --json >bound.json 2>/dev/null && python3 - bound.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for k in ("predicted_ns", "bound", "kernels", "launch_units", "global_busy", "shared_busy"):
    assert k in r, k
assert r["bound"] in ("global bandwidth", "shared memory", "launch", "latency"), r["bound"]
assert abs(r["predicted_ns"] - r["time_units"] * r["model"]["time_unit_ns"]) < 1e-6 * r["predicted_ns"]
PY
then echo "ok - run_bound_json"; else fail "run_bound_json: $(cat bound.json)"; fi
n=$((n + 1))
if out=$("$memsim" run "$h200" "$fig" 2>/dev/null) && grep -qE '^bound +(global bandwidth|shared memory|launch|latency)' <<<"$out" &&
   grep -qE '^predicted ns +[0-9]' <<<"$out"; then echo "ok - run_bound_text"; else fail "run_bound_text: $out"; fi
# the grounded models' "validation" key: printed beside a prediction of the same bound, and
# the same as its report gives (bench/validation-bands.py --check)
n=$((n + 1))
if out=$("$memsim" run "$h200" "$fig" 2>/dev/null) && b=$(sed -n 's/^bound \+\([a-z ]*[a-z]\)   .*/\1/p' <<<"$out") &&
   grep -qE "^validation +$b-bound records of docs/validation/grounded/h200.md: [0-9]+, median \|error\| [0-9.]+%, 80% within [-+][0-9.]+% \.\. [-+][0-9.]+%$" <<<"$out" &&
   python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); v=r["validation"]; assert v["report"].endswith("h200.md") and v["records"] > 0 and v["p10"] <= v["p90"], v' bound.json
then echo "ok - run_validation_band"; else fail "run_validation_band: $out"; fi
n=$((n + 1))
if (cd "$src" && python3 bench/validation-bands.py --check h100 h200); then echo "ok - validation_bands_match_reports"
else fail "validation_bands_match_reports: models/<gpu>.json's validation key differs from docs/validation/grounded/<gpu>.json"; fi

# shared_words survives convert (explicit and binary)
n=$((n + 1))
printf '{"memsim_trace":1,"threads":4,"shared_words":96,"steps":[{"op":"read","addr":[0,1,2,3]}]}' >sw.json
if "$memsim" convert --to binary sw.json -o sw.bin && "$memsim" convert sw.bin -o sw2.json &&
   grep -q '"shared_words": 96' sw2.json; then echo "ok - convert_shared_words"; else fail "convert_shared_words: $(cat sw2.json)"; fi

# compare: --jobs 1 and --jobs 2 give the same report; the progress line; options
fixture=$src/tests/compare/fixture-small.json
n=$((n + 1))
"$memsim" compare -m "$src/models/hmm.json" "$fixture" --jobs 1 -f json -o j1.json 2>j1.err
"$memsim" compare -m "$src/models/hmm.json" "$fixture" --jobs 2 -f json -o j2.json --progress 2>j2.err
if cmp -s j1.json j2.json && grep -q '"predicted_ns"' j1.json; then echo "ok - compare_jobs_agree"
else fail "compare_jobs_agree: $(diff j1.json j2.json | head -5)"; fi
n=$((n + 1))
if grep -q '^compare: 11/11 records simulated, [0-9.]* s$' j2.err && ! grep -q records j1.err; then echo "ok - compare_progress"
else fail "compare_progress: $(cat j2.err)"; fi
n=$((n + 1))
"$memsim" compare -m "$src/models/hmm.json" "$fixture" --quiet --exact -o /dev/null 2>q.err
if ! grep -q 'records simulated' q.err; then echo "ok - compare_quiet"; else fail "compare_quiet: $(cat q.err)"; fi
# --timing: one row per record, with the estimate that orders the records, the engine
# threads each was given (1 with several jobs, 0: all the processors, with one) and the
# kernels not counted (repeated kernel counts)
"$memsim" compare -m "$src/models/hmm.json" "$fixture" --jobs 2 -q --timing t2.tsv -o /dev/null 2>/dev/null
"$memsim" compare -m "$src/models/hmm.json" "$fixture" --jobs 1 -q --timing t1.tsv -o /dev/null 2>/dev/null
if head -1 t2.tsv | grep -q $'\twork\tthreads\tkernels_not_counted$' && [ "$(tail -n +2 t2.tsv | wc -l)" = 11 ] &&
   tail -n +2 t2.tsv | awk -F'\t' '$12 <= 0 || ($13 != 1 && $13 != 2) || $14 !~ /^[0-9]+$/ {bad = 1} END {exit bad}' &&
   tail -n +2 t1.tsv | awk -F'\t' '$13 != 0 {bad = 1} END {exit bad}'; then echo "ok - compare_timing_columns"
else fail "compare_timing_columns: $(head -3 t2.tsv) / $(head -3 t1.tsv)"; fi
expect compare_jobs_bad 2 "--jobs: 0 is not in [1, 1024]" -- compare -m "$src/models/hmm.json" "$fixture" --jobs 0
expect compare_exact_reduced 2 "--exact and --reduced exclude each other" -- compare -m "$src/models/hmm.json" "$fixture" --exact --reduced
expect compare_cached_only_no_cache 2 "--cached-only needs --cache FILE" -- compare -m "$src/models/hmm.json" "$fixture" --cached-only
# --cached-only: an empty cache reports no record and says how many it skipped; a full one
# gives the report of the run that filled it
n=$((n + 1))
: > co.tsv
"$memsim" compare -m "$src/models/h200.json" "$fixture" --cache co.tsv --cached-only --train none -q -f json -o co0.json 2>co0.err
"$memsim" compare -m "$src/models/h200.json" "$fixture" --cache co.tsv --train none -q -f json -o co1.json 2>/dev/null
"$memsim" compare -m "$src/models/h200.json" "$fixture" --cache co.tsv --cached-only --train none -q -f json -o co2.json 2>/dev/null
if grep -q -- '--cached-only: 11 records have no cached result' co0.err && cmp -s co1.json co2.json; then echo "ok - compare_cached_only"
else fail "compare_cached_only: $(cat co0.err) $(diff co1.json co2.json | head -3)"; fi

# compare --train none predicts what memsim run predicts for the same trace: records whose
# trace is a generator's as it stands (gen ... -o, then run; hmm-scheduled with the kernel's --table packed), on a grounded model and on a
# fitted model with launch_ns
cat >rc.json <<'JSON'
{"memsim_measurements": 1, "device": {"name": "test"}, "records": [
 {"workload": "sat", "algorithm": "2r1w", "params": {"n": 256, "block": 32}, "kernels_per_call": 5, "median_ns": 1000, "verified": true},
 {"workload": "sat", "algorithm": "4r4w", "params": {"n": 256, "block": 32}, "kernels_per_call": 4, "median_ns": 1000, "verified": true},
 {"workload": "permutation", "algorithm": "hmm-scheduled", "params": {"n": 65536, "permutation": "random", "seed": 1, "elem_words": 1, "width": 32, "blocks": 1}, "kernels_per_call": 5, "median_ns": 1000, "verified": true},
 {"workload": "permutation", "algorithm": "hmm-scheduled", "params": {"n": 65536, "permutation": "random", "seed": 1, "elem_words": 1, "width": 32, "blocks": 1}, "kernels_per_call": 3, "strip_columns": 8, "median_ns": 1000, "verified": true}]}
JSON
"$memsim" gen sat -a 2r1w --n 256 --tile-threads 128 --chains -o rc0.json 2>/dev/null
"$memsim" gen sat -a 4r4w --n 256 --unroll 8 -o rc1.json 2>/dev/null
"$memsim" gen permutation -a hmm-scheduled -P random --n 65536 --seed 1 --table packed -o rc2.json 2>/dev/null
"$memsim" gen permutation -a hmm-scheduled -P random --n 65536 --seed 1 --table packed --column strips -f binary -o rc3.json 2>/dev/null
for m in "$src/models/h200.json" "$src/models/h200-hmm.json"; do
  n=$((n + 1))
  "$memsim" compare -m "$m" rc.json --train none -q -f json -o rc.out 2>rc.err
  for i in 0 1 2 3; do "$memsim" run "$m" rc$i.json --json >rc$i.run 2>>rc.err; done
  if python3 - rc.out rc0.run rc1.run rc2.run rc3.run <<'PY'
import json, sys
recs = json.load(open(sys.argv[1]))["records"]
for i, f in enumerate(sys.argv[2:]):
    run = json.load(open(f))
    assert recs[i]["predicted_ns"] == run["predicted_ns"], (i, recs[i]["predicted_ns"], run["predicted_ns"])
    assert recs[i]["time_units"] == run["time_units"], (i, recs[i]["time_units"], run["time_units"])
    assert recs[i]["bound"] == run["bound"], (i, recs[i]["bound"], run["bound"])
PY
  then echo "ok - run_equals_compare on $(basename "$m")"; else fail "run_equals_compare on $(basename "$m"): $(cat rc.err)"; fi
done

# the look-back SAT's trace is the kernel the record names (strip_rows, cols_per_thread): a
# record without them (the first kernel) is skipped with the reason, strips of 16 and of 32
# rows are predicted with their own traces; a later file's record of the same measurement
# with another strip_rows replaces the earlier one
cat >lb.json <<'JSON'
{"memsim_measurements": 1, "device": {"name": "test"}, "records": [
 {"workload": "sat", "algorithm": "1r1w-lookback", "params": {"n": 1024, "block": 32}, "kernels_per_call": 1, "median_ns": 20000, "verified": true},
 {"workload": "sat", "algorithm": "1r1w-lookback", "params": {"n": 2048, "block": 32}, "kernels_per_call": 1, "median_ns": 20000, "strip_rows": 32, "cols_per_thread": 2, "verified": true},
 {"workload": "sat", "algorithm": "1r1w-lookback", "params": {"n": 4096, "block": 32}, "kernels_per_call": 1, "median_ns": 8000, "strip_rows": 16, "cols_per_thread": 4, "verified": true}]}
JSON
cat >lb2.json <<'JSON'
{"memsim_measurements": 1, "device": {"name": "test"}, "records": [
 {"workload": "sat", "algorithm": "1r1w-lookback", "params": {"n": 4096, "block": 32}, "kernels_per_call": 1, "median_ns": 7000, "strip_rows": 32, "cols_per_thread": 2, "verified": true}]}
JSON
"$memsim" compare -m "$src/models/h200.json" lb.json --train none -q -f json -o lb.out 2>lb.err &&
"$memsim" compare -m "$src/models/h200.json" lb.json lb2.json --train none -q -f json -o lb2.out 2>>lb.err
if python3 - lb.out lb2.out <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["records"]
assert "without strip_rows" in r[0].get("skipped", ""), r[0]
assert "predicted_ns" not in r[0] and r[1].get("predicted_ns", 0) > 0 and r[2].get("predicted_ns", 0) > 0, r
r2 = json.load(open(sys.argv[2]))["records"]
assert len(r2) == 3 and r2[2]["measured_ns"] == 7000, r2
assert r2[2]["predicted_ns"] != r[2]["predicted_ns"], (r2[2], r[2])
PY
then echo "ok - compare_lookback_kernels"; else fail "compare_lookback_kernels: $(cat lb.err)"; fi

# many threads, same answer: compact traces of 2^16 threads (2048 warps, the workers' share
# size) on every model kind give the same --json with 1 and 3 threads; an error in the last
# worker's share is the one-thread error, word for word
cat >par.json <<'JSON'
{"memsim_trace": 1, "form": "compact", "threads": 65536, "block_threads": 1024,
 "steps": [{"op": "read", "addr": "tid * 33 % 65536"}, {"op": "write", "addr": "tid / 32 * 32 + tid % 32 * 17 % 32"},
           {"op": "sync", "scope": "block"}, {"op": "read", "space": "shared", "addr": "ltid * 5 % 1024"},
           {"op": "write", "space": "global", "addr": "tid", "when": "bid % 3 == 1"}]}
JSON
cat >parbad.json <<'JSON'
{"memsim_trace": 1, "form": "compact", "threads": 65536,
 "steps": [{"op": "read", "addr": "tid"}, {"op": "read", "addr": "tid - 2 * (tid / 50000) * tid"}]}
JSON
for m in textbook-umm textbook-dmm hmm h200; do
  n=$((n + 1))
  "$memsim" run "$src/models/$m.json" par.json --json --per-step --threads 1 >par1.out 2>par.err
  "$memsim" run "$src/models/$m.json" par.json --json --per-step --threads 3 >par3.out 2>>par.err
  if [ -s par1.out ] && cmp -s par1.out par3.out; then echo "ok - threads_same_result on $m"
  else fail "threads_same_result on $m: $(head -c 300 par.err) $(diff par1.out par3.out | head -3)"; fi
done
# the engine's large arrays in huge pages or not (MEMSIM_HUGE_PAGES=0): the same results, for
# per-warp arrays of 2^19 warps (hmm-transpose) and the grounded model's L2 tags (par.json)
for mt in "hmm $src/bench/traces/hmm-transpose.json" "h200 par.json"; do
  set -- $mt
  n=$((n + 1))
  "$memsim" run "$src/models/$1.json" "$2" --json --per-step --threads 2 >hp1.out 2>hp.err
  MEMSIM_HUGE_PAGES=0 "$memsim" run "$src/models/$1.json" "$2" --json --per-step --threads 2 >hp0.out 2>>hp.err
  if [ -s hp1.out ] && cmp -s hp1.out hp0.out; then echo "ok - huge_pages_same_result on $1"
  else fail "huge_pages_same_result on $1: $(head -c 300 hp.err) $(diff hp1.out hp0.out | head -3)"; fi
done
n=$((n + 1))
"$memsim" run "$src/models/textbook-umm.json" parbad.json --threads 1 >/dev/null 2>parbad1.err; rc1=$?
"$memsim" run "$src/models/textbook-umm.json" parbad.json --threads 4 >/dev/null 2>parbad4.err; rc4=$?
if [ "$rc1" = 2 ] && [ "$rc4" = 2 ] && grep -q "negative address -50000 (thread 50000)" parbad1.err && cmp -s parbad1.err parbad4.err
then echo "ok - threads_same_error"; else fail "threads_same_error: $rc1 $rc4 $(cat parbad1.err parbad4.err | head -c 400)"; fi

# results that cannot be written: exit 2 with a message, never 0 (a full disk, a closed pipe)
if [ -c /dev/full ]; then
  for args in "run $dmm $fig" "run $dmm $fig --json" "gen sat -a 2r1w --n 64" "convert $fig"; do
    n=$((n + 1))
    "$memsim" $args >/dev/full 2>full.err; rc=$?
    if [ "$rc" = 2 ] && grep -q "write error" full.err; then echo "ok - full_disk: $args"
    else fail "full_disk: $args: exit $rc: $(cat full.err)"; fi
  done
else
  n=$((n + 1)); echo "ok - full_disk # SKIP no /dev/full"
fi
n=$((n + 1))
"$memsim" convert "$src/bench/traces/umm-coalesced.json" 2>pipe.err | head -c 10 >/dev/null; rc=${PIPESTATUS[0]}
if [ "$rc" = 2 ] && grep -q "write error: Broken pipe" pipe.err; then echo "ok - closed_pipe"
else fail "closed_pipe: exit $rc: $(cat pipe.err)"; fi
# special files given as data are refused at once (a FIFO would block a reader forever)
mkfifo fifo.json
expect data_directory 2 "$tmp: is a directory, not a regular file" -- run "$dmm" "$tmp"
expect data_fifo 2 "fifo.json: is a FIFO, not a regular file" -- run "$dmm" fifo.json
expect model_fifo 2 "fifo.json: is a FIFO, not a regular file" -- run fifo.json "$fig"
expect data_device 2 "/dev/zero: is a device, not a regular file" -- run "$dmm" /dev/zero
expect measured_fifo 2 "fifo.json: is a FIFO, not a regular file" -- compare -m "$dmm" fifo.json

# progress: on a terminal by default (once the run takes a second), quiet when stderr is not
# a terminal or with -q (script(1) gives the run a terminal)
if command -v script >/dev/null 2>&1 && [ "${MEMSIM_SANITIZED:-0}" != 1 ]; then
  n=$((n + 1))
  script -qec "'$memsim' gen sat -a 1r1w --n 4096 --run '$src/models/async-hmm.json'" /dev/null >tty.out 2>&1
  "$memsim" gen sat -a 1r1w --n 4096 --run "$src/models/async-hmm.json" >notty.out 2>notty.err
  if tr '\r' '\n' <tty.out | grep -aq "memsim gen sat: [0-9]* steps, [0-9]* s" && [ ! -s notty.err ] && grep -q "time units" notty.out
  then echo "ok - progress_on_a_terminal_only"; else fail "progress_on_a_terminal_only: $(tr '\r' '\n' <tty.out | tail -3) / $(cat notty.err)"; fi
else
  n=$((n + 1)); echo "ok - progress_on_a_terminal_only # SKIP no script(1), or a sanitized build"
fi

# under a 1 GiB address-space cap (ulimit -v), sizes beyond it are refused with a message
# naming the size, never an abort; small runs still work (not under ASan, which reserves
# far more address space)
if [ "${MEMSIM_SANITIZED:-0}" != 1 ]; then
  cat >huge.json <<'JSON'
{"memsim_trace": 1, "form": "compact", "threads": 4294967296, "steps": [{"op": "read", "addr": "tid"}]}
JSON
  cat >hugeperm.json <<'JSON'
{"memsim_trace": 1, "form": "compact", "threads": 64, "arrays": {"P": {"data": {"generate": "random", "n": 268435456}}},
 "steps": [{"op": "read", "addr": "P[tid]"}]}
JSON
  for c in "huge.json:engine state: more than half the memory this process may use" \
           "hugeperm.json:needs 2.0 GiB: more than half the memory this process may use"; do
    n=$((n + 1))
    f=${c%%:*} msg=${c#*:}
    ( ulimit -v 1048576; "$memsim" run "$src/models/umm-w32.json" "$f" ) >/dev/null 2>cap.err; rc=$?
    if [ "$rc" = 2 ] && grep -qF -- "$msg" cap.err; then echo "ok - memory_cap_refuses $f"
    else fail "memory_cap_refuses $f: exit $rc: $(head -c 300 cap.err)"; fi
  done
  for g in "sat -a 4r4w --n 32768:sat 4r4w n=32768: verifying needs 9.1 GiB" \
           "bpbc -a life-word --size 32768:bpbc life-word: verifying needs 5.0 GiB"; do
    n=$((n + 1))
    ( ulimit -v 1048576; "$memsim" gen ${g%%:*} --run "$src/models/umm-w32.json" ) >/dev/null 2>cap.err; rc=$?
    if [ "$rc" = 2 ] && grep -qF -- "${g#*:}: more than half the memory this process may use" cap.err; then echo "ok - memory_cap_refuses gen ${g%%:*}"
    else fail "memory_cap_refuses gen ${g%%:*}: exit $rc: $(head -c 300 cap.err)"; fi
  done
  n=$((n + 1))
  if ( ulimit -v 1048576; "$memsim" run "$dmm" "$fig" ) | grep -q "time units     7"; then echo "ok - memory_cap_small_run"
  else fail "memory_cap_small_run"; fi
fi

# calibrate: the shipped grounded models are what the documented command makes of the
# committed records (docs/calibration.md), key for key (their "validation" key, the errors
# of their report, bench/validation-bands.py, is added after and changes no prediction)
for g in h100 h200; do
  n=$((n + 1))
  m=$src/traces/measured/$g
  if "$memsim" calibrate "$m/calibrate.json" "$m/loops.json" "$m/l2sweep.json" "$m/writes.json" "$m/randsweep.json" \
       "$m/loaded.json" "$m/shuffles.json" "$m/blocks-lines.json" "$m/fence.json" "$m/barriers.json" "$m/sm-strided.json" "$m/sm-l1.json" \
       --l2-ways 16 --loaded-latency --instructions --l2-hashed-sets --no-block-starts --posted-fences --barriers --dram-rows 256 \
       --dmm-port --dmm-port-banks -q -o "cal-$g.json" 2>cal.err &&
     a=$("$memsim" run "cal-$g.json" "$fig" --json 2>/dev/null) && b=$("$memsim" run "$src/models/$g.json" "$fig" --json 2>/dev/null) &&
     b=$(sed 's/"validation":{[^}]*},//' <<<"$b") &&
     [ "${a%%\"trace\"*}" = "${b%%\"trace\"*}" ] && grep -q '"l2_partitions":2' <<<"$a" &&
     grep -q '"global_loaded_latency":\[\[' <<<"$a" && grep -q '"l2_loaded_latency":\[\[' <<<"$a" &&
     grep -q '"instruction_units":4' <<<"$a" && grep -q '"dmm_global_rate":1,"dmm_port_banks":4' <<<"$a" && grep -q '"barrier_units":13,"barrier_warp_units":2' <<<"$a" && grep -q '"l2_line_words":32,"l2_hashed_sets":true,"l2_posted_fences":true,"dram_row_words":256,"dram_lone_rate":' <<<"$a" &&
     ! grep -q '"block_start_units"' <<<"$a"; then echo "ok - calibrate_makes_shipped_$g"
  else fail "calibrate_makes_shipped_$g: $(head -c 300 cal.err) / $a / $b"; fi
done
# the one-SM records give dmm_global_rate 1 on both GPUs (in the shipped models since 2026-11-28,
# with dmm_port_banks: docs/validation.md)
for g in h100 h200; do
  n=$((n + 1))
  m=$src/traces/measured/$g
  if "$memsim" calibrate "$m/calibrate.json" "$m/loops.json" "$m/l2sweep.json" "$m/writes.json" "$m/randsweep.json" \
       "$m/sm-strided.json" --l2-ways 16 --dmm-port -q -o "port-$g.json" 2>cal.err && grep -q '"dmm_global_rate":[[:space:]]*1,' "port-$g.json" &&
     "$memsim" calibrate "$m/calibrate.json" "$m/sm-strided.json" -q -o "noport-$g.json" 2>>cal.err &&
     ! grep -q dmm_global_rate "noport-$g.json"; then
    echo "ok - calibrate_dmm_global_rate_$g"
  else fail "calibrate_dmm_global_rate_$g: $(head -c 300 cal.err)"; fi
done
# --launch-store: launch_units less the model's own time for the empty kernel's store, so that
# the model takes the measured time for the calibration kernel itself (traces/launch-empty.json:
# 1837 time units on the H100, 1457 on the H200; the shipped models, without it, take 305 and
# 307 more); not in the shipped models (docs/calibration.md, "Launches")
for g in h100:h1837 h200:h1457; do
  n=$((n + 1))
  gpu=${g%%:*}; want=${g##*:h}
  m=$src/traces/measured/$gpu
  if "$memsim" calibrate "$m/calibrate.json" "$m/loops.json" "$m/l2sweep.json" "$m/writes.json" "$m/randsweep.json" \
       "$m/loaded.json" "$m/shuffles.json" "$m/blocks-lines.json" "$m/fence.json" "$m/barriers.json" "$m/sm-strided.json" "$m/sm-l1.json" \
       --l2-ways 16 --loaded-latency --instructions --l2-hashed-sets --no-block-starts --posted-fences --barriers --dram-rows 256 \
       --dmm-port --dmm-port-banks --launch-store -q -o "ls-$gpu.json" 2>cal.err &&
     "$memsim" run "ls-$gpu.json" "$src/traces/launch-empty.json" --json 2>>cal.err | grep -q "^{\"time_units\":$want," &&
     ! "$memsim" run "$src/models/$gpu.json" "$src/traces/launch-empty.json" --json 2>>cal.err | grep -q "^{\"time_units\":$want,"; then
    echo "ok - calibrate_launch_store_$gpu"
  else fail "calibrate_launch_store_$gpu: $(head -c 300 cal.err)"; fi
done
expect calibrate_dmm_port_needs_records 2 "memsim calibrate: --dmm-port: no sm-strided-read record at stride_words 32" -- calibrate --dmm-port "$src/traces/measured/h100/calibrate.json"
expect calibrate_dmm_port_banks_needs_port 2 "memsim calibrate: --dmm-port-banks needs --dmm-port" -- calibrate --dmm-port-banks "$src/traces/measured/h100/calibrate.json"
expect calibrate_dmm_port_banks_needs_records 2 "memsim calibrate: --dmm-port-banks: no sm-l1-strided-read record at stride_words 1" -- calibrate --dmm-port --dmm-port-banks "$src/traces/measured/h100/calibrate.json" "$src/traces/measured/h100/sm-strided.json"
expect calibrate_dmm_port_shared_needs_banks 2 "memsim calibrate: --dmm-port-shared needs --dmm-port-banks" -- calibrate --dmm-port --dmm-port-shared "$src/traces/measured/h100/calibrate.json"
expect calibrate_dmm_port_shared_needs_records 2 "memsim calibrate: --dmm-port-shared: no sm-l1-shared-mix record with shared_loads 0 and global_loads >= 1" -- calibrate --dmm-port --dmm-port-banks --dmm-port-shared "$src/traces/measured/h100/calibrate.json" "$src/traces/measured/h100/sm-strided.json" "$src/traces/measured/h100/sm-l1.json"
expect calibrate_l2_write_rate_needs_records 2 'calibrate.json: no calibrate record "l2-strided-write" with stride_words=1 (--l2-write-rate needs the stride-1 L2 write and read' -- calibrate --l2-write-rate "$src/traces/measured/h100/calibrate.json"
# the experimental models models/experimental/<gpu>-l2w.json: the shipped models' command with
# --l2-write-rate, made again from the committed records, key for key (l2_write_rate 37 and 49)
for g in h100 h200; do
  n=$((n + 1))
  m=$src/traces/measured/$g
  want=37; [ $g = h200 ] && want=49
  if "$memsim" calibrate "$m/calibrate.json" "$m/loops.json" "$m/l2sweep.json" "$m/writes.json" "$m/randsweep.json" \
       "$m/loaded.json" "$m/shuffles.json" "$m/blocks-lines.json" "$m/fence.json" "$m/barriers.json" "$m/sm-strided.json" "$m/sm-l1.json" \
       --l2-ways 16 --loaded-latency --instructions --l2-hashed-sets --no-block-starts --posted-fences --barriers --dram-rows 256 \
       --dmm-port --dmm-port-banks --l2-write-rate -q -o "l2w-$g.json" 2>cal.err &&
     a=$("$memsim" run "l2w-$g.json" "$fig" --json 2>/dev/null) && b=$("$memsim" run "$src/models/experimental/$g-l2w.json" "$fig" --json 2>/dev/null) &&
     [ "${a%%\"trace\"*}" = "${b%%\"trace\"*}" ] && grep -q "\"l2_write_rate\":$want" <<<"$a"; then
    echo "ok - calibrate_makes_l2w_$g"
  else fail "calibrate_makes_l2w_$g: $(head -c 300 cal.err) / $a / $b"; fi
done
# the experimental models models/experimental/<gpu>-lsu.json are the documented command (their
# calibration.command) made again from the committed records, key for key
for g in h100 h200; do
  n=$((n + 1))
  m=$src/traces/measured/$g
  if "$memsim" calibrate "$m/calibrate.json" "$m/loops.json" "$m/l2sweep.json" "$m/writes.json" "$m/randsweep.json" \
       "$m/loaded.json" "$m/shuffles.json" "$m/blocks-lines.json" "$m/fence.json" "$m/barriers.json" "$m/sm-strided.json" "$m/sm-l1.json" \
       --l2-ways 16 --loaded-latency --instructions --l2-hashed-sets --no-block-starts --posted-fences --barriers --dram-rows 256 \
       --dmm-port --dmm-port-banks "$m/lsu-mix.json" --dmm-port-shared -q -o "lsu-$g.json" 2>cal.err &&
     a=$("$memsim" run "lsu-$g.json" "$fig" --json 2>/dev/null) && b=$("$memsim" run "$src/models/experimental/$g-lsu.json" "$fig" --json 2>/dev/null) &&
     [ "${a%%\"trace\"*}" = "${b%%\"trace\"*}" ] && grep -q '"dmm_global_rate":1,"dmm_port_banks":2,"dmm_port_shared":true' <<<"$a"; then
    echo "ok - calibrate_makes_lsu_$g"
  else fail "calibrate_makes_lsu_$g: $(head -c 300 cal.err) / $a / $b"; fi
done
# the L1 sweep gives l1_words 53248 (208 KiB) and l1_latency 40 on both GPUs (not in the shipped models)
for g in h100 h200; do
  n=$((n + 1))
  m=$src/traces/measured/$g
  if "$memsim" calibrate "$m/calibrate.json" "$m/l1sweep.json" --l1 -q -o "l1-$g.json" 2>cal.err &&
     grep -q '"l1_words":[[:space:]]*53248,' "l1-$g.json" && grep -q '"l1_latency":[[:space:]]*40,' "l1-$g.json"; then
    echo "ok - calibrate_l1_$g"
  else fail "calibrate_l1_$g: $(head -c 300 cal.err)"; fi
done
# posted write-backs from store-fence-loop in and beyond L2 (docs/calibration.md): true on both GPUs,
# only with --l2-ways; the experimental models are these files' output
for g in h100 h200; do
  n=$((n + 1))
  m=$src/traces/measured/$g
  if "$memsim" calibrate "$m/calibrate.json" "$m/l2sweep.json" "$m/fence.json" --l2-ways 16 -q -o "wb-$g.json" 2>cal.err &&
     grep -q '"l2_posted_write_backs":[[:space:]]*true' "wb-$g.json" &&
     "$memsim" calibrate "$m/calibrate.json" "$m/l2sweep.json" "$m/fence.json" -q -o "nowb-$g.json" 2>>cal.err &&
     ! grep -q l2_posted_write_backs "nowb-$g.json"; then
    echo "ok - calibrate_posted_write_backs_$g"
  else fail "calibrate_posted_write_backs_$g: $(head -c 300 cal.err)"; fi
done
expect calibrate_l1_needs_records 2 "memsim calibrate: --l1: needs at least 3 l1-sweep records, got 0" -- calibrate --l1 "$src/traces/measured/h100/calibrate.json"
expect calibrate_shuffles_needs_records 2 "memsim calibrate: $src/traces/measured/h100/calibrate.json: no calibrate records \"shuffle-latency\", \"shuffle-rate\" (--shuffles needs them; run memsim-measure --workload calibrate)" -- calibrate --shuffles "$src/traces/measured/h100/calibrate.json"
# --issue: issue_rate from each GPU's issue-rate records (2), no instruction_units
for g in h100 h200; do
  n=$((n + 1))
  m="$src/traces/measured/$g"
  if a=$("$memsim" calibrate "$m/calibrate.json" "$m/issue.json" --issue 2>cal.err) &&
     ! grep -q '"instruction_units"' <<<"$a" && grep -q '"issue_rate":2,' <<<"$(tr -d ' \t\n' <<<"$a")"
  then echo "ok - calibrate_issue_$g"; else fail "calibrate_issue_$g: $(head -c 300 cal.err)"; fi
done
# records of fewer chains (latency hiding) are not the issue rate: a 64-warp record of one
# chain at 0.9 per SM per clock must not replace the 32-warp alu record's 1.98
n=$((n + 1))
python3 - "$src/traces/measured/h100/issue.json" issue-chains.json <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
r = copy.deepcopy(next(x for x in d["records"] if x["params"].get("op") == "alu"))
r["params"].update(warps_per_sm=64, chains_per_thread=1)
r["result"]["instructions_per_sm_per_clock"] = 0.9
d["records"].append(r)
json.dump(d, open(sys.argv[2], "w"))
PY
if a=$("$memsim" calibrate "$src/traces/measured/h100/calibrate.json" issue-chains.json --issue 2>cal.err) &&
   grep -q '"issue_rate":2,' <<<"$(tr -d ' \t\n' <<<"$a")"
then echo "ok - calibrate_issue_ignores_fewer_chains"; else fail "calibrate_issue_ignores_fewer_chains: $(head -c 300 cal.err)"; fi
expect calibrate_issue_needs_records 2 "memsim calibrate: --issue: needs issue-rate records at 2 or more warps_per_sm, got 0 (MEMSIM_ONLY=issue-rate run memsim-measure --workload calibrate)" -- calibrate --issue "$src/traces/measured/h100/calibrate.json"
expect calibrate_loaded_needs_records 2 "memsim calibrate: --loaded-latency: needs at least 2 loaded-chase records, got 0 (MEMSIM_ONLY=loaded-chase,l2-loaded-chase run memsim-measure --workload calibrate)" -- calibrate --loaded-latency "$src/traces/measured/h100/calibrate.json"
expect calibrate_hashed_needs_ways 2 "memsim calibrate: --l2-hashed-sets needs --l2-ways" -- calibrate --l2-hashed-sets "$src/traces/measured/h100/calibrate.json"
expect calibrate_dram_rows_needs_ways 2 "memsim calibrate: --dram-rows needs --l2-ways" -- calibrate --dram-rows 256 "$src/traces/measured/h100/calibrate.json"
expect calibrate_dram_rows_needs_records 2 "memsim calibrate: $src/traces/measured/h100/calibrate.json: --dram-rows: no l2-random-sweep records (dram_lone_rate is their largest footprint's loads per time unit; run memsim-measure --workload calibrate)" -- calibrate --l2-ways 16 --dram-rows 256 "$src/traces/measured/h100/calibrate.json"
expect calibrate_lone_writes_need_rows 2 "memsim calibrate: --dram-lone-writes needs --dram-rows" -- calibrate --l2-ways 16 --dram-lone-writes "$src/traces/measured/h100/calibrate.json"
expect calibrate_lone_writes_need_records 2 "memsim calibrate: $src/traces/measured/h100/calibrate.json: --dram-lone-writes: no l2-random-write-sweep records (dram_lone_write_rate is their largest footprint's stores per time unit, two slots each; run memsim-measure --workload calibrate)" -- calibrate --l2-ways 16 --dram-rows 256 --dram-lone-writes "$src/traces/measured/h100/calibrate.json" "$src/traces/measured/h100/randsweep.json"
expect calibrate_warm_needs_ways 2 "memsim calibrate: --l2-warm needs --l2-ways" -- calibrate --l2-warm "$src/traces/measured/h100/calibrate.json"
expect calibrate_home_needs_partitions 2 "memsim calibrate: $src/traces/measured/h100/calibrate.json: --l2-home-partitions: no l2-random-sweep records that give l2_partitions of 2 or more (run memsim-measure --workload calibrate)" -- calibrate --l2-ways 16 --l2-home-partitions "$src/traces/measured/h100/calibrate.json"
expect calibrate_dram_rows_whole_groups 2 "memsim calibrate: --dram-rows: 100 words is not a multiple of group_words (16)" -- calibrate --l2-ways 16 --dram-rows 100 "$src/traces/measured/h100/calibrate.json" "$src/traces/measured/h100/randsweep.json"
# flags (docs/models.md, "Flags"): the worked example, and the same trace through the binary form
n=$((n + 1))
if out=$("$memsim" run "$src/models/textbook-umm.json" "$src/traces/flags.json" --json 2>/dev/null) &&
   grep -q '^{"time_units":15,' <<<"$out" && grep -q '"signals":3,"waits":2' <<<"$out" &&
   "$memsim" convert "$src/traces/flags.json" --to binary -o flags.bin &&
   out2=$("$memsim" run "$src/models/textbook-umm.json" flags.bin --json 2>/dev/null) &&
   grep -q '^{"time_units":15,' <<<"$out2"; then echo "ok - flags_worked_example"
else fail "flags_worked_example: $out"; fi
# convert -o -: standard output, not a file named "-"
n=$((n + 1))
if out=$("$memsim" convert "$src/traces/async-copy.json" -o - 2>&1) && grep -q '"async": true' <<<"$out" && [ ! -e ./- ]; then
  echo "ok - convert_dash_is_stdout"
else fail "convert_dash_is_stdout: $out"; fi
# barrier time (docs/models.md): the worked example, 18 time units with the keys, 12 without
n=$((n + 1))
sed 's/, "barrier_units": 3, "barrier_warp_units": 2//' "$src/models/extensions/dmm-barrier-time.json" >no-barrier-time.json
if out=$("$memsim" run "$src/models/extensions/dmm-barrier-time.json" "$src/traces/barrier-time.json" --json 2>/dev/null) &&
   grep -q '^{"time_units":18,' <<<"$out" &&
   "$memsim" run no-barrier-time.json "$src/traces/barrier-time.json" --json 2>/dev/null | grep -q '^{"time_units":12,'; then
  echo "ok - barrier_time_worked_example"
else fail "barrier_time_worked_example: $out"; fi
# a DMM's port by banks (docs/models.md): the worked example, 8 time units with dmm_port_banks 2,
# 12 by stages
n=$((n + 1))
sed 's/, "dmm_port_banks": 2//' "$src/models/extensions/hmm-dmm-port-banks.json" >no-port-banks.json
if out=$("$memsim" run "$src/models/extensions/hmm-dmm-port-banks.json" "$src/traces/dmm-port-banks.json" --json 2>/dev/null) &&
   grep -q '^{"time_units":8,' <<<"$out" &&
   "$memsim" run no-port-banks.json "$src/traces/dmm-port-banks.json" --json 2>/dev/null | grep -q '^{"time_units":12,'; then
  echo "ok - dmm_port_banks_worked_example"
else fail "dmm_port_banks_worked_example: $out"; fi
# shared and global reads on one port (docs/models.md): the worked example, 13 time units with
# dmm_port_shared, 12 without
n=$((n + 1))
sed 's/, "dmm_port_shared": true//' "$src/models/extensions/hmm-port-shared.json" >no-port-shared.json
if out=$("$memsim" run "$src/models/extensions/hmm-port-shared.json" "$src/traces/port-shared.json" --json 2>/dev/null) &&
   grep -q '^{"time_units":13,' <<<"$out" &&
   "$memsim" run no-port-shared.json "$src/traces/port-shared.json" --json 2>/dev/null | grep -q '^{"time_units":12,'; then
  echo "ok - port_shared_worked_example"
else fail "port_shared_worked_example: $out"; fi
# whole writes in L2 (docs/models.md): the worked example, 7 time units with l2_write_rate, 6 without
n=$((n + 1))
sed 's/, "l2_write_rate": 1//' "$src/models/extensions/umm-l2-write-rate.json" >no-write-rate.json
if out=$("$memsim" run "$src/models/extensions/umm-l2-write-rate.json" "$src/traces/l2-write-rate.json" --json 2>/dev/null) &&
   grep -q '^{"time_units":7,' <<<"$out" &&
   "$memsim" run no-write-rate.json "$src/traces/l2-write-rate.json" --json 2>/dev/null | grep -q '^{"time_units":6,'; then
  echo "ok - l2_write_rate_worked_example"
else fail "l2_write_rate_worked_example: $out"; fi
# whole writes in L2, writes in part: 7 time units with l2_write_rate and without (a group
# written in part keeps the read rate)
n=$((n + 1))
sed 's/, "l2_write_rate": 1//' "$src/models/extensions/umm-l2-write-rate-partial.json" >no-write-rate-partial.json
if out=$("$memsim" run "$src/models/extensions/umm-l2-write-rate-partial.json" "$src/traces/l2-write-rate-partial.json" --json 2>/dev/null) &&
   grep -q '^{"time_units":7,' <<<"$out" &&
   "$memsim" run no-write-rate-partial.json "$src/traces/l2-write-rate-partial.json" --json 2>/dev/null | grep -q '^{"time_units":7,'; then
  echo "ok - l2_write_rate_partial_worked_example"
else fail "l2_write_rate_partial_worked_example: $out"; fi
# posted fences (docs/models.md): the worked example, 7 time units with the key, 10 without
n=$((n + 1))
sed 's/, "l2_posted_fences": true//' "$src/models/extensions/umm-l2-posted-fences.json" >no-fences.json
if out=$("$memsim" run "$src/models/extensions/umm-l2-posted-fences.json" "$src/traces/posted-fence.json" --json 2>/dev/null) &&
   grep -q '^{"time_units":7,' <<<"$out" &&
   "$memsim" run no-fences.json "$src/traces/posted-fence.json" --json 2>/dev/null | grep -q '^{"time_units":10,'; then
  echo "ok - posted_fences_worked_example"
else fail "posted_fences_worked_example: $out"; fi
# DRAM rows (docs/models.md): the worked example, 14 time units with the rows, 12 without; the
# compact form of the same trace gives the same
n=$((n + 1))
sed 's/, "dram_row_words": 8, "dram_lone_rate": 1//' "$src/models/extensions/umm-dram-rows.json" >no-rows.json
printf '%s\n' '{"memsim_trace": 1, "form": "compact", "threads": 4,' \
  ' "steps": [{"op": "read", "addr": "8 * tid"}, {"op": "read", "addr": "32 + 4 * tid"}]}' >rows-compact.json
if out=$("$memsim" run "$src/models/extensions/umm-dram-rows.json" "$src/traces/dram-rows.json" --json 2>/dev/null) &&
   grep -q '^{"time_units":14,' <<<"$out" && grep -q '"dram_busy":6,"dram_lone_stages":4' <<<"$out" &&
   "$memsim" run "$src/models/extensions/umm-dram-rows.json" rows-compact.json --json 2>/dev/null | grep -q '^{"time_units":14,' &&
   "$memsim" run no-rows.json "$src/traces/dram-rows.json" --json 2>/dev/null | grep -q '^{"time_units":12,'; then
  echo "ok - dram_rows_worked_example"
else fail "dram_rows_worked_example: $out"; fi
# a warm L2 and home partitions (docs/models.md): the worked examples, 12 time units warm
# (15 cold) and 5 with home partitions (6 without); a warm model refuses standard input
n=$((n + 1))
sed 's/, "l2_warm": true//' "$src/models/extensions/umm-l2-warm.json" >cold.json
sed 's/, "l2_home_partitions": true//' "$src/models/extensions/hmm-l2-home.json" >no-home.json
if out=$("$memsim" run "$src/models/extensions/umm-l2-warm.json" "$src/traces/l2-warm.json" --json 2>/dev/null) &&
   grep -q '^{"time_units":12,' <<<"$out" && grep -q '"hits":1,"misses":2,.*"warm":true' <<<"$out" &&
   "$memsim" run cold.json "$src/traces/l2-warm.json" --json 2>/dev/null | grep -q '^{"time_units":15,' &&
   "$memsim" run "$src/models/extensions/hmm-l2-home.json" "$src/traces/l2-home.json" --json 2>/dev/null | grep -q '^{"time_units":5,' &&
   "$memsim" run no-home.json "$src/traces/l2-home.json" --json 2>/dev/null | grep -q '^{"time_units":6,'; then
  echo "ok - l2_warm_and_home_partitions_worked_examples"
else fail "l2_warm_and_home_partitions_worked_examples: $out"; fi
n=$((n + 1))
if ! "$memsim" run "$src/models/extensions/umm-l2-warm.json" - <"$src/traces/l2-warm.json" >warm.out 2>warm.err &&
   [ ! -s warm.out ] && grep -qF -- "memsim run: -: l2_warm: the model runs a trace twice (a first run warms the L2), and it can be read only once here" warm.err; then
  echo "ok - l2_warm_refuses_standard_input"
else fail "l2_warm_refuses_standard_input: $(head -c 300 warm.err)"; fi
# asynchronous copies (docs/models.md): the worked example, 11 time units, in the explicit,
# binary and compact forms
n=$((n + 1))
printf '%s\n' '{"memsim_trace": 1, "form": "compact", "threads": 4,' \
  ' "steps": [{"op": "read", "async": true, "addr": "tid"}, {"op": "sync", "scope": "block"},' \
  '           {"op": "read", "addr": "4 + tid"}, {"op": "await"}, {"op": "write", "addr": "8 + tid"}]}' >async-compact.json
if out=$("$memsim" run "$src/models/textbook-umm.json" "$src/traces/async-copy.json" --json 2>/dev/null) &&
   grep -q '^{"time_units":11,' <<<"$out" && grep -q '"async_reads":1,"awaits":1' <<<"$out" &&
   "$memsim" convert "$src/traces/async-copy.json" --to binary -o async.bin &&
   "$memsim" run "$src/models/textbook-umm.json" async.bin --json 2>/dev/null | grep -q '^{"time_units":11,' &&
   "$memsim" run "$src/models/textbook-umm.json" async-compact.json --json 2>/dev/null | grep -q '^{"time_units":11,'; then
  echo "ok - async_copy_worked_example"
else fail "async_copy_worked_example: $out"; fi
# instructions (docs/models.md, "Instructions"): the worked example in the explicit, binary and
# compact forms, 16 time units with instruction_units 2 and 11 on the textbook UMM
n=$((n + 1))
printf '%s\n' '{"memsim_trace": 1, "form": "compact", "threads": 8, "block_threads": 8,' \
  ' "steps": [{"op": "read", "addr": "tid"}, {"op": "compute", "instructions": "tid < 4 ? 3 : tid - 3", "when": "tid < 6"},' \
  '           {"op": "write", "addr": "8 + tid"}]}' >compute-compact.json
if out=$("$memsim" run "$src/models/extensions/umm-instructions.json" "$src/traces/compute.json" --json 2>/dev/null) &&
   grep -q '^{"time_units":16,' <<<"$out" && grep -q '"compute_steps":1,"instructions":5,' <<<"$out" &&
   "$memsim" convert "$src/traces/compute.json" --to binary -o compute.bin &&
   "$memsim" run "$src/models/extensions/umm-instructions.json" compute.bin --json 2>/dev/null | grep -q '^{"time_units":16,' &&
   "$memsim" convert compute.bin --to explicit | grep -q '"instructions": \[3, 3, 3, 3, 1, 2, null, null\]' &&
   "$memsim" run "$src/models/extensions/umm-instructions.json" compute-compact.json --json 2>/dev/null | grep -q '^{"time_units":16,' &&
   "$memsim" run "$src/models/textbook-umm.json" "$src/traces/compute.json" --json 2>/dev/null | grep -q '^{"time_units":11,'
then echo "ok - instructions_worked_example"; else fail "instructions_worked_example: $out"; fi
# gen sat --chains (docs/workloads/sat.md, "Chains"): the scans' adds as compute steps; the
# trace still verifies, has the same requests, and costs more only with instruction_units
n=$((n + 1))
if a=$("$memsim" gen sat -a 1+r -r 0.5 -n 256 --run "$src/models/extensions/umm-instructions.json" --json 2>/dev/null) &&
   b=$("$memsim" gen sat -a 1+r -r 0.5 -n 256 --chains --run "$src/models/extensions/umm-instructions.json" --json 2>/dev/null) &&
   c=$("$memsim" gen sat -a 1+r -r 0.5 -n 256 --chains --run "$src/models/textbook-umm.json" --json 2>/dev/null) &&
   d=$("$memsim" gen sat -a 1+r -r 0.5 -n 256 --run "$src/models/textbook-umm.json" --json 2>/dev/null) &&
   ta=$(grep -o '"time_units":[0-9]*' <<<"$a") && tb=$(grep -o '"time_units":[0-9]*' <<<"$b") &&
   [ "${ta#*:}" -lt "${tb#*:}" ] && grep -q '"instructions":[1-9]' <<<"$b" &&
   [ "$(grep -o '"time_units":[0-9]*' <<<"$c")" = "$(grep -o '"time_units":[0-9]*' <<<"$d")" ] &&
   [ "$(grep -o '"requests":[0-9]*' <<<"$a" | head -1)" = "$(grep -o '"requests":[0-9]*' <<<"$b" | head -1)" ]
then echo "ok - gen_sat_chains"; else fail "gen_sat_chains: $a / $b"; fi
# the issue limit (docs/models.md, "Instructions"): 20 time units with issue_rate 1, bound "issue"
n=$((n + 1))
if out=$("$memsim" run "$src/models/extensions/hmm-issue.json" "$src/traces/issue.json" --json 2>/dev/null) &&
   grep -q '^{"time_units":20,' <<<"$out" && grep -q '"issue_rate":1' <<<"$out" && grep -q '"issue_units":20' <<<"$out" &&
   "$memsim" run "$src/models/extensions/hmm-issue.json" "$src/traces/issue.json" | grep -q '^bound  *issue' &&
   "$memsim" convert "$src/traces/issue.json" --to binary -o issue.bin &&
   "$memsim" run "$src/models/extensions/hmm-issue.json" issue.bin --json 2>/dev/null | grep -q '^{"time_units":20,'
then echo "ok - issue_rate_worked_example"; else fail "issue_rate_worked_example: $out"; fi
# gen gcd --instructions N: a compute step over each memory step's threads (N per warp that
# takes part), the same in the binary form; no time without instruction_units
n=$((n + 1))
printf '{"model": "umm", "width": 32, "latency": 100, "instruction_units": 4}\n' >umm-iu.json
if a=$("$memsim" gen gcd -a binary --bits 64 --instances 64 --instructions 3 --run umm-iu.json --json 2>/dev/null) &&
   b=$("$memsim" gen gcd -a binary --bits 64 --instances 64 --run umm-iu.json --json 2>/dev/null) &&
   c=$("$memsim" gen gcd -a binary --bits 64 --instances 64 --instructions 3 --run "$src/models/umm-w32.json" --json 2>/dev/null) &&
   d=$("$memsim" gen gcd -a binary --bits 64 --instances 64 --run "$src/models/umm-w32.json" --json 2>/dev/null) &&
   "$memsim" gen gcd -a binary --bits 64 --instances 64 --instructions 3 -f binary -o gcd-i.bin 2>/dev/null &&
   e=$("$memsim" run umm-iu.json gcd-i.bin --json 2>/dev/null) &&
   python3 -c 'import json,sys; a,b,c,d,e=(json.loads(x) for x in sys.argv[1:6])
assert a["instructions"] == 3 * a["dispatches"] and a["compute_steps"] == a["memory_steps"], a
assert a["dispatches"] == b["dispatches"] and a["time_units"] > b["time_units"], (a["time_units"], b["time_units"])
assert c["time_units"] == d["time_units"] and e["time_units"] == a["time_units"], (c["time_units"], d["time_units"], e["time_units"])' "$a" "$b" "$c" "$d" "$e"
then echo "ok - gen_gcd_instructions"; else fail "gen_gcd_instructions: $a"; fi
# compare: a record's "instructions" param puts a compute step before each memory step of its
# trace (any family): slower on a model with instruction_units, the same on one without
n=$((n + 1))
python3 - "$src/traces/measured/h100/simple.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = dict(d["records"][0]); r["params"] = {"n": 65536, "threads_per_block": 256, "seed": 1}
r2 = dict(r); r2["params"] = dict(r["params"], instructions=5)
d["records"] = [r]; json.dump(d, open("simple-a.json", "w"))
d["records"] = [r2]; json.dump(d, open("simple-b.json", "w"))
m = json.load(open(sys.argv[1].replace("traces/measured/h100/simple.json", "models/h100.json")))
m.pop("validation", None); m["instruction_units"] = 4; json.dump(m, open("h100-iu.json", "w"))
m.pop("instruction_units"); json.dump(m, open("h100-nou.json", "w"))
PY
tu() { "$memsim" compare -m "$1" -M "$2" --train none -q -f json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["records"][0]["time_units"])'; }
if a=$(tu h100-iu.json simple-a.json) && b=$(tu h100-iu.json simple-b.json) && c=$(tu h100-nou.json simple-b.json) &&
   [ "$b" -gt "$a" ] && [ "$c" = "$a" ]; then echo "ok - compare_record_instructions"
else fail "compare_record_instructions: $a $b $c"; fi
# the cache: a model that adds the instruction keys keeps the results of records without
# compute steps (the key leaves them out), and not of records with them
n=$((n + 1))
"$memsim" compare -m h100-nou.json -M simple-a.json -M simple-b.json --train none --cache iu.tsv -q -f json -o /dev/null 2>/dev/null
if a=$("$memsim" compare -m h100-iu.json -M simple-a.json -M simple-b.json --train none --cache iu.tsv --cached-only -q -f json 2>iu.err) &&
   python3 -c 'import json,sys; r=[r for r in json.load(sys.stdin)["records"] if r["set"] != "skipped"]; assert len(r) == 1 and "instructions" not in r[0]["params"], r' <<<"$a" &&
   grep -q "1 record" iu.err; then echo "ok - compare_cache_instruction_keys"
else fail "compare_cache_instruction_keys: $(cat iu.err) $a"; fi
# the worked examples of docs/models.md's extensions, by the command
for ex in "hmm-l2-partitions:l2-partitions:8" "hmm-block-starts:block-starts:11" "umm-l2-cache:l2-cache:18" "hmm-dmm-port:dmm-port:8" "umm-shuffles:shuffles:16" "hmm-l1:l1-cache:17" "hmm-l1-port:l1-cache:22" "umm-loaded-latency:loaded-latency:11" "umm-l2-posted-write-backs:l2-cache:14" "umm-instructions:compute:16"; do
  IFS=: read -r mo tr want <<<"$ex"
  n=$((n + 1))
  if out=$("$memsim" run "$src/models/extensions/$mo.json" "$src/traces/$tr.json" --json 2>/dev/null) &&
     grep -q "^{\"time_units\":$want," <<<"$out"; then echo "ok - worked_example_$mo"
  else fail "worked_example_$mo: $out"; fi
done

# without a GPU (CI), measure says so and exits 3; on a GPU machine this check is skipped
n=$((n + 1))
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi >/dev/null 2>&1; then
  echo "ok - measure_no_gpu # SKIP a GPU is present"
else
  "$memsim" measure --quick -o m.json >"$tmp/out" 2>"$tmp/err"; rc=$?
  if [ "$rc" = 3 ] && [ -s "$tmp/err" ] && [ ! -s m.json ]; then echo "ok - measure_no_gpu"
  else fail "measure_no_gpu: exit $rc: $(head -c 300 "$tmp/err")"; fi
fi

echo "1..$n"
[ "$fails" = 0 ]
