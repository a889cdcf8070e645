#!/usr/bin/env bash
# (A device-call script: run from the repository root with .carry/ holding what it names.)
# Device call: k partitions on one GPU against one partition (issue #8), for the commit in
# .carry/base (A, translated sources in .carry/gen-base) and this tree (B, .carry/gen).
# PARTS="1 2 4" picks the partition counts; RUNS the rounds of bench/ab.sh. B is build-gpu when
# session-check.sh built it on this machine.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/kit/lib
root=$PWD kit=$root/.carry/kit
common=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMEDUSA_BUILD_FRONTEND=OFF -DMEDUSA_BUILD_TESTS=OFF
        -DCatch2_DIR=$kit/lib/cmake/Catch2 -DLIBLZMA_INCLUDE_DIR=$kit/include -DLIBLZMA_LIBRARY=$kit/lib/liblzma.a
        -DZLIB_INCLUDE_DIR=$kit/include -DZLIB_LIBRARY=$kit/lib/libz.a
        -DMETIS_INCLUDE_DIR=$kit/include -DMETIS_LIBRARY=$kit/lib/libmetis.so)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
t0=$(date +%s)
b=build-b
if [ -x build-gpu/samples/bfs_q ]; then b=build-gpu  # session-check.sh's build of this tree
else cmake -S . -B build-b "${common[@]}" -DMEDUSA_PREGENERATED_DIR=$root/.carry/gen > $OUT/cfg-b.log 2>&1 || { tail -30 $OUT/cfg-b.log; exit 1; }
fi
targets=(pagerank bfs_q cc cc_lp sssp_q medusa-gen medusa-part)
(cmake --build $b -j 16 --target "${targets[@]}" > $OUT/build-b.log 2>&1 || echo "build B failed") &
if [ -z "${SKIP_A:-}" ]; then
  cmake -S .carry/base -B build-a "${common[@]}" -DMEDUSA_PREGENERATED_DIR=$root/.carry/gen-base > $OUT/cfg-a.log 2>&1 || { tail -30 $OUT/cfg-a.log; exit 1; }
  (cmake --build build-a -j 16 --target "${targets[@]}" > $OUT/build-a.log 2>&1 || echo "build A failed") &
fi
wait
grep -h -E "error" $OUT/build-*.log | head -20
echo "built in $(( $(date +%s) - t0 )) s"
g=/tmp/graphs; mkdir -p $g
$b/bin/medusa-gen kron --scale 22 --symmetric --seed 1 -o $g/kron22.medusa-bin > /dev/null
$b/bin/medusa-gen convert .carry/graphs/road-NE.txt.xz --symmetric -o $g/road.medusa-bin > /dev/null
for k in ${PARTS:-2 4}; do
  [ "$k" = 1 ] && continue
  $b/bin/medusa-part $g/kron22.medusa-bin -k $k -o $g/kron22.part.$k > /dev/null
  $b/bin/medusa-part $g/road.medusa-bin -k $k -o $g/road.part.$k > /dev/null
  echo "partitioned k=$k at $(( $(date +%s) - t0 )) s"
done
echo "graphs at $(( $(date +%s) - t0 )) s"
a=build-a; [ -n "${SKIP_A:-}" ] && a=$b
for k in ${PARTS:-1 2 4}; do
  p=""; [ "$k" != 1 ] && p="--gpus 1 --partitions-per-gpu $k"
  pk() { [ "$k" != 1 ] && echo "--partition-file $g/$1.part.$k"; }
  workloads="pagerank $g/kron22.medusa-bin --iterations 20 $p $(pk kron22)
bfs_q $g/kron22.medusa-bin $p $(pk kron22)
cc $g/kron22.medusa-bin $p $(pk kron22)
cc_lp $g/kron22.medusa-bin $p $(pk kron22)
bfs_q $g/road.medusa-bin $p $(pk road)"
  if [ -n "${SKIP_A:-}" ]; then  # this tree only, one timed run each
    while read -r s args; do
      # shellcheck disable=SC2086
      echo "k=$k $s $args: $(timeout 120 $b/samples/$s $args 2>&1 | grep -E "^$s: [0-9]+ supersteps" | head -1)"
    done <<< "$workloads"
  else
    bash bench/ab.sh $a $b ${RUNS:-3} <<< "$workloads" | tail -n +3
  fi
  echo "k=$k done at $(( $(date +%s) - t0 )) s"
done 2>&1 | tee $OUT/partitions.md
for k in ${VERBOSE_PARTS:-2}; do
  for s in "pagerank $g/kron22.medusa-bin --iterations 20 --partition-file $g/kron22.part.$k" "bfs_q $g/road.medusa-bin --partition-file $g/road.part.$k"; do
    # shellcheck disable=SC2086
    timeout 120 $b/samples/$s --gpus 1 --partitions-per-gpu $k --verbose --validate > $OUT/verbose-$k-${s%% *}.log 2>&1
    grep -E "validation|supersteps,|partitions,|replica exchange|refreshed per round|hops" $OUT/verbose-$k-${s%% *}.log | head -8
  done
done
echo "done at $(( $(date +%s) - t0 )) s"
