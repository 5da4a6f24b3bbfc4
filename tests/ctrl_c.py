"""Ctrl-C as a terminal delivers it, for the tests that stop a ``chargen`` process with SIGINT.

A shell without job control (a script, ``make test &`` in one, some CI runners) starts a
background job with SIGINT ignored (POSIX), and an ignored signal stays ignored across fork
and exec: the test process and every ``chargen`` it starts would ignore SIGINT, and a run the
test stops with it would go on to its end (exit 0, or a 20,000-character batch still running
minutes later). A terminal user's chargen has SIGINT's default action; so do the tests' own.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator


@contextlib.contextmanager
def as_from_a_terminal() -> Iterator[None]:
    """Processes started in this block get SIGINT's default action (Python's KeyboardInterrupt),
    even when this process ignores SIGINT: a handled signal is reset to its default on exec. The
    test process's own handling is put back after the block. Call from the main thread."""
    old = signal.getsignal(signal.SIGINT)
    if old is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        if old is signal.SIG_IGN:
            signal.signal(signal.SIGINT, old)
