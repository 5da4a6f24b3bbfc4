"""One D100 II attack, rule by rule of the seed's COMBAT section (attacks.yaml, fumbles.yaml,
wounds.yaml): each test names the heading it holds, and each `reading:` in the data has its test.

The dice are scripted (:class:`Script` hands out the values in order), so each test pins what one
rule does with known faces; the odds tests compare the exact odds with a seeded sample.
"""

import copy

import pytest

from chargen.combat import Choices
from chargen.errors import CharacterError, OptionError
from chargen.rules import load_builtin
from chargen.systems.d100.attack import attack
from chargen.systems.d100.fighter import Spot, fighter, wound

RULES = load_builtin("d100").rules
T = RULES.attack


class Script:
    """Draws that hand out the given values in order, and note what was asked for."""

    def __init__(self, *values):
        self.values, self.asked = list(values), []

    def die(self, sides, purpose, key=None):
        self.asked.append((purpose, f"1D{sides}"))
        return self.values.pop(0)

    def roll(self, dice, purpose):
        self.asked.append((purpose, str(dice)))
        return self.values.pop(0)

    def faces(self):
        return ()


W = {
    "broadsword": {"id": "broadsword", "label": "Broadsword", "kind": "melee", "attack": 60, "parry": 50,
                   "damage": "1D8+1", "damage_modifier": "0", "sr": 7, "hp": 20, "special": "slash"},
    "mace": {"id": "mace", "label": "Mace", "kind": "melee", "attack": 60, "parry": 30, "damage": "1D6+2",
             "damage_modifier": "0", "sr": 7, "hp": 20, "special": "crush"},
    "short_spear": {"id": "short_spear", "label": "1H short spear", "kind": "melee", "attack": 60, "parry": 30,
                    "damage": "1D6+1", "damage_modifier": "+1D4", "sr": 6, "hp": 15, "special": "impale"},
    "dagger": {"id": "dagger", "label": "Dagger", "kind": "melee", "attack": 60, "parry": 20, "damage": "1D4+2",
               "damage_modifier": "0", "sr": 7, "hp": 12, "special": "impale"},
    "belt_knife": {"id": "belt_knife", "label": "Belt knife", "kind": "melee", "attack": 30, "parry": 45,
                   "damage": "1D3+1", "damage_modifier": "0", "sr": 7, "hp": 6, "special": "impale"},
    "medium_shield": {"id": "medium_shield", "label": "Medium shield", "kind": "shield", "attack": None,
                      "parry": 40, "damage": None, "ap": 12, "hp": 12},
    "javelin": {"id": "javelin", "label": "Javelin", "kind": "missile", "attack": 60, "parry": None,
                "damage": "1D8", "damage_modifier": "+1D2", "sr": None, "hp": 8, "special": "impale", "thrown": True},
}
HP = {"right_leg": 4, "left_leg": 4, "abdomen": 4, "chest": 5, "right_arm": 3, "left_arm": 3, "head": 4}


def doc(name, *weapons, hp=12, defence=0, ap=0, **spots):
    locs = [{"id": k, "hp": v, "ap": ap} for k, v in HP.items()]
    for spot, (h, a) in spots.items():
        locs = [dict(x, hp=h, ap=a) if x["id"] == spot else x for x in locs]
    return {"system": {"id": "d100", "engine": "d100", "name": "D100 II"}, "identity": {"name": name},
            "combat": {"hit_points": hp, "defence": defence}, "hit_locations": locs,
            "weapons": [copy.deepcopy(W[w]) for w in weapons]}


def hit(a, d, *values, **choices):
    script = Script(*values)
    res = attack(RULES, script, a, d, Choices(**choices))
    assert not script.values, f"dice left unused: {script.values}"
    return res, script


A = doc("Ulf", "broadsword")
D = doc("Bran", "broadsword", "medium_shield")


# -- Attacks ---------------------------------------------------------------------------------------

