#!/usr/bin/env bash
# view.sh MEMSIM SRCDIR: the classroom view (run --view) in a real browser, headless Chromium:
# the page loads with no console message and no script error, stepping (#t=N, what the
# slider sets) changes what it shows as the model says, the pictures parse and their numbers
# are those of run --json.  Exit 77 (meson: skipped) where no Chromium is installed
# (scripts/setup.sh installs Debian's).
set -u
memsim=$(realpath "$1")
src=$(realpath "$2")
browser=""
for b in chromium chromium-browser google-chrome google-chrome-stable; do
  if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
  echo "1..0 # SKIP no chromium on the PATH (scripts/setup.sh installs it)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fails=0
n=0
fail() { echo "not ok - $*"; fails=$((fails + 1)); }
ok() { echo "ok - $*"; }

# dom FILE FRAGMENT OUT: the DOM once the page's scripts ran; the browser's log (console
# messages among it) in OUT.log.  Every host name resolves to nothing: the page must not
# need the network.
dom() {
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --no-default-browser-check \
    --user-data-dir="$tmp/profile" --host-resolver-rules="MAP * ~NOTFOUND" --enable-logging=stderr --v=0 \
    --virtual-time-budget=3000 --dump-dom "file://$tmp/$1$2" >"$3" 2>"$3.log"
}

# page_ok NAME DOM: loaded (data-ready), no error the page caught, no console message
page_ok() {
  python3 - "$2" <<'PY'
import re, sys
dom = open(sys.argv[1]).read()
log = open(sys.argv[1] + ".log").read()
problems = []
if 'data-ready="1"' not in dom:
    problems.append("the script did not finish (no data-ready)")
m = re.search(r'<pre id="errors"[^>]*>(.*?)</pre>', dom, re.S)
if not m or m.group(1).strip():
    problems.append("page errors: " + (m.group(1).strip() if m else "no #errors element"))
console = [l for l in log.splitlines() if ":CONSOLE" in l]
if console:
    problems.append("console: " + " | ".join(console)[:400])
if problems:
    print("; ".join(problems))
    sys.exit(1)
PY
}

dmm=$src/models/textbook-dmm.json
fig=$src/traces/fig3-3.json

# --- Figure 3.3 on the DMM: the page and its steps ----------------------------------------
"$memsim" run "$dmm" "$fig" --view fig.html >/dev/null 2>run.err || fail "fig_page: run: $(cat run.err)"
dom fig.html "#t=0" t0.html
dom fig.html "#t=3" t3.html
n=$((n + 1))
if out=$(page_ok fig_t0 t0.html) && out3=$(page_ok fig_t3 t3.html); then ok "fig_page_loads_clean"
else fail "fig_page_loads_clean: $out ${out3:-}"; fi

# W0 has 2 stages entering at 0 and 1, W1 one at 2 (l = 5); boxes stand at column entry + depth - 1
n=$((n + 1))
if python3 - t0.html t3.html <<'PY'
import re, sys
def state(path):
    dom = open(path).read()
    now = re.search(r'<div id="now" data-t="(\d+)">(.*?)</div></div>', dom, re.S)
    boxes = re.findall(r'<rect class="st([^"]*)" data-c="(\d+)"', dom)
    future = sum(1 for cls, c in boxes if "future" in cls)
    active = re.findall(r'<g class="wrow[^"]*active[^"]*" data-w="(\d+)"', dom)
    return now.group(1), re.sub(r"<[^>]+>", "\n", now.group(2)), len(boxes), future, active
t0, t3 = state(sys.argv[1]), state(sys.argv[2])
assert t0[0] == "0" and t3[0] == "3", (t0[0], t3[0])
assert "shared (DMM): depth 1: W0.0 (stage 1 of 2)" in t0[1], t0[1]
assert ("shared (DMM): depth 2: W1.0 · depth 3: W0.0 (stage 2 of 2) · depth 4: W0.0 (stage 1 of 2) · entry idle"
        in t3[1]), t3[1]
assert "At t = 3: 3 of 3 stages have entered" in t3[1], t3[1]
assert t0[2] == t3[2] == 15, (t0[2], t3[2])            # 3 stages x 5 depths
assert (t0[3], t3[3]) == (14, 6), (t0[3], t3[3])      # boxes still to come
assert t0[4] == ["0"] and t3[4] == ["0", "1"], (t0[4], t3[4])  # warps with a request in flight
PY
then ok "fig_stepping"; else fail "fig_stepping"; fi

# the checks see an error when there is one: the same page with a broken script
sed 's#</body>#<script>console.log("hello"); no_such_function();</script></body>#' fig.html >broken.html
dom broken.html "#t=1" broken.dom
n=$((n + 1))
if out=$(page_ok broken broken.dom); then fail "broken_page_is_caught: no error seen"
elif grep -q "no_such_function is not defined" <<<"$out" && grep -q "hello" <<<"$out"; then ok "broken_page_is_caught"
else fail "broken_page_is_caught: $out"; fi

