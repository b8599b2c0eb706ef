#!/usr/bin/env bash
# Installs nvcc and the CUDA driver API headers/stubs from Debian's contrib/non-free
# components, which is all a GPU-less machine needs to build and vet the cuda-tagged
# code and to regenerate the embedded PTX. Idempotent; needs root (or sudo).
set -euo pipefail
if command -v nvcc >/dev/null 2>&1 && [ -f /usr/include/cuda.h ]; then
  exit 0
fi
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
src=/etc/apt/sources.list.d/ooc-cuda.sources
if [ ! -f "$src" ]; then
  $SUDO tee "$src" >/dev/null <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends nvidia-cuda-toolkit nvidia-cuda-dev >/dev/null
nvcc --version | tail -n 2
