"""The KoTM and RTD sheets as forms (templates/kotm.html.j2, rtd.html.j2; chargen.render.fill): their
characters share a shape, a sheet filled into a form is the sheet a full layout makes, byte for byte and
pixel for pixel (pdftoppm), and sheets are filled, not only laid out in full."""

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

from chargen.generate import GenerationRequest, make_character
from chargen.render import fill
from chargen.rules import load_module
from chargen.run.workers import SheetRenderer

ROOT = Path(__file__).parent.parent
HOUSE = {"kotm": ROOT / "examples" / "house-rules" / "epic-kotm.yaml",  # 20 levels: a longer level table
         "rtd": Path(__file__).parent / "house" / "rtd-lore.yaml"}  # more skills, one with a long name
ARCHETYPES = {"kotm": ("militia", "champion"), "rtd": ("thug", "guard")}
LONG = "Bartholomew-Maximilian Fitzgerald-Aldersgate of the Windswept Northern Marches Ward"


def pixels(pdf: bytes, folder: Path, tag: str) -> list[str]:
    """Each page of ``pdf`` drawn by pdftoppm at 80 dpi, as digests of its pixels."""
    path = folder / f"{tag}.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "80", "-gray", str(path), str(folder / tag)], check=True)
    return [hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.glob(f"{tag}-*.pgm"))]


def characters(system: str) -> list[tuple[str, dict]]:
    module = load_module(system)
    docs = [(f"plain {i}", make_character(module, 42, i)) for i in range(5)]
    for archetype in ARCHETYPES[system]:
        docs += [(f"{archetype} {i}", make_character(module, 7, i, GenerationRequest(archetype=archetype)))
                 for i in range(2)]
    for label, name in (("long name", LONG), ("Arabic name", "سلمى بنت حارث"), ("Japanese name", "山田 花子"),
                        ("Latin name", "Wendel Ashby"), ("Latin name again", "Ulla Millbrook")):
        doc = make_character(module, 42, 1)
        doc["identity"]["name"] = name
        docs.append((label, doc))
    house = load_module(system, [HOUSE[system]])
    docs += [(f"house rule {i}", make_character(house, 5, i)) for i in range(3)]
    return docs


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
# KoTM's house rule (20 levels) keeps its sheets' rows: the later ones are filled; RTD's (4 to 6 skills, a
# long name) makes sheets of several shapes (those three each the first of its shape).
@pytest.mark.parametrize("system, paper, least, house_filled",
                         [("kotm", "a4", 10, True), ("rtd", "letter", 8, False)])
def test_filled_sheets_are_the_sheets_a_full_layout_makes(tmp_path, system, paper, least, house_filled):
    plain, house = load_module(system), load_module(system, [HOUSE[system]])
    filled = {m.hash: SheetRenderer(None, paper, True, (m,)) for m in (plain, house)}
    full = SheetRenderer(None, paper, True, (plain, house))
    outcomes = {}
    for k, (label, doc) in enumerate(characters(system)):
        renderer = filled[doc["system"]["rules_hash"]]
        html = renderer.html(doc, False)
        before = dict(renderer.forms.counts) if renderer.forms else {}
        ours = renderer.pdf(html, label)
        counts = renderer.forms.counts
        outcomes[label] = next(key for key in counts if counts[key] != before.get(key, 0))
        theirs = full.maker().render(html, label).pdf  # laid out in full, never filled
        assert ours == theirs, f"{label} ({outcomes[label]}): not the bytes of a full layout"
        if outcomes[label] == "filled":
            assert pixels(ours, tmp_path, f"fill{k}") == pixels(theirs, tmp_path, f"full{k}"), label
    assert sum(o == "filled" for o in outcomes.values()) >= least, outcomes  # the fill is used
    assert outcomes["Latin name again"] == "filled", outcomes
    assert outcomes["house rule 2"] == "filled" or not house_filled, outcomes
    assert "plain" not in outcomes.values(), outcomes  # every sheet is a form


@pytest.mark.parametrize("system", ["kotm", "rtd"])
def test_characters_of_a_system_share_the_sheets_shape(system):
    """Levels, tiers, the number of weapons (0-2) and of skills (2-4), the flavour: values of the form,
    not its shape (an archetype's NPCs share theirs: the reproduce line has one more argument); a house
    rule's sheet is of another shape. (An RTD skill at Expert or above, with its choice of bonuses, is
    a row of other lines: another shape.)"""
    module = load_module(system)
    renderer = SheetRenderer(None, "a4", False, (module,))
    groups = [[make_character(module, 42, i) for i in range(12)]]
    groups += [[make_character(module, 7, i, GenerationRequest(archetype=a)) for i in range(4)]
               for a in ARCHETYPES[system]]
    keys = set()
    for docs in groups:
        shapes = [fill.shape_of(renderer.html(doc, False)) for doc in docs]
        assert None not in shapes
        assert len({shape.key for shape in shapes}) == 1
        assert len({shape.values for shape in shapes}) == len(docs)  # each its own values
        keys.add(shapes[0].key)
    house = load_module(system, [HOUSE[system]])
    other = SheetRenderer(None, "a4", False, (house,)).html(make_character(house, 42, 0), False)
    assert fill.shape_of(other).key not in keys
