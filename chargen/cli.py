"""The ``chargen`` command line: a thin shell over the library.

Library errors (:class:`ChargenError`) become one ``Error: ...`` line and exit
status 1; Click's usage errors exit 2; ``--debug`` shows the traceback.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
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


def _formats(value: str, known: tuple[str, ...] | None = None) -> tuple[str, ...]:
    from chargen.batch import DATA_FORMATS
    from chargen.render.bundle import SHEET_FORMATS

    known = known or DATA_FORMATS + SHEET_FORMATS
    formats = tuple(dict.fromkeys(f.strip().lower() for f in value.split(",") if f.strip()))
    bad = [f for f in formats if f not in known]
    if not formats or bad:
        raise click.BadParameter(f"{', '.join(bad) or repr(value)} is not a format (expected a comma list of: {', '.join(known)})",
                                 param_hint="'--format'")
    return formats


def sheet_options(f):
    """--paper, --template-dir and --party-name: how html and pdf sheets are rendered."""
    for option in reversed([
        click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
                     help="Paper size of html and pdf sheets."),
        click.option("--template-dir", type=click.Path(path_type=Path, file_okay=False, exists=True),
                     help="Render sheets with the templates in this folder instead of the built-in ones."),
        click.option("--party-name", metavar="NAME", help="Title of party.pdf and index.html."),
    ]):
        f = option(f)
    return f


def jobs_option(f):
    return click.option("--jobs", "-j", type=click.IntRange(1, 256), default=None,
                        help="Worker processes for large batches and for laying out sheets (default: all cores).")(f)


def _sheet_options(formats, paper, template_dir, jobs, party_name):
    from chargen.render.bundle import SHEET_FORMATS, SheetOptions

    return SheetOptions(formats=tuple(f for f in formats if f in SHEET_FORMATS), paper=paper,
                        template_dir=template_dir, jobs=jobs or 0, party_name=party_name)


@contextlib.contextmanager
def _progress(count: int, label: str):
    """A progress bar on stderr for a batch of sheets on a terminal; silent otherwise."""
    if count < 2 or not sys.stderr.isatty():
        yield None
        return
    with click.progressbar(length=count, label=label, file=sys.stderr) as bar:
        yield bar.update


def _sheet_to_stdout(doc: dict, fmt: str, options, modules: tuple = ()) -> None:
    from chargen.render.bundle import render_single

    if fmt == "pdf" and sys.stdout.isatty():
        raise click.UsageError("refusing to write a PDF to a terminal (redirect stdout to a file, or use -o DIR)")
    data = render_single(doc, fmt, options, modules)
    if isinstance(data, bytes):
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        sys.stdout.write(data)


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
@click.option("--index", "start", type=click.IntRange(0, 10**6), default=None,
              help="First character index (default 0): --index 7 alone is character 7 of the batch.")
@click.option("--format", "formats", default="json", show_default=True,
              help="Comma list of: json, yaml, html, pdf.")
@click.option("-o", "--output", "output", type=click.Path(path_type=Path, file_okay=False),
              help="Write one file per character per format, a manifest, and with html or pdf "
                   "an index.html and a party.pdf, into this folder (new or empty).")
@click.option("--force", is_flag=True, help="Write into a folder that is not empty, replacing files.")
@click.option("--resume", is_flag=True,
              help="Finish the interrupted batch in the -o folder: options not given are read from its manifest.")
@jobs_option
@rules_options()
@sheet_options
@click.pass_context
def generate_cmd(ctx: click.Context, system_id: str, seed: int | None, count: int, start: int | None, formats: str,
                 output: Path | None, force: bool, resume: bool, jobs: int | None, overlays: tuple[Path, ...],
                 rules_dirs: tuple[Path, ...], paper: str, template_dir: Path | None, party_name: str | None) -> None:
    """Generate characters, as data (json, yaml) and as sheets (html, pdf).

    Character i of a seed is the same alone (--index i) or in a batch of any size.
    Every file is written whole or not at all; a batch that stops part-way (Ctrl-C, a full
    disk) says so, exits non-zero, and is finished by the same command with --resume.
    Without -o, one format goes to stdout; html and pdf only for one character.

    \b
    Examples:
        chargen generate --system d100 --seed 42 --count 20 --format json -o party/
        chargen generate --system d100 --seed 42 --index 7 --format yaml
        chargen generate --seed 42 --rules examples/house-rules/grim-north.yaml --format yaml
        chargen generate --seed 42 --count 20 -o party/ --resume
        chargen generate --system d100 --seed 42 --count 6 --format json,html,pdf -o party/ --party-name "The Red Lanterns"
        chargen generate --system d100 --seed 7 --format pdf --paper letter -o out/
    """
    from chargen.rules import load_module

    fmts = _formats(formats)
    options = _sheet_options(fmts, paper, template_dir, jobs, party_name)
    if resume:
        if output is None:
            raise click.UsageError("--resume needs -o/--output: the folder of the interrupted batch")
        _resume(ctx, output, overlays, rules_dirs, options)
        return
    module = load_module(system_id, overlays, rules_dirs)
    batch_seed = _resolve_seed(seed)
    indices = range(start or 0, (start or 0) + count)
    if output is None:
        _stream(module, batch_seed, indices, fmts, single=start is not None and count == 1, options=options)
        click.echo(f"chargen: {module.id} seed {batch_seed}, {count} character{'s' if count != 1 else ''}", err=True)
        return
    from chargen.batch import write_batch
    from chargen.output import prepare_folder

    prepare_folder(output, force)
    result = write_batch(module, batch_seed, indices, output, _data_formats(fmts), jobs=_jobs(jobs))
    _batch_sheets(module, batch_seed, result, output, options)
    rules = "".join(f", {o['name']}" for o in module.overlays)
    click.echo(printable(f"chargen: wrote {len(result.written)} {module.id} character{'s' if count != 1 else ''} "
                         f"(seed {batch_seed}{rules}) to {output}"), err=True)


def _data_formats(fmts: tuple[str, ...]) -> tuple[str, ...]:
    from chargen.batch import DATA_FORMATS

    return tuple(f for f in fmts if f in DATA_FORMATS)


def _batch_sheets(module, batch_seed: int, result, output: Path, options) -> None:
    """The sheets, party.pdf and index.html of a batch whose data files are written."""
    if not options.formats:
        return
    from chargen.render.bundle import write_batch_sheets

    with _progress(len(result.written), "sheets") as progress:
        write_batch_sheets(module, batch_seed, result.written, output, options, progress)


def _resume(ctx: click.Context, output: Path, overlays: tuple[Path, ...], rules_dirs: tuple[Path, ...],
            options) -> None:
    from dataclasses import replace

    from chargen.batch import plan_resume, write_batch
    from chargen.render.bundle import recorded_sheets
    from chargen.rules import load_module

    p = ctx.params
    given_formats = _given(ctx, "formats", p["formats"])
    plan = plan_resume(output, system_id=_given(ctx, "system_id", p["system_id"]), seed=p["seed"],
                       start=p["start"], count=_given(ctx, "count", p["count"]),
                       formats=_data_formats(_formats(given_formats)) if given_formats else None)
    recorded = recorded_sheets(output)  # sheet options not given again are the batch's own
    taken = {"formats": given_formats, "paper": _given(ctx, "paper", p["paper"]), "party_name": p["party_name"]}
    options = replace(options, **{k: v for k, v in recorded.items() if taken[k] is None})
    if plan["complete"] and not options.formats:
        click.echo(f"chargen: the batch in {output} is already complete ({plan['count']} characters)", err=True)
        return
    module = load_module(plan["system_id"], overlays, rules_dirs)
    indices = range(plan["start"], plan["start"] + plan["count"])
    result = write_batch(module, plan["seed"], indices, output, plan["formats"], resume=True,
                         jobs=_jobs(ctx.params["jobs"]))
    _batch_sheets(module, plan["seed"], result, output, options)
    click.echo(f"chargen: resumed: wrote {result.new} more {module.id} character{'s' if result.new != 1 else ''} "
               f"(seed {plan['seed']}) to {output}; {len(result.written)} of {len(indices)} complete", err=True)


def _jobs(jobs: int | None) -> int:
    return jobs or os.cpu_count() or 1


def _stream(module, batch_seed: int, indices: range, fmts: tuple[str, ...], single: bool, options) -> None:
    from chargen.generate import characters, make_character
    from chargen.serialize import to_json, to_json_stream, to_yaml, to_yaml_stream

    if len(fmts) != 1:
        raise click.UsageError("without -o, give exactly one --format (json, yaml, html or pdf)")
    if fmts[0] in ("html", "pdf"):
        if len(indices) != 1:
            raise click.UsageError(f"without -o, {fmts[0]} is written for one character only (use -o DIR for a batch)")
        _sheet_to_stdout(make_character(module, batch_seed, indices[0]), fmts[0], options, (module,))
        return
    docs = list(characters(module, batch_seed, indices))
    if fmts[0] == "json":
        sys.stdout.write(to_json(docs[0]) if single else to_json_stream(docs))
    else:
        sys.stdout.write(to_yaml(docs[0]) if single else to_yaml_stream(docs))


@cli.command("render")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.option("--format", "formats", default="pdf", show_default=True, help="Comma list of: html, pdf.")
@click.option("-o", "--output", "output", type=click.Path(path_type=Path, file_okay=False),
              help="Write each sheet, an index.html and with pdf a party.pdf into this folder (new or empty).")
@click.option("--force", is_flag=True, help="Write into a folder that is not empty, replacing files.")
@jobs_option
@sheet_options
def render_cmd(files: tuple[Path, ...], formats: str, output: Path | None, force: bool, jobs: int | None,
               paper: str, template_dir: Path | None, party_name: str | None) -> None:
    """Render saved characters (JSON or YAML, hand edits and all) as sheets.

    Every file is checked against the character schema before anything is written;
    a batch's manifest.json among the files is skipped.
    Without -o, one character's sheet in one format goes to stdout.

    \b
    Examples:
        chargen render party/*.json --format pdf -o prints/
        chargen render party/0003-faxi-the-grim.json --format html > faxi.html
    """
    from chargen.render import saved
    from chargen.render.bundle import SHEET_FORMATS

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
    click.echo(printable(f"chargen: rendered {len(result.sheets)} sheet{'s' if len(result.sheets) != 1 else ''}"
                         f"{extra} to {output}"), err=True)


def _bundle(*options):
    """Apply several click options as one decorator (an option bundle)."""
    def decorate(f):
        for option in reversed(options):
            f = option(f)
        return f
    return decorate


kotm_options = _bundle(
    click.option("--sd", type=int, help="kotm: the SD target number."),
    click.option("--level", type=int, help="kotm: the attacker's level (1-15)."),
    click.option("--damage-mod", type=int, help="kotm: the weapon's damage modifier."),
    click.option("--missile", is_flag=True, help="kotm: the weapon is a missile weapon (fumble row 61-62)."),
    click.option("--no-helm", is_flag=True, help="kotm: the fumbler wears no helm (fumble row 72)."),
)
rtd_options = _bundle(
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
d100_options = _bundle(
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
    batch_seed = _resolve_seed(seed)
    if system_id is None:
        _roll_notation(expression, batch_seed, fmt, options)
    else:
        _roll_system(system_id, batch_seed, fmt, options)
    click.echo(f"chargen: seed {batch_seed}", err=True)


def _roll_notation(expression: str, batch_seed: int, fmt: str, options: dict) -> None:
    import random

    from chargen.dice import Roller, parse
    from chargen.resolve import flag, given

    stray = [k for k, v in options.items() if given(v)]
    if stray:
        raise click.UsageError(f"{flag(stray[0])} needs --system, not dice notation")
    dice = parse(expression)
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


def _roll_system(system_id: str, batch_seed: int, fmt: str, options: dict) -> None:
    import random

    from chargen.dice import Roller
    from chargen.errors import OptionError
    from chargen.resolve import resolve
    from chargen.rules import load_builtin

    module = load_builtin(system_id)
    roller = Roller(random.Random(batch_seed))
    try:
        result = resolve(module, roller, options)
    except OptionError as e:
        raise click.UsageError(str(e)) from None
    if fmt == "json":
        doc = {"seed": batch_seed, **result.to_dict(), "rolls": [r.to_dict() for r in roller.log]}
        click.echo(json.dumps(doc, indent=2))
    else:
        click.echo(result.text(), nl=False)


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
