"""PDF sheets: every value shows, long characters continue on more pages, same bytes every time."""

import copy

import pytest
from tests.sheetvalues import d100_phrases, missing, pdf_text

from chargen.generate import make_character
from chargen.render.html import HtmlRenderer
from chargen.run.figures import figured
from chargen.render.templates import TemplateSet

SEEDS = [(42, i) for i in range(8)] + [(7, 0), (2024, 3), (99, 11), (123456789, 5)]


@pytest.fixture(scope="module")
def maker():
    from chargen.render.pdf import PdfMaker

    return PdfMaker(TemplateSet.load())


def render(maker, doc, paper="a4"):
    return maker.render(HtmlRenderer(TemplateSet.load(), paper).sheet(figured(doc), standalone=False))


def overflowing(doc):
    doc = copy.deepcopy(doc)
    doc["equipment"] += [f"Spare item {i}, wrapped in oilcloth" for i in range(60)]
    doc["notes"] = "\n".join(f"Line {i} of the notes: owes the miller of Brightwater {i} silver pieces."
                             for i in range(80))
    return doc


@pytest.mark.parametrize("seed,index", SEEDS)
def test_every_value_appears_in_the_pdf(maker, d100, seed, index):
    doc = make_character(d100, seed, index)
    rendered = render(maker, doc)
    text, pages = pdf_text(rendered.pdf)
    assert missing(doc, text) == []
    assert pages == rendered.pages == 1  # a generated D100 character fits one A4 page


def test_a_house_rules_character_shows_its_overlay(maker):
    from pathlib import Path

    from chargen.rules import load_module

    root = Path(__file__).parent.parent
    module = load_module("d100", (root / "examples" / "house-rules" / "grim-north.yaml",), ())
    doc = make_character(module, 42, 2)
    text, pages = pdf_text(render(maker, doc).pdf)
    assert missing(doc, text) == [] and pages == 1
    assert "--index 2 --rules <your file of Grim north>" in text  # a file to pass, not a name (issue 9)


def test_letter_paper_fits_and_shows_everything(maker, d100):
    doc = make_character(d100, 42, 7)
    rendered = render(maker, doc, "letter")
    text, pages = pdf_text(rendered.pdf)
    assert missing(doc, text) == [] and pages == 1
    import io

    import pypdf

    box = pypdf.PdfReader(io.BytesIO(rendered.pdf)).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)


def test_an_overflowing_character_continues_on_more_pages(maker, d100):
    doc = overflowing(make_character(d100, 42, 7))
    rendered = render(maker, doc)
    text, pages = pdf_text(rendered.pdf, doc["identity"]["name"])
    assert pages >= 2 and rendered.pages == pages
    assert missing(doc, text) == []
    assert "Spare item 59, wrapped in oilcloth" in text and "Line 79 of the notes" in text


def test_a_hand_edit_shows_on_the_sheet(maker, d100):
    doc = make_character(d100, 42, 7)
    doc["identity"]["name"] = "Sir Percival the Bold"
    climbing = next(s for s in doc["skills"] if s["id"] == "climbing")
    climbing["value"] = 71
    text, _ = pdf_text(render(maker, doc).pdf)
    assert "Sir Percival the Bold" in text
    assert f"Climbing {climbing['base']} 71 01–04 01–14 00" in text  # degrees computed at render time


def test_two_renders_give_identical_bytes(maker, d100):
    from chargen.render.pdf import PdfMaker

    doc = make_character(d100, 42, 3)
    first = render(maker, doc).pdf
    assert render(maker, doc).pdf == first
    assert PdfMaker(TemplateSet.load()).render(HtmlRenderer(TemplateSet.load()).sheet(figured(doc), False)).pdf == first
    assert b"CreationDate" not in first and b"ModDate" not in first


def test_a_script_in_a_name_is_text(maker, d100):
    doc = make_character(d100, 42, 1)
    doc["identity"]["name"] = "<script>alert('x')</script> & Co"
    html = HtmlRenderer(TemplateSet.load()).sheet(figured(doc))
    assert "<script>" not in html
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; Co" in html
    text, _ = pdf_text(render(maker, doc).pdf)
    assert "<script>alert('x')</script> & Co" in text


def test_phrases_cover_every_weapon_skill_and_location(d100):
    doc = make_character(d100, 42, 7)
    phrases = d100_phrases(doc)
    assert len(phrases) > len(doc["skills"]) + len(doc["weapons"]) + len(doc["hit_locations"]) + 20
    assert "Belt knife melee · impale · base 25% 7 1D3+1+1D4 25 01 01–05 97–00 30 01–02 01–06 97–00 – 6 – 0.2" in phrases


