"""``chargen generate`` and ``chargen render``: characters as data files and as sheets."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from chargen.cli import cli
from chargen.cli.options import (
    Integer, against_option, check_against, given_value, jobs_option, jobs_or_cores, make_sheet_options, parse_formats, progress_bar,
    request_options, rules_options, seed_option, sheet_options, system_option,
)
from chargen.errors import printable
from chargen.formats import names
from chargen.seeds import MAX_COUNT, MAX_INDEX

FORMAT_NAMES = names()
SHEET_FORMATS = names(sheet=True)


@cli.command("generate")
@system_option
@seed_option
@click.option("--count", "-n", type=Integer(1, MAX_COUNT), default=1, show_default=True,
              help="How many characters.")
@click.option("--index", "start", type=Integer(0, MAX_INDEX), default=None,
              help="First character index (default 0): --index 7 alone is character 7 of the batch.")
@click.option("--format", "formats", default="json", show_default=True,
              help=f"Comma list of: {', '.join(FORMAT_NAMES)}.")
@click.option("-o", "--output", "output", type=click.Path(path_type=Path, file_okay=False),
              help="Write one file per character per format, a manifest, with html or pdf "
                   "an index.html and a party.pdf, and each batch file (roster.csv, blocks.txt, "
                   "party.meg.json, ...) into this folder (new or empty).")
@click.option("--set", "sets", multiple=True, metavar="PATH=VALUE",
              help="Pin a value (repeatable): it replaces its roll, every other roll stays; values derived "
                   "from it follow (e.g. characteristics.str=16, level=9, identity.name=\"Red Ulf\"); "
                   "INDEX:PATH=VALUE pins character INDEX only.")
@click.option("--require", "requires", multiple=True, metavar="EXPR",
              help="Reroll each character until PATH OP NUMBER holds (repeatable; OP: >= <= > < == !=; "
                   "e.g. \"combat.hit_points>=14\", \"skills.climbing>=40\", \"weapons.broadsword.attack>=50\"; "
                   "best_weapon is the usable weapon ranked best: \"best_weapon.attack>=60\").")
@click.option("--force", is_flag=True, help="Write into a folder that is not empty, replacing files (a batch there "
              "is removed first: the files its manifest lists); and pin a number the rules' dice cannot roll.")
@click.option("--no-flavour", "no_flavour", is_flag=True,
              help="Leave out the flavour tables (appearance, manner, motive, ...: the rules' flavour.yaml); "
                   "every other value is the same with or without them.")
@click.option("--resume", is_flag=True,
              help="Finish the interrupted batch in the -o folder: options not given are read from its manifest.")
@request_options
@jobs_option
@rules_options()
@sheet_options
@against_option
@click.pass_context
def generate_cmd(ctx: click.Context, system_id: str, seed: int | None, count: int, start: int | None, formats: str,
                 output: Path | None, sets: tuple[str, ...], requires: tuple[str, ...], force: bool, resume: bool,
                 archetype: str | None, profession: str | None, years: str | None, jobs: int | None,
                 overlays: tuple[Path, ...], rules_dirs: tuple[Path, ...], paper: str, template_dir: Path | None,
                 party_name: str | None, layout: str, cards_per_page: str, pdf_variant: str | None,
                 compare: bool | None, card_backs: bool | None, each_pdf: bool | None, against: Path | None = None,
                 no_flavour: bool = False) -> None:
    """Generate characters, as data (json, yaml), as sheets (html, pdf) and for other tools
    (csv roster, text stat blocks, meg, foundry, statblock).

    Character i of a seed is the same alone (--index i) or in a batch of any size.
    Every file is written whole or not at all; a batch that stops part-way (Ctrl-C, a full
    disk) says so, exits non-zero, and is finished by the same command with --resume.
    Without -o, one format goes to stdout; html and pdf only for one character.
    A plain generate makes the rules' own characters (d100: 16-year-olds, no previous
    experience); --archetype makes NPCs of a type, --profession and --years give d100
    previous experience.

    \b
    Examples:
        chargen generate --system d100 --seed 42 --count 20 --format json -o party/
        chargen generate --system d100 --seed 42 --index 7 --format yaml
        chargen generate --seed 42 --rules examples/house-rules/grim-north.yaml --format yaml
        chargen generate --seed 42 --count 6 --rules examples/house-rules/grim-north.yaml -o grim/
        chargen generate --seed 42 --count 20 -o party/ --resume
        chargen generate --system d100 --seed 42 --count 6 --format json,html,pdf -o lanterns/ --party-name "The Red Lanterns"
        chargen generate --system d100 --seed 7 --format pdf --paper letter -o out/
        chargen generate --system d100 --seed 42 --count 6 --format json,csv,text,meg,foundry,statblock -o vtt/
        chargen generate --system d100 --seed 7 --archetype town_guard --count 20 -o town-guards/
        chargen generate --system d100 --seed 7 --profession soldier --years 1D6+2 --format yaml
        chargen generate --system d100 --seed 42 --count 12 --format pdf --layout block -o blocks/
        chargen generate --system kotm --seed 42 --count 9 --format pdf --layout card --cards-per-page 9 -o cards/
        chargen generate --system kotm --seed 42 --index 3 --set level=9 --set profession=ranger
        chargen generate --system rtd --seed 42 --count 4 --require "stats.str>=12" -o strong/
    """
    from chargen.run.asked import Asked, new_run

    fmts = parse_formats(formats)
    options = make_sheet_options(fmts, paper, template_dir, jobs, party_name, layout, cards_per_page, pdf_variant,
                                 compare, card_backs, each_pdf, against)
    asked = Asked(archetype, profession, years, sets, requires, force, flavour=not no_flavour)
    if resume:
        if output is None:
            raise click.UsageError("--resume needs -o/--output: the folder of the interrupted batch")
        _resume(ctx, output, asked, overlays, rules_dirs, options)
        return
    if output is not None:
        from chargen.run.sheets import start_early

        start_early(fmts)
    first = start or 0
    spec, module = new_run(system_id, seed, first, count, fmts, asked, options, overlays, rules_dirs)
    check_against(spec.sheets, spec.count)
    if output is None:
        _stream(spec, module, single=start is not None and count == 1)
        click.echo(f"chargen: {module.id} seed {spec.seed}, {count} character{'s' if count != 1 else ''}", err=True)
        return
    from chargen.run.files import claim_folder

    with claim_folder(output, force):  # created, locked, then checked empty: one step
        if force:
            replaced(output)
        result = _write(spec, module, output, jobs)
    rules = "".join(f", {o['name']}" for o in module.overlays)
    click.echo(printable(f"chargen: wrote {len(result.written)} {module.id} character{'s' if count != 1 else ''} "
                         f"(seed {spec.seed}{rules}) to {output}"), err=True)


def replaced(output: Path) -> None:
    """``--force`` over a batch: remove it first (its manifest's files) and say how many files went."""
    from chargen.run.replace import replace_batch

    removed = replace_batch(output)
    if removed:
        click.echo(printable(f"chargen: --force: removed the {removed} file{'s' if removed != 1 else ''} of the "
                             f"batch that was in {output}"), err=True)


def _write(spec, module, output: Path, jobs: int | None, resume: bool = False):
    """The batch, every format; its expected time first when that is long, then its progress on a terminal."""
    from chargen.cli.progress import announce
    from chargen.run.pipeline import Pipeline

    options = spec.sheets
    if not resume:
        announce(spec.count, bool(options.formats), options.workers)
    with progress_bar(spec.count, "sheets" if options.formats else "characters") as progress:
        return Pipeline(spec, module, output, jobs_or_cores(jobs), progress).run(resume)


def _resume(ctx: click.Context, output: Path, asked, overlays: tuple[Path, ...], rules_dirs: tuple[Path, ...],
            options) -> None:
    """Finish the batch in ``output``: options not given are the manifest's; one given must match it."""
    from chargen.run.asked import resumed_run

    p = ctx.params
    given_formats = given_value(ctx, "formats", p["formats"])
    cards = given_value(ctx, "cards_per_page", p["cards_per_page"])
    given = {"system": given_value(ctx, "system_id", p["system_id"]), "seed": p["seed"], "first": p["start"],
             "count": given_value(ctx, "count", p["count"]),
             "formats": parse_formats(given_formats) if given_formats else None,
             "paper": given_value(ctx, "paper", p["paper"]), "party_name": p["party_name"],
             "layout": given_value(ctx, "layout", p["layout"]), "cards_per_page": int(cards) if cards else None,
             "pdf_variant": p["pdf_variant"], "compare": p["compare"], "against": p["against"] and str(p["against"]),
             "card_backs": p["card_backs"], "each_pdf": p["each_pdf"]}
    spec, module = resumed_run(output, given, asked, options, overlays, rules_dirs)
    check_against(spec.sheets, spec.count)
    result = _write(spec, module, output, p["jobs"], resume=True)
    if result.already_complete:
        click.echo(f"chargen: the batch in {output} is already complete ({spec.count} characters)", err=True)
        return
    if result.redone:
        n = sum(result.redone.values())
        why = ", ".join(f"{k} {reason}" for reason, k in result.redone.items())
        click.echo(f"chargen: resume: made {n} recorded file{'s' if n != 1 else ''} again ({why})", err=True)
    sheets = f" and {result.drawn} sheet{'s' if result.drawn != 1 else ''}" if result.drawn else ""
    click.echo(f"chargen: resumed: wrote {result.new} more {module.id} character{'s' if result.new != 1 else ''}"
               f"{sheets} (seed {spec.seed}) to {output}; {len(result.written)} of {spec.count} complete",
               err=True)


def _stream(spec, module, single: bool) -> None:
    from chargen.run.pipeline import Pipeline
    from chargen.run.stream import StreamRefused, stream

    try:
        stream(Pipeline(spec, module), sys.stdout, single)
    except StreamRefused as e:
        raise click.UsageError(str(e)) from None


@cli.command("render")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True))
@click.option("--format", "formats", default="pdf", show_default=True,
              help=f"Comma list of: {', '.join(FORMAT_NAMES)} (html and pdf are sheets; the others convert).")
