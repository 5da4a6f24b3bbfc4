"""Benchmark: D100 II characters per second, in memory and to files.

    python bench/bench_generate.py [--count 10000] [--seed 42]

Reports, for COUNT characters: generation alone; generation plus JSON text in
memory; and a whole batch written to JSON files (one file per character plus
the manifest) with one process and with every core. Figures are medians of
three runs; the machine's other load shows in them, so compare ratios.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from chargen.batch import write_batch
from chargen.generate import make_character
from chargen.rules import load_builtin
from chargen.serialize import to_json


def timed(fn, repeat: int = 3, cleanup=None) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
        if cleanup:
            cleanup()
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=42)
    args = ap.parse_args()
    module = load_builtin("d100")
    n, seed = args.count, args.seed
    cores = os.cpu_count() or 1

    def gen():
        for i in range(n):
            make_character(module, seed, i)

    def gen_json():
        for i in range(n):
            to_json(make_character(module, seed, i))

    scratch = Path(tempfile.mkdtemp(prefix="chargen-bench-"))

    def to_files(jobs: int):
        def run():
            write_batch(module, seed, range(n), scratch / "out", ("json",), jobs=jobs)
        return run

    def clean():  # not timed
        shutil.rmtree(scratch / "out")
        (scratch / "out").mkdir()

    (scratch / "out").mkdir()

    rows = [
        ("generate only (1 process)", timed(gen)),
        ("generate + JSON text in memory (1 process)", timed(gen_json)),
        ("to JSON files (1 process)", timed(to_files(1), cleanup=clean)),
        (f"to JSON files ({cores} processes)", timed(to_files(cores), cleanup=clean)),
    ]
    shutil.rmtree(scratch)
    print(f"{n} D100 II characters, seed {seed}, {cores} cores, median of 3")
    for label, seconds in rows:
        print(f"  {label:<45} {seconds:7.2f} s  {n / seconds:8.0f} characters/s")


if __name__ == "__main__":
    main()
