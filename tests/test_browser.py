"""The standalone HTML in a real browser: Debian's headless Chromium prints each layout's HTML
as a user's browser would (tests/browser.py drives it over the DevTools protocol).

Each page must load without a console error, request nothing but itself (fonts and styles
are data: URLs inside it), print the same number of pages as the PDF chargen makes of it,
and carry the character's name on every printed page; index.html's links must resolve.
One browser launch for the module, each page in a browser context of its own.
"""

import io
import json
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pypdf
import pytest
from click.testing import CliRunner
from tests import browser

from chargen.cli import cli

pytestmark = pytest.mark.skipif(browser.find() is None, reason="no chromium on PATH: the set-up installs Debian's "
                                "chromium (python3 tools/system_libraries.py --install, as root)")


def run(*args):
    result = CliRunner().invoke(cli, list(map(str, args)))
    assert result.exit_code == 0, result.output
    return result


def page_texts(pdf: bytes) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]


@pytest.fixture(scope="module", autouse=True)
def chromium():
    with browser.shared():  # one launch for the module
        yield


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("browser")
    run("generate", "--system", "d100", "--seed", 42, "--count", 2, "--format", "json,html,pdf", "-o",
        root / "sheets", "--jobs", 1)
    saved = sorted((root / "sheets").glob("0000-*.json"))[0]
    doc = json.loads(saved.read_text())
    doc["identity"]["name"] = "Sir Godfrey the Bold of Coldwater"
    doc["notes"] = "Owes the ferryman three silver pieces and a song. " * 120  # a second page
    (root / "long.json").write_text(json.dumps(doc), "utf-8")
    run("render", root / "long.json", "--format", "html,pdf", "-o", root / "long", "--jobs", 1)
    run("generate", "--system", "rtd", "--seed", 7, "--count", 1, "--format", "html,pdf", "--layout", "block",
        "--each-pdf", "-o", root / "block", "--jobs", 1)
    run("generate", "--system", "kotm", "--seed", 7, "--count", 1, "--format", "html,pdf", "--layout", "card",
        "--cards-per-page", 9, "--paper", "letter", "--each-pdf", "-o", root / "card", "--jobs", 1)
    return root


def check_page(html: Path, pdf: Path, name: str):
    printed = browser.print_page(html)
    assert printed.console == []
    own = html.resolve().as_uri()
    assert [u for u in printed.requests if u != own and not u.startswith("data:")] == []
    ours = page_texts(pdf.read_bytes())
    theirs = page_texts(printed.pdf)
    assert len(theirs) == len(ours)
    for n, text in enumerate(theirs, 1):
        assert name in text, f"page {n} of {html.name} lacks the name"
    return printed


@pytest.mark.parametrize("kind", ["long", "block", "card"])
def test_each_layout_prints_in_chromium_as_in_the_pdf(folders, kind):
    folder = folders / kind
    html = sorted(folder.glob("0*.html"))[0]
    name = json.loads((folder / "manifest.json").read_text())["characters"][0]["name"] if (folder / "manifest.json").exists() \
        else "Sir Godfrey the Bold of Coldwater"
    printed = check_page(html, html.with_suffix(".pdf"), name)
    if kind == "long":
        assert len(page_texts(printed.pdf)) == 2  # the notes run on: page 2 carries the name too


def test_a_generated_sheet_prints_on_one_page_and_index_links_resolve(folders):
    folder = folders / "sheets"
    manifest = json.loads((folder / "manifest.json").read_text())
    first = manifest["characters"][0]
    check_page(folder / first["files"]["html"], folder / first["files"]["pdf"], first["name"])
    printed = browser.print_page(folder / "index.html")
    assert printed.console == [] and printed.links
    for link in printed.links:
        parts = urlsplit(link)
        assert parts.scheme == "file" and Path(unquote(parts.path)).is_file(), link
    linked = {Path(unquote(urlsplit(u).path)).name for u in printed.links}
    assert {"party.pdf"} | {f for c in manifest["characters"] for f in c["files"].values()} == linked


SCREEN = ("JSON.stringify({overflow: document.documentElement.scrollWidth - window.innerWidth, "
          "page: getComputedStyle(document.querySelector('main')).backgroundColor, "
          "desk: getComputedStyle(document.documentElement).backgroundColor})")


@pytest.mark.parametrize("folder", ["sheets", "block", "card"])
def test_on_a_screen_1200_px_wide_the_page_is_white_on_the_desk_without_horizontal_scrolling(folders, folder):
    """Issue 22 point 14: the block and card HTML showed grey text on the grey desk, wider than the window."""
    html = sorted((folders / folder).glob("0000-*.html"))[0]
    seen = json.loads(browser.print_page(html, evaluate=SCREEN, width=1200).value)
    assert seen["overflow"] <= 0, seen
    assert seen["page"] == "rgb(255, 255, 255)" and seen["desk"] != seen["page"], seen
