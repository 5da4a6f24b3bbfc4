"""RTD standard actions: the action die, skill levels and their bonuses, wounds, clamping."""

import random
from fractions import Fraction

import pytest

from chargen.dice import Roller, roll_die
from chargen.errors import OptionError
from chargen.systems.rtd import ROLL_OPTIONS
from chargen.systems.rtd.mechanics import action, action_odds
from chargen.systems.rtd.resolve import resolve
from tests.conftest import scripted
from tests.test_rtd_rolloffs import within


@pytest.fixture(scope="module")
def rules(rtd):
    return rtd.rules


def level(rules, xp):
    return rules.skill_level(xp)


def roll(rules, face, **kw):
    return action(rules, scripted((6, face)).die, **kw)


@pytest.mark.parametrize("face, result", [(1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7)])
def test_the_bare_die_reads_face_plus_one(rules, face, result):
    assert roll(rules, face).result == result


def test_which_results_each_bonus_reaches(rules):
    """0-1 only with a penalty, 9-10 only with a big bonus (the seed's notes)."""
    def reach(bonus):
        return {r for r, p in action_odds(rules, bonus=bonus).items() if p}
    assert reach(0) == {2, 3, 4, 5, 6, 7}
    assert 1 in reach(-1) and 0 not in reach(-1)
    assert 0 in reach(-2)
    assert 8 in reach(1) and 9 not in reach(1)
    assert 9 in reach(2) and 10 not in reach(2)
    assert 10 in reach(3)


def test_results_clamp_to_0_and_10(rules):
    assert roll(rules, 6, bonus=10).result == 10 and roll(rules, 6, bonus=10).raw == 17
    assert roll(rules, 1, bonus=-10).result == 0


@pytest.mark.parametrize("xp, level_id", [
    (0, None), (1, "dabbling"), (2, "novice"), (3, "novice"), (4, "competent"), (6, "competent"), (7, "skilled"),
    (10, "skilled"), (11, "adept"), (15, "adept"), (16, "talented"), (21, "talented"), (22, "professional"),
    (28, "professional"), (29, "expert"), (36, "expert"), (37, "master"), (45, "master"), (46, "high_master"),
    (55, "high_master"), (56, "grand_master"), (74, "grand_master"), (75, "legendary"), (1000, "legendary"),
])
def test_skill_level_thresholds(rules, xp, level_id):
    lv = rules.skill_level(xp)
    assert (lv.id if lv else None) == level_id


@pytest.mark.parametrize("xp, face, kw, result", [
    (1, 1, {}, 2),                                  # Dabbling: no bonus
    (2, 1, {}, 3), (2, 2, {}, 3),                   # Novice: +1 on a natural 1 only
    (4, 1, {}, 3), (4, 6, {}, 8),                   # Competent: static +1
    (11, 1, {}, 4), (11, 2, {}, 4),                 # Adept: +1, and +1 more on a natural 1
    (16, 1, {}, 4), (16, 6, {}, 9),                 # Talented: +2, the natural-1 bonus replaced
    (29, 6, {"chosen_bonus": 3}, 10), (29, 1, {"chosen_bonus": 1}, 3),   # Expert chooses
    (46, 6, {}, 6), (46, 1, {}, 5),                 # High Master: +3, cannot overshoot
    (56, 6, {}, 10), (56, 6, {"overshoot": False}, 6), (56, 1, {"overshoot": False}, 6),  # Grand Master
])
def test_skill_bonuses(rules, xp, face, kw, result):
    assert roll(rules, face, level=level(rules, xp), **kw).result == result


def test_legendary_chooses_the_result_without_a_die(rules):
    r = action(rules, scripted().die, level=level(rules, 75), chosen_result=9)
    assert (r.face, r.result) == (None, 9)
    assert action(rules, scripted().die, level=level(rules, 75), chosen_result=9, penalty=1).result == 8


@pytest.mark.parametrize("state, result", [
    ("unwounded", 5), ("lightly_wounded", 5), ("moderately_wounded", 4), ("broken", 3), ("mangled", 2)])
def test_every_wound_state_through_resolve(rules, state, result):
    r = resolve(rules, scripted((6, 4)), options(action=True, wound=state))
    assert r.result["result"] == result


def test_a_wound_penalty_lowers_the_result(rules):
    assert roll(rules, 4, penalty=1).result == 4
    assert roll(rules, 4, penalty=3).result == 2


@pytest.mark.parametrize("result, row, points", [
    (0, "godly_fail", 0), (1, "epic_fail", 0), (2, "big_fail", 0), (3, "regular_fail", 0), (4, "lesser_fail", 0),
    (5, "lesser_success", 0), (6, "success", 1), (7, "small_overshoot", 2), (8, "big_overshoot", 3),
    (9, "epic_overshoot", 3), (10, "godly_overshoot", 4),
])
def test_every_row_of_the_action_scale(rules, result, row, points):
    r = rules.actions.row(result)
    assert (r.id, r.skill_points, r.success, r.overshoot) == (row, points, result >= 5, result >= 7)


def test_action_odds_are_exact(rules):
    assert action_odds(rules) == {r: Fraction(1, 6) if 2 <= r <= 7 else 0 for r in range(11)}
    adept = action_odds(rules, level=level(rules, 11))
    assert adept[4] == Fraction(2, 6) and adept[3] == 0      # natural 1 and 2 both read 4
    high = action_odds(rules, level=level(rules, 46))   # +3: faces 2-6 read 6-10, capped to 6
    assert (high[5], high[6]) == (Fraction(1, 6), Fraction(5, 6))


