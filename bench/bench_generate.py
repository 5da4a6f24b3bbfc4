"""Benchmark: D100 II characters per second, in memory and to files.

    python bench/bench_generate.py [--count 10000] [--seed 42] [--archetypes-only]

Reports, for COUNT characters: generation alone; archetype NPCs (every d100
archetype in turn, with its previous experience: the target is at least 5,000
a second in memory); generation plus JSON text in memory; and a whole batch written to JSON files (one file per character plus
the manifest) with one process and with every core. Figures are medians of
three runs; the machine's other load shows in them, so compare ratios.

Files go to a temporary folder on the disk (``$TMPDIR``, /tmp); where
``/dev/shm`` exists the batch is also written there (memory-backed tmpfs),
which separates chargen's own cost from the file system's.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from chargen.generate import GenerationRequest, make_character
from chargen.rules import load_builtin
from chargen.run.pipeline import run_batch
from chargen.run.spec import RunSpec
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
    ap.add_argument("--archetypes-only", action="store_true", help="only the archetype NPC figure")
    args = ap.parse_args()
    module = load_builtin("d100")
    n, seed = args.count, args.seed
    cores = os.cpu_count() or 1

    def gen():
        for i in range(n):
            make_character(module, seed, i)

    requests = [GenerationRequest(archetype=a) for a in module.rules.archetypes]

    def gen_archetypes():  # one batch per archetype, as `generate --archetype` makes it
        per = -(-n // len(requests))
        for request in requests:
            for i in range(per):
                make_character(module, seed, i, request)

    if args.archetypes_only:
        seconds = timed(gen_archetypes)
        total = -(-n // len(requests)) * len(requests)
        print(f"{total} D100 II archetype NPCs ({len(requests)} archetypes), seed {seed}, median of 3: "
              f"{seconds:.2f} s, {total / seconds:.0f} characters/s")
        return

    def gen_json():
        for i in range(n):
            to_json(make_character(module, seed, i))

    def to_files(jobs: int, where: str | None = None):
        def run():
            run_batch(RunSpec("d100", seed, 0, n, ("json",)), module, out, jobs=jobs)

        def clean():  # not timed
            shutil.rmtree(out)
            out.mkdir()

        scratch = Path(tempfile.mkdtemp(prefix="chargen-bench-", dir=where))
        out = scratch / "out"
        out.mkdir()
        try:
            return timed(run, cleanup=clean)
        finally:
            shutil.rmtree(scratch)

    rows = [
        ("generate only (1 process)", timed(gen)),
        (f"archetype NPCs, {len(requests)} archetypes (1 process)", timed(gen_archetypes)),
        ("generate + JSON text in memory (1 process)", timed(gen_json)),
        ("to JSON files on disk (1 process)", to_files(1)),
        (f"to JSON files on disk ({cores} processes)", to_files(cores)),
    ]
    if os.path.isdir("/dev/shm"):
        rows += [
            ("to JSON files on tmpfs (1 process)", to_files(1, "/dev/shm")),
            (f"to JSON files on tmpfs ({cores} processes)", to_files(cores, "/dev/shm")),
        ]
    print(f"{n} D100 II characters, seed {seed}, {cores} cores, median of 3")
    for label, seconds in rows:
        print(f"  {label:<48} {seconds:7.2f} s  {n / seconds:8.0f} characters/s")


if __name__ == "__main__":
    main()
