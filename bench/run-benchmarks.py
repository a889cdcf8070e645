#!/usr/bin/env python3
"""Medusa benchmark suite: every sample and the hand-written CUDA baselines on the standard graphs.

    python3 bench/run-benchmarks.py --build build-gpu --graphs ../shared/graphs --out bench/results

Generates (and caches) the graphs with medusa-gen, runs each workload once with --validate, then
R timed runs, parses the summary lines the programs print, samples the GPU's used memory, and
writes results-<device>-<date>.json / .md and PNG plots into --out (bench/results keeps every run).
docs/benchmarks/methodology.md says what is measured. Needs python3 and, for the plots, matplotlib; nothing else.
"""
import argparse
import copy
import ctypes
import datetime
import fnmatch
import json
import os
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time

MEDUSA = ["pagerank", "bfs_q", "bfs_n", "sssp", "sssp_q", "cc", "pagerank_vertex_loops",
          "pagerank_vertex_loops_csr"]
BASELINES = ["pagerank_baseline", "bfs_baseline", "bfs_baseline_do"]
# workload: (program, arguments)
VARIANTS = {"bfs_baseline_do": ("bfs_baseline", ["--direction-optimizing"]),
            "pagerank_vertex_loops_csr": ("pagerank_vertex_loops", ["--layout", "csr"])}
# Run order: the pairs behind the overhead ratios first, so that a spent time budget cuts the rest.
ORDER = ["pagerank", "pagerank_baseline", "bfs_q", "bfs_baseline", "cc", "sssp_q", "bfs_n", "sssp", "bfs_baseline_do",
         "pagerank_vertex_loops", "pagerank_vertex_loops_csr"]
# The layout study: a thread-per-vertex loop takes seconds per iteration on a Kronecker graph's hubs,
# so the default suite leaves it out; --only 'grid-2048/pagerank_vertex_loops*' (etc.) runs it.
OPT_IN = {"pagerank_vertex_loops", "pagerank_vertex_loops_csr"}
NEEDS_SOURCE = {"bfs_q", "bfs_n", "sssp", "sssp_q", "bfs_baseline", "bfs_baseline_do"}
NEEDS_SYMMETRIC = {"cc", "cc_lp"}  # components of an undirected graph
# Medusa / baseline pairs whose time ratio is the framework's overhead; PageRank per iteration.
# The top-down baseline is the overhead measure (bfs_q is top-down too); the direction-optimizing one
# shows what the algorithm alone would gain.
RATIOS = [("bfs", "bfs_q", "bfs_baseline"), ("pagerank", "pagerank", "pagerank_baseline"),
          ("bfs-vs-direction-optimizing", "bfs_q", "bfs_baseline_do"),
          # The edge layout the runtime chose (Layout::Auto) against CSR, for a thread-per-vertex
          # ELIST loop (PageRank translated with --no-edge-parallel): below 1 means the layout helps.
          ("pagerank-layout", "pagerank_vertex_loops", "pagerank_vertex_loops_csr")]

SUMMARY = re.compile(r"^(\w+): (\d+) supersteps, ([\d.]+) ms, ([\d.]+) GTEPS \((\d+) edges visited, "
                     r"graph has (\d+)\), stop: (.*)$", re.M)
MEMORY = re.compile(r"device memory: ([\d.]+) (B|KiB|MiB|GiB|TiB)")
UNITS = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}


