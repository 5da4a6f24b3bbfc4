"""The ``chargen`` command line: a thin shell over the library.

Library errors (:class:`ChargenError`) become one ``Error: ...`` line and exit
status 1; Click's usage errors exit 2; ``--debug`` shows the traceback.
"""

from __future__ import annotations

import contextlib
import functools
import json
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


def _formats(value: str, known: tuple[str, ...] | None = None) -> tuple[str, ...]:
    from chargen.batch import DATA_FORMATS, SHEET_FORMATS

    known = known or DATA_FORMATS + SHEET_FORMATS
    formats = tuple(dict.fromkeys(f.strip().lower() for f in value.split(",") if f.strip()))
    bad = [f for f in formats if f not in known]
    if not formats or bad:
        raise click.BadParameter(f"{', '.join(bad) or repr(value)} is not a format (expected a comma list of: {', '.join(known)})",
                                 param_hint="'--format'")
    return formats


def sheet_options(f):
    """--paper, --template-dir, --jobs and --party-name: how sheets are rendered."""
    for option in reversed([
        click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
                     help="Paper size of HTML and PDF sheets."),
        click.option("--template-dir", type=click.Path(path_type=Path, file_okay=False, exists=True),
                     help="Use the templates in this folder instead of the built-in ones."),
        click.option("--jobs", "-j", type=click.IntRange(0, 256), default=0,
                     help="Processes laying out sheets (default 0: one per core)."),
        click.option("--party-name", metavar="NAME", help="Title of party.pdf and index.html."),
    ]):
        f = option(f)
    return f


def _sheet_options(formats, paper, template_dir, jobs, party_name):
    from chargen.render.bundle import SheetOptions

    return SheetOptions(formats=formats, paper=paper, template_dir=template_dir, jobs=jobs, party_name=party_name)


@contextlib.contextmanager
def _progress(count: int, label: str):
    """A progress bar on stderr for a batch of sheets on a terminal; silent otherwise."""
    if count < 2 or not sys.stderr.isatty():
        yield None
        return
    with click.progressbar(length=count, label=label, file=sys.stderr) as bar:
        yield bar.update


def _sheet_to_stdout(doc: dict, fmt: str, options) -> None:
    from chargen.render.bundle import render_single

    if fmt == "pdf" and sys.stdout.isatty():
        raise click.UsageError("refusing to write a PDF to a terminal (redirect stdout to a file, or use -o DIR)")
    data = render_single(doc, fmt, options)
    if isinstance(data, bytes):
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        sys.stdout.write(data)


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
@click.option("--index", "start", type=click.IntRange(0, 10**9), default=None,
              help="First character index (default 0): --index 7 alone is character 7 of the batch.")
@click.option("--format", "formats", default="json", show_default=True,
              help="Comma list of: json, yaml, html, pdf.")
@click.option("-o", "--output", "output", type=click.Path(path_type=Path, file_okay=False),
              help="Write one file per character per format, a manifest, and with html or pdf "
                   "an index.html and a party.pdf, into this folder (new or empty).")
