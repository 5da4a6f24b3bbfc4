"""RTD stat roll-offs and the exploding success charts (rules/rtd/roll_offs.yaml)."""

import math
import random
from fractions import Fraction

import pytest

from chargen.dice import Roller, roll_die
from chargen.errors import TooManyRolls
from chargen.systems.rtd.mechanics import chart_odds, pass_chance, roll_off, success_chart
from tests.conftest import scripted


@pytest.fixture(scope="module")
def rules(rtd):
    return rtd.rules


@pytest.mark.parametrize("stat, tier", [
    (0, "easy"), (5, "easy"), (6, "medium"), (7, "medium"), (10, "medium"), (11, "hard"), (15, "hard"),
    (16, "very_hard"), (20, "very_hard"), (21, "master"), (30, "master"), (31, "godly"), (50, "godly"),
])
def test_tier_of_a_stat(rules, stat, tier):
    assert rules.tier_of(stat).id == tier


def test_no_tier_past_50(rules):
    assert rules.tier_of(51) is None


def test_the_seeds_example_str_7_rolls_a_d10_at_or_under_7(rules):
    medium = rules.tier("medium")
    assert roll_off(7, medium, scripted((10, 7)).die) .passed
    assert not roll_off(7, medium, scripted((10, 8)).die).passed
    assert pass_chance(7, medium) == Fraction(7, 10)


@pytest.mark.parametrize("stat, tier, how, chance", [
    (5, "easy", "automatic", 1), (4, "easy", "rolled", Fraction(4, 5)), (0, "easy", "rolled", 0),
    (10, "medium", "automatic", 1), (6, "medium", "rolled", Fraction(6, 10)), (5, "medium", "out of reach", 0),
    (14, "hard", "rolled", Fraction(14, 15)), (15, "hard", "automatic", 1), (10, "hard", "out of reach", 0),
    (16, "very_hard", "rolled", Fraction(16, 20)), (20, "very_hard", "automatic", 1),
    (20, "master", "out of reach", 0), (21, "master", "rolled", Fraction(21, 30)),
    (31, "godly", "rolled", Fraction(31, 50)), (50, "godly", "automatic", 1), (30, "godly", "out of reach", 0),
    (12, "easy", "automatic", 1),
])
def test_roll_off_at_every_tier_boundary(rules, stat, tier, how, chance):
    t = rules.tier(tier)
    roller = scripted((t.max, 1))
    ro = roll_off(stat, t, roller.die)
    assert ro.how == how
    assert (ro.face is None) == (how != "rolled")
    assert pass_chance(stat, t) == chance


@pytest.mark.parametrize("stat", range(0, 51))
def test_pass_chance_for_every_stat_and_difficulty(rules, stat):
    for t in rules.tiers:
        expected = 1 if stat >= t.max else 0 if stat < t.min else Fraction(stat, t.max)
        assert pass_chance(stat, t) == expected


@pytest.mark.parametrize("face, label", [
    (1, "Lesser success"), (5, "Lesser success"), (6, "Regular success"), (10, "Regular success"),
    (11, "Good success"), (15, "Good success"), (16, "Great success"), (19, "Great success"),
])
def test_first_chart_rows(rules, face, label):
    (roll,) = success_chart(rules.charts, scripted((20, face)).die)
    assert (roll.chart, roll.total, roll.label) == (1, face, label)


@pytest.mark.parametrize("face, total, label", [
    (1, 21, "Expert success"), (5, 25, "Expert success"), (6, 26, "Heroic success"), (10, 30, "Heroic success"),
    (11, 31, "Epic success"), (15, 35, "Epic success"), (16, 36, "Legendary success"), (19, 39, "Legendary success"),
])
def test_a_20_explodes_into_the_second_chart(rules, face, total, label):
    rolls = success_chart(rules.charts, scripted((20, 20), (20, face)).die)
    assert [r.explode for r in rolls] == [True, False]
    assert (rolls[1].chart, rolls[1].total, rolls[1].label) == (2, total, label)


def test_charts_past_the_second_follow_the_pattern(rules):
    rolls = success_chart(rules.charts, scripted((20, 20), (20, 20), (20, 1)).die)
    assert (rolls[-1].chart, rolls[-1].total, rolls[-1].label) == (3, 41, "Chart 3 lesser success")
    rolls = success_chart(rules.charts, scripted(*[(20, 20)] * 3, (20, 19)).die)
    assert (rolls[-1].chart, rolls[-1].total, rolls[-1].label) == (4, 79, "Chart 4 great success")


class Twenties(random.Random):
    def random(self) -> float:
        return 0.99


def test_endless_explosions_stop_at_max_charts(rules):
    with pytest.raises(TooManyRolls) as e:
        success_chart(rules.charts, Roller(Twenties()).die)
    assert str(e.value) == "the success chart exploded past chart 100 (max_charts in rules/rtd/roll_offs.yaml)"


def test_chart_odds_are_exact(rules):
    odds = chart_odds(rules.charts, 3)
    assert [(c, lo, hi, p) for c, _, (lo, hi), p in odds[:5]] == [
        (1, 1, 5, Fraction(1, 4)), (1, 6, 10, Fraction(1, 4)), (1, 11, 15, Fraction(1, 4)),
        (1, 16, 19, Fraction(1, 5)), (2, 21, 25, Fraction(1, 80))]
    for n in (1, 2, 3, 5):
        assert sum(p for *_, p in chart_odds(rules.charts, n)) == 1 - Fraction(1, 20) ** n


def within(count: int, n: int, p: Fraction) -> bool:
    """``count`` of ``n`` is within 5 standard errors of ``p`` (a correct roller fails
    this about once in 3.5 million checks)."""
    return abs(count / n - float(p)) <= 5 * math.sqrt(float(p * (1 - p)) / n) + 1e-12


def test_chart_odds_match_a_large_seeded_simulation(rules):
    n = 200_000
    rng = random.Random(77)
    draw = lambda sides, purpose: roll_die(rng, sides)  # noqa: E731
    counts: dict = {}
    for _ in range(n):
        last = success_chart(rules.charts, draw)[-1]
        key = (last.chart, last.label) if last.chart <= 2 else "beyond"
        counts[key] = counts.get(key, 0) + 1
    odds = chart_odds(rules.charts, 2)
    for chart, label, _, p in odds:
        assert within(counts.get((chart, label), 0), n, p), label
    assert within(counts.get("beyond", 0), n, Fraction(1, 400))


def test_roll_off_odds_match_a_large_seeded_simulation(rules):
    n, hard = 200_000, rules.tier("hard")
    rng = random.Random(78)
    passed = sum(roll_off(12, hard, lambda s, p: roll_die(rng, s)).passed for _ in range(n))
    assert within(passed, n, pass_chance(12, hard))
