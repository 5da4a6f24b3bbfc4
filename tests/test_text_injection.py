"""Issue 26, finding 2 (the formats other than the statblock note and MEG): user text never becomes a live
link, image, formula or markup.

A party file's name and a member's name are user text. In ``roster.csv`` every text cell (the header's
too: a house rule names columns) is kept from being read as a formula; ``index.html`` and the sheets
escape it (a browser shows it as text and, the policy stripped off, still fetches nothing); ``blocks.txt``
is plain text, not Markdown: it holds the text exactly as given, on one line, without control characters.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest
import tinyhtml5
from click.testing import CliRunner
from tests import browser
from tests.test_standalone_browser import chromium, listener  # noqa: F401 - fixtures

from chargen.cli import cli
from chargen.formats import roster
from chargen.render.contain.standalone import POLICY_META

XHTML = "{http://www.w3.org/1999/xhtml}"
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def hostile_names(base: str) -> tuple[str, str]:
    party = f'=HYPERLINK("{base}/h","x") ![p]({base}/p.png)'
    member = f"=cmd|x ![p]({base}/m.png) <img src={base}/i.png> [x](javascript:alert(1)) [[secret]]"
    return party, member


def make_party(tmp_path: Path, base: str) -> Path:
    party, member = hostile_names(base)
    quoted = lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'  # noqa: E731
    path = tmp_path / "evil.yaml"
    path.write_text(f"name: {quoted(party)}\nsystem: d100\nseed: 5\nmembers:\n"
                    f"  - {{archetype: guard_sergeant, name: {quoted(member)}}}\n"
                    f"  - {{archetype: town_guard, count: 1}}\nformats: [csv, text, html]\n", "utf-8")
    result = CliRunner().invoke(cli, ["party", str(path), "-o", str(tmp_path / "out"), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return tmp_path / "out"


def test_roster_cells_are_never_formulas(tmp_path):
    out = make_party(tmp_path, "http://127.0.0.1:9")
    rows = list(csv.reader(io.StringIO((out / "roster.csv").read_text("utf-8-sig"))))
    _, member = hostile_names("http://127.0.0.1:9")
    assert rows[1][rows[0].index("name")] == "'" + member
    for row in rows:
        for value in row:
            assert not value.startswith(FORMULA) or re.fullmatch(r"-?\d+(\.\d+)?", value), value


def test_a_roster_header_from_a_house_rule_is_never_a_formula(d100, monkeypatch):
    from chargen.generate import make_character

    real = roster.row
    monkeypatch.setattr(roster, "row", lambda view: ([*real(view)[0][:-1], "=1+1"], real(view)[1]))
    head = roster.CsvFormat().part(make_character(d100, 5, 0)).split("\r\n")[0]
    assert head.endswith(",'=1+1")


def test_blocks_txt_is_plain_text_holding_the_name_as_given(tmp_path):
    out = make_party(tmp_path, "http://127.0.0.1:9")
    text = (out / "blocks.txt").read_text("utf-8")
    _, member = hostile_names("http://127.0.0.1:9")
    assert text.splitlines()[0] == member  # plain text: shown as typed, never rendered as Markdown
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", text)


def test_index_and_sheets_hold_names_as_text_only(tmp_path):
    out = make_party(tmp_path, "http://127.0.0.1:9")
    party, member = hostile_names("http://127.0.0.1:9")
    for page in [out / "index.html", *sorted(out.glob("0*.html"))]:
        root = tinyhtml5.parse(page.read_text("utf-8"), scripting=True)
        tags = {e.tag for e in root.iter() if isinstance(e.tag, str)}
        assert f"{XHTML}img" not in tags and f"{XHTML}script" not in tags, page.name
        for a in root.iter(f"{XHTML}a"):
            assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*|#.*", a.get("href")), a.get("href")
    index = tinyhtml5.parse((out / "index.html").read_text("utf-8"))
    assert "".join(index.find(f".//{XHTML}h1").itertext()) == party
    assert member in ["".join(a.itertext()) for a in index.iter(f"{XHTML}a")]


def test_in_chromium_hostile_names_fetch_nothing_even_without_the_policy(chromium, listener, tmp_path):  # noqa: F811
    base, heard = listener
    out = make_party(tmp_path, base)
    pages = []
    for page in [out / "index.html", *sorted(out.glob("0*.html"))]:
        bare = tmp_path / f"bare-{page.name}"
        html = page.read_text("utf-8")
        assert POLICY_META in html
        bare.write_text(html.replace(POLICY_META, ""), "utf-8")  # escaping alone
        pages.append(bare)
    browser.open_pages(pages)
    assert heard == []


@pytest.mark.parametrize("cell, shown", [("=1+1", "'=1+1"), (" @SUM(A1)", "'@SUM(A1)"), ("+1D4", "'+1D4"),
                                         ("-3", "'-3"), (-3, -3), ("Ulf", "Ulf")])
def test_cells(cell, shown):
    assert roster.cell(cell) == shown
