#!/usr/bin/env bash
# (A device-call script: run from the repository root with .carry/ holding what it names; see
# docs/benchmarks/history/2026-11-25-h100-tuning-plan-ab.md.)
# Device call: A/B of .carry/base (A: the commit in .carry/base/BASE_COMMIT, translated into
# .carry/gen-base) against this tree (B), samples only. WORKLOADS=file replaces the default list
# (lines "sample args", with $g the graph folder; TARGETS names the samples they use, EGO_SYM=1
# also makes $g/ego-sym.medusa-bin); SKIP_SOURCES=1 skips the --sources runs.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/kit/lib
root=$PWD kit=$root/.carry/kit
common=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DMEDUSA_BUILD_FRONTEND=OFF -DMEDUSA_BUILD_TESTS=OFF
        -DCatch2_DIR=$kit/lib/cmake/Catch2 -DLIBLZMA_INCLUDE_DIR=$kit/include -DLIBLZMA_LIBRARY=$kit/lib/liblzma.a
        -DZLIB_INCLUDE_DIR=$kit/include -DZLIB_LIBRARY=$kit/lib/libz.a)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
t0=$(date +%s)
b=build-gpu  # gpu-run.sh's build of this tree, when the machine kept it
[ -x $b/samples/bfs_q ] || { b=build-b; cmake -S . -B build-b "${common[@]}" -DMEDUSA_PREGENERATED_DIR=$root/.carry/gen > $OUT/cfg-b.log 2>&1 || { tail -30 $OUT/cfg-b.log; exit 1; }; }
cmake -S .carry/base -B build-a "${common[@]}" -DMEDUSA_PREGENERATED_DIR=$root/.carry/gen-base > $OUT/cfg-a.log 2>&1 || { tail -30 $OUT/cfg-a.log; exit 1; }
targets=(${TARGETS:-pagerank bfs_q cc sssp sssp_q} medusa-gen)  # TARGETS: the samples the workloads use
(cmake --build $b -j 16 --target "${targets[@]}" > $OUT/build-b.log 2>&1 || echo "build B failed") &
(cmake --build build-a -j 16 --target "${targets[@]}" > $OUT/build-a.log 2>&1 || echo "build A failed") &
wait
grep -h -E "error" $OUT/build-*.log | head -20
echo "built in $(( $(date +%s) - t0 )) s"
g=/tmp/graphs; mkdir -p $g
$b/bin/medusa-gen kron --scale 22 --symmetric --seed 1 -o $g/kron22.medusa-bin > /dev/null
$b/bin/medusa-gen convert .carry/graphs/road-NE.txt.xz --symmetric -o $g/road.medusa-bin > /dev/null
$b/bin/medusa-gen convert .carry/graphs/ego-twitter.txt.xz -o $g/ego.medusa-bin > /dev/null
$b/bin/medusa-gen kron --scale 22 --symmetric --seed 1 --weights 1:255 -o $g/kron22w.medusa-bin > /dev/null
[ -n "${EGO_SYM:-}" ] && $b/bin/medusa-gen convert .carry/graphs/ego-twitter.txt.xz --symmetric -o $g/ego-sym.medusa-bin > /dev/null
echo "A is $(cat .carry/base/BASE_COMMIT 2>/dev/null || echo '?'), B is $(git log -1 --format=%h 2>/dev/null || echo 'this tree')"
echo "graphs at $(( $(date +%s) - t0 )) s"
if [ -z "${SKIP_SOURCES:-}" ]; then {
for s in bfs_q sssp_q; do
  $b/samples/$s $g/kron22.medusa-bin --sources 16 --seed 2 | tail -1
  $b/samples/$s $g/road.medusa-bin --sources 8 --seed 2 | tail -1
done
$b/samples/bfs_q $g/kron22.medusa-bin --sources 4 --seed 2 --validate | grep -c "validation: PASSED"
} 2>&1 | tee $OUT/sources.txt; fi
echo "sources done at $(( $(date +%s) - t0 )) s"
if [ -n "${WORKLOADS:-}" ]; then
  sed "s|\$g|$g|g" "$WORKLOADS" | bash bench/ab.sh build-a $b ${RUNS:-3} | tee $OUT/ab.md
else bash bench/ab.sh build-a $b ${RUNS:-3} <<WL | tee $OUT/ab.md
bfs_q $g/kron22.medusa-bin
cc $g/kron22.medusa-bin
sssp $g/kron22.medusa-bin
bfs_q $g/road.medusa-bin
sssp_q $g/road.medusa-bin
pagerank $g/ego.medusa-bin --iterations 300
WL
fi
echo "done at $(( $(date +%s) - t0 )) s"
echo "all done at $(( $(date +%s) - t0 )) s"
