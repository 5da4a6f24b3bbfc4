"""Every command's help ends with examples, and every example runs as shown (in a folder holding
a copy of examples/, so the paths they name exist; commands run in the order the help lists them,
generate before render, so the files a render example names have been written)."""

import glob
import shlex
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from chargen.cli import cli

ROOT = Path(__file__).parent.parent
ORDER = ["generate", "render", "check", "explain", "party", "archetypes", "stats", "roll", "fight", "systems", "rules check",
         "rules show", "rules", ""]


def commands(group: click.Group = cli, prefix: str = "") -> dict[str, click.Command]:
    found = {prefix.strip(): group}
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found.update(commands(command, f"{prefix}{name} "))
        else:
            found[f"{prefix}{name}"] = command
    return found


def examples_of(command: click.Command) -> list[str]:
    text = command.help or ""
    start = max(text.rfind("Example:"), text.rfind("Examples:"))
    return [line.strip() for line in text[start:].splitlines()[1:] if line.strip().startswith("chargen ")]


COMMANDS = commands()
EXAMPLES = [(name, ex) for name in sorted(COMMANDS, key=ORDER.index) for ex in examples_of(COMMANDS[name])]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_examples(name):
    assert examples_of(COMMANDS[name]), f"'chargen {name}' help has no example"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("examples")
    shutil.copytree(ROOT / "examples", folder / "examples")
    return folder


@pytest.mark.parametrize("name, example", EXAMPLES, ids=[e for _, e in EXAMPLES])
def test_every_help_example_runs(name, example, workdir, monkeypatch):
    monkeypatch.chdir(workdir)
    argv = shlex.split(example.split(" > ")[0])
    expanded = []
    for arg in argv[1:]:
        matches = sorted(glob.glob(arg)) if any(c in arg for c in "*?[") else []
        expanded += matches or [arg]
    result = CliRunner().invoke(cli, expanded, prog_name="chargen")
    assert result.exit_code == 0, f"{example}: {result.output}"
