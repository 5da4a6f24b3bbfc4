"""Ctrl-C before the command line handles it: the launcher's handler (:mod:`chargen.launch`), which the
command line replaces by Python's own once it takes over (:func:`chargen.cli.own_interrupts`). Its own
module, which imports nothing of chargen: both of them use it."""

from __future__ import annotations

import sys


def interrupted_early(signum: int, frame) -> None:
    """Ctrl-C before the command line handles it (:func:`chargen.cli.own_interrupts`): nothing has been
    started that needs stopping (a fork server started early ends with this process), so the program
    ends here, as the command line ends an interrupted command."""
    try:
        sys.stderr.write("Error: interrupted\n")
        sys.stderr.flush()
    finally:
        raise SystemExit(130)
