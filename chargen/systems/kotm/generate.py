"""KoTM character generation: a level, an SD, a profession and its weapons, as small steps."""

from __future__ import annotations

from chargen.dice import Roller, parse
from chargen.systems.kotm.mechanics import damage_range
from chargen.systems.kotm.rules import OUTCOME, KotmRules, Profession, Weapon

D100 = parse("D100")


def draw_identity(rules: KotmRules, roller: Roller) -> dict[str, str]:
    """The sex, the first roll of the character's generator: what its name depends on."""
    return {"sex": roller.choose(rules.sexes, "identity.sex")}


def generate(rules: KotmRules, request, ctx) -> dict:
    """One character's body; the sex was drawn first by the name service (:func:`draw_identity`)."""
    roller = ctx.roller
    sex = ctx.identity["sex"]
    arche = rules.archetypes.get(request.archetype) if request.archetype else None
    age = roller.roll(rules.age_dice, "identity.age")
    profession = choose_profession(rules, arche, roller)
    level = roller.roll(arche.level if arche and arche.level else rules.level_dice, "level")
    sd = roll_sd(rules, roller, level)
    weapons = pick_weapons(rules, profession, roller, arche.weapons if arche else None)
    ctx.trail.derive("save_check", rules.save_check(level), f"the save check: {rules.save_floor} or the level, "
                     "whichever is higher", level=level)
    ctx.trail.derive("critical_fumble_damage", rules.critical_fumble_damage(level),
                     "the critical-fumble damage row of the level", level=level)
    body = {"identity": {"name": ctx.names.unique(rules.names.given[sex], rules.names.bynames, rules.names.format),
                         "sex": sex, "age": age}}
    if arche is not None:
        body["archetype"] = {"id": arche.id, "label": arche.label}
    return body | {
        "profession": {"id": profession.id, "label": profession.label},
        "level": level,
        "sd": sd,
        "save_check": rules.save_check(level),
        "critical_fumble_damage": rules.critical_fumble_damage(level),
        "weapons": [weapon_entry(rules, w, sd, level) for w in weapons],
        "notes": "",
    }


def roll_sd(rules: KotmRules, roller: Roller, level: int) -> int:
    return min(rules.sd_max, roller.roll(rules.sd_dice, "sd") + rules.sd_per_level * level)


def choose_profession(rules: KotmRules, arche, roller: Roller) -> Profession:
    """The archetype's profession, else one rolled with equal odds."""
    if arche is not None:
        return next(p for p in rules.professions if p.id == arche.profession)
    return roller.choose(rules.professions, "profession")


def check_request(rules: KotmRules, request) -> list[str]:
    problems = []
    if request.archetype is not None and request.archetype not in rules.archetypes and rules.archetypes:
        problems.append(f"--archetype: unknown archetype '{request.archetype}' "
                        f"(expected one of: {', '.join(sorted(rules.archetypes))})")
    if request.profession is not None or request.years is not None:
        problems.append("--profession and --years are d100 previous experience (a KoTM archetype sets the profession)")
    return problems


def pick_weapons(rules: KotmRules, profession: Profession, roller: Roller, picks=None) -> list[Weapon]:
    """One weapon from each pick of the profession (or of the archetype, ``picks``)."""
    out = []
    for pick in profession.weapons if picks is None else picks:
        if pick.chance is not None and roller.roll(D100, "weapons.chance") > pick.chance:
            continue
        out.append(rules.weapons[roller.choose(pick.options, "weapons.choice")])
    return out


def weapon_entry(rules: KotmRules, w: Weapon, sd: int, level: int) -> dict:
    """A weapon and the damage each hitting outcome does with it, for this SD and level."""
    outcomes = {"hit": rules.attack.hit.id, "critical_success": OUTCOME["critical_success"],
                "outstanding_success": OUTCOME["outstanding_success"]}
    lines = {}
    for key, outcome in outcomes.items():
        r = damage_range(rules.attack, outcome, sd, w.damage_modifier, level)
        lines[key] = list(r) if r else None
    return {"id": w.id, "label": w.label, "kind": w.kind, "damage_modifier": w.damage_modifier, "damage": lines}
