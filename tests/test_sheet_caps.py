"""A hand-edited character with huge numbers gets a sheet of bounded size: a track draws at most
100 boxes (a hit location 30) and prints how many more there are."""

import re

import pytest

from chargen.generate import make_character
from chargen.render.html import HtmlRenderer
from chargen.run.figures import figured
from chargen.render.templates import TemplateSet


@pytest.fixture
def doc(d100):
    return make_character(d100, 42, 7)


def _huge(doc: dict) -> dict:
    """A hand-edited D100 II character with 100,000 hit points and 99,999 in every track."""
    doc = {**doc, "combat": {**doc["combat"], "hit_points": 100_000, "pow_points": 99_999},
           "hit_locations": [{**loc, "hp": 99_999} for loc in doc["hit_locations"]]}
    return doc


def test_a_sheet_draws_at_most_100_boxes_a_track_and_counts_the_rest(doc):
    html = HtmlRenderer(TemplateSet.load()).sheet(figured(_huge(doc)), False)
    assert len(re.findall(r'class="tick( fifth)?"', html)) == 2 * 100 + len(doc["hit_locations"]) * 30
    assert html.count("+99,900 more") == 1 and html.count("+99,899 more") == 1
    assert html.count("+99,969 more") == len(doc["hit_locations"])
    assert ">100000<" in html  # the number itself is printed in full


def test_a_sheet_with_huge_tracks_is_laid_out_in_bounded_time(doc):
    from chargen.render.pdf import PdfMaker

    templates = TemplateSet.load()
    rendered = PdfMaker(templates).render(HtmlRenderer(templates).sheet(figured(_huge(doc)), False))
    assert rendered.pdf.startswith(b"%PDF-") and rendered.pages <= 3


def test_an_rtd_skill_draws_at_most_100_xp_boxes(rtd):
    doc = make_character(rtd, 42, 7)
    skills = [{**s, "next_level_xp": 10**6} if s["next_level_xp"] is not None else s for s in doc["skills"]]
    doc = {**doc, "skills": skills}
    html = HtmlRenderer(TemplateSet.load()).sheet(figured(doc, [rtd]), False)
    raised = [s for s in skills if s["next_level_xp"] == 10**6]
    assert raised and html.count(" more</span>") == len(raised)
