"""chargen roll --system kotm: the attack with its trail of dice and rows."""

import pytest

from chargen.errors import OptionError
from chargen.systems.kotm.resolve import attack, resolve
from tests.conftest import d, scripted
from tests.test_kotm_fumbles import reads


def test_hit_shows_the_read_and_the_damage(kotm):
    r = attack(kotm.rules, scripted(*d(10, 2, 6)), sd=30, level=4)
    assert r.outcome == "hit"
    assert r.result["damage"] == 6
    assert r.text() == ("KoTM attack (SD 30, level 4): Hit, 6 damage\n"
                        "  attack 2D10 [2 6] -> 26: Hit - read 26 is at or under SD 30\n"
                        "  damage: Hit - second die 6 +0 = 6\n")


def test_outstanding_success(kotm):
    r = attack(kotm.rules, scripted(*d(10, 10, 10)), sd=30, level=4, modifier=1)
    assert (r.outcome, r.result["damage"], r.result["read"]) == ("os", 30, 0)
    assert r.steps[0].read == "00"
    assert r.steps[1].text == "(second die 10 +1 + 4 for level 4) x 2 = 30"


def test_critical_success(kotm):
    r = attack(kotm.rules, scripted(*d(10, 10, 3)), sd=30, level=4)
    assert (r.outcome, r.result["damage"]) == ("cs", 13)
    assert (r.steps[0].row, r.steps[0].text) == ("Critical Success (CS)", "faces 10 3, whatever the SD")


def test_miss(kotm):
    r = attack(kotm.rules, scripted(*d(10, 3, 1)), sd=30, level=4)
    assert (r.outcome, r.result["hit"], r.result["damage"]) == ("miss", False, None)
    assert r.steps[0].text == "read 31 is over SD 30"


def test_critical_fumble_damages_the_fumbler(kotm):
    r = attack(kotm.rules, scripted(*d(10, 9, 7)), sd=30, level=7)
    assert (r.outcome, r.result["self_damage"]) == ("cf", 8)
    assert r.summary == "KoTM attack (SD 30, level 7): Critical Fumble, 8 damage to self"


def test_total_failure_rolls_the_fumble_table(kotm):
    r = attack(kotm.rules, scripted(*d(10, 9, 9), *reads(97, 3, 99)), sd=30, level=4)
    assert r.outcome == "tf"
    assert [f["row"] for f in r.result["fumbles"]] == ["bad", "distracted", "even_worse"]
    assert r.summary == "KoTM attack (SD 30, level 4): Total Failure: Bad, Distracted"
    assert r.steps[3].line() == ("      fumble table #3 2D10 [9 9] -> 99: 99 Even Worse - "
                                 "ignored (rolled for Bad)")


def options(**given):
    base = dict.fromkeys(("sd", "level", "damage_mod", "missile", "no_helm"))
    base.update(given)
    return base


@pytest.mark.parametrize("given, message", [
    ({"level": 4}, "--system kotm needs --sd"),
    ({"sd": 30}, "--system kotm needs --level"),
    ({"sd": 30, "level": 16}, "--level 16 is out of range (1 to 15: KoTM levels)"),
    ({"sd": 30, "level": 0}, "--level 0 is out of range (1 to 15: KoTM levels)"),
    ({"sd": 101, "level": 1}, "--sd 101 is out of range (0 to 100: a read runs 00 to 99)"),
    ({"sd": 30, "level": 1, "damage_mod": 101}, "--damage-mod 101 is out of range (-100 to 100: a damage modifier)"),
])
def test_option_errors(kotm, given, message):
    with pytest.raises(OptionError) as e:
        resolve(kotm.rules, scripted(), options(**given))
    assert str(e.value) == message


def test_seeded_roll_is_reproducible(kotm):
    import random

    from chargen.dice import Roller

    a = resolve(kotm.rules, Roller(random.Random(5)), options(sd=30, level=4))
    b = resolve(kotm.rules, Roller(random.Random(5)), options(sd=30, level=4))
    assert a == b
