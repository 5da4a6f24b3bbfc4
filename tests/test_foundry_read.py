"""Printing what Foundry holds: brp actors (chargen's, read back; one made by hand in Foundry, from
brp's template.json shapes) through chargen render; hostile actor files fail with one Error line."""

import copy
import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.formats import FORMATS, BatchInfo
from chargen.generate import GenerationRequest, make_character
from chargen.systems.d100.interop.foundry_read import is_foundry, read_foundry

HAND_MADE = Path(__file__).resolve().parents[1] / "examples" / "foundry" / "hand-made-sergeant.json"
ARCHETYPES = ("town_guard", "hedge_archer", "bandit_chief", "priest_scholar")


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def batch(d100):
    return [make_character(d100, 42, i, GenerationRequest(archetype=a)) for a in ARCHETYPES for i in range(3)]


def actor_of(doc, fmt="foundry", flags=True):
    actor = json.loads(FORMATS[fmt].to_bytes(doc))
    if not flags:
        actor["flags"] = {}  # as if chargen's document were lost: only what brp holds is read
    return actor


def text_block(doc) -> list[str]:
    """The text stat block's lines (the view every layout draws from), less the header line that
    names the seed and rules."""
    return FORMATS["text"].join([FORMATS["text"].part(doc)], BatchInfo("d100", "x")).decode().splitlines()[2:]


@pytest.mark.parametrize("fmt", ["foundry", "foundry_npc"])
def test_an_actor_chargen_exported_reads_back_as_its_document(batch, fmt):
    for doc in batch:
        (_, back), = read_foundry(actor_of(doc, fmt), "a.json", pytest.fail)
        assert back == doc


@pytest.mark.parametrize("fmt", ["foundry", "foundry_npc"])
def test_what_brp_holds_alone_gives_the_same_sheet_values(batch, fmt):
    notices = []
    for doc in batch:
        (_, back), = read_foundry(actor_of(doc, fmt, flags=False), "a.json", notices.append)
        assert text_block(back) == text_block(doc), doc["identity"]["name"]
        assert back["system"]["overlays"][0]["name"] == "Foundry import"
    assert notices == []


def test_an_actor_edited_in_foundry_shows_the_edit(batch):
    actor = actor_of(batch[0])
    skill = next(i for i in actor["items"] if i["name"] == "Climbing")
    skill["system"]["xp"] += 7
    (_, back), = read_foundry(actor, "a.json", pytest.fail)
    before = next(s for s in batch[0]["skills"] if s["label"] == "Climbing")["value"]
    assert next(s for s in back["skills"] if s["label"] == "Climbing")["value"] == before + 7
    assert back["seed"] == batch[0]["seed"] and back["system"]["overlays"][0]["name"] == "Foundry import"


def test_the_hand_made_actor_figures_as_brp_prepares_them():
    notices = []
    (_, doc), = read_foundry(json.loads(HAND_MADE.read_text()), "hm.json", notices.append)
    assert doc["combat"]["hit_points"] == 14  # ceil((13 + 15) / 2) + health.mod 0
    assert [(h["label"], h["hp"], h["ap"]) for h in doc["hit_locations"]] == [
        ("Right Leg", 5, 0), ("Left Leg", 5, 0), ("Abdomen", 5, 5), ("Chest", 6, 5), ("Right Arm", 4, 0),
        ("Left Arm", 4, 0), ("Head", 5, 2)]  # ceil(14 / 3) + adj; AP of the worn armour linked to each
    assert doc["combat"]["mov"] == 10
    weapons = {w["label"]: (w["attack"], w["parry"], w["damage"], w["damage_modifier"]) for w in doc["weapons"]}
    assert weapons == {"Broadsword": (45, 45, "1D8+1", "+1D4"), "Medium Shield": (None, 35, "1D4", "+1D4"),
                       "Javelin": (0, None, "1D6", "+1D2")}
    skills = {s["label"]: s["value"] for s in doc["skills"]}
    assert (skills["Listen"], skills["Insight"], skills["Dodge"]) == (40, 25, 25)  # fields + the skillcat's mod
    assert [n.split(": ", 1)[1] for n in notices] == [
        "items[12] 'Javelin' system.skill1: no skill of this actor has that BRPID (the attack is shown as 0%); not read",
        "items[24] 'Loyalty (the Watch)': a brp passion item; D100 II characters here have none; not read",
        "items[25] 'Wound': a brp wound item; D100 II characters here have none; not read",
        "effects: 1 active effect; not read",
        "system.sanity: D100 II has no such figure; not read",
        "system.fatigue: D100 II has no such figure; not read",
    ]