def test_action_odds_match_a_large_seeded_simulation(rules):
    n, lv = 200_000, level(rules, 11)
    rng = random.Random(79)
    counts = dict.fromkeys(range(11), 0)
    for _ in range(n):
        counts[action(rules, lambda s, p: roll_die(rng, s), level=lv, bonus=-1).result] += 1
    for r, p in action_odds(rules, level=lv, bonus=-1).items():
        assert within(counts[r], n, p), r


def options(**given):
    base = dict.fromkeys(ROLL_OPTIONS)
    base.update(given)
    return base


def test_resolved_action_trail(rules):
    r = resolve(rules, scripted((6, 1)), options(action=True, skill_xp=12, wound="moderately_wounded"))
    assert r.text() == ("RTD action (Adept, 12 XP): 3 Regular Fail\n"
                        "  action die 1D6 [1] -> 2: natural 1 reads 2\n"
                        "  modifier: Adept static +1\n"
                        "  modifier: Adept natural 1 +1\n"
                        "  modifier: wound penalty -1\n"
                        "  action scale -> 3: 3 Regular Fail - You didn't succeed in doing what you wanted, "
                        "also try not to hurt yourself.\n")


def test_resolved_action_notes_the_cap_and_the_clamp(rules):
    r = resolve(rules, scripted((6, 6)), options(action=True, skill_xp=46, bonus=2))
    assert r.steps[-1].text.startswith("12 is treated as 10; cannot overshoot: counts as 6; ")
    assert r.result == {"result": 6, "success": True, "overshoot": False, "skill_points": 1, "raw": 12,
                        "capped": True}


@pytest.mark.parametrize("given, message", [
    ({}, "--system rtd needs one of --stat N, --action or --attack"),
    ({"stat": 3, "action": True}, "--system rtd takes only one of --stat N, --action or --attack"),
    ({"action": True, "stat_": None, "difficulty": "hard"},
     "--difficulty does not apply to an action (--action) (it takes: --bonus, --skill-xp, --skill-bonus, "
     "--choose-result, --no-overshoot, --wound)"),
    ({"action": True, "skill_xp": 30}, "--skill-xp 30 (Expert) chooses its bonus: give --skill-bonus 1, 2 or 3"),
    ({"action": True, "skill_xp": 30, "skill_bonus": 4},
     "--skill-bonus 4 does not apply to --skill-xp 30 (Expert) (it takes 1, 2 or 3)"),
    ({"action": True, "skill_bonus": 2}, "--skill-bonus 2 does not apply to an unskilled roll (it takes none)"),
    ({"action": True, "skill_xp": 80}, "--skill-xp 80 (Legendary) chooses the result: give --choose-result 0 to 10"),
    ({"action": True, "skill_xp": 80, "choose_result": 11}, "--choose-result 11 is out of range (0 to 10: the action scale)"),
    ({"action": True, "choose_result": 5},
     "--choose-result applies only at a level that chooses its result, not an unskilled roll"),
    ({"action": True, "skill_xp": 46, "no_overshoot": True},
     "--no-overshoot applies only at a level that may choose not to overshoot, not --skill-xp 46 (High Master)"),
    ({"action": True, "wound": "bruised"},
     "--wound 'bruised' is not a wound state (expected one of: unwounded, lightly_wounded, moderately_wounded, "
     "broken, mangled, lopped_off)"),
    ({"action": True, "wound": "lopped off"}, "--wound lopped_off: the part is gone; nothing that needs it can be done"),
    ({"action": True, "skill_xp": -1}, "--skill-xp -1 is out of range (0 to 1000000: skill XP)"),
    ({"stat": 7, "difficulty": "heroic"},
     "--difficulty 'heroic' is not a difficulty (expected one of: easy, medium, hard, very_hard, master, godly)"),
    ({"stat": -1}, "--stat -1 is out of range (0 to 50: the difficulty tiers)"),
    ({"stat": 7, "bonus": 1}, "--bonus does not apply to a stat roll-off (--stat) (it takes: --difficulty)"),
    ({"attack": True, "crit_mod": 12}, "--crit-mod 12 is out of range (0 to 11: critical modifier)"),
])
def test_option_errors(rules, given, message):
    given.pop("stat_", None)
    with pytest.raises(OptionError) as e:
        resolve(rules, scripted(), options(**given))
    assert str(e.value) == message


def test_difficulty_names_are_forgiving(rules):
    r = resolve(rules, Roller(random.Random(1)), options(stat=17, difficulty="Very Hard"))
    assert r.inputs["difficulty"] == "very_hard"


def test_a_chosen_result_runs_over_the_rules_action_scale(rtd):
    from dataclasses import replace

    from chargen.systems.rtd.generate import bonus_text
    from chargen.systems.rtd.resolve import action_roll

    legendary = rtd.rules.skill_level(80)
    assert bonus_text(legendary, rtd.rules.actions).endswith("chooses the result, 0 to 10")
    scale = replace(rtd.rules.actions, clamp_min=1, clamp_max=12)
    assert bonus_text(legendary, scale).endswith("chooses the result, 1 to 12")
    with pytest.raises(OptionError, match=r"give --choose-result 1 to 12$"):
        action_roll(replace(rtd.rules, actions=scale), None, {"action": True, "skill_xp": 80})
