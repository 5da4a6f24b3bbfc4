"""The engine contract: one conformance suite for every registered engine, the toy engine that
lives only in tests/toy, and the probes of house rules that used to crash or misplay."""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen import engines
from chargen.cli import cli
from chargen.dice import Roller, new_rng
from chargen.generate import make_character, make_character_traced
from chargen.render.html import HtmlRenderer
from chargen.run.figures import figured
from chargen.render.templates import TemplateSet
from chargen.resolve import resolve
from chargen.rules import load_builtin, load_module
from chargen.serialize import validate

ROOT = Path(__file__).parent.parent
HOUSE = ROOT / "examples" / "house-rules"


@pytest.fixture(scope="module", autouse=True)
def toy():
    """The toy engine registered (by importing its module, as a user's engine would be) for this
    module's tests, and gone after them."""
    import importlib

    engine = importlib.import_module("tests.toy.engine")
    if engines.get("toy") is None:
        importlib.reload(engine)
    yield engine
    engines.unregister("toy")


def module_of(engine_id: str):
    if engine_id in engines.BUILTIN:
        return load_builtin(engine_id)
    from tests.toy.engine import RULES_DIR

    return load_module(engine_id, rules_dirs=[RULES_DIR])


def run(*args, ok=True):
    result = CliRunner().invoke(cli, [str(a) for a in args], prog_name="chargen")
    if ok:
        assert result.exit_code == 0, result.output
    return result


ENGINE_IDS = ["d100", "kotm", "rtd", "toy"]


def test_the_registry_lists_every_engine():
    assert [e.id for e in engines.all_engines()] == ENGINE_IDS


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
def test_characters_fit_the_schema_and_the_rules_bounds(engine_id):
    module = module_of(engine_id)
    engine = engines.require(engine_id)
    names = set()
    for seed in (1, 42, 2**63):
        for i in range(40):
            doc = make_character(module, seed, i)
            validate(doc, f"{engine_id} {seed}/{i}", module.rules)
            names.add((seed, doc["identity"]["name"]))
            for pointer, (low, high) in engine.bounds(module.rules).items():
                assert low <= high, pointer
    assert len(names) == 3 * min(40, 8) or len(names) == 3 * 40  # toy has 8 names: unique while they last


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
def test_every_layout_renders(engine_id):
    module = module_of(engine_id)
    doc = make_character(module, 42, 3)
    for layout in engines.require(engine_id).layouts:
        html = HtmlRenderer(TemplateSet.load()).sheet(figured(doc, (), layout), True, layout=layout)
        assert doc["identity"]["name"] in html and "chargen generate" in html  # the line that makes it again
        assert f"--seed {doc['seed']['batch']}" in html and f"--index {doc['seed']['index']}" in html


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
def test_every_roll_example_resolves(engine_id):
    engine = engines.require(engine_id)
    assert engine.roll_examples, "an engine that resolves rolls shows how"
    names = [o.name for o in engine.roll_options]
    for example in engine.roll_examples:
        assert set(example) <= set(names)
        result = resolve(module_of(engine_id), Roller(new_rng(7)), {n: example.get(n) for n in names})
        assert result.system == engine_id and result.steps and result.text().startswith(result.summary)


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
def test_names_are_unique_whatever_order_the_engine_rolls_in(engine_id):
    module = module_of(engine_id)
    docs = [make_character(module, 5, i) for i in range(8)]
    assert len({d["identity"]["name"] for d in docs}) == 8
    assert make_character(module, 5, 6) == docs[6]  # the same alone as in its batch


def test_the_trail_explains_derived_values(d100):
    doc, trail = make_character_traced(d100, 42, 7)
    hp = trail.explain("combat.hit_points")
    assert hp.value == doc["combat"]["hit_points"]
    assert hp.inputs == {k: doc["characteristics"][k] for k in ("con", "siz", "pow")}
    assert hp.rule == "con plus the hit-point rows of siz, pow, at least 1"
    assert trail.explain("no.such.path") is None


# --- the toy engine through the command line --------------------------------

def test_toy_is_listed_generated_rendered_and_rolled(tmp_path, toy):
    rules_dir = toy.RULES_DIR
    listed = run("systems", "--rules-dir", rules_dir).stdout.splitlines()
    assert listed[-1].startswith("toy    Toy 0.1.0 - 1D6 at or under MIGHT [")
    doc = json.loads(run("generate", "--system", "toy", "--rules-dir", rules_dir, "--seed", "3", "--index", "2").stdout)
    assert doc["system"]["engine"] == "toy" and set(doc["characteristics"]) == {"might", "wits"}
    run("generate", "--system", "toy", "--rules-dir", rules_dir, "--seed", "3", "--count", "4", "--format",
        "json,html", "-o", tmp_path / "out")
    sheets = sorted((tmp_path / "out").glob("000*.html"))
    assert len(sheets) == 4 and f"Bonus {doc['bonus']:+d}".replace("+0", "0") in sheets[2].read_text()
    rolled = run("roll", "--system", "toy", "--rules-dir", rules_dir, "--might", "4", "--seed", "1").stdout
    assert rolled.startswith("Toy roll (MIGHT 4): ")
    assert "--might INTEGER" in run("roll", "--help").stdout


