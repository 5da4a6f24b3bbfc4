"""Reading MEG JSON (an enemies list or a party) into d100 character documents.

A MEG NPC becomes a D100 II character of the built-in rules: what MEG gives
(name, stats, skill totals, hit locations, combat styles, damage modifier,
magic points, movement, the extension block's profile and equipment) is read;
what D100 II needs and MEG lacks (skill bases, category modifiers, strike
ranks, attack/parry/defence bonuses) comes from the D100 II rules applied to
the NPC's characteristics, unless the NPC carries chargen's own features
("D100 II bonus: ...", "D100 II strike ranks: ...", "Parry: ..."), which are
read back, so chargen's MEG output reads back to the same figures.

What cannot be read is one line per field, handed to ``notice`` (spells,
cults, spirits, a skill or characteristic D100 II does not have, a feature
chargen does not know). The document records the import as an overlay
``{"name": "MEG import", "hash": <sha256 of the NPC>}`` on the built-in rules,
so it is never checked against the rules' bounds (a MEG monster may have STR 30).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable

from chargen.digits import whole
from chargen.flavour.show import FEATURE as FLAVOUR_FEATURE, from_features
from chargen.errors import CharacterError
from chargen.systems.d100.generate import below_minimum
from chargen.systems.d100.interop import mythras
from chargen.systems.d100.interop.meg_values import MAX_NUMBER, _dice, _int, _list, _mapping, _span, ident  # noqa: F401
from chargen.systems.d100.interop.meg import MEG_STATS, MELEE_REACH, MISSILE_REACH, SIZE, SPELL_LISTS

Notice = Callable[[str], None]
_SR = re.compile(r"^\s*(\d+)", re.ASCII)
_BONUS = re.compile(r"^D100 II bonus: attack ([+-]?\d+)%, parry ([+-]?\d+)%, defence ([+-]?\d+)%$", re.ASCII)
_STRIKE = re.compile(r"^D100 II strike ranks: SIZ (-?\d+), DEX (-?\d+)$", re.ASCII)
_PARRY = re.compile(r"^Parry: (.+) (-?\d+)%$", re.ASCII)
_ARMOUR = re.compile(r"^Armour: (.+) \(AP (\d+)(?:, ENC (\d+(?:\.\d+)?))?\)$", re.ASCII)
_EXPERIENCE = re.compile(r"^Experience: (.+), (\d+) years \((.*)\)$", re.ASCII)
_ARCHETYPE = re.compile(r"^Archetype: (.+)$")
_HEAD = re.compile(r"^.* character made by chargen \(seed (\d+), index (\d+)\)\..*$", re.ASCII)
KNOWN_KEYS = {"name", "cult_rank", "stats", "skills", *SPELL_LISTS, "hit_locations", "combat_styles", "attributes",
              "notes", "features", "cults", "spirits", "natural_armor", "profile", "notes_extra", "movement",
              "max_magic_points", "equipment"}


IMPORT_OVERLAY = "MEG import"  # the overlay a document read from MEG records


def is_import(doc: dict) -> bool:
    """A document read from MEG (it holds MEG's totals, not rolls chargen can recompute)."""
    return any(o.get("name") == IMPORT_OVERLAY for o in doc.get("system", {}).get("overlays", ())
               if isinstance(o, dict))


def nothing_to_check(path: str, docs: list[dict]) -> str:
    """The one line ``chargen check`` says of a MEG file: what it checked, and why nothing more."""
    made = [d for d in docs if d["seed"]["batch"]]  # chargen's own notes name the seed (read back into seed.batch)
    n = len(docs)
    return (f"{path}: MEG JSON, {n} NPC{'s' if n != 1 else ''} read (every field in range); MEG holds totals, "
            "not the rolls and rules they came from, so no value can be recomputed"
            + ("; check the character's chargen JSON or PDF instead" if made else ""))


def is_meg(data: object) -> bool:
    """An enemies list (NPC objects with name and stats) or a party ``{party_name, enemies}``."""
    if isinstance(data, dict) and isinstance(data.get("enemies"), list) and "party_name" in data:
        return True
    return isinstance(data, list) and bool(data) and all(isinstance(n, dict) and "stats" in n for n in data)


def npcs(data: object) -> list[dict]:
    return data["enemies"] if isinstance(data, dict) else data


class NpcReader:
    """One NPC to one d100 document, with the built-in D100 II rules for what MEG lacks."""

    def __init__(self, label: str, npc: dict, position: int, notice: Notice):
        from chargen.rules import load_builtin

        if not isinstance(npc, dict):
            raise CharacterError(f"{label}: expected an NPC object")
        self.label, self.npc, self.position, self.notice = label, npc, position, notice
        self.module = load_builtin("d100")
        self.rules = self.module.rules
        self.features = [f for f in _list(npc.get("features"), f"{label}: features") if isinstance(f, str)]
        self.used: set[int] = set()
        self.skipped: list[tuple[str, str]] = []

    def field(self, key: str) -> list:
        return _list(self.npc.get(key), f"{self.label}: {key}")

    def skip(self, field: str, why: str) -> None:
        self.skipped.append((field, f"{self.label}: {field}: {why}; not read"))

    def flush(self) -> None:
        """The lines of what was not read, in the order of the NPC's fields."""
        order = {str(k): n for n, k in enumerate(self.npc)}
        key = lambda item: order.get(re.split(r"[\[. ]", item[0], maxsplit=1)[0], len(order))  # noqa: E731
        for _, line in sorted(self.skipped, key=key):
            self.notice(line)

    def feature(self, pattern: re.Pattern) -> list[re.Match]:
        out = []
        for i, f in enumerate(self.features):
            m = pattern.match(f)
            if m:
                self.used.add(i)
                out.append(m)
        return out

    def characteristics(self) -> dict[str, int]:
        stats = {}
        for n, entry in enumerate(self.field("stats")):
            if not isinstance(entry, dict) or len(entry) != 1:
                raise CharacterError(f"{self.label}: stats[{n}]: expected one {{\"STR\": n}} object")
            (key, value), = entry.items()
            stats[str(key).upper()] = _int(value, f"{self.label}: stats[{n}].{key}")
        chars = {}
        for ch in self.rules.characteristics:
            if ch.abbr.upper() in stats or ch.id.upper() in stats:
                chars[ch.id] = max(0, stats.pop(ch.abbr.upper(), stats.pop(ch.id.upper(), 0)))
            else:
                raise CharacterError(f"{self.label}: stats: no {ch.abbr} (D100 II needs {', '.join(MEG_STATS)})")
        for key in stats:
            self.skip(f"stats.{key}", "D100 II has no such characteristic")
        return chars

    def combat(self, chars: dict[str, int]) -> dict:
        from chargen.systems.d100.generate import combat_abilities

        combat = combat_abilities(self.rules, chars)
        attrs = _mapping(self.npc.get("attributes"), f"{self.label}: attributes")
        for m in self.feature(_BONUS):
            combat.update(attack=int(m[1]), parry=int(m[2]), defence=int(m[3]))
        if "damage_modifier" in attrs:
            combat["damage_modifier"] = _dice(attrs["damage_modifier"])
        for key, field in (("hit_points", "hit_points"), ("magic_points", "pow_points")):
            if key in attrs:
                combat[field] = max(0, _int(attrs[key], f"{self.label}: attributes.{key}"))
        move = attrs.get("movement", self.npc.get("movement"))
        if move is not None:
            combat["mov"] = max(0, _int(_SR.match(str(move))[1] if _SR.match(str(move)) else move,
                                        f"{self.label}: attributes.movement"))
        strikes = self.feature(_STRIKE)
        if strikes:
            combat["strike_ranks"] = {"siz": int(strikes[0][1]), "dex": int(strikes[0][2])}
        elif "strike_rank" in attrs:
            self.skip("attributes.strike_rank", "Mythras strike rank has no D100 II equivalent (SIZ and DEX "
                      "strike ranks are taken from the D100 II rules)")
        return combat

    def hit_locations(self) -> list[dict]:
        known = {loc.label.lower(): loc for loc in self.rules.locations}
        out = []
        for n, h in enumerate(self.field("hit_locations")):
            where = f"{self.label}: hit_locations[{n}]"
            if not isinstance(h, dict) or "name" not in h:
                raise CharacterError(f"{where}: expected {{name, range, hp, ap}}")
            melee = _span(h.get("range", ""), f"{where}.range")
            loc = known.get(str(h["name"]).lower())
            armour = [a.strip() for a in str(h.get("armor") or "").split(",") if a.strip()]
            out.append({"id": loc.id if loc else ident(h["name"]), "label": str(h["name"]), "melee": melee,
                        "missile": list(loc.missile) if loc else list(melee),
                        "hp": max(0, _int(h.get("hp", 0), f"{where}.hp")),
                        "ap": max(0, _int(h.get("ap", 0), f"{where}.ap")), "armour": armour})
        if not out:
            raise CharacterError(f"{self.label}: hit_locations: none (a D100 II sheet needs at least one)")
        return out

    def skills(self, chars: dict[str, int], categories: dict[str, int]) -> list[dict]:
        """The D100 II skills (the rules' bases), with the totals MEG gives under a name that stands
        for one of them; a Mythras skill that stands for none is kept as its own skill."""
        from chargen.systems.d100.generate import skills

        out = skills(self.rules, chars, categories)
        by_id, by_label = {s["id"]: s for s in out}, {s["label"].lower(): s for s in out}
        labels = {s["id"]: s["label"] for s in out}  # kept as the skills grow (one dict, not one a skill)
        named = mythras.reverse(labels)
        given = {}
        for m in self.feature(re.compile("^" + re.escape(mythras.SKILLS_FEATURE) + ".*$")):
            given.update(mythras.feature_values(m[0]))
        for n, entry in enumerate(self.field("skills")):
            if not isinstance(entry, dict) or len(entry) != 1:
                raise CharacterError(f"{self.label}: skills[{n}]: expected one {{\"Skill\": total}} object")
            (name, total), = entry.items()
            value = _int(total, f"{self.label}: skills[{n}].{name}")
            key = str(name).strip().lower()
            skill = by_label.get(key) or (by_id.get(named[key]) if named.get(key) else None)
            if skill is not None:
                _set(skill, value)
            elif not mythras.merged(key, value, given, labels):
                out.append(mythras.own_skill(ident(name), str(name)[:60], value))  # stands for no one D100 II skill
                labels[out[-1]["id"]] = out[-1]["label"]
        for label, value in given.items():
            if label in by_label:
                _set(by_label[label], value)
        return out

    def weapons(self, chars: dict[str, int], combat: dict) -> list[dict]:
        known = {w.label.lower(): w for w in self.rules.weapons.values()}
        parry = {m[1].lower(): int(m[2]) for m in self.feature(_PARRY)}
        out = []
        for n, style in enumerate(self.field("combat_styles")):
            if not isinstance(style, dict):
                raise CharacterError(f"{self.label}: combat_styles[{n}]: expected {{name, value, weapons}}")
            value = _int(style.get("value", 0), f"{self.label}: combat_styles[{n}].value")
            weapons = _list(style.get("weapons"), f"{self.label}: combat_styles[{n}].weapons")
            for k, w in enumerate(weapons):
                entry = self.weapon(w, value, parry, known, combat, f"{self.label}: combat_styles[{n}].weapons[{k}]")
                rule = known.get(entry["label"].lower())
                if rule is not None:  # as the rules give it from the NPC's STR and DEX (MEG marks it in effects)
                    entry["below_minimum"] = below_minimum(rule, chars)
                out.append(entry)
                self.weapon_unread(w, f"combat_styles[{n}].weapons[{k}]")
            names = {str(w.get("name")) for w in weapons if isinstance(w, dict)}
            if style.get("name") is not None and str(style["name"]) not in names:
                self.skip(f"combat_styles[{n}].name {str(style['name'])[:60]!r}",
                          "D100 II has a skill per weapon, not combat styles (its value is each weapon's attack)")
        return out

    def weapon_unread(self, w: dict, where: str) -> None:
        """A line for each weapon field D100 II has no place for (chargen's own defaults say nothing)."""
        shield = "shield" in str(w.get("type", ""))
        if not shield and w.get("ap") not in (None, 0):
            self.skip(f"{where}.ap", "D100 II weapons have no armour points (only shields)")
        ranged = "ranged" in str(w.get("type", ""))
        for key, default in (("size", SIZE), ("reach", MISSILE_REACH if ranged else MELEE_REACH)):
            if w.get(key) not in (None, default):
                self.skip(f"{where}.{key}", f"D100 II has no weapon {key}")
        effects = [e.strip() for e in str(w.get("effects") or "").split(",")
                   if e.strip() and not e.strip().lower().startswith("cannot use:")]  # chargen's mark: read again
        if [e for e in effects if e.lower() not in ("impale", "slash", "crush")] or len(effects) > 1:
            self.skip(f"{where}.effects", "D100 II knows one of impale, slash, crush")

    def weapon(self, w: dict, value: int, parry: dict, known: dict, combat: dict, where: str) -> dict:
        if not isinstance(w, dict) or "name" not in w:
            raise CharacterError(f"{where}: expected a weapon {{name, damage, type, ...}}")
        name, kind_of = str(w["name"]), str(w.get("type", ""))
        kind = "shield" if "shield" in kind_of else "missile" if "ranged" in kind_of else "melee"
        rule = known.get(name.lower())
        damage = str(w.get("damage") or "").replace("d", "D").replace(" ", "") or None
        dm = combat["damage_modifier"]
        if damage and not w.get("add_damage_modifier") and dm != "0" and damage.endswith(dm) and len(damage) > len(dm):
            damage, add_dm = damage[:-len(dm)], True  # chargen's: the character's modifier written into the damage
        else:
            add_dm = bool(w.get("add_damage_modifier"))
        if kind == "shield" and damage == "0":
            damage = None
        reach = str(w.get("range") or "").split("/")
        rng = next((n for p in reach if (n := whole(p.strip())) is not None), None) if kind == "missile" else None
        special = next((e.strip().lower() for e in str(w.get("effects") or "").split(",")
                        if e.strip().lower() in ("impale", "slash", "crush")), None)
        return {
            "id": rule.id if rule else ident(name), "label": name, "kind": kind,
            "base": rule.base if rule else 0,
            "attack": None if kind == "shield" else value,
            "parry": parry.get(name.lower(), value if kind == "shield" else None),
            "damage": damage,
            "damage_modifier": (dm if add_dm else "0") if damage else None,
            "sr": _strike_rank(kind, rule, combat), "range": rng,
            "ap": _int(w["ap"], f"{where}.ap") if kind == "shield" and "ap" in w else None,
            "hp": _int(w.get("hp", 0), f"{where}.hp"), "enc": 0,
            "special": special if special in ("impale", "slash", "crush") else None,
            "min_str": rule.min_str if rule else 0, "min_dex": rule.min_dex if rule else 0, "hands": 2 if "2h" in kind_of else 1, "below_minimum": None,
        }

    def armour(self, locations: list[dict]) -> list[dict]:
        enc = {str(e.get("name")): e.get("enc", 0) for e in self.field("equipment") if isinstance(e, dict)}
        for h, loc in zip(self.field("hit_locations"), locations):  # Foundry's: a piece's ENC summed over its locations
            if len(loc["armour"]) == 1 and isinstance(h.get("enc"), (int, float)) and not isinstance(h["enc"], bool):
                enc[loc["armour"][0]] = enc.get(loc["armour"][0], 0) + h["enc"]
        pieces = {}
        for m in self.feature(_ARMOUR):
            pieces[m[1]] = int(m[2])
            if m[3] is not None:
                enc[m[1]] = float(m[3]) if "." in m[3] else int(m[3])
        for loc in locations:
            for label in loc["armour"]:
                pieces.setdefault(label, loc["ap"])
        return [{"id": ident(label), "label": label, "ap": ap,
                 "enc": enc.get(label, 0) if isinstance(enc.get(label, 0), (int, float)) else 0,
                 "covers": [loc["id"] for loc in locations if label in loc["armour"]]}
                for label, ap in pieces.items()]

    def equipment(self, armour: list[dict]) -> list[str]:
        worn = {a["label"] for a in armour}
        return [str(e["name"]) for e in self.field("equipment")
                if isinstance(e, dict) and "name" in e and str(e["name"]) not in worn]

    def unread(self) -> None:
        for key in SPELL_LISTS + ("cults", "spirits"):
            n = len(self.field(key))
            if n:
                self.skip(key, f"{n} entr{'ies' if n != 1 else 'y'}; D100 II characters here have none")
        if self.npc.get("cult_rank") not in (None, "None", ""):
            self.skip("cult_rank", "D100 II has no cult rank")
        if self.npc.get("natural_armor"):
            self.skip("natural_armor", "read as the locations' AP")
        for i, f in enumerate(self.features):
            if i not in self.used and not f.startswith("Background: "):
                self.skip(f"features {f[:60]!r}", "not a feature chargen reads")
        for key in self.npc:
            if key not in KNOWN_KEYS:
                self.skip(str(key)[:40], "not a MEG field chargen knows")

    def made_as(self) -> dict:
        """The archetype and previous experience chargen's features record ("Archetype: ...", "Experience: ...")."""
        out = {}
        for m in self.feature(_ARCHETYPE)[:1]:
            out["archetype"] = {"id": ident(m[1]), "label": m[1]}
        for m in self.feature(_EXPERIENCE)[:1]:
            out["experience"] = {"profession": {"id": ident(m[1]), "label": m[1]}, "years": int(m[2]),
                                 "years_dice": m[3]}
        return out

    def document(self) -> dict:
        from chargen.generate import SCHEMA_VERSION
        from chargen.systems.d100.generate import experience_modifier

        npc, m = self.npc, self.module
        chars = self.characteristics()
        categories = {cat.id: cat.value(chars) for cat in self.rules.categories}
        combat = self.combat(chars)
        locations = self.hit_locations()
        armour = self.armour(locations)
        profile = _mapping(npc.get("profile"), f"{self.label}: profile")
        notes = str(npc.get("notes") or "")
        head = _HEAD.match(notes.split("\n", 1)[0])
        background = next((f[len("Background: "):] for f in self.features if f.startswith("Background: ")),
                          profile.get("culture") or profile.get("social_class") or profile.get("career") or "Unknown")
        digest = hashlib.sha256(json.dumps(npc, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()
        doc = {
            "schema": SCHEMA_VERSION,
            "system": {"id": m.id, "name": m.name, "version": m.version, "engine": m.engine, "rules_hash": m.hash,
                       "overlays": [{"name": IMPORT_OVERLAY, "hash": f"sha256:{digest}"}]},
            "seed": {"batch": int(head[1]) if head else 0, "index": int(head[2]) if head else self.position,
                     "character": 0},
            "identity": {"name": str(npc.get("name") or f"NPC {self.position + 1}")[:200],
                         "sex": str(profile.get("gender") or ""),
                         "age": max(0, _int(profile["age"], f"{self.label}: profile.age"))
                         if profile.get("age") is not None else self.rules.age},
            "characteristics": chars,
            "combat": combat,
            "hit_locations": locations,
            "skill_categories": categories,
            "experience_modifier": experience_modifier(self.rules, chars),
            "skills": self.skills(chars, categories),
            **self.made_as(),
            "weapons": self.weapons(chars, combat),
            "background": {"id": ident(background), "label": str(background)},
            "money": {"starting": 0, "dice": "", "income": None, "income_until_age": None,
                      "currency": self.rules.currency.get("abbr", "")},
            "armour": armour,
            "equipment": self.equipment(armour),
            "notes": notes.split("\n", 1)[1] if head and "\n" in notes else ("" if head else notes),
            **from_features(self.feature(FLAVOUR_FEATURE)),  # the flavour: "Appearance: ..." (chargen.flavour.show)
            "rolls": [],
        }
        self.unread()
        self.flush()
        return doc


def read_meg(data: object, label: str, notice: Notice) -> list[tuple[str, dict]]:
    """Every NPC of a MEG enemies list or party as ``(label, document)``."""
    from chargen.serialize import validate

    out = []
    for i, npc in enumerate(_list(npcs(data), f"{label}: enemies")):
        name = npc.get("name") if isinstance(npc, dict) else None
        where = f"{label}[{i}]" + (f" ({str(name)[:60]})" if name else "")
        doc = NpcReader(where, npc, i, notice).document()
        validate(doc, where)
        out.append((where, doc))
    extra = _list(data.get("additional_features"), f"{label}: additional_features") if isinstance(data, dict) else []
    if extra:
        notice(f"{label}: additional_features: {len(extra)} party feature{'s' if len(extra) != 1 else ''}; not read")
    return out


def _set(skill: dict, value: int) -> None:
    skill["value"] = value
    skill["modifier"] = value - skill["base"]
    skill["trained"] = skill["base"] > 0 or value > 0


def _strike_rank(kind: str, rule, combat: dict) -> int | None:
    """A weapon's strike rank as the D100 II rules give it (the weapon matched by name: melee SIZ + DEX
    + the weapon's SR, missile the DEX SR), None for a shield or a weapon the rules do not know."""
    sr = combat.get("strike_ranks") or {}
    siz, dex = sr.get("siz"), sr.get("dex")
    if rule is None or rule.kind != kind or kind == "shield" or not isinstance(dex, int) or not isinstance(siz, int):
        return None  # not the weapon the rules know by that name
    return dex if kind == "missile" else siz + dex + rule.sr
