"""MEG out and in, tested by what the consumers' own code does (../shared/reference/formats.md section 5).

Models, not copies, of: the Foundry Mythras fork's actor builder (sw1v3l/mythras-fvtt-fork,
src/module/apps/encounter-generator/actor-builder.ts: skills matched, whole name or the name
before "(" or ":", against its standard and professional skill compendia, else a professional
skill on STR+STR; armour items built from hit_locations[].armor grouped by name and AP with the
summed hit_locations[].enc, equipment items from equipment; career from profile.career), and of
the Roll20 Mythras sheet's import handler (Roll20/roll20-character-sheets Mythras/src/scripts/
import.js: jsonData[0]; skills by exact name or by a word in them; the damage modifier it rolls is
Mythras' own, from STR+SIZ, on a weapon whose add_damage_modifier is true).
"""

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.formats import FORMATS, BatchInfo
from chargen.generate import make_character

# the Foundry fork's compendia (static/packs/standardskill.db, professionalskill.db): the names
FOUNDRY_STANDARD = {"athletics", "boating", "brawn", "conceal", "customs", "dance", "deceit", "drive", "endurance",
                    "evade", "first aid", "influence", "insight", "locale", "native tongue", "perception", "ride",
                    "sing", "stealth", "swim", "unarmed", "willpower"}
FOUNDRY_PROFESSIONAL = {"acrobatics", "acting", "art", "binding", "bureaucracy", "commerce", "courtesy", "craft",
                        "culture", "devotion", "disguise", "engineering", "exhort", "folk magic", "gambling", "healing",
                        "invocation", "language", "literacy", "lockpicking", "lore", "mechanisms", "meditation",
                        "musicianship", "mysticism", "navigation", "oratory", "seamanship", "seduction", "shaping",
                        "sleight", "streetwise", "survival", "teach", "track", "trance"}
# the Roll20 handler's exact names (standard, professional) and the words it files a specialty by
ROLL20_EXACT = FOUNDRY_STANDARD - {"native tongue"} | {"acting", "acrobatics", "bureaucracy", "commerce", "courtesy",
                                                       "disguise", "engineering", "gambling", "healing", "lockpicking",
                                                       "mechanisms", "navigation", "oratory", "seamanship",
                                                       "seduction", "sleight", "streetwise", "survival", "teach",
                                                       "track"}
ROLL20_WORDS = ("art", "craft", "culture", "knowledge", "language", "literacy", "lore", "musicianship")


def foundry_skill_type(name: str) -> str:
    low, base = name.lower(), re.split(r"[(:]", name)[0].strip().lower()
    if low in FOUNDRY_STANDARD or base in FOUNDRY_STANDARD:
        return "standardSkill"
    if low in FOUNDRY_PROFESSIONAL or base in FOUNDRY_PROFESSIONAL:
        return "professionalSkill"
    return "STR+STR"  # a professional skill on STR+STR holding the total: not a Mythras skill


def roll20_filing(name: str) -> str:
    low = name.lower()
    if low in ROLL20_EXACT or any(w in low for w in ROLL20_WORDS):
        return "skill"
    return "unknown"  # a Passion in the sheet formats.md ran; a bare professional skill in the stored version


def mythras_damage_modifier(strength: int, size: int) -> str:
    """Mythras' damage modifier from STR+SIZ, the one both importers roll: not D100 II's (formats.md section 5)."""
    total = strength + size
    steps = [(5, "-1d8"), (10, "-1d6"), (15, "-1d4"), (20, "-1d2"), (25, "+0"), (30, "+1d2"), (35, "+1d4"),
             (40, "+1d6"), (45, "+1d8"), (50, "+1d10")]
    return next((dm for top, dm in steps if total <= top), "+1d12")


def rolled_damage(weapon: dict, npc: dict) -> str:
    """The damage the importers roll: the weapon's, plus Mythras' modifier when it asks for one."""
    stats = {k: v for s in npc["stats"] for k, v in s.items()}
    extra = mythras_damage_modifier(stats["STR"], stats["SIZ"]) if weapon["add_damage_modifier"] else ""
    return weapon["damage"] + extra


def foundry_items(npc: dict) -> list[tuple[str, str]]:
    """The Foundry fork's armour and equipment items: (type, name)."""
    armour = {}
    for h in npc["hit_locations"]:
        if h.get("armor"):
            armour.setdefault(f"{h['armor']}|{h['ap']}", 0)
            armour[f"{h['armor']}|{h['ap']}"] += h.get("enc") or 0
    return [("armor", key.split("|")[0]) for key in armour] + [("equipment", e["name"]) for e in npc.get("equipment", [])]


@pytest.fixture(scope="module")
def batch24(d100):
    """The issue's batch: 6 each of town_guard, hedge_archer, bandit_chief, priest_scholar, seed 42."""
    out = []
    for archetype in ("town_guard", "hedge_archer", "bandit_chief", "priest_scholar"):
        r = CliRunner().invoke(cli, ["generate", "--system", "d100", "--seed", "42", "--archetype", archetype,
                                     "--count", "6", "--format", "json"])
        out += [json.loads(line) for line in _documents(r.stdout)]
    assert len(out) == 24
    return out


def _documents(text: str) -> list[str]:
    data = json.loads(text)
    return [json.dumps(d) for d in (data if isinstance(data, list) else [data])]


def npcs_of(docs):
    return [json.loads(FORMATS["meg"].to_bytes(d))[0] for d in docs]


