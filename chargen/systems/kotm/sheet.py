"""What a KoTM sheet shows besides the character: the exact odds of each outcome for
this character's SD, the save check, the critical-fumble damage and the fumble table."""

from __future__ import annotations

from chargen.resolve import odds_entry
from chargen.systems.kotm.mechanics import outcome_odds, outcome_reads, ranges
from chargen.systems.kotm.rules import OUTCOME, KotmRules, Outcome
from chargen.systems.kotm.view import span as _span
from chargen.systems.kotm.view import view
from chargen.view import roster_pairs

def outcome_order(rules: KotmRules) -> list:
    """OS, CS, hit, miss, CF, TF: the hitting exceptions, hit, miss, the failing exceptions."""
    a = rules.attack
    return [o for o in a.exceptions if o.hit] + [a.hit, a.miss] + [o for o in a.exceptions if not o.hit]


def sheet_context(doc: dict, rules: KotmRules | None = None) -> dict:
    if rules is None:
        from chargen.rules import load_builtin

        rules = load_builtin(doc["system"]["id"]).rules
    shown = view(doc, rules)
    sd, level = doc["sd"], doc["level"]
    odds = outcome_odds(rules.attack, sd)
    reads = outcome_reads(rules.attack, sd)
    return {
        "sd": sd,
        "level": level,
        "save_check": rules.save_check(level),
        "critical_fumble_damage": rules.critical_fumble_damage(level),
        "outcomes": [
            {"id": o.id, "abbr": o.abbr, "label": o.label, "hit": o.hit, "dice": _dice(o),
             "reads": ranges(reads[o.id]), "odds": odds_entry(odds[o.id]),
             "result": _result(rules, o, doc)}
            for o in outcome_order(rules)
        ],
        "attack_rule": attack_rule(rules),
        "damage_rule": damage_rule(rules),
        "fumble_rule": fumble_rule(rules),
        "levels": [{"level": n, "save_check": rules.save_check(n), "critical_fumble_damage":
                    rules.critical_fumble_damage(n)} for n in range(rules.level_min, rules.level_max + 1)],
        "fumble_table": [
            {"roll": row.roll_label, "id": row.id, "label": row.label, "effect": row.effect}
            for row in rules.fumbles.rows
        ],
        "weapons": [_weapon(w) for w in doc["weapons"]],
        "view": shown,
        "roster": roster_pairs(shown),  # the cover's key figures
    }


def _dice(o: Outcome) -> str:
    """The faces of an exception as the seed writes them ("10 10", "10 1-4"); empty for hit and miss."""
    if o.first is None:
        return ""
    return f"{_span(list(o.first))} {_span(list(o.second))}"


def _result(rules: KotmRules, o: Outcome, doc: dict) -> str:
    """What the outcome does, in words, with this character's level and critical-fumble damage."""
    a = rules.attack
    if o.id == OUTCOME["outstanding_success"]:
        return f"(damage + {a.os_per_level * doc['level']} for level {doc['level']}) \u00d7 {a.os_multiply}"
    if o.id == OUTCOME["critical_success"]:
        return f"damage + {a.cs_add}"
    if o.hit:
        return "second die + weapon modifier"
    if o.id == OUTCOME["critical_fumble"]:
        return f"{doc['critical_fumble_damage']} damage to self"
    if o.id == OUTCOME["total_fumble"]:
        return f"roll 2D{rules.fumbles.sides} on the fumble table"
    return "no damage"


def attack_rule(rules: KotmRules) -> str:
    """How the attack roll is read, in words, from the attack rules."""
    a = rules.attack
    best = a.read(a.sides, a.sides)
    return (f"First die tens, second die units, a {a.sides} reads {a.ten_reads_as} ({a.sides}\u00a0{a.sides} is "
            f"{best:02d}). A read at or under the SD hits, and the second die is the damage. The "
            f"{len(a.exceptions)} exceptions go by the dice and win over the SD.")


def fumble_rule(rules: KotmRules) -> str:
    f = rules.fumbles
    return f"2D{f.sides}, read as the attack, but 00 is {f.zero_zero}"


def damage_rule(rules: KotmRules) -> str:
    """How a hit's damage is figured, in words, from the attack rules."""
    a = rules.attack
    return (f"Damage is the second die's face (a {a.sides} does {a.damage_ten}) plus the weapon's damage "
            f"modifier, never below {a.damage_min}.")


def _weapon(w: dict) -> dict:
    d = w["damage"]
    return {"label": w["label"], "kind": w["kind"], "damage_modifier": f"{w['damage_modifier']:+d}",
            "hit": _span(d["hit"]), "critical_success": _span(d["critical_success"]),
            "outstanding_success": _span(d["outstanding_success"])}
