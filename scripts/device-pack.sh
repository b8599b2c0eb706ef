#!/usr/bin/env bash
# Packs what scripts/device-cpu-table.sh and scripts/device-gpu-tests.sh need into
# $DEST/cpu.tar.xz and $DEST/tests.tar.xz (default bin/pack), small enough for the device's
# 64 MiB carry. Run in the repository root:
#   OLD=<commit> scripts/device-pack.sh      (CPU_ONLY=1 skips the cuda test binaries)
# cpu.tar.xz: ooc-new (this tree), ooc-old (OLD, default HEAD~1), ooc-pure (this tree,
# -tags purego), GAPBS's bfs, cc and converter, sgconv, corespeed and data/ (shared/data's
# .gz files), the ooc binaries without symbols (-s -w) so both archives fit one carry.
# tests.tar.xz: the cuda test binaries of the root package, bfs, afforest and gpu.
# On the device:
#   mkdir -p /tmp/cpu && tar -xJf bin/pack/cpu.tar.xz -C /tmp/cpu
#   CORESPEED=/tmp/cpu/corespeed BIN=/tmp/cpu BINS="ooc-old ooc-new ooc-pure" \
#     scripts/device-cpu-table.sh
#   mkdir -p /tmp/t && tar -xJf bin/pack/tests.tar.xz -C /tmp/t
#   tar -xJf bin/pack/cpu.tar.xz -C /tmp/t ./data && BIN=/tmp/t scripts/device-gpu-tests.sh
set -euo pipefail
SHARED=${SHARED:-$(cd .. && pwd)/shared}
DEST=${DEST:-bin/pack}
OLD=${OLD:-HEAD~1}
stage=$(mktemp -d)
trap 'rm -rf "$stage"; git worktree remove --force "$stage-old" 2>/dev/null || true' EXIT
mkdir -p "$DEST" "$stage/cpu/data" "$stage/tests"

go build -ldflags=-s\ -w -o "$stage/cpu/ooc-new" ./cmd/ooc
go build -ldflags=-s\ -w -tags purego -o "$stage/cpu/ooc-pure" ./cmd/ooc
go build -o "$stage/cpu/corespeed" ./tools/corespeed
git worktree add -q --detach "$stage-old" "$OLD"
(cd "$stage-old" && go build -ldflags=-s\ -w -o "$stage/cpu/ooc-old" ./cmd/ooc)
cp "$SHARED"/peers/gapbs/{bfs,cc,converter} "$stage/cpu/"
(cd "$SHARED/peers/sgconv" && go build -o "$stage/cpu/sgconv" .)
cp "$SHARED"/data/*.gz "$stage/cpu/data/"
tar -cJf "$DEST/cpu.tar.xz" -C "$stage/cpu" .

if [ -z "${CPU_ONLY:-}" ]; then
  go test -c -tags cuda -o "$stage/tests/gpu.test" .
  go test -c -tags cuda -o "$stage/tests/bfs.test" ./bfs
  go test -c -tags cuda -o "$stage/tests/afforest.test" ./afforest
  go test -c -tags cuda -o "$stage/tests/gpupkg.test" ./gpu
  tar -cJf "$DEST/tests.tar.xz" -C "$stage/tests" .
fi
ls -l "$DEST"
