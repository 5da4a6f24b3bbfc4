"""``chargen systems`` and ``chargen rules show|check``: the rules modules and house rules."""

from __future__ import annotations

import json
from pathlib import Path

import click

from chargen.cli import cli
from chargen.cli.options import CONTEXT, any_case, rules_options
from chargen.errors import printable


@cli.command("systems")
@click.option("--format", "fmt", type=click.Choice(["text", "json"], case_sensitive=False), default="text", show_default=True)
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


@cli.group("rules", context_settings=CONTEXT)
def rules_group() -> None:
    """Inspect and check rules modules and house-rules overlays.

    \b
    Examples:
        chargen rules check examples/house-rules/grim-north.yaml
        chargen rules show d100 --rules examples/house-rules/grim-north.yaml --file characteristics
    """


@rules_group.command("show")
@click.argument("system_id", metavar="SYSTEM", callback=any_case)
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
