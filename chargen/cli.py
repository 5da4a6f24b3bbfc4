"""The ``chargen`` command line: a thin shell over the library.

Library errors (:class:`ChargenError`) become one ``Error: ...`` line and exit
status 1; Click's usage errors exit 2; ``--debug`` shows the traceback.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import click

from chargen import __version__
from chargen.errors import ChargenError, printable

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class ChargenGroup(click.Group):
    """Turns library errors into ``Error: ...`` at the edge, unless ``--debug``."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except ChargenError as e:
            if ctx.meta.get("chargen.debug"):
                raise
            error = click.ClickException(printable(str(e)))
            error.exit_code = getattr(e, "exit_code", 1)
            raise error from None
        except OSError as e:  # the file system refused something the library did not expect to fail
            if ctx.meta.get("chargen.debug"):
                raise
            where = f" ({str(e.filename)[:200]})" if e.filename else ""
            raise click.ClickException(printable(f"{e.strerror or e}{where}")) from None
        except KeyboardInterrupt:
            if ctx.meta.get("chargen.debug"):
                raise
            click.echo("Error: interrupted; only complete files were written", err=True)
            ctx.exit(130)


@click.group(cls=ChargenGroup, context_settings=CONTEXT)
@click.version_option(__version__, "--version", prog_name="chargen")
@click.option("--debug", is_flag=True, help="Show the full traceback on errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Roll seed-reproducible tabletop RPG characters and print their sheets.

    \b
    Example:
        chargen generate --system d100 --seed 42 --count 20 --format json -o party/
    """
    ctx.meta["chargen.debug"] = debug


def seed_option(f):
    @click.option("--seed", type=click.IntRange(0, 2**64 - 1),
                  help="Batch seed (0 to 2^64-1). Without it a seed is drawn and reported.")
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        return f(*args, **kwargs)

    return wrapper


def system_option(f):
    return click.option("--system", "system_id", default="d100", show_default=True, metavar="ID",
                        help="Rules module id (see 'chargen systems').")(f)


def rules_options(overlays: bool = True):
    """``--rules FILE`` (overlays, repeatable, applied in order) and ``--rules-dir DIR`` (own modules)."""
    def decorate(f):
        f = click.option("--rules-dir", "rules_dirs", multiple=True, metavar="DIR",
                         type=click.Path(path_type=Path, file_okay=False),
                         help="Also use the rules modules in DIR (repeatable; see 'chargen systems').")(f)
        if overlays:
            f = click.option("--rules", "overlays", multiple=True, metavar="FILE",
                             type=click.Path(path_type=Path, dir_okay=False),
                             help="House-rules overlay to apply (repeatable, applied in order).")(f)
        return f
    return decorate


def _given(ctx: click.Context, name: str, value):
    """``value`` if the option was given on the command line, else None."""
    source = ctx.get_parameter_source(name)
    return value if source is not None and source.name != "DEFAULT" else None


def _resolve_seed(seed: int | None) -> int:
    from chargen.seeds import draw_batch_seed

    return draw_batch_seed() if seed is None else seed


def _formats(value: str) -> tuple[str, ...]:
    from chargen.batch import DATA_FORMATS

    known = DATA_FORMATS
    formats = tuple(dict.fromkeys(f.strip().lower() for f in value.split(",") if f.strip()))
    bad = [f for f in formats if f not in known]
    if not formats or bad:
        raise click.BadParameter(f"{', '.join(bad) or repr(value)} is not a format (expected a comma list of: {', '.join(known)})",
                                 param_hint="'--format'")
    return formats


@cli.command("systems")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@rules_options(overlays=False)
def systems_cmd(fmt: str, rules_dirs: tuple[Path, ...]) -> None:
    """List the rules modules: id, name, version and dice mechanic.

    With --rules-dir, the modules in that folder are listed too, with their folder.

    \b
    Examples:
        chargen systems
        chargen systems --rules-dir examples/house-rules/modules
    """
    from chargen.rules import load_module, module_ids

    modules = [load_module(i, rules_dirs=rules_dirs) for i in module_ids(rules_dirs)]
    if fmt == "json":
        click.echo(json.dumps([{"id": m.id, "name": m.name, "version": m.version, "mechanic": m.mechanic,
                                "engine": m.engine, "path": None if m.builtin else m.path}
                               for m in modules], indent=2))
        return
    for m in modules:
        where = "" if m.builtin else f" [{m.path}]"
        click.echo(f"{m.id:<6} {m.name} {m.version} - {m.mechanic}{where}")


@cli.command("generate")
@system_option
@seed_option
@click.option("--count", "-n", type=click.IntRange(1, 100_000), default=1, show_default=True,
              help="How many characters.")
@click.option("--index", "start", type=click.IntRange(0, 10**9), default=None,
              help="First character index (default 0): --index 7 alone is character 7 of the batch.")
@click.option("--format", "formats", default="json", show_default=True, help="Comma list of: json, yaml.")
@click.option("-o", "--output", "output", type=click.Path(path_type=Path, file_okay=False),
              help="Write one file per character and a manifest into this folder (new or empty).")
@click.option("--force", is_flag=True, help="Write into a folder that is not empty, replacing files.")
@click.option("--resume", is_flag=True,
              help="Finish the interrupted batch in the -o folder: options not given are read from its manifest.")
@rules_options()
@click.pass_context
def generate_cmd(ctx: click.Context, system_id: str, seed: int | None, count: int, start: int | None, formats: str,
                 output: Path | None, force: bool, resume: bool, overlays: tuple[Path, ...],
                 rules_dirs: tuple[Path, ...]) -> None:
    """Generate characters.

    Character i of a seed is the same alone (--index i) or in a batch of any size.
    Every file is written whole or not at all; a batch that stops part-way (Ctrl-C, a full
    disk) says so, exits non-zero, and is finished by the same command with --resume.

    \b
    Examples:
        chargen generate --system d100 --seed 42 --count 20 --format json -o party/
        chargen generate --system d100 --seed 42 --index 7 --format yaml
        chargen generate --seed 42 --rules examples/house-rules/grim-north.yaml --format yaml
        chargen generate --seed 42 --count 20 -o party/ --resume
    """
    from chargen.rules import load_module

    fmts = _formats(formats)
    if resume:
        if output is None:
            raise click.UsageError("--resume needs -o/--output: the folder of the interrupted batch")
        _resume(ctx, output, overlays, rules_dirs)
        return
    module = load_module(system_id, overlays, rules_dirs)
    batch_seed = _resolve_seed(seed)
    indices = range(start or 0, (start or 0) + count)
    if output is None:
        _stream(module, batch_seed, indices, fmts, single=start is not None and count == 1)
        click.echo(f"chargen: {module.id} seed {batch_seed}, {count} character{'s' if count != 1 else ''}", err=True)
        return
    from chargen.batch import write_batch
    from chargen.output import prepare_folder

    prepare_folder(output, force)
    result = write_batch(module, batch_seed, indices, output, fmts)
    rules = "".join(f", {o['name']}" for o in module.overlays)
    click.echo(printable(f"chargen: wrote {len(result.written)} {module.id} character{'s' if count != 1 else ''} "
                         f"(seed {batch_seed}{rules}) to {output}"), err=True)


def _resume(ctx: click.Context, output: Path, overlays: tuple[Path, ...], rules_dirs: tuple[Path, ...]) -> None:
    from chargen.batch import plan_resume, write_batch
    from chargen.rules import load_module

    p = ctx.params
    given_formats = _given(ctx, "formats", p["formats"])
    plan = plan_resume(output, system_id=_given(ctx, "system_id", p["system_id"]), seed=p["seed"],
                       start=p["start"], count=_given(ctx, "count", p["count"]),
                       formats=_formats(given_formats) if given_formats else None)
    if plan["complete"]:
        click.echo(f"chargen: the batch in {output} is already complete ({plan['count']} characters)", err=True)
        return
    module = load_module(plan["system_id"], overlays, rules_dirs)
    indices = range(plan["start"], plan["start"] + plan["count"])
    result = write_batch(module, plan["seed"], indices, output, plan["formats"], resume=True)
    click.echo(f"chargen: resumed: wrote {result.new} more {module.id} character{'s' if result.new != 1 else ''} "
               f"(seed {plan['seed']}) to {output}; {len(result.written)} of {len(indices)} complete", err=True)


def _stream(module, batch_seed: int, indices: range, fmts: tuple[str, ...], single: bool) -> None:
    from chargen.generate import characters
    from chargen.serialize import to_json, to_yaml, to_yaml_stream

    if len(fmts) != 1:
        raise click.UsageError("without -o, give exactly one --format (json or yaml)")
    docs = list(characters(module, batch_seed, indices))
    if fmts[0] == "json":
        sys.stdout.write(to_json(docs[0] if single else docs))
    else:
        sys.stdout.write(to_yaml(docs[0]) if single else to_yaml_stream(docs))


@cli.command("roll")
@click.argument("expression")
@seed_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def roll_cmd(expression: str, seed: int | None, fmt: str) -> None:
    """Roll dice notation and show every die: 3D6, 2D6+6, D100 (01-100), 1D4+1D6, -1D4.

    \b
    Example:
        chargen roll 3D6+2 --seed 1
    """
    import random

    from chargen.dice import Roller, parse

    dice = parse(expression)
    batch_seed = _resolve_seed(seed)
    roller = Roller(random.Random(batch_seed))
    total = roller.roll(dice, "roll")
    record = roller.log[0]
    if fmt == "json":
        click.echo(json.dumps({"expression": str(dice), "seed": batch_seed, **record.to_dict()} | {"for": None}))
        return
    click.echo(f"{dice} = {total}")
    faces = iter(record.dice)
    for term in dice.terms:
        sign = "-" if term.sign < 0 else "+"
        if term.sides == 0:
            click.echo(f"  {sign}{term.count}")
        else:
            shown = " ".join(str(next(faces)[1]) for _ in range(term.count))
            click.echo(f"  {sign}{term}: {shown}")
    click.echo(f"chargen: seed {batch_seed}", err=True)


@cli.group("rules", context_settings=CONTEXT)
def rules_group() -> None:
    """Inspect and check rules modules and house-rules overlays.

    \b
    Examples:
        chargen rules check examples/house-rules/grim-north.yaml
        chargen rules show d100 --rules examples/house-rules/grim-north.yaml --file characteristics
    """


@rules_group.command("show")
@click.argument("system_id", metavar="SYSTEM")
@click.option("--file", "only", metavar="STEM", help="Show one rules file only (e.g. combat, skills).")
@rules_options()
def rules_show_cmd(system_id: str, only: str | None, overlays: tuple[Path, ...], rules_dirs: tuple[Path, ...]) -> None:
    """Print the effective rules of SYSTEM, with any --rules overlays applied, as YAML.

    \b
    Example:
        chargen rules show d100 --rules examples/house-rules/grim-north.yaml --file combat
    """
    from chargen.rules import load_module
    from chargen.rules.inspect import show_rules

    click.echo(show_rules(load_module(system_id, overlays, rules_dirs), only), nl=False)


@rules_group.command("check")
@click.argument("paths", nargs=-1, required=True, metavar="FILE|DIR...",
                type=click.Path(path_type=Path))
@rules_options(overlays=False)
@click.pass_context
def rules_check_cmd(ctx: click.Context, paths: tuple[Path, ...], rules_dirs: tuple[Path, ...]) -> None:
    """Validate overlays and rules modules; print every problem, then exit 1 if there is one.

    FILE is an overlay (checked against the module it changes, built in or from --rules-dir)
    or a file of a module folder; DIR is a module folder or a folder of module folders.
    Each problem is one line: file:line: key.path: what is wrong (what is allowed).

    \b
    Example:
        chargen rules check examples/house-rules/grim-north.yaml examples/house-rules/modules
    """
    from chargen.rules.inspect import check_path

    problems = 0
    for path in paths:
        report = check_path(path, rules_dirs)
        for line in report.checked:
            click.echo(printable(f"ok: {line}"))
        for line in report.problems:
            click.echo(printable(line))
        problems += len(report.problems)
    if problems:
        click.echo(f"chargen: {problems} problem{'s' if problems != 1 else ''} found", err=True)
        ctx.exit(1)


def main() -> None:
    cli(prog_name="chargen")
