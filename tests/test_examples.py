"""Every command shown in the README's console blocks and in examples/*.console runs and
prints exactly what is shown (stdout; the seed report on stderr is not shown)."""

import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.cli import cli

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


def readme_outside_house_rules() -> str:
    """The README less its House rules section, whose blocks abbreviate output with '...'
    and are run by tests/test_house_examples.py."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.find("\n## House rules")
    if start < 0:
        return text
    end = text.find("\n## ", start + 1)
    return text[:start] + (text[end:] if end >= 0 else "")


def examples() -> list[tuple[str, str, str]]:
    found = []
    for block in console_blocks(readme_outside_house_rules()):
        found += [("README.md", cmd, shown) for cmd, shown in commands(block)]
    for path in sorted((ROOT / "examples").glob("*.console")):
        found += [(path.name, cmd, shown) for cmd, shown in commands(path.read_text(encoding="utf-8").splitlines())]
    return found


def earlier_in_block() -> dict[str, list[str]]:
    """For each README command, the commands before it in its console block (which write the files it reads)."""
    out: dict[str, list[str]] = {}
    for block in console_blocks(readme_outside_house_rules()):
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
    if where == "README.md":
        for before in earlier_in_block().get(command, []):
            assert CliRunner().invoke(cli, shlex.split(before)[1:], prog_name="chargen").exit_code == 0, before
    argv = shlex.split(command)
    assert argv[0] == "chargen", f"{where}: only chargen commands are run: {command}"
    result = CliRunner().invoke(cli, argv[1:], prog_name="chargen")
    assert result.exit_code == 0, result.output
    assert result.stdout == shown, f"{where}: {command}"
