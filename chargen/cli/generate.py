"""``chargen generate`` and ``chargen render``: characters as data files and as sheets."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from chargen.cli import cli
from chargen.cli.options import (
    Integer, given_value, jobs_option, jobs_or_cores, make_request, make_sheet_options, parse_formats, progress_bar,
    request_options, resolve_seed, rules_options, seed_option, sheet_options, system_option,
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
                   "e.g. \"combat.hit_points>=14\").")
@click.option("--force", is_flag=True, help="Write into a folder that is not empty, replacing files; "
              "and pin a number the rules' dice cannot roll.")
@click.option("--resume", is_flag=True,
              help="Finish the interrupted batch in the -o folder: options not given are read from its manifest.")
@request_options
@jobs_option
@rules_options()
@sheet_options
@click.pass_context
def generate_cmd(ctx: click.Context, system_id: str, seed: int | None, count: int, start: int | None, formats: str,
                 output: Path | None, sets: tuple[str, ...], requires: tuple[str, ...], force: bool, resume: bool,
                 archetype: str | None, profession: str | None, years: str | None, jobs: int | None,
                 overlays: tuple[Path, ...], rules_dirs: tuple[Path, ...], paper: str, template_dir: Path | None,
                 party_name: str | None, layout: str, cards_per_page: str, pdf_variant: str | None) -> None:
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
    from chargen.generate import check_request
    from chargen.rules import load_module

    fmts = parse_formats(formats)
    options = make_sheet_options(fmts, paper, template_dir, jobs, party_name, layout, cards_per_page, pdf_variant)
    if resume:
        if output is None:
            raise click.UsageError("--resume needs -o/--output: the folder of the interrupted batch")
        _resume(ctx, output, overlays, rules_dirs, options)
        return
    if output is not None:
        from chargen.run.sheets import start_early

        start_early(fmts)
    module = load_module(system_id, overlays, rules_dirs)
    _check_engine(fmts, module)
    request = make_request(archetype, profession, years)
    check_request(module, request)
    request = control_request(module, request, sets, requires, force)
    batch_seed = resolve_seed(seed)
    indices = range(start or 0, (start or 0) + count)
    if output is None:
        _stream(module, batch_seed, indices, fmts, single=start is not None and count == 1, options=options,
                request=request)
        click.echo(f"chargen: {module.id} seed {batch_seed}, {count} character{'s' if count != 1 else ''}", err=True)
        return
    from chargen.run.files import prepare_folder

    prepare_folder(output, force)
    result = _write(module, batch_seed, indices, output, fmts, options, jobs, request=request)
    rules = "".join(f", {o['name']}" for o in module.overlays)
    click.echo(printable(f"chargen: wrote {len(result.written)} {module.id} character{'s' if count != 1 else ''} "
                         f"(seed {batch_seed}{rules}) to {output}"), err=True)


def _check_engine(fmts: tuple[str, ...], module) -> None:
    """A format for some engines only (meg, foundry, statblock) refused before any folder is made."""
    from chargen.formats import FORMATS

    for name in fmts:
        FORMATS[name].check_engine(module.engine)


def control_request(module, base, sets: tuple[str, ...], requires: tuple[str, ...], force: bool):
    """``base`` (the archetype, profession and years asked for) with the pins of ``--set`` and the
    constraints of ``--require``, checked against the module's rules."""
    from dataclasses import replace

    from chargen import engines, pins, require
    from chargen.generate import make_attempt

    pinned = pins.resolve(engines.require(module.engine).pins(module.rules), sets, force)
    if not requires:
        return replace(base, pins=pinned)
    sample = make_attempt(module, 0, 0, replace(base, pins=pinned).for_index(0), 0)[0]  # the paths a character has
    return replace(base, pins=pinned, requires=require.parse_all(requires, sample))


def _write(module, batch_seed: int, indices: range, output: Path, fmts: tuple[str, ...], options, jobs: int | None,
           resume: bool = False, request=None, members=None):
    """The batch, every format; its expected time first when that is long, then its progress on a terminal."""
    from chargen.run.pipeline import write_batch
    from chargen.cli.progress import announce

    if not resume:
        announce(len(indices), bool(options.formats), options.workers)
    with progress_bar(len(indices), "sheets" if options.formats else "characters") as progress:
        return write_batch(module, batch_seed, indices, output, fmts, progress, resume=resume,
                           jobs=jobs_or_cores(jobs), sheets=options, request=request, members=members)


