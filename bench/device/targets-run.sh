#!/usr/bin/env bash
# (A device-call script: run from the repository root after `PHASE=build bash bench/device/session-check.sh`,
# with .carry/peers holding ../shared/peers.)
# The absolute targets of issues #26 (model reach) and #28 (high-diameter graphs) in one job, with
# the peers beside them, and the per-kernel profiles (ncu) of the missed ones:
#   PHASE=run   RUNS rounds (default 3) of every target workload, then each once with --validate
#   PHASE=peers GAP and ECL-CC on the same graphs (road-NE, ego-twitter, grid-2048, kron-20;
#               PEERS_K22=1 adds kron-22, about 4 minutes)
#   PHASE=ncu   gpu__time_duration per kernel (summed over launches) of the missed targets
# Logs go to $OUT.
set -uo pipefail
b=$PWD/build-gpu g=/tmp/g
export LD_LIBRARY_PATH=$PWD/.carry/kit/lib
t0=$(date +%s)
elapsed() { echo "$(( $(date +%s) - t0 )) s"; }
mkdir -p $g
gen=$b/bin/medusa-gen
make_graphs() {
  [ -f $g/k22.medusa-bin ] || $gen kron --scale 22 --symmetric --seed 1 -o $g/k22.medusa-bin > /dev/null
  [ -f $g/k22w.medusa-bin ] || $gen kron --scale 22 --symmetric --seed 1 --weights 1:255 -o $g/k22w.medusa-bin > /dev/null
  [ -f $g/k20.medusa-bin ] || $gen kron --scale 20 --symmetric --seed 1 -o $g/k20.medusa-bin > /dev/null
  [ -f $g/road.medusa-bin ] || $gen convert .carry/graphs/road-NE.txt.xz --symmetric -o $g/road.medusa-bin > /dev/null
  # road-NE with weights 1..1000 in a file, so that GAP and Medusa read the same weights.
  if [ ! -f $g/roadw.medusa-bin ]; then
    $gen convert $g/road.medusa-bin -o $g/road.el > /dev/null
    awk 'BEGIN { srand(1) } /^[#%]/ { next } { n = ($1 > n ? $1 : n); n = ($2 > n ? $2 : n); u[NR] = $1; v[NR] = $2; m++ }
         END { print "p sp", n + 1, m; for (i in u) print "a", u[i] + 1, v[i] + 1, 1 + int(rand() * 1000) }' $g/road.el > $g/roadw.gr
    $gen convert $g/roadw.gr -o $g/roadw.medusa-bin > /dev/null
  fi
  [ -f $g/grid.medusa-bin ] || $gen grid --rows 2048 --cols 2048 -o $g/grid.medusa-bin > /dev/null
  [ -f $g/ego.medusa-bin ] || $gen convert .carry/graphs/ego-twitter.txt.xz -o $g/ego.medusa-bin > /dev/null
  [ -f $g/ego-sym.medusa-bin ] || $gen convert .carry/graphs/ego-twitter.txt.xz --symmetric -o $g/ego-sym.medusa-bin > /dev/null
}
# The workloads: "name|sample args" ($g is the graph folder).
workloads() {
  cat <<WL
cc k22|cc $g/k22.medusa-bin
cc road|cc $g/road.medusa-bin
cc grid|cc $g/grid.medusa-bin
triangles k20|triangles $g/k20.medusa-bin
triangles ego-sym|triangles $g/ego-sym.medusa-bin
hits ego 20|hits $g/ego.medusa-bin --iterations 20
pagerank ego 20|pagerank $g/ego.medusa-bin --iterations 20
bfs_q road|bfs_q $g/road.medusa-bin
bfs_q grid|bfs_q $g/grid.medusa-bin
bfs_q k22 hub|bfs_q $g/k22.medusa-bin
sssp_q road w1:1000|sssp_q $g/roadw.medusa-bin
sssp_q k22w auto|sssp_q $g/k22w.medusa-bin
sssp_q k22w delta 64|sssp_q $g/k22w.medusa-bin --delta 64
WL
}
case ${PHASE:?PHASE=run, peers or ncu} in
run)
  make_graphs; echo "graphs at $(elapsed)"
  {
  for r in $(seq ${RUNS:-3}); do
    workloads | while IFS='|' read -r name cmd; do
      # shellcheck disable=SC2086
      echo "$name: $(timeout 60 $b/samples/$cmd 2>&1 | grep -E 'supersteps,|triangles:' | tr '\n' ' ')"
    done
  done
  echo "bfs_q k22 16 sources: $($b/samples/bfs_q $g/k22.medusa-bin --sources 16 --seed 2 | tail -1)"
  workloads | while IFS='|' read -r name cmd; do
    # shellcheck disable=SC2086
    echo "validate $name: $(timeout 120 $b/samples/$cmd --validate 2>&1 | grep -E 'validation:' | tr '\n' ' ')"
  done
  } 2>&1 | tee $OUT/targets.log
  echo "run done at $(elapsed)" ;;
