"""What an RTD sheet shows besides the character: each stat's tier and its exact chance
of passing each difficulty, the success charts' odds, each skill's chance of success on
the action scale, and each weapon's damage on every to-hit row."""

from __future__ import annotations

from fractions import Fraction

from chargen.resolve import odds_entry
from chargen.systems.rtd.combat import round_half_up
from chargen.systems.rtd.mechanics import action_odds, chart_odds, pass_chance
from chargen.systems.rtd.rules import RtdRules
from chargen.systems.rtd.view import view
from chargen.view import roster_pairs

CHARTS_SHOWN = 2

def sheet_context(doc: dict, rules: RtdRules | None = None) -> dict:
    if rules is None:
        from chargen.rules import load_builtin

        rules = load_builtin(doc["system"]["id"]).rules
    shown = view(doc, rules)
    return {
        "difficulties": [{"id": t.id, "label": t.label, "min": t.min, "max": t.max, "die": f"1D{t.max}"}
                         for t in rules.tiers],
        "stats": [_stat(rules, s) for s in doc["stats"]],
        "success_charts": _charts(rules),
        "skills": [_skill(rules, s) for s in doc["skills"]],
        "wound_states": [{"id": w.id, "label": w.label, "penalty": w.penalty, "heals": w.heals}
                         for w in rules.wounds.states],
        "wound_start": rules.wounds.starting_state,
        "body_parts": [_part(rules, w) for w in doc["wounds"]],
        "weapons": [_weapon(rules, w) for w in doc["weapons"]],
        "damage_rows": _damage_rows(rules),
        "action_scale": _action_scale(rules),
        "combat": _combat(rules),
        "view": shown,
        "roster": roster_pairs(shown),  # the cover's key figures
    }


def _stat(rules: RtdRules, s: dict) -> dict:
    tier = rules.tier_of(s["value"])
    rows = []
    for t in rules.tiers:
        p = pass_chance(s["value"], t)
        how = "automatic" if s["value"] >= t.max else "out of reach" if s["value"] < t.min else f"1D{t.max}"
        rows.append({"id": t.id, "label": t.label, "how": how, "odds": odds_entry(p)})
    return {"id": s["id"], "abbr": s["abbr"], "label": s["label"], "value": s["value"],
            "tier": {"id": tier.id, "label": tier.label} if tier else _NO_TIER, "difficulties": rows}


# a stat in no tier (pinned with --force beyond the tiers' range): shown as none, never a tier's name
_NO_TIER = {"id": "", "label": "\u2013"}


def _charts(rules: RtdRules) -> dict:
    rows = [{"chart": chart, "label": label, "rolls": f"{lo}-{hi}" if lo != hi else str(lo), "odds": odds_entry(p)}
            for chart, label, (lo, hi), p in chart_odds(rules.charts, CHARTS_SHOWN)]
    beyond = 1 - sum((Fraction(r["odds"]["fraction"]) for r in rows), Fraction(0))
    explode = [str(r.low) if r.low == r.high else f"{r.low}-{r.high}" for r in rules.charts.pattern if r.explode]
    return {"rows": rows, "beyond": odds_entry(beyond), "die": f"1D{rules.charts.die}", "explode": explode}


def _skill(rules: RtdRules, s: dict) -> dict:
    level = rules.skill_level(s["xp"])
    choices = [{}]
    if level and level.choose:
        choices = [{"chosen_bonus": c} for c in level.choose]
    odds = []
    if not (level and level.choose_result):
        for kw in choices:
            dist = action_odds(rules, level=level, **kw)
            p = sum((dist[r.result] for r in rules.actions.results if r.success), Fraction(0))
            label = f"bonus {kw['chosen_bonus']:+d}" if kw else "as rolled"
            odds.append({"with": label, "success": odds_entry(p)})
    to_next = None if s["next_level_xp"] is None else max(0, s["next_level_xp"] - s["xp"])
    return {**s, "action_success": odds, "xp_to_next": to_next}


def _part(rules: RtdRules, wound: dict) -> dict:
    """A body part's wound track: the states it can take ("Broken ... Can only apply to
    brittle parts") and whether losing it kills ("an important part")."""
    part = next(p for p in rules.wounds.parts if p.id == wound["part"])
    states = [s.id for s in rules.wounds.states if part.brittle or not s.brittle_only]
    return {"part": part.id, "label": part.label, "state": wound["state"], "important": part.important,
            "states": states}


def _weapon(rules: RtdRules, w: dict) -> dict:
    rows = [{"label": r.label, "multiplier": f"{float(r.multiplier):g}x",
             "damage": round_half_up(w["damage"] * r.multiplier)}
            for r in rules.combat.to_hit if r.multiplier > 0]
    crit = Fraction(str(w["critical_multiplier"]))
    return {**w, "rows": rows, "critical": {"multiplier": f"{float(crit):g}x", "damage": round_half_up(w["damage"] * crit)}}


def _damage_rows(rules: RtdRules) -> list[dict]:
    """The to-hit rows that do damage, with their faces and multipliers (the weapons' column heads)."""
    return [{"faces": str(r.low) if r.low == r.high else f"{r.low}-{r.high}", "label": r.label,
             "multiplier": f"{float(r.multiplier):g}x", "critical": r.critical}
            for r in rules.combat.to_hit if r.multiplier > 0]


def _action_scale(rules: RtdRules) -> dict:
    """The 0-10 action scale with each result's chance on the bare die (no skill, bonus or
    penalty); a result the bare die cannot give says which way it lies."""
    a = rules.actions
    bare = action_odds(rules)
    reachable = [r for r, p in bare.items() if p > 0]
    rows = []
    for r in a.results:
        reach = "" if bare[r.result] else "with a penalty" if r.result < min(reachable) else "with a bonus"
        rows.append({"result": r.result, "id": r.id, "label": r.label, "text": r.text, "success": r.success,
                     "overshoot": r.overshoot, "skill_points": r.skill_points, "bare": odds_entry(bare[r.result]),
                     "reach": reach})
    return {"die": f"1D{a.sides}" + (f"{a.add:+d}" if a.add else ""), "rows": rows}


def _combat(rules: RtdRules) -> dict:
    """The to-hit, dodge and critical tables, for reference at the table."""
    c = rules.combat

    def rows(table) -> list[dict]:
        return [{"faces": str(r.low) if r.low == r.high else f"{r.low}-{r.high}", "label": r.label,
                 "text": r.text} for r in table]

    return {"to_hit_die": f"1D{c.to_hit_die}", "to_hit": rows(c.to_hit), "dodge_die": f"1D{c.dodge_die}",
            "dodge": rows(c.dodge), "critical_die": f"1D{c.critical_die}",
            "critical_on": sorted(c.critical_on), "parry_bonus": c.parry_bonus}
