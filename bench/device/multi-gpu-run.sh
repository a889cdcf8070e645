#!/usr/bin/env bash
# (A device-call script: run from the repository root with .carry/{gen,kit} present.)
# Issue #14 (#31): in-process partitions over several GPUs of one host, in phases, each one device
# call on a machine kept warm between them:
#   PHASE=build   the samples from the translated sources in .carry/gen
#   PHASE=check   samples --validate on kron-20 over 2 and GPUS (default 4) GPUs
#   PHASE=scale   bench/multi-gpu.sh on each of GRAPHS (default "kron24"), RUNS (default 2) each
# Logs and tables go to $OUT.
set -uo pipefail
root=$PWD kit=$root/.carry/kit b=$root/build-mgpu g=/tmp/g
export LD_LIBRARY_PATH=$kit/lib NCCL_NVLS_ENABLE=0
t0=$(date +%s)
elapsed() { echo "$(( $(date +%s) - t0 )) s"; }
mkdir -p $g
gpus=${GPUS:-4}
case ${PHASE:?PHASE=build, check or scale} in
build)
  args=(-DMEDUSA_BUILD_FRONTEND=OFF -DMEDUSA_BUILD_TESTS=OFF -DMEDUSA_PREGENERATED_DIR=$root/.carry/gen
        -DCMAKE_BUILD_TYPE=Release -DLIBLZMA_INCLUDE_DIR=$kit/include -DLIBLZMA_LIBRARY=$kit/lib/liblzma.a
        -DZLIB_INCLUDE_DIR=$kit/include -DZLIB_LIBRARY=$kit/lib/libz.a -DMETIS_INCLUDE_DIR=$kit/include
        -DMETIS_LIBRARY=$kit/lib/libmetis.so)
  nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
  nvidia-smi topo -m | head -8
  cmake -S . -B $b -G Ninja "${args[@]}" > $OUT/configure.log 2>&1 || { tail -20 $OUT/configure.log; exit 1; }
  cmake --build $b -j "$(nproc)" --target pagerank bfs_q bfs_n sssp_q cc_lp kcore medusa-gen medusa-part \
    > $OUT/build.log 2>&1 || { grep -E "error|FAILED" $OUT/build.log | head -20; exit 1; }
  echo "built in $(elapsed)" ;;
check)
  [ -f $g/kron20.medusa-bin ] || $b/bin/medusa-gen kron --scale 20 --symmetric --seed 1 -o $g/kron20.medusa-bin > /dev/null
  for s in pagerank bfs_q bfs_n sssp_q cc_lp kcore; do
    for n in 2 "$gpus"; do
      r=$(timeout 120 $b/samples/$s $g/kron20.medusa-bin --gpus $n --validate 2>&1 |
          grep -E "validation: |supersteps,|partitions,|error" | tr '\n' ' ')
      echo "$s kron20 --gpus $n: $r"
    done
  done 2>&1 | tee $OUT/check.log | cut -c1-400
  echo "validations passed: $(grep -o 'validation: PASSED' $OUT/check.log | wc -l), failed: $(grep -c 'FAILED\|error' $OUT/check.log)"
  echo "checked in $(elapsed)" ;;
scale)
  for graph in ${GRAPHS:-kron24}; do
    timeout ${STEP_TIMEOUT:-500} bash bench/multi-gpu.sh $b $OUT/multi-gpu-$graph.md $graph 2,$gpus ${RUNS:-2} \
      ${SAMPLES:-pagerank bfs_q} 2> $OUT/multi-gpu-$graph.log
    echo "$graph done at $(elapsed)"
  done ;;
esac
