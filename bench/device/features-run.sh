#!/usr/bin/env bash
# (A device-call script: run from the repository root after `PHASE=build bash bench/device/session-check.sh`.)
# This session's features on one GPU, in one job: Afforest cc against cc_lp (kron-22, road-NE,
# grid-2048), SSSP-Q with the O(frontier) priority buckets over deltas (kron-22 weights 1..255,
# road-NE weights 1..1000), and BFS-Q on 1, 2 and 4 partitions of one GPU with replays.
# RUNS rounds (default 2). Logs go to $OUT.
set -uo pipefail
b=$PWD/build-gpu g=/tmp/g
export LD_LIBRARY_PATH=$PWD/.carry/kit/lib
t0=$(date +%s)
mkdir -p $g
gen=$b/bin/medusa-gen
[ -f $g/k22.medusa-bin ] || $gen kron --scale 22 --symmetric --seed 1 -o $g/k22.medusa-bin > /dev/null
[ -f $g/road.medusa-bin ] || $gen convert .carry/graphs/road-NE.txt.xz --symmetric -o $g/road.medusa-bin > /dev/null
[ -f $g/grid.medusa-bin ] || $gen grid --rows 2048 --cols 2048 -o $g/grid.medusa-bin > /dev/null
line() { grep -E "^$1: [0-9]+ supersteps|validation" | tr '\n' ' '; }
{
for r in $(seq ${RUNS:-2}); do
  for gr in k22 road grid; do
    for s in cc cc_lp; do echo "$s $gr: $(timeout 60 $b/samples/$s $g/$gr.medusa-bin | line $s)"; done
  done
  for d in 32 64 128 auto; do
    a=""; [ $d != auto ] && a="--delta $d"
    echo "sssp_q k22 w1:255 delta $d: $(timeout 60 $b/samples/sssp_q $g/k22.medusa-bin $a | line sssp_q)"
  done
  for d in 2000 6400 20000 one; do
    a="--delta $d"; [ $d = one ] && a="--delta 1000000000000"
    echo "sssp_q road w1:1000 delta $d: $(timeout 60 $b/samples/sssp_q $g/road.medusa-bin --weights 1:1000 $a | line sssp_q)"
  done
  echo "sssp_q road w1:1000 auto: $(timeout 60 $b/samples/sssp_q $g/road.medusa-bin --weights 1:1000 | line sssp_q)"
  for k in 1 2 4; do
    p=""; [ $k != 1 ] && p="--gpus 1 --partitions-per-gpu $k"
    # shellcheck disable=SC2086
    echo "bfs_q road k=$k: $(timeout 120 $b/samples/bfs_q $g/road.medusa-bin $p | grep -E '^bfs_q: ' | tr '\n' ' ')"
  done
done
echo "validations:"
for gr in k22 road grid; do echo "cc $gr: $(timeout 60 $b/samples/cc $g/$gr.medusa-bin --validate | line cc)"; done
echo "sssp_q k22 delta 64: $(timeout 60 $b/samples/sssp_q $g/k22.medusa-bin --delta 64 --validate | line sssp_q)"
echo "sssp_q road delta 6400: $(timeout 60 $b/samples/sssp_q $g/road.medusa-bin --weights 1:1000 --delta 6400 --validate | line sssp_q)"
} 2>&1 | tee $OUT/features.log
echo "features in $(( $(date +%s) - t0 )) s"
