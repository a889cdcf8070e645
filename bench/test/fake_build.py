"""Pieces of a fake build folder for the bench scripts' tests (no GPU): a medusa-gen that writes
its output file and answers `info`, and a helper that writes an executable script."""
import os
import stat

MEDUSA_GEN = r'''#!/usr/bin/env python3
import sys
args = sys.argv[1:]
if args[0] == "info":
    print("vertices: 100\nedges: 1000 (directed, as stored)\nout-degree: min 0, max 60 (vertex 42), mean 10")
else:
    open(args[args.index("-o") + 1], "w").write("graph")
'''


def write_executable(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


def add_medusa_gen(build):
    write_executable(os.path.join(build, "bin", "medusa-gen"), MEDUSA_GEN)
