#!/usr/bin/env python3
"""Checks that every CUDA kernel that may run user functors binds its session's StepState first
(device_api.h: detail::bind_step_state, right after await_previous_kernel()). Continue(), Halt() and
Superstep() read it; a kernel that forgot would read another launch's pointer, or none, and only a
GPU run with concurrent sessions would show it.
Every kernel that runs element functors also reduces their global aggregates per block
(block_aggregates.cuh): open_block_aggregates<...>() before its work and close_block_aggregates<...>()
after it, with no `return` between them (a block's adds would be lost, or a barrier left waiting).
Usage: step_state_contract.py <backend/cuda folder>"""
import pathlib
import re
import sys

# Parameters through which a kernel reaches user code: the launch context, an element functor, a
# gather's source (a fused pass runs the ELIST work) or its VERTEX step, a per-source message's work.
RUNS_USER_CODE = re.compile(r"KernelCtx<|\bElement\b|\bThen\b|\bSource\s+src\b|\bWork\b")
# Parameters that carry element functors (whose add() goes to the block's aggregate slots).
RUNS_ELEMENTS = re.compile(r"\bElement\b|\bThen\b|\bSource\s+src\b|\bWork\b")
OPENS = re.compile(r"\bopen_block_aggregates<[^>]*>\(\);")
CLOSES = re.compile(r"\bclose_block_aggregates<[^>]*>\(\);")
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


def body_of(text):
    """The kernel's body: `text` (after its opening brace) up to the matching closing brace."""
    depth, i = 1, 0
    while depth and i < len(text):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
    return text[:i - 1]


def aggregate_problem(body):
    opened, closed = OPENS.search(body), CLOSES.search(body)
    if not opened or not closed or closed.start() < opened.start():
        return "does not call open_block_aggregates<...>() and then close_block_aggregates<...>()"
    if re.search(r"\breturn\b", body[opened.end():closed.start()]):
        return "returns between open_block_aggregates and close_block_aggregates"
    return None


def main():
    folder = pathlib.Path(sys.argv[1])
    checked, with_elements, problems = 0, 0, []
    for path in sorted(folder.glob("*.cu*")) + sorted(folder.glob("*.h")):
        for name, params, body in kernels(path.read_text()):
            if not RUNS_USER_CODE.search(params):
                continue
            checked += 1
            if not BINDS.match(body):
                problems.append(f"{path.name}: {name} may run user functors but does not begin with "
                                "await_previous_kernel(); medusa::detail::bind_step_state(<ctx>.step_state);")
            if RUNS_ELEMENTS.search(params):
                with_elements += 1
                problem = aggregate_problem(body_of(body))
                if problem:
                    problems.append(f"{path.name}: {name} runs element functors but {problem}")
    if with_elements < 8:
        problems.append(f"only {with_elements} kernels that run element functors found in {folder}")
    if checked < 8:  # (so that a change in the kernels' syntax cannot leave this test checking nothing)
        problems.append(f"only {checked} kernels that run user code found in {folder}")
    for p in problems:
        print("error:", p)
    print(f"{checked} kernels run user code, {with_elements} of them element functors; {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
