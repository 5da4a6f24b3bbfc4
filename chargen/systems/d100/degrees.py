"""D100 degrees of success: which rolls are criticals, specials, successes and fumbles.

The one place the formula lives; the sheet shows it and resolution code reuses it.
A D100 roll reads 01-100, with "00" meaning 100.

The classic formula (shared/reference/d100ii-figures.md, "Degrees of success",
which matches an RQ3 sheet row for row):

* critical: roll <= chance / 20, rounded half up, at least 01;
* special:  roll <= chance / 5, rounded half up, at least 01;
* fumble:   roll >= 101 - n, where n = (100 - chance) / 20 rounded half up,
  at least 1 (so 00 alone at the least).

The seed's automatic results hold whatever the chance: 01 is always a
critical, 02-05 always succeed, 96-99 always fail and 00 always fumbles.
Where the formula and those rules meet, the automatic rules win, which keeps
every sentence of both meaningful:

* a success is a roll of 01 to the chance, but never less than 01-05 and never
  more than 01-95 (so 96-99 fail and 00 fumbles even at 120%);
* a critical or special never reaches past the success range (at 1000% the
  formula's special of 01-200 reads 01-95);
* a fumble never reaches down into 01-05 (only for chances below -1800%,
  beyond what a character document allows, but the rule is whole).
"""

from __future__ import annotations

from dataclasses import dataclass

CRITICAL = "critical"
SPECIAL = "special"
SUCCESS = "success"
FAILURE = "failure"
FUMBLE = "fumble"

AUTO_SUCCESS_UP_TO = 5   # 01 critical, 02-05 success (seed)
AUTO_FAILURE_FROM = 96   # 96-99 failure, 00 fumble (seed)


def round_half_up(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` rounded to the nearest integer, halves up (denominator > 0)."""
    return (2 * numerator + denominator) // (2 * denominator)


@dataclass(frozen=True, slots=True)
class DegreeRanges:
    """The D100 rolls of each degree for one chance, as bounds on 1-100 (100 is "00").

    ``critical``, ``special`` and ``success`` are the highest rolls of their
    degree (each range starts at 01); ``fumble`` is the lowest fumbling roll
    (the range ends at 00). Rolls in neither are plain failures.
    """

    chance: int
    critical: int
    special: int
    success: int
    fumble: int

    def degree(self, roll: int) -> str:
        """The degree of one D100 roll (1-100, 100 read as "00")."""
        if not 1 <= roll <= 100:
            raise ValueError(f"a D100 roll is 1-100 (00 is 100), not {roll}")
        if roll <= self.critical:
            return CRITICAL
        if roll <= self.special:
            return SPECIAL
        if roll <= self.success:
            return SUCCESS
        if roll >= self.fumble:
            return FUMBLE
        return FAILURE


def degree_ranges(chance: int) -> DegreeRanges:
    """The critical, special, success and fumble ranges for a chance in percent."""
    success = min(AUTO_FAILURE_FROM - 1, max(AUTO_SUCCESS_UP_TO, chance))
    critical = min(success, max(1, round_half_up(chance, 20)))
    special = min(success, max(1, round_half_up(chance, 5)))
    n = max(1, round_half_up(100 - chance, 20))
    fumble = max(AUTO_SUCCESS_UP_TO + 1, 101 - n)
    return DegreeRanges(chance, critical, special, success, fumble)