def graph_specs(quick, graph_dir):
    """Each graph: name, medusa-gen arguments (or the real graph's file), symmetric, and the source of BFS
    and SSSP: vertex 0, or the vertex of largest out-degree where labels are permuted (Kronecker)."""
    real = [("road-NE", "road-NE.txt.xz", "zero"), ("ego-twitter", "ego-twitter.txt.xz", "max-degree")]
    if quick:
        gen = [("kron-20", ["kron", "--scale", "20", "--symmetric", "--seed", "1"], True, "max-degree")]
        real = real[:1]
    else:
        n = 1 << 22
        gen = [("kron-22", ["kron", "--scale", "22", "--symmetric", "--seed", "1"], True, "max-degree"),
               ("rmat-22", ["rmat", "--scale", "22", "--seed", "1"], False, "zero"),  # R-MAT's hub is vertex 0
               ("uniform-22", ["uniform", "--vertices", str(n), "--edges", str(16 * n), "--seed", "1"], False,
                "zero"),
               ("grid-2048", ["grid", "--rows", "2048", "--cols", "2048"], True, "zero")]
    specs = [dict(name=g, gen=a, input=None, symmetric=s, source=p) for g, a, s, p in gen]
    for name, file, policy in real:
        path = os.path.join(graph_dir, file) if graph_dir else None
        specs.append(dict(name=name, gen=None, input=path, symmetric=True, source=policy))
    # Run order (a spent budget cuts the last): the target's two reference graphs, then the cheap ones.
    first = ["road-NE", "kron-22", "kron-20", "ego-twitter", "grid-2048"]
    return sorted(specs, key=lambda g: first.index(g["name"]) if g["name"] in first else len(first))


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def run_command(cmd, timeout, env=None):
    """Runs cmd in its own process group; returns (rc or None on timeout, output, wall seconds)."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
                         env=env, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out, time.monotonic() - start
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return None, out, time.monotonic() - start


class GpuMemory:
    """Reads the GPU's used memory in MiB: NVML through ctypes (microseconds a read), else nvidia-smi."""

    def __init__(self, gpu):
        self.gpu, self.nvml, self.handle = gpu, None, None
        try:
            nvml = ctypes.CDLL("libnvidia-ml.so.1")
            handle = ctypes.c_void_p()
            if nvml.nvmlInit_v2() == 0 and (
                    nvml.nvmlDeviceGetHandleByUUID(gpu.encode(), ctypes.byref(handle)) if gpu.startswith("GPU-")
                    else nvml.nvmlDeviceGetHandleByIndex_v2(int(gpu), ctypes.byref(handle))) == 0:
                self.nvml, self.handle = nvml, handle
        except (OSError, ValueError, AttributeError):
            pass

    def used_mib(self):
        if self.nvml:
            class Memory(ctypes.Structure):
                _fields_ = [("total", ctypes.c_ulonglong), ("free", ctypes.c_ulonglong), ("used", ctypes.c_ulonglong)]
            m = Memory()
            if self.nvml.nvmlDeviceGetMemoryInfo(self.handle, ctypes.byref(m)) == 0:
                return m.used / 2**20
            return None
        try:
            return float(query(["nvidia-smi", f"--id={self.gpu}", "--query-gpu=memory.used",
                                "--format=csv,noheader,nounits"]))
        except ValueError:
            return None


class PeakSampler:
    """Largest used memory (MiB) seen every 20 ms while a run is in flight."""

    def __init__(self, memory):
        self.memory, self.peak, self.stop = memory, None, threading.Event()

    def _loop(self):
        while True:
            v = self.memory.used_mib()
            if v is not None:
                self.peak = v if self.peak is None else max(self.peak, v)
            if self.stop.wait(0.02):
                return

    def __enter__(self):
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=5)


