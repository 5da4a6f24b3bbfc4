"""Dice notation, the die primitive, the roller's budget and log."""

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chargen.dice import MAX_DICE_PER_EXPRESSION, Roller, parse, roll_die
from chargen.errors import DiceError, TooManyRolls


@pytest.mark.parametrize("text, canonical, lo, hi", [
    ("3D6", "3D6", 3, 18),
    ("2D6+6", "2D6+6", 8, 18),
    ("D100", "1D100", 1, 100),
    ("d%", "1D100", 1, 100),
    ("1D4+1D6", "1D4+1D6", 2, 10),
    ("-1D4", "-1D4", -4, -1),
    ("5", "5", 5, 5),
    ("2d6 - 1", "2D6-1", 1, 11),
    ("+1D6", "1D6", 1, 6),
    ("1D8+1D4-2", "1D8+1D4-2", 0, 10),
])
def test_parse_canonical_and_bounds(text, canonical, lo, hi):
    d = parse(text)
    assert str(d) == canonical
    assert (d.minimum, d.maximum) == (lo, hi)


@pytest.mark.parametrize("text, message", [
    ("", "empty dice expression (expected notation such as '3D6')"),
    ("3D", "malformed dice '3D': unexpected 'D' at character 2 (expected notation such as '3D6', '2D6+6', 'D100', '1D4+1D6')"),
    ("3D6+", "malformed dice '3D6+': it ends too soon (expected notation such as '3D6', '2D6+6', 'D100', '1D4+1D6')"),
    ("2D0", "dice '2D0': a die of 0 sides (expected 1 to 1000)"),
    ("0D6", "dice '0D6': 0 dice in one term (expected 1 to 1000)"),
    ("1000000D1000000", "dice '1000000D1000000': 1000000 dice in one term (expected 1 to 1000)"),
    ("600D6+600D6", "dice '600D6+600D6' rolls 1200 dice (at most 1000)"),
    ("1D6+9999999", "dice '1D6+9999999': constant 9999999 is too large (at most 1000000)"),
    ("1D6" * 40, "dice expression is too long (120 characters, at most 100)"),
])
def test_parse_errors_are_exact(text, message):
    with pytest.raises(DiceError) as e:
        parse(text)
    assert str(e.value) == message


def test_huge_digit_strings_fail_fast():
    with pytest.raises(DiceError):
        parse("9" * 90 + "D6")


def test_die_primitive_pins_first_outputs():
    rng = random.Random(42)
    assert [roll_die(rng, 6) for _ in range(10)] == [4, 1, 2, 2, 5, 5, 6, 1, 3, 1]
    rng = random.Random(42)
    assert [roll_die(rng, 100) for _ in range(10)] == [64, 3, 28, 23, 74, 68, 90, 9, 43, 3]


def test_d100_reads_01_to_100():
    class Edge:
        """A generator at the extremes of [0, 1)."""

        def __init__(self, values):
            self.values = iter(values)

        def random(self):
            return next(self.values)

    assert roll_die(Edge([0.0]), 100) == 1
    assert roll_die(Edge([0.999999999999]), 100) == 100
    faces = Counter(roll_die(random.Random(7), 100) for _ in range(1))
    rng = random.Random(7)
    faces = Counter(roll_die(rng, 100) for _ in range(20000))
    assert min(faces) == 1 and max(faces) == 100 and len(faces) == 100


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=1, max_value=1000))
def test_die_is_in_range(seed, sides):
    assert 1 <= roll_die(random.Random(seed), sides) <= sides


@given(st.integers(min_value=0, max_value=2**32), st.sampled_from(["3D6", "2D6+6", "1D4+1D6", "-1D4", "D100", "4D8-3"]))
def test_roll_within_expression_bounds_and_logged(seed, text):
    roller = Roller(random.Random(seed))
    total = roller.roll(text, "test")
    d = parse(text)
    assert d.minimum <= total <= d.maximum
    (record,) = roller.log
    assert record.purpose == "test" and record.expression == str(d)
    assert len(record.faces) == d.dice_count


def test_roll_log_records_every_die():
    roller = Roller(random.Random(1))
    assert roller.roll("3D6+2", "str") == 14
    assert roller.log[0].to_dict() == {"for": "str", "dice": "3D6+2", "rolled": [1, 6, 5], "total": 14}


def test_roll_budget_stops_runaway_rolling():
    roller = Roller(random.Random(1), budget=10)
    roller.roll("10D6", "ok")
    with pytest.raises(TooManyRolls, match="more than 10 dice rolled"):
        roller.die(6, "one too many")


def test_choose_is_logged_and_uniform():
    roller = Roller(random.Random(3))
    picks = Counter(roller.choose(["a", "b", "c"], "pick") for _ in range(3000))
    assert set(picks) == {"a", "b", "c"} and min(picks.values()) > 900
    assert roller.choose(["only"], "single") == "only"
    assert len(roller.log) == 3000  # a single option rolls nothing


def test_dice_arithmetic_merges_like_terms():
    assert str(parse("+2D6") + parse("+1D6").times(2)) == "4D6"
    assert str(parse("1D4+1") + parse("1D6-1")) == "1D4+1D6"
    assert MAX_DICE_PER_EXPRESSION == 1000
