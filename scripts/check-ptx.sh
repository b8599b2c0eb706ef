#!/usr/bin/env bash
# Fails when the committed kernels/ptx/*.fatbin differ from what scripts/gen-ptx.sh makes of
# kernels/*.cu (CI calls this after scripts/install-cuda.sh).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$root/kernels" "$tmp/kernels"
mkdir -p "$tmp/scripts" && cp "$root/scripts/gen-ptx.sh" "$tmp/scripts/"
rm -f "$tmp"/kernels/ptx/*
"$tmp/scripts/gen-ptx.sh"
if ! diff -r "$root/kernels/ptx" "$tmp/kernels/ptx" >/dev/null; then
  echo "check-ptx: kernels/ptx is stale; run 'go generate ./kernels' and commit the result" >&2
  diff -r "$root/kernels/ptx" "$tmp/kernels/ptx" | head -20 >&2
  exit 1
fi
echo "check-ptx: kernels/ptx matches kernels/*.cu"
