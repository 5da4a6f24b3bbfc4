"""KoTM's attack roll as pure functions of the dice faces, and its exact odds.

Resolution (:mod:`chargen.systems.kotm.resolve`), the odds on the sheet and the
tests all call these, so the odds shown are the odds the roller plays by.
"""

from __future__ import annotations

from fractions import Fraction

from chargen.systems.kotm.rules import OUTCOME, Attack, Outcome

OS, CS = OUTCOME["outstanding_success"], OUTCOME["critical_success"]


def classify(attack: Attack, first: int, second: int, sd: int) -> Outcome:
    """The outcome of faces ``first`` ``second`` against ``sd``: an exception by its faces,
    else a hit when the two-digit read is at or below the SD, else a miss."""
    for outcome in attack.exceptions:
        if outcome.matches(first, second):
            return outcome
    return attack.hit if attack.read(first, second) <= sd else attack.miss


def damage_die(attack: Attack, second: int) -> int:
    """The damage number: the second die's face, a 10 counting ``attack.damage_ten``."""
    return attack.damage_ten if second == attack.sides else second


def damage(attack: Attack, outcome: Outcome, second: int, modifier: int, level: int) -> int | None:
    """Damage of a hit (None for a miss, CF or TF)."""
    if not outcome.hit:
        return None
    total = damage_die(attack, second) + modifier
    if outcome.id == OS:
        total = (total + attack.os_per_level * level) * attack.os_multiply
    elif outcome.id == CS:
        total += attack.cs_add
    return max(attack.damage_min, total)


def damage_steps(attack: Attack, outcome: Outcome, second: int, modifier: int, level: int) -> str:
    """How :func:`damage` got its figure, for the roll's trail."""
    die = damage_die(attack, second)
    text = f"second die {die} {modifier:+d}"
    if outcome.id == OS:
        text = f"({text} + {attack.os_per_level * level} for level {level}) x {attack.os_multiply}"
    elif outcome.id == CS:
        text = f"{text} + {attack.cs_add}"
    total = damage(attack, outcome, second, modifier, level)
    clamped = " (no less than the minimum)" if total == attack.damage_min else ""
    return f"{text} = {total}{clamped}"


def faces(attack: Attack):
    for first in range(1, attack.sides + 1):
        for second in range(1, attack.sides + 1):
            yield first, second


def outcome_odds(attack: Attack, sd: int) -> dict[str, Fraction]:
    """Exact chance of each outcome for ``sd``, by enumerating every pair of faces."""
    counts = {o.id: 0 for o in attack.outcomes}
    for first, second in faces(attack):
        counts[classify(attack, first, second, sd).id] += 1
    total = attack.sides ** 2
    return {k: Fraction(n, total) for k, n in counts.items()}


def outcome_reads(attack: Attack, sd: int) -> dict[str, list[int]]:
    """The two-digit reads that give each outcome for ``sd``, sorted."""
    reads: dict[str, list[int]] = {o.id: [] for o in attack.outcomes}
    for first, second in faces(attack):
        reads[classify(attack, first, second, sd).id].append(attack.read(first, second))
    return {k: sorted(v) for k, v in reads.items()}


def damage_range(attack: Attack, outcome_id: str, sd: int, modifier: int, level: int) -> tuple[int, int] | None:
    """Lowest and highest damage of an outcome for this SD, weapon modifier and level."""
    values = [damage(attack, o, second, modifier, level)
              for first, second in faces(attack)
              if (o := classify(attack, first, second, sd)).id == outcome_id and o.hit]
    return (min(values), max(values)) if values else None


def ranges(values: list[int]) -> str:
    """``[1, 2, 3, 7]`` -> ``"01-03, 07"``: reads as the sheet prints them."""
    if not values:
        return "-"
    out, start, prev = [], values[0], values[0]
    for v in values[1:] + [None]:
        if v is not None and v == prev + 1:
            prev = v
            continue
        out.append(f"{start:02d}" if start == prev else f"{start:02d}-{prev:02d}")
        if v is not None:
            start = prev = v
    return ", ".join(out)