def _resume(ctx: click.Context, output: Path, overlays: tuple[Path, ...], rules_dirs: tuple[Path, ...],
            options) -> None:
    """Finish the batch in ``output``: options not given are the manifest's; one given must match it."""
    from dataclasses import replace

    from chargen.run.resume import plan_resume
    from chargen.rules import load_module

    p = ctx.params
    given_formats = given_value(ctx, "formats", p["formats"])
    plan = plan_resume(output, system_id=given_value(ctx, "system_id", p["system_id"]), seed=p["seed"],
                       start=p["start"], count=given_value(ctx, "count", p["count"]),
                       formats=parse_formats(given_formats) if given_formats else None,
                       paper=given_value(ctx, "paper", p["paper"]), party_name=p["party_name"],
                       layout=given_value(ctx, "layout", p["layout"]),
                       cards_per_page=int(c) if (c := given_value(ctx, "cards_per_page", p["cards_per_page"])) else None,
                       pdf_variant=p["pdf_variant"])
    options = replace(options, formats=tuple(f for f in plan["formats"] if f in SHEET_FORMATS),
                      paper=plan["paper"] or options.paper, party_name=plan["party_name"] or options.party_name,
                      layout=plan["layout"] or options.layout, cards_per_page=plan["cards_per_page"] or
                      options.cards_per_page, pdf_variant=plan["pdf_variant"] or options.pdf_variant)
    module = load_module(plan["system_id"], overlays, rules_dirs)
    _check_engine(plan["formats"], module)
    indices = range(plan["start"], plan["start"] + plan["count"])
    request = _resumed_request(module, plan, p, _resume_request(plan, p))
    result = _write(module, plan["seed"], indices, output, plan["formats"], options, p["jobs"], resume=True,
                    request=request)
    if result.already_complete:
        click.echo(f"chargen: the batch in {output} is already complete ({plan['count']} characters)", err=True)
        return
    if result.redone:
        n = sum(result.redone.values())
        why = ", ".join(f"{k} {reason}" for reason, k in result.redone.items())
        click.echo(f"chargen: resume: made {n} recorded file{'s' if n != 1 else ''} again ({why})", err=True)
    sheets = f" and {result.drawn} sheet{'s' if result.drawn != 1 else ''}" if result.drawn else ""
    click.echo(f"chargen: resumed: wrote {result.new} more {module.id} character{'s' if result.new != 1 else ''}"
               f"{sheets} (seed {plan['seed']}) to {output}; {len(result.written)} of {len(indices)} complete",
               err=True)


def _resume_request(plan: dict, p: dict):
    """The request of the batch being resumed: the manifest's, unless the options give one (then
    the manifest check says whether it is the same)."""
    given = {k: p[k] for k in ("archetype", "profession", "years") if p[k] is not None}
    recorded = plan.get("request") or {}
    fields = given or {k: recorded.get(k) for k in ("archetype", "profession", "years")}
    return make_request(fields.get("archetype"), fields.get("profession"), fields.get("years"))


def _resumed_request(module, plan: dict, p: dict, base):
    """``base`` with the manifest's pins and constraints (checked again against the rules); --set and
    --require given again must be the same."""
    from chargen.errors import OutputError

    texts = tuple(_pin_text(pin) for pin in plan["pins"])
    recorded = control_request(module, base, texts, tuple(str(t) for t in plan["requires"]), force=True)
    if p["sets"] or p["requires"]:
        given = control_request(module, base, p["sets"], p["requires"], p["force"])
        if given.pins != recorded.pins or tuple(map(str, given.requires)) != tuple(map(str, recorded.requires)):
            raise OutputError("cannot resume: the batch was made with other --set/--require options "
                              "(give none, or the manifest's)")
    return recorded


def _pin_text(pin: object) -> str:
    from chargen.errors import OutputError

    if not isinstance(pin, list) or len(pin) not in (2, 3):
        raise OutputError(f"cannot resume: the manifest's pins hold {str(pin)[:60]} (expected [path, value])")
    return "=".join(map(str, pin[-2:])) if len(pin) == 2 else f"{pin[0]}:{pin[1]}={pin[2]}"


def _stream(module, batch_seed: int, indices: range, fmts: tuple[str, ...], single: bool, options,
            request=None) -> None:
    from chargen.generate import characters, make_character
    from chargen.serialize import to_json, to_yaml, write_stream

    if len(fmts) != 1:
        raise click.UsageError(f"without -o, give exactly one --format ({', '.join(FORMAT_NAMES[:-1])} "
                               f"or {FORMAT_NAMES[-1]})")
    if fmts[0] not in ("json", "yaml") and fmts[0] not in SHEET_FORMATS:
        _other_to_stdout(module, batch_seed, indices, fmts[0], options, request)
        return
    if fmts[0] in SHEET_FORMATS:
        if len(indices) != 1:
            raise click.UsageError(f"without -o, {fmts[0]} is written for one character only (use -o DIR for a batch)")
        _sheet_to_stdout(make_character(module, batch_seed, indices[0], request), fmts[0], options, (module,))
        return
    docs = characters(module, batch_seed, indices, request)
    if single:
        sys.stdout.write((to_json if fmts[0] == "json" else to_yaml)(next(iter(docs))))
        return
    write_stream(fmts[0], docs, sys.stdout)  # each document as it is made: memory stays flat


