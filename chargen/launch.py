"""The ``chargen`` program's entry point: the sheet workers' fork server started before the command line.

A command that lays out sheets (``generate`` or ``render`` with html or pdf
into a folder) imports WeasyPrint in its workers' fork server, about a third of
a one-sheet cold start. :mod:`chargen.cli` starts that server as soon as the
command's options are parsed, but importing the command line itself (Click and
every command) comes first. :func:`main` reads the arguments the way those two
commands take them, and when they ask for sheets into a folder starts the fork
server first (:func:`chargen.run.early.start_forkserver`), so that WeasyPrint is
imported while the command line is. The reading is only a guess: a wrong one
starts a server that is not used, or leaves it to start where it did before, and
changes nothing the command does or writes.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

# the commands that draw sheets into a folder, and their --format when it is not given
SHEET_COMMANDS = {"generate": "json", "render": "pdf"}
SHEETS = ("html", "pdf")  # the sheet formats (chargen.formats.names(sheet=True))


def main() -> None:
    formats = sheet_formats(sys.argv[1:])
    if formats:
        from chargen.run.early import start_forkserver

        start_forkserver("pdf" in formats)
    from chargen.cli import main as cli_main

    cli_main()


def sheet_formats(args: Sequence[str]) -> tuple[str, ...]:
    """The sheet formats a command line asks to draw into a folder (none: it does not, or it is not
    plain enough to tell: help, a resumed batch whose formats are in its manifest)."""
    words = [a for a in args if a != "--debug"]
    if not words or words[0] not in SHEET_COMMANDS or any(a in ("-h", "--help", "--resume") for a in words):
        return ()
    formats, output = SHEET_COMMANDS[words[0]], False
    for k, word in enumerate(words[1:], 1):
        if word in ("-o", "--output") or word.startswith("--output=") or (word.startswith("-o") and word != "-o"):
            output = True
        if word == "--format" and k + 1 < len(words):
            formats = words[k + 1]
        elif word.startswith("--format="):
            formats = word.split("=", 1)[1]
    if not output:
        return ()
    return tuple(f for f in (f.strip().lower() for f in formats.split(",")) if f in SHEETS)


if __name__ == "__main__":
    main()
