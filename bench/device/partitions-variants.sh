#!/usr/bin/env bash
# (A device-call script, after bench/device/partitions-run.sh built build-b on the same machine or
# builds it here.) Each workload once per variant: k partitions on one GPU with the vertex order
# and other settings in VARIANTS (";"-separated sample flags), to find what k partitions lose.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.carry/kit/lib
t0=$(date +%s)
[ -x build-b/samples/pagerank ] || SKIP_A=1 PARTS=1 VERBOSE_PARTS=none bash bench/device/partitions-run.sh > /dev/null 2>&1
g=/tmp/graphs
for k in ${PARTS:-2 4}; do
  [ -f $g/kron22.part.$k ] || build-b/bin/medusa-part $g/kron22.medusa-bin -k $k -o $g/kron22.part.$k > /dev/null
done
echo "ready at $(( $(date +%s) - t0 )) s"
IFS=';' read -ra variants <<< "${VARIANTS:-}"
for k in ${PARTS:-2 4}; do
  p="--gpus 1 --partitions-per-gpu $k --partition-file $g/kron22.part.$k"
  [ "$k" = 1 ] && p=""
  for v in "${variants[@]}"; do
    for s in "pagerank --iterations 20" "bfs_q " "cc_lp " "cc "; do
      # shellcheck disable=SC2086
      echo "k=$k $s [$v]: $(env ${ENVS:-} timeout 120 build-b/samples/${s%% *} $g/kron22.medusa-bin ${s#* } $p $v 2>&1 | grep -E "^${s%% *}: [0-9]+ supersteps" | head -1 | sed -E 's/, [0-9.]+ GTEPS.*//')"
    done
  done
done
echo "done at $(( $(date +%s) - t0 )) s"
