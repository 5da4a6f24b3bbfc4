"""KoTM and RTD sheets: every value shows, one page on A4 and letter, odds exact, the rules
a character was made with, and party bundles."""

import io
import json

import pypdf
import pytest
from click.testing import CliRunner
from tests.sheetvalues import kotm_phrases, missing, pdf_text, rtd_phrases

from chargen.cli import cli
from chargen.errors import RenderError
from chargen.generate import make_character
from chargen.render.html import HtmlRenderer
from chargen.run.figures import engine_extra, figured
from chargen.render.templates import TemplateSet

SEEDS = [(42, 0), (42, 1), (7, 123), (2024, 3), (99, 11)]


@pytest.fixture(scope="module")
def maker():
    from chargen.render.pdf import PdfMaker

    return PdfMaker(TemplateSet.load())


def render(maker, doc, paper="a4", modules=()):
    renderer = HtmlRenderer(TemplateSet.load(), paper)
    return maker.render(renderer.sheet(figured(doc, modules), False))


def run(*args, ok=True):
    result = CliRunner().invoke(cli, list(map(str, args)))
    if ok:
        assert result.exit_code == 0, result.output
    return result


@pytest.mark.parametrize("system", ["kotm", "rtd"])
@pytest.mark.parametrize("seed,index", SEEDS)
def test_every_value_appears_in_the_pdf(request, maker, system, seed, index):
    doc = make_character(request.getfixturevalue(system), seed, index)
    rendered = render(maker, doc)
    text, pages = pdf_text(rendered.pdf)
    assert missing(doc, text) == []
    assert pages == rendered.pages == 1  # a generated character fits one A4 page


@pytest.mark.parametrize("system,seed,index", [("kotm", 42, 0), ("rtd", 119, 0)])  # rtd 119: 4 skills, 2 weapons
def test_letter_paper_fits_and_shows_everything(request, maker, system, seed, index):
    doc = make_character(request.getfixturevalue(system), seed, index)
    rendered = render(maker, doc, "letter")
    text, pages = pdf_text(rendered.pdf)
    assert missing(doc, text) == [] and pages == 1
    box = pypdf.PdfReader(io.BytesIO(rendered.pdf)).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)


def test_the_tallest_rtd_character_fits_one_a4_page(maker, rtd):
    doc = make_character(rtd, 119, 0)
    assert (len(doc["skills"]), len(doc["weapons"])) == (4, 2)  # the most a generated character has
    assert render(maker, doc).pages == 1


@pytest.mark.parametrize("system", ["kotm", "rtd"])
def test_an_overflowing_character_continues_on_more_pages(request, maker, system):
    doc = make_character(request.getfixturevalue(system), 42, 1)
    doc["notes"] = "\n".join(f"Line {i} of the notes: owes the miller of Brightwater {i} silver pieces."
                             for i in range(80))
    rendered = render(maker, doc)
    text, pages = pdf_text(rendered.pdf, doc["identity"]["name"])
    assert pages >= 2 and rendered.pages == pages
    assert missing(doc, text) == []
    assert "Line 79 of the notes" in text


def test_kotm_odds_and_figures_for_a_known_character(maker, kotm):
    text, _ = pdf_text(render(maker, make_character(kotm, 42, 0)).pdf)
    for phrase in ("LEVEL 12 SD 50 SAVE CHECK 12 CF DAMAGE 7",
                   "OS Outstanding Success 10 10 00 1% (damage + 12 for level 12) × 2",
                   "CS Critical Success 10 1–4 01–04 4% damage + 10",
                   "HIT Hit – 05–50 46% second die + weapon modifier",
                   "MISS Miss – 51–94 44% no damage",
                   "CF Critical Fumble 9 5–8 95–98 4% 7 damage to self",
                   "TF Total Failure 9 9 99 1% roll 2D10 on the fumble table",
                   "Spear melee +1 2–11 12–15 46", "Short bow missile 0 1–10 11–14 44",
                   "1 5 10 9 9 8", "8 8 8",  # the level table, two columns: levels 1 and 9 on one line
                   "1–25 Distracted Tripped, Roll SC (dex) or fall, +5 to next INIT.",
                   "00 Disastrous Roll three times on the Fumble Table"):
        assert phrase in text, phrase


def test_a_hand_edited_kotm_character_shows_its_own_odds(maker, kotm):
    doc = make_character(kotm, 42, 0)
    doc["sd"] = 30  # the seed's Johnwarrior: OS 1%, CS 4%, hit 26%, miss 64%, CF 4%, TF 1%
    text, _ = pdf_text(render(maker, doc).pdf)
    assert "HIT Hit – 05–30 26%" in text and "MISS Miss – 31–94 64%" in text
    assert "2D10 against SD 30" in text and missing(doc, text) == []