peers)
  make_graphs
  cp -r .carry/peers /tmp/peers && (cd /tmp/peers && ./build.sh > $OUT/peers-build.log 2>&1) || echo "peers build failed"
  graphs="road grid ego-sym k20"; [ -n "${PEERS_K22:-}" ] && graphs="$graphs k22"
  for gr in $graphs; do
    [ -f $g/$gr.el ] || $gen convert $g/$gr.medusa-bin -o $g/$gr.el > /dev/null
    weighted=""; skip="gap-pr gap-pr-spmv spmv-pagerank gap-sssp"
    case $gr in
      road) weighted=$g/roadw.gr; skip="gap-pr gap-pr-spmv spmv-pagerank";;
      k22) $gen convert $g/k22w.medusa-bin -o $g/k22w.gr > /dev/null; weighted=$g/k22w.gr; skip="gap-pr gap-pr-spmv spmv-pagerank";;
    esac
    # The same source as the samples (vertex 0) for BFS and SSSP.
    WORK=/tmp/peer-work SKIP="$skip" STEP_TIMEOUT=150 /tmp/peers/run-peers.sh $g/$gr.el 0 $weighted 2>&1 | grep '^PEER'
    sg=$(ls /tmp/peer-work/$gr*.sg 2>/dev/null | head -1)
    case $gr in k20|ego-sym) [ -n "$sg" ] && echo "gap-tc $gr: $(OMP_NUM_THREADS=16 timeout 120 /tmp/peers/gapbs/tc -f $sg -n 3 2>&1 | grep -E 'Average' | tr '\n' ' ')";; esac
  done 2>&1 | tee $OUT/peers.log
  echo "peers done at $(elapsed)" ;;
ncu)
  make_graphs
  profile() {  # name, sample args: the summed kernel time per kernel name, largest first
    local name=$1; shift
    # shellcheck disable=SC2068
    timeout ${NCU_TIMEOUT:-150} ncu --metrics gpu__time_duration.sum --csv --print-units base $b/samples/$@ > $OUT/ncu-${name// /_}.csv 2> $OUT/ncu-${name// /_}.err
    python3 bench/device/ncu_kernels.py "$OUT/ncu-${name// /_}.csv" "$name" | head -9
  }
  for w in ${NCU_ONLY:-cc_road cc_k22 cc_grid hits_ego pagerank_ego bfs_k22 bfs_grid}; do
    case $w in
      cc_road) profile "cc road" cc $g/road.medusa-bin;;
      cc_k22) profile "cc k22" cc $g/k22.medusa-bin;;
      cc_grid) profile "cc grid" cc $g/grid.medusa-bin;;
      hits_ego) profile "hits ego 20" hits $g/ego.medusa-bin --iterations 20;;
      pagerank_ego) profile "pagerank ego 20" pagerank $g/ego.medusa-bin --iterations 20;;
      bfs_k22) profile "bfs_q k22 hub" bfs_q $g/k22.medusa-bin;;
      bfs_grid) profile "bfs_q grid" bfs_q $g/grid.medusa-bin;;
    esac
    echo "($w at $(elapsed))"
  done 2>&1 | tee $OUT/ncu.log ;;
esac
