"""RTD's stat roll-offs, success charts and action scale, as procedures of ``draw``.

Each procedure takes ``draw(sides, purpose)``: a roller's ``die`` at the table, or the
enumerator of :mod:`chargen.odds` for exact odds. The readings they follow are written
next to the data in ``rules/rtd/*.yaml``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from chargen.errors import TooManyRolls
from chargen.odds import Draw, enumerate_draws
from chargen.systems.rtd.rules import ActionResult, RtdRules, SkillLevel, SuccessCharts, Tier


@dataclass(frozen=True, slots=True)
class RollOff:
    stat: int
    difficulty: Tier
    face: int | None      # None when no die is rolled
    passed: bool
    how: str              # "automatic", "rolled", "out of reach"


def roll_off(stat: int, difficulty: Tier, draw: Draw) -> RollOff:
    """At or above the difficulty's maximum: pass; below its minimum: out of reach;
    otherwise roll the difficulty's die (its maximum) and pass at or under the stat."""
    if stat >= difficulty.max:
        return RollOff(stat, difficulty, None, True, "automatic")
    if stat < difficulty.min:
        return RollOff(stat, difficulty, None, False, "out of reach")
    face = draw(difficulty.max, "roll-off")
    return RollOff(stat, difficulty, face, face <= stat, "rolled")


def pass_chance(stat: int, difficulty: Tier) -> Fraction:
    """Exact chance that ``stat`` passes a roll-off of ``difficulty``."""
    odds = enumerate_draws(lambda draw: roll_off(stat, difficulty, draw).passed)
    return odds.get(True, Fraction(0))


@dataclass(frozen=True, slots=True)
class ChartRoll:
    chart: int            # 1-based
    face: int
    total: int            # the seed's "Rolls" column: face + die x (chart - 1)
    label: str | None     # None for an explosion
    explode: bool


def success_chart(charts: SuccessCharts, draw: Draw) -> tuple[ChartRoll, ...]:
    """Roll on the success chart; every explosion rolls again on the next chart."""
    rolls: list[ChartRoll] = []
    chart = 1
    while True:
        if chart > charts.max_charts:
            raise TooManyRolls(f"the success chart exploded past chart {charts.max_charts} "
                               "(max_charts in rules/rtd/roll_offs.yaml)")
        face = draw(charts.die, f"success chart {chart}")
        index, row = charts.row_of(face)
        total = face + charts.die * (chart - 1)
        if not row.explode:
            rolls.append(ChartRoll(chart, face, total, charts.label(chart, index), False))
            return tuple(rolls)
        rolls.append(ChartRoll(chart, face, total, None, True))
        chart += 1


def chart_odds(charts: SuccessCharts, count: int) -> list[tuple[int, str, tuple[int, int], Fraction]]:
    """Exact chance of each row of the first ``count`` charts: (chart, label, totals, chance).

    Chart n is reached by n-1 explosions, so a row's chance is its share of the die
    times the chance of every explosion before it; the rows past ``count`` charts hold
    the rest (the chance of exploding ``count`` times).
    """
    explode = Fraction(sum(r.high - r.low + 1 for r in charts.pattern if r.explode), charts.die)
    out = []
    for chart in range(1, count + 1):
        reach = explode ** (chart - 1)
        index = 0
        for row in charts.pattern:
            if row.explode:
                continue
            offset = charts.die * (chart - 1)
            share = Fraction(row.high - row.low + 1, charts.die)
            out.append((chart, charts.label(chart, index), (row.low + offset, row.high + offset), reach * share))
            index += 1
    return out


@dataclass(frozen=True, slots=True)
class ActionRoll:
    face: int | None                          # None when the result was chosen
    modifiers: tuple[tuple[str, int], ...]    # (what, value), in the order applied
    raw: int                                  # before clamping and the overshoot cap
    result: int
    capped: bool                              # the overshoot cap lowered the result
    row: ActionResult


def skill_modifiers(level: SkillLevel | None, face: int | None, chosen: int | None) -> list[tuple[str, int]]:
    """The skill level's bonus for this roll ("each bonus replaces any previous bonuses")."""
    if level is None:
        return []
    out = []
    if level.static:
        out.append((f"{level.label} static", level.static))
    if level.choose:
        if chosen not in level.choose:
            raise ValueError(f"{level.label} takes a chosen bonus of {level.choose}, not {chosen}")
        out.append((f"{level.label} chosen", chosen))
    if level.natural_one and face == 1:
        out.append((f"{level.label} natural 1", level.natural_one))
    return out


def action(rules: RtdRules, draw: Draw, level: SkillLevel | None = None, chosen_bonus: int | None = None,
           bonus: int = 0, penalty: int = 0, overshoot: bool = True, chosen_result: int | None = None) -> ActionRoll:
    """One standard action on the 0-10 scale (see rules/rtd/actions.yaml for the die)."""
    a = rules.actions
    if level is not None and level.choose_result:
        if chosen_result is None:
            raise ValueError(f"{level.label} chooses the result")
        face, base, mods = None, chosen_result, []
    else:
        face = draw(a.sides, "action")
        base, mods = face + a.add, skill_modifiers(level, face, chosen_bonus)
    if bonus:
        mods.append(("bonus", bonus))
    if penalty:
        mods.append(("wound penalty", -penalty))
    raw = base + sum(v for _, v in mods)
    result = min(a.clamp_max, max(a.clamp_min, raw))
    no_overshoot = level is not None and (level.overshoot == "never" or (level.overshoot == "optional" and not overshoot))
    capped = no_overshoot and result > a.best_without_overshoot
    if capped:
        result = a.best_without_overshoot
    return ActionRoll(face, tuple(mods), raw, result, capped, a.row(result))


def action_odds(rules: RtdRules, **kwargs) -> dict[int, Fraction]:
    """Exact chance of each result 0-10 of :func:`action` with these arguments."""
    odds = enumerate_draws(lambda draw: action(rules, draw, **kwargs).result)
    return {r.result: odds.get(r.result, Fraction(0)) for r in rules.actions.results}
