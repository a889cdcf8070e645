#!/usr/bin/env bash
# (A device-call script: run from the repository root with .carry/ holding what it names, after
# gpu-run.sh built build-gpu; see docs/programming-guide.md, "Sharing a GPU".)
# Device call: several jobs on one GPU. 1) the concurrent sample, 4 and 8 jobs (BFS-Q + PageRank)
# on kron-20 and road-NE, one after another against at once (jobs/s); 2) 8 processes whose
# reservations exceed the ledger's capacity all finish, queued; 3) a killed holder frees a waiter.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/kit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
b=${MEDUSA_BUILD_DIR:-$PWD/build-gpu}
cmake --build $b -j 16 --target concurrent bfs_q pagerank medusa-gen medusa-ledger > $OUT/build-sharing.log 2>&1 \
  || { tail -30 $OUT/build-sharing.log; exit 1; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u
export MEDUSA_LEDGER_DIR=$(mktemp -d /dev/shm/medusa-ledger-bench.XXXX)
g=/tmp/graphs; mkdir -p $g
[ -f $g/kron20.medusa-bin ] || $b/bin/medusa-gen kron --scale 20 --symmetric --seed 1 -o $g/kron20.medusa-bin > /dev/null
[ -f $g/road.medusa-bin ] || $b/bin/medusa-gen convert .carry/graphs/road-NE.txt.xz --symmetric -o $g/road.medusa-bin > /dev/null

echo "== 1. throughput: one after another vs at once (one process, a thread and Session per job)"
for graph in kron20 road; do
  for jobs in 4 8; do
    $b/samples/concurrent $g/$graph.medusa-bin --sources $((jobs - 1)) --pagerank 1 --seed 2 --validate \
      > $OUT/concurrent-$graph-$jobs.txt 2>&1
    echo "$graph $jobs jobs (rc $?): $(grep -c 'validation: PASSED' $OUT/concurrent-$graph-$jobs.txt) validations passed"
    tail -1 $OUT/concurrent-$graph-$jobs.txt
  done
done

echo "== 2. 8 processes, 3 jobs' worth of ledger capacity: queued, none out of memory"
plan=$($b/samples/bfs_q $g/kron20.medusa-bin --verbose 2>&1 | python3 -c "
import re, sys
m = re.search(r'device memory: ([0-9.]+) (B|KiB|MiB|GiB)', sys.stdin.read())
print(int(float(m.group(1)) * 1024 ** ['B', 'KiB', 'MiB', 'GiB'].index(m.group(2)) / 2 ** 20))")
cap=$(( 3 * plan + 3 * 512 ))M  # three sessions and their processes' CUDA contexts
echo "one bfs_q session plans $plan MiB; MEDUSA_GPU_CAPACITY=$cap"
t0=$(date +%s.%N)
for k in 1 2 3 4 5 6 7 8; do
  MEDUSA_GPU_CAPACITY=$cap $b/samples/bfs_q $g/kron20.medusa-bin --sources 4 --seed $k --validate > $OUT/queued-$k.txt 2>&1 &
done
sleep 1; $b/bin/medusa-ledger list
wait
echo "8 processes in $(python3 -c "import time; print(round(time.time() - $t0, 2))") s"
for k in 1 2 3 4 5 6 7 8; do
  echo "job $k: $(grep -c 'validation: PASSED' $OUT/queued-$k.txt)/4 passed; $(grep -c 'medusa: waiting' $OUT/queued-$k.txt) wait notice; $(grep -ci 'out of memory\|error' $OUT/queued-$k.txt) errors"
done

echo "== 3. a killed holder frees its reservation: the waiter starts"
MEDUSA_GPU_CAPACITY=$cap $b/bin/medusa-ledger hold --device "$(ls $MEDUSA_LEDGER_DIR | head -1)" \
  --bytes $(( ${cap%M} * 1048576 - 1048576 )) --capacity $(( ${cap%M} * 1048576 )) --hold-ms -1 > $OUT/holder.txt &
holder=$!
sleep 1
t0=$(date +%s.%N)
MEDUSA_GPU_CAPACITY=$cap $b/samples/bfs_q $g/kron20.medusa-bin --validate > $OUT/waiter.txt 2>&1 &
waiter=$!
sleep 3; kill -KILL $holder; echo "killed the holder after 3 s"
wait $waiter; echo "waiter rc $? after $(python3 -c "import time; print(round(time.time() - $t0, 2))") s"
grep -E "medusa: waiting|validation" $OUT/waiter.txt
rm -rf $MEDUSA_LEDGER_DIR
