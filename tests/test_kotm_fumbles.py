"""The Total Failure fumble table: every row, the extra-roll rows, and the termination bound."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chargen.dice import Roller
from chargen.errors import TooManyRolls
from chargen.systems.kotm.resolve import fumble_chain
from tests.conftest import d, scripted

ROWS = [
    ("1-25", "distracted"), ("26-39", "clumsy"), ("40-50", "very_clumsy"), ("51-53", "useless"),
    ("54-57", "dazed"), ("58-59", "stunned"), ("60", "unconscious"), ("61-62", "inept"), ("63-65", "very_inept"),
    ("66-67", "klutz"), ("68-69", "dangerous_klutz"), ("70", "untrained"), ("71", "vulnerable"),
    ("72", "knocked_silly"), ("73-74", "poor_judgment"), ("75-76", "blocked_with_hand"), ("77-79", "embarrassing"),
    ("80", "staggering_in_pain"), ("81", "numbness"), ("82", "irritating"), ("83", "very_irritating"),
    ("84-85", "fool"), ("86", "useless_fool"), ("87-88", "moron"), ("89", "useless_moron"),
    ("90", "complete_moron"), ("91-93", "unaware"), ("94-96", "unaware_moron"), ("97", "bad"), ("98", "very_bad"),
    ("99", "even_worse"), ("00", "disastrous"),
]


def faces_of(read: int) -> tuple[int, int]:
    """The two d10 faces that read ``read`` on the fumble table (100 is "00")."""
    tens, units = divmod(read % 100, 10)
    return (tens or 10, units or 10)


def reads(*values: int) -> list[tuple[int, int]]:
    out = []
    for v in values:
        out += d(10, *faces_of(v))
    return out


@pytest.fixture(scope="module")
def table(kotm):
    return kotm.rules.fumbles


@pytest.mark.parametrize("roll, row_id", ROWS)
def test_every_row_at_its_boundaries(table, roll, row_id):
    low, _, high = roll.partition("-")
    for text in (low, high or low):
        read = 100 if text == "00" else int(text)
        assert table.lookup(read).id == row_id
        assert table.read(*faces_of(read)) == read


def test_the_table_reads_10_10_as_00_the_last_row(table):
    assert table.read(10, 10) == 100
    assert table.read(10, 1) == 1
    assert table.rows[-1].roll_label == "00"


def statuses(entries):
    return [(e.read, e.row.id, e.status, e.depth) for e in entries]


def test_a_plain_row_is_one_roll(table):
    assert statuses(fumble_chain(table, scripted(*reads(37)))) == [(37, "clumsy", "applied", 0)]


def test_dice_in_a_row_are_rolled(table):
    entries = fumble_chain(table, scripted(*reads(58), (4, 3)))
    assert entries[0].extra == (("rounds", "1D4", 3),)


def test_bad_ignores_97_to_00_in_its_two_rolls(table):
    entries = fumble_chain(table, scripted(*reads(97, 98, 10)))
    assert statuses(entries) == [(97, "bad", "applied", 0), (98, "very_bad", "ignored", 1),
                                 (10, "distracted", "applied", 1)]


def test_very_bad_rerolls_when_it_comes_up_again(table):
    entries = fumble_chain(table, scripted(*reads(98, 98, 44, 11)))
    assert statuses(entries) == [(98, "very_bad", "applied", 0), (98, "very_bad", "rerolled", 1),
                                 (44, "very_clumsy", "applied", 1), (11, "distracted", "applied", 1)]


def test_even_worse_rolls_three_times_and_rerolls_repeats(table):
    entries = fumble_chain(table, scripted(*reads(99, 99, 1, 2, 3)))
    assert [e.status for e in entries] == ["applied", "rerolled", "applied", "applied", "applied"]
    assert [e.depth for e in entries] == [0, 1, 1, 1, 1]


def test_a_repeat_counts_anywhere_in_the_same_total_failure(table):
    # 99 -> its roll 98 -> that roll's 99 is a repeat of the first 99: re-rolled.
    entries = fumble_chain(table, scripted(*reads(99, 98, 99, 5, 6, 7, 8)))
    assert statuses(entries) == [
        (99, "even_worse", "applied", 0), (98, "very_bad", "applied", 1), (99, "even_worse", "rerolled", 2),
        (5, "distracted", "applied", 2), (6, "distracted", "applied", 2),
        (7, "distracted", "applied", 1), (8, "distracted", "applied", 1)]


def test_disastrous_adds_two_rolls_once_then_rerolls(table):
    entries = fumble_chain(table, scripted(*reads(100, 100, 100, 51, 71, 80, 12)))
    assert statuses(entries) == [
        (100, "disastrous", "applied", 0),
        (100, "disastrous", "adds_rolls", 1),        # "add TWO more rolls (one time only)"
        (100, "disastrous", "rerolled", 2),          # a third 00: re-rolled
        (51, "useless", "applied", 2), (71, "vulnerable", "applied", 2),
        (80, "staggering_in_pain", "applied", 1), (12, "distracted", "applied", 1)]


def test_missile_weapons_roll_again_on_inept(table):
    entries = fumble_chain(table, scripted(*reads(61, 33)), frozenset({"missile"}))
    assert statuses(entries) == [(61, "inept", "condition", 0), (33, "clumsy", "applied", 0)]
    entries = fumble_chain(table, scripted(*reads(62), (20, 17)))
    assert statuses(entries) == [(62, "inept", "applied", 0)]
    assert entries[0].extra == (("feet", "1D20", 17),)


def test_no_helm_rolls_again_on_knocked_silly(table):
    entries = fumble_chain(table, scripted(*reads(72, 40)), frozenset({"no_helm"}))
    assert [e.status for e in entries] == ["condition", "applied"]


WORST = [99, 98, 97, 50, 50, 97, 50, 50, 100, 100, 97, 50, 50, 97, 50, 50, 97, 50, 50, 97, 50, 50, 97, 50, 50]


def test_the_longest_total_failure_makes_25_rolls(table):
    entries = fumble_chain(table, scripted(*reads(*WORST)))
    assert len(entries) == 25
    assert all(e.status != "rerolled" for e in entries)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([97, 98, 99, 100, 50, 61]), min_size=150, max_size=150))
def test_never_more_than_25_rolls_besides_rerolls(table, sequence):
    try:
        entries = fumble_chain(table, scripted(*reads(*sequence)), frozenset({"missile"}))
    except TooManyRolls:
        return
    assert sum(e.status not in ("rerolled", "condition") for e in entries) <= 25


class Always(random.Random):
    """Faces 9 then 8 forever: the fumble table's 98 on every roll."""

    def __init__(self):
        super().__init__(0)
        self.n = 0

    def random(self) -> float:
        self.n += 1
        return 0.85 if self.n % 2 else 0.75


def test_endless_rerolls_stop_at_the_budget(table):
    with pytest.raises(TooManyRolls) as e:
        fumble_chain(table, Roller(Always()))
    assert str(e.value) == ("the fumble table was rolled more than 100 times for one Total Failure "
                            "(max_rolls in rules/kotm/fumbles.yaml); a reroll rule loops")
