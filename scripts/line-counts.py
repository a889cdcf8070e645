#!/usr/bin/env python3
"""Lines of code a user writes with Medusa vs. what they would write by hand (the paper's Table 6).

Counts code lines (not blank, not comment-only) of:
  * the EMV part of a sample: from its first `struct` to the line before `int main` (data, functors,
    iteration function; main is the same graph loading/validation a hand-written program also has);
  * the device-side part medusa-cc generated for it (the translated file minus the user's text);
  * a hand-written CUDA baseline without its main().
usage: scripts/line-counts.py <build-dir>   (a build with the frontend, samples and bench)
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def code_lines(lines):
    count, in_block = 0, False
    for raw in lines:
        line = raw.strip()
        if in_block:
            if "*/" in line:
                in_block = False
                line = line.split("*/", 1)[1].strip()
            else:
                continue
        if line.startswith("/*") and "*/" not in line:
            in_block = True
            continue
        line = re.sub(r"/\*.*?\*/", "", line).strip()
        if line and not line.startswith("//") and not line.startswith("#line"):
            count += 1
    return count


def before_main(text):
    lines = text.splitlines()
    end = next((i for i, l in enumerate(lines) if l.startswith("int main")), len(lines))
    return lines[:end]


def emv_part(path):
    lines = before_main(path.read_text())
    start = next(i for i, l in enumerate(lines) if l.startswith("struct "))
    return code_lines(lines[start:])


def generated_part(path):
    # medusa-cc output: the generated regions are those after a `#line N "<name>.medusa.cu"`.
    count, generated = 0, False
    block = []
    for line in path.read_text().splitlines():
        m = re.match(r'#line \d+ "(.*)"', line)
        if m:
            if generated:
                count += code_lines(block)
            block, generated = [], m.group(1).endswith((".medusa.cu", ".medusa.cpp"))
            continue
        block.append(line)
    if generated:
        count += code_lines(block)
    return count


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build = pathlib.Path(sys.argv[1])
    gen = build / "samples" / "medusa-generated"
    rows = [
        ("BFS-Q", ROOT / "samples/bfs/bfs_q.cpp", gen / "bfs_q/bfs_q.medusa.cu", ROOT / "bench/baselines/bfs_baseline.cu"),
        ("SSSP-Q", ROOT / "samples/sssp/sssp_q.cpp", gen / "sssp_q/sssp_q.medusa.cu", None),
        ("PageRank", ROOT / "samples/pagerank/pagerank.cpp", gen / "pagerank/pagerank.medusa.cu",
         ROOT / "bench/baselines/pagerank_baseline.cu"),
        ("k-core", ROOT / "samples/kcore/kcore.cpp", gen / "kcore/kcore.medusa.cu", None),
        ("HITS", ROOT / "samples/hits/hits.cpp", gen / "hits/hits.medusa.cu", None),
        ("Triangles", ROOT / "samples/triangles/triangles.cpp", gen / "triangles/triangles.medusa.cu", None),
        ("CC (hooking and pointer jumping)", ROOT / "samples/cc/cc.cpp", gen / "cc/cc.medusa.cu", None),
        ("CC (label propagation)", ROOT / "samples/cc/cc_lp.cpp", gen / "cc_lp/cc_lp.medusa.cu", None),
    ]
    print("| algorithm | Medusa: lines the user writes | medusa-cc: device lines it generates | hand-written CUDA baseline |")
    print("|---|---|---|---|")
    for name, source, translated, baseline in rows:
        generated = generated_part(translated) if translated.exists() else "(not built)"
        manual = code_lines(before_main(baseline.read_text())) if baseline else "(none in bench/)"
        print(f"| {name} | {emv_part(source)} | {generated} | {manual} |")


if __name__ == "__main__":
    main()
