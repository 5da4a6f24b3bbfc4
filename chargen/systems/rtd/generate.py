"""RTD character generation: stats with their tiers, skills with XP, wounds and weapons.

:func:`generate` rolls the inputs (identity, stat values, skills and their XP,
weapons), takes the pinned ones (``--set``), and :func:`derive` computes the rest
(tiers, skill levels and bonuses, weapon figures); :func:`recompute` runs the same
derivation on a saved character's (hand-edited) inputs.
"""

from __future__ import annotations

from chargen import archetypes
from chargen.dice import Roller, parse
from chargen.fill import fill_list
from chargen.pins import PinTarget, sex_target
from chargen.resolve import percent
from chargen.systems.rtd.mechanics import pass_chance
from chargen.systems.rtd.rules import Actions, RtdRules, SkillLevel

D100 = parse("D100")


def draw_identity(rules: RtdRules, roller: Roller) -> dict[str, str]:
    """The sex, the first roll of the character's generator: what its name depends on."""
    return {"sex": roller.choose(rules.names.sexes, "identity.sex")}


def pin_targets(rules: RtdRules) -> dict[str, PinTarget]:
    out = {"identity.name": PinTarget("text"), "identity.sex": sex_target(rules.names.sexes),
           "identity.age": PinTarget("int", rules.names.age.minimum, rules.names.age.maximum,
                                     where=f"{rules.names.age} in names.yaml")}
    for s in rules.stats:
        out[f"stats.{s.id}"] = PinTarget("int", rules.stat_min, rules.stat_max, where="stats.yaml range")
    xp = rules.skill_xp
    for skill_id, _ in rules.skill_pool:
        own = [d for a in rules.archetypes.values() for sid, _, d in (a.skills or ()) if sid == skill_id]
        where = f"{xp} in skills.yaml generation.xp" + (", or an archetype's dice" if own else "")
        out[f"skills.{skill_id}.xp"] = PinTarget("int", max(0, min(d.minimum for d in (xp, *own))),
                                                 max(d.maximum for d in (xp, *own)), where=where)
    return out


def generate(rules: RtdRules, request, ctx) -> dict:
    """One character's body; the sex was drawn first by the name service (:func:`draw_identity`)."""
    roller = ctx.roller
    sex = ctx.identity["sex"]
    arche = rules.archetypes.get(request.archetype) if request.archetype else None
    age = request.pin("identity.age", roller.roll(rules.names.age, "identity.age"))
    stats = {s.id: request.pin(f"stats.{s.id}", v) for s, v in zip(rules.stats, roll_stats(rules, roller, arche))}
    rolled = pick_skills(rules, roller) if arche is None or arche.skills is None else own_skills(rules, arche, roller)
    skills = [(i, label, request.pin(f"skills.{i}.xp", xp)) for i, label, xp in rolled]
    have, labels = {i for i, _, _ in skills}, dict(rules.skill_pool)
    skills += [(sid, labels[sid], v) for p, v in request.pins  # a pinned skill the character did not roll
               if p.startswith("skills.") and (sid := p[len("skills."):-len(".xp")]) not in have]
    inputs = {
        "identity": {"name": ctx.names.unique(rules.names.given[sex], rules.names.bynames, rules.names.format),
                     "sex": sex, "age": age},
        "archetype": {"id": arche.id, "label": arche.label} if arche is not None else None,
        "stats": stats,
        "skills": skills,
        "wounds": {p.id: rules.wounds.starting_state for p in rules.wounds.parts},
        "weapons": carry_weapons(rules, roller, arche.weapons if arche else None),
        "notes": "",
    }
    return derive(rules, inputs, ctx.trail)


def derive(rules: RtdRules, inputs: dict, trail) -> dict:
    """The body from its inputs, each derived value recorded on ``trail`` with the rules rows it read."""
    parts = {p.id: p for p in rules.wounds.parts}
    body = {"identity": dict(inputs["identity"])}
    if inputs.get("archetype"):
        body["archetype"] = dict(inputs["archetype"])
    return body | {
        "stats": [stat_entry(rules, s, inputs["stats"][s.id], trail) for s in rules.stats],
        "skills": [skill_entry(rules, i, label, xp, trail) for i, label, xp in inputs["skills"]],
        "wounds": [{"part": p, "label": parts[p].label, "state": state} for p, state in inputs["wounds"].items()],
        "weapons": [weapon_entry(rules, rules.weapons[w]) for w in inputs["weapons"]],
        "notes": inputs["notes"],
    }


def check_request(rules: RtdRules, request) -> list[str]:
    problems = archetypes.unknown(request, rules.archetypes)
    if request.profession is not None or request.years is not None:
        problems.append("--profession and --years are d100 previous experience (an RTD archetype sets skills)")
    return problems


def roll_stats(rules: RtdRules, roller: Roller, arche=None) -> list[int]:
    """Each stat on the rules' dice (or the archetype's for that stat)."""
    own = arche.stats if arche is not None else {}
    return [roller.roll(own.get(s.id, rules.stat_dice), f"stats.{s.id}") for s in rules.stats]


def inputs_of(doc: dict) -> dict:
    """A saved character's inputs (what :func:`derive` reads), hand edits and all."""
    return {"identity": doc["identity"], "archetype": doc.get("archetype"),
            "stats": {s["id"]: s["value"] for s in doc["stats"]},
            "skills": [(s["id"], s["label"], s["xp"]) for s in doc["skills"]],
            "wounds": {w["part"]: w["state"] for w in doc["wounds"]},
            "weapons": [w["id"] for w in doc["weapons"]], "notes": doc.get("notes", "")}


