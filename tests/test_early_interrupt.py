"""Issue 39, finding 11 (its Ctrl-C part): Ctrl-C in chargen's first half second, while the launcher starts
the fork server, the command line is imported and reads its options, ends it with one line and status 130,
as later: it printed a ``KeyboardInterrupt`` traceback. Each case sends SIGINT to chargen itself at one
point of its start (when a module of that stage is first imported: the same instant every run, where a
timed signal would land anywhere), through the console script's own entry point."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.ctrl_c import as_from_a_terminal

START = """
import os, signal, sys

class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == {at!r}:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, as this module's import starts
        return None

sys.meta_path.insert(0, Interrupt())
sys.argv[1:] = {args!r}
from chargen.launch import main  # what the console script and python -m chargen run
main()
"""
SHEETS = ["generate", "--seed", "1", "--count", "2", "--format", "pdf"]
POINTS = {  # (what is run, the module whose import the Ctrl-C comes with)
    "the fork server started": (SHEETS, "chargen.run.early"),
    "Click imported": (["systems"], "click"),
    "the commands registered": (["fight", "a", "b"], "chargen.cli.fight"),
    "the options read": (["roll", "--system", "kotm", "--sd", "30"], "chargen.systems.kotm"),  # roll's engine options
    "the command running": (SHEETS, "chargen.run.pipeline"),
}


@pytest.mark.parametrize("point", POINTS)
def test_ctrl_c_at_the_start_is_one_line_and_130(tmp_path, point):
    args, at = POINTS[point]
    args = [*args, "-o", str(tmp_path / "out")] if args is SHEETS else args
    with as_from_a_terminal():
        proc = subprocess.run([sys.executable, "-c", START.format(at=at, args=args)], capture_output=True,
                              text=True, timeout=120)
    lines = proc.stderr.splitlines()
    assert proc.returncode == 130, proc.stderr
    assert len(lines) == 1 and lines[0].startswith("Error: interrupted"), proc.stderr
    assert proc.stdout == ""
    assert not (tmp_path / "out").exists() or not [p for p in (tmp_path / "out").iterdir() if p.suffix == ".pdf"]


def test_a_chargen_started_with_ctrl_c_ignored_keeps_ignoring_it(tmp_path):
    """A background job (SIGINT ignored, POSIX) is not stopped by Ctrl-C: the launcher leaves the signal alone."""
    code = ("import signal, sys\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nsys.argv[1:] = ['systems']\n"
            "from chargen.launch import main\nmain()\n")
    code = code.replace("main()\n", "import os\nos.kill(os.getpid(), signal.SIGINT)\nmain()\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == "" and "d100" in proc.stdout
