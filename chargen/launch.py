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
changes nothing the command does or writes. ``party`` draws the sheets its party
file's ``formats:`` names: the launcher reads that key with a regular expression
(:func:`party_formats`), so that a party's encounter sheet, the block layout's
product, does not wait for the command line, the party file and its rules before
WeasyPrint's import starts (0.75-0.8 s later, at load 3.5).

Ctrl-C is handled from :func:`main`'s first line (:func:`chargen.interrupts.interrupted_early`):
before the command line takes it over, while it is imported and reads its options (about half a
second), it ends the program with one line and status 130, as it does later, not with a
``KeyboardInterrupt`` traceback.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Sequence

from chargen.interrupts import interrupted_early

# the commands that draw sheets into a folder, and their --format when it is not given
SHEET_COMMANDS = {"generate": "json", "render": "pdf"}
SHEETS = ("html", "pdf")  # the sheet formats (chargen.formats.names(sheet=True))
PARTY = "party"  # draws the sheets its party file's formats: key names (chargen.run.party)
PARTY_PEEK = 65_536  # how much of a party file is read for its formats: key (a guess: no YAML parser here)


def main() -> None:
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not when started with it ignored
        signal.signal(signal.SIGINT, interrupted_early)
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
    if not words or words[0] not in (*SHEET_COMMANDS, PARTY) or any(a in ("-h", "--help", "--resume") for a in words):
        return ()
    if words[0] == PARTY:
        formats, output = party_formats(words[1]) if len(words) > 1 and not words[1].startswith("-") else "", False
    else:
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


def party_formats(path: str) -> str:
    """The ``formats:`` a party file names, read without a YAML parser (a flow list ``[json, pdf]`` or a
    block list of ``- pdf`` lines at the top level), as ``--format`` would give them; "" when it names
    none (its formats are json then) or cannot be read. Only a guess, as the rest of this reading."""
    import os
    import re

    if not os.path.isfile(path):  # a pipe or a device is the command's to read (a peek would take its bytes)
        return ""
    try:
        with open(path, "rb") as f:
            text = f.read(PARTY_PEEK).decode("utf-8", "replace")
    except OSError:
        return ""
    flow = re.search(r"^formats:[ \t]*\[([^\]\n]*)\]", text, re.M)
    block = re.search(r"^formats:[ \t]*(?:#[^\n]*)?\n((?:[ \t]*-[^\n]*(?:\n|$))+)", text, re.M)
    items = flow[1].split(",") if flow else re.findall(r"-[ \t]*([^\s#]+)", block[1]) if block else []
    return ",".join(item.strip().strip("'\"") for item in items)


if __name__ == "__main__":
    main()
