#!/usr/bin/env python3
"""Checks bench/run-benchmarks.py without a GPU: a fake build folder whose samples, baselines and
medusa-gen are small scripts printing the real programs' summary lines. Standard library only."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from fake_build import add_medusa_gen, write_executable

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESS = os.path.join(HERE, "..", "run-benchmarks.py")

# A fake program: prints the summary line of `name` with `ms` per run (--runs N lines for the
# baselines), the validation verdict, and the device memory line (--verbose for Medusa samples).
PROGRAM = r'''#!/usr/bin/env python3
import sys, time
name, ms, steps, verdict, memory, sleep = {name!r}, {ms!r}, {steps!r}, {verdict!r}, {memory!r}, {sleep!r}
args = sys.argv[1:]
runs = int(args[args.index("--runs") + 1]) if "--runs" in args else 1
if sleep and "--validate" not in args:
    time.sleep(sleep)
print(args[0] + ": 100 vertices, 1000 edges")
if "--verbose" in args or name.endswith("baseline"):
    print("  device memory: " + memory, file=sys.stderr if "--verbose" in args else sys.stdout)
if "--verbose" in args:
    order = "by descending degree (auto: ...)" if name == "pagerank" else "input IDs (auto: ...)"
    print("medusa: vertex order: " + order, file=sys.stderr)
for r in range(runs):
    t = ms * (1 + 0.1 * r)
    print(f"{{name}}: {{steps}} supersteps, {{t:.3f}} ms, {{1000 * steps / t / 1e6:.3f}} GTEPS "
          f"({{1000 * steps}} edges visited, graph has 1000), stop: maxIteration")
if "--validate" in args:
    print("validation: " + verdict)
    sys.exit(0 if verdict.startswith("PASSED") else 1)
'''

def check_checkpoint(cmd, out):
    """A suite killed during its timed runs (cc sleeps 30 s in each) leaves the validations' results."""
    cmd = cmd[:cmd.index("--out") + 1] + [out] + cmd[cmd.index("--out") + 2:]
    cmd[cmd.index("--timeout") + 1] = "60"
    p = subprocess.Popen(cmd + ["--only", "kron-20/cc,kron-20/bfs_q"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (
                os.path.isdir(out) and any(f.endswith(".json") for f in os.listdir(out))):
            time.sleep(0.2)
        time.sleep(0.5)  # (the .md follows the .json)
        assert p.poll() is None, "the harness must still be in cc's first timed run"
    finally:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
    files = sorted(os.listdir(out))
    assert len(files) == 2 and files[0].endswith(".json") and files[1].endswith(".md"), files
    result = json.load(open(os.path.join(out, files[0])))
    assert result["partial"] == "checkpoint after the validation runs: the suite did not finish", result.get("partial")
    w = {x["program"]: x for x in result["workloads"]}
    assert w["cc"]["status"] == "ok" and [r["ms"] for r in w["cc"]["runs"]] == [5.0], w["cc"]
    assert "time from the --verbose validation run only" in " ".join(w["cc"]["notes"])
    assert not result["plots"]
    assert "**partial**: checkpoint after the validation runs" in open(os.path.join(out, files[1])).read()


def main():
    with tempfile.TemporaryDirectory() as tmp:
        build, graphs, out = (os.path.join(tmp, d) for d in ("build", "graphs", "out"))
        add_medusa_gen(build)
        write_executable(os.path.join(graphs, "road-NE.txt.xz"), "")
        fakes = {  # name: (folder, ms, supersteps, verdict, memory, sleep in timed runs)
            "pagerank": ("samples", 60.0, 30, "PASSED", "1.50 GiB", 0),
            "bfs_q": ("samples", 14.0, 7, "PASSED", "512.00 MiB", 0),
            "bfs_n": ("samples", 10.0, 7, "PASSED", "512.00 MiB", 0),
            "sssp": ("samples", 20.0, 9, "FAILED (distances): 3 mismatches", "1.00 GiB", 0),
            "sssp_q": ("samples", 12.0, 9, "PASSED", "1.00 GiB", 0),
            "cc": ("samples", 5.0, 4, "PASSED", "1.00 GiB", 30),
            "pagerank_baseline": ("bench", 6.0, 30, "PASSED", "100.00 MiB (x)", 0),
            "bfs_baseline": ("bench", 7.0, 7, "PASSED", "50.00 MiB (x)", 0),
        }
        for name, (folder, ms, steps, verdict, memory, sleep) in fakes.items():
            write_executable(os.path.join(build, folder, name),
                             PROGRAM.format(name=name, ms=ms, steps=steps, verdict=verdict, memory=memory, sleep=sleep))
        cmd = [sys.executable, HARNESS, "--build", build, "--graphs", graphs, "--out", out, "--quick",
               "--timeout", "6", "--no-gpu-memory", "--no-plots", "--device", "Fake GPU", "--commit", "abc123"]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        assert p.returncode == 1, f"failed and timed-out workloads must give exit 1\n{p.stdout}\n{p.stderr}"
        files = sorted(os.listdir(out))
        assert len(files) == 2 and files[0].startswith("results-fake-gpu-") and files[0].endswith(".json"), files
        result = json.load(open(os.path.join(out, files[0])))
        md = open(os.path.join(out, files[1])).read()

        assert result["machine"]["commit"] == "abc123" and result["runs"] == 3
        assert [g["name"] for g in result["graphs"]] == ["road-NE", "kron-20"]
        assert all(g["source_vertex"] == (42 if g["name"] == "kron-20" else 0) for g in result["graphs"])
        assert all(g["vertices"] == 100 and g["edges"] == 1000 for g in result["graphs"])  # info / programs
        w = {(x["graph"], x["program"]): x for x in result["workloads"]}
        assert len(w) == 18, sorted(w)
        assert w[("kron-20", "bfs_baseline_do")]["command"][1:] == [
            w[("kron-20", "bfs_baseline")]["command"][1], "--direction-optimizing", "--source", "42"]
        pr = w[("kron-20", "pagerank")]
        assert pr["status"] == "ok" and len(pr["runs"]) == 3 and pr["median_ms"] == 60.0, pr
        assert pr["device_memory_reported_bytes"] == 1.5 * 2**30 and pr["validate_run_ms"] == 60.0
        assert abs(pr["median_ms_per_iteration"] - 2.0) < 1e-9
        assert pr["vertex_order"] == "by descending degree" and "vertices renumbered by degree on the device" in pr["notes"]
        assert w[("kron-20", "bfs_q")]["vertex_order"] == "input IDs" and not w[("kron-20", "bfs_q")]["notes"]
        base = w[("kron-20", "pagerank_baseline")]
        assert [r["ms"] for r in base["runs"]] == [6.0, 6.6, 7.2] and base["min_ms"] == 6.0
        assert base["median_ms"] == 6.6 and base["device_memory_reported_bytes"] == 100 * 2**20
        bfs = w[("road-NE", "bfs_q")]
        assert "--source" in bfs["command"] and bfs["command"][bfs["command"].index("--source") + 1] == "0"
        assert w[("kron-20", "sssp")]["status"] == "failed" and not w[("kron-20", "sssp")]["runs"]
        assert w[("kron-20", "sssp_q")]["status"] == "ok" and "--source" in w[("kron-20", "sssp_q")]["command"]
        cc = w[("kron-20", "cc")]
        assert cc["status"] == "timeout" and "timed out" in cc["notes"][0], cc
        ratios = {(r["algorithm"], r["graph"]): r for r in result["ratios"]}
        assert abs(ratios[("bfs", "kron-20")]["ratio_median"] - 14.0 / 7.7) < 1e-9
        assert len(ratios) == 6
        assert abs(ratios[("pagerank", "kron-20")]["ratio_median"] - 60.0 / 6.6) < 1e-9
        assert abs(ratios[("pagerank", "kron-20")]["ratio_min"] - 10.0) < 1e-9
        assert "| kron-20 | pagerank | ok | 3 |" in md and md.index("| road-NE | pagerank |") < md.index("| kron-20 | pagerank |") and "Fake GPU" in md and "abc123" in md
        check_checkpoint(cmd, os.path.join(tmp, "killed"))
    print("bench harness test: PASSED")


if __name__ == "__main__":
    main()
