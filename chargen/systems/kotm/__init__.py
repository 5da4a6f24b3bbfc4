"""The KoTM engine: typed rules, character generation, attack resolution and its sheet with odds."""

from chargen.engines import Engine, NameScheme, RollOption, read_schema, register, sheet_block_card
from chargen.systems.kotm.combat import attack
from chargen.systems.kotm.fight import KIT as FIGHT
from chargen.systems.kotm.generate import check_request, draw_identity, fill, generate, pin_targets, recompute
from chargen.systems.kotm.resolve import ROLL_OPTIONS, resolve
from chargen.systems.kotm.rules_archetypes import signature
from chargen.systems.kotm.rules import READS, SD_BOUND
from chargen.systems.kotm.rules import build as build_rules
from chargen.systems.kotm.sheet import sheet_context
from chargen.systems.kotm.view import view


def bounds(rules) -> dict:
    """What a KoTM character can reach under ``rules``: its level, SD and save check."""
    return {
        "/properties/level": (rules.level_min, rules.level_max),
        "/properties/sd": (0, SD_BOUND),  # no ceiling in the seed: generation.yaml sd.max caps the roll only
        "/properties/save_check": (rules.save_check(rules.level_min), rules.save_check(rules.level_max)),
    }


ENGINE = register(Engine(
    id="kotm",
    label="KoTM",
    build_rules=build_rules,
    generate=generate,
    names=NameScheme("kotm-names", draw_identity),
    schema=read_schema(__name__),
    bounds=bounds,
    reads=READS,
    roll_options=(
        RollOption("sd", "int", "the SD target number."),
        RollOption("level", "int", "the attacker's level."),
        RollOption("damage_mod", "int", "the weapon's damage modifier."),
        RollOption("missile", "flag", "the weapon is a missile weapon (a fumble row may ask)."),
        RollOption("no_helm", "flag", "the fumbler wears no helm (a fumble row may ask)."),
    ),
    resolve=resolve,
    roll_examples=({"sd": 30, "level": 4}, {"sd": 50, "level": 9, "damage_mod": 2, "missile": True}),
    layouts=sheet_block_card("kotm.html.j2", "kotm-block.html.j2", sheet_context, needs_rules=True),
    archetypes=lambda rules: tuple(a.listing() for a in rules.archetypes.values()),
    check_request=check_request,
    view=view,
    pins=pin_targets,
    recompute=recompute,
    fill=fill,
    signature=signature,
    best_weapon="damage_modifier",
    ids=lambda rules: {"weapons": tuple(rules.weapons)},
    combat=attack,
    play_files=("fight",),
    fight=FIGHT,
))

__all__ = ["ENGINE", "ROLL_OPTIONS", "build_rules", "generate", "resolve", "sheet_context"]
