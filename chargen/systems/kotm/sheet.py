"""What a KoTM sheet shows besides the character: the exact odds of each outcome for
this character's SD, the save check, the critical-fumble damage and the fumble table."""

from __future__ import annotations

from chargen.resolve import odds_entry
from chargen.systems.kotm.mechanics import outcome_odds, outcome_reads, ranges
from chargen.systems.kotm.rules import KotmRules


def outcome_order(rules: KotmRules) -> list:
    """OS, CS, hit, miss, CF, TF: the hitting exceptions, hit, miss, the failing exceptions."""
    a = rules.attack
    return [o for o in a.exceptions if o.hit] + [a.hit, a.miss] + [o for o in a.exceptions if not o.hit]


def sheet_context(doc: dict, rules: KotmRules | None = None) -> dict:
    if rules is None:
        from chargen.rules import load_builtin

        rules = load_builtin(doc["system"]["id"]).rules
    sd, level = doc["sd"], doc["level"]
    odds = outcome_odds(rules.attack, sd)
    reads = outcome_reads(rules.attack, sd)
    return {
        "sd": sd,
        "level": level,
        "save_check": rules.save_check(level),
        "critical_fumble_damage": rules.critical_fumble_damage(level),
        "outcomes": [
            {"id": o.id, "abbr": o.abbr, "label": o.label, "hit": o.hit,
             "reads": ranges(reads[o.id]), "odds": odds_entry(odds[o.id])}
            for o in outcome_order(rules)
        ],
        "fumble_table": [
            {"roll": row.roll_label, "id": row.id, "label": row.label, "effect": row.effect}
            for row in rules.fumbles.rows
        ],
        "weapons": [_weapon(w) for w in doc["weapons"]],
    }


def _span(r: list | None) -> str:
    if r is None:
        return "-"
    return str(r[0]) if r[0] == r[1] else f"{r[0]}-{r[1]}"


def _weapon(w: dict) -> dict:
    d = w["damage"]
    return {"label": w["label"], "kind": w["kind"], "damage_modifier": f"{w['damage_modifier']:+d}",
            "hit": _span(d["hit"]), "critical_success": _span(d["critical_success"]),
            "outstanding_success": _span(d["outstanding_success"])}
