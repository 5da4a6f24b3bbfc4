"""Exact odds of a dice procedure, by enumerating every sequence of faces it can roll.

A procedure is written once as a function of ``draw(sides, purpose) -> face``. At the
table ``draw`` is :meth:`chargen.dice.Roller.die`; here it replays every possible
sequence of faces, each weighted by its exact probability, so the odds on a sheet are
computed from the very code that resolves a roll. Procedures must be deterministic
given their faces; an unbounded one (an exploding chart) is cut off at ``max_draws``
with :class:`TooManyRolls` - enumerate those in closed form instead.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction

from chargen.errors import TooManyRolls

Draw = Callable[[int, str], int]


class _Need(Exception):
    """The procedure asked for one more die than the replayed prefix holds."""

    def __init__(self, sides: int):
        super().__init__(sides)
        self.sides = sides


def enumerate_draws(procedure: Callable[[Draw], Hashable], max_draws: int = 16) -> dict[Hashable, Fraction]:
    """The exact distribution of ``procedure``'s results over all the faces it may roll."""
    out: dict[Hashable, Fraction] = {}
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        used: list[int] = []

        def draw(sides: int, purpose: str = "") -> int:
            if len(used) == len(prefix):
                raise _Need(sides)
            used.append(sides)
            return prefix[len(used) - 1]

        try:
            value = procedure(draw)
        except _Need as need:
            if len(prefix) >= max_draws:
                raise TooManyRolls(f"a procedure rolled more than {max_draws} dice while its odds were enumerated") from None
            stack.extend(prefix + (face,) for face in range(need.sides, 0, -1))
            continue
        p = Fraction(1)
        for sides in used:
            p /= sides
        out[value] = out.get(value, Fraction(0)) + p
    return out