def query(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def machine_info(args, build):
    info = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
    smi = shutil.which("nvidia-smi") is not None
    gpu = os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0] or "0"
    if smi:
        fields = query(["nvidia-smi", f"--id={gpu}", "--query-gpu=name,driver_version,memory.total,memory.used",
                        "--format=csv,noheader,nounits"]).split(", ")
        if len(fields) == 4:
            info.update(device=fields[0], driver=fields[1], memory_total_mib=float(fields[2]),
                        idle_memory_used_mib=float(fields[3]))
        m = re.search(r"CUDA Version: ([\d.]+)", query(["nvidia-smi"]))
        info["driver_cuda_version"] = m.group(1) if m else None
        info["memory_reader"] = "NVML" if GpuMemory(gpu).nvml else "nvidia-smi"
    info.setdefault("device", args.device or "unknown-device")
    nvcc = None
    cache = os.path.join(build, "CMakeCache.txt")
    if os.path.exists(cache):
        m = re.search(r"^CMAKE_CUDA_COMPILER:\w+=(.*)$", open(cache).read(), re.M)
        nvcc = m.group(1) if m else None
    nvcc = nvcc or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    m = re.search(r"release ([\d.]+), V([\d.]+)", query([nvcc, "--version"]))
    info["cuda_toolkit"] = m.group(2) if m else None
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    commit = query(["git", "-C", repo, "rev-parse", "HEAD"])
    if commit and query(["git", "-C", repo, "status", "--porcelain", "--untracked-files=no"]):
        commit += " (with uncommitted changes)"
    info["commit"] = args.commit or os.environ.get("MEDUSA_COMMIT") or commit or "unknown"
    cpu = re.search(r"^model name\s*: (.*)$", open("/proc/cpuinfo").read(), re.M) if os.path.exists(
        "/proc/cpuinfo") else None
    info["host"] = f"{cpu.group(1) if cpu else 'unknown CPU'}, {os.cpu_count()} logical cores"
    info["gpu_index"] = gpu if smi else None
    return info


def prepare_graph(spec, gen_tool, cache, timeout):
    """Makes <cache>/<name>.medusa-bin (once) and reads its statistics; returns a note if it cannot."""
    path = os.path.join(cache, spec["name"] + ".medusa-bin")
    partial = os.path.join(cache, spec["name"] + ".partial.medusa-bin")  # the extension picks the format
    if not os.path.exists(path):
        if spec["gen"] is not None:
            cmd = [gen_tool] + spec["gen"] + ["-o", partial]
        elif spec["input"] and os.path.exists(spec["input"]):
            cmd = [gen_tool, "convert", spec["input"], "--symmetric", "-o", partial]
        else:
            return f"input {spec['input'] or '(no --graphs folder)'} not found"
        log(f"graph {spec['name']}: {shlex.join(cmd)}")
        rc, out, wall = run_command(cmd, timeout)
        if rc != 0:
            return f"medusa-gen failed ({'timeout' if rc is None else 'exit ' + str(rc)}): {out.strip()[-300:]}"
        os.replace(partial, path)
        spec["generate_s"] = round(wall, 1)
    spec["file"] = path
    if spec["source"] != "max-degree":
        return None
    stats_path = path + ".info.json"
    if os.path.exists(stats_path) and os.path.getmtime(stats_path) >= os.path.getmtime(path):
        spec.update(json.load(open(stats_path)))
        return None
    rc, out, _ = run_command([gen_tool, "info", path], timeout)
    if rc != 0:
        return f"medusa-gen info failed: {out.strip()[-300:]}"
    stats = {"vertices": int(re.search(r"^vertices: (\d+)", out, re.M).group(1)),
             "edges": int(re.search(r"^edges: (\d+)", out, re.M).group(1)),
             "max_out_degree_vertex": int(re.search(r"^out-degree: .*max \d+ \(vertex (\d+)\)", out, re.M).group(1))}
    json.dump(stats, open(stats_path, "w"))
    spec.update(stats)
    return None


def parse_output(out):
    runs = [dict(name=m.group(1), supersteps=int(m.group(2)), ms=float(m.group(3)), gteps=float(m.group(4)),
                 edges_visited=int(m.group(5)), graph_edges=int(m.group(6)), stop=m.group(7).strip())
            for m in SUMMARY.finditer(out)]
    mem = MEMORY.search(out)
    validation = re.search(r"^validation: .*$", out, re.M)
    return runs, (float(mem.group(1)) * UNITS[mem.group(2)] if mem else None), (
        validation.group(0) if validation else None)


