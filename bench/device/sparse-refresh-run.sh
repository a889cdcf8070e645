#!/usr/bin/env bash
# (A device-call script: run from the repository root with .carry/ holding what it names.)
# Device call: the sparse replica refresh (docs/multi-gpu.md#sparse-refresh) on 2 and 4 partitions
# of one GPU, this tree built once (translated sources in .carry/gen): bench/ab.sh with
# MEDUSA_SPARSE_REFRESH=off as A against on, then off against auto, on BFS-Q and PageRank over
# Kronecker 22 and BFS-Q over road-NE; then one verbose run each (bytes moved, dense and sparse).
# PARTS="2 4" picks the partition counts; RUNS the rounds of bench/ab.sh.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/kit/lib
root=$PWD kit=$root/.carry/kit
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
t0=$(date +%s)
cmake -S . -B build-b -G Ninja -DCMAKE_BUILD_TYPE=Release -DMEDUSA_BUILD_FRONTEND=OFF -DMEDUSA_BUILD_TESTS=OFF \
  -DCatch2_DIR=$kit/lib/cmake/Catch2 -DLIBLZMA_INCLUDE_DIR=$kit/include -DLIBLZMA_LIBRARY=$kit/lib/liblzma.a \
  -DZLIB_INCLUDE_DIR=$kit/include -DZLIB_LIBRARY=$kit/lib/libz.a \
  -DMETIS_INCLUDE_DIR=$kit/include -DMETIS_LIBRARY=$kit/lib/libmetis.so \
  -DMEDUSA_PREGENERATED_DIR=$root/.carry/gen > $OUT/cfg-b.log 2>&1 || { tail -30 $OUT/cfg-b.log; exit 1; }
cmake --build build-b -j 16 --target pagerank bfs_q medusa-gen medusa-part > $OUT/build-b.log 2>&1 ||
  { grep -E "error" $OUT/build-b.log | head -20; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
# One "build" per setting for bench/ab.sh: its samples run build-b's with the variable set.
for mode in off on auto; do
  mkdir -p /tmp/sparse-$mode/samples
  for s in pagerank bfs_q; do
    printf '#!/bin/sh\nMEDUSA_SPARSE_REFRESH=%s exec %s "$@"\n' $mode $root/build-b/samples/$s > /tmp/sparse-$mode/samples/$s
    chmod +x /tmp/sparse-$mode/samples/$s
  done
done
g=/tmp/graphs; mkdir -p $g
build-b/bin/medusa-gen kron --scale 22 --symmetric --seed 1 -o $g/kron22.medusa-bin > /dev/null
build-b/bin/medusa-gen convert .carry/graphs/road-NE.txt.xz --symmetric -o $g/road.medusa-bin > /dev/null
for k in ${PARTS:-2 4}; do
  build-b/bin/medusa-part $g/kron22.medusa-bin -k $k -o $g/kron22.part.$k > /dev/null
  build-b/bin/medusa-part $g/road.medusa-bin -k $k -o $g/road.part.$k > /dev/null
done
echo "graphs at $(( $(date +%s) - t0 )) s"
for k in ${PARTS:-2 4}; do
  p="--gpus 1 --partitions-per-gpu $k"
  workloads="bfs_q $g/kron22.medusa-bin $p --partition-file $g/kron22.part.$k
bfs_q $g/road.medusa-bin $p --partition-file $g/road.part.$k
pagerank $g/kron22.medusa-bin --iterations 20 $p --partition-file $g/kron22.part.$k"
  echo "k=$k: A = MEDUSA_SPARSE_REFRESH=off, B = on"
  bash bench/ab.sh /tmp/sparse-off /tmp/sparse-on ${RUNS:-3} <<< "$workloads" | tail -n +3
  echo "k=$k: A = MEDUSA_SPARSE_REFRESH=off, B = auto"
  bash bench/ab.sh /tmp/sparse-off /tmp/sparse-auto ${RUNS:-3} <<< "$workloads" | tail -n +3
  while read -r s args; do
    for mode in off on auto; do
      # shellcheck disable=SC2086
      echo "k=$k $mode $s ${args%% *}: $(timeout 120 /tmp/sparse-$mode/samples/$s $args --validate 2>&1 |
        grep -E "validation|partitions, " | tr '\n' ' ')"
    done
  done <<< "$workloads"
  echo "k=$k done at $(( $(date +%s) - t0 )) s"
done 2>&1 | tee $OUT/sparse-refresh.md