def test_attacks_a_success_strikes_a_location_for_damage_less_armour():
    d = doc("Bran", chest=(5, 2))
    res, script = hit(A, d, 30, 7, 12, weapon="broadsword")  # 30: success at 60; 7 damage; 12: chest
    assert res.result["tally"]["attack"] == "success" and res.result["defender"]["location"] == "chest"
    assert res.result["defender"]["through_armour"] == 5 and res.result["defender"]["hp_left"] == 7
    assert [p for p, _ in script.asked] == ["attack", "damage", "hit location"]


def test_attacks_a_failure_does_nothing_and_rolls_no_damage():
    res, script = hit(A, doc("Bran"), 80)
    assert res.result["tally"]["defender"] == "unhurt" and len(script.asked) == 1


def test_attacks_the_best_usable_weapon_by_default():
    a = doc("Ulf", "belt_knife", "broadsword")
    a["system"]["engine"] = "d100"
    res, _ = hit(a, doc("Bran"), 80)
    assert res.inputs["weapon"] == "broadsword"


# -- Defence ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("skill, defence, asked, chance", [
    (60, 13, None, 50),    # blocks of 5: 13 applies 10
    (60, 20, 5, 55),       # the defender applies what he chooses
    (60, -5, None, 60),    # a negative defence is not applied
    (110, 13, None, 110),  # the 10% over 100 comes off the 10 applied
    (105, 20, None, 90),   # 5% over 100: 20 - 5 = 15 applied
])
def test_defence_is_applied_in_blocks_of_5_and_reduced_by_a_chance_over_100(skill, defence, asked, chance):
    a = doc("Ulf", "broadsword")
    a["weapons"][0]["attack"] = skill
    res, _ = hit(a, doc("Bran", defence=defence), 96, defence=asked)
    assert res.result["chance"] == chance


def test_defence_more_than_the_defender_has_is_an_error():
    with pytest.raises(OptionError, match="--defence 25: Bran has a defence of 20"):
        hit(A, doc("Bran", defence=20), defence=25)


# -- Critical Hit ----------------------------------------------------------------------------------

def test_critical_hit_unparried_ignores_armour():
    res, _ = hit(A, doc("Bran", ap=6), 1, 7, 1, parry="none")  # 1: critical; 1: right leg
    assert res.result["defender"]["through_armour"] == 7


def test_critical_hit_parried_by_a_shield_doubles_the_damage_and_armour_counts():
    a = doc("Ulf", "mace")
    res, _ = hit(a, doc("Bran", "medium_shield", ap=1), 1, 10, 7, 12)  # crit, parry 10, 7 dmg, chest
    assert res.result["defender"]["damage"] == 2 and res.result["defender"]["through_armour"] == 1
    assert res.result["tally"]["parrying item"] == "broken"  # 14 exceeds the shield's 12 hit points


def test_critical_hit_with_a_dagger_does_not_damage_a_parrying_weapon():
    for weapon, tally in (("dagger", "intact"), ("mace", "broken")):
        res, _ = hit(doc("Ulf", weapon), doc("Bran", "belt_knife"), 1, 10, 6, 12)
        assert res.result["tally"]["parrying item"] == tally, weapon
        assert res.result["defender"]["damage"] == 6  # 12 doubled, less the knife's 6 hit points


# -- Impale ----------------------------------------------------------------------------------------

def test_impale_rolls_weapon_damage_plus_its_maximum_plus_the_modifier_and_sticks():
    a = doc("Ulf", "short_spear")
    res, script = hit(a, doc("Bran", chest=(20, 2)), 10, 3, 2, 12)  # 10: special at 60; 3 + 7 + 2 (1D4)
    assert res.result["defender"]["damage"] == 12 and res.result["tally"]["attacking weapon"] == "stuck"
    assert ("damage modifier", "1D4") in script.asked


def test_impale_that_does_not_penetrate_armour_does_not_stick():
    res, _ = hit(doc("Ulf", "short_spear"), doc("Bran", chest=(20, 12)), 10, 1, 1, 12)  # 1 + 7 + 1 = 9 < 12
    assert res.result["tally"]["attacking weapon"] == "intact" and res.result["tally"]["defender"] == "unhurt"


