"""Every command shown in the console blocks of the manual (README.md and docs/*.md) and in
examples/*.console runs and prints exactly what is shown (stdout; the seed report on stderr is not shown)."""

import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from tests import manual

ROOT = Path(__file__).parent.parent


def console_blocks(text: str) -> list[list[str]]:
    blocks, current = [], None
    for line in text.splitlines():
        if current is None and line.startswith("```console"):
            current = []
        elif current is not None and line.startswith("```"):
            blocks.append(current)
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def commands(lines: list[str]) -> list[tuple[str, str]]:
    """(command, expected stdout) pairs from ``$ chargen ...`` lines and the lines after them."""
    out: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
    return [(cmd, "".join(x + "\n" for x in shown)) for cmd, shown in out]


def manual_outside_house_rules() -> list[tuple[str, str]]:
    """(name, text) of each page of the manual but docs/house-rules.md, whose blocks abbreviate
    output with '...' and are run by tests/test_house_examples.py."""
    return [(manual.name(page), manual.read(page)) for page in manual.pages() if page != manual.HOUSE_RULES_PAGE]


MANUAL = {name for name, _ in manual_outside_house_rules()}


def examples() -> list[tuple[str, str, str]]:
    found = []
    for where, text in manual_outside_house_rules():
        for block in console_blocks(text):
            found += [(where, cmd, shown) for cmd, shown in commands(block)]
    for path in sorted((ROOT / "examples").glob("*.console")):
        found += [(path.name, cmd, shown) for cmd, shown in commands(path.read_text(encoding="utf-8").splitlines())]
    return found


def earlier_in_block() -> dict[str, list[str]]:
    """For each command of the manual, the commands before it in its console block (which write the files it reads)."""
    out: dict[str, list[str]] = {}
    for _, text in manual_outside_house_rules():
        for block in console_blocks(text):
            cmds = [cmd for cmd, _ in commands(block)]
            for n, cmd in enumerate(cmds):
                out.setdefault(cmd, cmds[:n])
    return out


def test_there_are_examples_for_every_system():
    shown = " ".join(cmd for _, cmd, _ in examples())
    for system in ("kotm", "rtd", "d100"):
        assert f"--system {system}" in shown


EXAMPLES = examples()


@pytest.mark.parametrize("where, command, shown", EXAMPLES, ids=[f"{w}: {c}" for w, c, _ in EXAMPLES])
def test_example_output_is_real(where, command, shown, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # commands that write (-o party/) write here
    if where in MANUAL:
        for before in earlier_in_block().get(command, []):
            assert CliRunner().invoke(cli, shlex.split(before)[1:], prog_name="chargen").exit_code == 0, before
    argv = shlex.split(command)
    assert argv[0] == "chargen", f"{where}: only chargen commands are run: {command}"
    result = CliRunner().invoke(cli, argv[1:], prog_name="chargen")
    assert result.exit_code == 0, result.output
    assert result.stdout == shown, f"{where}: {command}"