def test_rtd_odds_and_figures_for_a_known_character(maker, rtd):
    text, _ = pdf_text(render(maker, make_character(rtd, 42, 0)).pdf)
    for phrase in ("Strength 13 Hard 100% auto 100% auto 86.67% – – –",
                   "Charisma 8 Medium 100% auto 80% – – – –",
                   "1–5 Lesser success 25%", "36–39 Legendary success 1% – Chart 3 and beyond 0.25%",
                   "0 Godly Fail – – only with a penalty", "5 Lesser Success – 16.67%", "6 Success +1 16.67%",
                   "10 Godly Overshoot +4 – only with a bonus",
                   "Archery 13 Adept +1 to all rolls; extra +1 on a natural 1; successes are improved 16 XP 66.67%",
                   "Brawling 18 Talented +2 to all rolls; successes are improved 22 XP 83.33%",
                   "Head * Unwounded", "Left arm Unwounded",
                   "Spear melee 6 5 6 7 8 12 2×",
                   "Critical chart 1D12: crits on 2, 6, 10."):
        assert phrase in text, phrase


def test_a_hand_edited_rtd_character_shows_its_own_odds_and_wounds(maker, rtd):
    doc = make_character(rtd, 42, 0)
    doc["stats"][0].update(value=19, tier="very_hard")
    doc["skills"][0].update(xp=30, level="expert", level_label="Expert", next_level_xp=37,
                            bonus="choose +1, +2 or +3; successes are greatly improved")
    doc["wounds"][2]["state"] = "broken"
    html = HtmlRenderer(TemplateSet.load()).sheet(figured(doc), False)
    assert html.count('<span class="check marked"></span>') == 1
    text, _ = pdf_text(render(maker, doc).pdf)
    assert "Strength 19 Very Hard 100% auto 100% auto 100% auto 95% – –" in text
    assert "Archery 30 Expert choose +1, +2 or +3; successes are greatly improved 37 XP " \
           "bonus +1 66.67% bonus +2 83.33% bonus +3 100%" in text
    assert "Left arm Broken" in text and missing(doc, text) == []


def test_a_legendary_skill_chooses_its_result(maker, rtd):
    doc = make_character(rtd, 42, 0)
    doc["skills"][1].update(xp=80, level="legendary", level_label="Legendary", next_level_xp=None,
                            bonus="choose the result, 0 to 10")
    text, _ = pdf_text(render(maker, doc).pdf)
    assert "Brawling 80 Legendary choose the result, 0 to 10 – chooses the result" in text


def test_the_phrases_cover_every_value():
    from chargen.rules import load_builtin

    kdoc, rdoc = make_character(load_builtin("kotm"), 42, 0), make_character(load_builtin("rtd"), 42, 0)
    k, r = kotm_phrases(kdoc), rtd_phrases(rdoc)
    assert len(k) == 8 + 6 + len(kdoc["weapons"]) + 32 + 5  # outcomes, weapons, fumble rows, small print
    assert len(r) == 3 + 2 * 6 + len(rdoc["skills"]) + 6 + len(rdoc["weapons"]) + 5
    assert "Spear melee +1 2–11 12–15 46" in k and "Spear melee 6 5 6 7 8 12 2×" in r


@pytest.mark.parametrize("system", ["kotm", "rtd"])
def test_a_value_the_sheet_does_not_show_is_caught(request, maker, system):
    doc = make_character(request.getfixturevalue(system), 42, 0)
    text, _ = pdf_text(render(maker, doc).pdf)
    doc["weapons"][0]["kind"] = "thrown"
    doc["identity"]["age"] += 1
    assert len(missing(doc, text)) == 2


def test_roster_figures(kotm, rtd):
    assert engine_extra(make_character(kotm, 42, 0))["roster"] == [
        ("", "Ranger"), ("Level", "12"), ("SD", "50"), ("SC", "12"), ("CF", "7"), ("Spear", "2–11")]
    assert engine_extra(make_character(rtd, 42, 0))["roster"] == [
        ("STR", "13"), ("DEX", "14"), ("CON", "11"), ("INT", "10"), ("WIS", "10"), ("CHA", "8"),
        ("Brawling", "Talented")]


# --- the rules a character was made with ------------------------------------------

BRUTAL = """\
overlay: kotm
name: Brutal
changes:
  attack:
    set:
      damage.cs.add: 15
  fumbles:
    set:
      rows[id=distracted].effect: "Tripped and winded, +5 to next INIT."
"""


@pytest.fixture
def brutal(tmp_path):
    path = tmp_path / "brutal.yaml"
    path.write_text(BRUTAL)
    return path


