#!/usr/bin/env bash
# Multi-GPU scaling of the samples: each sample on a generated Kronecker graph with --gpus 1 and
# --gpus N, best of R runs, with the replica exchange figures the samples print. Needs a build
# with the CUDA samples (scripts/gpu-check.sh makes one).
#   bench/multi-gpu.sh <build-dir> <out.md> [scale] [gpus] [runs] [samples...]
set -uo pipefail
build=$1 out=$2 scale=${3:-24} gpus=${4:-2} runs=${5:-3}
shift $(( $# < 5 ? $# : 5 ))
samples=("$@")
[ ${#samples[@]} -eq 0 ] && samples=(pagerank bfs_q bfs_n)
graph=$build/kron$scale.medusa-bin
[ -f "$graph" ] || "$build/bin/medusa-gen" kron --scale "$scale" --symmetric --seed 1 -o "$graph" || exit 1
{
  echo "# Multi-GPU scaling, Kronecker scale $scale (symmetric, edge factor 16), $(date -u +%F)"
  echo
  nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | sed 's/^/    /'
  echo
  echo "| sample | GPUs | best time (ms) | supersteps | speedup over 1 GPU | exchange |"
  echo "|---|---|---|---|---|---|"
} > "$out"
for sample in "${samples[@]}"; do
  extra=""
  [ "$sample" = pagerank ] && extra="--iterations 20"
  one=""
  for g in 1 "$gpus"; do
    best="" line="" xline=""
    for ((r = 0; r < runs; ++r)); do
      # shellcheck disable=SC2086
      log=$("$build/samples/$sample" "$graph" --gpus "$g" $extra 2>&1)
      echo "$log" | grep -E "^$sample: " >&2
      ms=$(echo "$log" | grep -E "^$sample: [0-9]+ supersteps" | sed -E 's/.*supersteps, ([0-9.]+) ms.*/\1/')
      [ -z "$ms" ] && { echo "$log" | tail -5 >&2; continue; }
      if [ -z "$best" ] || awk "BEGIN{exit !($ms < $best)}"; then
        best=$ms
        line=$(echo "$log" | grep -E "^$sample: [0-9]+ supersteps")
        xline=$(echo "$log" | grep -E "^$sample: [0-9]+ partitions" | sed -E "s/^$sample: //")
      fi
    done
    steps=$(echo "$line" | sed -E 's/.*: ([0-9]+) supersteps.*/\1/')
    [ "$g" = 1 ] && one=$best
    speed=$(awk "BEGIN{ if ($best > 0) printf \"%.2fx\", $one / $best }")
    echo "| $sample | $g | $best | $steps | $speed | ${xline:-} |" >> "$out"
  done
done
cat "$out"
