"""Pins: ``--set PATH=VALUE``, a value that replaces its roll.

Each engine declares what can be pinned under the loaded rules
(``Engine.pins(rules) -> {path: PinTarget}``): the range a rolled number can
take (from the dice in the rules) or the ids a choice can take. A pin replaces
its roll *after* the roll is made: the roller rolls exactly the dice it rolls
without the pin, so every other roll of the character, and every other
character of the batch, is the same; the values derived from the pinned one
follow it, and the rolls made after it (a weapon picked) stay as rolled.
A value the rules cannot produce is refused unless ``force``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from chargen import paths
from chargen.errors import ChargenError

MAX_PINS = 64


class PinError(ChargenError):
    """A ``--set`` the rules cannot apply."""


@dataclass(frozen=True, slots=True)
class PinTarget:
    """What one path accepts: ``kind`` "int" (from ``low`` to ``high``), "choice" (one of ``choices``) or "text"."""

    kind: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    where: str = ""  # what bounds it, for the error: "3D6 in characteristics.yaml"
    traced: bool = True  # False: a trail step only when pinned (the sex: a step in every document would change them all)


def split_set(text: str) -> tuple[str, str]:
    path, sep, value = text.partition("=")
    path = path.strip()
    if not sep or not path:
        raise PinError(f"--set {text[:80]!r}: expected PATH=VALUE (e.g. characteristics.str=16)")
    if value != value.strip() and _NUMBERISH.fullmatch(value.strip()):  # ' 16', '16 ': not a number elsewhere
        raise PinError(f"--set {path}={value[:40]!r}: expected a whole number (ASCII digits 0-9, no spaces)")
    return path, value.strip()


_NUMBERISH = re.compile(r"[+-]?[0-9]+")


def _value(path: str, raw: str, target: PinTarget, force: bool) -> object:
    if target.kind == "text":
        if not raw or len(raw) > 200:
            raise PinError(f"--set {path}: expected 1 to 200 characters")
        return raw
    if target.kind == "choice":
        if raw not in target.choices:
            raise PinError(f"--set {path}={raw[:40]}: the rules have no such {path} "
                           f"(expected one of: {', '.join(target.choices)})")
        return raw
    number = int(raw, 10) if re.fullmatch(r"-?[0-9]+", raw) else None  # ASCII digits, as every number chargen reads
    if number is None:
        raise PinError(f"--set {path}={raw[:40]}: expected a whole number (ASCII digits 0-9, '-' for a negative one)")
    if not force and not (target.low <= number <= target.high):
        where = f" ({target.where})" if target.where else ""
        raise PinError(f"--set {path}={number}: the rules give {target.low} to {target.high}{where}; "
                       f"add --force to pin it anyway")
    if abs(number) > 10**6:
        raise PinError(f"--set {path}={number}: too large (at most 1000000 even with --force)")
    return number


_INDEXED = re.compile(r"([0-9]{1,7}):(.*)", re.S)


def resolve(targets: Mapping[str, PinTarget], texts: tuple[str, ...] | list[str], force: bool = False) \
        -> tuple[tuple[str, object], ...]:
    """``--set`` texts as (path, value) pairs, each checked against the engine's targets (last one wins);
    ``INDEX:PATH=VALUE`` pins character INDEX only: its pairs are (INDEX, path, value)."""
    if len(texts) > MAX_PINS:
        raise PinError(f"{len(texts)} --set options (at most {MAX_PINS})")
    out: dict[tuple, tuple] = {}
    for text in texts:
        m = _INDEXED.fullmatch(text)
        index, rest = (int(m[1]), m[2]) if m else (None, text)
        path, raw = split_set(rest)
        target = targets.get(path)
        if target is None:
            what = "not a path that can be pinned" if paths.well_formed(path) else \
                "not a path (keys by dots, records by id: skills.climbing, weapons.broadsword.attack)"
            raise PinError(f"--set {path[:80]}: {what} "
                           f"(expected one of: {', '.join(targets) or 'none in this system'})")
        value = _value(path, raw, target, force)
        out[(index, path)] = (path, value) if index is None else (index, path, value)
    return tuple(out.values())


def sex_target(sexes) -> PinTarget:
    """``identity.sex``: one of the rules' sexes; the name is then drawn from that sex's list (a pinned name stays)."""
    return PinTarget("choice", choices=tuple(sexes), traced=False)


def module_targets(module) -> dict[str, PinTarget]:
    """What ``--set`` can pin in characters of ``module``: its engine's targets, and each flavour
    table's value as text (``flavour.motive``; chargen.flavour)."""
    from chargen import engines

    targets = dict(engines.require(module.engine).pins(module.rules))
    for table in getattr(getattr(module, "flavour", None), "tables", ()):
        targets[f"flavour.{table.id}"] = PinTarget("text", where="flavour.yaml", traced=False)
    return targets
