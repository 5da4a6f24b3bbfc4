"""Reading Foundry VTT ``brp`` actors (one actor, a JSON array of them, or chargen's
``party.foundry.json``) into d100 character documents: chargen is the printer Foundry's D100
systems lack.

An actor's figures are read as brp prepares them (:mod:`.foundry_actor` says how): a characteristic
is the sum of its parts, total HP ``ceil((CON + SIZ) / 2) + health.mod`` (an npc: its ``hp`` stats
and multiplier), a skill its fields plus its category's skillcat ``mod`` (an npc: ``base + effects``),
a location's AP the worn armour linked to it (an npc: its ``ap``), a weapon its linked skill (an npc:
its ``npcVal``). An actor chargen exported carries its document in ``flags.chargen.document``: what
brp has no field for (seed, rules, trail, attack and defence bonuses, strike ranks, a skill's
sources) is taken from it when the figure brp holds is still the document's; a figure edited in
Foundry wins. What an actor made by hand lacks comes from the D100 II rules applied to its
characteristics, as for MEG (:mod:`.meg_read`). What has no place in a D100 II character (brp's
passions, powers, wounds, ...) is one line per field, handed to ``notice``.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable

from chargen.digits import whole
from chargen.errors import CharacterError
from chargen.flavour.show import from_biography
from chargen.systems.d100.interop.foundry_actor import COMBAT, SHIELD, SKILL_FIELDS, SPECIAL
from chargen.systems.d100.interop.meg_read import NpcReader, _int, _list, _mapping, ident

Notice = Callable[[str], None]
READ_TYPES = {"skill", "skillcat", "weapon", "hit-location", "armour", "gear"}
STAT_PARTS = ("base", "redist", "culture", "exp", "effects", "age")
_SR = re.compile(r"\bSR (\d+)", re.ASCII)
_PARRY = re.compile(r"\bParry (\d+)%", re.ASCII)
_TAG = re.compile(r"<[^>]*>")
_BACK = {v: k for k, v in SPECIAL.items()}


def is_actor(data: object) -> bool:
    return isinstance(data, dict) and data.get("type") in ("character", "npc") and isinstance(data.get("items"), list) \
        and isinstance(data.get("system"), dict)


def is_foundry(data: object) -> bool:
    """A brp actor, or a non-empty list of them."""
    return is_actor(data) or (isinstance(data, list) and bool(data) and all(is_actor(a) for a in data))


LIMIT = 1_000_000  # no figure of a character comes near it


def _num(value, where: str) -> int:
    """A brp number field (absent or empty: 0); a number past any character's is an error."""
    if value is None or value == "":
        return 0
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > LIMIT:
        raise CharacterError(f"{where}: {str(value)[:12]}... is out of range")
    if isinstance(value, float) and not math.isfinite(value):
        raise CharacterError(f"{where}: expected a number, not {value}")
    number = _int(value, where)
    if abs(number) > LIMIT:
        raise CharacterError(f"{where}: {number} is out of range")
    return number


