"""A KoTM attack between two saved characters: the seed's roll, OS/CS/CF/TF and damage, with the
attacker's SD, level and weapon modifier from his document; odds by the same code."""

import pytest

from chargen.combat import Choices, RolledDraws, attack_odds
from chargen.dice import Roller, new_rng
from chargen.errors import CharacterError, OptionError
from chargen.generate import make_character
from chargen.rules import load_builtin
from chargen.systems.kotm.combat import attack
from chargen.systems.kotm.mechanics import outcome_odds
from tests.test_d100_attack import Script

KOTM = load_builtin("kotm")
A, D = make_character(KOTM, 42, 0), make_character(KOTM, 42, 1)  # Hale Blackthorn: SD 50, level 12, spear +1


def hit(*faces, **choices):
    script = Script(*faces)
    res = attack(KOTM.rules, script, A, D, Choices(**choices))
    assert not script.values
    return res


def test_a_hit_does_the_second_die_plus_the_weapons_modifier():
    res = hit(3, 2, weapon="spear")
    assert res.outcome == "hit" and res.result["tally"]["damage"] == "3"
    assert res.steps[0].text == "SD 50, level 12, damage modifier +1"


def test_os_cs_and_cf_by_the_seed():
    assert hit(10, 10).result["tally"]["damage"] == str((10 + 1 + 12) * 2)  # OS: (die + mod + level) x 2
    assert hit(10, 3).result["tally"]["damage"] == str(3 + 1 + 10)        # CS: + 10
    assert hit(9, 6).result["tally"]["self damage"] == "7"                # CF at level 12: 10 - 3


def test_a_total_failure_rolls_the_fumble_table_at_the_table():
    rng = new_rng(1)
    for _ in range(400):
        res = attack(KOTM.rules, RolledDraws(Roller(rng)), A, D, Choices())
        if res.outcome == "tf":
            break
    assert res.outcome == "tf" and res.result["tally"]["fumble"] != "none"
    assert any(s.table.startswith("fumble table #1") for s in res.steps)


def test_odds_of_the_attack_are_the_sheets_outcome_odds():
    odds = attack_odds(KOTM, A, D, Choices())
    assert odds["attack"] == {k: v for k, v in outcome_odds(KOTM.rules.attack, 50).items() if v}
    assert sum(odds["fumble"].values()) == 1


def test_parry_defence_and_aim_do_not_apply_and_an_unknown_weapon_is_an_error():
    for choice in ({"parry": "none"}, {"defence": 5}, {"aim": "head"}):
        with pytest.raises(OptionError, match="does not apply to KoTM"):
            hit(**choice)
    with pytest.raises(CharacterError, match="Hale Blackthorn has no weapon 'axe' \\(weapons: spear, short_bow\\)"):
        hit(weapon="axe")
