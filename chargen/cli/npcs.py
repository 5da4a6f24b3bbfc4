"""``chargen archetypes``, ``chargen stats`` and ``chargen party``: NPC types, their spread, encounters."""

from __future__ import annotations

import contextlib
import json
import re

from pathlib import Path

import click

from chargen.cli import cli
from chargen.cli.options import (
    Integer, any_case, given_value, jobs_option, jobs_or_cores, make_request, make_sheet_options, progress_bar,
    against_option, check_against,
    request_options, resolve_seed, rules_options, seed_option, sheet_options,
)
from chargen.errors import RulesError, printable


@cli.command("archetypes")
@click.option("--system", "system_id", default=None, metavar="ID", callback=any_case,
              help="One rules module's archetypes (default: every module's).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"], case_sensitive=False), default="text", show_default=True)
@rules_options()
def archetypes_cmd(system_id: str | None, fmt: str, overlays: tuple[Path, ...], rules_dirs: tuple[Path, ...]) -> None:
    """List the archetypes (named NPC types) of the rules modules: id, label, what varies.

    \b
    Examples:
        chargen archetypes --system d100
        chargen archetypes
        chargen archetypes --rules-dir examples/house-rules/modules
        chargen archetypes --system kotm --format json
    """
    from chargen import engines
    from chargen.rules import load_module, module_ids

    if overlays and not system_id:
        raise click.UsageError("--rules needs --system: the module whose archetypes the overlays change")
    ids = [system_id] if system_id else module_ids(rules_dirs)
    rows = []
    for sid in ids:
        module = load_module(sid, overlays, rules_dirs)
        rows += [(module.id, a) for a in engines.require(module.engine).archetypes(module.rules)]
    if fmt == "json":
        click.echo(json.dumps([{"system": sid, "id": a.id, "label": a.label, "varies": a.varies} for sid, a in rows],
                              indent=2, ensure_ascii=False))
        return
    for sid, a in rows:
        click.echo(printable(f"{sid:<5} {a.id:<18} {a.label:<20} {a.varies}"))


@cli.command("stats")
@click.option("--system", "system_id", default="d100", show_default=True, metavar="ID", callback=any_case,
              help="Rules module id (see 'chargen systems').")
@seed_option
@click.option("-n", "--count", type=Integer(1, 100_000), default=1000, show_default=True,
              help="How many characters to sample.")
@request_options
@rules_options()
def stats_cmd(system_id: str, seed: int | None, count: int, archetype: str | None, profession: str | None,
              years: str | None, overlays: tuple[Path, ...], rules_dirs: tuple[Path, ...]) -> None:
    """Print percentiles of the key figures of COUNT characters (an archetype's, to calibrate it).

    The characters are those `chargen generate` makes with the same seed and options
    (0 to COUNT-1), so the table is the same for the same seed.

    \b
    Examples:
        chargen stats --archetype town_guard -n 1000 --seed 1
        chargen stats --system kotm --archetype champion -n 500 --seed 1
    """
    from chargen.generate import check_request
    from chargen.rules import load_module
    from chargen.stats import sample_with_rank, table

    module = load_module(system_id, overlays, rules_dirs)
    request = make_request(archetype, profession, years)
    check_request(module, request)
    batch_seed = resolve_seed(seed)
    spreads, rank = sample_with_rank(module, request, count, batch_seed)
    click.echo(table(spreads) + (rank.line() if rank else ""), nl=False)
    what = f" archetype {archetype}" if archetype else ""
    click.echo(f"chargen: {module.id}{what}, {count} characters, seed {batch_seed}", err=True)


@cli.command("party")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("-o", "--output", "output", required=True, type=click.Path(path_type=Path, file_okay=False),
              help="Write the party's files, its manifest and (with html or pdf) index.html and party.pdf here.")
@click.option("--force", is_flag=True, help="Write into a folder that is not empty, replacing files (a batch "
              "there is removed first: the files its manifest lists).")
@click.option("--resume", is_flag=True, help="Finish the interrupted party in the -o folder.")
@jobs_option
@rules_options()
@sheet_options
@against_option
@click.pass_context
def party_cmd(ctx: click.Context, file: Path, output: Path, force: bool, resume: bool, jobs: int | None,
              overlays: tuple[Path, ...], rules_dirs: tuple[Path, ...], paper: str, template_dir: Path | None,
              party_name: str | None, layout: str, cards_per_page: str, pdf_variant: str | None,
              compare: bool | None, card_backs: bool | None, each_pdf: bool | None, against: Path | None) -> None:
    """Make the encounter or party a party file describes: its name, system, seed, member lines
    (archetype, count as a number or dice, name, years) and formats.

    Each line's characters depend on the file's seed and the line's key only, so adding a
    line or changing one line's count keeps every other line's characters. The manifest
    records the file's hash and the counts rolled; --resume finishes a stopped run (give it
    the sheet options the run was given). A sheet option given here overrides the file's key:
    --layout its layout, --cards-per-page its cards_per_page, --party-name its name as the title.

    \b
    Examples:
        chargen party examples/town-watch.yaml -o watch/
        chargen party examples/bandit-ambush.yaml -o ambush/
        chargen party examples/bandit-ambush.yaml -o ambush/ --resume
        chargen party examples/bandit-ambush.yaml -o ambush-cards/ --layout card --cards-per-page 9
        chargen party examples/bandit-ambush.yaml -o odds/ --against examples/town-watch.yaml
    """
    from chargen.run.files import claim_folder, recorded_derivation
    from chargen.run.party import read_party
    from chargen.run.pipeline import Pipeline

    try:
        derivation = recorded_derivation(output) if resume else 2  # a resumed party keeps its seed derivation
        party, module = read_party(file, overlays, rules_dirs, derivation)
    except RulesError as e:  # every problem of the file, in line order, one line each
        for problem in sorted(e.problems, key=_line_number):
            click.echo(f"Error: {problem}", err=True)
        raise SystemExit(1) from None
    options = make_sheet_options(party.formats, paper, template_dir, jobs, party_name, layout, cards_per_page,
                                 pdf_variant, compare, card_backs, each_pdf, against)
    given = [name for name in SHEET_KEYS if given_value(ctx, name, ctx.params[name]) is not None]
    spec = party.spec(options, given, overlays, rules_dirs)
    check_against(spec.sheets, spec.count)
    with contextlib.nullcontext() if resume else claim_folder(output, force):  # created, locked, checked: one step
        if force and not resume:
            from chargen.cli.generate import replaced

            replaced(output)
        with progress_bar(party.count, "sheets" if spec.sheets.formats else "characters") as progress:
            result = Pipeline(spec, module, output, jobs_or_cores(jobs), progress).run(resume)
    counts = ", ".join(f"{ln.key} {ln.count}" + (f" ({ln.count_dice})" if ln.count_dice != str(ln.count) else "")
                       for ln in party.lines)
    verb = "resumed" if resume else "wrote"
    click.echo(printable(f"chargen: {verb} {party.name}: {len(result.written)} {module.id} characters "
                         f"({counts}) to {output}"), err=True)


SHEET_KEYS = ("party_name", "layout", "cards_per_page", "against")  # the sheet options a party file also gives


def _line_number(problem: str) -> int:
    """The line a ``file:line: key: problem`` line points at (0 when it names none)."""
    match = re.match(r"[^:]*:(\d+):", problem)
    return int(match.group(1)) if match else 0
