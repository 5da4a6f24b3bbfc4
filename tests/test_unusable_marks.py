"""A weapon its bearer cannot use is marked in every layout and export (issue 22, point 1: the marks)."""

import json

import pytest
import yaml

from chargen.formats import FORMATS, BatchInfo
from chargen.generate import GenerationRequest, make_character
from chargen.pins import resolve
from chargen import engines

MARK = "cannot use: STR/DEX"


@pytest.fixture
def weak(d100):
    """A soldier of STR 3, DEX 3: most of the profession's kit is below its minimums."""
    targets = engines.require(d100.engine).pins(d100.rules)
    request = GenerationRequest(archetype="soldier",
                                pins=resolve(targets, ["characteristics.str=3", "characteristics.dex=3"]))
    doc = make_character(d100, 3, 0, request)
    assert [w for w in doc["weapons"] if w["below_minimum"]] and [w for w in doc["weapons"] if not w["below_minimum"]]
    return doc


def marked(doc):
    return {w["label"]: f"{MARK} {w['below_minimum']['str']}/{w['below_minimum']['dex']} short"
            for w in doc["weapons"] if w["below_minimum"]}


def usable(doc):
    return [w["label"] for w in doc["weapons"] if not w["below_minimum"]]


def joined(name, doc):
    fmt = FORMATS[name]
    return fmt.join([fmt.part(doc)], BatchInfo("d100", "P")).decode("utf-8-sig")


def test_text_blocks_mark_each_weapon_its_bearer_cannot_use(weak):
    line = next(ln for ln in joined("text", weak).splitlines() if ln.startswith("Weapons: "))
    weapons = line.removeprefix("Weapons: ").split("; ")
    for label, mark in marked(weak).items():
        assert next(w for w in weapons if w.startswith(label + " ")).endswith(f"({mark})")
    assert all(MARK not in w for w in weapons if w.split(" ")[0] in usable(weak))


def test_the_roster_marks_them_in_its_weapons_column(weak):
    import csv
    import io

    row = list(csv.DictReader(io.StringIO(joined("csv", weak))))[0]
    cells = row["weapons"].split("; ")
    for label, mark in marked(weak).items():
        assert next(c for c in cells if c.startswith(label + " ")).endswith(f"({mark})")
    assert row["weapons"].count(MARK) == len(marked(weak))


def test_meg_marks_them_in_the_weapon_effects_and_reads_its_own_file_without_a_notice(weak):
    from chargen.systems.d100.interop.meg_read import read_meg

    npc = json.loads(FORMATS["meg"].to_bytes(weak))
    npc = npc[0] if isinstance(npc, list) else npc
    effects = {w["name"]: w["effects"] for s in npc["combat_styles"] for w in s["weapons"]}
    for label, mark in marked(weak).items():
        assert effects[label].split(", ")[-1] == mark
    assert all(MARK not in effects[label] for label in usable(weak))
    notices = []
    read_meg([npc], "npc.meg.json", notices.append)
    assert not [n for n in notices if "effects" in n]


def test_foundry_marks_them_in_the_item_description(weak):
    actor = json.loads(FORMATS["foundry"].to_bytes(weak))
    items = {i["name"]: i["system"] for i in actor["items"] if i["type"] == "skill"}
    for label, mark in marked(weak).items():
        assert items[label]["description"] == f"<p>C{mark[1:]}.</p>"
    assert all("description" not in items[label] for label in usable(weak))


def test_the_statblock_note_marks_them(weak):
    import re

    text = FORMATS["statblock"].to_bytes(weak).decode("utf-8")
    front = yaml.safe_load(text.split("```statblock\n", 1)[1].split("\n```", 1)[0])
    unescape = lambda t: re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", t)  # noqa: E731 - the note's Markdown escapes
    desc = {unescape(w["name"]): unescape(w["desc"]) for w in front["weapons"]}
    for label, mark in marked(weak).items():
        assert desc[label].endswith(", " + mark)
    assert all(MARK not in desc[label] for label in usable(weak))
