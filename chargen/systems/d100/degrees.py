"""D100 II degrees of success: the ranges of a chance, and the degree of one roll.

The Degrees of Success Table is lost from the seed; the ranges are the classic
formula (shared/reference/d100ii-figures.md, "matches an RQ3 sheet row for row"):

* critical: roll <= chance / 20, rounded half up, at least 01;
* special:  roll <= chance / 5, rounded half up, at least 01;
* fumble:   roll >= 101 - n, n = (100 - chance) / 20 rounded half up, at least 1
  (chance 50 -> 98-00, chance 05 -> 96-00, chance 71 -> 00 alone).

The seed's automatic results win over the formula: "Any D100 roll of 01 is an
automatic critical. ... 02 to 05 is an automatic success. ... 96 to 99 is an
automatic failure. ... 00 is an automatic fumble." (96-99 fumble when the fumble
range reaches them: an automatic failure, and a fumble is a failure.) So the
success range is the chance clamped to 05-95. A D100 reads 01-100; "00" is 100.
"""

from __future__ import annotations

from fractions import Fraction

DEGREES = ("critical", "special", "success", "failure", "fumble")
SUCCEEDS = frozenset({"critical", "special", "success"})
AUTOMATIC_CRITICAL = 1
AUTOMATIC_SUCCESS = (2, 5)
AUTOMATIC_FAILURE = (96, 99)
AUTOMATIC_FUMBLE = 100


def round_half_up(x: Fraction) -> int:
    return int((x + Fraction(1, 2)) // 1)


def degree_ranges(chance: int) -> dict[str, tuple[int, int]]:
    """The D100 rolls of each degree for ``chance``: ``{"critical": (1, c), "special": (1, s),
    "success": (1, chance clamped to 5-95), "fumble": (f, 100)}``.

    This is the one place the formula lives: the sheets print these ranges and
    :func:`degree` reads rolls with them. A critical or special range never
    reaches past the success range (at 1000% the formula's special 01-200 reads
    01-95, as 96-99 always fail), and a fumble range never reaches down into
    the automatic successes 01-05 (only below -1800%, past what a character
    document holds).
    """
    n = max(1, round_half_up(Fraction(100 - chance, 20)))
    success = min(AUTOMATIC_FAILURE[0] - 1, max(AUTOMATIC_SUCCESS[1], chance))
    return {
        "critical": (1, min(success, max(1, round_half_up(Fraction(chance, 20))))),
        "special": (1, min(success, max(1, round_half_up(Fraction(chance, 5))))),
        "success": (1, success),
        "fumble": (max(AUTOMATIC_SUCCESS[1] + 1, 101 - n), 100),
    }


def degree(roll: int, chance: int) -> str:
    """The degree of a D100 ``roll`` (1-100) against ``chance``."""
    r = degree_ranges(chance)
    if roll == AUTOMATIC_CRITICAL:
        return "critical"
    if roll == AUTOMATIC_FUMBLE:
        return "fumble"
    if AUTOMATIC_FAILURE[0] <= roll <= AUTOMATIC_FAILURE[1]:
        return "fumble" if roll >= r["fumble"][0] else "failure"
    for name in ("critical", "special", "success"):
        if roll <= r[name][1]:
            return name
    return "fumble" if roll >= r["fumble"][0] else "failure"


def degree_odds(chance: int) -> dict[str, Fraction]:
    """Exact chance of each degree, by enumerating the hundred faces."""
    counts = dict.fromkeys(DEGREES, 0)
    for roll in range(1, 101):
        counts[degree(roll, chance)] += 1
    return {k: Fraction(v, 100) for k, v in counts.items()}


def resistance_chance(active: int, passive: int) -> int:
    """ "the chance is 50%, plus or minus 5% per point of difference" (seed)."""
    return 50 + 5 * (active - passive)


def opposed_chances(a: int, b: int) -> tuple[int, int]:
    """ "any chance over 100% is applied as a negative modifier to the other character's
    chance. This is calculated simultaneously": 110 against 120 -> 90 and 110."""
    return a - max(0, b - 100), b - max(0, a - 100)


def d100_text(roll: int) -> str:
    """A D100 face as printed: 01-99, and 00 for 100."""
    return "00" if roll == 100 else f"{roll:02d}"