def test_no_skill_is_filed_outside_mythras_skills(batch24):
    npcs = npcs_of(batch24)
    names = [k for n in npcs for s in n["skills"] for k in s]
    assert [n for n in names if foundry_skill_type(n) == "STR+STR"] == []
    assert [n for n in names if roll20_filing(n) == "unknown" and n != "Native Tongue"] == []


def test_the_damage_rolled_is_d100_iis(batch24):
    for doc, npc in zip(batch24, npcs_of(batch24)):
        weapons = [w for s in npc["combat_styles"] for w in s["weapons"]]
        for w, mine in zip(weapons, doc["weapons"]):
            dm = mine.get("damage_modifier")
            expected = (mine["damage"] or "0").lower() + ("" if dm in (None, "0") else
                                                          (dm if dm[0] in "+-" else "+" + dm).lower())
            assert rolled_damage(w, npc) == expected, (doc["identity"]["name"], w)


def test_each_armour_piece_is_one_foundry_item(batch24):
    for doc, npc in zip(batch24, npcs_of(batch24)):
        items = foundry_items(npc)
        held = Counter(piece for kind, name in items for piece in (name.split(", ") if kind == "armor" else [name]))
        assert all(held[a["label"]] == 1 for a in doc["armour"]), (doc["identity"]["name"], items)
        enc = {name: 0 for kind, name in items if kind == "armor"}
        for h in npc["hit_locations"]:
            if h["armor"]:
                enc[h["armor"]] += h["enc"]
        assert sum(enc.values()) == sum(a["enc"] for a in doc["armour"])  # Foundry's summed ENC: each piece's once


def test_career_is_the_profession_and_culture_the_background(batch24):
    for doc, npc in zip(batch24, npcs_of(batch24)):
        assert npc["profile"]["career"] == doc["experience"]["profession"]["label"]
        assert npc["profile"]["culture"] == npc["profile"]["social_class"] == doc["background"]["label"]


def test_roll20_reads_the_first_npc_of_the_batch_file(batch24):
    """Roll20: JSON.parse(pasted)[0] must be an NPC (a party object gave undefined and a TypeError)."""
    fmt = FORMATS["meg"]
    pasted = json.loads(fmt.join([fmt.part(d) for d in batch24], BatchInfo("d100", "=HYPERLINK(\"x\")")))
    assert isinstance(pasted, list) and pasted[0]["name"] == batch24[0]["identity"]["name"] and len(pasted) == 24
    assert "HYPERLINK" not in json.dumps(pasted)  # the party name is not in MEG's enemies file


# --- MEG in: chargen check and render -------------------------------------------------------------------

def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def _npc(**change) -> list[dict]:
    npc = {"name": "X", "stats": [{"STR": 10}, {"CON": 10}, {"SIZ": 10}, {"DEX": 10}, {"INT": 10}, {"POW": 10},
                                  {"CHA": 10}],
           "skills": [{"Athletics": 50}, {"Lore (Plants)": 40}, {"Ride": 33}],
           "hit_locations": [{"name": "Head", "range": "01-20", "hp": 5, "ap": 0}]}
    npc.update(change)
    return [npc]


@pytest.mark.parametrize("change, message", [
    ({"stats": [{"STR": 10**400}] + _npc()[0]["stats"][1:]}, "stats[0].STR: 1000000000000000000"),
    ({"hit_locations": [{"name": "Head", "range": "20-01", "hp": 5, "ap": 0}]}, "hit_locations[0].range: '20-01'"),
])
@pytest.mark.parametrize("command", [["check"], ["render", "--format", "html", "-o", "OUT"]])
def test_out_of_range_meg_is_one_error_line(tmp_path, change, message, command):
    path = tmp_path / "x.meg.json"
    path.write_text(json.dumps(_npc(**change)))
    r = run(*[str(tmp_path / "o") if a == "OUT" else a for a in command], path)
    assert r.exit_code == 1 and r.exception is None or isinstance(r.exception, SystemExit)
    lines = r.output.strip().split("\n")
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0], r.output


def test_check_says_in_one_line_why_a_meg_file_has_nothing_to_recompute(tmp_path):
    path = tmp_path / "x.meg.json"
    path.write_text(json.dumps(_npc()))
    r = run("check", path)
    assert r.exit_code == 0 and "give the same --rules" not in r.output
    assert r.stderr.count("\n") == 2 and "MEG JSON, 1 NPC read" in r.stderr and "no value can be recomputed" in r.stderr


def test_check_reads_a_chargen_pdf_as_render_does(tmp_path):
    out = tmp_path / "b"
    assert run("generate", "--seed", "7", "--count", "2", "--format", "pdf", "-o", out).exit_code == 0
    r = run("check", *sorted(out.glob("*.pdf")))
    assert r.exit_code == 0, r.output
    assert "4 characters checked, 0 values disagree" in r.stderr  # two sheets, and party.pdf's two


def test_a_mythras_npc_keeps_its_skills_on_sheet_block_and_card(tmp_path):
    from chargen.run.readers import read_text_documents

    (_, doc), = read_text_documents(json.dumps(_npc()), "x")
    skills = {s["label"]: s["value"] for s in doc["skills"]}
    assert skills["Athletics"] == 50 and skills["Lore (Plants)"] == 40 and skills["Riding"] == 33
    path = tmp_path / "x.meg.json"
    path.write_text(json.dumps(_npc()))
    for layout in ("sheet", "block", "card"):
        r = run("render", path, "--format", "html", "--layout", layout, "-o", tmp_path / layout)
        assert r.exit_code == 0, r.output
        html = (tmp_path / layout / "0000-x.html").read_text()
        assert "Athletics" in html and "Lore (Plants)" in html, layout
