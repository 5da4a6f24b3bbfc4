"""``meg``: Mythras Encounter Generator JSON for d100 characters.

Each character's file (``<stem>.meg.json``) is an enemies file of one NPC (the
Roll20 sheet imports one character at a time); the batch's ``party.meg.json``
is the party shape ``{party_name, enemies, additional_features}``. Every rule
the importers impose (``/work/shared/reference/formats.md`` section 1) is met:
keys in MEG's order, the seven stats in MEG's order, ``range`` as "NN-NN",
``strike_rank`` a string the importers' regular expression reads, the four
spell lists always present, every weapon ``type`` one of the four allowed.

What D100 II has and MEG has no field for is written where a reader sees it
(the README lists it): weapon parry, the attack/parry/defence bonuses and a
characteristic a house rule adds (``Characteristic EDU: 12``) go to ``features``
and ``notes``; skill bases and category modifiers have no field
(the totals are right; an importer's back-computed "training" means nothing for them).
Chosen where D100 II has no figure (``source: default`` in README terms):
``cult_rank`` "None", ``action_points`` 2, weapon ``size`` "M", ``reach`` "M"
for melee and shields and "-" for missiles, a missile's one range written
"r/r/r", ``strike_rank`` "n(n-0)" where n is the SIZ plus DEX strike rank.
"""

from __future__ import annotations

import json
import textwrap

from chargen.formats import BatchInfo, Format
from chargen.systems.d100.interop.d100view import range_text, signed_dm, weapon_damage
from chargen.systems.d100.view import unusable
from chargen.flavour.show import features as flavour_features
from chargen.engines import view_of

MEG_STATS = ("STR", "CON", "SIZ", "DEX", "INT", "POW", "CHA")
SPELL_LISTS = ("folk_spells", "theism_spells", "sorcery_spells", "mysticism_spells")
WEAPON_TYPES = ("1h-melee", "2h-melee", "ranged", "shield")
ACTION_POINTS = 2  # D100 II has no action points; the Mythras default for a typical NPC
SIZE, MELEE_REACH, MISSILE_REACH = "M", "M", "-"


def weapon_type(w: dict) -> str:
    if w["kind"] == "shield":
        return "shield"
    if w["kind"] == "missile":
        return "ranged"
    return "2h-melee" if w.get("hands") == 2 else "1h-melee"


def meg_weapon(w: dict, character_dm: str) -> dict:
    damage, add = weapon_damage(w, character_dm)
    out = {"name": w["label"], "damage": damage, "ap": w.get("ap") or 0, "hp": w.get("hp") or 0, "size": SIZE,
           "add_damage_modifier": add, "reach": MISSILE_REACH if w["kind"] == "missile" else MELEE_REACH,
           "effects": ", ".join(e for e in (w.get("special"), unusable(w)) if e), "type": weapon_type(w)}
    if w["kind"] == "missile" and w.get("range") is not None:
        out["range"] = "/".join([str(w["range"])] * 3)
    return out


def combat_style(w: dict, character_dm: str) -> dict:
    value = w["attack"] if w.get("attack") is not None else (w.get("parry") or 0)
    return {"name": w["label"], "value": value, "weapons": [meg_weapon(w, character_dm)]}


def features(doc: dict) -> list[str]:
    c = doc["combat"]
    out = [f"Background: {doc['background']['label']}"]
    out += [f"Parry: {w['label']} {w['parry']}%" for w in doc["weapons"] if w.get("parry") is not None]
    out += [f"D100 II bonus: attack {c['attack']:+d}%, parry {c['parry']:+d}%, defence {c['defence']}%",
            f"D100 II strike ranks: SIZ {c['strike_ranks']['siz']}, DEX {c['strike_ranks']['dex']}"]
    out += [f"Armour: {a['label']} (AP {a['ap']})" for a in doc["armour"]]
    chars = view_of(doc).group("characteristics").figures  # a house rule's characteristic MEG has no stat for
    out += [f"Characteristic {f.label}: {f.value}" for f in chars if f.label not in MEG_STATS]
    return out + flavour_features(doc)  # i25: "Appearance: ...", "Relation: ..." (chargen.flavour.show)


