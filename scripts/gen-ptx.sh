#!/usr/bin/env bash
# Regenerates the embedded PTX of every kernels/*.cu (run by `go generate ./kernels`).
# The PTX targets compute_75, the oldest virtual architecture ooc supports (Turing; the
# driver JIT-compiles it for Ampere, Ada and Hopper). nvcc 11.8's output is deterministic,
# so scripts/check-ptx.sh can fail CI when the committed PTX is stale.
set -euo pipefail
cd "$(dirname "$0")/../kernels"
NVCC=${NVCC:-nvcc}
ARCH=${PTX_ARCH:-compute_75}
mkdir -p ptx
for cu in *.cu; do
  name=${cu%.cu}
  "$NVCC" -ptx -arch="$ARCH" -O3 -std=c++14 -o "ptx/$name.ptx.tmp" "$cu"
  mv "ptx/$name.ptx.tmp" "ptx/$name.ptx"
done
