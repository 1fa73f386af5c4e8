#!/usr/bin/env bash
# Install what memsim needs to build and test on Debian (idempotent, non-interactive).
# The CUDA toolkit (nvcc) is not installed here: kernels/ builds only where it is present.
# Chromium (and a font for it) is what tests/view.sh renders the classroom view with; where
# it cannot be installed, setup goes on and that test is skipped.
set -euo pipefail
pkgs=(build-essential pkg-config meson ninja-build libglib2.0-dev libcjson-dev libcriterion-dev
      libgmp-dev python3 python3-numpy parallel libplplot-dev plplot-driver-cairo)
optional=(chromium fonts-dejavu-core)
missing() {
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
apt() { $sudo env DEBIAN_FRONTEND=noninteractive apt-get "$@"; }
mapfile -t need < <(missing "${pkgs[@]}")
mapfile -t want < <(missing "${optional[@]}")
if [ ${#need[@]} -gt 0 ] || [ ${#want[@]} -gt 0 ]; then apt update -qq || [ ${#need[@]} -eq 0 ]; fi
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}" >&2
  apt install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
if [ ${#want[@]} -gt 0 ]; then
  echo "setup: installing ${want[*]}" >&2
  apt install -y -qq --no-install-recommends "${want[@]}" >/dev/null ||
    echo "setup: could not install ${want[*]}: tests/view.sh (the view in a browser) will be skipped" >&2
fi
