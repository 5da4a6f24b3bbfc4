"""Dice notation, the one die primitive, and a roller with a budget and a log.

Notation (case-insensitive, spaces ignored)::

    expression := ["+" | "-"] term (("+" | "-") term)*
    term       := [count] "D" sides | [count] "D%" | constant

``D100`` and ``D%`` are read 01-100: the two dice showing 00 read as 100.
Examples: ``3D6``, ``2D6+6``, ``D100``, ``1D4+1D6``, ``-1D4``, ``5``.

Randomness: :func:`roll_die` is the only function that touches a generator,
and it only calls ``rng.random()``, whose sequence Python keeps stable across
versions for a given seed.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass, field

from chargen.errors import DiceError, TooManyRolls

MAX_EXPRESSION_LENGTH = 100
MAX_DICE_PER_EXPRESSION = 1000
MAX_SIDES = 1000
MAX_CONSTANT = 1_000_000
DEFAULT_ROLL_BUDGET = 10_000

_TERM = re.compile(r"(\d*)D(\d+|%)|(\d+)", re.ASCII)


@dataclass(frozen=True, slots=True)
class Term:
    """``sign * count D sides``; a constant has ``sides == 0`` and its value in ``count``."""

    sign: int
    count: int
    sides: int

    def __str__(self) -> str:
        return str(self.count) if self.sides == 0 else f"{self.count}D{self.sides}"


@dataclass(frozen=True)
class Dice:
    """A parsed dice expression: a sum of signed terms."""

    terms: tuple[Term, ...]

    def __str__(self) -> str:
        return self.text

    @functools.cached_property
    def text(self) -> str:
        """Canonical notation, computed once (rules reuse the same Dice for every character)."""
        parts: list[str] = []
        for i, t in enumerate(self.terms):
            if t.sign < 0:
                parts.append("-" + str(t))
            else:
                parts.append(("+" if i else "") + str(t))
        return "".join(parts) or "0"

    @property
    def minimum(self) -> int:
        return sum(t.sign * (t.count if t.sides == 0 else (t.count if t.sign > 0 else t.count * t.sides)) for t in self.terms)

    @property
    def maximum(self) -> int:
        return sum(t.sign * (t.count if t.sides == 0 else (t.count * t.sides if t.sign > 0 else t.count)) for t in self.terms)

    @functools.cached_property
    def dice_count(self) -> int:
        return sum(t.count for t in self.terms if t.sides)

    def __add__(self, other: Dice) -> Dice:
        return combine(self.terms + other.terms)

    def times(self, n: int) -> Dice:
        """This expression added to itself ``n`` times (n >= 0), in time independent of ``n``."""
        return combine(tuple(Term(t.sign, t.count * n, t.sides) for t in self.terms))


def combine(terms: tuple[Term, ...] | list[Term]) -> Dice:
    """Merge like terms: dice of one size (by sign) and constants; keep first-seen order."""
    dice: dict[int, int] = {}
    constant = 0
    for t in terms:
        if t.sides == 0:
            constant += t.sign * t.count
        else:
            dice[t.sides] = dice.get(t.sides, 0) + t.sign * t.count
    out = [Term(1 if n > 0 else -1, abs(n), sides) for sides, n in dice.items() if n]
    if constant:
        out.append(Term(1 if constant > 0 else -1, abs(constant), 0))
    return Dice(tuple(out))


def parse(text: object) -> Dice:
    """Parse dice notation; raise :class:`DiceError` naming what is wrong."""
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise DiceError(f"dice must be notation such as '3D6' or '2D6+6', not {type(text).__name__}")
    if isinstance(text, int):
        if abs(text) > MAX_CONSTANT:
            raise DiceError(f"dice constant {text} is too large (at most {MAX_CONSTANT})")
        return Dice((Term(1 if text >= 0 else -1, abs(text), 0),)) if text else Dice(())
    source = text
    s = text.replace(" ", "").upper()
    if not s:
        raise DiceError("empty dice expression (expected notation such as '3D6')")
    if len(s) > MAX_EXPRESSION_LENGTH:
        raise DiceError(f"dice expression is too long ({len(s)} characters, at most {MAX_EXPRESSION_LENGTH})")
    terms: list[Term] = []
    pos = 0
    sign = 1
    if s[0] in "+-":
        sign = -1 if s[0] == "-" else 1
        pos = 1
    while True:
        m = _TERM.match(s, pos)
        if not m:
            _malformed(source, s, pos)
        terms.append(_term(sign, m, source))
        pos = m.end()
        if pos == len(s):
            break
        if s[pos] not in "+-":
            _malformed(source, s, pos)
        sign = -1 if s[pos] == "-" else 1
        pos += 1
    dice = Dice(tuple(terms))
    if dice.dice_count > MAX_DICE_PER_EXPRESSION:
        raise DiceError(f"dice {source!r} rolls {dice.dice_count} dice (at most {MAX_DICE_PER_EXPRESSION})")
    return dice


def _malformed(source: str, s: str, pos: int) -> None:
    where = f"unexpected {s[pos]!r} at character {pos + 1}" if pos < len(s) else "it ends too soon"
    raise DiceError(f"malformed dice {source!r}: {where} (expected notation such as '3D6', '2D6+6', 'D100', '1D4+1D6')")


def _term(sign: int, m: re.Match[str], source: str) -> Term:
    if m.group(3) is not None:
        value = int(m.group(3))
        if value > MAX_CONSTANT:
            raise DiceError(f"dice {source!r}: constant {value} is too large (at most {MAX_CONSTANT})")
        return Term(sign, value, 0)
    count_text, sides_text = m.group(1), m.group(2)
    count = int(count_text) if count_text else 1
    sides = 100 if sides_text == "%" else int(sides_text)
    if count < 1 or count > MAX_DICE_PER_EXPRESSION:
        raise DiceError(f"dice {source!r}: {count} dice in one term (expected 1 to {MAX_DICE_PER_EXPRESSION})")
    if sides < 1 or sides > MAX_SIDES:
        raise DiceError(f"dice {source!r}: a die of {sides} sides (expected 1 to {MAX_SIDES})")
    return Term(sign, count, sides)


Rng = random.Random  # the generator type every roll takes


def new_rng(seed: int) -> random.Random:
    """A generator for one seed: the only place chargen makes one (nothing uses ``random``'s module functions)."""
    return random.Random(seed)


def roll_die(rng: random.Random, sides: int) -> int:
    """The die primitive: an integer from 1 to ``sides``, from one ``rng.random()``.

    A D100 is this with ``sides == 100``: 01-100, the "00" face read as 100.
    """
    return int(rng.random() * sides) + 1


@dataclass(frozen=True, slots=True)
class RollRecord:
    """One rolled expression: what it was for, each die's face in order, and the total."""

    purpose: str
    expression: str
    faces: tuple[int, ...]
    total: int

    def to_dict(self) -> dict:
        return {"for": self.purpose, "dice": self.expression, "rolled": list(self.faces), "total": self.total}


@dataclass(slots=True)
class Roller:
    """Rolls with an injected generator, counts every die against a budget, logs each roll."""

    rng: random.Random
    budget: int = DEFAULT_ROLL_BUDGET
    log: list[RollRecord] = field(default_factory=list)
    used: int = 0

    def _spend(self, n: int) -> None:
        self.used += n
        if self.used > self.budget:
            raise TooManyRolls(f"more than {self.budget} dice rolled for one result; a rule loops without end (roll budget exceeded)")

    def roll(self, dice: Dice | str, purpose: str) -> int:
        """Roll an expression, log it under ``purpose``, return the total."""
        d = parse(dice) if isinstance(dice, str) else dice
        self._spend(d.dice_count)
        faces: list[int] = []
        total = 0
        rng = self.rng
        for t in d.terms:
            if t.sides == 0:
                total += t.sign * t.count
                continue
            for _ in range(t.count):
                face = roll_die(rng, t.sides)
                faces.append(face)
                total += t.sign * face
        self.log.append(RollRecord(purpose, d.text, tuple(faces), total))
        return total

    def die(self, sides: int, purpose: str) -> int:
        """Roll one die of ``sides`` faces, logged."""
        self._spend(1)
        face = roll_die(self.rng, sides)
        self.log.append(RollRecord(purpose, f"1D{sides}", (face,), face))
        return face

    def faces(self, count: int, sides: int, purpose: str) -> tuple[int, ...]:
        """Roll ``count`` dice of ``sides`` faces as one logged roll; return each face in order
        (for rules that read the faces, not the total: KoTM's two-digit read)."""
        self._spend(count)
        shown = tuple(roll_die(self.rng, sides) for _ in range(count))
        self.log.append(RollRecord(purpose, f"{count}D{sides}", shown, sum(shown)))
        return shown

    def choose(self, options: list | tuple, purpose: str):
        """Pick one of ``options`` with equal odds, by a logged die roll."""
        if len(options) == 1:
            return options[0]
        return options[self.die(len(options), purpose) - 1]
