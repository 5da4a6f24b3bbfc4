"""RTD combat: to hit, dodge, criticals with the 6-against-1 rules, parries and damage."""

import random
from fractions import Fraction as F

import pytest

from chargen.dice import roll_die
from chargen.systems.rtd.combat import exchange, exchange_odds, round_half_up, strike_damage
from chargen.systems.rtd.resolve import resolve
from tests.conftest import scripted
from tests.test_rtd_actions import options
from tests.test_rtd_rolloffs import within


@pytest.fixture(scope="module")
def combat(rtd):
    return rtd.rules.combat


@pytest.mark.parametrize("face, row, mult", [
    (1, "miss", F(0)), (2, "block", F(0)), (3, "glancing_hit", F(4, 5)), (4, "successful_hit", F(1)),
    (5, "crushing_hit", F(6, 5)), (6, "epic_hit", F(7, 5)),
])
def test_to_hit_rows(combat, face, row, mult):
    r = combat.hit_row(face)
    assert (r.id, r.multiplier, r.critical) == (row, mult, face == 6)


@pytest.mark.parametrize("face, row", [(1, "no_dodge"), (3, "no_dodge"), (4, "dodge"), (5, "dodge"), (6, "parry")])
def test_dodge_rows(combat, face, row):
    assert combat.dodge_row(face).id == row


def test_critical_chart_rows(combat):
    assert [f for f in range(1, 13) if combat.is_critical(f)] == [2, 6, 10]   # row 8 is "No critical hit"


def test_a_critical_modifier_only_ever_helps(combat):
    assert [f for f in range(1, 13) if combat.is_critical(f, 1)] == [1, 2, 5, 6, 9, 10]
    assert not combat.is_critical(3, 1)    # the seed's example: a 3 does not become a 4
    assert [f for f in range(1, 13) if combat.is_critical(f, 2)] == [1, 2, 4, 5, 6, 8, 9, 10]


def ex(combat, *faces, **kw):
    """An exchange from faces: to hit, dodge, then whatever the rules roll next."""
    sides = {"th": 6, "dg": 6, "cr": 12}
    return exchange(combat, scripted(*((sides[k], f) for k, f in faces)).die, **kw)


def test_a_plain_hit(combat):
    e = ex(combat, ("th", 4), ("dg", 2))
    assert (e.attack.multiplier, e.attack.lands, e.counter) == (1, True, None)


def test_six_against_one_crits_without_the_chart(combat):
    e = ex(combat, ("th", 6), ("dg", 1))
    assert (e.attack.critical, e.attack.automatic, e.attack.multiplier, e.attack.critical_face) == (True, True, 2, None)


def test_an_epic_hit_rolls_the_critical_chart(combat):
    assert ex(combat, ("th", 6), ("dg", 3), ("cr", 2)).attack.multiplier == 2
    assert ex(combat, ("th", 6), ("dg", 3), ("cr", 3)).attack.multiplier == F(7, 5)
    assert ex(combat, ("th", 6), ("dg", 3), ("cr", 3), crit_mod=3).attack.multiplier == 2
    assert ex(combat, ("th", 6), ("cr", 10), dodge=False).attack.critical


def test_a_dodge_avoids_the_attack(combat):
    e = ex(combat, ("th", 5), ("dg", 4))
    assert (e.attack.lands, e.free_parry, e.counter) == (False, False, None)


def test_free_parry_after_a_miss_or_block(combat):
    e = ex(combat, ("th", 2), ("dg", 4), ("th", 3))
    assert e.free_parry and e.counter.multiplier == F(4, 5)
    e = ex(combat, ("th", 1), ("dg", 5), ("th", 1))
    assert e.free_parry and not e.counter.lands


def test_no_free_parry_on_a_dodge_below_4(combat):
    assert ex(combat, ("th", 2), ("dg", 3)).counter is None


def test_one_against_six_the_defender_parries_and_crits(combat):
    e = ex(combat, ("th", 1), ("dg", 6))
    assert (e.counter.critical, e.counter.automatic, e.counter.multiplier, e.counter.face) == (True, True, 2, None)


def test_a_parry_counterattacks_and_cannot_be_blocked(combat):
    e = ex(combat, ("th", 3), ("dg", 6), ("th", 2))
    assert not e.attack.lands and not e.free_parry
    assert (e.counter.row.id, e.counter.multiplier) == ("successful_hit", 1)
    e = ex(combat, ("th", 5), ("dg", 6), ("th", 6), ("cr", 10))
    assert e.counter.critical and e.counter.multiplier == 2