def test_reading_a_slash_is_an_impale_and_a_crush_takes_the_modifiers_maximum():
    res, _ = hit(doc("Ulf", "broadsword"), doc("Bran", chest=(30, 0)), 10, 5, 12)
    assert res.result["defender"]["damage"] == 5 + 9 and res.result["tally"]["attacking weapon"] == "stuck"
    mace = doc("Ulf", "mace")
    mace["weapons"][0]["damage_modifier"] = "+1D4"
    res, _ = hit(mace, doc("Bran", chest=(30, 0)), 10, 4, 12)  # 4 + the 1D4's maximum 4, no roll
    assert res.result["defender"]["damage"] == 8 and res.result["tally"]["attacking weapon"] == "intact"


def test_reading_a_critical_does_normal_damage_not_a_specials():
    res, _ = hit(doc("Ulf", "short_spear"), doc("Bran", chest=(30, 0)), 1, 3, 2, 12, parry="none")
    assert res.result["defender"]["damage"] == 5


# -- Fumbled Attack --------------------------------------------------------------------------------

def test_fumbled_attack_rolls_on_the_table_and_a_fumble_is_not_parried():
    res, script = hit(A, D, 100, 50)
    assert res.result["tally"]["fumble"] == "drop_weapon" and res.result["tally"]["attacking weapon"] == "dropped"
    assert res.result["tally"]["parry"] == "none" and [p for p, _ in script.asked] == ["attack", "fumble"]


def test_fumbled_attack_can_hit_the_attacker_himself():
    res, _ = hit(doc("Ulf", "broadsword"), D, 100, 95, 5, 12)  # hit self: 5 damage to his chest (5 points)
    assert res.result["tally"]["attacker"] == "dying" and res.result["tally"]["defender"] == "unhurt"


def test_fumbled_attack_can_break_or_damage_the_weapon():
    res, _ = hit(A, D, 100, 85)
    assert res.result["tally"]["attacking weapon"] == "broken"
    res, _ = hit(A, D, 100, 70, 9)  # the broadsword's own 9 against its 20 hit points
    assert res.result["tally"]["attacking weapon"] == "damaged"


# -- Parry -----------------------------------------------------------------------------------------

def test_reading_a_fumbled_parry_does_nothing():
    res, _ = hit(doc("Ulf", "mace"), doc("Bran", "medium_shield"), 30, 100, 6, 12)
    assert res.result["tally"]["parry"] == "not parried" and res.result["defender"]["damage"] == 6


def test_reading_the_defender_parries_with_his_best_item_and_a_shield_wins_a_tie():
    d = doc("Bran", "mace", "medium_shield")
    d["weapons"][0]["parry"] = 40
    res, _ = hit(A, d, 80, 99)
    assert res.inputs["parry"] == "medium_shield"


def test_reading_a_missile_is_parried_with_a_shield_only():
    d = doc("Bran", "broadsword")
    res, _ = hit(doc("Ulf", "javelin"), d, 80)
    assert res.inputs["parry"] is None
    with pytest.raises(OptionError, match="a missile can be parried only with: shield"):
        hit(doc("Ulf", "javelin"), d, parry="broadsword")


# -- Normal Shield Parry ---------------------------------------------------------------------------

def test_normal_shield_parry_blocks_up_to_its_armour_points_and_is_not_damaged():
    res, script = hit(doc("Ulf", "mace"), doc("Bran", "medium_shield"), 30, 10, 8)
    assert res.result["tally"]["defender"] == "unhurt" and res.result["tally"]["parrying item"] == "intact"
    assert "hit location" not in [p for p, _ in script.asked]
    shield = doc("Bran", "medium_shield", chest=(5, 1))
    shield["weapons"][0]["ap"] = 4
    res, _ = hit(doc("Ulf", "mace"), shield, 30, 10, 8, 12)  # 8 - 4 through, less AP 1
    assert res.result["defender"]["through_armour"] == 3


