"""The block and card layouts: every engine at A4 and letter, 4 and 9 cards a page, the
encounter sheet (roster first, blocks grouped by archetype), what each shows, and the CLI."""

import json
import math

import pytest
from click.testing import CliRunner
from tests.sheetvalues import pdf_text

from chargen.cli import cli
from chargen.generate import make_character
from chargen.run.sheets import SheetRenderer
from chargen.render.html import group_by_archetype

SYSTEMS = ["d100", "kotm", "rtd"]


@pytest.fixture(scope="module")
def renderers():
    made = {}

    def get(layout, paper="a4", cards=4):
        key = (layout, paper, cards)
        if key not in made:
            made[key] = SheetRenderer(paper=paper, layout=layout, cards_per_page=cards)
        return made[key]
    return get


def seedline(doc):
    s = doc["seed"]
    return f"chargen generate --system {doc['system']['id']} --seed {s['batch']} --index {s['index']}"


def shown(doc):
    """What a block (and a card of four) shows, as phrases of the PDF's text."""
    out = [doc["identity"]["name"], f"index {doc['seed']['index']}", seedline(doc)]
    engine = doc["system"]["engine"]
    if engine == "d100":
        out += [f"{k.upper()} {v}" for k, v in doc["characteristics"].items()]
        out += [f"Total HP {doc['combat']['hit_points']}", f"POW {doc['combat']['pow_points']}"]
        out += [w["label"] for w in doc["weapons"]]
        out += [f"{s['label']} {s['value']}" for s in doc["skills"] if s["value"] > s["base"]]
    elif engine == "kotm":
        out += [f"LEVEL {doc['level']} SD {doc['sd']} SAVE CHECK {doc['save_check']} "
                f"CF DAMAGE {doc['critical_fumble_damage']}"]
        out += [w["label"] for w in doc["weapons"]]
    else:
        out += [f"{s['abbr']} {s['value']}" for s in doc["stats"]]
        out += [s["label"] for s in doc["skills"]] + [w["label"] for w in doc["weapons"]]
    return out


def docs_of(module, n, seed=42):
    return [make_character(module, seed, i) for i in range(n)]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_one_block_is_one_page_with_its_figures_and_seed_line(request, renderers, system, paper):
    r = renderers("block", paper)
    doc = make_character(request.getfixturevalue(system), 42, 3)
    html = r.html(doc, False)
    assert 'class="block"' in html
    text, pages = pdf_text(r.pdf(html, "block"), doc["identity"]["name"])
    assert pages == 1
    assert [p for p in shown(doc) if p not in text] == []


# Covering rule: every (system, paper) pair, the number of cards alternating, so that every (system, cards)
# and (paper, cards) pair occurs too (the system's block fills a card; paper and cards make the page's grid):
# 6 of the 12 combinations, each system's four-card sheet checked for every value.
CARDS = [("d100", "a4", 4), ("d100", "letter", 9), ("kotm", "a4", 9), ("kotm", "letter", 4),
         ("rtd", "a4", 4), ("rtd", "letter", 9)]


@pytest.mark.parametrize("system, paper, cards", CARDS)
def test_cards_four_or_nine_a_page(request, renderers, system, paper, cards):
    r = renderers("card", paper, cards)
    docs = docs_of(request.getfixturevalue(system), 10)
    rendered = r.collection(list(enumerate(docs)), {"name": "Cards", "systems": [], "seeds": [42], "count": 10})
    text, pages = pdf_text(rendered.pdf)
    assert pages == math.ceil(10 / cards)
    for doc in docs:
        assert doc["identity"]["name"] in text and seedline(doc) in text
    if cards == 4:
        for doc in docs:
            assert [p for p in shown(doc) if p not in text] == []


