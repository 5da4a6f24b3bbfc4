"""Constraints: ``--require EXPR``, and the rerolls that meet them.

The grammar is one comparison, no more (nothing is evaluated as code)::

    requirement := PATH OP NUMBER
    PATH        := a document path (chargen.paths): combat.hit_points, skills.climbing, stats.str,
                   weapons.broadsword.attack, best_weapon.attack
    OP          := >= | <= | > | < | == | !=
    NUMBER      := an optional sign and ASCII digits

A path to a record that holds a ``value`` compares its value (a d100 skill, an
RTD stat). A character that fails any requirement is made again on the next
attempt's seed (:func:`chargen.seeds.attempt_seed`: attempt 0 is the character
as its seed gives it, then attempts 1, 2, ...), at most
:data:`~chargen.seeds.MAX_ATTEMPTS` tries; the first attempt that meets them all
is the character, and the document records its number (``require.attempt``),
so ``--index i`` with the same ``--require`` gives it again. Pins apply to
every attempt. When no attempt meets them the error gives the best value seen.
The attempts are made by :func:`chargen.generate.make_character_traced`; this
module is the requirements' language.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Mapping
from dataclasses import dataclass

from chargen import paths
from chargen.errors import ChargenError
from chargen.seeds import MAX_ATTEMPTS

OPS = {">=": operator.ge, "<=": operator.le, "==": operator.eq, "!=": operator.ne, ">": operator.gt, "<": operator.lt}
_EXPR = re.compile(rf"\s*({paths.PATH})\s*(>=|<=|==|!=|>|<)\s*([+-]?[0-9]{{1,9}})\s*")
MAX_REQUIRES = 32
# A batch's attempts: in each block of BLOCK consecutive characters, at most MAX_ATTEMPTS and SHARE
# a character made so far (a requirement one character in 100 meets, one unlucky character).
BLOCK = 250
SHARE = 100


class RequireError(ChargenError):
    """A ``--require`` that cannot be read, or that no attempt meets."""


@dataclass(frozen=True, slots=True)
class Requirement:
    path: str
    op: str
    number: int

    def __str__(self) -> str:
        return f"{self.path}{self.op}{self.number}"

    def value(self, doc: dict) -> object:
        return paths.scalar(paths.lookup(doc, self.path))

    def met(self, doc: dict) -> bool:
        v = self.value(doc)
        return isinstance(v, int) and not isinstance(v, bool) and OPS[self.op](v, self.number)

    def distance(self, doc: dict) -> int:
        """How far the value is from meeting it (0: met), to keep the best value seen."""
        v = self.value(doc)
        if self.met(doc):
            return 0
        if not isinstance(v, int) or isinstance(v, bool):
            return 10**9
        if self.op == "!=":
            return 1
        target = {">=": self.number, ">": self.number + 1, "<=": self.number, "<": self.number - 1}.get(self.op, self.number)
        return abs(v - target)


class Budget:
    """The attempts a batch's characters may take together. Character ``n`` of the batch (its position,
    from 0) may take what its block of ``BLOCK`` leaves: ``MAX_ATTEMPTS + SHARE x`` the characters of the
    block made so far, itself included, less what the others took (never more than ``MAX_ATTEMPTS``).
    The work of a batch of ``count`` characters is at most ``(MAX_ATTEMPTS + SHARE x BLOCK)`` attempts a
    block: 35,000 for 250 characters, where it was ``MAX_ATTEMPTS x count`` (2,500,000)."""

    def __init__(self) -> None:
        self._taken: dict[int, dict[int, int]] = {}  # block -> position -> attempts

    def allowance(self, position: int) -> int:
        taken = {p: n for p, n in self._taken.get(position // BLOCK, {}).items() if p != position}
        return max(0, min(MAX_ATTEMPTS, MAX_ATTEMPTS + SHARE * (len(taken) + 1) - sum(taken.values())))

    def take(self, position: int, attempts: int) -> None:
        self._taken.setdefault(position // BLOCK, {})[position] = attempts

    def exhausted(self, position: int) -> str:
        """Why character ``position`` was given fewer than ``MAX_ATTEMPTS``."""
        block = self._taken.get(position // BLOCK, {})
        first = position // BLOCK * BLOCK
        return (f"the batch's characters {first}-{first + BLOCK - 1} took {sum(block.values()):,} attempts before it "
                f"(a batch's --require may take {MAX_ATTEMPTS:,} attempts and {SHARE} a character in each {BLOCK})")


def parse(text: str) -> Requirement:
    m = _EXPR.fullmatch(text)
    if not m:
        raise RequireError(f"--require {text[:80]!r}: expected PATH OP NUMBER with OP one of "
                           f"{', '.join(OPS)} (e.g. combat.hit_points>=14)")
    return Requirement(m[1], m[2], int(m[3]))


def parse_all(texts: tuple[str, ...] | list[str], sample: dict | None = None,
              ids: Mapping[str, tuple[str, ...]] | None = None) -> tuple[Requirement, ...]:
    """Every ``--require``; with ``sample`` (a character of the batch), each path must name a number of
    such a character: in ``sample``, or in a record of the rules' ``ids`` (list key -> ids) it lacks."""
    if len(texts) > MAX_REQUIRES:
        raise RequireError(f"{len(texts)} --require options (at most {MAX_REQUIRES})")
    out = tuple(parse(t) for t in texts)
    if sample is not None:
        for r in out:
            why = paths.names_a_number(sample, r.path, ids or {})
            if why is not None:
                examples = f" (e.g. {', '.join(_numbers(sample)[:8])})" if why.startswith(r.path) else ""
                raise RequireError(f"--require {r}: {why}{examples}")
    return out


def _numbers(doc: dict) -> list[str]:
    skip = ("seed.", "rolls", "trail", "system.", "pins", "require")
    return [p for p, v in paths.leaves(doc) if isinstance(v, int) and not isinstance(v, bool)
            and not p.startswith(skip)]
