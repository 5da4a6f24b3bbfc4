"""``chargen roll --attacker FILE --defender FILE``: one attack between two saved characters."""

from __future__ import annotations

import json
from pathlib import Path

import click

from chargen.cli.options import Integer
from chargen.digits import is_whole

ATTACK_OPTIONS = ("attacker", "defender", "weapon", "parry", "defence", "aim", "odds")


def attack_options(f):
    """The options of an attack between two characters (added to ``chargen roll``)."""
    for option in reversed((
        click.option("--attacker", metavar="FILE[#N]", help="An attack: the attacking character (a saved file; "
                     "#N: the Nth character of a file that holds several)."),
        click.option("--defender", metavar="FILE[#N]", help="An attack: the defending character."),
        click.option("--weapon", metavar="ID", help="An attack: the attacker's weapon (default: his best usable one)."),
        click.option("--parry", metavar="ID|none", help="An attack: the defender's parrying weapon or shield "
                     "(default: his best parry; none: he does not parry)."),
        click.option("--defence", type=Integer(), metavar="N", help="An attack: how much of his defence the "
                     "defender applies (d100; default: all of it)."),
        click.option("--aim", metavar="LOCATION", help="An attack: aim at this hit location (d100: at SR 12, "
                     "half chance)."),
        click.option("--odds", is_flag=True, default=None, help="An attack: also show the exact chance of each outcome."),
    )):
        f = option(f)
    return f


def wants_attack(options: dict) -> bool:
    return any(options.get(k) not in (None, False) for k in ATTACK_OPTIONS)


def run_attack(system_id: str | None, overlays: tuple[Path, ...], rules_dirs: tuple[Path, ...], batch_seed: int,
               fmt: str, options: dict) -> None:
    from chargen import combat
    from chargen.run.fighters import read_fighter
    from chargen.dice import Roller, new_rng
    from chargen.resolve import flag, given, odds_entry, percent
    from chargen.rules import load_module

    attack = {k: options.pop(k) for k in ATTACK_OPTIONS}
    stray = [k for k, v in options.items() if given(v)]
    if stray:
        raise click.UsageError(f"{flag(stray[0])} is for a single roll, not an attack between characters")
    for name in ("attacker", "defender"):
        if not attack[name]:
            raise click.UsageError(f"an attack needs --attacker FILE and --defender FILE (--{name} is missing)")
    attacker, defender = read_fighter(attack["attacker"]), read_fighter(attack["defender"])
    engine = combat.engine_of(attacker, defender, system_id)
    module = load_module(attacker["system"]["id"], overlays, rules_dirs)
    choices = combat.Choices(attack["weapon"], attack["parry"], attack["defence"], attack["aim"])
    roller = Roller(new_rng(batch_seed))
    result = engine.combat(module.rules, combat.RolledDraws(roller), attacker, defender, choices)
    odds = combat.attack_odds(module, attacker, defender, choices) if attack["odds"] else None
    if fmt == "json":
        doc = {"seed": batch_seed, **result.to_dict(), "rolls": [r.to_dict() for r in roller.log]}
        if odds is not None:
            doc["odds"] = {k: {o: odds_entry(p) for o, p in _ordered(v)} for k, v in odds.items()}
        click.echo(json.dumps(doc, indent=2))
        return
    click.echo(result.text(), nl=False)
    if odds is not None:
        click.echo("odds (exact):")
        for tally, row in odds.items():
            click.echo(f"  {tally}: " + ", ".join(f"{o.replace('_', ' ')} {_shown(p, percent)}" for o, p in _ordered(row)))


def _shown(p, percent) -> str:
    """A chance as a percentage; one too small to show in two decimals is "<0.01%", never "0%"."""
    text = percent(p)
    return "<0.01%" if text == "0%" and p > 0 else text


def _ordered(row: dict):
    """By chance, the likeliest first; a tally of numbers (damage) by number, "none" first."""
    if all(k == "none" or is_whole(k.removeprefix("-")) for k in row):
        return sorted(row.items(), key=lambda kv: (kv[0] != "none", int(kv[0]) if kv[0] != "none" else 0))
    return sorted(row.items(), key=lambda kv: (-kv[1], kv[0]))