@click.option("-o", "--output", "output", type=click.Path(path_type=Path, file_okay=False),
              help="Write each sheet or file, an index.html and with pdf a party.pdf, and each batch file "
                   "(roster.csv, party.meg.json, ...) into this folder (new or empty).")
@click.option("--force", is_flag=True, help="Write into a folder that is not empty, replacing files (and the "
              "sheets of the same characters under an earlier name).")
@jobs_option
@rules_options()
@sheet_options
def render_cmd(files: tuple[Path, ...], formats: str, output: Path | None, force: bool, jobs: int | None,
               overlays: tuple[Path, ...], rules_dirs: tuple[Path, ...],
               paper: str, template_dir: Path | None, party_name: str | None, layout: str,
               cards_per_page: str, pdf_variant: str | None, compare: bool | None,
               card_backs: bool | None, each_pdf: bool | None) -> None:
    """Render saved characters as sheets, or convert them to another format: chargen JSON
    or YAML (hand edits and all), MEG JSON (an enemies list or a party: one sheet per NPC),
    Foundry VTT brp actors (one actor, an array of them, or a folder of actor files) and
    PDFs chargen wrote (a sheet, or party.pdf: the characters embedded in them).

    Every file is checked against the character schema (and the bounds of its rules)
    before anything is written; a batch's manifest.json among the files is skipped.
    What of a MEG file or a Foundry actor cannot be read is one line per field on stderr. A KoTM
    or RTD sheet shows odds from the rules: give the --rules/--rules-dir its character was
    made with. Each overlay applies to the characters of the module it names only, so a
    mixed party renders with one overlay per module. Data formats (json, csv, meg, foundry, ...)
    write each character as stored.
    Without -o, one format goes to stdout (a sheet: of one character).

    \b
    Examples:
        chargen render party/*.json --format pdf -o prints/
        chargen render party/0003-faxi-the-grim.json --format html > faxi.html
        chargen render examples/meg/bandits.meg.json -o bandits/
        chargen render prints/party.pdf --format html -o again/
        chargen render grim/*.json --rules examples/house-rules/grim-north.yaml -o grim-prints/
        chargen render party/*.json --layout block -o encounter/
        chargen render examples/foundry/hand-made-sergeant.json --format html,json -o sergeant/
        chargen render prints/party.pdf --format foundry,csv -o converted/
    """
    from chargen.run import saved

    files = saved.expand_folders(files)
    fmts = parse_formats(formats, FORMAT_NAMES)
    options = make_sheet_options(fmts, paper, template_dir, jobs, party_name, layout, cards_per_page, pdf_variant,
                                 compare, card_backs, each_pdf)
    if output is None:
        if any(f in SHEET_FORMATS for f in fmts) and (len(fmts) != 1 or len(files) != 1):
            raise click.UsageError("without -o, give one file and one --format (html or pdf); use -o DIR for more")
        if len(fmts) != 1:
            raise click.UsageError("without -o, give one --format; use -o DIR for several")
        _render_to_stdout(files, fmts[0], options, overlays, rules_dirs)
        return
    from chargen.run.files import claim_folder
    from chargen.run.pipeline import Pipeline, RunSpec
    from chargen.run.sheets import start_early

    start_early(fmts)  # WeasyPrint is imported while the files are read
    if overlays or rules_dirs:
        planned = saved.plan(list(files), None, _notice)  # every file valid before any rules are loaded
        modules = _modules(saved.system_ids(planned), overlays, rules_dirs)
        saved.check_rules(planned, modules)
    else:
        planned, modules = saved.plan(list(files), (), _notice), ()
    _check_convert(planned, fmts)
    with claim_folder(output, force):  # created, locked, then checked empty: one step
        earlier = saved.earlier_names(output, planned, fmts) if force else []
        with progress_bar(len(planned), "sheets" if options.formats else "characters") as progress:
            result = Pipeline(RunSpec.of_saved(planned, modules, options, fmts), None, output, progress=progress).run()
        saved.remove_sheets(output, earlier)  # the same characters' sheets under their earlier names: replaced now
    click.echo(printable(_rendered(result, len(planned), output) + _removed(earlier)), err=True)


