"""Benchmark: sheets filled into a laid-out form (chargen.render.fill) against full layouts.

    python bench/bench_fill.py --misses          # miss rate: 100 NPCs of each D100 archetype, 1,000 plain characters
    python bench/bench_fill.py --cpu 50          # CPU per sheet, filled and laid out in full, alternating

The forms are the built-in D100 II sheet (or a template folder with data-fill markers). ``--misses``
fills each character's values into the forms of its shape without writing the PDF (the first sheet of a
shape is laid out in full and becomes its form; a sheet no form takes is laid out in full and becomes
another form of its shape, up to chargen.render.fill.form.VARIANTS); ``--cpu`` writes the PDFs, in one process, alternating a
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


def misses(template_dir: Path | None, plain: int, per_archetype: int, paper: str) -> None:
    from chargen.generate import GenerationRequest, make_character
    from chargen.render import fill
    from chargen.render.fill.form import VARIANTS
    from chargen.rules import load_module
    from chargen.run.workers import SheetRenderer

    module = load_module("d100")
    renderer = SheetRenderer(template_dir, paper, True, (module,))
    batches = [("plain", None, plain)] + [(a, GenerationRequest(archetype=a), per_archetype)
                                          for a in module.rules.archetypes]
    total, reasons = Counter(), Counter()
    for label, request, count in batches:
        forms, counts = {}, Counter()  # one process's forms, as a sheet worker keeps them (all shapes: no LRU)
        for i in range(count):
            html = renderer.html(make_character(module, 42, i, request), False)
            shape = fill.shape_of(html)
            known = forms.setdefault(shape.key, [])
            for form in known:
                if form.fill(shape) is not None:
                    form.restore()
                    counts["filled"] += 1
                    break
                reasons[form.miss.split(":")[0]] += 1
            else:
                counts["missed" if known else "new"] += 1
                if len(known) < VARIANTS:
                    form = fill.Form.build(html, renderer.maker().lay_out(html))
                    if form is not None:
                        known.append(form)
        total.update(counts)
        print(f"{label:<20} {count:5} sheets: {counts['filled']:5} filled, {counts['missed']:3} missed, "
              f"{counts['new']:3} shapes (first of their shape: laid out in full); laid out in full "
              f"{100 * (counts['missed'] + counts['new']) / count:.1f}%", flush=True)
    n = sum(total.values())
    print(f"all: {n} sheets, {total['filled']} filled, {total['missed']} missed, {total['new']} shapes: "
          f"{100 * (total['missed'] + total['new']) / n:.1f}% laid out in full; load {os.getloadavg()[0]:.1f}")
    print("why a form did not take a sheet:", dict(reasons.most_common()))


def cpu(template_dir: Path | None, count: int) -> None:
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
    parser.add_argument("--template-dir", type=Path, default=None, help="default: the built-in sheets")
    parser.add_argument("--paper", default="a4")
    parser.add_argument("--misses", action="store_true")
    parser.add_argument("--plain", type=int, default=1000)
    parser.add_argument("--per-archetype", type=int, default=100)
    parser.add_argument("--cpu", type=int, default=0, metavar="N")
    a = parser.parse_args()
    if a.misses:
        misses(a.template_dir, a.plain, a.per_archetype, a.paper)
    if a.cpu:
        cpu(a.template_dir, a.cpu)


if __name__ == "__main__":
    main()