class ActorReader(NpcReader):
    """One brp actor to one d100 document (the rules for what the actor lacks: :class:`NpcReader`'s)."""

    def __init__(self, label: str, actor: dict, position: int, notice: Notice):
        super().__init__(label, {"name": actor.get("name")}, position, notice)
        self.actor, self.npc_type = actor, actor.get("type") == "npc"
        self.system = _mapping(actor.get("system"), f"{label}: system")
        self.items = [i for i in _list(actor.get("items"), f"{label}: items") if isinstance(i, dict)]
        base = (_mapping(actor.get("flags"), f"{label}: flags").get("chargen") or {})
        base = base.get("document") if isinstance(base, dict) else None
        self.base = _valid(base, f"{label}: flags.chargen.document", notice) if base is not None else None

    def of_type(self, kind: str) -> list[tuple[int, dict]]:
        return [(n, i) for n, i in enumerate(self.items) if i.get("type") == kind]

    def sys(self, item: dict) -> dict:
        return item.get("system") if isinstance(item.get("system"), dict) else {}

    def stat(self, key: str) -> int:
        s = _mapping(_mapping(self.system.get("stats"), f"{self.label}: system.stats").get(key),
                     f"{self.label}: system.stats.{key}")
        return sum(_num(s.get(p), f"{self.label}: system.stats.{key}.{p}") for p in STAT_PARTS)

    def characteristics(self) -> dict[str, int]:
        chars = {ch.id: max(0, self.stat(ch.id)) for ch in self.rules.characteristics}
        for key in _mapping(self.system.get("stats"), f"{self.label}: system.stats"):
            if key not in chars and self.stat(key):
                self.skip(f"system.stats.{key}", "D100 II has no such characteristic")
        return chars

    def total_hp(self, chars: dict[str, int]) -> int:
        health = _mapping(self.system.get("health"), f"{self.label}: system.health")
        mod = _num(health.get("mod"), f"{self.label}: system.health.mod")
        if not self.npc_type:
            return max(0, math.ceil((chars["con"] + chars["siz"]) / 2) + mod)
        hp = _mapping(self.system.get("hp"), f"{self.label}: system.hp") or {"stat1": "siz", "stat2": "con", "multi": 0.5}
        total = sum(chars.get(hp.get(k), 0) for k in ("stat1", "stat2"))
        try:
            multi = float(hp.get("multi", 0.5))
        except (TypeError, ValueError):
            raise CharacterError(f"{self.label}: system.hp.multi: expected a number") from None
        return max(0, math.ceil(total * multi) + mod) if math.isfinite(multi) else 0


    # --- skills -------------------------------------------------------------------------------

    def brpid(self, item: dict) -> str:
        flag = item
        for key in ("flags", "brp", "brpidFlag", "id"):
            flag = flag.get(key) if isinstance(flag, dict) else None
        return flag if isinstance(flag, str) else ""

    def categories(self) -> dict[str, int]:
        """Each skillcat's modifier, by its BRPID."""
        return {self.brpid(c): _num(self.sys(c).get("mod"), f"{self.label}: items[{n}].system.mod")
                for n, c in self.of_type("skillcat")}

    def score(self, n: int, item: dict, cats: dict[str, int]) -> tuple[int, int]:
        """A skill's score as brp gives it and the part of it its category holds."""
        s, where = self.sys(item), f"{self.label}: items[{n}]"
        if self.npc_type:
            return _num(s.get("base"), f"{where}.system.base") + _num(s.get("effects"), f"{where}.system.effects"), 0
        held = cats.get(str(s.get("category")), 0)
        return sum(_num(s.get(f), f"{where}.system.{f}") for f in SKILL_FIELDS) + held, held

    def weapon_skills(self) -> set[str]:
        return {str(self.sys(w).get(k)) for _, w in self.of_type("weapon") for k in ("skill1", "skill2")}

    def skill_list(self, chars: dict[str, int], categories: dict[str, int], cats: dict[str, int]) -> list[dict]:
        from chargen.systems.d100.generate import skills

        out = skills(self.rules, chars, categories)  # every D100 II skill, at its base for a hand-made actor
        by_label = {s["label"].lower(): s for s in out}
        kept = {s["label"]: s for s in (self.base or {}).get("skills", [])}
        linked = self.weapon_skills()
        for n, item in self.of_type("skill"):
            if self.brpid(item) in linked or str(item.get("name")) in {str(w.get("name")) for _, w in self.of_type("weapon")}:
                continue  # a weapon's skill: read with its weapon
            value, held = self.score(n, item, cats)
            label = str(item.get("name") or f"Skill {n}")[:200]
            old = kept.get(label)
            if old is not None and old.get("value") == value:
                entry = old
            else:
                entry = self.own_skill(label, item, value, held, by_label.get(label.lower()))
            if label.lower() in by_label:
                out[out.index(by_label[label.lower()])] = entry
            else:
                out.append(entry)
                by_label[label.lower()] = entry
        return out

    def own_skill(self, label: str, item: dict, value: int, held: int, rule: dict | None) -> dict:
        s = self.sys(item)
        category = rule["category"] if rule else str(s.get("category") or "").rsplit(".", 1)[-1].replace("-", "_") or "other"
        if self.npc_type:  # an npc's base is its whole score: a D100 II skill's base is the rules'
            base = rule["base"] if rule else value
        else:
            base = max(0, _num(s.get("base"), f"{self.label}: {label}: base"))
        return {"id": rule["id"] if rule else ident(label), "label": label, "category": category, "base": base,
                "modifier": value - base, "value": value, "trained": value > 0 or base > 0}

    # --- weapons -------------------------------------------------------------------------------

    def weapon_list(self, chars: dict[str, int], combat: dict, cats: dict[str, int]) -> list[dict]:
        skills = {self.brpid(i): (n, i) for n, i in self.of_type("skill")}
        known = {w.label.lower(): w for w in self.rules.weapons.values()}
        kept = {w["label"]: w for w in (self.base or {}).get("weapons", [])}
        out = []
        for n, w in self.of_type("weapon"):
            s, where = self.sys(w), f"{self.label}: items[{n}]"
            if self.npc_type:
                value = _num(s.get("npcVal"), f"{where}.system.npcVal")
            else:
                linked = skills.get(str(s.get("skill1"))) or skills.get(str(s.get("skill2")))
                value = self.score(*linked, cats)[0] if linked else 0
                if linked is None:
                    self.skip(f"items[{n}] {str(w.get('name'))[:60]!r} system.skill1", "no skill of this actor has that BRPID (the attack is shown as 0%)")
            entry = self.weapon_entry(w, s, value, combat, where)
            old = kept.get(entry["label"])
            if old is not None and _same_weapon(old, entry):
                entry = old
            rule = known.get(entry["label"].lower())
            if rule is not None and entry is not old:
                from chargen.systems.d100.generate import below_minimum

                entry["below_minimum"] = below_minimum(rule, chars)
            out.append(entry)
        return out

    def weapon_entry(self, w: dict, s: dict, value: int, combat: dict, where: str) -> dict:
        kind = {"shield": "shield", "melee": "melee"}.get(str(s.get("weaponType")), "missile")
        note = str(s.get("description") or "")
        parry = _PARRY.search(note)
        damage = str(s.get("dmg1") or "").replace("d", "D").replace(" ", "") or None
        dm = "0"
        if s.get("db") in ("full", "oneH", "dbl", "str"):
            dm = combat["damage_modifier"]
        elif s.get("db") == "half":
            dm = combat["damage_modifier_thrown"]
        if damage in (None, "0"):
            damage, dm = None, None
        rng = str(s.get("range1") or "")
        sr = _SR.search(note)
        return {"id": ident(w.get("name") or "weapon"), "label": str(w.get("name") or "Weapon")[:200], "kind": kind,
                "base": 0, "attack": None if kind == "shield" else value,
                "parry": value if kind == "shield" else (int(parry[1]) if parry else (value if s.get("parry") is True
                                                                                        and kind == "melee" else None)),
                "damage": damage, "damage_modifier": dm, "sr": int(sr[1]) if sr else None,
                "range": whole(rng),
                "ap": _num(s.get("ap"), f"{where}.system.ap") if kind == "shield" else None,
                "hp": _num(s.get("hp"), f"{where}.system.hp"), "enc": _enc(s.get("enc")),
                "special": _BACK.get(str(s.get("special"))), "min_str": max(0, _num(s.get("str"), f"{where}.system.str")),
                "min_dex": max(0, _num(s.get("dex"), f"{where}.system.dex")),
                "hands": 2 if s.get("hands") == "2H" else 1, "below_minimum": None}

    # --- hit locations and armour ----------------------------------------------------------------

    def location_list(self, total: int) -> list[dict]:
        known = {loc.label.lower(): loc for loc in self.rules.locations}
        worn: dict[str, list[tuple[str, int]]] = {}
        for n, a in self.of_type("armour"):
            s = self.sys(a)
            if s.get("equipStatus") == "worn":
                worn.setdefault(str(s.get("hitlocID")), []).append((str(a.get("name")), _num(s.get("av1"), f"{self.label}: items[{n}].system.av1")))
        kept = {h["label"]: h for h in (self.base or {}).get("hit_locations", [])}
        out = []
        for n, h in self.of_type("hit-location"):
            s, where = self.sys(h), f"{self.label}: items[{n}]"
            label = str(s.get("displayName") or h.get("name") or f"Location {n}")[:200]
            pieces = worn.get(str(h.get("_id")), [])
            ap = _num(s.get("ap"), f"{where}.system.ap") if self.npc_type else sum(v for _, v in pieces)
            hp = _num(s.get("maxHP"), f"{where}.system.maxHP")
            if hp <= 0 and _num(s.get("fractionHP"), f"{where}.system.fractionHP") > 0:
                hp = max(0, math.ceil(total / _num(s.get("fractionHP"), where)) + _num(s.get("adj"), f"{where}.system.adj"))
            melee = [_num(s.get("lowRoll"), f"{where}.system.lowRoll"), _num(s.get("highRoll"), f"{where}.system.highRoll")]
            loc, old = known.get(label.lower()), kept.get(label)
            armour = old["armour"] if old and old["ap"] == ap else [p for p, _ in pieces if p != "Armour"]
            out.append({"id": loc.id if loc else ident(label), "label": label, "melee": melee,
                        "missile": list(loc.missile) if loc else list(melee), "hp": hp, "ap": ap, "armour": armour})
        if not out:
            raise CharacterError(f"{self.label}: no hit-location items (a D100 II sheet needs at least one)")
        return out

    def armour_list(self, locations: list[dict]) -> list[dict]:
        kept = {a["label"]: a for a in (self.base or {}).get("armour", [])}
        out: dict[str, dict] = {}
        for n, a in self.of_type("armour"):
            s, label = self.sys(a), str(a.get("name") or "Armour")[:200]
            if label == "Armour" and label not in kept:
                continue  # the AP a location has beyond its pieces: in the location's AP
            entry = out.setdefault(label, kept.get(label) or {"id": ident(label), "label": label, "ap": 0, "enc": 0, "covers": []})
            if label not in kept:
                entry["ap"] = max(entry["ap"], _num(s.get("av1"), f"{self.label}: items[{n}].system.av1"))
                entry["enc"] += _enc(s.get("enc"))
                entry["covers"] += [h["id"] for h in locations if label in h["armour"] and h["id"] not in entry["covers"]]
        return list(out.values())