def test_a_twelve_npc_encounter_is_at_most_three_pages_roster_first_grouped_by_archetype(d100, renderers):
    docs = docs_of(d100, 12)
    for i, doc in enumerate(docs):
        doc["archetype"] = {"id": ("guard", "archer")[i % 3 == 0], "label": ("Guard", "Archer")[i % 3 == 0]}
    for paper in ("a4", "letter"):
        rendered = renderers("block", paper).collection(list(enumerate(docs)), {"name": "Ambush at the ford", "systems": ["D100 II"],
                                                               "seeds": [42], "count": 12})
        text, pages = pdf_text(rendered.pdf)
        assert pages <= 3, paper
        roster, guards, archers = text.index("Roster"), text.index("Guard 8"), text.index("Archer 4")
        # the roster, then each archetype's blocks under its heading, in order of first appearance (#0 an archer)
        assert roster < archers < guards
        for doc in docs:
            assert [p for p in shown(doc) if p not in text] == []
        at = [text.index(seedline(d), guards) for d in docs
              if d["archetype"]["id"] == "guard"]
        assert at == sorted(at)  # reading order within a group


def test_grouping_keeps_first_appearance_and_leaves_ungrouped_parties_whole():
    items = [{"c": {"archetype": {"id": a, "label": a.title()}} if a else {}} for a in ("b", "a", None, "b")]
    groups = group_by_archetype(items)
    assert [(g["label"], len(g["members"])) for g in groups] == [("B", 2), ("A", 1), ("Others", 1)]
    assert group_by_archetype([{"c": {}}, {"c": {}}]) == [{"label": None, "members": [{"c": {}}, {"c": {}}]}]


def run(*args, ok=True):
    result = CliRunner().invoke(cli, list(map(str, args)))
    if ok:
        assert result.exit_code == 0, result.output
    return result


def test_generate_and_render_take_the_layout_and_the_manifest_records_it(tmp_path):
    out = tmp_path / "enc"
    run("generate", "--system", "kotm", "--seed", 42, "--count", 5, "--format", "json,html,pdf",
        "--layout", "card", "--cards-per-page", 9, "-o", out, "--jobs", 1)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["layout"] == "card" and manifest["cards_per_page"] == 9 and manifest["complete"]
    text, pages = pdf_text((out / "party.pdf").read_bytes())
    assert pages == 1 and all(c["name"] in text for c in manifest["characters"])
    html = (out / manifest["characters"][0]["files"]["html"]).read_text()
    assert 'class="card"' in html and "<style>" in html
    again = run("generate", "--system", "kotm", "--seed", 42, "--count", 5, "--format", "json,html,pdf",
                "-o", out, "--resume")
    assert "already complete" in again.output
    other = run("generate", "--seed", 42, "--count", 5, "--format", "json,html,pdf", "--system", "kotm",
                "--layout", "block", "-o", out, "--resume", ok=False)
    assert other.exit_code != 0 and "(--layout: card in the manifest, block now)" in other.output

    prints = tmp_path / "prints"
    run("render", *sorted(out.glob("*.json"))[:4], "--layout", "block", "-o", prints, "--jobs", 1)
    text, pages = pdf_text((prints / "party.pdf").read_bytes())
    assert "Roster" in text and pages == 1


def test_an_unknown_layout_or_card_count_is_a_usage_error():
    assert "Invalid value for '--layout'" in run("generate", "--layout", "poster", ok=False).output
    assert "Invalid value for '--cards-per-page'" in run("generate", "--cards-per-page", 6, ok=False).output


def test_pdf_ua_sheets_are_tagged_and_the_default_ones_are_not(tmp_path):
    import pypdf

    def root(path):
        return pypdf.PdfReader(path).trailer["/Root"]

    run("generate", "--system", "d100", "--seed", 3, "--count", 1, "--format", "pdf", "--pdf-variant", "pdf/ua-1",
        "-o", tmp_path / "ua", "--jobs", 1)
    tagged = root(next((tmp_path / "ua").glob("0000-*.pdf")))
    assert "/StructTreeRoot" in tagged and tagged["/MarkInfo"]["/Marked"]
    assert json.loads((tmp_path / "ua" / "manifest.json").read_text())["pdf_variant"] == "pdf/ua-1"
    run("generate", "--system", "d100", "--seed", 3, "--count", 1, "--format", "pdf", "-o", tmp_path / "plain",
        "--jobs", 1)
    assert "/StructTreeRoot" not in root(next((tmp_path / "plain").glob("0000-*.pdf")))
