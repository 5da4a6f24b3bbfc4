"""Degrees of success: exact ranges for many chances, and the seed's automatic results."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chargen.systems.d100.degrees import (
    CRITICAL, FAILURE, FUMBLE, SPECIAL, SUCCESS, DegreeRanges, degree_ranges, round_half_up,
)

# chance: (critical up to, special up to, success up to, fumble from); 100 is "00".
EXACT = {
    -1000: (1, 1, 5, 46),   # n = 1100/20 = 55
    -20: (1, 1, 5, 95),     # n = 120/20 = 6: 95 fumbles, not one of the automatic 96-99
    0: (1, 1, 5, 96),       # n = 5
    1: (1, 1, 5, 96),       # 0.05 and 0.2 round to 0: at least 01; n = 4.95 -> 5
    5: (1, 1, 5, 96),       # reference: chance 05 -> fumble 96-00
    10: (1, 2, 10, 96),     # 0.5 rounds half up to 1; n = 4.5 -> 5
    29: (1, 6, 29, 97),     # 1.45 -> 1, 5.8 -> 6; n = 3.55 -> 4
    30: (2, 6, 30, 97),     # 1.5 -> 2; n = 3.5 -> 4
    50: (3, 10, 50, 98),    # reference: chance 50 -> fumble 98-00
    71: (4, 14, 71, 100),   # reference: chance 71 -> fumble 00 alone
    90: (5, 18, 90, 100),   # 4.5 -> 5; n = 0.5 -> 1
    95: (5, 19, 95, 100),
    100: (5, 20, 95, 100),  # 96-99 always fail, 00 always fumbles
    120: (6, 24, 95, 100),
    1000: (50, 95, 95, 100),  # the special never passes the success range
}


@pytest.mark.parametrize("chance", sorted(EXACT))
def test_exact_ranges(chance):
    r = degree_ranges(chance)
    assert (r.critical, r.special, r.success, r.fumble) == EXACT[chance]
    assert r.chance == chance


def test_round_half_up():
    assert [round_half_up(n, 20) for n in (9, 10, 29, 30, 49, 50)] == [0, 1, 1, 2, 2, 3]
    assert round_half_up(5, 2) == 3  # Python's round(2.5) would give 2


@pytest.mark.parametrize("chance,counts", [
    (50, {CRITICAL: 3, SPECIAL: 7, SUCCESS: 40, FAILURE: 47, FUMBLE: 3}),
    (5, {CRITICAL: 1, SUCCESS: 4, FAILURE: 90, FUMBLE: 5}),
    (100, {CRITICAL: 5, SPECIAL: 15, SUCCESS: 75, FAILURE: 4, FUMBLE: 1}),
])
def test_distribution_by_enumeration(chance, counts):
    r = degree_ranges(chance)
    assert Counter(r.degree(roll) for roll in range(1, 101)) == counts


def test_degree_of_roll_bounds():
    r = degree_ranges(50)
    assert [r.degree(x) for x in (1, 3, 4, 10, 11, 50, 51, 97, 98, 100)] == [
        CRITICAL, CRITICAL, SPECIAL, SPECIAL, SUCCESS, SUCCESS, FAILURE, FAILURE, FUMBLE, FUMBLE]
    with pytest.raises(ValueError, match=r"a D100 roll is 1-100 \(00 is 100\), not 0"):
        r.degree(0)
    with pytest.raises(ValueError):
        r.degree(101)


@given(st.integers(-1000, 1000))
def test_automatic_results_hold_for_any_chance(chance):
    r = degree_ranges(chance)
    assert isinstance(r, DegreeRanges)
    assert r.degree(1) == CRITICAL
    assert all(r.degree(x) in (CRITICAL, SPECIAL, SUCCESS) for x in range(2, 6))
    assert all(r.degree(x) in (FAILURE, FUMBLE) for x in range(96, 100))
    assert r.degree(100) == FUMBLE
    assert 1 <= r.critical <= r.special <= r.success < r.fumble <= 100


@given(st.integers(-1000, 999))
def test_ranges_grow_with_the_chance(chance):
    low, high = degree_ranges(chance), degree_ranges(chance + 1)
    assert low.critical <= high.critical and low.special <= high.special
    assert low.success <= high.success and low.fumble <= high.fumble
