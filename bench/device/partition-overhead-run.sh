#!/usr/bin/env bash
# (A device-call script: run from the repository root after PHASE=build of session-check.sh.)
# Issue #25: where the time of k partitions on one GPU goes, against one partition.
#   1. BFS-Q road-NE and PageRank kron-22 at k = 1 and 2, --verbose (batches, replays, refreshes);
#   2. BFS-Q road-NE at k = 2 with each batching form switched off (MEDUSA_* variables);
#   3. ncu: the kernels of a stretch of road-NE supersteps in issue order (k = 1 and 2), and
#      PageRank kron-22's kernels summed by name (k = 1 and 2).
# Logs and tables go to $OUT.
set -uo pipefail
root=$PWD b=$root/build-gpu g=/tmp/g
export LD_LIBRARY_PATH=$root/.carry/kit/lib
t0=$(date +%s)
mkdir -p $g
[ -f $g/road.medusa-bin ] || $b/bin/medusa-gen convert .carry/graphs/road-NE.txt.xz --symmetric -o $g/road.medusa-bin > /dev/null
[ -f $g/kron22.medusa-bin ] || $b/bin/medusa-gen kron --scale 22 --symmetric --seed 1 -o $g/kron22.medusa-bin > /dev/null
for graph in road kron22; do
  [ -f $g/$graph.part.2 ] || $b/bin/medusa-part $g/$graph.medusa-bin -k 2 -o $g/$graph.part.2 > /dev/null
done
echo "graphs at $(( $(date +%s) - t0 )) s"
k2() { echo "--gpus 1 --partitions-per-gpu 2 --partition-file $g/$1.part.2"; }
summary() { grep -E "supersteps,|^medusa: .*(batch|replay|refresh|exchange|fused|queued)" | head -8 | sed 's/^/    /'; }
for run in "bfs_q $g/road.medusa-bin" "bfs_q $g/road.medusa-bin $(k2 road)" \
           "pagerank $g/kron22.medusa-bin --iterations 20" "pagerank $g/kron22.medusa-bin --iterations 20 $(k2 kron22)"; do
  echo "$run"
  # shellcheck disable=SC2086
  timeout 60 $b/samples/$run --verbose 2>&1 | summary
done
for toggle in MEDUSA_BATCH_REPLAY=off MEDUSA_SUPERSTEP_BATCH=off MEDUSA_DEPENDENT_LAUNCH=off MEDUSA_SPARSE_REFRESH=on; do
  # shellcheck disable=SC2086
  echo "$toggle bfs_q road k=2: $(env $toggle timeout 60 $b/samples/bfs_q $g/road.medusa-bin $(k2 road) 2>&1 | grep -E '^bfs_q: [0-9]+ supersteps')"
done
echo "runs at $(( $(date +%s) - t0 )) s"
ncu_run() {  # name, ncu options, sample and arguments
  local name=$1 opts=$2; shift 2
  # shellcheck disable=SC2086
  timeout ${NCU_TIMEOUT:-100} ncu $opts --metrics gpu__time_duration.sum --csv --print-units base $b/samples/$@ > $OUT/ncu-$name.csv 2> $OUT/ncu-$name.err
  python3 bench/device/ncu_kernels.py $OUT/ncu-$name.csv ${ORDER:+--order} | head -${LINES_MAX:-40}
}
ORDER=1 ncu_run road-k1 "--launch-skip 300 --launch-count 40" bfs_q $g/road.medusa-bin
ORDER=1 LINES_MAX=60 ncu_run road-k2 "--launch-skip 600 --launch-count 80" bfs_q $g/road.medusa-bin $(k2 road)
ncu_run pr-k1 "" pagerank $g/kron22.medusa-bin --iterations 20
ncu_run pr-k2 "" pagerank $g/kron22.medusa-bin --iterations 20 $(k2 kron22)
echo "done at $(( $(date +%s) - t0 )) s"
