"""``foundry``: a Foundry VTT actor for the ``brp`` system (Basic Roleplaying), one file per character.

Why ``brp`` and not ``rqg`` (``/work/shared/reference/formats.md`` section 2):
brp is the generic D100 family D100 II belongs to, is ORC-licensed, and is the
only consumer model that keeps a skill's sources apart (``base``, ``culture``,
``profession``, ``personality``, ``personal``, ``xp``, ``effects``), as chargen
records them; rqg is licence-restricted, Glorantha-specific (runes, passions,
its own twelve skill categories) and keeps only a base and a gained chance.

The file is what Foundry's "Import Data" takes: ``{name, type: "character",
img, system, items, effects, flags, _stats}``. Characteristics go to
``system.stats.<id>.base`` (``edu``, which D100 II lacks, is 0 unless a house rule
adds it; any other characteristic a house rule adds gets its own key); every skill
and every weapon skill is a ``skill`` item whose value is split by source
(:func:`chargen.systems.d100.interop.d100view.skill_sources`: base to ``base``, profession
to ``profession``, the category modifier to ``effects``, an archetype to
``personality``, house rules, pins and hand edits to ``personal``, previous
experience to ``xp``), so nothing is back-computed; each hit location is a
``hit-location`` item. The whole chargen document rides in ``flags.chargen``
(Foundry keeps a module's flags), so what brp has no field for is not lost.
"""

from __future__ import annotations

import json
import re

from chargen.formats import Format
from chargen.systems.d100.interop.d100view import CHARACTERISTICS, skill_sources
from chargen.systems.d100.view import unusable
from chargen.flavour.show import biography_html
from chargen.engines import view_of

IMG = "icons/svg/mystery-man.svg"  # Foundry's default actor image
CORE_VERSION, SYSTEM_VERSION = "12.331", "12.0.0"  # source: default (the Foundry V12 generation chargen targets)
SOURCE_FIELD = {"base": "base", "profession": "profession", "category": "effects", "archetype": "personality",
                "overlay": "personal", "pin": "personal", "edit": "personal", "other": "personal",
                "experience": "xp", "years": "xp"}
SKILL_FIELDS = ("base", "xp", "culture", "profession", "personality", "personal", "effects")


def kebab(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") or "skill"


def _skill_item(label: str, category: str, parts: list[tuple[str, int]]) -> dict:
    system = {f: 0 for f in SKILL_FIELDS}
    for source, value in parts:
        system[SOURCE_FIELD.get(source, "personal")] += value
    system["category"] = category
    return {"name": label, "type": "skill", "system": system, "effects": [],
            "flags": {"brp": {"brpidFlag": {"id": f"i.skill.{kebab(label)}"}}}}


def _weapon_parts(w: dict) -> list[tuple[str, int]]:
    value = w["attack"] if w.get("attack") is not None else (w.get("parry") or 0)
    if w.get("sources"):
        return skill_sources({**w, "value": value})
    return [("base", w["base"]), ("other", value - w["base"])]


def _weapon_item(w: dict) -> dict:
    """A weapon's skill item; one its bearer cannot use says so in its description."""
    item = _skill_item(w["label"], "combat", _weapon_parts(w))
    mark = unusable(w)
    if mark:
        item["system"]["description"] = f"<p>{mark[0].upper()}{mark[1:]}.</p>"
    return item


def actor(doc: dict) -> dict:
    chars = view_of(doc).group("characteristics")
    keys = [*CHARACTERISTICS, *(f.key for f in chars.figures if f.key not in CHARACTERISTICS), "edu"]
    stats = {k: {"base": doc["characteristics"].get(k, 0), "culture": 0, "exp": 0, "age": 0, "effects": 0}
             for k in dict.fromkeys(keys)}
    items = [_skill_item(s["label"], s["category"], skill_sources(s)) for s in doc["skills"]]
    items += [_weapon_item(w) for w in doc["weapons"]]
    items += [{"name": h["label"], "type": "hit-location", "effects": [],
               "system": {"lowRoll": h["melee"][0], "highRoll": h["melee"][1], "maxHP": h["hp"], "ap": h["ap"]},
               "flags": {"brp": {"brpidFlag": {"id": f"i.hit-location.{kebab(h['label'])}"}}}}
              for h in doc["hit_locations"]]
    return {"name": doc["identity"]["name"], "type": "character", "img": IMG,
            "system": {"stats": stats, **biography(doc)}, "items": items, "effects": [],
            "flags": {"chargen": {"document": doc}},
            "_stats": {"systemId": "brp", "systemVersion": SYSTEM_VERSION, "coreVersion": CORE_VERSION}}


def biography(doc: dict) -> dict:
    """``system.biography`` (the brp character's biography, HTML): its flavour and ties (i25), when it has any."""
    text = biography_html(doc)
    return {"biography": text} if text else {}


class FoundryFormat(Format):
    name, suffix = "foundry", ".foundry.json"
    engines = ("d100",)

    def to_bytes(self, doc: dict, renderer=None) -> bytes:
        self.check_engine(doc["system"]["engine"])
        return (json.dumps(actor(doc), ensure_ascii=False, indent=2) + "\n").encode("utf-8")
