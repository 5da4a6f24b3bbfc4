"""The KoTM character's typed view (:mod:`chargen.view`): what csv, text, the cover roster and
``chargen stats`` read."""

from __future__ import annotations

from chargen.view import CharacterView, Figure, Listing, header, line, one


def span(r: list | None) -> str:
    """A range of faces as shown: "8-12", one face "8", none "-"."""
    if r is None:
        return "-"
    return str(r[0]) if r[0] == r[1] else f"{r[0]}-{r[1]}"


def pair(r: list | None) -> str:
    """A range of faces as csv and text show it: "8-12", one face "8-8", none (an SD no roll reaches) "-"."""
    return "-" if r is None else f"{r[0]}-{r[1]}"


def weapon_text(w: dict) -> str:
    """'Sword (melee) +1, hit 2-7, critical 8-12, outstanding 13-20' (the text block's)."""
    d = w["damage"]
    spans = ", ".join(f"{label} {pair(d[key])}" for key, label in
                      (("hit", "hit"), ("critical_success", "critical"), ("outstanding_success", "outstanding"))
                      if key in d)
    return f"{w['label']} ({w['kind']}) {w['damage_modifier']:+d}, {spans}"


def _columns(doc: dict) -> tuple[Figure, ...]:
    weapons = "; ".join(f"{w['label']} {pair(w['damage']['hit'])}" for w in doc["weapons"])
    pairs = (("profession", doc["profession"]["label"]), ("level", doc["level"]), ("sd", doc["sd"]),
             ("save_check", doc["save_check"]), ("critical_fumble_damage", doc["critical_fumble_damage"]),
             ("weapons", weapons))
    return tuple(Figure(key, value, key) for key, value in pairs)


def _roster(doc: dict) -> tuple[Figure, ...]:
    """The cover's key figures: profession, level, SD, save check, critical-fumble damage and the
    first weapon's hit damage."""
    out = [Figure("", doc["profession"]["label"]), Figure("Level", doc["level"]), Figure("SD", doc["sd"]),
           Figure("SC", doc["save_check"]), Figure("CF", doc["critical_fumble_damage"])]
    if doc["weapons"]:
        w = doc["weapons"][0]
        out.append(Figure(w["label"], span(w["damage"]["hit"]).replace("-", "\u2013")))
    return tuple(out)


def _key_figures(doc: dict) -> tuple[Figure, ...]:
    best = max((w["damage_modifier"] for w in doc["weapons"]), default=0)
    return (Figure("Level", doc["level"]), Figure("SD", doc["sd"]), Figure("Save check", doc["save_check"]),
            Figure("Best damage modifier", best))


def view(doc: dict, rules=None) -> CharacterView:
    strip = (line(one("level", "Level", doc["level"]), one("sd", "SD", doc["sd"]),
                  one("save_check", "Save", doc["save_check"]),
                  one("critical_fumble_damage", "Critical fumble damage", doc["critical_fumble_damage"])),)
    lists = (Listing("weapons", "Weapons", tuple(weapon_text(w) for w in doc["weapons"])),)
    return CharacterView(header(doc, (doc["profession"]["label"],)), strip, (), lists, doc.get("notes") or "",
                         _columns(doc), _roster(doc), _key_figures(doc))