def test_normal_shield_parry_of_an_impale_sticks_the_weapon():
    res, _ = hit(doc("Ulf", "short_spear"), doc("Bran", "medium_shield"), 10, 10, 1, 1)  # 1 + 7 + 1 = 9
    assert res.result["tally"]["attacking weapon"] == "stuck" and res.result["tally"]["defender"] == "unhurt"


# -- Normal Weapon Parry and Damage to Weapons -----------------------------------------------------

def test_normal_weapon_parry_absorbs_up_to_its_hit_points_and_breaks_when_exceeded():
    res, _ = hit(doc("Ulf", "mace"), doc("Bran", "belt_knife"), 30, 10, 8, 12)
    assert res.result["tally"]["parrying item"] == "broken" and res.result["defender"]["damage"] == 2
    res, _ = hit(doc("Ulf", "mace"), doc("Bran", "belt_knife"), 30, 10, 6)
    assert res.result["tally"]["parrying item"] == "intact" and res.result["tally"]["defender"] == "unhurt"


def test_normal_weapon_parry_of_a_failed_attack_damages_the_attacking_weapon():
    res, script = hit(doc("Ulf", "mace"), doc("Bran", "dagger"), 80, 10, 5)
    assert res.result["tally"]["attacking weapon"] == "damaged" and ("damage to weapon", "1D4+2") in script.asked
    res, _ = hit(doc("Ulf", "belt_knife"), doc("Bran", "dagger"), 80, 10, 6)  # 6 equals the knife's 6: not exceeded
    assert res.result["tally"]["attacking weapon"] == "damaged"
    knife = doc("Ulf", "mace")
    knife["weapons"][0]["hp"] = 4
    res, _ = hit(knife, doc("Bran", "dagger"), 80, 10, 5)
    assert res.result["tally"]["attacking weapon"] == "broken"


def test_damage_to_weapons_cut_and_thrust_and_long_hafted_weapons_damage_no_weapon():
    for parrier in ("broadsword", "short_spear"):
        res, script = hit(doc("Ulf", "mace"), doc("Bran", parrier), 80, 10)
        assert res.result["tally"]["attacking weapon"] == "intact" and len(script.asked) == 2, parrier
    res, _ = hit(doc("Ulf", "broadsword"), doc("Bran", "belt_knife"), 30, 10, 9, 12)  # 9 > 6, not broken
    assert res.result["tally"]["parrying item"] == "intact" and res.result["defender"]["damage"] == 3


def test_a_shield_does_nothing_to_a_failed_attack():
    res, script = hit(doc("Ulf", "mace"), doc("Bran", "medium_shield"), 80, 10)
    assert res.result["tally"]["attacking weapon"] == "intact" and len(script.asked) == 2


# -- Damage (with the damage modifier, halved for thrown weapons) and Hit Locations ----------------

def test_damage_uses_the_weapons_own_modifier_halved_for_thrown_weapons():
    res, script = hit(doc("Ulf", "javelin"), doc("Bran"), 30, 5, 2, 16)
    assert ("damage modifier", "1D2") in script.asked and res.result["defender"]["damage"] == 7


def test_hit_locations_missiles_roll_on_the_missile_column():
    res, _ = hit(doc("Ulf", "javelin"), doc("Bran"), 30, 1, 1, 16)
    assert res.result["defender"]["location"] == "right_arm"  # 16: missile right arm, melee left arm
    res, _ = hit(A, doc("Bran"), 30, 1, 16, parry="none")
    assert res.result["defender"]["location"] == "left_arm"


def test_reading_damage_below_zero_is_zero():
    a = doc("Ulf", "belt_knife")
    a["weapons"][0]["damage_modifier"] = "-1D4"
    res, script = hit(a, doc("Bran"), 10, 1, -4)
    assert res.result["tally"]["defender"] == "unhurt" and "hit location" not in [p for p, _ in script.asked]


# -- Aiming and strike ranks ----------------------------------------------------------------------

