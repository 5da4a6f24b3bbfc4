"""An RTD exchange between two saved characters: the seed's to hit, dodge/block/parry, crushing and
critical hits with the characters' weapons, and the wound each blow makes to a body part
(wounding.yaml, source: default); odds by the same code."""

from fractions import Fraction

import pytest

from chargen.combat import Choices, attack_odds
from chargen.errors import OptionError
from chargen.generate import make_character
from chargen.rules import load_builtin
from chargen.systems.rtd.attack import attack
from tests.test_d100_attack import Script

RTD = load_builtin("rtd")
A, D = make_character(RTD, 42, 0), make_character(RTD, 42, 1)  # Tad Oakley (spear 6) and Bram Eskdale


def hit(*faces, **choices):
    script = Script(*faces)
    res = attack(RTD.rules, script, A, D, Choices(**choices))
    assert not script.values
    return res


def test_a_crushing_hit_does_1_2x_the_weapons_damage_to_the_part_a_die_picks():
    res = hit(5, 2, 2)  # to hit 5: Crushing Hit; dodge 2: no dodge; part 2: torso
    assert res.result["tally"]["defender"] == "broken"  # 6 x 1.2 = 7.2 -> 7: Broken (7-9)
    assert res.steps[-1].row == "Torso" and res.steps[-1].text == "7 damage: Broken"


def test_a_glancing_hit_and_a_dodge():
    assert hit(3, 1, 1).result["tally"]["defender"] == "moderately_wounded"  # 6 x 0.8 = 4.8 -> 5
    assert hit(4, 5).result["tally"]["defender"] == "unwounded"               # dodged


def test_an_epic_hit_rolls_the_critical_chart():
    assert hit(6, 2, 2, 1).result["tally"]["critical"] == "yes"   # chart 2: critical, 12 damage: mangled
    assert hit(6, 2, 2, 1).result["tally"]["defender"] == "mangled"
    assert hit(6, 2, 1, 1).result["tally"]["defender"] == "broken"  # chart 1: 1.4x = 8.4 -> 8


def test_a_parry_counterattacks_with_the_defenders_weapon_and_the_parry_bonus():
    res = hit(4, 6, 4, 3)  # parried; counter to hit 4 (successful hit); part 3: left arm
    dmg = int(next(w for w in D["weapons"])["damage"]) + 3
    assert res.result["tally"]["attacker"] == RTD.rules.wounding.wound(dmg)


def test_reading_a_lopped_off_important_part_kills():
    big = dict(A, weapons=[dict(A["weapons"][0], damage=20)])
    res = attack(RTD.rules, Script(4, 1, 1), big, D, Choices())
    assert res.result["tally"]["defender"] == "dead"
    res = attack(RTD.rules, Script(4, 1, 3), big, D, Choices())
    assert res.result["tally"]["defender"] == "lopped_off"


def test_parry_none_means_no_dodge_and_the_rest_does_not_apply():
    assert hit(4, 2, parry="none").result["tally"]["dodge"] == "none"
    with pytest.raises(OptionError, match="--defence does not apply to RTD"):
        hit(defence=5)


def test_odds_sum_to_one_and_the_to_hit_rows_are_even():
    odds = attack_odds(RTD, A, D, Choices())
    assert all(sum(t.values()) == 1 for t in odds.values())
    assert set(odds["to hit"].values()) == {Fraction(1, 6)}
