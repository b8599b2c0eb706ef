#!/usr/bin/env bash
# Fails when a committed */*.fatbin differs from what scripts/gen-ptx.sh makes of the .cu
# beside it (CI calls this after scripts/install-cuda.sh).
#
# nvcc's output is a function of its inputs (gen-ptx.sh says so), so what it made of
# given inputs is recorded: one file a .cu under $OOC_PTX_CACHE (default
# ~/.cache/ooc-check-ptx), named by the SHA-256 of nvcc's and the host compilers'
# versions, gen-ptx.sh, every */*.cuh and the .cu, holding the SHA-256 of the fatbin nvcc
# made of them. A .cu without a record is compiled (in parallel, gen-ptx.sh) and its
# record written; every committed fatbin is then compared with its record.
# OOC_PTX_CACHE= (empty) compiles every .cu and keeps no record.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
cache=${OOC_PTX_CACHE-${XDG_CACHE_HOME:-$HOME/.cache}/ooc-check-ptx}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sum() { sha256sum | cut -c1-64; }
inputs=$({
  command -v "${NVCC:-nvcc}"
  "${NVCC:-nvcc}" --version
  gcc --version 2>&1 || true
  g++ --version 2>&1 || true
  cat scripts/gen-ptx.sh
  for h in */*.cuh; do
    echo "$h"
    cat "$h"
  done
} | sum)
declare -A key
compile=()
for cu in */*.cu; do
  key[$cu]=$({
    echo "$inputs $cu"
    cat "$cu"
  } | sum)
  if [ -z "$cache" ] || [ ! -s "$cache/${key[$cu]}" ]; then
    compile+=("$cu")
  fi
done
if [ ${#compile[@]} -gt 0 ]; then
  for f in */*.cu */*.cuh; do
    mkdir -p "$tmp/$(dirname "$f")" && cp "$f" "$tmp/$f"
  done
  mkdir -p "$tmp/scripts" && cp scripts/gen-ptx.sh "$tmp/scripts/"
  "$tmp/scripts/gen-ptx.sh" "${compile[@]}"
fi
[ -z "$cache" ] || mkdir -p "$cache"
stale=0
for cu in */*.cu; do
  fb=${cu%.cu}.fatbin
  if [ -f "$tmp/$fb" ]; then
    want=$(sum <"$tmp/$fb")
    if [ -n "$cache" ]; then
      echo "$want" >"$cache/${key[$cu]}.$$" && mv "$cache/${key[$cu]}.$$" "$cache/${key[$cu]}"
    fi
  else
    want=$(cat "$cache/${key[$cu]}")
  fi
  if [ ! -f "$fb" ] || [ "$(sum <"$fb")" != "$want" ]; then
    echo "check-ptx: $fb is stale; run 'go generate ./$(dirname "$cu")' and commit the result" >&2
    stale=1
  fi
done
[ "$stale" = 0 ] || exit 1
echo "check-ptx: every */*.fatbin matches its .cu (${#compile[@]} compiled, the others as recorded)"
