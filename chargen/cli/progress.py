"""Progress of a long batch on a terminal: count, rate and time left, on one line of stderr.

Nothing is drawn when stderr is not a terminal (a log, a pipe, a test). A
batch expected to take more than a minute says so, with the rate the estimate
assumes, before it starts (:func:`announce`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

import click

# Rates measured on this project's 2-core machine (README, Benchmarks): one core lays out
# about 3 D100 sheets a second (bench/bench_render.py); data files are written at about
# 5,000 characters a second (bench/bench_generate.py). They only feed the estimate.
SHEETS_PER_CORE_SECOND = 3.0
DATA_PER_SECOND = 5000.0
ANNOUNCE_AFTER = 60.0  # seconds


def duration(seconds: float) -> str:
    """``3725`` -> ``1:02:05``; under an hour ``2:05``."""
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Progress:
    """``progress(n)``: n more done; redrawn at most every ``interval`` seconds and at the end."""

    def __init__(self, total: int, label: str, stream: TextIO, clock: Callable[[], float] = time.monotonic,
                 interval: float = 0.25):
        self.total, self.label, self.stream, self.clock, self.interval = total, label, stream, clock, interval
        self.done = 0
        self.start = clock()
        self.shown_at: float | None = None

    def begin(self, total: int) -> None:
        """The number of items this run has to do (a resumed batch has fewer than it holds)."""
        self.total, self.done, self.start = total, 0, self.clock()

    def __call__(self, n: int) -> None:
        self.done += n
        now = self.clock()
        if self.done >= self.total or self.shown_at is None or now - self.shown_at >= self.interval:
            self.shown_at = now
            self.stream.write("\r" + self.line(now) + "\x1b[K")
            self.stream.flush()

    def line(self, now: float) -> str:
        elapsed = max(now - self.start, 1e-9)
        rate = self.done / elapsed
        left = "" if not rate or self.done >= self.total else f", {duration((self.total - self.done) / rate)} left"
        percent = 100 * self.done // max(1, self.total)
        return f"{self.label}: {self.done:,}/{self.total:,} ({percent}%), {rate:,.1f}/s{left}"

    def close(self) -> None:
        if self.shown_at is not None:
            self.stream.write("\n")
            self.stream.flush()


def expected_seconds(count: int, sheets: bool, workers: int) -> float:
    if sheets:
        return count / (SHEETS_PER_CORE_SECOND * max(1, workers))
    return count / DATA_PER_SECOND


def announce(count: int, sheets: bool, workers: int) -> None:
    """Before a batch that should take more than a minute: how long, at what rate, and how to stop it."""
    seconds = expected_seconds(count, sheets, workers)
    if seconds < ANNOUNCE_AFTER:
        return
    what = f"sheets at about {SHEETS_PER_CORE_SECOND * max(1, workers):g} a second on {workers} " \
           f"core{'s' if workers != 1 else ''}" if sheets else f"characters at about {DATA_PER_SECOND:,.0f} a second"
    click.echo(f"chargen: {count:,} characters: expect about {duration(seconds)} (h:mm:ss; {what}, as measured "
               "here); Ctrl-C stops it, and the same command with --resume finishes it", err=True)


def progress_for(total: int, label: str, stream: TextIO | None = None) -> Progress | None:
    """A :class:`Progress` on a terminal; None (nothing to draw) elsewhere or for one item."""
    stream = stream or sys.stderr
    if total < 2 or not stream.isatty():
        return None
    return Progress(total, label, stream)
