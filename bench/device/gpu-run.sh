#!/usr/bin/env bash
# (A device-call script: run from the repository root with .carry/ holding what it names; see
# docs/benchmarks/history/2026-11-25-h100-tuning-plan-ab.md.)
# Device call: build this tree from translated sources, run the gpu-labelled tests and every sample
# with --validate (scripts/gpu-check.sh), keep the logs.
set -uo pipefail
export MEDUSA_BUILD_DIR=$PWD/build-gpu
export LD_LIBRARY_PATH=$PWD/.carry/kit/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
t0=$(date +%s)
bash scripts/gpu-check.sh .carry/gen .carry/kit .carry/graphs > $OUT/gpu-check.log 2>&1
rc=$?
grep -E "^== |validation: (PASSED|FAILED)|tests passed|tests failed|\(Failed\)|\*\*\*|error|Error" $OUT/gpu-check.log | grep -v "^== " | sort | uniq -c | sort -rn | head -40
grep -E "tests passed|Failed|FAILED" $OUT/gpu-check.log | head -40
head -3 $OUT/gpu-check.log
echo "gpu-check rc=$rc in $(( $(date +%s) - t0 )) s"
