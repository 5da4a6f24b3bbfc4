"""Profile: where one worker's time goes over a party's sheets, by WeasyPrint stage.

    python bench/profile_render.py                  # 50 d100 sheets, stage split
    python bench/profile_render.py --count 20 --cprofile 25   # plus cProfile's top 25 (cumulative)
    python bench/profile_render.py --paper letter --system kotm

In one process (as a sheet worker is), times: the imports (chargen, then
WeasyPrint), the worker's set-up (fonts, parsed sheet.css), then for every sheet
the Jinja HTML, and WeasyPrint's stages, each timed by wrapping the function
that does it: HTML parsing, the CSS cascade (computed styles), building the
boxes, layout, drawing the pages, embedding (subsetting) the fonts, and the rest
of the PDF writing; finally merging the sheets into party.pdf as chargen does
(:class:`chargen.render.pdfmerge.PdfConcatenator`). Times are CPU seconds of the process
(``time.process_time``), so other load on the machine barely moves them. The timers nest nothing:
each stage is timed on its own and "other" is what is left of the sheet.
"""

from __future__ import annotations

import argparse
import cProfile
import inspect
import io
import pstats
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SEED = 42
TOTALS: dict[str, float] = defaultdict(float)


def wrap(owner, name: str, stage: str) -> None:
    original = getattr(owner, name)

    def timed(*args, **kwargs):
        start = time.process_time()
        try:
            result = original(*args, **kwargs)
            return list(result) if inspect.isgenerator(result) else result  # a generator's work, in its stage
        finally:
            TOTALS[stage] += time.process_time() - start

    setattr(owner, name, timed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--system", default="d100")
    parser.add_argument("--paper", default="a4")
    parser.add_argument("--cprofile", type=int, default=0, help="print cProfile's top N functions")
    a = parser.parse_args()

    t0 = time.process_time()
    from chargen.generate import make_character
    from chargen.run.sheets import SheetRenderer
    from chargen.rules import load_builtin
    t1 = time.process_time()
    import chargen.render.pdf  # noqa: F401
    import weasyprint.document as document
    import weasyprint.html
    import weasyprint.pdf as pdf
    t2 = time.process_time()

    module = load_builtin(a.system)
    docs = [make_character(module, SEED, i) for i in range(a.count)]
    t3 = time.process_time()
    renderer = SheetRenderer(paper=a.paper, modules=(module,))
    try:  # as a sheet worker sets up its garbage collector (where chargen does)
        from chargen.run.sheets import quiet_collector
    except ImportError:
        pass
    else:
        quiet_collector()
    t4 = time.process_time()

    wrap(weasyprint.HTML, "__init__", "HTML parse")
    wrap(document, "get_all_computed_styles", "CSS cascade")
    wrap(document, "build_formatting_structure", "box building")
    wrap(document, "layout_document", "layout")
    wrap(document.Page, "paint", "draw")
    wrap(pdf, "build_fonts_dictionary", "fonts (subset, embed)")
    wrap(document.Document, "write_pdf", "PDF writing (all)")

    profiler = cProfile.Profile() if a.cprofile else None
    outputs = []
    start = time.process_time()
    if profiler:
        profiler.enable()
    for doc in docs:
        s = time.process_time()
        html = renderer.html(doc, False)
        TOTALS["sheet HTML (Jinja)"] += time.process_time() - s
        outputs.append(renderer.pdf(html, "sheet"))
    sheets = time.process_time() - start

    from chargen.render.pdfmerge import PdfConcatenator

    s = time.process_time()
    merger = PdfConcatenator(io.BytesIO(), "profile")
    for data in outputs:
        merger.add(data, "x")
    merger.close()
    merge = time.process_time() - s
    if profiler:
        profiler.disable()

    TOTALS["PDF writing (other)"] = TOTALS.pop("PDF writing (all)") - TOTALS["draw"] - TOTALS["fonts (subset, embed)"]
    TOTALS["other"] = sheets - sum(TOTALS.values())
    n = a.count
    print(f"{n} {a.system} sheets ({a.paper}) in one process; set-up once, then per sheet")
    print(f"  import chargen            {t1 - t0:7.3f} s")
    print(f"  import WeasyPrint         {t2 - t1:7.3f} s")
    print(f"  roll {n} characters       {t3 - t2:7.3f} s")
    print(f"  fonts and sheet.css       {t4 - t3:7.3f} s")
    total = sheets + merge
    for stage in ("sheet HTML (Jinja)", "HTML parse", "CSS cascade", "box building", "layout", "draw",
                  "fonts (subset, embed)", "PDF writing (other)", "other"):
        v = TOTALS[stage]
        print(f"  {stage:<25} {v:7.3f} s  {1000 * v / n:6.1f} ms/sheet  {100 * v / total:4.0f}%")
    print(f"  {'merge into party.pdf':<25} {merge:7.3f} s  {1000 * merge / n:6.1f} ms/sheet  {100 * merge / total:4.0f}%")
    print(f"  sheets {sheets:.2f} s ({1000 * sheets / n:.0f} ms/sheet), with the merge {total:.2f} s; "
          f"sheet PDFs {sum(map(len, outputs)) / n / 1024:.0f} KiB each, party.pdf {merger.pos / 2**20:.2f} MiB")
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(a.cprofile)
        print(out.getvalue())


if __name__ == "__main__":
    main()
