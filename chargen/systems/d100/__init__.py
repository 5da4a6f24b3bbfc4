"""The D100 II engine: typed rules, character generation, roll resolution and its sheet."""

from chargen.engines import Engine, NameScheme, RollOption, read_schema, register, sheet_block_card
from chargen.systems.d100.attack import attack
from chargen.systems.d100.fight import KIT as FIGHT
from chargen.systems.d100.experience import check_request, signature
from chargen.systems.d100.generate import draw_identity, generate
from chargen.systems.d100.pins import pin_targets
from chargen.systems.d100.recompute import fill, recompute
from chargen.systems.d100.resolve import ROLL_OPTIONS, resolve
from chargen.systems.d100.rules import READS
from chargen.systems.d100.rules import build as build_rules
from chargen.systems.d100.sheet import block_context, sheet_context
from chargen.systems.d100.view import view


ENGINE = register(Engine(
    id="d100",
    label="D100 II",
    build_rules=build_rules,
    generate=generate,
    names=NameScheme("names", draw_identity, separate=True, uses_request=True),
    schema=read_schema(__name__),
    reads=READS,
    roll_options=(
        RollOption("chance", "int", "the chance in % of a skill roll."),
        RollOption("against", "int", "the opposing chance, for an opposed roll."),
        RollOption("active", "int", "the active characteristic of a resistance roll."),
        RollOption("passive", "int", "the passive characteristic of a resistance roll."),
    ),
    resolve=resolve,
    roll_examples=({"chance": 65}, {"chance": 110, "against": 120}, {"active": 12, "passive": 14}),
    layouts=sheet_block_card("d100.html.j2", "d100-block.html.j2", sheet_context, block_context),
    archetypes=lambda rules: tuple(a.listing() for a in rules.archetypes.values()),
    check_request=check_request,
    view=view,
    pins=pin_targets,
    recompute=recompute,
    fill=fill,
    signature=signature,
    best_weapon="attack",
    ids=lambda rules: {"weapons": tuple(rules.weapons), "skills": tuple(s.id for s in rules.skills)},
    combat=attack,
    play_files=("attacks", "fumbles", "wounds"),
    fight=FIGHT,
))

__all__ = ["ENGINE", "ROLL_OPTIONS", "build_rules", "generate", "resolve"]
