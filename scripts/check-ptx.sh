#!/usr/bin/env bash
# Fails when a committed */*.fatbin differs from what scripts/gen-ptx.sh makes of the .cu
# beside it (CI calls this after scripts/install-cuda.sh).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
for f in */*.cu */*.cuh; do
  mkdir -p "$tmp/$(dirname "$f")" && cp "$f" "$tmp/$f"
done
mkdir -p "$tmp/scripts" && cp scripts/gen-ptx.sh "$tmp/scripts/"
"$tmp/scripts/gen-ptx.sh"
stale=0
for cu in */*.cu; do
  fb=${cu%.cu}.fatbin
  if ! cmp -s "$fb" "$tmp/$fb"; then
    echo "check-ptx: $fb is stale; run 'go generate ./$(dirname "$cu")' and commit the result" >&2
    stale=1
  fi
done
[ "$stale" = 0 ] || exit 1
echo "check-ptx: every */*.fatbin matches its .cu"
