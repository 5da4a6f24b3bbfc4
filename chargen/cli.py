"""The ``chargen`` command line: a thin shell over the library.

Library errors (:class:`ChargenError`) become one ``Error: ...`` line and exit
status 1; Click's usage errors exit 2; ``--debug`` shows the traceback.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path

import click

from chargen import __version__
from chargen.errors import ChargenError

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class ChargenGroup(click.Group):
    """Turns library errors into ``Error: ...`` at the edge, unless ``--debug``."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except ChargenError as e:
            if ctx.meta.get("chargen.debug"):
                raise
            raise click.ClickException(str(e)) from None
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
def systems_cmd(fmt: str) -> None:
    """List the rules modules: id, name, version and dice mechanic.

    \b
    Example:
        chargen systems
    """
    from chargen.rules import builtin_ids, load_builtin

    modules = [load_builtin(i) for i in builtin_ids()]
    if fmt == "json":
        click.echo(json.dumps([{"id": m.id, "name": m.name, "version": m.version, "mechanic": m.mechanic}
                               for m in modules], indent=2))
        return
    for m in modules:
        click.echo(f"{m.id:<6} {m.name} {m.version} - {m.mechanic}")


@cli.command("generate")
@system_option
@seed_option
@click.option("--count", "-n", type=click.IntRange(1, 100_000), default=1, show_default=True,
              help="How many characters.")
@click.option("--index", "start", type=click.IntRange(0, 10**6), default=None,
              help="First character index (default 0): --index 7 alone is character 7 of the batch.")
@click.option("--format", "formats", default="json", show_default=True, help="Comma list of: json, yaml.")
@click.option("-o", "--output", "output", type=click.Path(path_type=Path, file_okay=False),
              help="Write one file per character and a manifest into this folder (new or empty).")
@click.option("--force", is_flag=True, help="Write into a folder that is not empty, replacing files.")
@click.option("--jobs", "-j", type=click.IntRange(1, 256), default=None,
              help="Worker processes for large batches (default: all cores).")
def generate_cmd(system_id: str, seed: int | None, count: int, start: int | None, formats: str,
                 output: Path | None, force: bool, jobs: int | None) -> None:
    """Generate characters.

    Character i of a seed is the same alone (--index i) or in a batch of any size.

    \b
    Examples:
        chargen generate --system d100 --seed 42 --count 20 --format json -o party/
        chargen generate --system d100 --seed 42 --index 7 --format yaml
    """
    from chargen.rules import load_builtin

    fmts = _formats(formats)
    module = load_builtin(system_id)
    batch_seed = _resolve_seed(seed)
    indices = range(start or 0, (start or 0) + count)
    if output is None:
        _stream(module, batch_seed, indices, fmts, single=start is not None and count == 1)
        click.echo(f"chargen: {module.id} seed {batch_seed}, {count} character{'s' if count != 1 else ''}", err=True)
        return
    from chargen.batch import write_batch
    from chargen.output import prepare_folder

    prepare_folder(output, force)
    result = write_batch(module, batch_seed, indices, output, fmts, jobs=jobs or os.cpu_count() or 1)
    click.echo(f"chargen: wrote {len(result.written)} {module.id} character{'s' if count != 1 else ''} "
               f"(seed {batch_seed}) to {output}", err=True)


def _stream(module, batch_seed: int, indices: range, fmts: tuple[str, ...], single: bool) -> None:
    from chargen.generate import characters
    from chargen.serialize import to_json, to_json_stream, to_yaml, to_yaml_stream

    if len(fmts) != 1:
        raise click.UsageError("without -o, give exactly one --format (json or yaml)")
    docs = list(characters(module, batch_seed, indices))
    if fmts[0] == "json":
        sys.stdout.write(to_json(docs[0]) if single else to_json_stream(docs))
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
    click.echo(f"chargen: seed {batch_seed}", err=True)


def main() -> None:
    cli(prog_name="chargen")