class Suite:
    def __init__(self, args, info):
        self.args, self.info = args, info
        self.start = time.monotonic()
        self.env = dict(os.environ, CUDA_MODULE_LOADING="EAGER")
        self.memory = GpuMemory(info["gpu_index"]) if info.get("gpu_index") is not None and not args.no_gpu_memory \
            else None
        # Peaks are reported above what the GPU used before the suite, read the same way.
        self.idle_mib = self.memory.used_mib() if self.memory else None
        info["idle_memory_used_mib"] = self.idle_mib if self.idle_mib is not None else info.get("idle_memory_used_mib")
        self.graphs = {}  # name -> spec, to fill in vertex and edge counts from the programs' output
        self.checkpoint = lambda stage: None  # writes what is measured so far (main sets it)

    def left(self):
        return self.args.budget - (time.monotonic() - self.start)

    def execute(self, w, extra):
        """One process of workload w; returns (rc, output, wall, peak MiB above idle)."""
        cmd = w["command"] + extra
        sampler = PeakSampler(self.memory) if self.memory else None
        timeout = min(self.args.timeout, max(1.0, self.left()))
        if sampler:
            with sampler:
                rc, out, wall = run_command(cmd, timeout, self.env)
        else:
            rc, out, wall = run_command(cmd, timeout, self.env)
        peak = None
        if sampler and sampler.peak is not None:
            peak = round(sampler.peak - (self.idle_mib or 0.0), 1)
        return rc, out, wall, peak

    def fail(self, w, what, rc, out):
        if rc is None and self.left() <= 1:
            w["status"] = "ok-partial" if w["runs"] else "skipped"
            w["notes"].append(f"{what}: stopped when the time budget ran out")
        else:
            w["status"] = "timeout" if rc is None else "failed"
            w["notes"].append(f"{what}: " + (f"timed out after {self.args.timeout:.0f} s" if rc is None else
                                             f"exit {rc}") + ": " + " / ".join(l.strip() for l in out.strip().splitlines()[-3:]))
        log(f"  {w['graph']}/{w['program']}: {w['notes'][-1]}")

    def record(self, w, runs, peak):
        w["runs"].extend(runs)
        if peak is not None:
            w["peak_gpu_memory_used_mib"] = max(peak, w.get("peak_gpu_memory_used_mib") or 0.0)

    def validate(self, w):
        """First process: --validate (and, for Medusa, --verbose for its device-memory report).
        The baseline's process also does all its timed runs (--runs R), in one process."""
        extra = ["--validate"] + (["--runs", str(self.args.runs)] if w["kind"] == "baseline" else ["--verbose"])
        rc, out, wall, peak = self.execute(w, extra)
        w["validate_wall_s"] = round(wall, 2)
        runs, mem, validation = parse_output(out)
        w["validation"] = validation
        m = re.search(r": (\d+) vertices, (\d+) edges", out)
        if m and "vertices" not in self.graphs[w["graph"]]:
            self.graphs[w["graph"]].update(vertices=int(m.group(1)), edges=int(m.group(2)))
        w["device_memory_reported_bytes"] = mem
        layout = re.search(r"^\s*layout: ([^;\n]*)", out, re.M)  # the session's report (--verbose)
        if layout:
            w["layout"] = layout.group(1)
            if w["program"].startswith("pagerank_vertex_loops"):
                w["notes"].append("layout " + layout.group(1))
        order = re.search(r"^medusa: vertex order: ([^(\n]*)", out, re.M)
        if order:
            w["vertex_order"] = order.group(1).strip()
            if w["vertex_order"].startswith("by descending degree"):
                w["notes"].append("vertices renumbered by degree on the device")
        if rc != 0 or not runs or not validation or "PASSED" not in validation:
            self.fail(w, "validation run", rc, out)
            return
        w["status"] = "ok"
        if w["kind"] == "baseline":
            self.record(w, runs, peak)
        else:  # the --verbose run's time is kept apart: its per-superstep log costs time
            w["validate_run_ms"] = runs[0]["ms"]
            w["validate_supersteps"], w["validate_edges_visited"] = runs[0]["supersteps"], runs[0]["edges_visited"]
            if peak is not None:
                w["peak_gpu_memory_used_mib"] = peak
        log(f"  {w['graph']}/{w['program']}: {validation} ({wall:.1f} s)")

    def timed(self, w):
        rc, out, wall, peak = self.execute(w, [])
        runs, _, _ = parse_output(out)
        if rc != 0 or not runs:
            self.fail(w, f"timed run {len(w['runs']) + 1}", rc, out)
            return
        self.record(w, runs[:1], peak)
        w["run_wall_s"] = round(wall, 2)

    def run(self, workloads):
        # Program-major order (ORDER, then the graphs' order): when the budget runs out, what is cut is
        # the programs outside the overhead ratios, not whole graphs.
        workloads = sorted(workloads, key=lambda w: ORDER.index(w["program"]))
        for w in workloads:
            if w["status"] != "pending":
                continue
            if self.left() < 10:
                w["status"] = "skipped"
                w["notes"].append("time budget spent before its validation run")
                continue
            log(f"validate {w['graph']}/{w['program']}: {shlex.join(w['command'])}")
            self.validate(w)
        self.checkpoint("the validation runs")
        for r in range(1, self.args.runs + 1):
            for w in workloads:
                if w["status"] != "ok" or w["kind"] == "baseline":
                    continue
                expected = w.get("run_wall_s", w["validate_wall_s"])
                if self.left() < expected + 2:
                    w["notes"].append(f"time budget: {len(w['runs'])} of {self.args.runs} timed runs")
                    w["status"] = "ok-partial"
                    continue
                self.timed(w)
            log(f"round {r} of {self.args.runs} done, {self.left():.0f} s of the budget left")
            if r < self.args.runs:
                self.checkpoint(f"round {r} of {self.args.runs}")


