#!/usr/bin/env python3
"""Checks the contract of gpu::launch_kernel (dependent_launch.cuh): every kernel it launches
begins with kernels::await_previous_kernel(). Such a kernel may start while the kernel before it
on the stream still runs, so a memory access before the wait is a race that no GPU test catches
reliably. Usage: dependent_launch_contract.py <runtime/include/medusa/backend/cuda>"""
import pathlib
import re
import sys


def launched_kernels(text):
    # launch_kernel<gpu::kernels::name<...>> or launch_kernel<kernels::name>: the kernel's name.
    return set(re.findall(r"launch_kernel<\s*(?:gpu::)?(?:kernels::)?(\w+)", text))


def kernel_bodies(text):
    # name -> the text after the opening brace of each __global__ definition of that name.
    bodies = {}
    for m in re.finditer(r"__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s*)?(\w+)\s*\(", text):
        depth, i = 1, m.end()
        while depth:  # to the end of the parameter list
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        brace = text.find("{", i)
        bodies.setdefault(m.group(1), []).append(text[brace + 1:])
    return bodies


def main():
    folder = pathlib.Path(sys.argv[1])
    launched, bodies = set(), {}
    for path in sorted(folder.rglob("*.cu*")) + sorted(folder.rglob("*.h")):
        text = path.read_text()
        launched |= launched_kernels(text)
        for name, found in kernel_bodies(text).items():
            bodies.setdefault(name, []).extend(found)
    launched.discard("Kernel")  # (launch_kernel's own template parameter)
    problems = []
    for name in sorted(launched):
        if name not in bodies:
            problems.append(f"{name}: launched through launch_kernel, but no __global__ definition found")
        for body in bodies.get(name, []):
            if not re.match(r"\s*await_previous_kernel\(\);", body):
                problems.append(f"{name}: its first statement is not await_previous_kernel();")
    # (so that a change in the launch syntax cannot leave this test checking nothing)
    if len(launched) < 10:
        problems.append(f"only {len(launched)} kernels found launched through launch_kernel in {folder}")
    for p in problems:
        print("error:", p)
    print(f"{len(launched)} kernels launched through launch_kernel; {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
