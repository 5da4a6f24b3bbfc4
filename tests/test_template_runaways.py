"""Issue 26, finding 9: a hostile templates folder ends in one ``Error:`` line, in bounded memory.

Files are sparse (3 GB on paper, nothing on disk); each CLI case runs ``chargen`` in a subprocess whose
peak resident memory (its own and its waited-for children's, from ``wait4``) must stay far below what
reading the file would take. Today's main read each of them whole (3.2 GB and a MemoryError), or
printed a traceback.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from chargen.errors import RenderError
from chargen.generate import make_character
from chargen.render.contain import bounds
from chargen.render.html import HtmlRenderer
from chargen.render.templates import MAX_ASSET_BYTES, MAX_STYLESHEET_BYTES, TemplateSet
from chargen.run.figures import figured

GB3 = 3 * 2**30
PEAK_KB = 600_000  # chargen drawing one PDF sheet peaks near 200 MB; reading a 3 GB file takes 3 GB


def sparse(path: Path, size: int = GB3) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        f.truncate(size)
    return path


def chargen(folder: Path, out: Path, fmt: str, *more: str) -> tuple[int, str, int]:
    """Exit status, stderr and peak resident memory (KB, the largest of any process of its tree: sheet
    workers and a fork server included, see tests/treepeak.py) of a ``chargen generate`` with ``folder``."""
    args = [sys.executable, str(Path(__file__).with_name("treepeak.py")), sys.executable, "-m", "chargen",
            "generate", "--system", "d100", "--seed", "42", "--count", "1", "--format", fmt, "--template-dir",
            str(folder), "-o", str(out), "--jobs", "1", *more]
    done = subprocess.run(args, capture_output=True, text=True)
    status, largest, _, _ = done.stdout.split()
    return int(status), done.stderr, int(largest)


def sheet_css_latin1(folder: Path) -> None:
    folder.mkdir()
    (folder / "sheet.css").write_bytes(b"/* caf\xe9 */\nbody { margin: 0; }\n")


def big_asset_in_template(folder: Path) -> None:
    folder.mkdir()
    sparse(folder / "big.png")
    base = (TemplateSet.load().root / "d100.html.j2").read_text("utf-8")
    (folder / "d100.html.j2").write_text(base.replace("<h2>Notes</h2>", '<h2>Notes</h2><img src="{{ asset(\'big.png\') }}">', 1))


def big_image_in_pdf(folder: Path) -> None:
    folder.mkdir()
    sparse(folder / "big.png")
    base = (TemplateSet.load().root / "d100.html.j2").read_text("utf-8")
    (folder / "d100.html.j2").write_text(base.replace("<h2>Notes</h2>", '<h2>Notes</h2><img src="big.png">', 1))


CASES = {  # name: (make the folder, format, what the error line says)
    "3 GB sheet.css (html)": (lambda d: sparse(d / "sheet.css"), "html", f"'sheet.css' is {GB3:,} bytes, over the limit of {MAX_STYLESHEET_BYTES:,}"),
    "3 GB sheet.css (pdf)": (lambda d: sparse(d / "sheet.css"), "pdf", f"'sheet.css' is {GB3:,} bytes, over the limit"),
    "3 GB layouts.css": (lambda d: sparse(d / "layouts.css"), "html", f"'layouts.css' is {GB3:,} bytes"),
    "3 GB browser.css": (lambda d: sparse(d / "browser.css"), "html", f"'browser.css' is {GB3:,} bytes"),
    "3 GB font (html)": (lambda d: sparse(d / "fonts" / "Karla-Regular.otf"), "html",
                         f"'fonts/Karla-Regular.otf' is {GB3:,} bytes, over the limit of {MAX_ASSET_BYTES:,}"),
    "3 GB font (pdf)": (lambda d: sparse(d / "fonts" / "Karla-Regular.otf"), "pdf", f"'fonts/Karla-Regular.otf' is {GB3:,} bytes"),
    "Latin-1 sheet.css": (sheet_css_latin1, "html", "'sheet.css' is not UTF-8 text (bad byte at offset 6); save it as UTF-8"),
    "3 GB asset() in a template": (big_asset_in_template, "html", f"'big.png' is {GB3:,} bytes"),
    "3 GB image in a PDF": (big_image_in_pdf, "pdf", f"'big.png' is {GB3:,} bytes"),
}


@pytest.mark.parametrize("name", CASES)
def test_a_huge_or_unreadable_file_is_one_error_line_in_bounded_memory(tmp_path, name):
    make, fmt, said = CASES[name]
    folder = tmp_path / "tpl"
    make(folder)
    status, err, peak_kb = chargen(folder, tmp_path / "out", fmt)
    lines = err.strip().splitlines()
    assert status == 1 and len(lines) == 1 and lines[0].startswith("Error: "), err
    assert said in lines[0]
    assert peak_kb < PEAK_KB, f"peak {peak_kb:,} KB"


def test_a_file_at_the_limit_is_read_and_one_past_it_is_not(tmp_path):
    templates = TemplateSet.load(_folder_with(tmp_path, "big.png", MAX_ASSET_BYTES))
    assert len(templates.read_asset("big.png")) == MAX_ASSET_BYTES
    sparse(templates.root / "big.png", MAX_ASSET_BYTES + 1)
    with pytest.raises(RenderError, match=f"over the limit of {MAX_ASSET_BYTES:,}"):
        templates.read_asset("big.png")


def _folder_with(tmp_path: Path, name: str, size: int) -> Path:
    folder = tmp_path / "tpl"
    sparse(folder / name, size)
    (folder / "sheet.css").write_text((TemplateSet.load().root / "sheet.css").read_text("utf-8"))
    return folder


EXPRESSIONS = {  # what one value a template makes may not be, whatever the batch
    "'x' * 10**10": ("{{ 'x' * 10**10 }}", "a value of 10,000,000,000 characters or items is over the limit"),
    "bytes * 10**10": ("{{ 'x'.encode() * 10**10 }}", "a value of 10,000,000,000 characters or items"),
    "bytes.center": ("{{ 'x'.encode().center(10**10) }}", "center: 10,000,000,000 is over the limit"),
    "str.translate": ("{{ ('a' * 1000).translate({97: 'x' * 100000}) }}", "a value of 100,000,000 characters"),
    "|tojson(indent)": ("{{ c | tojson(indent=10**6) }}", f"tojson: 1,000,000 is over the limit of {bounds.MAX_INDENT}"),
    "|slice(n)": ("{{ range(3) | slice(1999999) | list }}", f"slice: 1,999,999 is over the limit of {bounds.MAX_PIECES:,}"),
    "|batch(n)": ("{{ range(3) | batch(1999999, 0) | list }}", f"batch: 1,999,999 is over the limit of {bounds.MAX_PIECES:,}"),
    "range(10**10)|list": ("{{ range(10**10) | list }}", "Range too big"),
}


@pytest.mark.parametrize("name", EXPRESSIONS)
def test_a_runaway_expression_is_refused_before_it_is_made(tmp_path, d100, name):
    body, said = EXPRESSIONS[name]
    (tmp_path / "d100.html.j2").write_text(body)
    with pytest.raises(RenderError) as e:
        HtmlRenderer(TemplateSet.load(tmp_path)).sheet(figured(make_character(d100, 42, 7)), standalone=False)
    assert said in str(e.value)


def _index(tmp_path: Path, body: str, n: int) -> str:
    (tmp_path / "index.html.j2").write_text(body)
    party = {"name": "P", "characters": [{"index": i} for i in range(n)]}
    return HtmlRenderer(TemplateSet.load(tmp_path)).index(party)


def test_what_a_template_makes_does_not_scale_with_the_batch(tmp_path):
    """An index handed 20,000 characters may weigh 20,000 documents, but make no bigger a value than a sheet."""
    assert bounds.limits(20_000)["value"] > 100 * bounds.MAX_MADE  # inputs scale ...
    assert bounds.limits(20_000)["built"] == bounds.MAX_BUILT       # ... what is made does not
    with pytest.raises(RenderError, match=f"a value of {bounds.MAX_MADE + 1:,} characters or items is over the limit of {bounds.MAX_MADE:,}"):
        _index(tmp_path, "{{ 'x' * %d }}" % (bounds.MAX_MADE + 1), 20_000)
    assert "x" * 10 in _index(tmp_path, "{{ ('x' * %d) | length }}{{ 'x' * 10 }}" % bounds.MAX_MADE, 20_000)


def test_what_a_template_makes_in_all_is_bounded_whatever_the_batch(tmp_path):
    body = "{% set ns = namespace(n=0) %}{% for ch in party.characters %}{% set ns.n = ns.n + ('x' * 1000)|length %}{% endfor %}{{ ns.n }}"
    assert _index(tmp_path, body, 1_000).endswith("1000000")
    with pytest.raises(RenderError, match=f"makes more than {bounds.MAX_BUILT:,} characters and items"):
        _index(tmp_path, body, 20_001)
