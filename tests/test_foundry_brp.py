"""The foundry export read as brp 13.1 reads it: a Python model of brp's own actor preparation
(formats.md section 5; brp's module/actor/actor.mjs and the character sheet's score and weapon
linking) recomputes total HP, location HP and AP (the world's hit-location rule on and off), skill
scores with the category bonus, move and each weapon's skill and damage from the exported file, and
compares them with chargen's document. The model is written from brp's behaviour, not from chargen's
exporter: it must fail on an actor that carries the figures but not the fields brp computes from."""

import json
import math

import pytest

from chargen.formats import FORMATS
from chargen.generate import GenerationRequest, make_character

ARCHETYPES = ("town_guard", "hedge_archer", "bandit_chief", "priest_scholar")
STAT_PARTS = ("base", "redist", "culture", "exp", "effects", "age")
SKILL_PARTS = ("base", "xp", "effects", "profession", "personality", "personal", "culture")


@pytest.fixture(scope="module")
def batch24(d100):
    """The issue's batch: seed 42, four archetypes, six each."""
    return [make_character(d100, 42, i, GenerationRequest(archetype=a)) for a in ARCHETYPES for i in range(6)]


def stat(actor: dict, key: str) -> int:
    s = actor["system"]["stats"][key]
    return sum(s.get(p, 0) for p in STAT_PARTS)  # Foundry fills a missing field with template.json's 0


def total_hp(actor: dict, hp_mod: int = 1) -> int:
    system = actor["system"]
    if actor["type"] == "character":  # _prepDerivedStats, character
        return math.ceil((stat(actor, "con") + stat(actor, "siz")) * hp_mod / 2) + system["health"]["mod"]
    hp = system.get("hp", {"stat1": "siz", "stat2": "con", "multi": 0.5})  # template.json's npc default
    return math.ceil((stat(actor, hp["stat1"]) + stat(actor, hp["stat2"])) * hp["multi"]) + system["health"]["mod"]


def of_type(actor: dict, kind: str) -> list[dict]:
    return [i for i in actor["items"] if i["type"] == kind]


def brpid(item: dict) -> str:
    return item["flags"]["brp"]["brpidFlag"]["id"]


def skill_scores(actor: dict) -> dict[str, int]:
    """A character's sheet score: the item's total plus skillcategory[its category] (the skillcat whose
    BRPID is the category; brp's skillBonus setting at its default adds the skillcat's mod only).
    An npc's: base + effects. A category no skillcat has makes the score NaN in brp: here, a KeyError."""
    if actor["type"] == "npc":
        return {i["name"]: i["system"]["base"] + i["system"].get("effects", 0) for i in of_type(actor, "skill")}
    cats = {brpid(c): c["system"].get("mod", 0) for c in of_type(actor, "skillcat")}
    return {i["name"]: sum(i["system"].get(p, 0) for p in SKILL_PARTS) + cats[i["system"]["category"]]
            for i in of_type(actor, "skill")}


def locations(actor: dict, use_hpl: bool) -> list[tuple[str, int, int]]:
    """(displayName, maxHP, AP) of each hit location as brp prepares it: with useHPL, maxHP is
    ceil(total / fractionHP) + adj and AP the sum of worn armour items linked by hitlocID; without it,
    maxHP as stored and no location AP (worn armour adds up to one AP for the actor). An npc's AP is the
    location's own ``ap`` (its sheet shows it)."""
    hp = total_hp(actor)
    out = []
    for loc in of_type(actor, "hit-location"):
        s = loc["system"]
        max_hp = max(math.ceil(hp / s.get("fractionHP", 1)) + s.get("adj", 0), 0) if use_hpl else s.get("maxHP", 0)
        if actor["type"] == "npc":
            ap = s.get("ap", 0)
        else:
            ap = sum(a["system"]["av1"] for a in of_type(actor, "armour")
                     if use_hpl and a["system"].get("equipStatus") == "worn" and a["system"].get("hitlocID") == loc["_id"])
        out.append((s.get("displayName", ""), max_hp, ap))
    return out


DB = {"none": "", 0: ""}  # db other than none rolls brp's own damage-bonus table, not D100 II's


def weapons(actor: dict) -> list[tuple[str, str, int]]:
    """(name, damage rolled, score) of each weapon: the skill whose BRPID is ``skill1``, offered only
    when it is a combat skill (category i.skillcat.combat or ``combat: true``); an npc's ``npcVal``."""
    scores = skill_scores(actor)
    offered = {brpid(i): i["name"] for i in of_type(actor, "skill")
               if i["system"].get("combat") or i["system"]["category"] == "i.skillcat.combat"}
    out = []
    for w in of_type(actor, "weapon"):
        s = w["system"]
        score = s["npcVal"] if actor["type"] == "npc" else scores[offered[s["skill1"]]]
        out.append((w["name"], s["dmg1"] + DB[s.get("db", 0)], score))
    return out


