"""Issue 39, finding 1, with real processes: ``chargen fight`` on two workers stopped by SIGTERM or SIGHUP
sent to it, or by Ctrl-C or SIGTERM sent to its whole process group, ends at once with one ``Error:``
line and 128 + the signal's number, and leaves no worker behind. It used to wait for every chunk of
fights the workers had (a chunk of the fight below is 12,500 fights, a minute or more of work): the
stop here comes while the first chunks are played. The 60 s timeout only detects that wait; no test
asserts a time.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chargen.generate import make_character
from chargen.rules import load_builtin
from chargen.serialize import to_json
from tests.ctrl_c import as_from_a_terminal
from tests.test_procs import _left, children

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir() or not hasattr(signal, "SIGHUP"),
                                reason="needs Linux's /proc and POSIX signals")

HANG = 60  # seconds: the old fight went on for minutes after the signal
FIGHT = ["--seed", "1", "--fights", "100000", "--jobs", "2"]  # 8 chunks of 12,500 fights (at most 40,000,000)


@pytest.fixture(scope="module")
def sides(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("sides")
    d100 = load_builtin("d100")
    for name, seed in (("a", 1), ("b", 2)):
        (root / name).mkdir()
        for i in range(4):
            (root / name / f"{i}.json").write_text(to_json(make_character(d100, seed, i)), encoding="utf-8")
    return root / "a", root / "b"


def fight(*args) -> subprocess.Popen:
    """chargen fight as a user runs it from a terminal (its own session, so the test can signal its group)."""
    with as_from_a_terminal():
        return subprocess.Popen([sys.executable, "-c", "from chargen.cli import main; main()", "fight",
                                 *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)


def playing(proc: subprocess.Popen) -> list[int]:
    """The fight's two workers, once both play."""
    end = time.monotonic() + HANG
    while time.monotonic() < end:
        assert proc.poll() is None, proc.communicate()
        workers = children(proc.pid)
        if len(workers) == 2:
            time.sleep(0.3)  # into their first chunks
            return workers
        time.sleep(0.02)
    raise AssertionError("the fight never started its workers")


CASES = [("process", signal.SIGTERM), ("process", signal.SIGHUP), ("group", signal.SIGINT), ("group", signal.SIGTERM)]


@pytest.mark.parametrize("to, signum", CASES, ids=[f"{to}-{signal.Signals(s).name}" for to, s in CASES])
def test_a_fight_stops_at_once_on_a_signal(sides, to, signum):
    proc = fight(*sides, *FIGHT)
    workers = playing(proc)
    (os.kill if to == "process" else os.killpg)(proc.pid, signum)
    try:
        out, err = proc.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError(f"the fight still went on {HANG} s after {signal.Signals(signum).name}") from None
    why = "interrupted" if signum == signal.SIGINT else f"stopped by {signal.Signals(signum).name}"
    assert (proc.returncode, out, err) == (128 + signum, "", f"Error: {why}; no figures reported\n")
    assert not _left(proc.pid), "a process of the fight left behind"
    assert not [w for w in workers if Path(f"/proc/{w}").exists()]
