"""How long and how much memory each hostile input costs before chargen refuses it.

Run: python bench/bench_hostile.py   (figures only; the tests never assert times)
"""

from __future__ import annotations

import os
import tempfile
import time
import tracemalloc
from pathlib import Path

from chargen.errors import ChargenError
from chargen.rules import load_module
from chargen.rules.yamlio import load_file, load_text


def alias_bomb() -> str:
    return ("a: &a [1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
            "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n")


def cases(tmp: Path) -> dict:
    big = tmp / "big.yaml"
    big.write_bytes(b"a: " + b"x" * 2_000_000)
    near = tmp / "near.yaml"  # just under the 1 MB cap: the most a single file can cost
    near.write_text("items:\n" + "  - {id: x, label: y, base: 1}\n" * 31_000)
    overlay = tmp / "dice.yaml"
    overlay.write_text("overlay: d100\nname: x\nchanges:\n  characteristics:\n    set:\n"
                       "      characteristics[id=str].dice: 1000000D1000000\n")
    fifo = tmp / "fifo.yaml"
    os.mkfifo(fifo)
    return {
        "alias bomb (252 bytes)": lambda: load_text(alias_bomb(), "f"),
        "nesting 10,000 deep": lambda: load_text("[" * 10_000 + "]" * 10_000, "f"),
        "2 MB file": lambda: load_file(big),
        "0.98 MB of valid YAML (parsed)": lambda: load_file(near),
        "integer of 5,000 digits": lambda: load_text("n: " + "9" * 5000, "f"),
        "/dev/zero": lambda: load_file(Path("/dev/zero")),
        "named pipe": lambda: load_file(fifo),
        "overlay with 1000000D1000000": lambda: load_module("d100", [overlay]),
    }


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        print(f"{'input':<34} {'time':>11} {'peak mem':>10}  outcome")
        for name, fn in cases(Path(d)).items():
            t = time.perf_counter()
            outcome = _outcome(fn)
            elapsed = time.perf_counter() - t
            tracemalloc.start()  # a second run for memory: tracing slows it down
            _outcome(fn)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            print(f"{name:<34} {elapsed * 1000:8.1f} ms {peak / 1e6:7.1f} MB  {outcome}")


def _outcome(fn) -> str:
    try:
        fn()
        return "loaded"
    except ChargenError as e:
        return str(e)[:70]


if __name__ == "__main__":
    main()