def test_damage_is_multiplied_rounded_half_up_and_parries_add_3(combat):
    assert round_half_up(F(5, 2)) == 3 and round_half_up(F(42, 5)) == 8
    e = ex(combat, ("th", 5), ("dg", 2))
    assert strike_damage(e.attack, 7) == 8                      # 7 x 1.2 = 8.4
    e = ex(combat, ("th", 1), ("dg", 6))
    assert strike_damage(e.counter, 5, combat.parry_bonus) == 13   # 5 x 2 + 3
    e = ex(combat, ("th", 6), ("dg", 1), crit_multiplier=F(5, 2))
    assert strike_damage(e.attack, 5) == 13                     # 12.5, a rapier's 2.5x


def test_exchange_odds_are_exact(combat):
    odds = exchange_odds(combat)
    assert sum(odds.values()) == 1
    attack = {}
    for (a, _), p in odds.items():
        attack[a] = attack.get(a, 0) + p
    assert attack == {F(2): F(1, 36) + F(2, 36) * F(3, 12), F(7, 5): F(2, 36) * F(9, 12), F(6, 5): F(3, 36),
                      F(1): F(3, 36), F(4, 5): F(3, 36), F(0): F(2, 3)}
    counter = sum(p for (_, c), p in odds.items() if c is not None)
    assert counter == F(6, 36) + F(4, 36)    # every parry, and a free parry on 1-2 against 4-5


def test_exchange_odds_match_a_large_seeded_simulation(combat):
    n = 100_000
    rng = random.Random(80)
    counts: dict = {}
    for _ in range(n):
        e = exchange(combat, lambda s, p: roll_die(rng, s))
        key = (e.attack.multiplier, e.counter.multiplier if e.counter else None)
        counts[key] = counts.get(key, 0) + 1
    for key, p in exchange_odds(combat).items():
        assert within(counts.get(key, 0), n, p), key


def test_resolved_attack_trail(rtd):
    r = resolve(rtd.rules, scripted((6, 3), (6, 6), (6, 6), (12, 10)), options(attack=True, damage=7, parry_damage=5))
    assert r.text() == (
        "RTD attack: Glancing Hit, avoided (Parry); counterattack Epic Hit, 2x +3 damage\n"
        "  attack to hit 1D6 [3] -> 3: Glancing Hit - You barely hit your target, 0.8x damage.\n"
        "  dodge 1D6 [6] -> 6: Parry - You parried the attack and counterattacked.\n"
        "    counterattack to hit 1D6 [6] -> 6: Epic Hit - Roll on the critical hit chart: 2x damage if it crits, "
        "1.4x if not.\n"
        "    counterattack critical chart 1D12 [10] -> 10: Critical hit - 2x damage\n"
        "    damage: counterattack - 5 x 2x + 3 (parry) = 13\n")
    assert r.result["counterattack"]["damage"] == 13


HOUSE_COMBAT = """
overlay: rtd
name: wider parries
changes:
  combat:
    set:
      free_parry.to_hit: 1-3
      free_parry.dodge: 5-6
      six_against_one.attack_crits: {to_hit: 5, dodge: 2}
      six_against_one.parry_crits: {to_hit: 2, dodge: 6}
"""


def _attack_text(module, *faces):
    from chargen.resolve import resolve
    from tests.conftest import d, scripted

    options = dict.fromkeys(("stat", "difficulty", "action", "bonus", "skill_xp", "skill_bonus", "choose_result",
                             "no_overshoot", "wound", "no_dodge", "damage", "parry_damage", "crit_mod"))
    return resolve(module, scripted(*d(6, *faces)), {**options, "attack": True}).text()


def test_the_roll_trail_states_the_house_rules_figures(write):
    from chargen.rules import load_module

    module = load_module("rtd", [write("house.yaml", HOUSE_COMBAT)])
    text = _attack_text(module, 3, 5, 4)   # a to-hit of 3 against a dodge of 5: a free parry only here
    assert "You dodged the attack. A to-hit of 1-3 against a dodge of 5+: free parry." in text
    assert "counterattack to hit 1D6 [4] -> 4: Successful hit" in text
    text = _attack_text(module, 5, 2)
    assert "attack critical: Critical hit - a to-hit of 5 against a dodge of 2: automatic, 2x damage" in text
    text = _attack_text(module, 2, 6)
    assert "counterattack critical: Critical hit - a to-hit of 2 against a parry of 6: automatic, 2x damage" in text


def test_the_roll_trail_states_the_seeds_figures(rtd):
    assert "A to-hit of 1-2 against a dodge of 4+: free parry." in _attack_text(rtd, 1, 4, 4)
