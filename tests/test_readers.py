"""Reading characters back: chargen JSON/YAML, MEG JSON (list or party), PDFs with the document
embedded; the round trips JSON -> PDF -> JSON and MEG -> chargen -> MEG."""

import json
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.errors import CharacterError
from chargen.formats import FORMATS
from chargen.systems.d100.interop.meg import npc
from chargen.systems.d100.interop.meg_read import read_meg
from chargen.generate import make_character
from chargen.run.readers import read_documents
from chargen.run.sheets import SheetRenderer
from chargen.render.html import HtmlRenderer
from chargen.run.figures import figured
from chargen.render.templates import TemplateSet
from chargen.serialize import to_json, to_yaml

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "meg" / "bandits.meg.json"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def renderer():
    return SheetRenderer()


@pytest.fixture(scope="module")
def doc(d100):
    return make_character(d100, 42, 3)


def test_chargen_json_and_yaml_and_a_manifest(doc, tmp_path):
    (tmp_path / "a.json").write_text(to_json(doc))
    (tmp_path / "a.yaml").write_text(to_yaml(doc))
    assert read_documents(tmp_path / "a.json") == [(str(tmp_path / "a.json"), doc)]
    assert read_documents(tmp_path / "a.yaml")[0][1] == doc
    run("generate", "--seed", "1", "--count", "2", "-o", tmp_path / "b")
    assert read_documents(tmp_path / "b" / "manifest.json") == []


@pytest.mark.parametrize("system", ["d100", "kotm", "rtd"])
def test_json_to_pdf_to_json_is_identical(system, renderer, tmp_path):
    from chargen.rules import load_builtin

    doc = make_character(load_builtin(system), 42, 5)
    doc["notes"] = "Hand edit: owes the miller 3 sp. \u00c6thelric \u2603"
    pdf = FORMATS["pdf"].to_bytes(doc, renderer)
    embedded = pypdf.PdfReader(__import__("io").BytesIO(pdf)).attachments["character.json"][0]
    assert embedded == to_json(doc).encode("utf-8")  # the file chargen writes, byte for byte
    (tmp_path / "s.pdf").write_bytes(pdf)
    assert read_documents(tmp_path / "s.pdf") == [(f"{tmp_path / 's.pdf'}#character.json", doc)]
    assert FORMATS["pdf"].to_bytes(doc, renderer) == pdf  # still byte-deterministic


def test_party_pdf_carries_the_manifest_and_every_character(tmp_path):
    out = tmp_path / "b"
    assert run("generate", "--seed", "4", "--count", "3", "--format", "json,pdf", "-o", out).exit_code == 0
    files = pypdf.PdfReader(out / "party.pdf").attachments
    manifest = json.loads(files["manifest.json"][0])
    final = json.loads((out / "manifest.json").read_text())
    assert manifest["characters"] == final["characters"] and manifest["seed"] == 4
    docs = read_documents(out / "party.pdf")
    jsons = sorted(out.glob("0*.json"))
    assert [d for _, d in docs] == [json.loads(p.read_text()) for p in jsons]
    assert [label.split("#")[1] for label, _ in docs] == [p.name for p in jsons]


def test_render_reads_a_sheet_pdf_back(doc, renderer, tmp_path):
    (tmp_path / "s.pdf").write_bytes(FORMATS["pdf"].to_bytes(doc, renderer))
    r = run("render", tmp_path / "s.pdf", "--format", "html")
    assert r.exit_code == 0, r.output
    assert r.stdout == HtmlRenderer(TemplateSet.load()).sheet(figured(doc))


def test_a_pdf_without_a_character_is_one_clear_line(tmp_path):
    writer = pypdf.PdfWriter()
    writer.add_blank_page(100, 100)
    with open(tmp_path / "other.pdf", "wb") as f:
        writer.write(f)
    r = run("render", tmp_path / "other.pdf", "-o", tmp_path / "out")
    assert r.exit_code == 1 and r.stderr == (
        f"Error: {tmp_path / 'other.pdf'}: a PDF with no character in it (chargen's PDFs carry "
        "'character.json'; this one was made elsewhere or before they did)\n")
    (tmp_path / "fake.pdf").write_text("not a pdf")
    r = run("render", tmp_path / "fake.pdf", "-o", tmp_path / "out2")
    assert r.exit_code == 1 and "not a PDF (it does not start with %PDF-)" in r.stderr


# --- MEG ---------------------------------------------------------------------------------------------

def test_meg_to_chargen_to_meg_keeps_every_field(d100):
    for i in range(150):
        original = npc(make_character(d100, 9, i))
        notices = []
        (_, doc), = read_meg([json.loads(json.dumps(original))], "x.json", notices.append)
        assert npc(doc) == original and notices == []


