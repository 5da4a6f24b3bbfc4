"""``chargen roll``: dice notation, or one action resolved under a system's rules."""

from __future__ import annotations

import json

import click

from chargen.cli import cli
from chargen.cli.options import bundle, resolve_seed, seed_option


kotm_options = bundle(
    click.option("--sd", type=int, help="kotm: the SD target number."),
    click.option("--level", type=int, help="kotm: the attacker's level (1-15)."),
    click.option("--damage-mod", type=int, help="kotm: the weapon's damage modifier."),
    click.option("--missile", is_flag=True, help="kotm: the weapon is a missile weapon (fumble row 61-62)."),
    click.option("--no-helm", is_flag=True, help="kotm: the fumbler wears no helm (fumble row 72)."),
)
rtd_options = bundle(
    click.option("--stat", type=int, help="rtd: a stat roll-off with this stat (0-50)."),
    click.option("--difficulty", metavar="TIER", help="rtd: easy, medium, hard, very_hard, master, godly "
                 "(default: the stat's own tier)."),
    click.option("--action", is_flag=True, help="rtd: a standard action on the 0-10 scale."),
    click.option("--bonus", type=int, help="rtd: circumstance bonus (negative: penalty)."),
    click.option("--skill-xp", type=int, help="rtd: the skill's XP, for its level and bonus."),
    click.option("--skill-bonus", type=int, help="rtd: the bonus chosen at Expert or Master (1-3)."),
    click.option("--choose-result", type=int, help="rtd: the result a Legendary skill chooses (0-10)."),
    click.option("--no-overshoot", is_flag=True, help="rtd: a Grand Master chooses not to overshoot."),
    click.option("--wound", metavar="STATE", help="rtd: the wound state of the body part used."),
    click.option("--attack", is_flag=True, help="rtd: one combat exchange (to hit, dodge, critical, parry)."),
    click.option("--no-dodge", is_flag=True, help="rtd: the defender cannot dodge."),
    click.option("--damage", type=int, help="rtd: the attacker's weapon damage."),
    click.option("--parry-damage", type=int, help="rtd: the defender's weapon damage, for counterattacks."),
    click.option("--crit-mod", type=int, help="rtd: the attacker's +N to critical hits."),
)
d100_options = bundle(
    click.option("--chance", type=int, help="d100: the chance in % of a skill roll."),
    click.option("--against", type=int, help="d100: the opposing chance, for an opposed roll."),
    click.option("--active", type=int, help="d100: the active characteristic of a resistance roll."),
    click.option("--passive", type=int, help="d100: the passive characteristic of a resistance roll."),
)


@cli.command("roll")
@click.argument("expression", required=False)
@click.option("--system", "system_id", metavar="ID", help="Resolve an action under this system's rules instead.")
@seed_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@kotm_options
@rtd_options
@d100_options
def roll_cmd(expression: str | None, system_id: str | None, seed: int | None, fmt: str, **options) -> None:
    """Roll dice notation, or resolve an action under a system's rules.

    Dice notation shows every die: 3D6, 2D6+6, D100 (01-100), 1D4+1D6, -1D4.
    With --system, the roll prints the dice it rolled and every table row it used.

    \b
    Examples:
        chargen roll 3D6+2 --seed 1
        chargen roll --system kotm --sd 30 --level 4 --seed 7
        chargen roll --system rtd --stat 7 --difficulty medium
        chargen roll --system rtd --action --skill-xp 12 --bonus 1
        chargen roll --system rtd --attack --damage 7 --parry-damage 5
        chargen roll --system d100 --chance 65
        chargen roll --system d100 --active 12 --passive 14
        chargen roll --system d100 --chance 110 --against 120
    """
    from chargen.resolve import flag, given

    if expression is not None and system_id is not None:
        raise click.UsageError("give dice notation or --system, not both")
    if expression is None and system_id is None:
        stray = [k for k, v in options.items() if given(v)]
        if stray:
            raise click.UsageError(f"{flag(stray[0])} needs --system (see 'chargen systems')")
        raise click.UsageError("give dice notation such as 3D6+2, or --system ID with its options")
    batch_seed = resolve_seed(seed)
    if system_id is None:
        _roll_notation(expression, batch_seed, fmt, options)
    else:
        _roll_system(system_id, batch_seed, fmt, options)
    click.echo(f"chargen: seed {batch_seed}", err=True)


def _roll_notation(expression: str, batch_seed: int, fmt: str, options: dict) -> None:
    from chargen.dice import Roller, new_rng, parse
    from chargen.resolve import flag, given

    stray = [k for k, v in options.items() if given(v)]
    if stray:
        raise click.UsageError(f"{flag(stray[0])} needs --system, not dice notation")
    dice = parse(expression)
    roller = Roller(new_rng(batch_seed))
    total = roller.roll(dice, "roll")
    record = roller.log[0]
    if fmt == "json":
        click.echo(json.dumps({"expression": str(dice), "seed": batch_seed, "rolled": list(record.faces), "total": total}))
        return
    click.echo(f"{dice} = {total}")
    faces = iter(record.faces)
    for n, term in enumerate(dice.terms):
        sign = "-" if term.sign < 0 else ("+" if n else "")
        if term.sides == 0:
            click.echo(f"  {sign}{term.count}")
        else:
            shown = " ".join(str(next(faces)) for _ in range(term.count))
            click.echo(f"  {sign}{term}: {shown}")


def _roll_system(system_id: str, batch_seed: int, fmt: str, options: dict) -> None:
    from chargen.dice import Roller, new_rng
    from chargen.errors import OptionError
    from chargen.resolve import resolve
    from chargen.rules import load_builtin

    module = load_builtin(system_id)
    roller = Roller(new_rng(batch_seed))
    try:
        result = resolve(module, roller, options)
    except OptionError as e:
        raise click.UsageError(str(e)) from None
    if fmt == "json":
        doc = {"seed": batch_seed, **result.to_dict(), "rolls": [r.to_dict() for r in roller.log]}
        click.echo(json.dumps(doc, indent=2))
    else:
        click.echo(result.text(), nl=False)
