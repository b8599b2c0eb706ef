#!/usr/bin/env bash
# Regenerates the embedded fatbin of every kernels/*.cu (run by `go generate ./kernels`).
# Each fatbin holds native SASS for sm_80, sm_86, sm_89 and sm_90 (A100/A10/L4/H100/H200 load
# it without a JIT step) plus PTX for compute_75, the oldest virtual architecture ooc
# supports (Turing), which the driver JIT-compiles for any GPU without its own SASS here.
# The fatbin is compressed (-compress-all): 111 KB for both modules instead of 270 KB.
# nvcc 11.8's fatbin output is byte-deterministic (same bytes from two runs and from another
# directory), so scripts/check-ptx.sh can fail CI when the committed output is stale.
set -euo pipefail
cd "$(dirname "$0")/../kernels"
NVCC=${NVCC:-nvcc}
GENCODE=(
  -gencode arch=compute_80,code=sm_80
  -gencode arch=compute_86,code=sm_86
  -gencode arch=compute_89,code=sm_89
  -gencode arch=compute_90,code=sm_90
  -gencode arch=compute_75,code=compute_75
)
mkdir -p ptx
for cu in *.cu; do
  name=${cu%.cu}
  "$NVCC" -fatbin "${GENCODE[@]}" -O3 -std=c++14 -Xfatbin -compress-all \
    -o "ptx/$name.fatbin.tmp" "$cu"
  mv "ptx/$name.fatbin.tmp" "ptx/$name.fatbin"
done
