"""Cards that continue (issue 25): a card too full for its box goes on to a second card, never cut.

The longest NPC a house rule allows (tests/house/armoury.yaml: fourteen weapons with long
names, two dozen more skills, all trained) on cards of four and nine, A4 and letter: every
value the card shows is in the PDF's text, every box WeasyPrint lays out inside its card's
box, and the parts are marked 1/2, 2/2.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.sheetvalues import pdf_text

from chargen.generate import GenerationRequest, make_character
from chargen.render import cardparts
from chargen.render.pdf import PdfMaker
from chargen.rules import load_module
from chargen.run.sheets import SheetRenderer

ARMOURY = Path(__file__).parent / "house" / "armoury.yaml"
EDGE = 0.5  # pt a box may pass its card's content box by (rounding; far less than a line)


@pytest.fixture(scope="module")
def armsmasters():
    module = load_module("d100", [ARMOURY])
    return [make_character(module, 5, i, GenerationRequest(archetype="armsmaster")) for i in range(5)]


@pytest.fixture(scope="module")
def laid_out():
    """Every HTML a PdfMaker renders in this module's tests, laid out again here (the layout checked
    is WeasyPrint's own, not the code's under test)."""
    seen = []
    real = PdfMaker.render

    def spy(self, html, *args, **kwargs):
        seen.append((self, html))
        return real(self, html, *args, **kwargs)

    PdfMaker.render = spy
    yield seen
    PdfMaker.render = real


def card_boxes(maker, html):
    import weasyprint

    document = weasyprint.HTML(string=html, base_url=maker.base_url, url_fetcher=maker.fetcher).render(
        font_config=maker.font_config, stylesheets=[maker.css])
    for page in document.pages:
        for box in page._page_box.descendants():
            if getattr(box, "element_tag", None) == "article":
                yield box


def past_edge(card) -> list[str]:
    """The boxes inside ``card`` that end past its content box, by their text: a line or block
    below or above it, any box (a word too) left or right of it. (A word's own box is as high as
    its font's ascent and descent, a point or two more than its line: the line is what is set.)"""
    from weasyprint.formatting_structure.boxes import InlineBox, TextBox

    top, left = card.content_box_y(), card.content_box_x()
    bottom, right = top + card.height, left + card.width
    out = []
    for b in card.descendants():
        if b is card or not hasattr(b, "border_height"):
            continue
        x, y = b.border_box_x(), b.border_box_y()
        inline = isinstance(b, (InlineBox, TextBox))
        if not inline and (y + b.border_height() > bottom + EDGE or y < top - EDGE) \
                or x + b.border_width() > right + EDGE or x < left - EDGE:
            out.append(getattr(b, "text", "") or b.element_tag)
    return out


def values(doc, extra, cards):
    """The phrases the card shows of ``doc``: name, characteristics, figures, every weapon's row,
    the skills above base (a card of nine: its eight best, as it says)."""
    out = [doc["identity"]["name"], f"index {doc['seed']['index']}"]
    out += [f"{k.upper()} {v}" for k, v in doc["characteristics"].items()]
    out += [f"Total HP {doc['combat']['hit_points']}", f"POW {doc['combat']['pow_points']}"]
    for line in extra["weapons"]:
        w = line["weapon"]
        out.append(w["label"])
        out += [f"{w[k]}%" for k in ("attack", "parry") if w[k] is not None]
    skills = extra["skills_above_base"]
    out += [f"{s['label']} {s['value']}" for s in (skills[:8] if cards == 9 else skills)]
    return out


# Covering rule (this test and test_card_backs_continue_behind_their_fronts): paper and cards per page
# each set the card's box (the same code for each); every paper and every count meets each test once,
# and the four boxes (A4 and letter, 4 and 9 a page) are each laid out and checked to the edge by one.
@pytest.mark.parametrize("paper, cards", [("a4", 4), ("letter", 9)])
def test_the_longest_npcs_continue_on_marked_cards_every_value_shown_nothing_past_the_edge(
        armsmasters, laid_out, paper, cards):
    r = SheetRenderer(paper=paper, layout="card", cards_per_page=cards)
    party = {"name": "Armoury", "systems": [], "seeds": [5], "count": len(armsmasters)}
    laid_out.clear()
    rendered = r.collection(list(enumerate(armsmasters)), party)
    text, pages = pdf_text(rendered.pdf)
    joined = text.replace("- ", "-")  # a label wrapped after its hyphen ("main-" / "gauche")
    for doc in armsmasters:
        missing = [v for v in values(doc, r.extra(doc), cards) if v not in joined]
        assert missing == [], (doc["identity"]["name"], missing)
    maker, html = laid_out[-1]
    boxes = list(card_boxes(maker, html))
    for box in boxes:
        assert past_edge(box) == [], (paper, cards, box.element.get("id"))
    assert len(boxes) > len(armsmasters)  # they continue
    assert pages == -(-len(boxes) // cards)
    cards_of = {}  # each character's cards in a row, marked 1/n .. n/n
    for anchor, part, k, n in re.findall(r'id="c-(\d+)(?:-(\d+))?">\n?(?:<span class="card-part"[^>]*>(\d+)/(\d+)<)?',
                                         html):
        cards_of.setdefault(int(anchor), []).append((int(part or 1), int(k or 0), int(n or 0)))
    assert sorted(cards_of) == list(range(len(armsmasters)))
    for anchor, seen in cards_of.items():
        n = len(seen)
        assert seen == [(k, k, n) for k in range(1, n + 1)] if n > 1 else seen == [(1, 0, 0)]
        assert n == 1 or all(f"{k}/{n}" in text for k in range(1, n + 1))
    assert any(len(seen) > 1 for seen in cards_of.values())


@pytest.mark.parametrize("cards", [4, 9])
def test_one_npc_file_holds_all_its_parts_and_the_html_the_same_parts(armsmasters, laid_out, cards):
    r = SheetRenderer(paper="a4", layout="card", cards_per_page=cards)
    doc = armsmasters[0]
    html = r.html(doc, False)
    laid_out.clear()
    text, _ = pdf_text(r.pdf(html, "card"))
    n = html.count('class="card-part"')
    assert n >= 2 and f"1/{n}" in text and f"{n}/{n}" in text
    assert [v for v in values(doc, r.extra(doc), cards) if v not in text.replace("- ", "-")] == []
    maker, laid_html = laid_out[-1]
    assert laid_html == html
    assert all(past_edge(b) == [] for b in card_boxes(maker, html))
    standalone = r.html(doc, True)
    assert standalone.count('class="card-part"') == n


def test_cards_that_fit_are_written_as_before_one_layout_no_mark(d100):
    r = SheetRenderer(paper="a4", layout="card", cards_per_page=4)
    doc = make_character(d100, 42, 3)
    html = r.html(doc, False)
    assert "card-part" not in html
    assert html == r.renderer.sheet(r.figured(doc), False, "card")


def test_the_same_parts_for_the_same_characters(armsmasters):
    a = SheetRenderer(paper="letter", layout="card", cards_per_page=9)
    b = SheetRenderer(paper="letter", layout="card", cards_per_page=9)
    party = {"name": "Armoury", "systems": [], "seeds": [5], "count": 2}
    assert a.collection(list(enumerate(armsmasters[:2])), party).pdf == \
        b.collection(list(enumerate(armsmasters[:2])), party).pdf


def test_pieces_cut_tables_at_rows_and_paragraphs_after_items_keeping_the_text():
    frag = ('<header class="block-head">\n<h3>A &amp; B</h3>\n</header>\n'
            '<table class="grid"><thead><tr><th>W</th></tr></thead>\n<tbody>\n<tr><td>a</td></tr>\n'
            '<tr><td>b</td></tr>\n</tbody>\n</table>\n'
            '<p class="line"><span class="aside">Skills</span> Climb <b>40</b>, Hide, quiet <b>30</b>'
            ' &middot; Listen <b>50</b></p>\n<p class="seedline">index 1</p>\n')
    parts = cardparts.pieces(frag)
    assert [p.tag for p in parts] == ["header", "table", "p", "p"]
    assert cardparts.part_html(parts, cardparts.whole(parts)) == frag
    U = cardparts.Unit
    assert cardparts.part_html(parts, (U(1, 1, 2), U(2, 1, 3))) == (
        '<header class="block-head">\n<h3>A &amp; B</h3>\n</header>\n'
        '<table class="grid"><thead><tr><th>W</th></tr></thead>\n<tbody>\n<tr><td>b</td></tr>\n</tbody>\n</table>\n'
        '<p class="line"><span class="aside">Skills</span> Hide, quiet <b>30</b> &middot; Listen <b>50</b></p>\n')
    assert cardparts.part_html(parts, (U(2, 0, 1),)).endswith('Climb <b>40</b></p>\n')
    assert cardparts.pieces("loose text <p>x</p>") is None
    assert cardparts.pieces("<p>unclosed <b>x</p>") is None


def test_duplex_places_each_back_mirrored_over_the_long_edge():
    from chargen.render.html import duplex

    items = [{"anchor": a, "part": k} for a, n in enumerate([2, 1, 3, 1, 2]) for k in range(1, n + 1)]
    pages = duplex(items, 4)
    name = [[None if i is None else (i["anchor"], i["part"]) for i in page] for page in pages]
    # fronts: 0/1 1/1 2/1 2/3 | backs, in the fronts' order (the page sets them from the right)
    assert name[0] == [(0, 1), (1, 1), (2, 1), (2, 3)]
    assert name[1] == [(0, 2), None, (2, 2)]
    assert name[2] == [(3, 1), (4, 1)] and name[3] == [None, (4, 2)]


@pytest.mark.parametrize("cards, paper", [(9, "a4"), (4, "letter")])  # the other two boxes: see above
def test_card_backs_continue_behind_their_fronts(armsmasters, laid_out, cards, paper):
    r = SheetRenderer(paper=paper, layout="card", cards_per_page=cards, card_backs=True)
    party = {"name": "Armoury", "systems": [], "seeds": [5], "count": len(armsmasters)}
    laid_out.clear()
    rendered = r.collection(list(enumerate(armsmasters)), party)
    assert rendered.pages % 2 == 0
    maker, html = laid_out[-1]
    import weasyprint

    document = weasyprint.HTML(string=html, base_url=maker.base_url, url_fetcher=maker.fetcher).render(
        font_config=maker.font_config, stylesheets=[maker.css])
    where = {}
    for number, page in enumerate(document.pages):
        width = page._page_box.margin_width()
        for box in page._page_box.descendants():
            ident = getattr(box, "element", None) is not None and box.element_tag == "article" and box.element.get("id")
            if ident:
                where[ident] = (number, box.border_box_x(), box.border_box_y(), box.border_width(), width)
                assert past_edge(box) == [], ident
    backs = [i for i in where if i.count("-") == 2 and i.endswith("-2")]
    assert backs
    for back in backs:
        page, x, y, w, width = where[back]
        front_page, fx, fy, _, _ = where[back[:-2]]
        assert page == front_page + 1 and page % 2 == 1
        assert abs(y - fy) < 0.5 and abs((x + w / 2) - (width - (fx + w / 2))) < 0.5  # mirrored left to right


def test_card_backs_on_the_command_line_pair_the_pages_and_the_manifest_records_it(tmp_path):
    import json

    from click.testing import CliRunner

    from chargen.cli import cli

    args = ["generate", "--system", "kotm", "--seed", "4", "--count", "2", "--format", "pdf", "--layout", "card",
            "--card-backs", "-o", str(tmp_path / "b")]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    _, pages = pdf_text((tmp_path / "b" / "party.pdf").read_bytes())
    assert pages == 2  # two cards that fit on a front, and their (empty) backs
    assert json.loads((tmp_path / "b" / "manifest.json").read_text())["card_backs"] is True
    again = CliRunner().invoke(cli, args[:-2] + ["-o", str(tmp_path / "b"), "--resume"])
    assert again.exit_code == 0 and "already complete" in again.output
    plain = CliRunner().invoke(cli, args[:-3] + ["-o", str(tmp_path / "p")])
    assert plain.exit_code == 0 and "card_backs" not in (tmp_path / "p" / "manifest.json").read_text()
