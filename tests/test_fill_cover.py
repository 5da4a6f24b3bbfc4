"""party.pdf's cover as a form (chargen.render.fill): its roster pages of one shape are filled into the
first one laid out, each the bytes its full layout makes; a page that cannot be filled exactly (a name
that wraps) is laid out in full."""

import shutil

import pytest

from chargen.generate import make_character
from chargen.rules import load_module
from chargen.run.figures import engine_extra
from chargen.run.partyfiles import ROSTER_ROWS, roster_parts
from chargen.run.workers import SheetRenderer

from tests.test_fill import pixels

LONG = "Wolfram Ulrich Maximilian von und zu Hohenzollern-Sigmaringen the Younger of Castlereach"


def roster(module, count: int, systems: list[str]) -> dict:
    """A cover's context of ``count`` characters (one sheet page each), as party_summary makes it."""
    rows = []
    for i in range(count):
        doc = make_character(module, 42, i)
        rows.append({"index": i, "name": doc["identity"]["name"], "system": systems[i % len(systems)],
                     "seed": 42, "files": {}, "pages": 1, "page": i + 1, "group": "",
                     "figures": [list(f) for f in engine_extra(doc, (module,), "sheet").get("roster", [])]})
    return {"name": "The party", "systems": systems, "seeds": [42], "characters": rows, "count": count,
            "sheet_pages": count, "files": {}}


def pages(party: dict) -> list[dict]:
    parts = roster_parts(party["characters"])
    return [{**party, "characters": rows, "part": k, "parts": len(parts)} for k, rows in enumerate(parts)]


@pytest.mark.parametrize("paper, systems", [("a4", ["D100 II 1.0.0", "KoTM 1.0.0"]), ("letter", ["D100 II 1.0.0"])])
@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_cover_pages_of_one_shape_are_filled_into_the_bytes_of_their_full_layout(tmp_path, paper, systems):
    module = load_module("d100")
    filler, full = SheetRenderer(None, paper, True, (module,)), SheetRenderer(None, paper, True, (module,))
    first, rest = ROSTER_ROWS
    party = roster(module, first + 4 * rest + 3, systems)  # 6 pages: 4 of 50 rows
    party["characters"][first + 2 * rest + 7]["name"] = LONG  # the fourth page's: it wraps
    for k, page in enumerate(pages(party)):
        filled = filler.cover(page)
        laid = full.maker().render(full.renderer.cover(page), "party cover").pdf
        assert filled == laid, f"cover page {k + 1}"
        if k == 2:
            assert pixels(filled, tmp_path, "filled") == pixels(laid, tmp_path, "laid")
    # pages 2 and 3 of 50 rows: the first laid out (and kept), the second filled; page 4's long name
    # wraps (laid out in full), page 5 filled
    assert filler.forms.counts == {"new": 3, "filled": 2, "missed": 1}


def test_the_cover_is_a_form_of_fixed_columns():
    """Every roster value is marked, so a page's shape is its rows and figure count alone."""
    from chargen.render.fill import shape_of

    module = load_module("d100")
    renderer = SheetRenderer(None, "a4", False, (module,))
    party = roster(module, 150, ["D100 II 1.0.0"])
    one, two = (shape_of(renderer.renderer.cover(page)) for page in pages(party)[1:3])
    assert one.key == two.key and one.values != two.values
    assert "cover page ii of iv" in one.values
