"""What the seeds leave to the players in a fight: whom to attack, when to parry, when a side breaks.

Every choice here is this project's (``source: default``), an option of ``chargen fight``,
and the same for every system.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from chargen.errors import OptionError

TARGETS = {
    "spread": "each fighter attacks the standing enemy fewest of his side have attacked this round "
              "(the first in order on a tie): the melee pairs off, as a game master sets figures",
    "random": "each fighter attacks a standing enemy drawn at random for each attack",
    "weakest": "each fighter attacks the standing enemy with the fewest hit points left (the first on a tie)",
}
PARRIES = {
    "first": "a fighter parries the first attack on him each round that he can parry",
    "never": "nobody parries",
}
DEFAULT_MAX_ROUNDS = 50
DEFAULT_MORALE = Fraction(1, 2)
# --morale as it is written: a whole number, a fraction or a decimal, in ASCII digits (checked, with its
# length, before it is converted: Fraction() also reads exponents, 1e999999999, and other scripts' digits)
SHARE = re.compile(r"[0-9]+(?:/[0-9]+|\.[0-9]*)?|\.[0-9]+")  # at most 20 characters (checked first)


@dataclass(frozen=True, slots=True)
class Tactics:
    target: str = "spread"
    parry: str = "first"
    morale: Fraction = DEFAULT_MORALE  # a side breaks and flees once more than this share of it is out
    max_rounds: int = DEFAULT_MAX_ROUNDS

    def to_json(self) -> dict:
        return {"target": self.target, "parry": self.parry, "morale": str(self.morale),
                "max_rounds": self.max_rounds}


def tactics(target: str = "spread", parry: str = "first", morale: str = "1/2",
            max_rounds: int = DEFAULT_MAX_ROUNDS) -> Tactics:
    """The tactics the options name; a bad value is an :class:`OptionError`."""
    if target not in TARGETS:
        raise OptionError(f"--target {target[:40]!r}: expected one of: {', '.join(TARGETS)}")
    if parry not in PARRIES:
        raise OptionError(f"--parry {parry[:40]!r}: expected one of: {', '.join(PARRIES)}")
    share = _share(morale)
    if share is None:
        raise OptionError(f"--morale {morale[:40]!r}: not a share (a fraction such as 1/2 or a decimal such as 0.5, "
                          "in ASCII digits 0-9, at most 20 characters)")
    if not 0 <= share <= 1:
        raise OptionError(f"--morale {morale[:40]!r}: a share from 0 to 1 (1/2: a side breaks once more than half "
                          "of it is out; 1: it fights to the last)")
    if not 1 <= max_rounds <= 1000:
        raise OptionError(f"--max-rounds {max_rounds}: from 1 to 1000")
    return Tactics(target, parry, share, max_rounds)


def _share(text: str) -> Fraction | None:
    """``--morale``'s share, or None when it is not written as one (its form checked before it is converted)."""
    if len(text) > 20 or not SHARE.fullmatch(text):
        return None
    try:
        return Fraction(text)
    except ZeroDivisionError:
        return None


def pick_target(t: Tactics, draws, enemies: list, aimed: dict) -> object | None:
    """The enemy an attacker strikes: one of ``enemies`` (standing, in side order) by the tactic;
    ``aimed`` counts the attacks each enemy (by index) has had this round from the attacker's side."""
    if not enemies:
        return None
    if t.target == "random":
        return enemies[draws.die(len(enemies), "target") - 1] if len(enemies) > 1 else enemies[0]
    if t.target == "weakest":
        return min(enemies, key=lambda e: e.vigour)
    return min(enemies, key=lambda e: aimed.get(e.index, 0))
