#!/usr/bin/env python3
"""Checks bench/multi-gpu.sh without a GPU: a fake build folder whose sample prints the real
summary lines, among them the lines that also start with "<name>: N supersteps" (batches,
prefetched messages) and must not be read as times. Standard library only."""
import os
import subprocess
import sys
import tempfile

from fake_build import add_medusa_gen, write_executable

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "multi-gpu.sh")

# One GPU: 10 ms, then 9 ms (the best); two GPUs: 6 ms, then 5 ms. Each run counts its calls in a
# file beside the script, so the second run of each GPU count is the faster one.
SAMPLE = r'''#!/usr/bin/env python3
import os, sys
args = sys.argv[1:]
gpus = int(args[args.index("--gpus") + 1])
counter = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"calls-{gpus}")
calls = int(open(counter).read()) if os.path.exists(counter) else 0
open(counter, "w").write(str(calls + 1))
ms = (10.0 if gpus == 1 else 6.0) - (calls % 2)
print(f"pagerank: 20 supersteps, {ms:.3f} ms, 1.000 GTEPS (2000 edges visited, graph has 100), stop: maxIteration")
print("pagerank: 19 supersteps issued in batches, 0 of them replayed from a recording")
print("pagerank: 19 supersteps used source messages that the VERTEX step before computed")
if gpus > 1:
    print(f"pagerank: {gpus} partitions, 1-hop replicas (replication factor 1.50): 19 refreshes")
'''

def main():
    with tempfile.TemporaryDirectory() as tmp:
        build, out = os.path.join(tmp, "build"), os.path.join(tmp, "out.md")
        write_executable(os.path.join(build, "samples", "pagerank"), SAMPLE)
        add_medusa_gen(build)
        p = subprocess.run(["bash", SCRIPT, build, out, "10", "2", "2", "pagerank"], capture_output=True,
                           text=True, timeout=120)
        assert p.returncode == 0, f"multi-gpu.sh failed\n{p.stdout}\n{p.stderr}"
        rows = [line for line in open(out).read().splitlines() if line.startswith("| pagerank |")]
        assert rows[0] == "| pagerank | 1 | 9.000 | 20 | 1.00x |  |", rows
        assert rows[1].startswith("| pagerank | 2 | 5.000 | 20 | 1.80x | 2 partitions, 1-hop replicas"), rows
        assert len(rows) == 2, rows
    print("multi-gpu.sh test: PASSED")


if __name__ == "__main__":
    sys.exit(main())