# --- the probes: house rules that crashed or misplayed ----------------------

def test_epic_level_kotm_characters_render_with_their_overlay(tmp_path):
    epic = HOUSE / "epic-kotm.yaml"
    run("generate", "--system", "kotm", "--seed", "42", "--count", "40", "--rules", epic, "-o", tmp_path / "epic")
    files = sorted((tmp_path / "epic").glob("0*.json"))
    levels = {json.loads(f.read_text())["level"] for f in files}
    assert max(levels) > 15
    run("render", *files, "--rules", epic, "--format", "html", "-o", tmp_path / "sheets")
    assert len(list((tmp_path / "sheets").glob("0*.html"))) == 40
    # three runs of levels instead of two, so the sheet keeps to one page on either paper
    from pypdf import PdfReader

    for paper in ("a4", "letter"):
        pdf = tmp_path / f"{paper}.pdf"
        r = run("render", files[0], "--rules", epic, "--format", "pdf", "--paper", paper)
        pdf.write_bytes(r.stdout_bytes)
        assert len(PdfReader(pdf).pages) == 1, paper
    # the bounds are the rules': a hand edit past the epic levels is refused
    doc = json.loads(files[0].read_text())
    doc["level"] = 21
    files[0].write_text(json.dumps(doc))
    r = run("render", files[0], "--rules", epic, "--format", "html", "-o", tmp_path / "again", ok=False)
    assert r.exit_code == 1 and r.output.endswith("level: 21 is greater than the maximum of 20\n")


def test_a_mixed_party_renders_with_one_overlay(tmp_path):
    run("generate", "--system", "d100", "--seed", "1", "--count", "2", "-o", tmp_path / "d")
    run("generate", "--system", "kotm", "--seed", "1", "--count", "2", "--rules", HOUSE / "epic-kotm.yaml",
        "-o", tmp_path / "k")
    files = sorted((tmp_path / "d").glob("0*.json")) + sorted((tmp_path / "k").glob("0*.json"))
    # two characters of each system share an index: render them into two folders
    run("render", files[0], files[3], "--rules", HOUSE / "epic-kotm.yaml", "--format", "html", "-o", tmp_path / "p")
    assert len(list((tmp_path / "p").glob("0*.html"))) == 2


def test_an_overlay_for_no_character_given_is_an_error(tmp_path):
    run("generate", "--system", "d100", "--seed", "1", "-o", tmp_path / "d")
    r = run("render", *(tmp_path / "d").glob("0*.json"), "--rules", HOUSE / "epic-kotm.yaml", "-o",
            tmp_path / "p", ok=False)
    assert r.exit_code == 1
    assert "this overlay changes module 'kotm', and no character given was made with it" in r.output


def test_roll_an_own_module():
    r = run("roll", "--system", "mykotm", "--rules-dir", HOUSE / "modules", "--sd", "30", "--level", "4",
            "--seed", "2", "--damage-mod", "1")
    assert r.stdout.startswith("KoTM attack (SD 30, level 4): Outstanding Success, 30 damage\n")


def test_roll_with_an_overlay_uses_it(tmp_path):
    overlay = tmp_path / "triple.yaml"
    overlay.write_text("overlay: kotm\nname: Triple OS\nchanges:\n  attack:\n    set:\n      damage.os.multiply: 3\n")
    r = run("roll", "--system", "kotm", "--rules", overlay, "--sd", "30", "--level", "4", "--seed", "2")
    assert r.stdout.startswith("KoTM attack (SD 30, level 4): Outstanding Success, 42 damage\n")


def test_roll_rules_need_a_system():
    r = run("roll", "3D6", "--rules", HOUSE / "epic-kotm.yaml", ok=False)
    assert r.exit_code == 2 and "--rules and --rules-dir need --system" in r.output


def test_an_engine_declares_the_options_it_takes():
    r = run("roll", "--system", "kotm", "--sd", "30", "--level", "4", "--might", "3", ok=False)
    assert r.exit_code == 2 and "--might does not apply to --system kotm" in r.output


def test_a_copied_own_module_folder_is_found(tmp_path):
    shutil.copytree(HOUSE / "modules", tmp_path / "mods")
    assert "mykotm" in run("systems", "--rules-dir", tmp_path / "mods").stdout
