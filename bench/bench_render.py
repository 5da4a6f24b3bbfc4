"""Benchmark: sheets to per-character PDFs plus party.pdf, against a bare WeasyPrint loop.

    python bench/bench_render.py                 # 100 sheets, and 1,000 for the memory figure
    python bench/bench_render.py --big 0         # skip the 1,000-sheet run

Each measured run is a fresh Python process, so imports, the fork server and
worker start-up are all counted. Reported:

* bare loop: ``weasyprint.HTML(string=html).write_pdf()`` in one process over
  the same characters' standalone HTML (the timed loop excludes the import);
* chargen with --jobs 1 on one core and --jobs 2 on two: wall time of the
  per-character PDFs (until the last sheet is written), of party.pdf after
  them, sheets per second. The one-core runs (and the bare loop) are pinned to
  one CPU with ``sched_setaffinity``, so the main process's share of the work
  (streaming sheets into party.pdf) cannot hide on the idle second core;
* peak memory: the largest total resident memory of the process tree (main
  process, fork server and workers), sampled every 50 ms, for N and for 1,000 sheets.

Targets (issue 3): per-sheet cost on one core <= 1.1 x the bare loop; >= 1.8 x
faster on 2 cores than on 1; party.pdf adds <= 10 % to the per-character files;
peak memory for 1,000 sheets <= 1.5 x that for 100. Absolute times vary with
the machine and its load; the ratios are the figures to read.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

SEED = 42


def tree_rss(root: int) -> int:
    """Resident memory (bytes) of ``root`` and all its descendants, from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    members, frontier = {root}, [root]
    while frontier:
        pid = frontier.pop()
        for child, parent in parents.items():
            if parent == pid and child not in members:
                members.add(child)
                frontier.append(child)
    total = 0
    for pid in members:
        try:
            with open(f"/proc/{pid}/status") as f:
                total += next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) * 1024
        except (OSError, StopIteration):
            pass
    return total


def run_measured(args: list[str]) -> dict:
    """Run this script in a child mode; return its JSON report plus the tree's peak memory."""
    proc = subprocess.Popen([sys.executable, __file__, *args], stdout=subprocess.PIPE, text=True)
    peak = 0
    done = threading.Event()

    def sample():
        nonlocal peak
        while not done.is_set():
            peak = max(peak, tree_rss(proc.pid))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample)
    sampler.start()
    out, _ = proc.communicate()
    done.set()
    sampler.join()
    if proc.returncode:
        raise SystemExit(f"benchmark step {args} failed")
    report = json.loads(out)
    report["peak_tree_mib"] = peak / 2**20
    return report


def child_bare(count: int) -> dict:
    from chargen.generate import make_character
    from chargen.render.html import HtmlRenderer
    from chargen.run.figures import figured
    from chargen.render.templates import TemplateSet
    from chargen.rules import load_builtin

    module = load_builtin("d100")
    renderer = HtmlRenderer(TemplateSet.load())
    pages = [renderer.sheet(figured(make_character(module, SEED, i))) for i in range(count)]
    import weasyprint

    start = time.perf_counter()
    for html in pages:
        weasyprint.HTML(string=html).write_pdf()
    return {"seconds": time.perf_counter() - start}


def child_chargen(count: int, jobs: int) -> dict:
    from chargen.rules import load_builtin
    from chargen.run.pipeline import run_batch
    from chargen.run.spec import RunSpec, SheetOptions

    module = load_builtin("d100")
    sheets_done = [0.0]

    def progress(_n: int) -> None:
        sheets_done[0] = time.perf_counter()

    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        spec = RunSpec("d100", SEED, 0, count, ("pdf",), sheets=SheetOptions(jobs=jobs, party_name="Benchmark"))
        run_batch(spec, module, Path(folder), progress=progress)
        end = time.perf_counter()
        size = (Path(folder) / "party.pdf").stat().st_size
    return {"sheets_seconds": sheets_done[0] - start, "party_seconds": end - sheets_done[0],
            "total_seconds": end - start, "party_mib": size / 2**20}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--big", type=int, default=1000, help="sheets for the memory comparison (0: skip)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    a = parser.parse_args()
    if a.child:
        kind, count, jobs = a.child[0], int(a.child[1]), int(a.child[2])
        if jobs == 1 and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core: workers inherit it
        print(json.dumps(child_bare(count) if kind == "bare" else child_chargen(count, jobs)))
        return

    n = a.count
    print(f"{n} D100 sheets, seed {SEED}, {os.cpu_count()} cores", flush=True)
    bare = run_measured(["--child", "bare", str(n), "1"])
    one = run_measured(["--child", "chargen", str(n), "1"])
    two = run_measured(["--child", "chargen", str(n), "2"])
    per_bare, per_one = bare["seconds"] / n, one["sheets_seconds"] / n
    print(f"bare WeasyPrint loop, one core: {bare['seconds']:.1f} s, {per_bare * 1000:.0f} ms/sheet")
    for label, r in (("chargen --jobs 1, one core", one), ("chargen --jobs 2, two cores", two)):
        print(f"{label}: sheets {r['sheets_seconds']:.1f} s ({n / r['sheets_seconds']:.2f} sheets/s), "
              f"party.pdf +{r['party_seconds']:.2f} s ({r['party_mib']:.1f} MiB), total {r['total_seconds']:.1f} s, "
              f"peak memory {r['peak_tree_mib']:.0f} MiB")
    checks = [
        ("per-sheet cost on one core vs bare loop", per_one / per_bare, "<=", 1.1),
        ("speed-up, 2 cores vs 1", one["sheets_seconds"] / two["sheets_seconds"], ">=", 1.8),
        ("party.pdf time / per-character files time (--jobs 2)", two["party_seconds"] / two["sheets_seconds"], "<=", 0.10),
    ]
    if a.big:
        big = run_measured(["--child", "chargen", str(a.big), "2"])
        print(f"chargen --jobs 2, {a.big} sheets: {big['total_seconds']:.1f} s "
              f"({a.big / big['sheets_seconds']:.2f} sheets/s), party.pdf +{big['party_seconds']:.2f} s, "
              f"peak memory {big['peak_tree_mib']:.0f} MiB")
        checks.append((f"peak memory {a.big} sheets / {n} sheets", big["peak_tree_mib"] / two["peak_tree_mib"],
                       "<=", 1.5))
    for label, value, op, target in checks:
        met = value <= target if op == "<=" else value >= target
        print(f"  {label}: {value:.3f} (target {op} {target}) {'met' if met else 'MISSED'}")


if __name__ == "__main__":
    main()
