"""The party at a glance (issue 25): party.pdf's page of every character side by side (--compare)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from tests.sheetvalues import pdf_text

from chargen import engines
from chargen.cli import cli
from chargen.generate import GenerationRequest, make_character
from chargen.render import glance as g
from chargen.rules import load_module
from chargen.run.sheets import SheetRenderer

ARMOURY = Path(__file__).parent / "house" / "armoury.yaml"
NAMES = ["Bartholomew-Maximilian Fitzgerald-Aldersgate of the Windswept Northern Marches Ward",
         "عبد الرحمن بن خالد الدمشقي", "山田 太郎左衛門", "Ἀλέξανδρος"]


def glance_of(doc, n):
    return g.glance(engines.get(doc["system"]["engine"]).view(doc, None), n)


@pytest.fixture(scope="module")
def guards(d100):
    docs = [make_character(d100, 3, i, GenerationRequest(archetype="town_guard")) for i in range(50)]
    for doc, name in zip(docs, NAMES):
        doc["identity"]["name"] = name
    return docs


def test_fifty_characters_are_seven_pages_of_eight_the_best_marked_across_the_party(guards):
    pages = g.pages([glance_of(d, i) for i, d in enumerate(guards)])
    assert [len(p["members"]) for p in pages] == [8] * 6 + [2]
    assert [(p["part"], p["parts"]) for p in pages] == [(k, 7) for k in range(1, 8)]
    hp = [d["combat"]["hit_points"] for d in guards]
    cells = [c for p in pages for r in p["rows"] if r["label"] == "HP" for c in r["cells"]]
    assert [c["value"] for c in cells] == hp
    assert [c["best"] for c in cells] == [v == max(hp) for v in hp]  # the party's best, on whichever page
    sr = [c for p in pages for r in p["rows"] if r["label"] == "SR" for c in r["cells"]]
    assert not any(c["best"] for c in sr)  # "SIZ 2 DEX 3" is not ranked


def test_key_skills_are_those_anyone_raised_house_rule_skills_too(guards, d100):
    rows = g.table([glance_of(d, i) for i, d in enumerate(guards[:8])])
    skills = [r["label"] for r in rows if r["kind"] == "skill"]
    raised = {s["label"] for d in guards[:8] for s in d["skills"]
              if any(x["source"] not in ("base", "category") for x in s["sources"])}
    assert set(skills) == raised and skills
    module = load_module("d100", [ARMOURY])
    armsmaster = make_character(module, 5, 0, GenerationRequest(archetype="armsmaster"))
    rows = g.table([glance_of(armsmaster, 0), glance_of(guards[0], 1)])
    labels = [r["label"] for r in rows if r["kind"] == "skill"]
    assert "Siege Engineering" in labels and "Interrogation" in labels  # the overlay's own skills
    siege = next(r for r in rows if r["label"] == "Siege Engineering")
    assert [c["value"] for c in siege["cells"]][1] == "\u2013"  # the guard's rules have no such skill


def test_a_party_no_one_trained_compares_the_skills_it_differs_in(d100):
    docs = [make_character(d100, 42, i) for i in range(4)]
    rows = g.table([glance_of(d, i) for i, d in enumerate(docs)])
    for r in rows:
        if r["kind"] == "skill":
            assert len({c["value"] for c in r["cells"]}) > 1
    assert any(r["kind"] == "skill" for r in rows)


def test_kotm_and_rtd_compare_their_strips_and_rtd_its_skills(kotm, rtd):
    mixed = [make_character(kotm, 1, i) for i in range(3)] + [make_character(rtd, 1, i) for i in range(3)]
    pages = g.pages([glance_of(d, i) for i, d in enumerate(mixed)])
    assert [p["system"].split()[0] for p in pages] == ["KoTM", "RTD"]
    kotm_rows = [r["label"] for r in pages[0]["rows"]]
    assert kotm_rows[:2] == ["Level", "SD"]
    assert any(r["kind"] == "skill" and r["label"].endswith(" XP") for r in pages[1]["rows"])


def test_the_page_draws_every_name_wrapped_inside_its_column_seven_pages(guards):
    from weasyprint.formatting_structure.boxes import TableCellBox

    r = SheetRenderer(paper="letter")
    glances = [glance_of(d, i) for i, d in enumerate(guards)]
    html = r.renderer.glance("The watch", glances)
    laid = r.maker().lay_out(html, "glance")
    assert len(laid.pages) == 7
    heads = 0
    for page in laid.pages:
        for box in page._page_box.descendants():
            if isinstance(box, TableCellBox) and "who" in (box.element.get("class") or ""):
                heads += 1
                left, right = box.border_box_x(), box.border_box_x() + box.border_width()
                for inner in box.descendants():
                    if hasattr(inner, "border_width") and inner is not box:
                        assert left - 0.5 <= inner.border_box_x() <= inner.border_box_x() + inner.border_width() \
                            <= right + 0.5, (box.element.text, getattr(inner, "text", ""))
    assert heads == 50
    text, pages = pdf_text(r.pdf(html, "glance"))
    assert pages == 7
    solid = "".join(text.split())  # names wrap (a long word anywhere): read them without the breaks
    for doc in guards[:1] + guards[2:]:  # (Arabic is extracted in its presentation forms)
        assert "".join(doc["identity"]["name"].split()) in solid


def test_compare_puts_the_page_in_party_pdf_and_the_manifest(tmp_path):
    def run(*args):
        result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
        assert result.exit_code == 0, result.output
    run("generate", "--system", "kotm", "--seed", "4", "--count", "3", "--format", "pdf", "--compare",
        "-o", str(tmp_path / "with"))
    run("generate", "--system", "kotm", "--seed", "4", "--count", "3", "--format", "pdf", "-o", str(tmp_path / "plain"))
    with_text, with_pages = pdf_text((tmp_path / "with" / "party.pdf").read_bytes())
    plain_text, plain_pages = pdf_text((tmp_path / "plain" / "party.pdf").read_bytes())
    assert "the party at a glance".upper() in with_text.upper() and "at a glance" not in plain_text.lower()
    assert with_pages == plain_pages + 1
    assert json.loads((tmp_path / "with" / "manifest.json").read_text())["compare"] is True
    assert "compare" not in json.loads((tmp_path / "plain" / "manifest.json").read_text())
    result = CliRunner().invoke(cli, ["generate", "--system", "kotm", "--seed", "4", "--count", "3", "--format", "pdf",
                                      "-o", str(tmp_path / "with"), "--resume"])
    assert result.exit_code == 0 and "already complete" in result.output
