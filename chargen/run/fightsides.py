"""The two sides of ``chargen fight`` (and of an encounter's ``against:``): a party file (its
members made as ``chargen party`` makes them), a folder of saved characters (a chargen batch),
or one saved file (a MEG party, a party.pdf, one character)."""

from __future__ import annotations

from pathlib import Path

from chargen.errors import CharacterError
from chargen.fight.estimate import SideSpec

MAX_SIDE = 200  # fighters a side (the largest encounter a table plays; each is a character made or read)


def read_side(path: Path, overlays: tuple[Path, ...] = (), rules_dirs: tuple[Path, ...] = ()):
    """A side and the rules module of its party file (None for saved characters)."""
    from chargen.generate import make_character
    from chargen.require import Budget
    from chargen.run.party import is_party_file, read_party

    if path.is_file() and path.suffix.lower() in (".yaml", ".yml") and is_party_file(path):
        party, module = read_party(path, overlays, rules_dirs)
        slots = party.members().slots
        _check_size(path, len(slots))
        budget = Budget()
        return SideSpec(party.name or path.name, tuple(make_character(module, s.seed, s.index, s.request, (budget, n))
                                                         for n, s in enumerate(slots))), module
    return SideSpec(path.name, tuple(_saved(path))), None


def _saved(path: Path) -> list[dict]:
    from chargen.run.readers import read_documents
    from chargen.run.saved import expand_folders, is_manifest

    if not path.exists():
        raise CharacterError(f"{path}: no such file or folder")
    files = [p for p in expand_folders([path]) if not is_manifest(p)] if path.is_dir() else [path]
    docs = []
    for p in files:
        try:
            docs += [doc for _, doc in read_documents(p)]
        except OSError as e:
            raise CharacterError(f"{p}: cannot read the file ({e.strerror or e})") from None
        _check_size(path, len(docs))
    if not docs:
        raise CharacterError(f"{path}: holds no character (a side is a party file, a folder of saved characters, "
                             "or a saved file)")
    return docs


def _check_size(path: Path, count: int) -> None:
    if count > MAX_SIDE:
        raise CharacterError(f"{path}: more than {MAX_SIDE} fighters on a side")


def sides_module(sides, modules, overlays: tuple[Path, ...], rules_dirs: tuple[Path, ...]):
    """The rules both sides fight under: a party file's module, else the characters' system with the
    command line's rules; both sides must be of one system."""
    from chargen.rules import load_module

    systems = {doc["system"]["id"] for side in sides for doc in side.docs}
    if len(systems) > 1:
        raise CharacterError(f"the sides are characters of several systems ({', '.join(sorted(systems))}); a fight is "
                             "played under one system's rules")
    given = [m for m in modules if m is not None]
    if given:
        return given[0]
    return load_module(systems.pop(), overlays, rules_dirs)


def against_side(sheets) -> SideSpec:
    """The side an encounter is meant for (``--against``, a party file's ``against:``), read."""
    side, _ = read_side(Path(sheets.against_from or ".") / sheets.against)
    return side
