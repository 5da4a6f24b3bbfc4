"""A d100 character as a Foundry VTT ``brp`` 13 actor: the items and system data brp's own
preparation reads (``/work/shared/reference/formats.md`` section 5), in one place.

What brp recomputes, and how the export makes it land on chargen's figures:

* a skill's score is ``base + xp + effects + profession + personality + personal + culture`` plus the
  total of the ``skillcat`` item whose BRPID is the skill's ``category``; the category modifier rides
  once, in the skillcat's ``mod`` (D100 II's category modifier), and the skill's own fields hold the
  rest of its value (a part the document does not explain goes to ``personal``), so the sum is
  chargen's value whatever the document's sources say;
* total HP is ``ceil((CON + SIZ) * hpMod / 2) + health.mod``: ``health.mod`` is chargen's total less
  that (the world setting hpMod at its default, 1);
* with the world's hit-location rule on, a location's HP is ``ceil(total / fractionHP) + adj``:
  ``fractionHP`` 3 (D100 II's location HP are built on a third of the total) and ``adj`` the rest;
* AP is not a location field of a character (an npc's location ``ap`` is what its sheet shows): each armour piece is one worn ``armour`` item per location it covers
  (``av1``, ``hitlocID``), and AP a location has beyond its pieces (a hand-edited or imported figure)
  an item named ``Armour`` on it;
* a weapon is a ``weapon`` item whose ``skill1`` is the BRPID of its own skill (D100 II has one skill
  per weapon: a ``skill`` item with ``combat: true`` in the ``combat`` category, or ``shield`` for a
  shield's parry); its damage carries D100 II's damage modifier in ``dmg1`` with ``db: none`` (brp's
  own damage-bonus table is not D100 II's, so ``full`` would roll another modifier);
* the ``npc`` actor type scores a skill as ``base + effects`` and a weapon by its ``npcVal``: an npc's
  skills hold their whole value in ``base``.

What brp has no field for: the strike rank and a melee weapon's parry (brp's ``parry`` is a yes/no),
written in the weapon's description; the whole chargen document rides in ``flags.chargen``.
"""

from __future__ import annotations

import hashlib
import math
import re

from chargen.systems.d100.interop.d100view import CHARACTERISTICS, skill_sources
from chargen.flavour.show import biography_html
from chargen.systems.d100.view import unusable

SOURCE_FIELD = {"base": "base", "profession": "profession", "archetype": "personality", "overlay": "personal",
                "pin": "personal", "edit": "personal", "other": "personal", "experience": "xp", "years": "xp"}
SKILL_FIELDS = ("base", "xp", "culture", "profession", "personality", "personal", "effects")
FRACTION_HP = 3  # source: rules/d100/hit_locations.yaml (location HP are built on total / 3, rounded up)
COMBAT, SHIELD = "combat", "shield"  # the weapon skills' categories: brp offers i.skillcat.combat's skills to weapons
SPECIAL = {"impale": "impale", "crush": "crush", "slash": "bleed"}  # D100 II's special damage: brp's nearest
LOC_TYPE = {"head": "head", "chest": "chest", "abdomen": "abdomen"}  # any other location is a limb
LANG, PRIORITY = "en", 0