# --- every worked example: page loads, picture parses, numbers are run --json's ------------
cases=(
  "textbook-dmm.json fig3-3.json"
  "textbook-umm.json fig3-3.json"
  "textbook-umm.json fig3-1.json"
  "textbook-umm.json barriers.json"
  "umm-w4-l100.json idle-pipeline.json"
  "hmm-small.json hmm-small.json"
  "dmm-w32.json transpose-1024.json"
  "dmm-w32.json compact/tile-transpose-padded.json"
  "umm-w32.json compact/coalesced-loop.json"
)
i=0
for c in "${cases[@]}"; do
  set -- $c
  i=$((i + 1))
  name="$i-${1%.json}-$(basename "${2%.json}")"
  n=$((n + 1))
  if ! "$memsim" run "$src/models/$1" "$src/traces/$2" --json --view "$name.svg" >"$name.json" 2>"$name.err" ||
     ! "$memsim" run "$src/models/$1" "$src/traces/$2" --view "$name.html" >/dev/null 2>>"$name.err"; then
    fail "numbers $name: run: $(head -c 300 "$name.err")"; continue
  fi
  if out=$(python3 - "$name.svg" "$name.json" <<'PY'
import json, sys, xml.etree.ElementTree as ET
svg = ET.parse(sys.argv[1]).getroot()
r = json.load(open(sys.argv[2]))
want = {"time-units": r["time_units"], "stages": r["stages"], "dispatches": r["dispatches"],
        "requests": r["requests"], "extra-stages": r["extra_stages"], "round-sum": r["round_sum"],
        "shared-stages": r["shared"]["stages"], "global-stages": r["global"]["stages"],
        "steps": r["steps"], "warps": r["warps"]}
for k, v in want.items():
    got = svg.get("data-" + k)
    assert got == str(v), f"data-{k}={got}, --json says {v}"
ns = "{http://www.w3.org/2000/svg}"
totals = "".join(svg.find(f".//{ns}text[@id='totals']").itertext())
assert totals.startswith(f"{r['time_units']} time units · {r['stages']} stages · {r['dispatches']} dispatches"), totals
assert f"round sum {r['round_sum']}" in totals, totals
if svg.get("data-mode") == "boxes":   # one box at depth 1 per stage, per pipeline as counted
    entry = sum(int(e.get("data-n", "1")) for e in svg.iter(ns + "rect") if e.get("data-d") == "1")
    assert entry == r["stages"], (entry, r["stages"])
    lanes = sum(int(g.get("data-stages")) for g in svg.iter(ns + "g") if g.get("class") == "pipe")
    assert lanes == r["stages"], (lanes, r["stages"])
print(svg.get("data-mode"))
PY
  ); then
    dom "$name.html" "#t=2" "$name.dom"
    dom "$name.svg" "" "$name.svgdom"
    if ! perr=$(page_ok "$name" "$name.dom"); then fail "numbers $name: page: $perr"
    elif ! grep -q '<svg' "$name.svgdom" || grep -q "parsererror\|This page contains the following errors" "$name.svgdom"; then
      fail "numbers $name: the browser does not read the SVG: $(head -c 300 "$name.svgdom")"
    elif grep -q ":CONSOLE" "$name.svgdom.log"; then fail "numbers $name: console: $(grep :CONSOLE "$name.svgdom.log" | head -c 300)"
    else ok "numbers $name ($out)"; fi
  else
    fail "numbers $name: $out"
  fi
done

# --- the summarised page steps through its bars -------------------------------------------
big="9-umm-w32-coalesced-loop"
dom "$big.html" "#t=5" big5.dom
n=$((n + 1))
if page_ok big big5.dom >/dev/null && grep -q '<div id="now" data-t="5"><div class="now-total">step 5: 32768 stages, 32768 dispatches, 0 extra stages' big5.dom &&
   grep -q '<g class="bin sel" data-b="5">' big5.dom && [ "$(grep -o 'class="bin sel"' big5.dom | wc -l)" = 1 ] &&
   grep -qF "a summarised view (more than 4000 dispatches)" "$big.err"; then
  ok "summary_stepping"
else fail "summary_stepping: $(grep -o '<div id="now".\{0,200\}' big5.dom)"; fi

# --- the HMM page: one line per busy pipeline, W0's global read at t = 2 -------------------
hmm="6-hmm-small-hmm-small"
n=$((n + 1))
if grep -qF 'global (UMM): depth 1: W2.0 · depth 2: W1.0 · depth 3: W0.0' "$hmm.dom" &&
   [ "$(grep -o 'class="now-pipe"' "$hmm.dom" | wc -l)" = 3 ]; then ok "hmm_now"
else fail "hmm_now: $(grep -o '<div id="now".\{0,400\}' "$hmm.dom")"; fi

echo "1..$n"
[ "$fails" = 0 ]
