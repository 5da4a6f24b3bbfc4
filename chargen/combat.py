"""One attack between two characters, resolved by an engine's own combat rules, and its exact odds.

An engine that resolves attacks declares ``Engine.combat``: a procedure
``(rules, draws, attacker, defender, choices) -> Resolution`` that takes every
random value from ``draws`` (:class:`Draws`). At the table ``draws`` rolls
(:class:`RolledDraws`, on the seeded :class:`chargen.dice.Roller`); for the odds
it branches over every value with its exact probability (:func:`attack_odds`),
so the odds shown are computed by the very code that resolves the attack.

A procedure must read a die only through the ``key`` it passes (the degree of a
D100 roll, the location of a 1D20 face): the odds branch once per key, on the
smallest face that gives it. Totals of dice (damage) branch once per total. A key
is a function of the face, or the tuple of every face's key (face 1 first; the
branches of a tuple are computed once).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction

from chargen import engines
from chargen.dice import Dice, Roller, parse
from chargen.errors import CharacterError, ChargenError, OptionError, TooManyRolls

MAX_BRANCHES = 2_000_000  # leaves of one attack's odds (a budget: never reached by the seeds' dice)


class RolledDraws:
    """Draws at the table: each value rolled on the roller (and logged)."""

    def __init__(self, roller: Roller):
        self.roller = roller

    def die(self, sides: int, purpose: str, key: Callable[[int], Hashable] | None = None) -> int:
        return self.roller.die(sides, purpose)

    def roll(self, dice: Dice, purpose: str) -> int:
        return self.roller.roll(dice, purpose)

    def faces(self) -> tuple[int, ...]:
        """The faces of the last roll (for the trail a game master checks)."""
        return self.roller.log[-1].faces if self.roller.log else ()


class _Need(Exception):
    def __init__(self, options: list[tuple[int, Fraction]]):
        super().__init__(len(options))
        self.options = options


class _Branches:
    """Draws for the odds: replays a prefix of choices; asks for a branch past its end. ``exact``:
    weights as fractions, else as floats (the fight chain: many branches, fast; its steps unwritten)."""

    def __init__(self, prefix: tuple[int, ...], exact: bool = True):
        self.prefix, self.used, self.exact = prefix, 0, exact
        self.weight = Fraction(1) if exact else 1.0
        self.quiet = not exact

    def _take(self, options: list[tuple[int, Fraction, float]]) -> int:
        if self.used == len(self.prefix):
            raise _Need(options)
        value, p, f = options[self.prefix[self.used]]
        self.used += 1
        self.weight *= p if self.exact else f
        return value

    def die(self, sides: int, purpose: str, key=None) -> int:
        if key is None or isinstance(key, tuple):
            return self._take(_grouped_faces(sides, key))
        return self._take(_grouped(sides, key))

    def roll(self, dice: Dice, purpose: str) -> int:
        return self._take(_totals3(dice))

    def faces(self) -> tuple[int, ...]:
        return ()


def _grouped(sides: int, key) -> list[tuple[int, Fraction, float]]:
    if key is None:
        return [(f, Fraction(1, sides), 1 / sides) for f in range(1, sides + 1)]
    first: dict[Hashable, list] = {}
    for face in range(1, sides + 1):
        first.setdefault(key(face), [face, 0])[1] += 1
    return [(face, Fraction(n, sides), n / sides) for face, n in first.values()]


@functools.lru_cache(maxsize=4096)
def _grouped_faces(sides: int, keys: tuple | None) -> list[tuple[int, Fraction, float]]:
    return _grouped(sides, None if keys is None else (lambda f: keys[f - 1]))


@functools.lru_cache(maxsize=256)
def _totals3(dice: Dice) -> list[tuple[int, Fraction, float]]:
    return [(t, p, float(p)) for t, p in totals(dice)]


@functools.lru_cache(maxsize=256)
def totals(dice: Dice) -> list[tuple[int, Fraction]]:
    """The exact distribution of a dice expression's total, as (total, probability) by total."""
    dist = {0: Fraction(1)}
    for term in dice.terms:
        for _ in range(term.count if term.sides else 1):
            faces = [term.sign * term.count] if not term.sides else [term.sign * f for f in range(1, term.sides + 1)]
            step = Fraction(1, len(faces))
            new: dict[int, Fraction] = {}
            for total, p in dist.items():
                for f in faces:
                    new[total + f] = new.get(total + f, Fraction(0)) + p * step
            dist = new
    return sorted(dist.items())


