"""The manual's commands, replayed in order in one folder as a reader types them, never write into a
folder an earlier command wrote (which fails: "not empty"), unless they mean to (--resume, --force).

Running all of them takes over a minute; what made the replay fail is checked here from the text: each
``-o DIR`` of a console or sh block of README.md then docs/*.md, in order, is a folder of its own."""

import re
import shlex

from tests import manual

WRITES = ("-o", "--output")


def manual_commands() -> list[tuple[str, list[str]]]:
    out = []
    for page in manual.pages():
        for kind, body in re.findall(r"^```(\w*)\n(.*?)^```", manual.read(page), re.S | re.M):
            lines = [line[2:] for line in body.splitlines() if line.startswith("$ chargen ")] if kind == "console" \
                else [line for line in body.splitlines() if line.startswith("chargen ")] if kind == "sh" else []
            out += [(manual.name(page), shlex.split(line, comments=True)) for line in lines]
    return out


def test_no_two_commands_of_the_manual_write_one_folder():
    seen: dict[str, str] = {}
    clashes = []
    for page, argv in manual_commands():
        folder = next((argv[i + 1].rstrip("/") for i, a in enumerate(argv[:-1]) if a in WRITES), None)
        if folder is None or "--resume" in argv or "--force" in argv:
            continue
        if folder in seen:
            clashes.append(f"{page}: {shlex.join(argv)} writes {folder}/, as {seen[folder]} did")
        seen.setdefault(folder, f"{page}: {shlex.join(argv)}")
    assert not clashes, "\n".join(clashes)
    assert len(seen) >= 20  # the manual's commands were found
