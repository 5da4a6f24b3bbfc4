"""``chargen check`` and ``chargen explain``: saved characters against their rules, and why a value is what it is."""

from __future__ import annotations

from pathlib import Path

import click

from chargen.cli import cli
from chargen.cli.options import rules_options
from chargen.errors import printable


def _modules(docs: list[dict], overlays, rules_dirs) -> tuple:
    if not overlays and not rules_dirs:
        return ()
    from chargen.rules import load_modules_for

    return load_modules_for(list(dict.fromkeys(d["system"]["id"] for d in docs)), overlays, rules_dirs)


@cli.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False, exists=True))
@rules_options()
@click.pass_context
def check_cmd(ctx: click.Context, files: tuple[Path, ...], overlays: tuple[Path, ...],
              rules_dirs: tuple[Path, ...]) -> None:
    """Recompute saved characters (hand edits and all) under their rules; report every stored value that disagrees.

    Each disagreement is one line, `file: path: stored X, the rules give Y (from ...)`; a value
    edited by hand (not an input the rules derive it from) ends with `; edited by hand, kept`.
    Exit status 1 when there is any. A batch's manifest.json among the files is skipped; a chargen
    PDF is read as render reads it (the characters it carries); a MEG file is read, and one line
    says why none of its values can be recomputed. Give the --rules/--rules-dir a character was made with.

    \b
    Examples:
        chargen check party/*.json
        chargen check grim/*.json --rules examples/house-rules/grim-north.yaml
    """
    from chargen import edits
    from chargen.run import saved

    from chargen.run.readers import read_documents
    from chargen.systems.d100.interop.meg_read import is_import, nothing_to_check

    docs = []
    for path in files:  # chargen JSON or YAML, a chargen PDF (sheet or party.pdf), MEG JSON
        if path.suffix.lower() == ".pdf" or not saved.is_manifest(path):
            read = [d for _, d in read_documents(path)]
            imported = [d for d in read if is_import(d)]
            if imported:
                click.echo(printable(nothing_to_check(str(path), imported)), err=True)
            docs += [(path, d) for d in read if not is_import(d)]
    modules = _modules([d for _, d in docs], overlays, rules_dirs)
    found = 0
    for path, doc in docs:
        rules = edits.rules_of(doc, modules)
        for d in edits.disagreements(doc, rules):
            click.echo(printable(d.line(str(path))))
            found += 1
    n = len(docs)
    click.echo(f"chargen: {n} character{'s' if n != 1 else ''} checked, "
               f"{found} value{'s' if found != 1 else ''} disagree{'s' if found == 1 else ''} with the rules", err=True)
    if found:
        ctx.exit(1)


@cli.command("explain")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.argument("path", required=False)
@click.option("--all", "everything", is_flag=True, help="Explain every value that has a roll, a pin or a derivation.")
@rules_options()
def explain_cmd(file: Path, path: str | None, everything: bool, overlays: tuple[Path, ...],
                rules_dirs: tuple[Path, ...]) -> None:
    """How a value of a saved character came to be: the dice with their faces, each rules entry
    read (file, key, row), each modifier and its source, pins and hand edits.

    PATH is a document path, as --set and --require spell it: characteristics.str,
    combat.damage_modifier, skills.climbing, level, weapons.spear.damage.hit, stats.str.tier,
    best_weapon.attack (the usable weapon with the best attack; KoTM: damage_modifier, RTD: damage).

    \b
    Examples:
        chargen explain party/0003-faxi-the-grim.json skills.climbing
        chargen explain party/0003-faxi-the-grim.json --all
    """
    from chargen import edits, explain
    from chargen.run import saved

    if (path is None) == (not everything):
        raise click.UsageError("give a PATH or --all")
    doc = saved.read_character(file)
    modules = _modules([doc], overlays, rules_dirs)
    rules, module = edits.rules_of(doc, modules), edits.module_of(doc, modules)
    lines = explain.explain_all(doc, rules, module) if everything else explain.explain(doc, rules, path, module)
    click.echo("\n".join(printable(line) for line in lines))