def _check_convert(planned, fmts: tuple[str, ...]) -> None:
    from chargen.run.convert import check

    check(planned, fmts)


def _rendered(result, count: int, output: Path) -> str:
    """What a render wrote: its sheets (and party.pdf), and the files it converted."""
    done = []
    own = [s for s in result.sheets if any(f in s.files for f in SHEET_FORMATS)]  # block, card: none without --each-pdf
    if own:
        extra = " and party.pdf" if "party_pdf" in result.files else ""
        done.append(f"rendered {len(own)} sheet{'s' if len(own) != 1 else ''}{extra}")
    elif result.sheets and "party_pdf" in result.files:
        done.append(f"rendered party.pdf ({len(result.sheets)} character{'s' if len(result.sheets) != 1 else ''})")
    if result.data_files:
        done.append(f"converted {count} character{'s' if count != 1 else ''} ({len(result.data_files)} "
                    f"file{'s' if len(result.data_files) != 1 else ''})")
    return f"chargen: {' and '.join(done) or 'wrote nothing'} to {output}"


def _render_to_stdout(files, fmt: str, options, overlays, rules_dirs) -> None:
    """One format to stdout: a sheet of the one character in one file, or the characters in any format."""
    from chargen.run import saved

    if fmt in SHEET_FORMATS:
        doc = saved.read_character(files[0], _notice)
        modules = _modules([doc["system"]["id"]], overlays, rules_dirs)
        _sheet_to_stdout(saved.as_drawn(doc, modules), fmt, options, modules)
        return
    from chargen.run.convert import check, to_bytes

    planned = saved.plan(list(files), (), _notice)
    check(planned, (fmt,))
    docs = [doc for _, doc in saved._documents(planned)]
    data = to_bytes(docs, fmt, options.title)
    sys.stdout.buffer.write(data)
    sys.stdout.flush()


def _notice(message: str) -> None:
    """What of a file cannot be read (a MEG field): one line on stderr."""
    click.echo(printable(f"chargen: {message}"), err=True)


def _removed(names: list[str]) -> str:
    if not names:
        return ""
    shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
    return f"; removed {len(names)} sheet{'s' if len(names) != 1 else ''} of an earlier name ({shown})"


def _modules(system_ids: list[str], overlays: tuple[Path, ...], rules_dirs: tuple[Path, ...]) -> tuple:
    """The rules modules saved characters were made with, when the user names house rules:
    each module with the overlays that change it."""
    if not overlays and not rules_dirs:
        return ()
    from chargen.rules import load_modules_for

    return load_modules_for(system_ids, overlays, rules_dirs)


def _sheet_to_stdout(doc: dict, fmt: str, options, modules: tuple = ()) -> None:
    from chargen.run.stream import StreamRefused, sheet_to

    try:
        sheet_to(sys.stdout, doc, fmt, options, modules)
    except StreamRefused as e:
        raise click.UsageError(str(e)) from None
