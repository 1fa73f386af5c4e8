#!/usr/bin/env bash
# Builds memsim-measure with nvcc alone (no meson): bash kernels/build.sh OUTDIR
# Finds CUPTI under the CUDA toolkit; without it builds with -DMEMSIM_NO_CUPTI
# (CUDA events timing). NVCC, NVCC_FLAGS and CUPTI_ROOT may be set.
set -euo pipefail
out=${1:?usage: build.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || { echo "build.sh: nvcc not found" >&2; exit 1; }
cuda=$(cd "$(dirname "$nvcc")/.." && pwd)
mkdir -p "$out"
cupti_inc= cupti_lib=
for root in ${CUPTI_ROOT:-} "$cuda/extras/CUPTI" "$cuda/targets/x86_64-linux" "$cuda/targets/sbsa-linux" "$cuda"; do
  [ -n "$root" ] || continue
  if [ -f "$root/include/cupti.h" ]; then
    for l in "$root/lib64" "$root/lib"; do
      if ls "$l"/libcupti.so* >/dev/null 2>&1; then cupti_inc=$root/include; cupti_lib=$l; break 2; fi
    done
  fi
done
flags=(-O3 -std=c++17 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
       -Xcompiler -Wall,-Wextra -Werror all-warnings -lineinfo)
if [ -n "$cupti_inc" ]; then
  flags+=(-I"$cupti_inc")
  link=(-L"$cupti_lib" -Xlinker -rpath="$cupti_lib" -lcupti)
  echo "build.sh: CUPTI from $cupti_inc, $cupti_lib"
else
  flags+=(-DMEMSIM_NO_CUPTI)
  link=()
  echo "build.sh: no CUPTI found; timing falls back to CUDA events"
fi
srcs=(measure_main permutation sat gcd bpbc calibrate simple bulk gf2 mul toom)
pids=()
for s in "${srcs[@]}"; do
  # shellcheck disable=SC2086
  "$nvcc" "${flags[@]}" ${NVCC_FLAGS:-} -c -o "$out/$s.o" "$here/$s.cu" & pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
objs=()
for s in "${srcs[@]}"; do objs+=("$out/$s.o"); done
"$nvcc" "${flags[@]}" -o "$out/memsim-measure" "${objs[@]}" "${link[@]}"
echo "build.sh: built $out/memsim-measure"
