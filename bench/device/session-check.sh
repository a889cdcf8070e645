#!/usr/bin/env bash
# (A device-call script: run from the repository root with .carry/{gen,kit,graphs,peers} present.)
# The session's GPU check in phases, each one device call on a machine kept warm between them:
#   PHASE=build    configure and build everything from the translated sources in .carry/gen
#   PHASE=test     ctest -L gpu (TESTS=regex narrows it)
#   PHASE=samples  every sample (SAMPLES narrows) --validate on kron-20 and road-NE, as
#                  scripts/gpu-check.sh does; EGO=1 adds ego-twitter (symmetrized)
#   PHASE=bench    the new samples against their peers and the old forms, in one job
# Logs go to $OUT; each phase prints a short summary and its time.
set -uo pipefail
root=$PWD kit=$root/.carry/kit b=$root/build-gpu g=/tmp/g
export LD_LIBRARY_PATH=$kit/lib
t0=$(date +%s)
elapsed() { echo "$(( $(date +%s) - t0 )) s"; }
mkdir -p $g
case ${PHASE:?PHASE=build, test, samples or bench} in
build)
  args=(-DMEDUSA_BUILD_FRONTEND=OFF -DMEDUSA_PREGENERATED_DIR=$root/.carry/gen -DCMAKE_BUILD_TYPE=Release
        -DCatch2_DIR=$kit/lib/cmake/Catch2 -DLIBLZMA_INCLUDE_DIR=$kit/include -DLIBLZMA_LIBRARY=$kit/lib/liblzma.a
        -DZLIB_INCLUDE_DIR=$kit/include -DZLIB_LIBRARY=$kit/lib/libz.a -DMETIS_INCLUDE_DIR=$kit/include
        -DMETIS_LIBRARY=$kit/lib/libmetis.so -DMEDUSA_GRAPH_DIR=$root/.carry/graphs)
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  cmake -S . -B $b -G Ninja "${args[@]}" > $OUT/configure.log 2>&1 || { tail -20 $OUT/configure.log; exit 1; }
  cmake --build $b -j 16 > $OUT/build.log 2>&1 || { grep -E "error|FAILED" $OUT/build.log | head -20; exit 1; }
  echo "built in $(elapsed)" ;;
test)
  ctest --test-dir $b -L gpu ${TESTS:+-R "$TESTS"} --output-on-failure --timeout 240 > $OUT/ctest.log 2>&1
  grep -E "tests passed|tests failed|\(Failed\)|\(Timeout\)|\*\*\*" $OUT/ctest.log | head -40
  echo "tests in $(elapsed)" ;;
samples)
  $b/bin/medusa-gen kron --scale 20 --symmetric --seed 1 -o $g/kron20.medusa-bin > /dev/null
  inputs=("$g/kron20.medusa-bin" ".carry/graphs/road-NE.txt.xz --symmetrize")
  [ -n "${EGO:-}" ] && inputs+=(".carry/graphs/ego-twitter.txt.xz --symmetrize")
  for s in ${SAMPLES:-pagerank sssp sssp_q bfs_n bfs_q cc cc_lp infoprop drilldown kcore hits triangles}; do
    for input in "${inputs[@]}"; do
      # shellcheck disable=SC2086
      r=$(timeout 120 $b/samples/$s $input --validate 2>&1 | grep -E "validation: |supersteps,|error" | tr '\n' ' ')
      echo "$s $(basename ${input%% *}): $r"
    done
  done 2>&1 | tee $OUT/samples.log | grep -v "validation: PASSED" | head -30
  echo "validations passed: $(grep -o 'validation: PASSED' $OUT/samples.log | wc -l), failed: $(grep -c 'FAILED\|error' $OUT/samples.log)"
  echo "samples in $(elapsed)" ;;
bench)
  $b/bin/medusa-gen kron --scale 22 --symmetric --seed 1 -o $g/k22.medusa-bin > /dev/null
  $b/bin/medusa-gen convert .carry/graphs/road-NE.txt.xz --symmetric -o $g/road.medusa-bin > /dev/null
  $b/bin/medusa-gen convert .carry/graphs/ego-twitter.txt.xz --symmetric -o $g/ego-sym.medusa-bin > /dev/null
  for r in 1 2 3; do
    for gr in k22 road; do for s in cc cc_lp; do echo "$s $gr: $($b/samples/$s $g/$gr.medusa-bin | grep supersteps, | tail -1)"; done; done
    for gr in ego-sym road; do echo "triangles $gr: $($b/samples/triangles $g/$gr.medusa-bin | grep -E 'supersteps,|triangles:' | tr '\n' ' ')"; done
    echo "sssp_q road w1:1000: $($b/samples/sssp_q .carry/graphs/road-NE.txt.xz --symmetrize --weights 1:1000 | grep supersteps, | tail -1)"
  done 2>&1 | tee $OUT/bench.log
  echo "medusa done in $(elapsed)"
  if [ -d .carry/peers ]; then
    cp -r .carry/peers /tmp/peers && (cd /tmp/peers && ./build.sh > $OUT/peers-build.log 2>&1)
    $b/bin/medusa-gen convert .carry/graphs/road-NE.txt.xz --symmetric -o $g/road.el > /dev/null
    $b/bin/medusa-gen convert .carry/graphs/ego-twitter.txt.xz --symmetric -o $g/ego.el > /dev/null
    for el in road ego; do
      WORK=/tmp/peer-work SKIP="gap-pr gap-pr-spmv spmv-pagerank gap-sssp" STEP_TIMEOUT=120 /tmp/peers/run-peers.sh $g/$el.el 0 2>&1 | grep '^PEER'
      sg=$(ls /tmp/peer-work/$el*.sg 2>/dev/null | head -1)
      [ -n "$sg" ] && echo "gap-tc $el: $(OMP_NUM_THREADS=16 timeout 120 /tmp/peers/gapbs/tc -f $sg -n 3 2>&1 | grep -E 'Trial Time|Average' | tr '\n' ' ')"
    done 2>&1 | tee $OUT/peers.log
  fi
  echo "bench in $(elapsed)" ;;
esac