def _other_to_stdout(module, batch_seed: int, indices: range, name: str, options, request) -> None:
    """A format for other tools: its batch file (a roster, blocks, a MEG list) for any count,
    else its one file for one character."""
    from chargen.run.pipeline import batch_title
    from chargen.formats import FORMATS, BatchInfo
    from chargen.generate import characters

    fmt = FORMATS[name]
    fmt.check_engine(module.engine)
    if fmt.batch_file and fmt.batch_holds_characters and not (fmt.per_character and len(indices) == 1):
        parts = [fmt.part(doc) for doc in characters(module, batch_seed, indices, request)]
        data = fmt.join(parts, BatchInfo(module.engine, batch_title(options)))
    elif len(indices) != 1:
        raise click.UsageError(f"without -o, {name} is written for one character only (use -o DIR for a batch)")
    else:
        data = fmt.to_bytes(next(iter(characters(module, batch_seed, indices, request))))
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


@cli.command("render")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.option("--format", "formats", default="pdf", show_default=True, help="Comma list of: html, pdf.")
@click.option("-o", "--output", "output", type=click.Path(path_type=Path, file_okay=False),
              help="Write each sheet, an index.html and with pdf a party.pdf into this folder (new or empty).")
@click.option("--force", is_flag=True, help="Write into a folder that is not empty, replacing files (and the "
              "sheets of the same characters under an earlier name).")
@jobs_option
@rules_options()
@sheet_options
def render_cmd(files: tuple[Path, ...], formats: str, output: Path | None, force: bool, jobs: int | None,
               overlays: tuple[Path, ...], rules_dirs: tuple[Path, ...],
               paper: str, template_dir: Path | None, party_name: str | None, layout: str,
               cards_per_page: str, pdf_variant: str | None) -> None:
    """Render saved characters as sheets: chargen JSON or YAML (hand edits and all),
    MEG JSON (an enemies list or a party: one sheet per NPC) and PDFs chargen wrote
    (a sheet, or party.pdf: the characters embedded in them).

    Every file is checked against the character schema (and the bounds of its rules)
    before anything is written; a batch's manifest.json among the files is skipped.
    What of a MEG file cannot be read is one line per field on stderr. A KoTM
    or RTD sheet shows odds from the rules: give the --rules/--rules-dir its character was
    made with. Each overlay applies to the characters of the module it names only, so a
    mixed party renders with one overlay per module.
    Without -o, one character's sheet in one format goes to stdout.

    \b
    Examples:
        chargen render party/*.json --format pdf -o prints/
        chargen render party/0003-faxi-the-grim.json --format html > faxi.html
        chargen render examples/meg/bandits.meg.json -o bandits/
        chargen render prints/party.pdf --format html -o again/
        chargen render grim/*.json --rules examples/house-rules/grim-north.yaml -o grim-prints/
        chargen render party/*.json --layout block -o encounter/
    """
    from chargen.run import saved
    from chargen.run.sheets import SHEET_FORMATS

    fmts = parse_formats(formats, SHEET_FORMATS)
    options = make_sheet_options(fmts, paper, template_dir, jobs, party_name, layout, cards_per_page, pdf_variant)
    if output is None:
        if len(files) != 1 or len(fmts) != 1:
            raise click.UsageError("without -o, give one file and one --format (html or pdf); use -o DIR for more")
        doc = saved.read_character(files[0], _notice)
        modules = _modules([doc["system"]["id"]], overlays, rules_dirs)
        _sheet_to_stdout(saved.as_drawn(doc, modules), fmts[0], options, modules)
        return
    from chargen.run.files import prepare_folder
    from chargen.run.sheets import start_early, write_sheets

    start_early(fmts)  # WeasyPrint is imported while the files are read
    if overlays or rules_dirs:
        planned = saved.plan(list(files), None, _notice)  # every file valid before any rules are loaded
        modules = _modules(saved.system_ids(planned), overlays, rules_dirs)
        saved.check_rules(planned, modules)
    else:
        planned, modules = saved.plan(list(files), (), _notice), ()
    prepare_folder(output, force)
    earlier = saved.earlier_names(output, planned, fmts) if force else []
    with progress_bar(len(planned), "sheets") as progress:
        result = write_sheets(saved.characters(planned, modules), output, options, progress, modules, count=len(planned))
    saved.remove_sheets(output, earlier)  # the same characters' sheets under their earlier names: replaced now
    extra = " and party.pdf" if "party_pdf" in result.files else ""
    click.echo(printable(f"chargen: rendered {len(result.sheets)} sheet{'s' if len(result.sheets) != 1 else ''}"
                         f"{extra} to {output}{_removed(earlier)}"), err=True)


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
    from chargen.run.sheets import render_single

    if fmt == "pdf" and sys.stdout.isatty():
        raise click.UsageError("refusing to write a PDF to a terminal (redirect stdout to a file, or use -o DIR)")
    data = render_single(doc, fmt, options, modules)
    if isinstance(data, bytes):
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        sys.stdout.write(data)
