"""Benchmark: what WeasyPrint costs a value, by how the values are boxed.

    python bench/bench_boxes.py              # 240 values (20 rows of 12), 5 renders each
    python bench/bench_boxes.py --rows 40 --runs 9

The same 240 short values ("01-05") on one page, laid out with chargen's
stylesheet and fonts (:class:`chargen.render.pdf.PdfMaker`, as a sheet worker
does) in different structures: a table cell each (as the sheets' grids are), a
span each, an inline block each, a row of text each (all a row's values in one
table cell, or in one block), and the empty table alone. Each figure is the CPU
time of HTML to PDF bytes, the median of ``--runs`` renders after one to warm up.
It shows why a sheet's cost follows its boxes, not its text: the reading behind
issue 14's closing note (a sheet as fast as Chromium prints it needs about a
third of the boxes, which is a change of how the sheet looks).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

VALUE = "01&ndash;05"


def structures(rows: int, cols: int) -> dict[str, str]:
    def table(cell: str) -> str:
        return '<table class="grid"><tbody>' + "".join(
            "<tr>" + cell * cols + "</tr>" for _ in range(rows)) + "</tbody></table>"

    line = " ".join([VALUE] * cols)
    return {
        "a table cell each": table(f'<td class="num">{VALUE}</td>'),
        "the empty cells alone": table('<td class="num"></td>'),
        "a span each, a block a row": "".join(
            "<div>" + " ".join(f"<span>{VALUE}</span>" for _ in range(cols)) + "</div>" for _ in range(rows)),
        "an inline block each": "".join(
            "<div>" + "".join(f'<span style="display: inline-block; width: 14mm">{VALUE}</span>'
                              for _ in range(cols)) + "</div>" for _ in range(rows)),
        "a row's values in one cell": '<table class="grid"><tbody>' + "".join(
            f"<tr><td>{line}</td></tr>" for _ in range(rows)) + "</tbody></table>",
        "a row's values in one block": "".join(f"<div>{line}</div>" for _ in range(rows)),
        "an empty page": "",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=20)
    parser.add_argument("--cols", type=int, default=12)
    parser.add_argument("--runs", type=int, default=5)
    a = parser.parse_args()

    from chargen.render.pdf import PdfMaker
    from chargen.render.templates import TemplateSet

    maker = PdfMaker(TemplateSet.load(None))
    n = a.rows * a.cols
    print(f"{n} values ({a.rows} rows of {a.cols}) on one A4 page, chargen's stylesheet and fonts, "
          f"CPU ms a render (median of {a.runs})")
    for name, body in structures(a.rows, a.cols).items():
        html = (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><style>@page {{ size: A4; }}</style>'
                f'</head><body class="paper-a4"><main class="sheet">{body}</main></body></html>')
        maker.render(html, name)
        times = []
        for _ in range(a.runs):
            start = time.process_time()
            maker.render(html, name)
            times.append(time.process_time() - start)
        ms = 1000 * statistics.median(times)
        print(f"  {name:<28} {ms:7.1f} ms   {1000 * ms / n:6.0f} us a value")


if __name__ == "__main__":
    main()
