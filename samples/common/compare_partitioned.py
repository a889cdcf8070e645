#!/usr/bin/env python3
"""Runs a sample on one partition and on N, each with --validate, and checks that both write the
same results (exactly, or within a relative tolerance for floating-point samples whose sums run in
another order when partitioned). Used by the sample.*.partitioned ctests."""
import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path


def run(sample, args, gpus, out):
    cmd = [sample, *args, "--gpus", str(gpus), "--validate", "--output", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    sys.stdout.write(done.stdout)
    sys.stderr.write(done.stderr)
    if done.returncode != 0:
        sys.exit(f"FAILED ({done.returncode}): {' '.join(cmd)}")


NUMBER = re.compile(r"-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?")


def close(x, y, tolerance):
    """Same text apart from numbers that agree within the relative tolerance (a results line
    'vertex value', or an SVG element of the layout sample)."""
    if tolerance <= 0 or NUMBER.sub("#", x) != NUMBER.sub("#", y):
        return False
    for nx, ny in zip(NUMBER.findall(x), NUMBER.findall(y)):
        fx, fy = float(nx), float(ny)
        if abs(fx - fy) > tolerance * max(1.0, abs(fx)):
            return False
    return True


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sample", required=True)
    p.add_argument("--parts", type=int, required=True)
    p.add_argument("--tolerance", type=float, default=0.0, help="relative; 0 = exact")
    p.add_argument("args", nargs=argparse.REMAINDER)
    a = p.parse_args()
    args = a.args[1:] if a.args[:1] == ["--"] else a.args
    with tempfile.TemporaryDirectory() as tmp:
        one, many = Path(tmp, "one.txt"), Path(tmp, "many.txt")
        run(a.sample, args, 1, one)
        run(a.sample, args, a.parts, many)
        lines_one = one.read_text().splitlines()
        lines_many = many.read_text().splitlines()
    if len(lines_one) != len(lines_many):
        sys.exit(f"1 partition wrote {len(lines_one)} results, {a.parts} partitions {len(lines_many)}")
    bad = 0
    for x, y in zip(lines_one, lines_many):
        if x != y and not close(x, y, a.tolerance):
            bad += 1
            if bad <= 5:
                print(f"differs: 1 partition '{x}', {a.parts} partitions '{y}'")
    if bad:
        sys.exit(f"{bad} of {len(lines_one)} results differ between 1 and {a.parts} partitions")
    print(f"{len(lines_one)} results equal on 1 and {a.parts} partitions"
          + (f" (relative tolerance {a.tolerance})" if a.tolerance else " (exactly)"))


if __name__ == "__main__":
    main()
