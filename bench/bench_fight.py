"""Benchmark: an encounter estimate, 6 against 6, 2,000 fights (issue 24: the whole estimate under 5 s).

    python bench/bench_fight.py                  # d100, 6 soldiers against 6 bandits, 2,000 fights, 3 runs
    python bench/bench_fight.py --system kotm --runs 5
    python bench/bench_fight.py --fights 10000 --jobs 1

Each run is a fresh ``chargen fight A/ B/ --seed 1 --fights N`` process (start-up, reading the
sides, the fights, the report): its wall time, its CPU time (the process and its workers), and
fights per second of wall time. The sides are made once, beforehand (``chargen generate``).
The load average is printed beside the figures: the machine is often shared.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIDES = {"d100": ("soldier", "bandit"), "kotm": (None, None), "rtd": (None, None)}


def chargen(*args: str) -> list[str]:
    return [sys.executable, "-m", "chargen", *args]


def make_side(folder: Path, system: str, archetype: str | None, seed: int) -> Path:
    cmd = chargen("generate", "--system", system, "--seed", str(seed), "--count", "6", "--format", "json",
                  "-o", str(folder))
    if archetype:
        cmd += ["--archetype", archetype]
    subprocess.run(cmd, check=True, capture_output=True)
    return folder


def timed(cmd: list[str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--system", default="d100", choices=sorted(SIDES))
    ap.add_argument("--fights", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-fight-") as tmp:
        a_arch, b_arch = SIDES[args.system]
        a = make_side(Path(tmp) / "a", args.system, a_arch, 11)
        b = make_side(Path(tmp) / "b", args.system, b_arch, 12)
        cmd = chargen("fight", str(a), str(b), "--seed", "1", "--fights", str(args.fights))
        if args.jobs:
            cmd += ["--jobs", str(args.jobs)]
        walls, cpus = [], []
        for _ in range(args.runs):
            wall, cpu = timed(cmd)
            walls.append(wall)
            cpus.append(cpu)
        print(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout, end="")
    wall = statistics.median(walls)
    print(f"{args.system}: 6 against 6, {args.fights:,} fights, {args.runs} runs, jobs {args.jobs or os.cpu_count()}: "
          f"median wall {wall:.2f} s (runs {', '.join(f'{w:.2f}' for w in walls)}), "
          f"CPU {statistics.median(cpus):.2f} s, {args.fights / wall:,.0f} fights/s; "
          f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
