#!/usr/bin/env python3
"""Kernels of an ncu --csv run (metric gpu__time_duration.sum): summed by name, or with --order,
each launch in issue order (to read one superstep's launches)."""
import csv
import signal
import sys
from collections import defaultdict

signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # (read through head)
path, order = sys.argv[1], "--order" in sys.argv[2:]
label = next((a for a in sys.argv[2:] if a != "--order"), path)
rows = []
with open(path, newline="") as f:
    lines = [line for line in f if line.startswith('"')]
for r in csv.DictReader(lines):
    if r.get("Metric Name") == "gpu__time_duration.sum":
        rows.append((r["Kernel Name"].split("(")[0].split("<")[0].replace("void ", ""), float(r["Metric Value"].replace(",", "")) / 1e3))
if not rows:
    print(f"{label}: no kernels (see the .err file)")
    sys.exit(0)
print(f"{label}: {len(rows)} launches, {sum(t for _, t in rows):.1f} us of kernels")
if order:
    for name, us in rows:
        print(f"  {us:8.2f} us  {name}")
else:
    total = defaultdict(lambda: [0, 0.0])
    for name, us in rows:
        total[name][0] += 1
        total[name][1] += us
    for name, (n, us) in sorted(total.items(), key=lambda kv: -kv[1][1]):
        print(f"  {us / 1e3:8.3f} ms  {n:5d}x  {name}")
