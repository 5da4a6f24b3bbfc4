"""``chargen fight SIDE_A SIDE_B``: the odds of an encounter, from many fights played by the seed."""

from __future__ import annotations

import json
from pathlib import Path

import click

from chargen.cli import cli
from chargen.cli.options import Integer, resolve_seed, rules_options, seed_option
from chargen.fight.estimate import DEFAULT_FIGHTS, MAX_FIGHTS
from chargen.fight.tactics import DEFAULT_MAX_ROUNDS, PARRIES, TARGETS


@cli.command("fight")
@click.argument("side_a", type=click.Path(path_type=Path))
@click.argument("side_b", type=click.Path(path_type=Path))
@click.option("--fights", type=Integer(1, MAX_FIGHTS), default=DEFAULT_FIGHTS, show_default=True,
              help="How many fights to play.")
@seed_option
@click.option("--target", type=click.Choice(list(TARGETS)), default="spread", show_default=True,
              help="Whom each fighter attacks: " + "; ".join(f"{k}: {v}" for k, v in TARGETS.items()) + ".")
@click.option("--parry", type=click.Choice(list(PARRIES)), default="first", show_default=True,
              help="When fighters parry: " + "; ".join(f"{k}: {v}" for k, v in PARRIES.items()) + ".")
@click.option("--morale", default="1/2", show_default=True, metavar="SHARE",
              help="A side breaks and flees (and loses) once more than this share of it is out of the fight; "
                   "1: it fights to the last.")
@click.option("--max-rounds", type=Integer(1, 1000), default=DEFAULT_MAX_ROUNDS, show_default=True,
              help="A fight not over after this many rounds stops (counted for neither side).")
@click.option("--jobs", type=Integer(1, 64), default=None, metavar="N",
              help="Worker processes (default: the machine's cores); the figures are the same for any N.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"], case_sensitive=False), default="text",
              show_default=True)
@click.option("--log", is_flag=True, help="Also print one whole fight, the median one, blow by blow.")
@rules_options()
def fight_cmd(side_a: Path, side_b: Path, fights: int, seed: int | None, target: str, parry: str, morale: str,
              max_rounds: int, jobs: int | None, fmt: str, log: bool, overlays: tuple[Path, ...],
              rules_dirs: tuple[Path, ...]) -> None:
    """Play many fights between two sides and report each side's chance to win.

    A side is a party file (its members are made as 'chargen party' makes them), a folder
    of saved characters (a chargen batch), or a saved file. Each fight is played by the
    seed's combat rules, round by round; the report gives each side's chance to win with a
    95% interval, the rounds a fight lasts, the fighters out of the fight and dead, and the
    most dangerous fighter of each side. What the seeds leave open is an option (--target,
    --parry, --morale). The same seed gives the same figures.

    \b
    Example:
        chargen fight examples/bandit-ambush.yaml examples/town-watch.yaml --seed 1
        chargen fight examples/bandit-ambush.yaml examples/town-watch.yaml --seed 1 --fights 200 --log
        chargen fight examples/bandit-ambush.yaml examples/town-watch.yaml --fights 500 --target weakest --morale 1 --format json
    """
    try:
        est, batch_seed, module = _estimate(side_a, side_b, fights, seed, (target, parry, morale, max_rounds), jobs,
                                    overlays, rules_dirs)
    except KeyboardInterrupt as e:  # Ctrl-C, SIGTERM or SIGHUP (chargen.run.procs.Stopped): the workers are stopped
        if click.get_current_context().meta.get("chargen.debug"):
            raise
        why = f"stopped by {e.name}" if hasattr(e, "signum") else "interrupted"
        error = click.ClickException(f"{why}; no figures reported")
        error.exit_code = getattr(e, "exit_code", 130)
        raise error from None
    from chargen.fight import report
    from chargen.fight.log import fight_log, median_fight

    lines = fight_log(module, est, median_fight(est)) if log else None
    if fmt == "json":
        click.echo(json.dumps({**report.to_json(est), **({"log": lines} if log else {})}, indent=2, ensure_ascii=False))
    else:
        click.echo(report.text(est) + ("".join(f"{ln}\n" for ln in lines) if log else ""), nl=False)
    if seed is None:
        click.echo(f"chargen: seed {batch_seed}", err=True)


def _estimate(side_a: Path, side_b: Path, fights: int, seed: int | None, options: tuple, jobs: int | None,
              overlays: tuple[Path, ...], rules_dirs: tuple[Path, ...]):
    """The sides read and their fights played (the progress on stderr, on a terminal); the seed used; the module."""
    from chargen.cli.options import progress_bar
    from chargen.fight.estimate import default_jobs, estimate
    from chargen.fight.tactics import tactics
    from chargen.run.fightsides import read_side, sides_module

    t = tactics(*options)
    batch_seed = resolve_seed(seed)
    read = [read_side(p, overlays, rules_dirs) for p in (side_a, side_b)]
    sides = tuple(s for s, _ in read)
    module = sides_module(sides, [m for _, m in read], overlays, rules_dirs)
    with progress_bar(fights, "fights") as progress:
        return estimate(module, sides, fights, batch_seed, t, jobs or default_jobs(), progress), batch_seed, module
