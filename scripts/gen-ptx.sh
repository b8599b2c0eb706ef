#!/usr/bin/env bash
# Regenerates the embedded fatbin beside every CUDA source of the module (DIR/NAME.cu ->
# DIR/NAME.fatbin; `go generate` in a package with a .cu runs it), or beside the .cu files
# named as arguments, one nvcc a core at once. The sources include store/graph.cuh, the
# device side of the format. Each fatbin holds native SASS for sm_80, sm_86, sm_89 and
# sm_90 (A100/A10/L4/H100/H200 load it without a JIT step) plus PTX for compute_75, the
# oldest virtual architecture ooc supports (Turing), which the driver JIT-compiles for any
# GPU without its own SASS here. The fatbin is compressed
# (-compress-all). nvcc's fatbin output is byte-deterministic (same bytes from two runs and
# from another directory), so scripts/check-ptx.sh can fail CI when a committed fatbin is
# stale.
set -euo pipefail
cd "$(dirname "$0")/.."
export NVCC=${NVCC:-nvcc}
gen() { # DIR/NAME.cu
  local out=${1%.cu}.fatbin
  "$NVCC" -fatbin \
    -gencode arch=compute_80,code=sm_80 \
    -gencode arch=compute_86,code=sm_86 \
    -gencode arch=compute_89,code=sm_89 \
    -gencode arch=compute_90,code=sm_90 \
    -gencode arch=compute_75,code=compute_75 \
    -O3 -std=c++14 -Xfatbin -compress-all -I store -o "$out.tmp" "$1"
  mv "$out.tmp" "$out"
}
export -f gen
if [ $# -eq 0 ]; then set -- */*.cu; fi
printf '%s\0' "$@" | xargs -0 -n 1 -P "$(nproc)" bash -ec 'gen "$1"' gen
