#!/usr/bin/env bash
# A/B of two builds in one run: each workload (a line "sample args...") on stdin runs R rounds,
# build A then build B in each round, so both see the same machine state. Prints the median and
# best Run time of each build and B's median over A's, as a Markdown table.
#   bench/ab.sh <build-a> <build-b> [runs] < workloads
# Each build folder holds samples/<sample> (scripts/gpu-check.sh or the benchmark README make one).
set -uo pipefail
a=$1 b=$2 runs=${3:-5}
ms_of() {  # the "<sample>: N supersteps, X ms" summary line
  grep -E "^$1: [0-9]+ supersteps, " | sed -E 's/.*supersteps, ([0-9.]+) ms.*/\1/' | head -n 1
}
stats() { sort -g | awk '{v[NR]=$1} END {if (NR) printf "%.3f %.3f", v[int((NR+1)/2)], v[1]; else printf "- -"}'; }
echo "| workload | A median (ms) | A best | B median (ms) | B best | B / A |"
echo "|---|---|---|---|---|---|"
while read -r sample args; do
  [ -z "$sample" ] && continue
  ta=() tb=()
  for ((r = 0; r < runs; ++r)); do
    # shellcheck disable=SC2086
    ta+=("$("$a/samples/$sample" $args 2>&1 | ms_of "$sample")")
    # shellcheck disable=SC2086
    tb+=("$("$b/samples/$sample" $args 2>&1 | ms_of "$sample")")
  done
  read -r ma ba <<< "$(printf '%s\n' "${ta[@]}" | grep . | stats)"
  read -r mb bb <<< "$(printf '%s\n' "${tb[@]}" | grep . | stats)"
  ratio=$(awk -v x="$ma" -v y="$mb" 'BEGIN {if (x > 0 && y > 0) printf "%.3f", y / x; else print "-"}')
  echo "| $sample $args | $ma | $ba | $mb | $bb | $ratio |"
done
