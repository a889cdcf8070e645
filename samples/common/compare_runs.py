#!/usr/bin/env python3
"""Runs a sample twice, each with --validate, and checks that both write the same results (exactly,
or within a relative tolerance): on one partition and on N (--parts N; the sample.*.partitioned
ctests), with the vertices in input order and renumbered by degree on the device
(--vertex-order; the sample.*.degree-order ctests), or in one process and over N MPI ranks
(--ranks N --mpirun PATH: `mpirun -np N --oversubscribe <sample> ... --distributed`; the
sample.*.mpi-N ctests), or in one process on a graph file and over N MPI ranks that each read
their own partition file (--ranks N --graph FILE --rank-files PREFIX: `<sample> FILE` against
`mpirun -np N <sample> --partition-files PREFIX --distributed`, which cannot --validate; the
sample.*.rank-files-N ctests). With --versus-env NAME=VALUE both runs take the second's partitions and
only the second sets NAME=VALUE (the sample.*.sparse-refresh ctests: the same partitions with a
schedule setting changed)."""
import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path


def run(sample, args, extra, out, launcher=(), validate=True, env=None):
    cmd = [*launcher, sample, *args, *extra, *(["--validate"] if validate else []), "--output", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    sys.stdout.write(done.stdout)
    sys.stderr.write(done.stderr)
    if done.returncode != 0:
        sys.exit(f"FAILED ({done.returncode}): {' '.join(cmd)}")
    return done.stdout


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
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--parts", type=int, help="compare 1 partition with this many")
    which.add_argument("--vertex-order", action="store_true", help="compare input IDs with degree order")
    which.add_argument("--ranks", type=int, help="compare one process with this many MPI ranks")
    p.add_argument("--mpirun", default="mpirun", help="the MPI launcher (with --ranks)")
    p.add_argument("--one-gpu", action="store_true",
                   help="with --ranks N: N partitions on one GPU (--gpus 1 --partitions-per-gpu N), "
                        "in one process and over the ranks; with --parts N: the N partitions on one GPU")
    p.add_argument("--expect-batches", action="store_true",
                   help="the second run must issue supersteps in batches (it prints how many)")
    p.add_argument("--expect-replays", action="store_true",
                   help="the second run must replay recorded batches (it prints how many supersteps)")
    p.add_argument("--rank-files", metavar="PREFIX",
                   help="with --ranks N and --graph FILE: the ranks read PREFIX.<r>-of-N in place of FILE")
    p.add_argument("--graph", help="the graph file of the one-process run (with --rank-files)")
    p.add_argument("--expect-queued", action="store_true",
                   help="the second run must queue the next frontiers of batched supersteps in SetActive(), "
                        "on every partition (it prints how many)")
    p.add_argument("--tolerance", type=float, default=0.0, help="relative; 0 = exact")
    p.add_argument("--versus-env", metavar="NAME=VALUE",
                   help="with --parts N: both runs on N partitions, the second with NAME=VALUE set")
    p.add_argument("args", nargs=argparse.REMAINDER)
    a = p.parse_args()
    args = a.args[1:] if a.args[:1] == ["--"] else a.args
    launcher = ()
    args_one, args_two, validate_two = args, args, True
    if a.rank_files:
        if not (a.ranks and a.graph):
            sys.exit("--rank-files needs --ranks N and --graph FILE")
        args_one = [a.graph, *args]
        args_two = ["--partition-files", a.rank_files, *args]
        validate_two = False  # (no rank holds the whole graph to validate against)
    if a.parts:
        parts = ["--gpus", "1", "--partitions-per-gpu", str(a.parts)] if a.one_gpu else ["--gpus", str(a.parts)]
        runs = [("1 partition", ["--gpus", "1"]), (f"{a.parts} partitions", parts)]
    elif a.ranks:
        # On one GPU both runs cut the same partitions: they differ only in what moves the replicas.
        shared = ["--gpus", "1", "--partitions-per-gpu", str(a.ranks)] if a.one_gpu else []
        runs = [("1 process", shared), (f"{a.ranks} MPI ranks", ["--distributed", *shared])]
        launcher = (a.mpirun, "-np", str(a.ranks), "--oversubscribe")
    else:
        runs = [("input order", ["--vertex-order", "input"]), ("degree order", ["--vertex-order", "degree"])]
    env_two = None
    if a.versus_env:
        name, _, value = a.versus_env.partition("=")
        env_two = {**os.environ, name: value}
        runs = [(f"{runs[1][0]} ({name}={os.environ.get(name, '')})", runs[1][1]),
                (f"{runs[1][0]} ({name}={value})", runs[1][1])]
    (name_one, extra_one), (name_two, extra_two) = runs
    with tempfile.TemporaryDirectory() as tmp:
        one, two = Path(tmp, "one.txt"), Path(tmp, "two.txt")
        run(a.sample, args_one, extra_one, one)
        said = run(a.sample, args_two, extra_two, two, launcher, validate_two, env_two)
        lines_one = one.read_text().splitlines()
        lines_two = two.read_text().splitlines()
    if a.expect_batches and "issued in batches" not in said:
        sys.exit(f"FAILED: {name_two} issued no superstep in a batch")
    replayed = [int(n) for n in re.findall(r"issued in batches, (\d+) of them replayed", said)]
    if a.expect_replays and not any(replayed):
        sys.exit(f"FAILED: {name_two} replayed no recorded batch")
    queued = [int(n) for n in re.findall(r"(\d+) batched supersteps queued their next frontier", said)]
    if a.expect_queued and not any(queued):
        sys.exit(f"FAILED: {name_two} queued no batched superstep's frontier in SetActive() on every partition")
    if len(lines_one) != len(lines_two):
        sys.exit(f"{name_one} wrote {len(lines_one)} results, {name_two} {len(lines_two)}")
    bad = 0
    for x, y in zip(lines_one, lines_two):
        if x != y and not close(x, y, a.tolerance):
            bad += 1
            if bad <= 5:
                print(f"differs: {name_one} '{x}', {name_two} '{y}'")
    if bad:
        sys.exit(f"{bad} of {len(lines_one)} results differ between {name_one} and {name_two}")
    print(f"{len(lines_one)} results equal in {name_one} and {name_two}"
          + (f" (relative tolerance {a.tolerance})" if a.tolerance else " (exactly)"))


if __name__ == "__main__":
    main()