def enumerate_outcomes(procedure: Callable[[object], Hashable], exact: bool = True) -> dict[Hashable, Fraction]:
    """The exact distribution of ``procedure(draws)``'s results over every value its draws can take
    (``exact``: as fractions; else as floats)."""
    out: dict = {}
    stack: list[tuple[int, ...]] = [()]
    leaves = 0
    while stack:
        prefix = stack.pop()
        draws = _Branches(prefix, exact)
        try:
            value = procedure(draws)
        except _Need as need:
            stack.extend(prefix + (i,) for i in range(len(need.options) - 1, -1, -1))
            continue
        leaves += 1
        if leaves > MAX_BRANCHES:
            raise TooManyRolls(f"an attack's odds took more than {MAX_BRANCHES} branches to enumerate")
        out[value] = out.get(value, 0) + draws.weight
    return out


@dataclass(frozen=True, slots=True)
class Choices:
    """What the players choose for one attack (the options the seed leaves to them)."""

    weapon: str | None = None     # the attacker's weapon id (None: his best usable weapon)
    parry: str | None = None      # the defender's parrying item id, "none", or None (his best)
    defence: int | None = None    # how much of his defence the defender applies (None: all)
    aim: str | None = None        # a hit location aimed at (D100: wait until SR 12, half chance)


def engine_of(attacker: dict, defender: dict, system_id: str | None) -> engines.Engine:
    """The engine both characters were made under (one system; --system, if given, must agree)."""
    a, d = attacker["system"], defender["system"]
    if a["id"] != d["id"]:
        raise CharacterError(f"the attacker is a {a['name']} character and the defender a {d['name']} one "
                             "(an attack is resolved under one system's rules)")
    if system_id is not None and system_id != a["id"]:
        raise OptionError(f"--system {system_id}: the characters were made under '{a['id']}'")
    engine = engines.require(a.get("engine", a["id"]))
    if engine.combat is None:
        raise OptionError(f"--system {a['id']} resolves no attacks between characters yet")
    return engine


def resolve_attack(module, roller: Roller, attacker: dict, defender: dict, choices: Choices):
    """One attack at the table, under ``module``'s rules."""
    engine = engines.require(module.engine)
    return engine.combat(module.rules, RolledDraws(roller), attacker, defender, choices)


def attack_odds(module, attacker: dict, defender: dict, choices: Choices) -> dict[str, dict[str, Fraction]]:
    """The exact chance of each outcome of the attack, for each of its tallies (attack, parry,
    defender, weapons): ``{tally: {outcome: probability}}``."""
    engine = engines.require(module.engine)

    def procedure(draws) -> Hashable:
        return tuple(sorted(engine.combat(module.rules, draws, attacker, defender, choices).result["tally"].items()))

    joint = enumerate_outcomes(procedure)
    out: dict[str, dict[str, Fraction]] = {}
    for key, p in joint.items():
        for tally, outcome in key:
            row = out.setdefault(tally, {})
            row[outcome] = row.get(outcome, Fraction(0)) + p
    return out


@functools.lru_cache(maxsize=1024)
def dice_of(text: str | None) -> Dice:
    """A stored damage or modifier expression ("1D8+1", "+1D4", "0", None) as dice."""
    if text in (None, "", "0"):
        return parse(0)
    try:
        return parse(str(text))
    except ChargenError:
        raise CharacterError(f"damage {str(text)[:40]!r} is not dice notation") from None