def kebab(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", str(label).lower()).strip("-") or "item"


def brpid(kind: str, key: str) -> dict:
    """brp's BRPID triple: id ``i.<kind>.<key>``, language and priority (higher wins)."""
    return {"brp": {"brpidFlag": {"id": f"i.{kind}.{kebab(key)}", "lang": LANG, "priority": PRIORITY}}}


def item_id(*parts: object) -> str:
    """A Foundry document id (16 letters and digits), the same for the same parts: armour finds its location by it."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8")).hexdigest()
    return "c" + "".join(ch for ch in digest if ch.isalnum())[:15]


def _item(kind: str, name: str, key: str, system: dict, n: int) -> dict:
    return {"_id": item_id(kind, key, n), "name": name, "type": kind, "system": system, "effects": [],
            "flags": brpid(kind, key)}


def _fields(parts: list[tuple[str, int]], value: int, held: int) -> dict:
    """A skill's brp fields from its sources, less the category modifier ``held`` by its skillcat,
    summing to ``value - held`` (a part the sources do not explain goes to ``personal``)."""
    system = {f: 0 for f in SKILL_FIELDS}
    for source, v in parts:
        if source != "category":
            system[SOURCE_FIELD.get(source, "personal")] += v
    system["personal"] += value - held - sum(system.values())
    return system


def _skill(label: str, key: str, category: str, parts, value: int, held: int, npc: bool, n: int,
           combat: bool = False) -> dict:
    system = {**{f: 0 for f in SKILL_FIELDS}, "base": value} if npc else _fields(parts, value, held)
    system.update(category=f"i.skillcat.{kebab(category)}", combat=combat)
    return _item("skill", label, key, system, n)


def skillcats(doc: dict) -> dict[str, int]:
    """The skill categories' modifiers by id: the document's, then the weapons' (attack and parry)."""
    combat = doc.get("combat", {})
    return {**doc.get("skill_categories", {}), COMBAT: combat.get("attack") or 0, SHIELD: combat.get("parry") or 0}


def skillcat_items(doc: dict) -> list[dict]:
    labels = {COMBAT: "Combat (attack)", SHIELD: "Shield (parry)"}
    return [_item("skillcat", labels.get(k, k.replace("_", " ").title()), k,
                  {"stat": "none", "mod": v, "bonus": 0, "total": v}, n)
            for n, (k, v) in enumerate(skillcats(doc).items())]


def skill_items(doc: dict, npc: bool) -> list[dict]:
    cats = skillcats(doc)
    return [_skill(s["label"], s.get("id", s["label"]), s["category"], skill_sources(s), s["value"],
                   cats.get(s["category"], 0), npc, n) for n, s in enumerate(doc["skills"])]


def weapon_value(w: dict) -> tuple[int, str]:
    """A weapon's skill value and category: its attack, or a shield's (or parry-only weapon's) parry."""
    if w.get("attack") is not None:
        return w["attack"], COMBAT
    return w.get("parry") or 0, SHIELD


def weapon_damage(w: dict) -> str:
    """The weapon's damage with D100 II's modifier in it ('1D8+2+1D4'); '0' for none."""
    damage, dm = w.get("damage") or "0", w.get("damage_modifier")
    if dm in (None, "", "0", "+0") or damage == "0":
        return damage
    return damage + (dm if dm[0] in "+-" else "+" + dm)


def _note(w: dict) -> str:
    bits = [f"SR {w['sr']}" if w.get("sr") is not None else "",
            f"Parry {w['parry']}%" if w.get("parry") is not None and w.get("attack") is not None else "",
            unusable(w)]
    text = ". ".join(b[0].upper() + b[1:] for b in bits if b)
    return f"<p>{text}.</p>" if text else ""


def weapon_items(doc: dict, npc: bool) -> list[dict]:
    cats, out = skillcats(doc), []
    for n, w in enumerate(doc["weapons"]):
        value, category = weapon_value(w)
        key = w.get("id", w["label"])
        skill = _skill(w["label"], key, category, skill_sources({**w, "value": value}), value, cats[category],
                       npc, len(doc["skills"]) + n, combat=True)
        mark = unusable(w)
        if mark:  # on the skill too: the skills tab is where a player looks for it
            skill["system"]["description"] = f"<p>{mark[0].upper()}{mark[1:]}.</p>"
        kind = w.get("kind") if w.get("kind") in ("melee", "missile", "shield") else "melee"
        system = {"weaponType": kind, "skill1": skill["flags"]["brp"]["brpidFlag"]["id"], "skill2": "none",
                  "dmg1": weapon_damage(w), "db": "none", "special": SPECIAL.get(w.get("special") or "", "none"),
                  "range1": str(w["range"]) if w.get("range") is not None else "",
                  "hands": "2H" if w.get("hands") == 2 else "1H", "hp": w.get("hp") or 0, "hpCurr": w.get("hp") or 0,
                  "ap": w.get("ap") or 0, "parry": w.get("parry") is not None, "enc": w.get("enc") or 0,
                  "str": w.get("min_str") or 0, "dex": w.get("min_dex") or 0, "equipStatus": "carried",
                  "npcVal": value, "description": _note(w)}
        out += [skill, _item("weapon", w["label"], key, system, n)]
    return out


def location_items(doc: dict) -> list[dict]:
    total = doc["combat"]["hit_points"]
    return [_item("hit-location", h["label"], h.get("id", h["label"]),
                  {"displayName": h["label"], "lowRoll": h["melee"][0], "highRoll": h["melee"][1],
                   "locType": LOC_TYPE.get(h.get("id", ""), "limb"), "fractionHP": FRACTION_HP, "fractionENC": 1,
                   "adj": h["hp"] - math.ceil(total / FRACTION_HP), "maxHP": h["hp"], "currHP": h["hp"],
                   "hide": False, "ap": h.get("ap", 0)}, n)
            for n, h in enumerate(doc["hit_locations"])]


def armour_items(doc: dict, locations: list[dict]) -> list[dict]:
    """One worn armour item per piece per location where the piece gives the AP (D100 II takes the
    highest piece, brp adds the worn ones up: a piece that does not count at a location is not worn
    there), ENC on a piece's first item; AP a location has beyond its pieces is an item named 'Armour'."""
    pieces = {a["label"]: a for a in doc.get("armour", [])}
    first: set[str] = set()
    out = []
    for h, loc in zip(doc["hit_locations"], locations):
        key, worn = h.get("id", h["label"]), 0
        for label in h.get("armour", []):
            a = pieces.get(label)
            if a is None or worn + a["ap"] > h.get("ap", 0):
                continue
            out.append(_armour(label, a.get("id", label), a["ap"], 0 if label in first else a.get("enc", 0),
                               loc["_id"], key))
            first.add(label)
            worn += a["ap"]
        if h.get("ap", 0) > worn:
            out.append(_armour("Armour", "armour", h["ap"] - worn, 0, loc["_id"], key))
    return out


def _armour(label: str, key: str, ap: int, enc, loc_id: str, loc: str) -> dict:
    system = {"av1": ap, "hitlocID": loc_id, "equipStatus": "worn", "enc": enc or 0, "HPL": True, "coverage": loc}
    return _item("armour", label, f"{key}-{loc}", system, 0)


def gear_items(doc: dict) -> list[dict]:
    return [_item("gear", str(g), str(g), {"quantity": 1, "enc": 0, "equipStatus": "carried"}, n)
            for n, g in enumerate(doc.get("equipment", []))]


def stats(doc: dict) -> dict:
    keys = [*CHARACTERISTICS, *(k for k in doc["characteristics"] if k not in CHARACTERISTICS), "edu"]
    return {k: {"base": doc["characteristics"].get(k, 0), "redist": 0, "culture": 0, "exp": 0, "age": 0,
                "effects": 0} for k in dict.fromkeys(keys)}


def system_data(doc: dict) -> dict:
    """The actor's own data: characteristics, HP (``health.mod`` closes brp's total on chargen's), power
    points, move and the details the sheet's header shows."""
    k, combat = doc["characteristics"], doc["combat"]
    hp = combat["hit_points"]
    pp = combat.get("pow_points", k.get("pow", 0))
    return {"stats": stats(doc),
            "health": {"value": hp, "max": hp, "mod": hp - math.ceil((k.get("con", 0) + k.get("siz", 0)) / 2)},
            "power": {"value": pp, "max": pp, "mod": pp - k.get("pow", 0)},
            "move": combat.get("mov", 0), **details(doc)}


def details(doc: dict) -> dict:
    """The sheet's personal details (brp's character fields)."""
    identity, exp = doc["identity"], doc.get("experience") or {}
    return {"gender": identity.get("sex", ""), "age": identity.get("age", 0),
            "culture": (doc.get("background") or {}).get("label", ""),
            "professionName": (exp.get("profession") or {}).get("label", ""),
            "description": doc.get("notes", ""), **_biography(doc)}


def _biography(doc: dict) -> dict:
    """``biography`` (brp's character biography, HTML): the flavour and ties, when the character has any."""
    text = biography_html(doc)
    return {"biography": text} if text else {}


def items(doc: dict, npc: bool = False) -> list[dict]:
    locations = location_items(doc)
    cats = [] if npc else skillcat_items(doc)
    return [*cats, *skill_items(doc, npc), *weapon_items(doc, npc), *locations, *armour_items(doc, locations),
            *gear_items(doc)]
