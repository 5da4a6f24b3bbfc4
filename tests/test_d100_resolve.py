"""D100 II resolution: degrees of success, the automatic results, resistance and opposed rolls."""

import math
import random
from fractions import Fraction

import pytest

from chargen.dice import Roller, roll_die
from chargen.errors import OptionError
from chargen.systems.d100.degrees import (degree, degree_odds, degree_ranges, opposed_chances,
                                          resistance_chance)
from chargen.systems.d100.resolve import ROLL_OPTIONS, resolve
from tests.conftest import scripted


@pytest.mark.parametrize("chance, ranges", [
    (50, {"critical": (1, 3), "special": (1, 10), "success": (1, 50), "fumble": (98, 100)}),   # 2.5 -> 3
    (5, {"critical": (1, 1), "special": (1, 1), "success": (1, 5), "fumble": (96, 100)}),
    (71, {"critical": (1, 4), "special": (1, 14), "success": (1, 71), "fumble": (100, 100)}),
    (65, {"critical": (1, 3), "special": (1, 13), "success": (1, 65), "fumble": (99, 100)}),
    (0, {"critical": (1, 1), "special": (1, 1), "success": (1, 5), "fumble": (96, 100)}),
    (100, {"critical": (1, 5), "special": (1, 20), "success": (1, 95), "fumble": (100, 100)}),
    (110, {"critical": (1, 6), "special": (1, 22), "success": (1, 95), "fumble": (100, 100)}),
    (10, {"critical": (1, 1), "special": (1, 2), "success": (1, 10), "fumble": (96, 100)}),   # 0.5 -> 1
    (30, {"critical": (1, 2), "special": (1, 6), "success": (1, 30), "fumble": (97, 100)}),   # 1.5 -> 2; 3.5 -> 4
])
def test_degree_ranges(chance, ranges):
    assert degree_ranges(chance) == ranges


@pytest.mark.parametrize("roll, chance, result", [
    (1, 0, "critical"), (2, 0, "success"), (5, 0, "success"), (6, 0, "failure"), (95, 0, "failure"),
    (96, 0, "fumble"), (100, 0, "fumble"),
    (1, 65, "critical"), (3, 65, "critical"), (4, 65, "special"), (13, 65, "special"), (14, 65, "success"),
    (65, 65, "success"), (66, 65, "failure"), (95, 65, "failure"), (96, 65, "failure"), (98, 65, "failure"),
    (99, 65, "fumble"), (100, 65, "fumble"),
    (95, 120, "success"), (96, 120, "failure"), (99, 120, "failure"), (100, 120, "fumble"),
    (5, 200, "critical"), (10, 200, "critical"), (11, 200, "special"),
])
def test_degree_of_a_roll(roll, chance, result):
    assert degree(roll, chance) == result


@pytest.mark.parametrize("chance", [0, 5, 30, 50, 65, 71, 95, 96, 100, 150, 1000])
def test_degree_odds_sum_to_one(chance):
    odds = degree_odds(chance)
    assert sum(odds.values()) == 1
    assert odds["critical"] >= Fraction(1, 100) and odds["fumble"] >= Fraction(1, 100)
    assert Fraction(5, 100) <= odds["critical"] + odds["special"] + odds["success"] <= Fraction(95, 100)


def test_odds_for_65():
    assert degree_odds(65) == {"critical": Fraction(3, 100), "special": Fraction(10, 100),
                               "success": Fraction(52, 100), "failure": Fraction(33, 100),
                               "fumble": Fraction(2, 100)}


def test_degree_odds_match_a_large_seeded_simulation():
    n, chance = 200_000, 65
    rng = random.Random(81)
    by_face = [None] + [degree(face, chance) for face in range(1, 101)]
    counts = dict.fromkeys(degree_odds(chance), 0)
    for _ in range(n):
        counts[by_face[roll_die(rng, 100)]] += 1
    for k, p in degree_odds(chance).items():
        assert abs(counts[k] / n - float(p)) <= 5 * math.sqrt(float(p * (1 - p)) / n), k


def test_resistance_and_opposed_chances():
    assert resistance_chance(12, 14) == 40      # the seed's example
    assert resistance_chance(14, 12) == 60
    assert opposed_chances(110, 120) == (90, 110)   # the seed's example
    assert opposed_chances(60, 120) == (40, 120)
    assert opposed_chances(50, 60) == (50, 60)


def options(**given):
    base = dict.fromkeys(ROLL_OPTIONS)
    base.update(given)
    return base


def test_skill_roll_trail():
    r = resolve(None, scripted((100, 4)), options(chance=65))
    assert r.text() == ("D100 roll (chance 65): special\n"
                        "  roll 1D100 [4] -> 04: Special - 04 is at or under 65 "
                        "(critical 01-03, special 01-13, success 01-65, fumble 99-00)\n")
    assert r.result["succeeded"] and r.result["ranges"]["fumble"] == [99, 100]


def test_automatic_results_are_named():
    assert "00 is always a fumble" in resolve(None, scripted((100, 100)), options(chance=200)).steps[0].text
    assert "96-99 always fail" in resolve(None, scripted((100, 97)), options(chance=200)).steps[0].text
    assert "02-05 always succeed" in resolve(None, scripted((100, 4)), options(chance=0)).steps[0].text
    assert "01 is always a critical" in resolve(None, scripted((100, 1)), options(chance=0)).steps[0].text


def test_resistance_roll():
    r = resolve(None, scripted((100, 40)), options(active=12, passive=14))
    assert r.summary == "D100 resistance roll (12 against 14, chance 40): success, the active side wins"
    assert r.steps[0].text == "50% - 5% x 2 = 40%"


def test_opposed_roll_rolls_both_sides():
    r = resolve(None, scripted((100, 91), (100, 100)), options(chance=110, against=120))
    assert r.summary == "D100 opposed roll (110 against 120, modified 90 and 110): A failure, B fumble"
    assert (r.result["a"]["chance"], r.result["b"]["chance"]) == (90, 110)


def test_seeded_roll():
    r = resolve(None, Roller(random.Random(1)), options(chance=65))
    assert (r.result["roll"], r.outcome) == (14, "success")


@pytest.mark.parametrize("given, message", [
    ({}, "--system d100 needs --chance N (or --active N --passive N for a resistance roll)"),
    ({"against": 50}, "--system d100 needs --chance N (or --active N --passive N for a resistance roll)"),
    ({"active": 12}, "a resistance roll needs --passive"),
    ({"passive": 12}, "a resistance roll needs --active"),
    ({"chance": 50, "active": 3}, "--chance (a skill roll) and --active/--passive (a resistance roll) are two "
                                  "kinds of roll; give one"),
    ({"chance": 1001}, "--chance 1001 is out of range (0 to 1000)"),
    ({"chance": -1}, "--chance -1 is out of range (0 to 1000)"),
])
def test_option_errors(given, message):
    with pytest.raises(OptionError) as e:
        resolve(None, scripted(), options(**given))
    assert str(e.value) == message
