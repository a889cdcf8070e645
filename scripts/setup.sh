#!/usr/bin/env bash
# Installs every package Medusa needs on Debian 12 (the CUDA toolkit is expected at /usr/local/cuda).
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends \
  build-essential cmake ninja-build git xz-utils python3 \
  clang-16 libclang-16-dev llvm-16-dev libzstd-dev \
  libmetis-dev catch2 liblzma-dev zlib1g-dev \
  openmpi-bin libopenmpi-dev
if [ ! -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc >/dev/null 2>&1; then
  echo "note: no CUDA toolkit found; Medusa builds the host backend only (MEDUSA_ENABLE_CUDA=OFF)" >&2
fi
