"""Issue 39, item 2: a ``--template-dir`` cannot crash or hang the sheet fill (chargen.render.fill).

What the fill cannot read as a form (a tick count past its ticks or of 5,000 digits, a margin name
escaped past U+10FFFF, an element of 20,000 ``data-fill`` attributes holding markup) is no form:
the sheet is laid out in full. Before, each ended in a MemoryError or ValueError traceback, or the
marker pattern backtracked for minutes. The CLI runs have a generous timeout, a hang guard only
(each takes seconds)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chargen.render.fill.shape import _ELEMENT, _MARK, shape_of
from chargen.render.templates import TemplateSet

TICK = '<span class="tick"></span>'
HOSTILE = {
    "a count of 10^12": f'<span class="ticks" data-fill-count="1000000000000">{TICK}</span>',  # MemoryError
    "a count of 5,000 digits": f'<span class="ticks" data-fill-count="{"9" * 5000}">{TICK}</span>',  # ValueError
    "a count past its ticks": f'<span class="ticks" data-fill-count="3">{TICK}{TICK}</span>',
    "20,000 data-fill attributes holding markup": "<span" + " data-fill" * 20_000 + "><b>x</b></span>",
}
MARGINS = {"past U+10FFFF": "\\ffffff", "a surrogate": "\\00d800"}
OLD_MARKED = re.compile(r"<([a-zA-Z][a-zA-Z0-9]*)((?:\s[^<>]*?)?\sdata-fill(?:=\"\")?(?:\s[^<>]*?)?)>([^<]*)</\1>")


@pytest.mark.parametrize("case", HOSTILE)
def test_a_marker_the_fill_cannot_read_is_no_form(case):
    assert shape_of(f"<p data-fill>x</p>{HOSTILE[case]}") is None


@pytest.mark.parametrize("case", MARGINS)
def test_a_margin_name_escaped_to_no_character_is_no_form(case):
    html = '<style>@page { @bottom-left { content: "%s"; } }</style><p data-fill>x</p>' % MARGINS[case]
    assert shape_of(html) is None
    assert shape_of(html.replace(MARGINS[case], "a\\000042")).margin == "aB"  # a character's escape is read


def test_a_count_as_long_as_its_ticks_is_read():
    assert shape_of(f'<span class="ticks" data-fill-count="2">{TICK * 2}<span class="tick off"></span></span>').counts == (2,)


PIECES = ["<span", "<b", "</span>", "</b>", ">", " data-fill", '=""', " data-fill-count", " class=x", "x", " ", "<",
          "/", "\n"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30))
def test_the_marked_elements_are_those_the_old_pattern_found(pieces):
    html = "".join(pieces)
    new = [(m.start(3), m.end(3)) for m in _ELEMENT.finditer(html) if m.group(2) and _MARK.search(m.group(2))]
    assert new == [(m.start(3), m.end(3)) for m in OLD_MARKED.finditer(html)]


def template_dir(folder: Path, case: str) -> Path:
    """A templates folder whose D100 II sheet (or whose base, for a margin) carries ``case``."""
    folder.mkdir()
    root = TemplateSet.load().root
    sheet = (root / "d100.html.j2").read_text("utf-8")
    if case in MARGINS:
        base = (root / "base.html.j2").read_text("utf-8")
        name = "{{ c.identity.name | plain | css_string }}"
        assert name in base
        (folder / "base.html.j2").write_text(base.replace(name, MARGINS[case], 1))
    else:
        sheet = sheet.replace("<h2>Notes</h2>", "<h2>Notes</h2>" + HOSTILE[case], 1)
    (folder / "d100.html.j2").write_text(sheet)
    return folder


@pytest.mark.parametrize("case", [c for c in HOSTILE if "past its ticks" not in c] + list(MARGINS))
def test_a_hostile_template_draws_its_sheets_in_full(case, tmp_path):
    """Three sheets of one shape (the second and third would be filled into the first's form)."""
    folder = template_dir(tmp_path / "t", case)
    done = subprocess.run([sys.executable, "-m", "chargen", "generate", "--seed", "42", "--count", "3", "--format",
                           "pdf", "--template-dir", str(folder), "-o", str(tmp_path / "out"), "--jobs", "1"],
                          capture_output=True, text=True, timeout=120)
    if case == "a surrogate":  # no character to draw, in a full layout too: one line naming the folder
        assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr[-3000:]
        assert done.stderr.startswith(f"Error: batch incomplete: {folder}: sheet of ") and "U+D800" in done.stderr
        return
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert len(list((tmp_path / "out").glob("0*.pdf"))) == 3