def test_a_meg_party_and_a_meg_list_read_as_every_npc(tmp_path):
    out = tmp_path / "b"
    assert run("generate", "--seed", "4", "--count", "3", "--format", "json,meg", "-o", out).exit_code == 0
    party = read_documents(out / "party.meg.json")
    saved = [p for p in sorted(out.glob("0*.json")) if not p.name.endswith(".meg.json")]
    assert [d["identity"]["name"] for _, d in party] == [json.loads(p.read_text())["identity"]["name"] for p in saved]
    one = read_documents(next(out.glob("0001-*.meg.json")))
    assert len(one) == 1 and one[0][1] == party[1][1]
    # what chargen wrote comes back as the figures it had
    original = json.loads(next(p for p in out.glob("0001-*.json") if not p.name.endswith(".meg.json")).read_text())
    back = one[0][1]
    for key in ("characteristics", "combat", "skills", "hit_locations", "armour", "equipment", "background"):
        assert back[key] == original[key], key
    assert [(w["label"], w["attack"], w["parry"]) for w in back["weapons"]] == \
        [(w["label"], w["attack"], w["parry"]) for w in original["weapons"]]


def test_a_meg_file_from_elsewhere_reads_with_one_line_per_field_not_read():
    notices = []
    (label, doc), = read_documents(EXAMPLE, notices.append)
    where = f"{EXAMPLE}[0] (Orsk the Tall)"
    assert notices == [  # in the order of the NPC's fields
        f"{where}: cult_rank: D100 II has no cult rank; not read",
        f"{where}: folk_spells: 1 entry; D100 II characters here have none; not read",
        f"{where}: combat_styles[0].weapons[0].ap: D100 II weapons have no armour points (only shields); not read",
        f"{where}: combat_styles[0].weapons[0].effects: D100 II knows one of impale, slash, crush; not read",
        f"{where}: combat_styles[0].weapons[1].ap: D100 II weapons have no armour points (only shields); not read",
        f"{where}: combat_styles[0].name 'Ford Bandit': D100 II has a skill per weapon, not combat styles "
        "(its value is each weapon's attack); not read",
        f"{where}: attributes.strike_rank: Mythras strike rank has no D100 II equivalent (SIZ and DEX strike "
        "ranks are taken from the D100 II rules); not read",
        f"{where}: features 'Combat Style Trait: Intimidating Scream': not a feature chargen reads; not read",
    ]
    assert label == where and doc["identity"]["name"] == "Orsk the Tall"
    assert doc["characteristics"] == {"str": 15, "con": 13, "siz": 16, "int": 10, "pow": 9, "dex": 11, "cha": 8}
    skills = {s["label"]: s["value"] for s in doc["skills"]}
    assert skills["Climbing"] == 35 and skills["Listen"] == 40 and skills["Hide in Cover"] == 25
    assert skills["Athletics"] == 48  # a Mythras skill no one D100 II skill stands for: kept as its own
    assert doc["combat"]["damage_modifier"] == "+1D4" and doc["combat"]["pow_points"] == 9 and doc["combat"]["mov"] == 6
    axe, javelin = doc["weapons"]
    assert (axe["id"], axe["kind"], axe["attack"], axe["damage"], axe["damage_modifier"]) == \
        ("battle_axe", "melee", 55, "1D8+2", "+1D4")
    assert (javelin["kind"], javelin["range"], javelin["parry"]) == ("missile", 10, None)
    assert [h["id"] for h in doc["hit_locations"]][:2] == ["right_leg", "left_leg"]
    assert doc["notes"] == "Leads the bandits; demands a toll of 5 silver."
    assert doc["system"]["overlays"][0]["name"] == "MEG import"


def test_render_takes_a_meg_party(tmp_path):
    r = run("render", EXAMPLE, "--format", "html", "-o", tmp_path / "out")
    assert r.exit_code == 0, r.output
    assert r.stderr.count("not read") == 8 and r.stderr.startswith(f"chargen: {EXAMPLE}[0] (Orsk the Tall): cult_rank")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["0000-orsk-the-tall.html", "index.html"]
    sheet = (tmp_path / "out" / "0000-orsk-the-tall.html").read_text()
    assert "read from MEG JSON: made elsewhere" in sheet and "reproduce with" not in sheet  # no command makes it


@pytest.mark.parametrize("change, message", [
    (lambda n: n["hit_locations"][0].update(range="left"), "hit_locations[0].range: expected a range like \"01-03\", not 'left'"),
    (lambda n: n.update(stats=[{"STR": 10}]), "stats: no CON (D100 II needs STR, CON, SIZ, DEX, INT, POW, CHA)"),
    (lambda n: n["stats"][0].update(STR="big"), "stats[0].STR: expected a number, not 'big'"),
    (lambda n: n.update(hit_locations=[]), "hit_locations: none (a D100 II sheet needs at least one)"),
])
def test_a_meg_field_that_cannot_be_read_is_one_clear_error(change, message, tmp_path):
    data = json.loads(EXAMPLE.read_text())
    change(data["enemies"][0])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    r = run("render", path, "-o", tmp_path / "out")
    assert r.exit_code == 1 and r.stderr.splitlines()[-1] == f"Error: {path}[0] (Orsk the Tall): {message}"
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_json_list_that_is_not_meg_is_refused(tmp_path):
    (tmp_path / "l.json").write_text("[1, 2]")
    with pytest.raises(CharacterError, match="a JSON list that is neither a MEG enemies list .* nor Foundry brp actors"):
        read_documents(tmp_path / "l.json")


