"""Benchmark: sheets filled into a laid-out form (chargen.render.fill) against full layouts.

    python bench/bench_fill.py --misses          # miss rate: 100 NPCs of each D100 archetype, 1,000 plain characters
    python bench/bench_fill.py --cpu 50          # CPU per sheet, filled and laid out in full, alternating

The form is a template folder with data-fill markers (default: tests/forms, a D100 II sheet designed as
a form). ``--misses`` fills each character's values into the form of its shape without writing the PDF
(the first sheet of a shape is its form); ``--cpu`` writes the PDFs, in one process, alternating a
filled sheet and the same sheet laid out in full, and prints the CPU medians and their ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def misses(template_dir: Path, plain: int, per_archetype: int) -> None:
    from chargen.generate import GenerationRequest, make_character
    from chargen.render import fill
    from chargen.rules import load_module
    from chargen.run.workers import SheetRenderer

    module = load_module("d100")
    renderer = SheetRenderer(template_dir, "a4", True, (module,))
    batches = [("plain", None, plain)] + [(a, GenerationRequest(archetype=a), per_archetype)
                                          for a in module.rules.archetypes]
    total = Counter()
    for label, request, count in batches:
        forms, counts = {}, Counter()
        for i in range(count):
            html = renderer.html(make_character(module, 42, i, request), False)
            shape = fill.shape_of(html)
            form = forms.get(shape.key)
            if form is None:
                counts["new"] += 1
                form = fill.Form.build(html, renderer.maker().lay_out(html))
                forms[shape.key] = form
                continue
            if form.fill(shape) is None:
                counts["missed"] += 1
            else:
                counts["filled"] += 1
                form.restore()
        total.update(counts)
        print(f"{label:<20} {count:5} sheets: {counts['filled']:5} filled, {counts['missed']:3} missed, "
              f"{counts['new']:3} shapes (first of their shape: laid out in full); miss rate "
              f"{100 * (counts['missed'] + counts['new']) / count:.1f}%", flush=True)
    n = sum(total.values())
    print(f"all: {n} sheets, {total['filled']} filled, {total['missed']} missed, {total['new']} shapes: "
          f"{100 * (total['missed'] + total['new']) / n:.1f}% laid out in full; load {os.getloadavg()[0]:.1f}")


def cpu(template_dir: Path, count: int) -> None:
    from chargen.generate import make_character
    from chargen.rules import load_module
    from chargen.run.workers import SheetRenderer

    module = load_module("d100")
    renderer = SheetRenderer(template_dir, "a4", True, (module,))
    maker = renderer.maker()
    filled, full = [], []
    for i in range(count):
        html = renderer.html(make_character(module, 42, i), False)
        start = time.process_time()
        renderer.pdf(html, "sheet")
        filled.append(time.process_time() - start)
        start = time.process_time()
        maker.render(html, "sheet")
        full.append(time.process_time() - start)
    f, g = statistics.median(filled), statistics.median(full)
    print(f"{count} D100 II sheets, one process: filled {1000 * f:.0f} ms a sheet (counts {dict(renderer.forms.counts)}), "
          f"full layout {1000 * g:.0f} ms a sheet; ratio {f / g:.2f}; load {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--template-dir", type=Path, default=ROOT / "tests" / "forms")
    parser.add_argument("--misses", action="store_true")
    parser.add_argument("--plain", type=int, default=1000)
    parser.add_argument("--per-archetype", type=int, default=100)
    parser.add_argument("--cpu", type=int, default=0, metavar="N")
    a = parser.parse_args()
    if a.misses:
        misses(a.template_dir, a.plain, a.per_archetype)
    if a.cpu:
        cpu(a.template_dir, a.cpu)


if __name__ == "__main__":
    main()