def expected(doc: dict, use_hpl: bool, npc: bool) -> dict:
    def damage(w):
        dm = w.get("damage_modifier")
        if not w.get("damage"):
            return "0"
        return w["damage"] + ("" if dm in (None, "0") else dm if dm[0] in "+-" else "+" + dm)

    value = {w["label"]: w["attack"] if w["attack"] is not None else w["parry"] for w in doc["weapons"]}
    return {"hp": doc["combat"]["hit_points"], "move": doc["combat"]["mov"],
            "locations": [(h["label"], h["hp"], h["ap"] if use_hpl or npc else 0) for h in doc["hit_locations"]],
            "skills": {**{s["label"]: s["value"] for s in doc["skills"]}, **value},
            "weapons": [(w["label"], damage(w), value[w["label"]]) for w in doc["weapons"]]}


def prepared(actor: dict, use_hpl: bool) -> dict:
    return {"hp": total_hp(actor), "move": actor["system"].get("move", 0), "locations": locations(actor, use_hpl),
            "skills": skill_scores(actor), "weapons": weapons(actor)}


@pytest.mark.parametrize("use_hpl", [True, False], ids=["hit-locations-on", "hit-locations-off"])
@pytest.mark.parametrize("fmt", ["foundry", "foundry_npc"])
def test_brp_prepares_the_figures_of_chargens_document(batch24, fmt, use_hpl):
    for doc in batch24:
        actor = json.loads(FORMATS[fmt].to_bytes(doc))
        assert prepared(actor, use_hpl) == expected(doc, use_hpl, fmt == "foundry_npc"), doc["identity"]["name"]


def test_the_category_modifier_is_held_once(batch24):
    """D100 II's category modifier rides in the skillcat; the skill's own fields do not repeat it."""
    doc = next(d for d in batch24 if any(v for v in d["skill_categories"].values()))
    actor = json.loads(FORMATS["foundry"].to_bytes(doc))
    cats = {brpid(c): c["system"]["mod"] for c in of_type(actor, "skillcat")}
    assert {k: cats[f"i.skillcat.{k}"] for k in doc["skill_categories"]} == doc["skill_categories"]
    for item, skill in zip(of_type(actor, "skill"), doc["skills"]):
        own = sum(item["system"][p] for p in SKILL_PARTS)
        assert own == skill["value"] - doc["skill_categories"][skill["category"]]


def test_every_weapon_skill_is_offered_to_weapons_and_linked(batch24):
    for doc in batch24:
        actor = json.loads(FORMATS["foundry"].to_bytes(doc))
        skills = {brpid(i): i for i in of_type(actor, "skill")}
        assert [w["name"] for w in of_type(actor, "weapon")] == [w["label"] for w in doc["weapons"]]
        for w in of_type(actor, "weapon"):
            skill = skills[w["system"]["skill1"]]
            assert skill["name"] == w["name"] and skill["system"]["combat"] is True


def test_brpids_carry_lang_and_priority_and_items_are_foundry_ids(batch24):
    actor = json.loads(FORMATS["foundry"].to_bytes(batch24[0]))
    ids = [i["_id"] for i in actor["items"]]
    assert len(set(ids)) == len(ids) and all(len(i) == 16 and i.isalnum() for i in ids)
    for item in actor["items"]:
        flag = item["flags"]["brp"]["brpidFlag"]
        assert set(flag) == {"id", "lang", "priority"} and flag["id"].startswith(f"i.{item['type']}.")
    assert actor["_stats"]["coreVersion"].startswith("13.") and actor["_stats"]["systemVersion"].startswith("13.1.")


def test_locations_have_names_and_types(batch24):
    actor = json.loads(FORMATS["foundry"].to_bytes(batch24[0]))
    types = {i["system"]["displayName"]: i["system"]["locType"] for i in of_type(actor, "hit-location")}
    assert types == {"Right leg": "limb", "Left leg": "limb", "Abdomen": "abdomen", "Chest": "chest",
                     "Right arm": "limb", "Left arm": "limb", "Head": "head"}


def test_the_batch_file_is_every_actor(batch24):
    fmt = FORMATS["foundry"]
    from chargen.formats import BatchInfo

    actors = json.loads(fmt.join([fmt.part(d) for d in batch24[:3]], BatchInfo("d100", "x")))
    assert [a["name"] for a in actors] == [d["identity"]["name"] for d in batch24[:3]]
    assert actors[0] == json.loads(fmt.to_bytes(batch24[0]))
