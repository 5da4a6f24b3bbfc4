"""KoTM character generation: a level, an SD, a profession and its weapons, as small steps.

:func:`generate` rolls the inputs (the identity, profession, level, SD and weapons),
takes the pinned ones (``--set``), and :func:`derive` computes everything else
from them: the same function recomputes a saved character from its (hand-edited)
inputs (:func:`recompute`), so pins, hand edits and ``chargen check`` agree.
"""

from __future__ import annotations

from chargen import archetypes
from chargen.dice import Roller, parse
from chargen.fill import fill_list
from chargen.pins import PinTarget, sex_target
from chargen.systems.kotm.mechanics import damage_range
from chargen.systems.kotm.rules import OUTCOME, SD_BOUND, KotmRules, Profession, Weapon

D100 = parse("D100")
OUTCOME_TEXT = {"hit": "a hit", "critical_success": "a critical success", "outstanding_success": "an outstanding success"}


def draw_identity(rules: KotmRules, roller: Roller) -> dict[str, str]:
    """The sex, the first roll of the character's generator: what its name depends on."""
    return {"sex": roller.choose(rules.sexes, "identity.sex")}


def pin_targets(rules: KotmRules) -> dict[str, PinTarget]:
    return {
        "identity.name": PinTarget("text"), "identity.sex": sex_target(rules.sexes),
        "identity.age": PinTarget("int", rules.age_dice.minimum, rules.age_dice.maximum,
                                  where=f"{rules.age_dice} in generation.yaml"),
        "profession": PinTarget("choice", choices=tuple(p.id for p in rules.professions)),
        "level": PinTarget("int", rules.level_min, rules.level_max, where="levels.yaml levels"),
        "sd": PinTarget("int", 0, SD_BOUND, where="an SD (the seed sets no ceiling)"),
    }


def generate(rules: KotmRules, request, ctx) -> dict:
    """One character's body; the sex was drawn first by the name service (:func:`draw_identity`)."""
    roller = ctx.roller
    sex = ctx.identity["sex"]
    arche = rules.archetypes.get(request.archetype) if request.archetype else None
    age = request.pin("identity.age", roller.roll(rules.age_dice, "identity.age"))
    profession = choose_profession(rules, arche, roller)
    level = request.pin("level", roller.roll(arche.level if arche and arche.level else rules.level_dice, "level"))
    sd = request.pin("sd", roll_sd(rules, roller, level, None if "sd" in dict(request.pins) else ctx.trail))
    weapons = pick_weapons(rules, profession, roller, arche.weapons if arche else None)  # as rolled, pins or not
    inputs = {
        "identity": {"name": ctx.names.unique(rules.names.given[sex], rules.names.bynames, rules.names.format),
                     "sex": sex, "age": age},
        "archetype": {"id": arche.id, "label": arche.label} if arche is not None else None,
        "profession": request.pin("profession", profession.id),
        "level": level,
        "sd": sd,
        "weapons": [w.id for w in weapons],
        "notes": "",
    }
    return derive(rules, inputs, ctx.trail)


def derive(rules: KotmRules, inputs: dict, trail) -> dict:
    """The body from its inputs: every derived value recorded on ``trail`` with the table rows it used."""
    level, sd = inputs["level"], inputs["sd"]
    profession = next(p for p in rules.professions if p.id == inputs["profession"])
    save = trail.derive("save_check", rules.save_check(level), f"the save check: {rules.save_floor} or the "
                        "level, whichever is higher", (("levels.yaml", "save_check.floor", None, rules.save_floor),),
                        level=level)
    cf = trail.derive("critical_fumble_damage", cf_value(rules, level),
                      "the critical-fumble damage row of the level",
                      (("levels.yaml", "critical_fumble_damage.bands", rules.cf_damage.row(level), cf_value(rules, level)),), level=level)
    body = {"identity": dict(inputs["identity"])}
    if inputs.get("archetype"):
        body["archetype"] = dict(inputs["archetype"])
    return body | {
        "profession": {"id": profession.id, "label": profession.label},
        "level": level,
        "sd": sd,
        "save_check": save,
        "critical_fumble_damage": cf,
        "weapons": [weapon_entry(rules, rules.weapons[w], sd, level, trail) for w in inputs["weapons"]],
        "notes": inputs["notes"],
    }