def test_a_long_roster_is_laid_out_a_page_at_a_time(maker):
    from chargen.run.sheets import ROSTER_ROWS, SheetOptions, SheetSummary, party_summary, roster_parts

    sheets = [SheetSummary(f"{i:04d}-x", i, f"Hero number {i}", "D100 II 1.0.0", 42, {"pdf": "x.pdf"}, 1 + i % 2,
                           [("", "Peasant"), ("HP", str(10 + i % 7))]) for i in range(100)]
    party = party_summary(sheets, SheetOptions(party_name="A <b>big</b> party"))
    parts = roster_parts(party["characters"])
    assert [len(p) for p in parts] == [ROSTER_ROWS[0], ROSTER_ROWS[1], 100 - sum(ROSTER_ROWS)]
    renderer, page, text = HtmlRenderer(TemplateSet.load()), 1, ""
    for k, rows in enumerate(parts):
        for paper in ("a4", "letter"):  # a full part fits one page of either paper
            rendered = maker.render(HtmlRenderer(TemplateSet.load(), paper).cover(
                {**party, "characters": rows, "part": k, "parts": len(parts)}))
            assert rendered.pages == 1
        text = pdf_text(rendered.pdf)[0]
        assert ("A <b>big</b> party" in text) == (k == 0)
        assert f"cover page {['i', 'ii', 'iii'][k]} of iii" in text
        for row in rows:
            assert f"{row['index']} {row['name']} Peasant · HP {10 + row['index'] % 7} {page}" in text
            page += row["pages"]
    assert renderer.index(party).count("Hero number") == 100


def test_the_cover_heads_each_archetype_once_a_page(maker):
    """A group's heading row before its first row on a page and at each change of archetype (the
    first row's heading was drawn twice: ``loop.first or loop.changed(...)`` left changed unseen)."""
    from chargen.run.sheets import SheetOptions, SheetSummary, party_summary

    groups = ["Town guard"] * 3 + ["Bandit"] * 2 + [""] * 2
    sheets = [SheetSummary(f"{i:04d}-x", i, f"Hero number {i}", "D100 II 1.0.0", 42, {"pdf": "x.pdf"}, 1,
                           [("HP", "12")], group) for i, group in enumerate(groups)]
    party = party_summary(sheets, SheetOptions(party_name="Groups"))
    html = HtmlRenderer(TemplateSet.load()).cover({**party, "part": 0, "parts": 1})
    assert html.count('<tr class="group">') == 2
    text = pdf_text(maker.render(html).pdf)[0]
    assert text.count("Town guard") == 1 and text.count("Bandit") == 1


def test_a_long_roster_of_several_systems_is_cut_into_pages_of_fewer_rows(maker):
    """A party of several systems names each row's system under its name (two lines a row): 50 such
    rows took two pages of either paper, and the heading still said "cover page ii of iii"."""
    from chargen.run.partyfiles import ROSTER_ROWS_TALL
    from chargen.run.sheets import SheetOptions, SheetSummary, party_summary, roster_parts

    long = "Wolfram Ulrich Maximilian von und zu Hohenzollern-Sigmaringen the Younger of Castlereach"
    sheets = [SheetSummary(f"{i:04d}-x", i, long if i % 9 == 4 else f"Hero number {i}",
                           ["D100 II 1.0.0", "KoTM 1.0.0"][i % 2], 42, {"pdf": "x.pdf"}, 1,
                           [("", "Peasant"), ("HP", str(10 + i % 7)), ("DM", "+1D4"), ("Belt knife", "35%")])
              for i in range(100)]
    party = party_summary(sheets, SheetOptions(party_name="Two systems"))
    parts = roster_parts(party["characters"], tall=True)
    assert [len(p) for p in parts] == [ROSTER_ROWS_TALL[0], ROSTER_ROWS_TALL[1], ROSTER_ROWS_TALL[1],
                                       100 - ROSTER_ROWS_TALL[0] - 2 * ROSTER_ROWS_TALL[1]]
    for k, rows in enumerate(parts[:2]):
        for paper in ("a4", "letter"):
            rendered = maker.render(HtmlRenderer(TemplateSet.load(), paper).cover(
                {**party, "characters": rows, "part": k, "parts": len(parts)}))
            assert rendered.pages == 1, (k, paper)
