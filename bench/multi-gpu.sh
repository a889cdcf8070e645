#!/usr/bin/env bash
# Multi-GPU scaling of the samples: each sample on a generated graph with --gpus 1 and each count
# in GPUS (--gpus G: G partitions, one per GPU), best of R runs, with the replica exchange figures
# the samples print. Needs a build with the CUDA samples (scripts/gpu-check.sh makes one).
#   bench/multi-gpu.sh <build-dir> <out.md> [graph] [gpus] [runs] [samples...]
# graph: a Kronecker scale (24), or kron24 / rmat24 (GTgraph R-MAT, edge factor 16); both symmetric.
# gpus: a count or a comma-separated list (2,4).
set -uo pipefail
build=$1 out=$2 graph_spec=${3:-24} gpu_list=${4:-2} runs=${5:-3}
shift $(( $# < 5 ? $# : 5 ))
samples=("$@")
[ ${#samples[@]} -eq 0 ] && samples=(pagerank bfs_q bfs_n)
case $graph_spec in
  [0-9]*) kind=kron scale=$graph_spec ;;
  kron[0-9]*) kind=kron scale=${graph_spec#kron} ;;
  rmat[0-9]*) kind=rmat scale=${graph_spec#rmat} ;;
  *) echo "multi-gpu.sh: graph '$graph_spec' is not a scale, kronS or rmatS" >&2; exit 2 ;;
esac
IFS=, read -r -a gpu_counts <<< "$gpu_list"
graph=$build/$kind$scale.medusa-bin
[ -f "$graph" ] || "$build/bin/medusa-gen" "$kind" --scale "$scale" --symmetric --seed 1 -o "$graph" || exit 1
{
  echo "# Multi-GPU scaling, $kind scale $scale (symmetric, edge factor 16), $(date -u +%F)"
  echo
  nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | sed 's/^/    /'
  echo
  echo "| sample | GPUs | best time (ms) | supersteps | speedup over 1 GPU | exchange |"
  echo "|---|---|---|---|---|---|"
} > "$out"
for sample in "${samples[@]}"; do
  extra="${SEARCH_ARGS:-}"  # (e.g. SEARCH_ARGS="--source V" where vertex 0 is isolated)
  [ "$sample" = pagerank ] && extra="--iterations 20"
  one=""
  for g in 1 "${gpu_counts[@]}"; do
    best="" line="" xline=""
    for ((r = 0; r < runs; ++r)); do
      # shellcheck disable=SC2086
      log=$("$build/samples/$sample" "$graph" --gpus "$g" $extra 2>&1)
      echo "$log" | grep -E "^$sample: " >&2
      ms=$(echo "$log" | grep -E "^$sample: [0-9]+ supersteps, " | sed -E 's/.*supersteps, ([0-9.]+) ms.*/\1/')
      [ -z "$ms" ] && { echo "$log" | tail -5 >&2; continue; }
      if [ -z "$best" ] || awk "BEGIN{exit !($ms < $best)}"; then
        best=$ms
        line=$(echo "$log" | grep -E "^$sample: [0-9]+ supersteps, ")
        xline=$(echo "$log" | grep -E "^$sample: [0-9]+ partitions" | sed -E "s/^$sample: //")
      fi
    done
    [ -z "$best" ] && { echo "| $sample | $g | failed | | | |" >> "$out"; continue; }
    steps=$(echo "$line" | sed -E 's/.*: ([0-9]+) supersteps.*/\1/')
    [ "$g" = 1 ] && one=$best
    speed=$(awk "BEGIN{ if (\"$one\" != \"\" && $best > 0) printf \"%.2fx\", ${one:-0} / $best }")
    echo "| $sample | $g | $best | $steps | $speed | ${xline:-} |" >> "$out"
  done
done
cat "$out"