def summarize(w):
    if not w["runs"] and w.get("validate_run_ms") is not None:
        w["runs"] = [dict(ms=w["validate_run_ms"], supersteps=w["validate_supersteps"],
                          edges_visited=w["validate_edges_visited"])]
        w["notes"].append("time from the --verbose validation run only (no timed run fit the budget)")
    if not w["runs"]:
        return
    ms = [r["ms"] for r in w["runs"]]
    steps = sorted({r["supersteps"] for r in w["runs"]})
    edges = w["runs"][0]["edges_visited"]
    med = statistics.median(ms)
    w.update(min_ms=min(ms), median_ms=med, supersteps=steps[0] if len(steps) == 1 else steps,
             edges_visited=edges, gteps_median=edges / (med * 1e-3) / 1e9 if med > 0 else None,
             gteps_best=edges / (min(ms) * 1e-3) / 1e9 if min(ms) > 0 else None)
    if w["program"].startswith("pagerank") and isinstance(w["supersteps"], int) and w["supersteps"]:
        w["median_ms_per_iteration"] = med / w["supersteps"]
        w["min_ms_per_iteration"] = min(ms) / w["supersteps"]


def ratios(workloads):
    by = {(w["graph"], w["program"]): w for w in workloads}
    out = []
    for algo, medusa, base in RATIOS:
        for graph in dict.fromkeys(w["graph"] for w in workloads):
            m, b = by.get((graph, medusa)), by.get((graph, base))
            if not (m and b and m.get("median_ms") and b.get("median_ms")):
                continue
            per = "_per_iteration" if algo.startswith("pagerank") else ""
            out.append(dict(algorithm=algo, graph=graph, medusa=medusa, baseline=base,
                            unit="ms per iteration" if per else "ms",
                            medusa_median=m[f"median_ms{per}"], baseline_median=b[f"median_ms{per}"],
                            ratio_median=m[f"median_ms{per}"] / b[f"median_ms{per}"],
                            ratio_min=m[f"min_ms{per}"] / b[f"min_ms{per}"]))
    return out