def test_aiming_waits_until_sr_12_at_half_chance_without_a_location_roll():
    res, script = hit(A, doc("Bran", defence=10), 20, 4, parry="none", aim="head")
    assert res.result["chance"] == 25 and res.result["defender"]["location"] == "head"
    assert "strike rank 12" in res.steps[0].text and "hit location" not in [p for p, _ in script.asked]


def test_the_melee_round_the_weapon_strikes_at_its_strike_rank():
    res, _ = hit(A, doc("Bran"), 80)
    assert "strike rank 7" in res.steps[0].text


# -- Location Points Equalled or Exceeded, Limits to Limb Damage, Exceeded by 6 -------------------

def spot(kind, hp):
    return Spot(kind, kind.title(), kind, hp, 0, (1, 20), (1, 20))


@pytest.mark.parametrize("kind, state", [("leg", "limb_disabled"), ("arm", "limb_disabled"),
                                         ("abdomen", "incapacitated"), ("chest", "dying"), ("head", "unconscious")])
def test_location_points_equalled(kind, state):
    f = fighter(doc("Bran", hp=20), RULES)
    assert wound(T, f, spot(kind, 4), 3).state == "hurt"
    assert wound(T, f, spot(kind, 4), 4).state == state


def test_limits_to_limb_damage_damage_past_twice_is_lost_and_the_blow_incapacitates():
    f = fighter(doc("Bran", hp=20), RULES)
    w = wound(T, f, spot("arm", 4), 9)
    assert w.applied == 8 and w.hp_left == 12 and w.state == "incapacitated"
    assert wound(T, f, spot("arm", 4), 8).state == "limb_disabled"  # twice, not more: not incapacitated
    assert wound(T, f, spot("chest", 4), 9).applied == 9  # the limit is for limbs only


@pytest.mark.parametrize("kind, state", [("leg", "limb_maimed"), ("arm", "limb_maimed"), ("abdomen", "dead"),
                                         ("chest", "dead"), ("head", "dead")])
def test_location_points_exceeded_by_6_or_more(kind, state):
    f = fighter(doc("Bran", hp=40), RULES)
    w = wound(T, f, spot(kind, 10), 16)
    assert w.state == state
    assert wound(T, f, spot(kind, 10), 15).state != state


def test_hit_points_a_total_of_zero_is_death():
    f = fighter(doc("Bran", hp=6), RULES)
    assert wound(T, f, spot("chest", 10), 6).state == "dead"
    assert wound(T, f, spot("chest", 10), 5).state == "hurt"


# -- bad input -------------------------------------------------------------------------------------

def test_an_unknown_weapon_a_shield_and_no_weapon_are_errors():
    with pytest.raises(CharacterError, match="Ulf has no weapon 'axe' \\(weapons: broadsword\\)"):
        hit(A, D, weapon="axe")
    with pytest.raises(CharacterError, match="Medium shield parries; it has no attack"):
        hit(doc("Ulf", "medium_shield"), D, weapon="medium_shield")
    with pytest.raises(CharacterError, match="Ulf has no weapon to attack with"):
        hit(doc("Ulf"), D)
    with pytest.raises(CharacterError, match="Bran cannot parry with 'javelin'"):
        hit(A, doc("Bran", "javelin"), parry="javelin")
    with pytest.raises(OptionError, match="no such hit location"):
        hit(A, D, aim="tail")
    weak = doc("Ulf", "broadsword")
    weak["weapons"][0]["below_minimum"] = {"str": 2, "dex": 0, "usable": False}
    with pytest.raises(CharacterError, match="Ulf cannot use the Broadsword \\(STR 2 short of its minimums\\)"):
        hit(weak, D, weapon="broadsword")
    with pytest.raises(CharacterError, match="Bran cannot parry with 'broadsword' \\(can parry with: none\\)"):
        hit(A, dict(D, weapons=[dict(W["broadsword"], below_minimum={"str": 1, "dex": 0, "usable": False})]),
            parry="broadsword")
