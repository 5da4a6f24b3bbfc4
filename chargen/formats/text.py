"""``text``: plain-text stat blocks, many to a file (``blocks.txt``), as game masters paste them.

The grammar (documented in the README; tests parse it with regular expressions):

* a block is lines ending in ``\\n``; blocks are separated by a line holding
  exactly :data:`SEPARATOR` (``---``);
* line 1 is the character's name; line 2 ``<system id> · <system name> <version>
  · seed <batch> · index <i>`` then the identity facts (sex, age, background or profession,
  d100 previous experience, the archetype), ``" · "`` between them;
* every further line is either figures (``STR 13 CON 15 ...`` and
  ``Label value`` pairs, ``" · "`` between concerns) or ``Label: item; item``
  (locations, weapons, skills, armour ...).

Every value is one line (runs of white space in a house rule's label become
one space), so a block never holds a separator line of its own.
"""

from __future__ import annotations

from chargen.formats import BatchInfo, Format

SEPARATOR = "---"
DOT = " · "


def _one_line(value: object) -> str:
    text = " ".join(str(value).split())
    return "-- -" if text == SEPARATOR else text  # a name of exactly '---' must not end the block


def _list(label: str, items) -> str | None:
    items = [_one_line(i) for i in items]
    return f"{label}: {'; '.join(items)}" if items else None


def _head(doc: dict, facts: list) -> list[str]:
    s, seed, who = doc["system"], doc["seed"], doc["identity"]
    line2 = [f"{s['id']}{DOT}{s['name']} {s['version']}", f"seed {seed['batch']}", f"index {seed['index']}",
             *(who[k] for k in ("sex", "age") if who.get(k) not in (None, "")), *facts,
             *([doc["archetype"]["label"]] if doc.get("archetype") else [])]
    return [_one_line(who["name"]), DOT.join(_one_line(f) for f in line2)]


def _pct(v) -> str:
    return "-" if v is None else f"{v}%"


def _d100_weapon(w: dict) -> str:
    parts = [w["label"], _pct(w["attack"])]
    if w.get("parry") is not None:
        parts.append(f"parry {_pct(w['parry'])}")
    damage, dm = w.get("damage") or "-", w.get("damage_modifier")
    if w.get("damage") and dm and dm != "0":
        damage += dm if dm[0] in "+-" else "+" + dm
    parts.append(damage)
    if w.get("sr") is not None:
        parts.append(f"SR {w['sr']}")
    if w.get("range") is not None:
        parts.append(f"range {w['range']}")
    return " ".join(str(p) for p in parts)


def _range(r) -> str:
    return f"{r[0]:02d}-{r[1]:02d}"


def d100(doc: dict) -> list[str]:
    c, k = doc["combat"], doc["characteristics"]
    chars = " ".join(f"{key.upper()} {value}" for key, value in k.items())
    sr = c["strike_ranks"]
    xp = doc.get("experience")
    years = f"{xp['profession']['label']} {xp['years']} years" if xp else None
    return _head(doc, [doc["background"]["label"], *([years] if years else [])]) + [
        DOT.join([chars, f"Move {c['mov']}", f"HP {c['hit_points']}", f"POW points {c['pow_points']}",
                  f"DM {c['damage_modifier']}", f"SR SIZ {sr['siz']} DEX {sr['dex']}"]),
        DOT.join([f"Attack {c['attack']:+d}%", f"Parry {c['parry']:+d}%", f"Defence {c['defence']}%"]),
        *filter(None, [
            _list("Locations", (f"{h['label']} {_range(h['melee'])} AP {h['ap']} HP {h['hp']}"
                                for h in doc["hit_locations"])),
            _list("Weapons", (_d100_weapon(w) for w in doc["weapons"])),
            _list("Skills", (f"{s['label']} {s['value']}%" for s in doc["skills"] if s["value"] > s["base"])),
            _list("Armour", (f"{a['label']} (AP {a['ap']})" for a in doc["armour"])),
            _list("Equipment", doc["equipment"]),
            _list("Notes", [doc["notes"]] if doc.get("notes") else []),
        ])]


def _kotm_weapon(w: dict) -> str:
    d = w["damage"]
    spans = ", ".join(f"{label} {d[key][0]}-{d[key][1]}" for key, label in
                      (("hit", "hit"), ("critical_success", "critical"), ("outstanding_success", "outstanding"))
                      if key in d)
    return f"{w['label']} ({w['kind']}) {w['damage_modifier']:+d}, {spans}"


def kotm(doc: dict) -> list[str]:
    return _head(doc, [doc["profession"]["label"]]) + [
        DOT.join([f"Level {doc['level']}", f"SD {doc['sd']}", f"Save {doc['save_check']}",
                  f"Critical fumble damage {doc['critical_fumble_damage']}"]),
        *filter(None, [_list("Weapons", (_kotm_weapon(w) for w in doc["weapons"])),
                       _list("Notes", [doc["notes"]] if doc.get("notes") else [])])]


def rtd(doc: dict) -> list[str]:
    return _head(doc, []) + [
        " ".join(f"{s['abbr']} {s['value']}" for s in doc["stats"]),
        *filter(None, [
            _list("Skills", (f"{s['label']} {s['level_label']} ({s['xp']} XP)" for s in doc["skills"])),
            _list("Weapons", (f"{w['label']} ({w['kind']}) damage {w['damage']} critical x{w['critical_multiplier']:g}"
                              for w in doc["weapons"])),
            _list("Wounds", (f"{w['label']} {w['state']}" for w in doc["wounds"])),
            _list("Notes", [doc["notes"]] if doc.get("notes") else []),
        ])]


BLOCKS = {"d100": d100, "kotm": kotm, "rtd": rtd}


def block(doc: dict) -> str:
    """One character's stat block (an engine without its own block: the name and head line)."""
    lines = BLOCKS.get(doc["system"]["engine"], lambda d: _head(d, []))(doc)
    return "".join(line + "\n" for line in lines)


class TextFormat(Format):
    name, suffix = "text", ".txt"
    per_character = False
    batch_file = "blocks.txt"

    def to_bytes(self, doc: dict, renderer=None) -> bytes:
        return block(doc).encode("utf-8")

    def part(self, doc: dict) -> str:
        return block(doc)

    def join(self, parts: list[str], info: BatchInfo) -> bytes:
        return f"{SEPARATOR}\n".join(parts).encode("utf-8")