def test_a_house_rules_sheet_shows_the_house_rules(maker, brutal):
    from chargen.rules import load_module

    module = load_module("kotm", (brutal,), ())
    doc = make_character(module, 42, 0)
    text, pages = pdf_text(render(maker, doc, modules=(module,)).pdf)
    assert "CS Critical Success 10 1–4 01–04 4% damage + 15" in text
    assert "1–25 Distracted Tripped and winded, +5 to next INIT." in text
    assert missing(doc, text, module.rules) == [] and pages == 1
    with pytest.raises(RenderError, match="made with house rules 'Brutal'"):
        engine_extra(doc)  # without its module: the built-in odds would be wrong, so no sheet


def test_generate_gives_the_sheet_its_own_module(tmp_path, brutal):
    out = tmp_path / "out.pdf"
    result = CliRunner().invoke(cli, ["generate", "--system", "kotm", "--rules", str(brutal), "--seed", "42",
                                      "--index", "0", "--format", "pdf"])
    assert result.exit_code == 0, result.output
    out.write_bytes(result.stdout_bytes)
    assert "damage + 15" in pdf_text(out.read_bytes())[0]


def test_render_refuses_a_house_rules_character_before_writing(tmp_path, brutal):
    result = run("generate", "--system", "kotm", "--rules", brutal, "--seed", 42, "--index", 0, "--format", "json")
    saved = tmp_path / "brutal.json"
    saved.write_text(result.stdout)
    result = run("render", saved, "--format", "pdf", "-o", tmp_path / "prints", ok=False)
    assert result.exit_code == 1
    assert result.output == (f"Error: {saved}: sheet of 'Hale Blackthorn': made with house rules 'Brutal', whose "
                             "odds and tables the KoTM sheet shows; give the same --rules/--rules-dir it was "
                             "made with\n")
    assert not (tmp_path / "prints").exists()


def test_render_with_the_house_rules_a_character_was_made_with(tmp_path, brutal):
    result = run("generate", "--system", "kotm", "--rules", brutal, "--seed", 42, "--index", 0, "--format", "json")
    saved = tmp_path / "brutal.json"
    saved.write_text(result.stdout)
    run("render", saved, "--format", "pdf", "--rules", brutal, "-o", tmp_path / "prints")
    (sheet,) = (tmp_path / "prints").glob("0000-*.pdf")
    assert "damage + 15" in pdf_text(sheet.read_bytes())[0]  # the overlay's CS bonus, not the built-in +10
    single = run("render", saved, "--format", "pdf", "--rules", brutal)
    assert single.stdout_bytes == sheet.read_bytes()


def test_an_own_module_renders_from_generate(tmp_path):
    import shutil

    from chargen.rules import BUILTIN_DIR

    folder = tmp_path / "mods" / "kotm_grim"
    shutil.copytree(BUILTIN_DIR / "kotm", folder)
    module_yaml = folder / "module.yaml"
    module_yaml.write_text(module_yaml.read_text().replace("id: kotm", "id: kotm_grim"))
    run("generate", "--rules-dir", tmp_path / "mods", "--system", "kotm_grim", "--seed", 1, "--count", 2,
        "--format", "pdf", "-o", tmp_path / "out", "--jobs", 1)
    reader = pypdf.PdfReader(str(tmp_path / "out" / "party.pdf"))
    assert len(reader.pages) == 1 + 2


# --- party bundles ----------------------------------------------------------------

@pytest.mark.parametrize("system,cover,figure", [
    ("kotm", "0 Hale Blackthorn Ranger · Level 12 · SD 50 · SC 12 · CF 7 · Spear 2–11 1",
     '<span class="aside">SD</span> <b>50</b>'),
    ("rtd", "0 Tad Oakley STR 13 · DEX 14 · CON 11 · INT 10 · WIS 10 · CHA 8 · Brawling Talented 1",
     '<span class="aside">STR</span> <b>13</b>'),
])
def test_a_party_bundle(tmp_path, system, cover, figure):
    out = tmp_path / "party"
    run("generate", "--system", system, "--seed", 42, "--count", 3, "--format", "json,html,pdf", "-o", out,
        "--jobs", 2)
    reader = pypdf.PdfReader(str(out / "party.pdf"))
    assert len(reader.pages) == 1 + 3 and reader.page_labels == ["i", "1", "2", "3"]
    assert cover in " ".join(reader.pages[0].extract_text().split())
    for k, path in enumerate(sorted(out.glob("0*.json"))):
        doc = json.loads(path.read_text())
        text, pages = pdf_text(path.with_suffix(".pdf").read_bytes())
        assert pages == 1 and missing(doc, text) == []
        assert reader.pages[1 + k].extract_text() == pypdf.PdfReader(str(path.with_suffix(".pdf"))).pages[0].extract_text()
        assert doc["system"]["id"] == system
    index = (out / "index.html").read_text()
    assert figure in index and 'href="party.pdf"' in index
