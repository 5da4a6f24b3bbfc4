"""KoTM character generation: a level, an SD, a profession and its weapons, as small steps."""

from __future__ import annotations

from chargen.dice import Roller, parse
from chargen.seeds import batch_rank, first_choice, unique_name
from chargen.systems.kotm.mechanics import damage_range
from chargen.systems.kotm.rules import OUTCOME, KotmRules, Profession, Weapon

D100 = parse("D100")


def generate(rules: KotmRules, roller: Roller, batch_seed: int, index: int) -> dict:
    sex = roller.choose(rules.sexes, "identity.sex")  # the first roll: names replay it (character_name)
    age = roller.roll(rules.age_dice, "identity.age")
    profession = roller.choose(rules.professions, "profession")
    level = roller.roll(rules.level_dice, "level")
    sd = roll_sd(rules, roller, level)
    weapons = pick_weapons(rules, profession, roller)
    return {
        "identity": {"name": character_name(rules, sex, batch_seed, index), "sex": sex, "age": age},
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


def pick_weapons(rules: KotmRules, profession: Profession, roller: Roller) -> list[Weapon]:
    out = []
    for pick in profession.weapons:
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


def character_name(rules: KotmRules, sex: str, batch_seed: int, index: int) -> str:
    """A name no other character of the batch has while the list for its sex lasts: the
    k-th character of a sex (in index order) takes the k-th name (see d100's names)."""
    sexes = rules.sexes
    rank = batch_rank(rules, batch_seed, index, lambda i: first_choice(sexes, batch_seed, i))
    return unique_name(f"kotm-names:{batch_seed}:{sex}", rank, rules.names.given[sex], rules.names.bynames,
                       rules.names.format)
