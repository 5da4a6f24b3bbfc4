"""HTML sheets: golden files, standalone HTML, the filters and the D100 sheet context."""

import os
import re
from pathlib import Path

import pytest

from chargen.generate import make_character
from chargen.render.env import dashes, face, faces, num, roman, signed
from chargen.render.html import HtmlRenderer
from chargen.run.figures import engine_extra, figured
from chargen.render.templates import TemplateSet
from chargen.render.contain.standalone import POLICY_META
from chargen.systems.d100.sheet import skill_rows

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_SEEDS = [("d100", 42, 7), ("d100", 42, 4), ("d100", 7, 0), ("d100", 42, 16), ("kotm", 42, 0), ("rtd", 42, 0)]  # 42/16: weapons below their minimums
REGENERATE = os.environ.get("CHARGEN_REGEN_GOLDEN") == "1"


@pytest.fixture(scope="module")
def renderer():
    return HtmlRenderer(TemplateSet.load())


@pytest.mark.parametrize("system,seed,index", GOLDEN_SEEDS)
def test_golden_html(request, renderer, system, seed, index):
    """The sheet's markup (the HTML laid out into the PDF), byte for byte.

    Regenerate on purpose only: CHARGEN_REGEN_GOLDEN=1 python -m pytest tests/test_render_html.py
    """
    path = GOLDEN / f"{system}-seed{seed}-index{index}.html"
    html = renderer.sheet(figured(make_character(request.getfixturevalue(system), seed, index)), standalone=False)
    if REGENERATE:
        path.write_text(html, encoding="utf-8")
    assert html == path.read_text(encoding="utf-8")


def test_standalone_html_is_the_same_sheet_with_its_stylesheet_and_fonts_inline(renderer, d100):
    doc = make_character(d100, 42, 7)
    standalone = renderer.sheet(figured(doc))
    style = re.search(r"<style>\n(.*?)</style>", standalone, re.S)
    assert standalone.replace(style[0], "", 1).replace(POLICY_META, "", 1) == renderer.sheet(figured(doc), standalone=False)
    assert standalone.startswith(f'<!DOCTYPE html>\n<html lang="en">\n<head>{POLICY_META}\n<meta charset="utf-8">')
    css = style[1]
    assert css.count("url(\"data:font/otf;base64,") == 3 and css.count("url(\"data:font/ttf;base64,") == 1
    assert not re.search(r"url\((?!\"data:)", css)  # nothing but data: URLs: opens from disk, no network
    assert "print-color-adjust: exact" in css  # browser.css comes after sheet.css
    assert '<meta charset="utf-8">' in standalone


def test_filters():
    assert [signed(n) for n in (5, 0, -5, None)] == ["+5", "0", "-5", ""]
    assert [face(1), face(9), face(100), face(20, 20)] == ["01", "09", "00", "20"]
    assert [faces(1, 4, 20), faces(12, 12, 20), faces(98, 100), faces(100, 100)] == ["01–04", "12", "98–00", "00"]
    assert [num(4.0), num(0.25), num(3), num(None)] == ["4", "0.25", "3", ""]
    assert [roman(n) for n in (1, 2, 4, 9, 14, 40, 1994)] == ["i", "ii", "iv", "ix", "xiv", "xl", "mcmxciv"]
    assert [dashes("05-50, 07"), dashes("10 1-4"), dashes(-5), dashes("re-roll")] == ["05–50, 07", "10 1–4", "-5",
                                                                                      "re-roll"]


def test_degree_ranges_follow_a_hand_edited_chance(renderer, d100):
    doc = make_character(d100, 42, 7)
    doc["weapons"][0]["attack"] = 120
    html = renderer.sheet(figured(doc), standalone=False)
    assert '<td class="num pct" data-fill>120</td><td class="num crit" data-fill>01–06</td>' \
           '<td class="num spec" data-fill>01–24</td><td class="num fumb" data-fill>00</td>' in html


def test_skill_columns_never_leave_a_heading_at_the_foot(d100):
    doc = make_character(d100, 42, 7)
    rows = skill_rows(doc)
    left = [r[0] for r in rows if r[0] is not None]
    right = [r[1] for r in rows if r[1] is not None]
    assert len(left) + len(right) == len(doc["skills"]) + len(doc["skill_categories"])
    assert left[-1]["kind"] == "skill" and right[0]["kind"] in ("skill", "category")
    order = [line["skill"]["id"] for line in left + right if line["kind"] == "skill"]
    assert order == [s["id"] for s in doc["skills"]]  # read down the left, then the right


def test_a_skill_in_a_new_category_is_still_shown(renderer, d100):
    doc = make_character(d100, 42, 7)
    doc["skills"].append({"id": "sailing", "label": "Sailing", "category": "seafaring", "base": 10,
                          "modifier": 0, "value": 25, "trained": True})
    html = renderer.sheet(figured(doc), standalone=False)
    assert "Seafaring</td>" in html and ">Sailing</td>" in html


def test_engine_extra_is_empty_for_an_engine_without_a_sheet_module():
    assert engine_extra({"system": {"engine": "no-such-engine"}}) == {}


def test_roster_figures(d100):
    extra = engine_extra(make_character(d100, 42, 7))
    assert extra["roster"] == [("", "Peasant"), ("HP", "14"), ("POW", "11"), ("DM", "+1D4"), ("Belt knife", "25%")]


def test_the_small_print_of_an_own_module_names_its_folder():
    from chargen.rules import load_module

    module = load_module("mykotm", rules_dirs=[Path(__file__).parent.parent / "examples" / "house-rules" / "modules"])
    doc = make_character(module, 3, 1)
    html = HtmlRenderer(TemplateSet.load()).sheet(figured(doc, (module,)), True)
    # (the KoTM sheet is a form: each argument a value of it, chargen.render.fill)
    assert '--index 1</span> <span class="nobr" data-fill>--rules-dir &lt;your folder of mykotm&gt;</span>' in html