def cf_value(rules: KotmRules, level: int) -> int:
    return rules.critical_fumble_damage(level)


def inputs_of(doc: dict) -> dict:
    """A saved character's inputs (what :func:`derive` reads), hand edits and all."""
    return {"identity": doc["identity"], "archetype": doc.get("archetype"), "profession": doc["profession"]["id"],
            "level": doc["level"],
            "sd": doc["sd"], "weapons": [w["id"] for w in doc["weapons"]], "notes": doc.get("notes", "")}


def recompute(rules: KotmRules, doc: dict, trail) -> dict:
    return derive(rules, inputs_of(doc), trail)


def roll_sd(rules: KotmRules, roller: Roller, level: int, trail=None) -> int:
    """The SD: its roll plus ``per_level`` for each level, at most ``max`` (generation.yaml)."""
    rolled = roller.roll(rules.sd_dice, "sd")
    sd = min(rules.sd_max, rolled + rules.sd_per_level * level)
    if trail is not None:
        trail.derive("sd", sd, f"the SD roll plus {rules.sd_per_level} per level, at most {rules.sd_max}",
                     (("generation.yaml", "sd.per_level", None, rules.sd_per_level),
                      ("generation.yaml", "sd.max", None, rules.sd_max)), roll=rolled, level=level)
    return sd


def choose_profession(rules: KotmRules, arche, roller: Roller) -> Profession:
    """The archetype's profession, else one rolled with equal odds."""
    if arche is not None:
        return next(p for p in rules.professions if p.id == arche.profession)
    return roller.choose(rules.professions, "profession")


def check_request(rules: KotmRules, request) -> list[str]:
    problems = archetypes.unknown(request, rules.archetypes)
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


def weapon_entry(rules: KotmRules, w: Weapon, sd: int, level: int, trail=None) -> dict:
    """A weapon and the damage each hitting outcome does with it, for this SD and level."""
    outcomes = {"hit": rules.attack.hit.id, "critical_success": OUTCOME["critical_success"],
                "outstanding_success": OUTCOME["outstanding_success"]}
    lines = {}
    for key, outcome in outcomes.items():
        r = damage_range(rules.attack, outcome, sd, w.damage_modifier, level)
        lines[key] = list(r) if r else None
        if trail is not None:
            trail.derive(f"weapons.{w.id}.damage.{key}", lines[key],
                         f"lowest and highest damage of {OUTCOME_TEXT[key]}: the second die "
                         f"{w.damage_modifier:+d} for the weapon, over every pair of faces that gives it at SD {sd}",
                         damage_tables(rules, w, key),
                         sd=sd, level=level, damage_modifier=w.damage_modifier)
    return {"id": w.id, "label": w.label, "kind": w.kind, "damage_modifier": w.damage_modifier, "damage": lines}


def damage_tables(rules: KotmRules, w: Weapon, key: str) -> tuple:
    """The rules entries a weapon's damage line reads."""
    a = rules.attack
    refs = [("weapons.yaml", f"weapons.{w.id}.damage_modifier", None, w.damage_modifier),
            ("attack.yaml", "damage.ten_counts_as", None, a.damage_ten),
            ("attack.yaml", "damage.minimum", None, a.damage_min)]
    if key == "critical_success":
        refs.append(("attack.yaml", "damage.cs.add", None, a.cs_add))
    elif key == "outstanding_success":
        refs += [("attack.yaml", "damage.os.add_per_level", None, a.os_per_level),
                 ("attack.yaml", "damage.os.multiply", None, a.os_multiply)]
    return tuple(refs)


def fill(rules: KotmRules, doc: dict) -> list[str]:
    """Weapons added by hand by id alone, completed from the rules (:mod:`chargen.fill`)."""
    sd, level = doc.get("sd"), doc.get("level")
    if not isinstance(sd, int) or not isinstance(level, int):
        return []
    return fill_list(doc, "weapons", rules.weapons,
                     lambda item: weapon_entry(rules, rules.weapons[item["id"]], sd, level), "weapon")
