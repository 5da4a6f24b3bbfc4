"""Every shell recipe in the manual (the ```sh blocks of README.md and docs/*.md) runs as written, with
bash, in a fresh folder holding a copy of examples/, with this environment's chargen and python first on
the PATH; and every block that shows chargen commands is one a test runs (console or sh) or a synopsis."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import manual

ROOT = Path(__file__).parent.parent
BLOCKS = [(kind, body) for page in manual.pages()
          for kind, body in re.findall(r"^```(\w*)\n(.*?)^```", manual.read(page), re.S | re.M)]
RECIPES = [body for kind, body in BLOCKS if kind == "sh"]


def test_the_manual_has_recipes():
    assert len(RECIPES) >= 2


@pytest.mark.parametrize("recipe", RECIPES, ids=[r.splitlines()[0][:50] for r in RECIPES])
def test_a_readme_recipe_runs_as_written(recipe, tmp_path):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    if not (bin_dir / "chargen").exists():
        pytest.skip("chargen is not installed beside this python")
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", recipe], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_block_of_chargen_commands_runs_in_a_test():
    for kind, body in BLOCKS:
        commands = [line for line in body.splitlines() if line.startswith("chargen ")]
        if commands and kind not in ("console", "sh"):
            synopsis = all("[" in line or "..." in line for line in commands)
            assert synopsis, f"a ```{kind} block of commands no test runs: {commands[0]}"


def _console_blocks() -> list[list[str]]:
    from tests.test_examples import commands, console_blocks

    return [[cmd for cmd, _ in commands(block)] for page in manual.pages()
            for block in console_blocks(manual.read(page)) if commands(block)]


CONSOLE = _console_blocks()


@pytest.mark.parametrize("block", CONSOLE, ids=[b[0][:50] for b in CONSOLE])
def test_each_console_block_runs_in_order_in_one_fresh_folder(block, tmp_path, monkeypatch):
    """The quick start as a new user types it: one command after the other, in one folder."""
    import shlex

    from click.testing import CliRunner

    from chargen.cli import cli

    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    for command in block:
        argv = shlex.split(command)
        result = CliRunner().invoke(cli, argv[1:], prog_name="chargen")
        expected = 1 if "typos.yaml" in command else 0  # the manual shows rules check finding problems
        assert result.exit_code == expected, f"{command}: {result.output}"
