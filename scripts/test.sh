#!/usr/bin/env bash
# Configures, builds and runs every test that needs no GPU (ctest -LE gpu).
# MEDUSA_BUILD_DIR picks the build folder (default: build/).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MEDUSA_BUILD_DIR:-$root/build}
jobs=$(nproc)

cuda=OFF
if [ -x /usr/local/cuda/bin/nvcc ] || command -v nvcc >/dev/null 2>&1; then cuda=ON; fi

# (the GPU-only test binary is left out: these tests skip it, and its nvcc build is half the total)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMEDUSA_ENABLE_CUDA=$cuda -DMEDUSA_BUILD_GPU_TESTS=OFF
cmake --build "$build" -j "$jobs"
ctest --test-dir "$build" -LE gpu --output-on-failure -j "$jobs"
