"""The RTD engine: typed rules, character generation, action resolution and its sheet with odds."""

from chargen.engines import Engine, NameScheme, RollOption, read_schema, register, sheet_block_card
from chargen.systems.rtd.attack import attack
from chargen.systems.rtd.fight import KIT as FIGHT
from chargen.systems.rtd.generate import check_request, draw_identity, fill, generate, pin_targets, recompute
from chargen.systems.rtd.resolve import ROLL_OPTIONS, resolve
from chargen.systems.rtd.rules_archetypes import signature
from chargen.systems.rtd.rules import READS
from chargen.systems.rtd.rules import build as build_rules
from chargen.systems.rtd.sheet import sheet_context
from chargen.systems.rtd.view import view


def bounds(rules) -> dict:
    """What an RTD character can reach under ``rules``: its stats, up to the top roll-off tier's
    maximum ("Basic stats go from 0 to 20, anything beyond that will require some form of self
    buffing"; the seed's Master and Godly tiers, up to 50, need them)."""
    return {"/properties/stats/items/properties/value": (rules.stat_min, rules.buffed_stat_max)}


def check_document(doc: dict, rules) -> list[str]:
    """The body parts and wound states a character names are the rules' (its sheet draws them)."""
    parts = {p.id: p for p in rules.wounds.parts}
    problems = []
    for n, w in enumerate(doc["wounds"]):
        part = parts.get(w["part"])
        if part is None:
            problems.append(f"wounds[{n}].part: no body part '{w['part'][:40]}' in its rules "
                            f"(expected one of: {', '.join(parts)})")
            continue
        states = [s.id for s in rules.wounds.states if part.brittle or not s.brittle_only]
        if w["state"] not in states:
            problems.append(f"wounds[{n}].state: '{w['state'][:40]}' is not a wound state the {part.label} "
                            f"can take (expected one of: {', '.join(states)})")
    return problems


ENGINE = register(Engine(
    id="rtd",
    label="RTD",
    build_rules=build_rules,
    generate=generate,
    names=NameScheme("rtd-names", draw_identity),
    schema=read_schema(__name__),
    bounds=bounds,
    check_document=check_document,
    reads=READS,
    roll_options=(
        RollOption("stat", "int", "a stat roll-off with this stat."),
        RollOption("difficulty", "text", "a roll-off tier id (default: the stat's own tier).", "TIER"),
        RollOption("action", "flag", "a standard action on the action scale."),
        RollOption("bonus", "int", "circumstance bonus (negative: penalty)."),
        RollOption("skill_xp", "int", "the skill's XP, for its level and bonus."),
        RollOption("skill_bonus", "int", "the bonus chosen at a level that lets you choose one."),
        RollOption("choose_result", "int", "the result a skill level that chooses its result takes."),
        RollOption("no_overshoot", "flag", "a skill level that may choose not to overshoot does so."),
        RollOption("wound", "text", "the wound state of the body part used.", "STATE"),
        RollOption("attack", "flag", "one combat exchange (to hit, dodge, critical, parry)."),
        RollOption("no_dodge", "flag", "the defender cannot dodge."),
        RollOption("damage", "int", "the attacker's weapon damage."),
        RollOption("parry_damage", "int", "the defender's weapon damage, for counterattacks."),
        RollOption("crit_mod", "int", "the attacker's +N to critical hits."),
    ),
    resolve=resolve,
    roll_examples=({"stat": 7, "difficulty": "medium"}, {"action": True, "skill_xp": 12, "bonus": 1},
                   {"attack": True, "damage": 7, "parry_damage": 5}),
    layouts=sheet_block_card("rtd.html.j2", "rtd-block.html.j2", sheet_context, needs_rules=True),
    archetypes=lambda rules: tuple(a.listing() for a in rules.archetypes.values()),
    check_request=check_request,
    view=view,
    pins=pin_targets,
    recompute=recompute,
    fill=fill,
    signature=signature,
    best_weapon="damage",
    ids=lambda rules: {"weapons": tuple(rules.weapons), "skills": tuple(i for i, _ in rules.skill_pool)},
    combat=attack,
    play_files=("wounding", "fight"),
    fight=FIGHT,
))

__all__ = ["ENGINE", "ROLL_OPTIONS", "build_rules", "generate", "resolve", "sheet_context"]
