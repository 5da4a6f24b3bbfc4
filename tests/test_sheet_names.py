"""Sheets that survive any name and any house rule: long names and labels, every script.

Each character still fits one page at A4 and letter, with every value where the
sheet prints it (checked in the PDF's text, as the other sheet tests do).
"""

import io
import unicodedata

import pypdf

import pytest
from tests.sheetvalues import missing, pdf_text

from chargen.generate import make_character
from chargen.render.contain.fit import fit, in_heading_face, name_style
from chargen.render.html import HtmlRenderer
from chargen.run.figures import figured
from chargen.render.templates import TemplateSet
from chargen.rules import load_module

LONG = {
    "33": "Sir Godfrey the Bold of Coldwater",
    "80": "Sir Godfrey the Bold of Coldwater and Lord Protector of the Western Marches Too",
}
SCRIPTS = {
    "latin-vietnamese": "Nguyễn Thị Minh Khai",
    "greek": "Ἀλέξανδρος Παπαδόπουλος",
    "cyrillic": "Владимир Иванович Петров",
    "arabic": "محمد عبد الله",
    "hebrew": "דוד בן גוריון",
    "devanagari": "राम प्रसाद बिस्मिल",
    "thai": "สมชาย ใจดี",
    "cjk": "山田太郎",
    "korean": "김민준",
}
LABEL = "Ancient Draconic Heraldry and Lineages of the Western Marches"


@pytest.fixture(scope="module")
def maker():
    """The PDF maker and the forms of this file's sheets, drawn as a batch's sheet worker draws them
    (chargen.run.workers.SheetRenderer.pdf): a sheet of a shape drawn before (most archetypes' sheets:
    one character, its kit of one length) is filled into that shape's form, any other laid out in full;
    the same bytes either way (chargen.render.fill, tests/test_fill.py). Most archetypes' sheets are filled
    (the names in other scripts are each laid out in full)."""
    from chargen.render.fill import Forms
    from chargen.render.pdf import PdfMaker

    return PdfMaker(TemplateSet.load()), Forms()


def sheet(maker, doc, paper, modules=()) -> bytes:
    html = HtmlRenderer(TemplateSet.load(), paper).sheet(figured(doc, modules), False)
    pdf_maker, forms = maker
    return forms.render(pdf_maker, html, f"sheet of '{doc['identity']['name']}'")


def named(module, name, seed=5, index=3):
    doc = make_character(module, seed, index)
    doc["identity"]["name"] = name
    return doc


def check_one_page(maker, doc, paper, modules=()):
    rendered = sheet(maker, doc, paper, modules)
    text, pages = pdf_text(rendered, doc["identity"]["name"])
    assert pages == 1, f"{doc['identity']['name']!r} on {paper}: {pages} pages"
    rules = modules[0].rules if modules else None
    name = doc["identity"]["name"]
    gone = missing(doc, text, rules)
    if any(unicodedata.bidirectional(c) in ("R", "AL") for c in name):
        # a right-to-left name's text comes out of the PDF in visual order, its ligatures split: find it
        # in the PDF's title, and each of its letters drawn
        title = pypdf.PdfReader(io.BytesIO(rendered)).metadata.title
        assert title.startswith(name) and all(c in text for c in name if c.isalpha() and c not in "ال")
        gone = [p for p in gone if p != name]
    assert gone == []


# Covering rule: every (system, paper) pair (each its own name box: width, size), the length alternating so
# that every (system, length) and (paper, length) pair occurs too: 6 of the 12 combinations.
LONG_CASES = [("d100", "a4", "33"), ("d100", "letter", "80"), ("kotm", "a4", "80"), ("kotm", "letter", "33"),
              ("rtd", "a4", "33"), ("rtd", "letter", "80")]


@pytest.mark.parametrize("system, paper, length", LONG_CASES)
def test_a_long_name_keeps_the_sheet_on_one_page(request, maker, system, paper, length):
    check_one_page(maker, named(request.getfixturevalue(system), LONG[length]), paper)


# Covering rule: the names a system's name box shrinks (greek, cyrillic: each box its own width and sizes)
# at every system; the others, set at full size in every box (the same name_style for each system), each
# at least once, and every system with a right-to-left name, one of complex shaping and a CJK or Hangul one
# (with test_a_name_in_any_script_fits_letter_too, D100 meets seven of the nine): 16 of the 27 sheets.
SCRIPT_CASES = [(system, script) for system in ("d100", "kotm", "rtd") for script in ("greek", "cyrillic")] + [
    ("d100", "hebrew"), ("d100", "thai"), ("d100", "korean"), ("kotm", "arabic"), ("kotm", "devanagari"),
    ("kotm", "cjk"), ("kotm", "latin-vietnamese"), ("rtd", "arabic"), ("rtd", "thai"), ("rtd", "cjk")]


def test_the_script_cases_shrink_only_greek_and_cyrillic_names():
    """What SCRIPT_CASES rests on: only these two names are set smaller than the full size in a box."""
    from chargen.render.contain.fit import fit

    shrunk = {script for script, name in SCRIPTS.items() for width in (94, 107) if fit(name, width, 21) != (21, 1)}
    assert shrunk == {"greek", "cyrillic"} and {script for _, script in SCRIPT_CASES} == set(SCRIPTS)


