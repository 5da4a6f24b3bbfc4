"""The RTD character's typed view (:mod:`chargen.view`): what csv, text, the cover roster and
``chargen stats`` read. The stats are the rules' own, in the rules' order (else the document's)."""

from __future__ import annotations

from chargen.view import CharacterView, Figure, Listing, figures, header, line


def stats(doc: dict, rules) -> list[tuple[str, object]]:
    """``(abbr, value)`` of each stat: the rules' stats in their order, else the document's."""
    if rules is None:
        return [(s["abbr"], s["value"]) for s in doc["stats"]]
    return [(st.abbr, next((s["value"] for s in doc["stats"] if s["abbr"] == st.abbr), "")) for st in rules.stats]


def _lists(doc: dict) -> tuple[Listing, ...]:
    return (Listing("skills", "Skills", tuple(f"{s['label']} {s['level_label']} ({s['xp']} XP)" for s in doc["skills"])),
            Listing("weapons", "Weapons", tuple(f"{w['label']} ({w['kind']}) damage {w['damage']} critical "
                                                f"x{w['critical_multiplier']:g}" for w in doc["weapons"])),
            Listing("wounds", "Wounds", tuple(f"{w['label']} {w['state']}" for w in doc["wounds"])))


def _columns(doc: dict, pairs: list) -> tuple[Figure, ...]:
    skills = "; ".join(f"{s['label']} {s['level_label']} ({s['xp']} XP)" for s in doc["skills"])
    weapons = "; ".join(f"{w['label']} {w['damage']}" for w in doc["weapons"])
    return (*(Figure(abbr, value, abbr) for abbr, value in pairs), Figure("skills", skills, "skills"),
            Figure("weapons", weapons, "weapons"))


def _roster(doc: dict) -> tuple[Figure, ...]:
    """The cover's key figures: the stats and the most practised skill."""
    out = [Figure(s["abbr"], s["value"]) for s in doc["stats"]]
    if doc["skills"]:
        best = max(doc["skills"], key=lambda s: s["xp"])
        out.append(Figure(best["label"], best["level_label"]))
    return tuple(out)


def view(doc: dict, rules=None) -> CharacterView:
    pairs = stats(doc, rules)
    return CharacterView(header(doc), (line(figures("stats", pairs)),), (), _lists(doc), doc.get("notes") or "",
                         _columns(doc, pairs), _roster(doc),
                         _key_figures(doc), tuple(Figure(f"{s['label']} XP", s["xp"], s["id"]) for s in doc["skills"]),
                         tuple(s["id"] for s in doc["skills"] if s["xp"] > 0))


def _key_figures(doc: dict) -> tuple[Figure, ...]:
    """What ``chargen stats`` summarises: the stats, the best weapon damage, each skill's XP."""
    return (*(Figure(s["abbr"], s["value"]) for s in doc["stats"]),
            Figure("Best weapon damage", max((w["damage"] for w in doc["weapons"]), default=0)),
            *(Figure(f"{s['label']} XP", s["xp"]) for s in doc["skills"]))
