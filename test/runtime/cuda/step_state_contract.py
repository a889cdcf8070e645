#!/usr/bin/env python3
"""Checks that every CUDA kernel that may run user functors binds its session's StepState first
(device_api.h: detail::bind_step_state, right after await_previous_kernel()). Continue(), Halt() and
Superstep() read it; a kernel that forgot would read another launch's pointer, or none, and only a
GPU run with concurrent sessions would show it. Usage: step_state_contract.py <backend/cuda folder>"""
import pathlib
import re
import sys

# Parameters through which a kernel reaches user code: the launch context, an element functor, a
# gather's source (a fused pass runs the ELIST work) or its VERTEX step, a per-source message's work.
RUNS_USER_CODE = re.compile(r"KernelCtx<|\bElement\b|\bThen\b|\bSource\s+src\b|\bWork\b")
BINDS = re.compile(r"\s*await_previous_kernel\(\);\s*medusa::detail::bind_step_state\(\w+\.step_state\);")


def kernels(text):
    for m in re.finditer(r"__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s*)?(\w+)\s*\(", text):
        depth, i = 1, m.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        params = text[m.end():i - 1]
        brace = text.find("{", i)
        yield m.group(1), params, text[brace + 1:]


def main():
    folder = pathlib.Path(sys.argv[1])
    checked, problems = 0, []
    for path in sorted(folder.glob("*.cu*")) + sorted(folder.glob("*.h")):
        for name, params, body in kernels(path.read_text()):
            if not RUNS_USER_CODE.search(params):
                continue
            checked += 1
            if not BINDS.match(body):
                problems.append(f"{path.name}: {name} may run user functors but does not begin with "
                                "await_previous_kernel(); medusa::detail::bind_step_state(<ctx>.step_state);")
    if checked < 8:  # (so that a change in the kernels' syntax cannot leave this test checking nothing)
        problems.append(f"only {checked} kernels that run user code found in {folder}")
    for p in problems:
        print("error:", p)
    print(f"{checked} kernels run user code; {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
