"""RTD character generation: stats with their tiers, skills with XP, wounds and weapons."""

from __future__ import annotations

from chargen.dice import Roller, parse
from chargen.systems.rtd.rules import Actions, RtdRules, SkillLevel

D100 = parse("D100")


def draw_identity(rules: RtdRules, roller: Roller) -> dict[str, str]:
    """The sex, the first roll of the character's generator: what its name depends on."""
    return {"sex": roller.choose(rules.names.sexes, "identity.sex")}


def generate(rules: RtdRules, request, ctx) -> dict:
    """One character's body; the sex was drawn first by the name service (:func:`draw_identity`)."""
    roller = ctx.roller
    sex = ctx.identity["sex"]
    arche = rules.archetypes.get(request.archetype) if request.archetype else None
    age = roller.roll(rules.names.age, "identity.age")
    body = {"identity": {"name": ctx.names.unique(rules.names.given[sex], rules.names.bynames, rules.names.format),
                         "sex": sex, "age": age}}
    if arche is not None:
        body["archetype"] = {"id": arche.id, "label": arche.label}
    return body | {
        "stats": trace_tiers(roll_stats(rules, roller, arche), ctx.trail),
        "skills": pick_skills(rules, roller) if arche is None or arche.skills is None else own_skills(rules, arche, roller),
        "wounds": [{"part": p.id, "label": p.label, "state": rules.wounds.starting_state}
                   for p in rules.wounds.parts],
        "weapons": carry_weapons(rules, roller, arche.weapons if arche else None),
        "notes": "",
    }


def check_request(rules: RtdRules, request) -> list[str]:
    problems = []
    if request.archetype is not None and request.archetype not in rules.archetypes and rules.archetypes:
        problems.append(f"--archetype: unknown archetype '{request.archetype}' "
                        f"(expected one of: {', '.join(sorted(rules.archetypes))})")
    if request.profession is not None or request.years is not None:
        problems.append("--profession and --years are d100 previous experience (an RTD archetype sets skills)")
    return problems


def roll_stats(rules: RtdRules, roller: Roller, arche=None) -> list[dict]:
    """Each stat on the rules' dice (or the archetype's for that stat), with its roll-off tier."""
    own = arche.stats if arche is not None else {}
    out = []
    for s in rules.stats:
        value = roller.roll(own.get(s.id, rules.stat_dice), f"stats.{s.id}")
        out.append({"id": s.id, "abbr": s.abbr, "label": s.label, "value": value, "tier": rules.tier_of(value).id})
    return out


def trace_tiers(stats: list[dict], trail) -> list[dict]:
    for n, s in enumerate(stats):
        trail.derive(f"stats[{n}].tier", s["tier"], "the roll-off tier whose range holds the stat", stat=s["value"])
    return stats


def bonus_text(level: SkillLevel | None, actions: Actions) -> str:
    """The level's bonus in words, as the seed gives it (a chosen result runs over the action scale)."""
    if level is None:
        return "untrained"
    parts = []
    if level.static:
        parts.append(f"{level.static:+d} to all rolls")
    if level.natural_one:
        parts.append(f"{'extra ' if level.static else ''}{level.natural_one:+d} on a natural 1")
    if level.choose:
        parts.append("choose " + ", ".join(f"{c:+d}" for c in level.choose[:-1]) + f" or {level.choose[-1]:+d}")
    if level.overshoot == "never":
        parts.append("cannot overshoot")
    elif level.overshoot == "optional":
        parts.append("may choose not to overshoot")
    if level.choose_result:
        parts.append(f"chooses the result, {actions.clamp_min} to {actions.clamp_max}")
    if level.successes:
        parts.append(level.successes)
    return "; ".join(parts) or "no bonus"


def skill_entry(rules: RtdRules, skill_id: str, label: str, xp: int) -> dict:
    level = rules.skill_level(xp)
    later = [lv.xp for lv in rules.levels if lv.xp > xp]
    return {"id": skill_id, "label": label, "xp": xp,
            "level": level.id if level else None, "level_label": level.label if level else "Untrained",
            "bonus": bonus_text(level, rules.actions), "next_level_xp": later[0] if later else None}


def pick_skills(rules: RtdRules, roller: Roller) -> list[dict]:
    count = roller.roll(rules.skill_count, "skills.count")
    pool = list(rules.skill_pool)
    out = []
    for _ in range(count):
        skill_id, label = roller.choose(pool, "skills.choice")
        pool.remove((skill_id, label))
        out.append(skill_entry(rules, skill_id, label, roller.roll(rules.skill_xp, f"skills.{skill_id}.xp")))
    return out


def own_skills(rules: RtdRules, arche, roller: Roller) -> list[dict]:
    """The archetype's skills, each with XP rolled on its dice."""
    return [skill_entry(rules, sid, label, max(0, roller.roll(xp, f"skills.{sid}.xp"))) for sid, label, xp in arche.skills]


def carry_weapons(rules: RtdRules, roller: Roller, picks=None) -> list[dict]:
    """One weapon from each carry pick of the rules (or of the archetype, ``picks``)."""
    out = []
    for pick in rules.carry if picks is None else picks:
        if pick.chance is not None and roller.roll(D100, "weapons.chance") > pick.chance:
            continue
        w = rules.weapons[roller.choose(pick.options, "weapons.choice")]
        cm = w.critical_multiplier or rules.combat.critical_multiplier
        out.append({"id": w.id, "label": w.label, "kind": w.kind, "damage": w.damage,
                    "critical_multiplier": float(cm)})
    return out
