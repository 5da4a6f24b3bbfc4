"""Saved characters read back for rendering: chargen JSON or YAML (possibly edited by hand),
MEG JSON (an enemies list or a party) and PDFs chargen wrote, through
:func:`chargen.run.readers.read_documents`.

Every file is read and validated against the schema before any sheet is
written, so a bad file stops the command with nothing half done; then the
files are read again one at a time while the sheets are rendered, so a
thousand files never sit in memory together.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

from chargen.errors import CharacterError, RulesError
from chargen.seeds import batch_number
from chargen.run.files import character_stem
from chargen.rules.yamlio import read_text
from chargen.serialize import parse_document


def _text(path: Path) -> str:
    try:
        return read_text(path, str(path))
    except RulesError as e:
        raise CharacterError(str(e)) from None


class Planned(NamedTuple):
    """One character to render: the file, its place in the file, its sheets' stem and its label."""

    path: Path
    position: int
    stem: str
    label: str


def read_character(path: Path, notice: Callable[[str], None] | None = None) -> dict:
    """The one character in ``path`` (a file of several is an error that says how to render them)."""
    from chargen.run.readers import read_documents

    docs = read_documents(path, notice)
    if len(docs) != 1:
        raise CharacterError(f"{path}: holds {len(docs)} characters (render it with -o DIR for "
                             f"{'all of them' if docs else 'a batch'})")
    return docs[0][1]


def expand_folders(paths) -> tuple[Path, ...]:
    """The files given, a folder standing for the ``*.json`` files in it (a folder of Foundry actors
    Foundry exported one by one), in name order; a folder without one is an error."""
    out: list[Path] = []
    for path in paths:
        if not path.is_dir():
            out.append(path)
            continue
        found = sorted(p for p in path.iterdir() if p.suffix.lower() == ".json" and p.is_file() and not p.is_symlink())
        if not found:
            raise CharacterError(f"{path}: a folder with no .json file in it")
        out += found
    return tuple(out)


def is_manifest(path: Path) -> bool:
    """A batch's manifest.json (which ``party/*.json`` matches too)."""
    from chargen.run.files import MANIFEST_SCHEMA

    try:
        return json.loads(_text(path)).get("schema") == MANIFEST_SCHEMA
    except (ValueError, AttributeError, RecursionError):
        return False


def plan(paths: list[Path], modules: tuple | None = (),
         notice: Callable[[str], None] | None = None) -> list[Planned]:
    """Validate every file and name its sheets; two characters may not share a name.

    Batch manifests among the files are left out. ``modules`` are rules modules
    loaded with the user's ``--rules``/``--rules-dir``, for sheets that need the
    rules a character was made with (None: do not check the rules yet). ``notice``
    is told, one line each, what of a MEG file cannot be read.
    """
    from chargen.run.readers import read_documents

    stems: dict[str, tuple[str, str]] = {}  # a file name's stem: the file and the name that give it
    out = []
    for path in paths:
        for position, (label, doc) in enumerate(read_documents(path, notice)):
            if modules is not None:
                _check_rules(doc, label, modules)
            stem = character_stem(batch_number(doc), doc["identity"]["name"])
            if stem in stems:
                raise CharacterError(f"{stems[stem][0]} and {label} would both be written as {stem}.* "
                                     f"({_why_same(stems[stem][1], doc['identity']['name'])}; rename one or render them separately)")
            stems[stem] = label, doc["identity"]["name"]
            out.append(Planned(path, position, stem, label))
    return out


def _why_same(x: str, y: str) -> str:
    """Why two characters get one file name: the same number and name, or names that make the same file name."""
    if x == y:
        return "the same number and name"
    return f"the same number, and names whose file name is the same: {x[:40]!r} and {y[:40]!r}"


def _documents(planned: list[Planned]) -> Iterator[tuple[Planned, dict]]:
    """The planned characters' documents, each file read once, in the planned order."""
    from chargen.run.readers import read_documents

    current, docs = None, []
    for p in planned:
        if p.path != current:
            current, docs = p.path, read_documents(p.path)
        yield p, docs[p.position][1]


def _check_rules(doc: dict, path: Path, modules: tuple = ()) -> None:
    """A sheet that shows odds needs the rules the character was made with: one of ``modules``
    with the character's rules hash, or a built-in module without house rules."""
    from chargen.errors import RenderError
    from chargen.rules.saved import find, made_with
    from chargen.run.figures import needs_rules
    from chargen.serialize import validate

    module = find(doc, modules)
    if module is not None and module in modules:
        validate(doc, str(path), module.rules)  # the bounds of the rules it was made with
    if needs_rules(doc["system"]["engine"]):
        try:
            made_with(doc, modules)
        except RenderError as e:
            raise CharacterError(f"{path}: {e}") from None


def characters(planned: list[Planned], modules: tuple = ()) -> Iterator[tuple[str, dict, dict]]:
    for p, doc in _documents(planned):
        yield p.stem, as_drawn(doc, modules), {}


def as_drawn(doc: dict, modules: tuple = ()) -> dict:
    """The character as its sheet draws it: its derived values recomputed from its (hand-edited)
    inputs under the rules it was made with (:func:`chargen.edits.recomputed`); as stored when
    those rules are not at hand."""
    from chargen import edits

    try:
        rules = edits.rules_of(doc, modules)
    except CharacterError:
        return doc
    drawn = edits.recomputed(doc, rules)
    if drawn is not doc:
        drawn["reproduce"] = edits.reproduction(drawn, edits.module_of(doc, modules))
    return drawn


def system_ids(planned: list[Planned]) -> list[str]:
    """The rules modules the planned characters name, in first-seen order."""
    return list(dict.fromkeys(doc["system"]["id"] for _, doc in _documents(planned)))


def check_rules(planned: list[Planned], modules: tuple) -> None:
    """Every planned character's sheet can be given the rules it was made with."""
    for p, doc in _documents(planned):
        _check_rules(doc, p.label, modules)


_SHEET_NAME = re.compile(r"(?P<index>[0-9]{4,})-[a-z0-9-]+\.(?P<suffix>[a-z]+)")


def earlier_names(folder: Path, planned: list[Planned], suffixes: tuple[str, ...]) -> list[str]:
    """Sheets in ``folder`` of the planned characters' indices under another name (a character
    renamed by hand, rendered again into its folder): files named like chargen's sheets, with a
    suffix of the formats rendered now, that this render does not write."""
    written = {f"{p.stem}.{s}" for p in planned for s in suffixes}
    indices = {p.stem.split("-", 1)[0] for p in planned}
    out = []
    for p in sorted(folder.iterdir()):
        m = _SHEET_NAME.fullmatch(p.name)
        if m and m["index"] in indices and m["suffix"] in suffixes and p.name not in written \
                and p.is_file() and not p.is_symlink():
            out.append(p.name)
    return out


def remove_sheets(folder: Path, names: list[str]) -> None:
    """Remove the sheets :func:`earlier_names` found (once the new ones are written)."""
    for name in names:
        (folder / name).unlink(missing_ok=True)
