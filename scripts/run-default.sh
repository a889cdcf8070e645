#!/usr/bin/env bash
# The main job on a built-in default: medusa-cc translates the paper-style PageRank sample, CMake
# builds it, and it runs on a generated R-MAT graph (scale 16) with --validate against the
# independent CPU reference. Uses the GPU when one is present, the host backend otherwise.
# Extra arguments go to the sample (e.g. a graph file: scripts/run-default.sh graph.mtx).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${MEDUSA_BUILD_DIR:-$root/build}
jobs=$(nproc)

cuda=OFF
if [ -x /usr/local/cuda/bin/nvcc ] || command -v nvcc >/dev/null 2>&1; then cuda=ON; fi
gpu=no
if [ "$cuda" = ON ] && command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then gpu=yes; fi

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMEDUSA_ENABLE_CUDA=$cuda >/dev/null
targets=(pagerank_host)
if [ "$gpu" = yes ]; then targets+=(pagerank); fi
cmake --build "$build" -j "$jobs" --target "${targets[@]}"

echo "translated by medusa-cc: $build/samples/medusa-generated/pagerank/pagerank.medusa.cu"
args=("$@")
if [ ${#args[@]} -eq 0 ]; then args=(--scale 16); fi
if [ "$gpu" = yes ]; then
  exec "$build/samples/pagerank" "${args[@]}" --validate
else
  echo "no GPU found: running the host (OpenMP) backend"
  exec "$build/samples/pagerank_host" "${args[@]}" --validate
fi