@pytest.mark.parametrize("layout", ["sheet", "block", "card"])
def test_render_prints_foundry_actors_in_every_layout(batch, tmp_path, layout):
    party = tmp_path / "party.foundry.json"
    party.write_bytes(FORMATS["foundry"].join([FORMATS["foundry"].part(d) for d in batch[:2]], BatchInfo("d100", "x")))
    r = run("render", party, HAND_MADE, "--layout", layout, "--each-pdf", "--format", "pdf", "-o", tmp_path / "out")
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines()[-1] == f"chargen: rendered 3 sheets and party.pdf to {tmp_path / 'out'}"
    assert len(list((tmp_path / "out").glob("0*.pdf"))) == 3


def test_a_folder_of_actor_files(batch, tmp_path):
    folder = tmp_path / "actors"
    folder.mkdir()
    for n, doc in enumerate(batch[:3]):
        (folder / f"{n}.json").write_bytes(FORMATS["foundry"].to_bytes(doc))
    r = run("render", folder, "--format", "html", "-o", tmp_path / "out")
    assert r.exit_code == 0, r.output
    assert len(list((tmp_path / "out").glob("0*.html"))) == 3


def pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_the_same_sheet_from_chargens_json_and_its_foundry_actor(batch, tmp_path):
    (tmp_path / "c.json").write_text(json.dumps(batch[4]))
    (tmp_path / "c.foundry.json").write_bytes(FORMATS["foundry"].to_bytes(batch[4]))
    for name in ("c.json", "c.foundry.json"):
        assert run("render", tmp_path / name, "--format", "pdf", "-o", tmp_path / name.replace(".", "-")).exit_code == 0
    a, = (tmp_path / "c-json").glob("0*.pdf")
    b, = (tmp_path / "c-foundry-json").glob("0*.pdf")
    assert pdf_text(a) == pdf_text(b)


HOSTILE = {
    "stats not numbers": lambda a: a["system"]["stats"]["str"].update(base="many"),
    "items of strings": lambda a: a.update(items=["x", 3]),
    "no hit locations": lambda a: a.update(items=[i for i in a["items"] if i["type"] != "hit-location"]),
    "system a list": lambda a: a["items"][0].update(system=[1, 2]),
    "multi a string": lambda a: a.update(type="npc") or a["system"].update(hp={"stat1": "siz", "multi": "half"}),
    "flags not objects": lambda a: [i.update(flags={"brp": 3}) for i in a["items"]],
    "an item type a list": lambda a: a["items"][0].update(type=["skill"], name=["x"]),
    "infinite field": lambda a: a["items"][8]["system"].update(personal=float("inf")),
    "huge roll": lambda a: next(i for i in a["items"] if i["type"] == "hit-location")["system"].update(lowRoll=10**400),
}


@pytest.mark.parametrize("name", HOSTILE)
def test_an_odd_actor_file_is_one_error_line(batch, tmp_path, name):
    actor = actor_of(batch[0], flags=False)
    HOSTILE[name](actor)
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(actor))
    r = run("render", path, "--format", "html", "-o", tmp_path / "out")
    lines = r.stderr.splitlines()
    if r.exit_code == 0:  # read what it could: said what it could not, one line each
        assert all(line.startswith("chargen: ") for line in lines)
    else:
        assert r.exit_code == 1 and len([x for x in lines if x.startswith("Error: ")]) == 1, r.stderr
        assert not (tmp_path / "out").exists()


def test_a_broken_chargen_document_in_the_flags_is_one_line_and_the_actor_is_read(batch):
    actor = actor_of(batch[0])
    actor["flags"]["chargen"]["document"]["skills"][3] = {"value": "lots"}
    notices = []
    (_, doc), = read_foundry(actor, "a.json", notices.append)
    assert len(notices) == 1 and notices[0].startswith(f"a.json ({batch[0]['identity']['name']}): flags.chargen.document: skills.3: ") and \
        notices[0].endswith("; not read (the actor's own fields are)")
    assert text_block(doc) == text_block(batch[0])


def test_is_foundry_tells_actors_from_other_json(batch):
    actor = actor_of(batch[0])
    assert is_foundry(actor) and is_foundry([actor, copy.deepcopy(actor)])
    assert not is_foundry([]) and not is_foundry({"name": "x", "stats": []}) and not is_foundry([actor, {"a": 1}])