def _valid(doc, where: str, notice: Notice) -> dict | None:
    """chargen's document an actor carries, if it is a valid d100 document (else a line, and None)."""
    from chargen.serialize import validate

    try:
        if not isinstance(doc, dict) or not isinstance(doc.get("system"), dict) or doc["system"].get("engine") != "d100":
            raise CharacterError(f"{where}: not a d100 character document")
        validate(doc, where)
        return doc
    except CharacterError as e:
        notice(f"{str(e)[:300]}; not read (the actor's own fields are)")
        return None


def _enc(value) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) else 0


def _same_weapon(old: dict, new: dict) -> bool:
    """The weapon chargen exported, unchanged in Foundry: its figures brp holds are the document's."""
    from chargen.systems.d100.interop.foundry_actor import weapon_damage

    return (old.get("attack") if old.get("attack") is not None else old.get("parry")) == \
        (new["attack"] if new["attack"] is not None else new["parry"]) and \
        weapon_damage(old) == (new["damage"] or "0") and old.get("hp") == new["hp"]


def _document(r: ActorReader) -> dict:
    from chargen.generate import SCHEMA_VERSION
    from chargen.systems.d100.generate import combat_abilities, experience_modifier

    m, base, system = r.module, r.base or {}, r.system
    chars = r.characteristics()
    cats = r.categories()
    categories = {cat.id: cat.value(chars) for cat in r.rules.categories}
    categories.update({k.rsplit(".", 1)[-1].replace("-", "_"): v for k, v in cats.items()
                       if not (r.base and k.rsplit(".", 1)[-1] in (COMBAT, SHIELD))})  # chargen's weapon categories
    combat = combat_abilities(r.rules, chars)
    if base.get("characteristics") == chars:
        combat.update({k: v for k, v in base.get("combat", {}).items() if k in combat})
    combat.update(attack=cats.get(f"i.skillcat.{COMBAT}", combat["attack"]),
                  parry=cats.get(f"i.skillcat.{SHIELD}", combat["parry"]), hit_points=r.total_hp(chars),
                  mov=max(0, _num(system.get("move"), f"{r.label}: system.move")))
    power = _mapping(system.get("power"), f"{r.label}: system.power")
    if "mod" in power:
        combat["pow_points"] = max(0, chars["pow"] + _num(power.get("mod"), f"{r.label}: system.power.mod"))
    locations = r.location_list(combat["hit_points"])
    digest = hashlib.sha256(json.dumps(r.actor, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")).hexdigest()
    identity = {"name": str(r.actor.get("name") or f"Actor {r.position + 1}")[:200],
                "sex": str(system.get("gender") or base.get("identity", {}).get("sex", "")),
                "age": max(0, _num(system.get("age"), f"{r.label}: system.age")) or base.get("identity", {}).get("age", r.rules.age)}
    culture = str(system.get("culture") or "") or base.get("background", {}).get("label", "Unknown")
    doc = {
        "schema": SCHEMA_VERSION,
        "system": base.get("system") if base else {"id": m.id, "name": m.name, "version": m.version, "engine": m.engine,
                                                     "rules_hash": m.hash, "overlays": []},
        "seed": base.get("seed") or {"batch": 0, "index": r.position, "character": 0},
        "identity": identity, "characteristics": chars, "combat": combat, "hit_locations": locations,
        "skill_categories": categories, "experience_modifier": experience_modifier(r.rules, chars),
        "skills": r.skill_list(chars, categories, cats), "weapons": r.weapon_list(chars, combat, cats),
        "background": base.get("background") if base.get("background", {}).get("label") == culture
        else {"id": ident(culture), "label": culture},
        "money": base.get("money") or {"starting": 0, "dice": "", "income": None, "income_until_age": None,
                                       "currency": r.rules.currency.get("abbr", "")},
        "armour": r.armour_list(locations),
        "equipment": [str(g.get("name"))[:200] for _, g in r.of_type("gear")],
        "notes": _text(system.get("description")) if not base else base.get("notes", ""),
        "rolls": base.get("rolls", []),
    }
    for key in ("archetype", "experience", "request", "trail", "flavour", "relations"):
        if key in base:
            doc[key] = base[key]
    if "flavour" not in base:
        doc.update(from_biography(system.get("biography") or system.get("extDesc")))  # what biography_html wrote
    if base and all(doc[k] == base.get(k) for k in doc):
        return base  # the document chargen exported, unchanged in Foundry
    if doc != base:  # not the document chargen exported: recorded as an import, never checked against the rules' bounds
        doc["system"] = {**doc["system"], "overlays": [{"name": "Foundry import", "hash": f"sha256:{digest}"},
                                                        *doc["system"].get("overlays", [])]}
    return doc


def _text(html) -> str:
    """An HTML description as plain text (tags dropped: a user's text never becomes markup).

    A tag is ``<`` to the next ``>``; no tag starts after the last ``>``, so the pattern runs only up
    to it (from each ``<`` with no ``>`` after it, it looked to the end: 870 KB of ``<``, minutes)."""
    text = str(html or "")
    last = text.rfind(">") + 1
    return re.sub(r"\s+", " ", _TAG.sub(" ", text[:last]) + text[last:]).strip()[:5000]


def _unread(r: ActorReader) -> None:
    for n, item in enumerate(r.items):
        if str(item.get("type")) not in READ_TYPES:
            r.skip(f"items[{n}] {str(item.get('name'))[:60]!r}",
                   f"a brp {str(item.get('type'))[:30]} item; D100 II characters here have none")
    effects = r.actor.get("effects")
    if isinstance(effects, list) and effects:
        r.skip("effects", f"{len(effects)} active effect{'s' if len(effects) != 1 else ''}")
    for key in ("sanity", "fatigue", "res5"):
        if isinstance(r.system.get(key), dict) and _num(r.system[key].get("max"), key) and not r.base:
            r.skip(f"system.{key}", "D100 II has no such figure")


def read_foundry(data: object, label: str, notice: Notice) -> list[tuple[str, dict]]:
    """Every brp actor in ``data`` (one actor or a list) as ``(label, document)``."""
    from chargen.serialize import validate

    out = []
    for i, actor in enumerate(_list(data, f"{label}: actors") if isinstance(data, list) else [data]):
        name = actor.get("name") if isinstance(actor, dict) else None
        where = (f"{label}[{i}]" if isinstance(data, list) else label) + (f" ({str(name)[:60]})" if name else "")
        r = ActorReader(where, actor, i, notice)
        doc = _document(r)
        _unread(r)
        r.flush()
        validate(doc, where)
        out.append((where, doc))
    return out
