"""The sheet fill (chargen.render.fill): a sheet filled into a laid-out form is the sheet a full layout
makes, byte for byte and pixel for pixel (pdftoppm); every sheet that cannot be filled exactly is laid
out in full. The form is tests/forms/d100.html.j2, a D100 II sheet with every value in a marked cell."""

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

from chargen.generate import GenerationRequest, make_character
from chargen.render import fill
from chargen.rules import load_module
from chargen.run.workers import SheetRenderer

FORMS = Path(__file__).parent / "forms"
ARMOURY = Path(__file__).parent / "house" / "armoury.yaml"
LONG = "Bartholomew-Maximilian Fitzgerald-Aldersgate of the Windswept Northern Marches Ward"


def pixels(pdf: bytes, folder: Path, tag: str) -> list[str]:
    """Each page of ``pdf`` drawn by pdftoppm at 80 dpi, as digests of its pixels."""
    path = folder / f"{tag}.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "80", "-gray", str(path), str(folder / tag)], check=True)
    return [hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.glob(f"{tag}-*.pgm"))]


def characters() -> list[tuple[str, dict]]:
    d100 = load_module("d100")
    docs = [(f"plain {i}", make_character(d100, 42, i)) for i in range(5)]
    for archetype in ("town_guard", "bandit", "veteran_soldier"):
        docs += [(f"{archetype} {i}", make_character(d100, 7, i, GenerationRequest(archetype=archetype)))
                 for i in range(3)]
    names = (("long name", LONG), ("Arabic name", "سلمى بنت حارث"), ("Greek name", "Ἀλέξανδρος"),
             ("Latin name again", "Ulla Millbrook"))
    for label, name in names:
        doc = make_character(d100, 42, 1)
        doc["identity"]["name"] = name
        docs.append((label, doc))
    armoury = load_module("d100", [ARMOURY])
    docs += [(f"armoury {i}", make_character(armoury, 5, i, GenerationRequest(archetype="armsmaster")))
             for i in range(3)]
    return docs


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_filled_sheets_are_the_sheets_a_full_layout_makes(tmp_path):
    d100, armoury = load_module("d100"), load_module("d100", [ARMOURY])
    filled = {m.hash: SheetRenderer(FORMS, "a4", True, (m,)) for m in (d100, armoury)}
    full = SheetRenderer(FORMS, "a4", True, (d100, armoury))
    outcomes = {}
    for k, (label, doc) in enumerate(characters()):
        renderer = filled[doc["system"]["rules_hash"]]
        html = renderer.html(doc, False)
        before = dict(renderer.forms.counts) if renderer.forms else {}
        ours = renderer.pdf(html, label)
        counts = renderer.forms.counts
        outcome = next(key for key in counts if counts[key] != before.get(key, 0))
        outcomes[label] = outcome
        theirs = full.maker().render(html, label).pdf  # laid out in full, never filled
        assert ours == theirs, f"{label} ({outcome}): not the bytes of a full layout"
        if outcome == "filled":
            assert pixels(ours, tmp_path, f"fill{k}") == pixels(theirs, tmp_path, f"full{k}"), label
    filled_count = sum(o == "filled" for o in outcomes.values())
    assert filled_count >= 12, outcomes  # the fill is used, not only fallen back from
    assert outcomes["long name"] == "missed"  # wider than its cell: laid out in full
    assert outcomes["Latin name again"] == "filled"


def test_a_template_without_markers_is_laid_out_in_full():
    d100 = load_module("d100")
    renderer = SheetRenderer(None, "a4", True, (d100,))
    doc = make_character(d100, 42, 0)
    for _ in range(2):
        renderer.pdf(renderer.html(doc, False), "sheet")
    assert dict(renderer.forms.counts) == {"plain": 2} and not renderer.forms.forms


def test_another_weasyprint_version_is_never_filled(monkeypatch):
    import weasyprint

    d100 = load_module("d100")
    renderer = SheetRenderer(FORMS, "a4", True, (d100,))
    html = renderer.html(make_character(d100, 42, 0), False)
    monkeypatch.setattr(weasyprint, "__version__", "71.0")
    assert fill.Form.build(html, renderer.maker().lay_out(html)) is None
    monkeypatch.undo()
    assert fill.Form.build(html, renderer.maker().lay_out(html)) is not None


@pytest.mark.parametrize("html, values", [
    ("<p>no markers</p>", None),
    ('<td data-fill>12 <b>and</b></td>', None),  # a marked value holding markup: no form
    ('<title>A &amp; B</title><td data-fill> 12  </td><span data-fill></span><i data-fill> </i>', (" 12  ", "", "")),
])
def test_the_shape_of_a_sheet(html, values):
    shape = fill.shape_of(html)
    assert (shape.values if shape else None) == values


def test_sheets_differing_in_values_and_title_only_share_a_shape():
    a = fill.shape_of('<title>Ann</title><h1 data-fill>Ann</h1><td data-fill>12</td>')
    b = fill.shape_of('<title>Bo</title><h1 data-fill>Bo</h1><td data-fill>7</td>')
    c = fill.shape_of('<title>Bo</title><h1 data-fill>Bo</h1><td data-fill></td>')  # an empty value: no text box
    assert a.key == b.key != c.key and (a.title, b.title) == ("Ann", "Bo")


@pytest.mark.parametrize("space, value, filled", [("normal", "Cy  \tDee", True), ("pre", "Cy  \tDee", False),
                                                   ("normal", "Cy Dee ", False)])
def test_white_space_a_full_layout_keeps_is_not_filled(space, value, filled):
    """A value with runs of spaces fills a cell that collapses them; where the style keeps them it is a
    miss, and so is a trailing space (WeasyPrint draws it though it trims it from the box)."""
    d100 = load_module("d100")
    maker = SheetRenderer(FORMS, "a4", True, (d100,)).maker()

    def page(value):
        return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body>'
                f'<p style="white-space: {space}" data-fill>{value}</p></body></html>')

    form = fill.Form.build(page("Ann Bo"), maker.lay_out(page("Ann Bo")))
    html = page(value)
    document = form.fill(fill.shape_of(html))
    assert (document is not None) == filled
    if filled:
        ours = maker.render(html, laid=document).pdf
        form.restore()
        assert ours == maker.render(html).pdf