@pytest.mark.parametrize("system, script", SCRIPT_CASES)
def test_a_name_in_any_script_keeps_the_sheet_on_one_page(request, maker, system, script):
    check_one_page(maker, named(request.getfixturevalue(system), SCRIPTS[script]), "a4")


@pytest.mark.parametrize("script", ["arabic", "cjk", "devanagari"])
def test_a_name_in_any_script_fits_letter_too(d100, maker, script):
    check_one_page(maker, named(d100, SCRIPTS[script]), "letter")


def test_every_script_is_drawn_by_an_installed_font(maker, d100):
    """No glyph of these names is missing (strict rendering would raise), and none is set
    in the heading face in part: a name it cannot draw whole is set wholly in the fallback."""
    for name in SCRIPTS.values():
        assert not in_heading_face(name)
        html = HtmlRenderer(TemplateSet.load(), "a4").sheet(figured(named(d100, name)), False)
        assert 'class="character-name other-script"' in html
    assert in_heading_face(LONG["80"])


def test_the_name_box_is_one_line_high_whatever_the_name():
    for name in list(LONG.values()) + list(SCRIPTS.values()) + ["x" * 200, "W" * 200, "山" * 200]:
        style = name_style(name, 94, 21)
        assert "height: 22.05pt" in style
        size, lines = fit(name, 94, 21)
        assert size * lines * (1.05 if lines == 1 else 1.0) <= 22.05 + 1e-6
    assert fit("Ann", 94, 21) == (21, 1)
    assert fit(LONG["33"], 94, 21)[1] == 1 and fit(LONG["80"], 94, 21)[1] == 2


def test_a_form_sheet_sets_a_name_in_whole_points_never_larger_than_it_fits():
    """The D100 II sheet (a form: names of about one length share its shape) rounds the size down."""
    for name in list(LONG.values()) + ["Rosalind of Westmarch and the Long Vale", "Ann"]:
        size, lines = fit(name, 94, 21)
        whole = float(name_style(name, 94, 21, 1).split("font-size: ")[1].split("pt")[0])
        assert whole == int(whole) and size - 1 < whole <= size
        assert "height: 22.05pt" in name_style(name, 94, 21, 1)


def overlay(tmp_path, system, key):
    path = tmp_path / f"{system}-long.yaml"
    path.write_text(f"overlay: {system}\nname: Long labels\nchanges:\n  {key.split('.')[0]}:\n    set:\n"
                    f"      {key.split('.', 1)[1]}: {LABEL}\n", "utf-8")
    return load_module(system, (path,), ())


OVERLAYS = {"d100": ("skills.skills[id=climbing].label", "climbing", "skills"),
            "kotm": ("weapons.weapons[id=dagger].label", "dagger", "weapons"),
            "rtd": ("weapons.weapons[id=dagger].label", "dagger", "weapons")}


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("system", ["d100", "kotm", "rtd"])
def test_a_long_label_from_house_rules_wraps_in_its_cell(tmp_path, maker, system, paper):
    key, entry_id, where = OVERLAYS[system]
    module = overlay(tmp_path, system, key)
    doc = make_character(module, 5, 3)
    entries = doc[where]
    if not any(e["id"] == entry_id for e in entries):  # this character lacks it: give it one, as a hand edit would
        entries[0]["label"] = LABEL
    assert any(e["label"] == LABEL for e in entries)
    doc["identity"]["name"] = LONG["33"]
    check_one_page(maker, doc, paper, (module,))


def _archetypes(system):
    from chargen import engines

    module = load_module(system)
    return [a.id for a in engines.require(module.engine).archetypes(module.rules)]


# Covering rule: every archetype once, the papers alternating (8 each, both kit lengths at each paper):
# the D100 II sheet is one form at both papers, set tighter at letter; measured, every archetype's page
# keeps the same room free at both (34.3-34.5 or 56.4-59.2 px), so a kit that fits one paper fits both.
ARCHETYPE_PAPERS = [(a, ("a4", "letter")[i % 2]) for i, a in enumerate(_archetypes("d100"))]


@pytest.mark.parametrize("archetype, paper", ARCHETYPE_PAPERS)
def test_every_d100_archetype_fits_one_page(d100, maker, archetype, paper):
    """An archetype's NPC carries more kit than a 16-year-old (armour pieces, four weapons, a
    profession's gear): its sheet still fits one page, every value on it."""
    from chargen.generate import GenerationRequest

    check_one_page(maker, make_character(d100, 0, 0, GenerationRequest(archetype=archetype)), paper)


@pytest.mark.parametrize("system", ["kotm", "rtd"])
def test_every_kotm_and_rtd_archetype_fits_one_page(request, maker, system):
    from chargen.generate import GenerationRequest

    module = request.getfixturevalue(system)
    for archetype in _archetypes(system):
        check_one_page(maker, make_character(module, 0, 0, GenerationRequest(archetype=archetype)), "a4", (module,))
