"""KoTM's attack read, outcomes, damage and exact odds (rules/kotm/attack.yaml, levels.yaml)."""

import math
import random
from fractions import Fraction

import pytest

from chargen.dice import roll_die
from chargen.systems.kotm.mechanics import (classify, damage, damage_range, outcome_odds, outcome_reads,
                                            ranges)


@pytest.fixture(scope="module")
def attack(kotm):
    return kotm.rules.attack


@pytest.mark.parametrize("first, second, read", [
    (2, 6, 26), (10, 10, 0), (10, 1, 1), (10, 5, 5), (1, 10, 10), (9, 9, 99), (9, 10, 90), (3, 10, 30),
])
def test_two_digit_read_with_ten_as_zero(attack, first, second, read):
    assert attack.read(first, second) == read


@pytest.mark.parametrize("first, second, sd, outcome", [
    (10, 10, 30, "os"),
    (10, 1, 30, "cs"), (10, 4, 30, "cs"), (10, 5, 30, "hit"),   # CS is 10 01 - 10 04 only
    (10, 1, 0, "cs"),                                            # exceptions win over a low SD
    (10, 5, 4, "miss"), (10, 5, 5, "hit"),                       # read 05 against SD 4 and 5
    (3, 10, 30, "hit"), (3, 1, 30, "miss"),                      # read 30 at SD 30; read 31
    (2, 6, 30, "hit"),                                           # the seed's Johnwarrior
    (9, 4, 93, "miss"), (9, 4, 94, "hit"),
    (9, 5, 30, "cf"), (9, 8, 30, "cf"), (9, 5, 100, "cf"),       # CF is 9 5 - 9 8, whatever the SD
    (9, 9, 100, "tf"), (9, 10, 100, "hit"), (9, 10, 89, "miss"),
])
def test_classify(attack, first, second, sd, outcome):
    assert classify(attack, first, second, sd).id == outcome


@pytest.mark.parametrize("outcome, second, modifier, level, expected", [
    ("hit", 6, 0, 1, 6),          # "26 = 6"
    ("hit", 10, 0, 1, 10),        # a 10 on the damage die is 10 damage (reading)
    ("hit", 6, 2, 1, 8), ("hit", 6, -2, 1, 4),
    ("hit", 1, -5, 1, 0),         # never below 0 (default minimum)
    ("cs", 1, 0, 4, 11), ("cs", 4, 0, 4, 14), ("cs", 4, -2, 4, 12),   # + 10
    ("os", 10, 0, 4, 28),         # (10 + 4 for level 4) x 2
    ("os", 10, 3, 15, 56),        # (10 + 3 + 15) x 2
    ("os", 10, 0, 1, 22),
])
def test_damage(attack, outcome, second, modifier, level, expected):
    o = next(x for x in attack.outcomes if x.id == outcome)
    assert damage(attack, o, second, modifier, level) == expected


def test_no_damage_for_misses_and_fumbles(attack):
    for o in attack.outcomes:
        if not o.hit:
            assert damage(attack, o, 5, 0, 1) is None


def test_odds_for_sd_30_are_exact(attack):
    assert outcome_odds(attack, 30) == {
        "os": Fraction(1, 100), "cs": Fraction(4, 100), "hit": Fraction(26, 100),
        "miss": Fraction(64, 100), "cf": Fraction(4, 100), "tf": Fraction(1, 100)}


@pytest.mark.parametrize("sd", range(0, 101))
def test_odds_sum_to_one_and_hits_are_reads_05_to_sd(attack, sd):
    odds = outcome_odds(attack, sd)
    assert sum(odds.values()) == 1
    assert odds["hit"] == Fraction(max(0, min(sd, 94) - 4), 100)
    assert odds["os"] == Fraction(1, 100) and odds["tf"] == Fraction(1, 100)


def test_reads_of_each_outcome(attack):
    reads = outcome_reads(attack, 30)
    assert ranges(reads["os"]) == "00"
    assert ranges(reads["cs"]) == "01-04"
    assert ranges(reads["hit"]) == "05-30"
    assert ranges(reads["miss"]) == "31-94"
    assert ranges(reads["cf"]) == "95-98"
    assert ranges(reads["tf"]) == "99"


def test_damage_ranges_for_a_weapon(attack):
    assert damage_range(attack, "hit", 30, 1, 4) == (2, 11)
    assert damage_range(attack, "cs", 30, 1, 4) == (12, 15)
    assert damage_range(attack, "os", 30, 1, 4) == (30, 30)
    assert damage_range(attack, "hit", 4, 0, 4) is None    # no read 05-04 hits
    assert damage_range(attack, "hit", 7, 0, 1) == (5, 7)  # reads 05-07: second die 5-7


def test_enumeration_matches_a_large_seeded_simulation(attack):
    # 200,000 attacks at SD 47. Each outcome's count is binomial; 5 standard errors
    # (at most 0.0056 here) is a bound a correct roller exceeds about once in 3.5 million.
    n, sd = 200_000, 47
    rng = random.Random(2024)
    counts = dict.fromkeys(outcome_odds(attack, sd), 0)
    for _ in range(n):
        counts[classify(attack, roll_die(rng, 10), roll_die(rng, 10), sd).id] += 1
    for k, p in outcome_odds(attack, sd).items():
        assert abs(counts[k] / n - float(p)) <= 5 * math.sqrt(float(p * (1 - p)) / n), k


@pytest.mark.parametrize("level, damage_", [(1, 10), (3, 10), (4, 9), (6, 9), (7, 8), (9, 8), (10, 7), (12, 7),
                                            (13, 6), (15, 6)])
def test_critical_fumble_damage_by_level(kotm, level, damage_):
    assert kotm.rules.critical_fumble_damage(level) == damage_


@pytest.mark.parametrize("level, sc", [(1, 5), (5, 5), (6, 6), (7, 7), (15, 15)])
def test_save_check_is_five_or_the_level(kotm, level, sc):
    assert kotm.rules.save_check(level) == sc