def recompute(rules: RtdRules, doc: dict, trail) -> dict:
    """The body from a saved character's inputs, and on the trail also each stat's chance of passing
    each roll-off difficulty (what its sheet shows: ``stats.<id>.roll_off.<tier>``)."""
    body = derive(rules, inputs_of(doc), trail)
    for s in body["stats"] if trail.record else ():
        for t in rules.tiers:
            trace_roll_off(s, t, trail)
    return body


def trace_roll_off(stat: dict, t, trail) -> None:
    v = stat["value"]
    p = pass_chance(v, t)
    how = ("at or above the difficulty's maximum: an automatic pass" if v >= t.max else
           "below the difficulty's minimum: out of reach" if v < t.min else
           f"roll 1D{t.max}, pass at or under {v}")
    trail.derive(f"stats.{stat['id']}.roll_off.{t.id}", f"{p.numerator}/{p.denominator} ({percent(p)})",
                 f"the chance a stat of {v} passes the {t.label} roll-off: {how}",
                 (("roll_offs.yaml", f"tiers.{t.id}.min", None, t.min),
                  ("roll_offs.yaml", f"tiers.{t.id}.max", None, t.max)), stat=v)


def stat_entry(rules: RtdRules, s, value: int, trail) -> dict:
    tier = rules.tier_of(value)
    tier_id = tier.id if tier else None
    trail.derive(f"stats.{s.id}.tier", tier_id, "the roll-off tier whose range holds the stat",
                 (("roll_offs.yaml", f"tiers.{tier.id}.min", None, tier.min),
                  ("roll_offs.yaml", f"tiers.{tier.id}.max", None, tier.max)) if tier else (), stat=value)
    return {"id": s.id, "abbr": s.abbr, "label": s.label, "value": value, "tier": tier_id}


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


def skill_entry(rules: RtdRules, skill_id: str, label: str, xp: int, trail=None) -> dict:
    level = rules.skill_level(xp)
    later = [lv.xp for lv in rules.levels if lv.xp > xp]
    if trail is not None:
        trail.derive(f"skills.{skill_id}.level", level.id if level else None,
                     "the highest skill level whose XP the skill reaches",
                     (("skills.yaml", f"levels.{level.id}.xp", None, level.xp),) if level else (), xp=xp)
    return {"id": skill_id, "label": label, "xp": xp,
            "level": level.id if level else None, "level_label": level.label if level else "Untrained",
            "bonus": bonus_text(level, rules.actions), "next_level_xp": later[0] if later else None}


def pick_skills(rules: RtdRules, roller: Roller) -> list[tuple[str, str, int]]:
    count = roller.roll(rules.skill_count, "skills.count")
    pool = list(rules.skill_pool)
    out = []
    for _ in range(count):
        skill_id, label = roller.choose(pool, "skills.choice")
        pool.remove((skill_id, label))
        out.append((skill_id, label, roller.roll(rules.skill_xp, f"skills.{skill_id}.xp")))
    return out


def own_skills(rules: RtdRules, arche, roller: Roller) -> list[tuple[str, str, int]]:
    """The archetype's skills, each with XP rolled on its dice."""
    return [(sid, label, max(0, roller.roll(xp, f"skills.{sid}.xp"))) for sid, label, xp in arche.skills]


def carry_weapons(rules: RtdRules, roller: Roller, picks=None) -> list[str]:
    """One weapon from each carry pick of the rules (or of the archetype, ``picks``)."""
    out = []
    for pick in rules.carry if picks is None else picks:
        if pick.chance is not None and roller.roll(D100, "weapons.chance") > pick.chance:
            continue
        out.append(rules.weapons[roller.choose(pick.options, "weapons.choice")].id)
    return out


def weapon_entry(rules: RtdRules, w) -> dict:
    cm = w.critical_multiplier or rules.combat.critical_multiplier
    return {"id": w.id, "label": w.label, "kind": w.kind, "damage": w.damage, "critical_multiplier": float(cm)}


def fill(rules: RtdRules, doc: dict) -> list[str]:
    """Weapons and skills added by hand by id alone (a skill with its XP), completed from the rules."""
    return (fill_list(doc, "weapons", rules.weapons, lambda i: weapon_entry(rules, rules.weapons[i["id"]]), "weapon")
            + fill_list(doc, "skills", AnySkill(rules), lambda i: skill_entry(rules, i["id"], skill_label(rules, i),
                                                                              i["xp"]), "skill", needs=("xp",)))


class AnySkill:
    """Every skill id is known: "Skills can be anything. There's no list of skills" (seed);
    the generation pool is where chargen draws from, not a list a character must keep to."""

    def __init__(self, rules: RtdRules):
        self.pool = dict(rules.skill_pool)

    def __contains__(self, skill_id: object) -> bool:
        return isinstance(skill_id, str)

    def __iter__(self):
        return iter(self.pool)


def skill_label(rules: RtdRules, item: dict) -> str:
    """A hand-added skill's label: the one given, the pool's, else its id spelled out ("first_aid" -> "First aid")."""
    if isinstance(item.get("label"), str) and item["label"]:
        return item["label"]
    return dict(rules.skill_pool).get(item["id"]) or item["id"].replace("_", " ").capitalize()
