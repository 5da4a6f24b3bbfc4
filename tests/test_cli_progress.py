"""Progress on a terminal (count, rate, time left), nothing elsewhere; long batches announced."""

import io
import os
import sys

import pytest

from chargen.cli.progress import Progress, announce, duration, expected_seconds, progress_for


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_progress_shows_count_rate_and_time_left():
    out, clock = io.StringIO(), Clock()
    p = Progress(300, "sheets", out, clock)
    clock.now += 10
    p(30)
    assert out.getvalue() == "\rsheets: 30/300 (10%), 3.0/s, 1:30 left\x1b[K"
    clock.now += 0.1
    p(1)  # redrawn at most four times a second
    assert out.getvalue().count("\r") == 1
    clock.now += 80
    p(269)
    assert out.getvalue().endswith("\rsheets: 300/300 (100%), 3.3/s\x1b[K")
    p.close()
    assert out.getvalue().endswith("\n")


def test_a_resumed_batch_counts_what_it_has_to_do():
    out, clock = io.StringIO(), Clock()
    p = Progress(1000, "characters", out, clock)
    p.begin(250)
    clock.now += 1
    p(50)
    assert "characters: 50/250 (20%), 50.0/s, 0:04 left" in out.getvalue()


def test_nothing_is_drawn_off_a_terminal():
    assert progress_for(1000, "sheets", io.StringIO()) is None


def test_progress_on_a_real_terminal(tmp_path):
    """A JSON-only batch on a terminal shows its count (it showed nothing before)."""
    import pty
    import subprocess

    leader, follower = pty.openpty()
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    proc = subprocess.run([sys.executable, "-m", "chargen", "generate", "--seed", "1", "--count", "3000", "-o",
                           str(tmp_path / "out")], stdin=follower, stdout=follower, stderr=follower, env=env,
                          timeout=120)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert proc.returncode == 0
    assert b"characters: 3,000/3,000 (100%), " in seen and b"chargen: wrote 3000 d100 characters" in seen


def test_duration():
    assert [duration(s) for s in (5, 125, 3725, 90061)] == ["0:05", "2:05", "1:02:05", "25:01:01"]


def test_a_long_batch_says_how_long_before_it_starts(capsys):
    announce(100_000, sheets=True, workers=2)
    err = capsys.readouterr().err
    assert err == ("chargen: 100,000 characters: expect about 4:37:47 (h:mm:ss; sheets at about 6 a second on "
                   "2 cores, as measured here); Ctrl-C stops it, and the same command with --resume finishes it\n")
    announce(50, sheets=True, workers=2)
    announce(100_000, sheets=False, workers=2)
    assert capsys.readouterr().err == ""
    assert expected_seconds(600_000, False, 1) == 120


@pytest.mark.parametrize("count", [1, 0])
def test_one_item_needs_no_progress(count):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    assert progress_for(count, "x", Terminal()) is None
    assert progress_for(2, "x", Terminal()) is not None
