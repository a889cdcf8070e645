#!/usr/bin/env bash
# Builds and checks Medusa on a GPU machine that has no Clang: the samples come already translated
# (MEDUSA_PREGENERATED_DIR, made elsewhere with medusa-cc), Catch2 and compression libraries may
# come from a kit folder. Runs the `gpu` ctest label, then every sample with --validate on a
# generated Kronecker graph and on the real graphs found in the graph folder.
#   scripts/gpu-check.sh <generated-dir> [kit-dir] [graph-dir]
# MEDUSA_CHECK_GPUS=N (N > 1) also validates every sample partitioned over N GPUs and spreads the
# runtime tests' partitions over N GPUs (MEDUSA_TEST_GPUS).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
generated=$(cd "$1" && pwd)
kit=${2:+$(cd "$2" && pwd)}
graphs=${3:+$(cd "$3" && pwd)}
build=${MEDUSA_BUILD_DIR:-$root/build-gpu}
scale=${MEDUSA_KRON_SCALE:-20}

args=(-DMEDUSA_BUILD_FRONTEND=OFF -DMEDUSA_PREGENERATED_DIR="$generated" -DCMAKE_BUILD_TYPE=Release)
if [ -n "$kit" ]; then
  args+=(-DCatch2_DIR="$kit/lib/cmake/Catch2")
  [ -f /usr/include/lzma.h ] || args+=(-DLIBLZMA_INCLUDE_DIR="$kit/include" -DLIBLZMA_LIBRARY="$kit/lib/liblzma.a")
  [ -f /usr/include/zlib.h ] || args+=(-DZLIB_INCLUDE_DIR="$kit/include" -DZLIB_LIBRARY="$kit/lib/libz.a")
  # METIS (partitioned runs): the shared library from the machine that made the kit.
  [ -f /usr/include/metis.h ] || [ ! -f "$kit/include/metis.h" ] ||
    args+=(-DMETIS_INCLUDE_DIR="$kit/include" -DMETIS_LIBRARY="$kit/lib/libmetis.so")
fi
[ -n "$graphs" ] && args+=(-DMEDUSA_GRAPH_DIR="$graphs")

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
cmake -S "$root" -B "$build" -G Ninja "${args[@]}" >"$build.configure.log" 2>&1 || { cat "$build.configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" 2>&1 | grep -E "error|warning: .*medusa|FAILED" | head -50
cmake --build "$build" -j "$(nproc)" >/dev/null 2>&1 || { echo "build failed"; exit 1; }

status=0
gpus=${MEDUSA_CHECK_GPUS:-1}
MEDUSA_TEST_GPUS=$gpus ctest --test-dir "$build" -L gpu --output-on-failure || status=1

kron=$build/kron$scale.medusa-bin
"$build/bin/medusa-gen" kron --scale "$scale" --symmetric --seed 1 -o "$kron" || exit 1
inputs=("$kron")
[ -n "$graphs" ] && [ -f "$graphs/road-NE.txt.xz" ] && inputs+=("$graphs/road-NE.txt.xz --symmetrize")
runs=("")
[ "$gpus" -gt 1 ] && runs+=("--gpus $gpus")
for sample in pagerank sssp sssp_q bfs_n bfs_q cc infoprop drilldown kcore hits triangles; do
  for input in "${inputs[@]}"; do
    for run in "${runs[@]}"; do
      # (in-edge messages and neighbour sets need one partition: partitioned runs are refused)
      [ -n "$run" ] && [[ "$sample" =~ ^(hits|triangles)$ ]] && continue
      echo "== $sample $input $run"
      # shellcheck disable=SC2086
      "$build/samples/$sample" $input $run --validate || status=1
    done
  done
done
for run in "${runs[@]}"; do
  for variant in ic-e ic-t lt-c; do
    echo "== infoprop --variant $variant $kron $run"
    # shellcheck disable=SC2086
    "$build/samples/infoprop" "$kron" --variant "$variant" $run --validate || status=1
  done
  echo "== matching (generated bipartite, scale $scale) $run"
  # shellcheck disable=SC2086
  "$build/samples/matching" --scale "$scale" $run --validate || status=1
  if [ -n "$graphs" ] && [ -f "$graphs/karate.mtx" ]; then
    echo "== layout $graphs/karate.mtx $run"
    # shellcheck disable=SC2086
    "$build/samples/layout" "$graphs/karate.mtx" $run --validate --output "$build/layout-karate.svg" || status=1
  fi
done
exit $status
