"""The shared pieces of resolution: Roller.faces, exact-odds formatting, the step trail."""

import random
from fractions import Fraction

from chargen.dice import Roller
from chargen.resolve import Step, odds_entry, percent


def test_faces_rolls_one_logged_record_and_returns_each_face():
    roller = Roller(random.Random(3))
    faces = roller.faces(2, 10, "attack")
    assert faces == (3, 6)   # the die primitive's first two d10 for seed 3
    assert roller.log[-1].to_dict() == {"for": "attack", "dice": "2D10", "rolled": [3, 6], "total": 9}
    assert roller.used == 2


def test_percent_and_odds_entry():
    assert percent(Fraction(1, 2)) == "50%"
    assert percent(Fraction(13, 15)) == "86.67%"
    assert percent(Fraction(1, 80)) == "1.25%"
    assert percent(Fraction(0)) == "0%"
    assert odds_entry(Fraction(7, 10)) == {"fraction": "7/10", "value": 0.7, "percent": "70%"}


def test_step_lines_indent_by_depth():
    assert Step("roll", "Success", "1D100", (14,), "14", "fine").line() == "  roll 1D100 [14] -> 14: Success - fine"
    assert Step("damage", "Hit", depth=1).line() == "    damage: Hit"
