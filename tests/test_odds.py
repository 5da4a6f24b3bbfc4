from fractions import Fraction

import pytest

from chargen.errors import TooManyRolls
from chargen.odds import enumerate_draws


def test_two_d6_sum_is_the_triangle():
    odds = enumerate_draws(lambda draw: draw(6, "a") + draw(6, "b"))
    assert odds == {s: Fraction(6 - abs(s - 7), 36) for s in range(2, 13)}


def test_draws_that_depend_on_earlier_faces_are_weighted_by_their_own_die():
    # Roll a D4; on a 4 roll a D10 more. P(total = 4 + k) = 1/4 * 1/10.
    def proc(draw):
        first = draw(4, "first")
        return first + (draw(10, "more") if first == 4 else 0)
    odds = enumerate_draws(proc)
    assert odds[1] == odds[2] == odds[3] == Fraction(1, 4)
    assert all(odds[4 + k] == Fraction(1, 40) for k in range(1, 11))
    assert sum(odds.values()) == 1


def test_a_procedure_without_dice_is_certain():
    assert enumerate_draws(lambda draw: "x") == {"x": Fraction(1)}


def test_unbounded_procedures_stop_at_the_draw_limit():
    def explode(draw):
        while draw(2, "again") == 2:
            pass
        return 0
    with pytest.raises(TooManyRolls, match="more than 5 dice"):
        enumerate_draws(explode, max_draws=5)
