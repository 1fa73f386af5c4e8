#!/usr/bin/env bash
# Install what memsim needs to build and test on Debian (idempotent, non-interactive).
# The CUDA toolkit (nvcc) is not installed here: kernels/ builds only where it is present.
set -euo pipefail
pkgs=(build-essential pkg-config meson ninja-build libglib2.0-dev libcjson-dev libcriterion-dev
      libgmp-dev python3 python3-numpy parallel libplplot-dev plplot-driver-cairo)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}" >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