def _pdf_with(tmp_path, files: dict) -> Path:
    writer = pypdf.PdfWriter()
    writer.add_blank_page(100, 100)
    for name, data in files.items():
        writer.add_attachment(name, data)
    path = tmp_path / "made.pdf"
    with open(path, "wb") as f:
        writer.write(f)
    return path


@pytest.mark.parametrize("files, message", [
    ({"character.json": b"{\"schema\": 1"}, "#character.json:1: not valid JSON"),
    ({"character.json": b"{\"schema\": \"chargen-character/1\"}"}, "#character.json: (top level): 'system' is a required property"),
    ({"character.json": b"\xff\xfe"}, "#character.json: not UTF-8 text"),
    ({"character.json": b" " * 1_000_001}, "#character.json: embedded file larger than 1000000 bytes"),
])
def test_a_hostile_embedded_document_is_one_clear_line(files, message, tmp_path):
    path = _pdf_with(tmp_path, files)
    r = run("render", path, "-o", tmp_path / "out")
    assert r.exit_code == 1 and r.stderr.startswith(f"Error: {path}") and message in r.stderr, r.stderr
    assert len(r.stderr.splitlines()) == 1


def test_a_truncated_pdf_is_one_clear_line(doc, renderer, tmp_path):
    data = FORMATS["pdf"].to_bytes(doc, renderer)
    (tmp_path / "cut.pdf").write_bytes(data[: len(data) // 3])
    r = run("render", tmp_path / "cut.pdf", "-o", tmp_path / "out")
    assert r.exit_code == 1 and r.stderr == f"Error: {tmp_path / 'cut.pdf'}: not a PDF chargen can read (Stream has ended unexpectedly)\n"


def _paths(value, path=()):
    yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from _paths(item, path + (key,))


def test_any_field_of_any_json_type_reads_or_is_one_clear_error():
    """Every field of a MEG party replaced by every kind of JSON value: read, or a CharacterError."""
    base = json.loads(EXAMPLE.read_text())
    values = [None, True, 0, -5, 10**30, 1.5, "x", "", [], {}, [1], ["a"], {"a": 1}, [{"a": "b"}], [[1]], "01-03"]
    tried = 0
    for path in list(_paths(base))[1:]:
        for value in values:
            data = json.loads(json.dumps(base))
            node = data
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
            try:
                read_meg(data, "x", lambda m: None)
            except CharacterError:
                pass
            tried += 1
    assert tried > 1500


def test_a_meg_npc_from_elsewhere_keeps_every_field_chargen_reads():
    """MEG -> chargen -> MEG: what chargen reads comes out as it came in."""
    original = json.loads(EXAMPLE.read_text())["enemies"][0]
    (_, doc), = read_documents(EXAMPLE)
    again = npc(doc)
    assert again["name"] == original["name"] and again["stats"] == original["stats"]
    totals = {k: v for s in again["skills"] for k, v in s.items()}
    assert totals["Athletics"] == 48  # the Mythras skill as it came; D100 II's skills under Mythras names:
    assert "D100 II skills: Climbing 35%, Jumping 15%, Listen 40%" in " ".join(again["features"])
    assert totals["Perception"] == 40 and totals["Stealth"] == 25  # the best of Listen, Spot ...; of Hide in Cover, ...
    assert [{k: h[k] for k in ("name", "range", "hp", "ap")} for h in again["hit_locations"]] == original["hit_locations"]
    weapons = [w for s in again["combat_styles"] for w in s["weapons"]]
    dm = original["attributes"]["damage_modifier"]  # D100 II's modifier written into the damage it adds to
    assert [(w["name"], w["damage"], w["type"], w["hp"]) for w in weapons] == \
        [(w["name"], w["damage"] + (dm if w["add_damage_modifier"] else ""), w["type"], w["hp"])
         for w in original["combat_styles"][0]["weapons"]]
    assert [s["value"] for s in again["combat_styles"]] == [55, 55]
    assert weapons[1]["range"].split("/")[0] == "10" and weapons[0]["add_damage_modifier"] is False
    for key in ("damage_modifier", "magic_points", "movement"):
        assert again["attributes"][key] == original["attributes"][key]
    assert again["notes"].endswith(original["notes"])


def test_a_meg_weapon_the_rules_know_gets_their_strike_rank_and_minimums():
    """A MEG weapon matched by name to a D100 II weapon takes the rules' SR (melee: SIZ + DEX + the
    weapon's; missile: DEX) and its minimum STR and DEX, which MEG does not carry."""
    from chargen.run.readers import read_documents

    _, doc = read_documents(EXAMPLE)[0]
    sr = doc["combat"]["strike_ranks"]
    axe, javelin = (next(w for w in doc["weapons"] if w["label"] == n) for n in ("Battle axe", "Javelin"))
    assert axe["sr"] == sr["siz"] + sr["dex"] + 3 and (axe["min_str"], axe["min_dex"]) == (13, 9)
    assert javelin["sr"] == sr["dex"] and (javelin["min_str"], javelin["min_dex"]) == (9, 9)