@click.option("--force", is_flag=True, help="Write into a folder that is not empty, replacing files.")
@sheet_options
def generate_cmd(system_id: str, seed: int | None, count: int, start: int | None, formats: str,
                 output: Path | None, force: bool, paper: str, template_dir: Path | None, jobs: int,
                 party_name: str | None) -> None:
    """Generate characters, as data (json, yaml) and as sheets (html, pdf).

    Character i of a seed is the same alone (--index i) or in a batch of any size.
    Without -o, one format goes to stdout; html and pdf only for one character.

    \b
    Examples:
        chargen generate --system d100 --seed 42 --count 20 --format json -o party/
        chargen generate --system d100 --seed 42 --index 7 --format yaml
        chargen generate --system d100 --seed 42 --count 6 --format json,html,pdf -o party/ --party-name "The Red Lanterns"
        chargen generate --system d100 --seed 7 --format pdf --paper letter -o out/
    """
    from chargen.rules import load_builtin

    fmts = _formats(formats)
    module = load_builtin(system_id)
    batch_seed = _resolve_seed(seed)
    indices = range(start or 0, (start or 0) + count)
    options = _sheet_options(fmts, paper, template_dir, jobs, party_name)
    if output is None:
        _stream(module, batch_seed, indices, fmts, single=start is not None and count == 1, options=options)
        click.echo(f"chargen: {module.id} seed {batch_seed}, {count} character{'s' if count != 1 else ''}", err=True)
        return
    from chargen.batch import SHEET_FORMATS, write_batch
    from chargen.output import prepare_folder

    prepare_folder(output, force)
    with _progress(count if set(fmts) & set(SHEET_FORMATS) else 0, "sheets") as progress:
        result = write_batch(module, batch_seed, indices, output, fmts, progress, options)
    click.echo(f"chargen: wrote {len(result.written)} {module.id} character{'s' if count != 1 else ''} "
               f"(seed {batch_seed}) to {output}", err=True)


def _stream(module, batch_seed: int, indices: range, fmts: tuple[str, ...], single: bool, options) -> None:
    from chargen.generate import characters, make_character
    from chargen.serialize import to_json, to_yaml, to_yaml_stream

    if len(fmts) != 1:
        raise click.UsageError("without -o, give exactly one --format (json, yaml, html or pdf)")
    if fmts[0] in ("html", "pdf"):
        if len(indices) != 1:
            raise click.UsageError(f"without -o, {fmts[0]} is written for one character only (use -o DIR for a batch)")
        _sheet_to_stdout(make_character(module, batch_seed, indices[0]), fmts[0], options)
        return
    docs = list(characters(module, batch_seed, indices))
    if fmts[0] == "json":
        sys.stdout.write(to_json(docs[0] if single else docs))
    else:
        sys.stdout.write(to_yaml(docs[0]) if single else to_yaml_stream(docs))


@cli.command("render")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.option("--format", "formats", default="pdf", show_default=True, help="Comma list of: html, pdf.")
@click.option("-o", "--output", "output", type=click.Path(path_type=Path, file_okay=False),
              help="Write each sheet, an index.html and with pdf a party.pdf into this folder (new or empty).")
@click.option("--force", is_flag=True, help="Write into a folder that is not empty, replacing files.")
@sheet_options
def render_cmd(files: tuple[Path, ...], formats: str, output: Path | None, force: bool, paper: str,
               template_dir: Path | None, jobs: int, party_name: str | None) -> None:
    """Render saved characters (JSON or YAML, hand edits and all) as sheets.

    Every file is checked against the character schema before anything is written.
    Without -o, one character's sheet in one format goes to stdout.

    \b
    Examples:
        chargen render party/*.json --format pdf -o prints/
        chargen render party/0007-percival-of-brightwater.json --format html > percival.html
    """
    from chargen.batch import SHEET_FORMATS
    from chargen.render import saved

    fmts = _formats(formats, SHEET_FORMATS)
    options = _sheet_options(fmts, paper, template_dir, jobs, party_name)
    if output is None:
        if len(files) != 1 or len(fmts) != 1:
            raise click.UsageError("without -o, give one file and one --format (html or pdf); use -o DIR for more")
        _sheet_to_stdout(saved.read_character(files[0]), fmts[0], options)
        return
    from chargen.output import prepare_folder
    from chargen.render.bundle import write_sheets

    planned = saved.plan(list(files))
    prepare_folder(output, force)
    with _progress(len(planned), "sheets") as progress:
        result = write_sheets(saved.characters(planned), output, options, progress)
    extra = " and party.pdf" if "party_pdf" in result.files else ""
    click.echo(f"chargen: rendered {len(result.sheets)} sheet{'s' if len(result.sheets) != 1 else ''}"
               f"{extra} to {output}", err=True)


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


def main() -> None:
    cli(prog_name="chargen")