def notes(doc: dict) -> str:
    s, seed = doc["system"], doc["seed"]
    head = (f"{s['name']} {s['version']} character made by chargen (seed {seed['batch']}, index {seed['index']}). "
            "strike_rank holds the SIZ + DEX strike rank (lower acts first); parry is under features.")
    return head + (f"\n{doc['notes']}" if doc.get("notes") else "")


def npc(doc: dict) -> dict:
    """One character as a MEG NPC, keys in MEG's order, then the 2026 extension block."""
    c, k, who = doc["combat"], doc["characteristics"], doc["identity"]
    sr = c["strike_ranks"]["siz"] + c["strike_ranks"]["dex"]
    out = {
        "name": who["name"],
        "cult_rank": "None",
        "stats": [{stat: k.get(stat.lower(), 0)} for stat in MEG_STATS],
        "skills": [{s["label"]: s["value"]} for s in doc["skills"]],
        **{name: [] for name in SPELL_LISTS},
        "hit_locations": [{"name": h["label"], "range": range_text(h["melee"]), "hp": h["hp"], "ap": h["ap"],
                           "armor": ", ".join(h.get("armour", []))} for h in doc["hit_locations"]],
        "combat_styles": [combat_style(w, c["damage_modifier"]) for w in doc["weapons"]],
        "attributes": {"action_points": ACTION_POINTS, "damage_modifier": signed_dm(c["damage_modifier"]),
                       "magic_points": c["pow_points"], "strike_rank": f"{sr}({sr}-0)", "movement": str(c["mov"]),
                       "hit_points": c["hit_points"]},
        "notes": notes(doc),
        "features": features(doc),
        "cults": [],
        "spirits": [],
        "natural_armor": False,
        "profile": {"career": doc["background"]["label"], "gender": who.get("sex", ""), "age": who.get("age")},
        "movement": c["mov"],
        "max_magic_points": c["pow_points"],
        "equipment": [{"name": a["label"], "notes": f"AP {a['ap']}", "quantity": 1, "enc": a.get("enc", 0)}
                      for a in doc["armour"]]
                     + [{"name": e, "notes": "", "quantity": 1, "enc": 0} for e in doc["equipment"]],
    }
    if doc.get("archetype"):
        out["features"].append(f"Archetype: {doc['archetype']['label']}")
    return out


def _compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def dumps(value: dict) -> str:
    """An NPC as JSON, one key a line and a list of objects one item a line (diff-friendly, still short)."""
    lines = []
    for key, v in value.items():
        if isinstance(v, list) and v and all(isinstance(i, dict) for i in v) and len(_compact(v)) > 100:
            items = ",\n".join("    " + _compact(i) for i in v)
            lines.append(f"  {_compact(key)}: [\n{items}\n  ]")
        else:
            lines.append(f"  {_compact(key)}: {_compact(v)}")
    return "{\n" + ",\n".join(lines) + "\n}"


class MegFormat(Format):
    name, suffix = "meg", ".meg.json"
    engines = ("d100",)
    batch_file = "party.meg.json"

    def to_bytes(self, doc: dict, renderer=None) -> bytes:
        """An enemies file of one NPC."""
        self.check_engine(doc["system"]["engine"])
        return ("[\n" + textwrap.indent(dumps(npc(doc)), "  ") + "\n]\n").encode("utf-8")

    def part(self, doc: dict) -> str:
        return dumps(npc(doc))

    def join(self, parts: list[str], info: BatchInfo) -> bytes:
        enemies = ",\n".join(textwrap.indent(p, "    ") for p in parts)
        return (f'{{\n  "party_name": {json.dumps(info.title, ensure_ascii=False)},\n  "enemies": [\n{enemies}\n  ],\n'
                f'  "additional_features": []\n}}\n').encode("utf-8")

