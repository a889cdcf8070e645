#!/usr/bin/env bash
# Regenerates the expected outputs of medusa-cc's golden tests (test/frontend/golden/) after an
# intended change to the generated code. Review the diff before committing it.
#   scripts/update-golden.sh [build-dir]     (default: $MEDUSA_BUILD_DIR or build-fe)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-${MEDUSA_BUILD_DIR:-$root/build-fe}}"
cmake --build "$build" --target medusa-cc -j2 >/dev/null
cc="$build/frontend/medusa-cc"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for input in "$root"/test/frontend/golden/*.cpp; do
  stem="$(basename "$input" .cpp)"
  # Same options as test/frontend/cmake/check_golden.cmake.
  "$cc" --backend=cuda --line-directive-root="$root" -o "$tmp/" "$input" --
  cp "$tmp/$stem.medusa.cu" "$root/test/frontend/golden/$stem.medusa.cu.expected"
  "$cc" --emit-model --line-directive-root="$root" "$input" -- \
    > "$root/test/frontend/golden/$stem.model.json.expected"
  echo "updated $stem"
done
git -C "$root" --no-pager diff --stat -- test/frontend/golden || true
# The superstep plans of the samples (test/frontend/plans/), as check_plan.cmake reads them.
for expected in "$root"/test/frontend/plans/*.plan.json.expected; do
  stem="$(basename "$expected" .plan.json.expected)"
  input="$(find "$root/samples" -name "$stem.cpp" | head -n 1)"
  [ -n "$input" ] || input="$root/test/frontend/golden/$stem.cpp"  # (as test/frontend/CMakeLists.txt)
  "$cc" --emit-model "$input" -- -I"$root/samples/common" |
    python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["superstep_plans"], indent=2))' > "$expected"
  echo "updated plan $stem"
done