def fmt(v, digits=3):
    if v is None:
        return "-"
    if isinstance(v, list):
        return "/".join(map(str, v))
    return f"{v:.{digits}f}" if isinstance(v, float) else str(v)


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def write_markdown(path, result):
    i = result["machine"]
    lines = [f"# Medusa benchmark results: {i['device']}, {i['date']}", "",
             f"- device: {i['device']} ({fmt(i.get('memory_total_mib'), 0)} MiB), driver {i.get('driver', '-')} "
             f"(CUDA {i.get('driver_cuda_version') or '-'}), toolkit {i.get('cuda_toolkit') or '-'}",
             f"- host: {i['host']}", f"- commit: {i['commit']}", f"- command: `{result['command']}`",
             f"- runs per workload: {result['runs']} (each Medusa run is one process; the baseline does its runs "
             f"in one process), CUDA_MODULE_LOADING=EAGER", ""]
    if result.get("partial"):
        lines[-1:-1] = [f"- **partial**: {result['partial']}"]
    lines += ["| graph | vertices | edges | source | note |", "|---|---|---|---|---|"]
    for g in result["graphs"]:
        lines.append(f"| {g['name']} | {fmt(g.get('vertices'))} | {fmt(g.get('edges'))} | {fmt(g.get('source_vertex'))} "
                     f"| {cell(g.get('note') or '')} |")
    lines += ["", "## Times (Run() / kernel time only, ms)", "",
              "| graph | program | status | runs | min ms | median ms | median GTEPS | supersteps | device memory "
              "(reported) | peak GPU memory used | notes |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for w in result["workloads"]:
        mem = w.get("device_memory_reported_bytes")
        peak = w.get("peak_gpu_memory_used_mib")
        lines.append(f"| {w['graph']} | {w['program']} | {w['status']} | {len(w['runs'])} | {fmt(w.get('min_ms'))} "
                     f"| {fmt(w.get('median_ms'))} | {fmt(w.get('gteps_median'))} | {fmt(w.get('supersteps'))} "
                     f"| {fmt(mem / 2**20, 1) + ' MiB' if mem else '-'} | {fmt(peak, 0) + ' MiB' if peak else '-'} "
                     f"| {cell('; '.join(w['notes']))} |")
    lines += ["", "## Framework overhead: Medusa time / hand-written baseline time", "",
              "| algorithm | graph | Medusa | baseline | unit | Medusa median | baseline median | ratio (median) "
              "| ratio (min) |", "|---|---|---|---|---|---|---|---|---|"]
    for r in result["ratios"]:
        lines.append(f"| {r['algorithm']} | {r['graph']} | {r['medusa']} | {r['baseline']} | {r['unit']} "
                     f"| {fmt(r['medusa_median'])} | {fmt(r['baseline_median'])} | {fmt(r['ratio_median'], 2)} "
                     f"| {fmt(r['ratio_min'], 2)} |")
    lines += ["", f"Wall time of the suite: {result['suite_seconds']:.0f} s. Plots: " +
              (", ".join(f"`{os.path.basename(p)}`" for p in result["plots"]) or "none") + "."]
    if result.get("plot_note"):
        lines.append(result["plot_note"])
    open(path, "w").write("\n".join(lines) + "\n")


def write_plots(prefix, result):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return [], "matplotlib is not installed: no plots."
    done = [w for w in result["workloads"] if w.get("median_ms")]
    graphs = list(dict.fromkeys(w["graph"] for w in done))
    files = []
    if graphs:
        cols = min(3, len(graphs))
        rows = (len(graphs) + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(5 * cols, 3.6 * rows), squeeze=False)
        for ax, g in zip(axes.flat, graphs):
            ws = [w for w in done if w["graph"] == g]
            x = range(len(ws))
            colors = ["tab:gray" if w["kind"] == "baseline" else "tab:blue" for w in ws]
            ax.bar(x, [w["median_ms"] for w in ws], color=colors)
            ax.plot(x, [w["min_ms"] for w in ws], "k_", markersize=14, label="min")
            ax.set_xticks(list(x), [w["program"].replace("_baseline", "\nbaseline") for w in ws], fontsize=8)
            ax.set_yscale("log")
            ax.set_ylabel("ms (median bar, min tick)")
            ax.set_title(g)
        for ax in list(axes.flat)[len(graphs):]:
            ax.axis("off")
        fig.suptitle(f"Medusa samples (blue) and hand-written baselines (gray), {result['machine']['device']}")
        fig.tight_layout()
        files.append(prefix + "-time.png")
        fig.savefig(files[-1], dpi=110)
        plt.close(fig)
    if result["ratios"]:
        fig, ax = plt.subplots(figsize=(max(5, 1.5 * len(result["ratios"])), 3.8))
        # ("bfs-vs-direction-optimizing" on one line overlapped its neighbours' labels)
        names = [r["algorithm"].replace("-vs-", " vs\n") for r in result["ratios"]]
        labels = [f"{name}\n{r['graph']}" for name, r in zip(names, result["ratios"])]
        bars = ax.bar(range(len(labels)), [r["ratio_median"] for r in result["ratios"]], color="tab:orange")
        ax.bar_label(bars, [f"{r['ratio_median']:.2f}x" for r in result["ratios"]], fontsize=8)
        ax.axhline(1.0, color="k", linewidth=0.8)
        ax.set_xticks(range(len(labels)), labels, fontsize=8)
        ax.set_yscale("log")
        ax.set_ylabel("Medusa / baseline time (median)")
        ax.set_title("Framework overhead (1 = as fast as hand-written CUDA)")
        fig.tight_layout()
        files.append(prefix + "-ratio.png")
        fig.savefig(files[-1], dpi=110)
        plt.close(fig)
    return files, None


def write_results(prefix, args, info, suite, graphs, workloads, partial):
    """Writes <prefix>.json and .md (and the plots when the suite is complete). `partial`: the stage a
    checkpoint was taken at, or None; a checkpoint summarizes copies and leaves the workloads alone."""
    if partial is not None:
        workloads = copy.deepcopy(workloads)
        for w in workloads:
            summarize(w)
    result = dict(machine=info, command="python3 " + shlex.join(sys.argv), runs=args.runs, budget_s=args.budget,
                  environment={"CUDA_MODULE_LOADING": "EAGER"}, graphs=graphs, workloads=workloads,
                  ratios=ratios(workloads), suite_seconds=time.monotonic() - suite.start, plots=[])
    if partial is not None:
        result["partial"] = f"checkpoint after {partial}: the suite did not finish"
    elif not args.no_plots:
        files, note = write_plots(prefix, result)
        result["plots"], result["plot_note"] = [os.path.basename(f) for f in files], note
    json.dump(result, open(prefix + ".json", "w"), indent=1)
    write_markdown(prefix + ".md", result)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True, help="build folder (samples/, bench/, bin/medusa-gen)")
    ap.add_argument("--graphs", default="", help="folder with road-NE.txt.xz and ego-twitter.txt.xz")
    ap.add_argument("--out", required=True, help="where results-<device>-<date>.{json,md,png} go")
    ap.add_argument("--cache", help="where generated graphs are kept (default <build>/bench-graphs)")
    ap.add_argument("--runs", type=int, default=None, help="timed runs per workload (default 5; 3 with --quick)")
    ap.add_argument("--only", default="", help="comma-separated glob patterns on graph/program, e.g. 'kron-22/*,*/bfs*'")
    ap.add_argument("--quick", action="store_true", help="smoke test: kron scale 20 and road-NE, 3 runs")
    ap.add_argument("--timeout", type=float, default=180, help="seconds per process (default 180)")
    ap.add_argument("--budget", type=float, default=450,
                    help="seconds for the whole suite: later runs are skipped, with a note, past it (default 450)")
    ap.add_argument("--commit", help="commit to record when the folder is not a git checkout (or MEDUSA_COMMIT)")
    ap.add_argument("--name", default="", help="suffix for the result files, to keep apart suites split with --only")
    ap.add_argument("--device", help="device name to record when nvidia-smi is absent")
    ap.add_argument("--no-gpu-memory", action="store_true", help="do not sample nvidia-smi")
    ap.add_argument("--no-plots", action="store_true")
    args = ap.parse_args()
    if args.runs is None:
        args.runs = 3 if args.quick else 5
    build = os.path.abspath(args.build)
    cache = os.path.abspath(args.cache or os.path.join(build, "bench-graphs"))
    os.makedirs(cache, exist_ok=True)
    os.makedirs(args.out, exist_ok=True)
    patterns = [p for p in args.only.split(",") if p]
    # Opt-in workloads run only when a pattern names them, not under a match-all one.
    selected = lambda g, p: (not patterns and p not in OPT_IN) or any(
        fnmatch.fnmatch(f"{g}/{p}", pat) and not (p in OPT_IN and pat.endswith("/*")) for pat in patterns)

    info = machine_info(args, build)
    log(f"{info['device']}, driver {info.get('driver')}, commit {info['commit']}")
    suite = Suite(args, info)
    gen_tool = os.path.join(build, "bin", "medusa-gen")
    workloads, graphs = [], []
    for spec in graph_specs(args.quick, args.graphs):
        programs = [p for p in ORDER if selected(spec["name"], p)]
        if not programs:
            continue
        graphs.append(spec)
        suite.graphs[spec["name"]] = spec
        note = prepare_graph(spec, gen_tool, cache, max(60.0, args.timeout))
        if note:
            spec["note"] = note
            log(f"graph {spec['name']} skipped: {note}")
            continue
        source = spec.get("max_out_degree_vertex", 0)
        spec["source_vertex"] = source
        for p in programs:
            kind = "baseline" if p in BASELINES else "medusa"
            program, extra = VARIANTS.get(p, (p, []))
            exe = os.path.join(build, "bench" if kind == "baseline" else "samples", program)
            w = dict(graph=spec["name"], program=p, kind=kind, command=[exe, spec["file"]] + extra, runs=[],
                     notes=[], status="pending")
            if p in NEEDS_SOURCE:
                w["command"] += ["--source", str(source)]
            if p in NEEDS_SYMMETRIC and not spec["symmetric"]:
                w["status"] = "skipped"
                w["notes"].append("needs a symmetric graph")
            elif not os.access(exe, os.X_OK):
                w["status"] = "skipped"
                w["notes"].append(f"{exe} not built")
            workloads.append(w)
    device_slug = re.sub(r"[^A-Za-z0-9]+", "-", info["device"]).strip("-").lower()
    suffix = "-" + re.sub(r"[^A-Za-z0-9]+", "-", args.name).strip("-") if args.name else ""
    prefix = os.path.join(args.out, f"results-{device_slug}-{info['date'][:10]}{suffix}")
    for g in graphs:
        g.pop("gen", None)
    # A checkpoint after the validations and after each round: a suite killed from outside (a
    # device session's time limit) still leaves what it measured, marked partial.
    suite.checkpoint = lambda stage: write_results(prefix, args, info, suite, graphs, workloads, stage)
    suite.run(workloads)
    for w in workloads:
        summarize(w)
    result = write_results(prefix, args, info, suite, graphs, workloads, None)
    log(f"wrote {prefix}.json and .md" + (f", {len(result['plots'])} plots" if result["plots"] else ""))
    for r in result["ratios"]:
        log(f"{r['algorithm']} {r['graph']}: Medusa/baseline = {r['ratio_median']:.2f} (median)")
    bad = [w for w in workloads if w["status"] in ("failed", "timeout")]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
