"""Degrees of success as the sheet shows them: exact ranges for many chances, automatic results hold."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chargen.systems.d100.degrees import degree, degree_ranges

# chance: (critical up to, special up to, success up to, fumble from); 100 is "00".
EXACT = {
    -1000: (1, 1, 5, 46),   # n = 1100/20 = 55
    -20: (1, 1, 5, 95),     # n = 120/20 = 6: 95 fumbles, though not one of the automatic 96-99
    0: (1, 1, 5, 96),       # n = 5
    1: (1, 1, 5, 96),       # 0.05 and 0.2 round to 0: at least 01; n = 4.95 -> 5
    5: (1, 1, 5, 96),       # reference: chance 05 -> fumble 96-00
    10: (1, 2, 10, 96),     # 0.5 rounds half up to 1; n = 4.5 -> 5
    29: (1, 6, 29, 97),     # 1.45 -> 1, 5.8 -> 6; n = 3.55 -> 4
    50: (3, 10, 50, 98),    # reference: chance 50 -> fumble 98-00
    71: (4, 14, 71, 100),   # reference: chance 71 -> fumble 00 alone
    90: (5, 18, 90, 100),   # 4.5 -> 5; n = 0.5 -> 1
    100: (5, 20, 95, 100),  # 96-99 always fail, 00 always fumbles
    120: (6, 24, 95, 100),
    1000: (50, 95, 95, 100),  # the special never passes the success range
}


@pytest.mark.parametrize("chance", sorted(EXACT))
def test_exact_ranges(chance):
    r = degree_ranges(chance)
    assert (r["critical"][0], r["special"][0], r["success"][0], r["fumble"][1]) == (1, 1, 1, 100)
    assert (r["critical"][1], r["special"][1], r["success"][1], r["fumble"][0]) == EXACT[chance]


@pytest.mark.parametrize("chance,counts", [
    (50, {"critical": 3, "special": 7, "success": 40, "failure": 47, "fumble": 3}),
    (5, {"critical": 1, "success": 4, "failure": 90, "fumble": 5}),
    (100, {"critical": 5, "special": 15, "success": 75, "failure": 4, "fumble": 1}),
    (1000, {"critical": 50, "special": 45, "failure": 4, "fumble": 1}),
])
def test_distribution_by_enumeration(chance, counts):
    assert Counter(degree(roll, chance) for roll in range(1, 101)) == counts


@given(st.integers(-1000, 1000))
def test_the_ranges_agree_with_the_degree_of_every_roll(chance):
    r = degree_ranges(chance)
    for roll in range(1, 101):
        expected = ("critical" if roll <= r["critical"][1] else "special" if roll <= r["special"][1]
                    else "success" if roll <= r["success"][1] else "fumble" if roll >= r["fumble"][0] else "failure")
        assert degree(roll, chance) == expected
    assert 1 <= r["critical"][1] <= r["special"][1] <= r["success"][1] < r["fumble"][0] <= 100


@given(st.integers(-1000, 999))
def test_ranges_grow_with_the_chance(chance):
    low, high = degree_ranges(chance), degree_ranges(chance + 1)
    assert all(low[k][1] <= high[k][1] for k in ("critical", "special", "success"))
    assert low["fumble"][0] <= high["fumble"][0]
