"""``chargen roll``: dice notation, or one action resolved under a system's rules."""

from __future__ import annotations

import json
from pathlib import Path

import click

from chargen.cli import cli
from chargen.cli.options import Integer, any_case, resolve_seed, rules_options, seed_option
from chargen.cli.roll_attack import attack_options, run_attack, wants_attack


class RollCommand(click.Command):
    """``chargen roll``, whose system options are the ones the registered engines declare.

    They are built when the command is parsed (or its help shown), so an engine
    registered from outside the package brings its options with it. An option two
    engines declare alike is one option; its help names both.
    """

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        params = super().get_params(ctx)
        return params[:-1] + engine_options() + params[-1:]  # the help option last


def engine_options() -> list[click.Option]:
    from chargen import engines

    owners: dict[str, list[str]] = {}
    declared = {}
    for engine in engines.all_engines():
        for o in engine.roll_options:
            owners.setdefault(o.name, []).append(engine.id)
            declared.setdefault(o.name, o)
    return [_option(o, owners[name]) for name, o in declared.items()]


def _option(o, owners: list[str]) -> click.Option:
    text = f"{', '.join(owners)}: {o.help}"
    if o.kind == "flag":
        return click.Option([o.flag, o.name], is_flag=True, default=None, help=text)
    kind = Integer() if o.kind == "int" else str
    return click.Option([o.flag, o.name], type=kind, metavar=o.metavar, help=text)


@cli.command("roll", cls=RollCommand)
@click.argument("expression", required=False)
@click.option("--system", "system_id", metavar="ID", callback=any_case, help="Resolve an action under this system's rules instead.")
@seed_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"], case_sensitive=False), default="text", show_default=True)
@rules_options()
@attack_options
def roll_cmd(expression: str | None, system_id: str | None, seed: int | None, fmt: str,
             overlays: tuple[Path, ...], rules_dirs: tuple[Path, ...], **options) -> None:
    """Roll dice notation, or resolve an action under a system's rules.

    Dice notation shows every die: 3D6, 2D6+6, D100 (01-100), 1D4+1D6, -1D4.
    With --system, the roll prints the dice it rolled and every table row it used, under
    that module's rules with any --rules overlays (an own module: --rules-dir).

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
        chargen roll --system mykotm --rules-dir examples/house-rules/modules --sd 30 --level 4
        chargen roll --attacker party/0006-raimund-of-castlereach.json --defender party/0001-ulla-millbrook.json --weapon broadsword --odds
    """
    from chargen.resolve import flag, given

    if wants_attack(options):
        if expression is not None:
            raise click.UsageError("give dice notation or an attack (--attacker, --defender), not both")
        batch_seed = resolve_seed(seed)
        run_attack(system_id, overlays, rules_dirs, batch_seed, fmt, options)
        click.echo(f"chargen: seed {batch_seed}", err=True)
        return
    if expression is not None and system_id is not None:
        raise click.UsageError("give dice notation or --system, not both")
    if system_id is None and (overlays or rules_dirs):
        raise click.UsageError("--rules and --rules-dir need --system: dice notation has no rules")
    if expression is None and system_id is None:
        stray = [k for k, v in options.items() if given(v)]
        if stray:
            raise click.UsageError(f"{flag(stray[0])} needs --system (see 'chargen systems')")
        raise click.UsageError("give dice notation such as 3D6+2, or --system ID with its options")
    batch_seed = resolve_seed(seed)
    if system_id is None:
        _roll_notation(expression, batch_seed, fmt, options)
    else:
        _roll_system(system_id, overlays, rules_dirs, batch_seed, fmt, options)
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


def _roll_system(system_id: str, overlays: tuple[Path, ...], rules_dirs: tuple[Path, ...], batch_seed: int,
                 fmt: str, options: dict) -> None:
    from chargen.dice import Roller, new_rng
    from chargen.errors import OptionError
    from chargen.resolve import resolve
    from chargen.rules import load_module

    module = load_module(system_id, overlays, rules_dirs)
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
