"""RTD fights (chargen fight): each rule a fight plays, one test each (dice scripted); the sanity a
game master expects; the exact chain against the simulation; same seed, same bytes; a broken fight
table is a `rules check` error at its line."""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

from click.testing import CliRunner

from chargen import engines
from chargen.cli import cli
from chargen.fight.estimate import SideSpec, estimate, wilson
from chargen.fight.exact import exact
from chargen.fight.tactics import Tactics, tactics
from chargen.generate import GenerationRequest, make_character
from chargen.rules import load_builtin, load_module
from chargen.serialize import to_json

HOUSE = Path(__file__).parent / "house"
KIT = engines.get("rtd").fight
RULES = load_builtin("rtd").rules
STATES = [s.id for s in RULES.wounds.states]
PARTS = [p.id for p in RULES.wounds.parts]


@functools.lru_cache(maxsize=None)
def _made(archetype: str, seed: int, count: int) -> tuple:
    module = load_builtin("rtd")
    return tuple(make_character(module, seed, i, GenerationRequest(archetype=archetype)) for i in range(count))


def made(archetype: str, seed: int = 1, count: int = 1) -> list[dict]:
    return copy.deepcopy(list(_made(archetype, seed, count)))


class Script:
    def __init__(self, *values: int):
        self.values = list(values)
        self.asked: list[str] = []

    def die(self, sides, purpose, key=None):
        self.asked.append(purpose)
        return self.values.pop(0)

    def roll(self, dice, purpose):
        self.asked.append(purpose)
        return self.values.pop(0)


def fighter(damage: int = 6, seed: int = 1, wounds: dict | None = None) -> dict:
    doc = made("guard", seed)[0]
    doc["weapons"] = [{"id": "mace", "label": "Mace", "kind": "melee", "damage": damage}]
    doc["skills"] = []  # unskilled: the dice a test scripts are read as rolled (skills: their own test)
    for w in doc["wounds"]:
        w["state"] = (wounds or {}).get(w["part"], "unwounded")
    return doc


def duel(a: dict, b: dict):
    return [KIT.fresh(KIT.profile(RULES, a), 0, 0)], [KIT.fresh(KIT.profile(RULES, b), 1, 0)]


def credit(*_):
    pass


def one_round(sides, *draws, t=Tactics()):
    script = Script(*draws)
    KIT.round(RULES, script, sides, t, credit)
    assert not script.values, "the round did not use every scripted draw"
    return script


def state(c, part: str) -> str:
    return STATES[c.wounds[PARTS.index(part)]]


def part_face(part: str) -> int:
    return next(f for f in range(1, RULES.wounding.die + 1) if RULES.wounding.part(f) == part)


# -- the order (fight.yaml, default): a die picks the side that strikes first; sides take turns ----------

def test_the_order_die_picks_the_side_that_strikes_first():
    sides = duel(fighter(), fighter(seed=2))
    # first side: 2 (b); b: to hit 1 (miss), dodge 2; a: miss, dodge 2
    script = one_round(sides, 2, 1, 2, 1, 2)
    assert sides[1][0].turn == 0 and sides[0][0].turn == 1
    assert script.asked == ["first side", "to hit", "dodge", "to hit", "dodge"]


# -- "Successful hits cancel whatever the target wanted to do after trying to hit you" -------------------

def test_a_fighter_hit_before_his_turn_loses_his_exchange():
    sides = duel(fighter(damage=2), fighter(seed=2))
    # a first: to hit 4 (successful hit), dodge 1 (none), body part: left leg, 2 damage: lightly wounded
    script = one_round(sides, 1, 4, 1, part_face("left_leg"))
    assert state(sides[1][0], "left_leg") == "lightly_wounded" and script.asked.count("to hit") == 1


def test_a_parry_counterattacks_with_the_parry_bonus():
    sides = duel(fighter(damage=1), fighter(damage=5, seed=2))
    # a: to hit 4, b dodges 6 (parry): counterattack to hit 4 (x1): 5 + 3 = 8 to a's head: broken; a is out
    one_round(sides, 1, 4, 6, 4, part_face("head"))
    assert state(sides[0][0], "head") == "broken" and sides[0][0].out


# -- skills (skills.yaml levels, seed: "Static +1 to all rolls"; fight.yaml skills: which roll takes which)

def skilled(doc: dict, xp: int, skill: str = "swordplay") -> dict:
    doc["skills"] = [{"id": skill, "label": skill.capitalize(), "xp": xp}]
    return doc


def test_a_skill_levels_bonus_comes_on_the_to_hit_roll():
    # Competent (4 XP): "Static +1 to all rolls": a to-hit 2 (Block) reads 3, a glancing hit that lands
    sides = duel(skilled(fighter(damage=6), 4), fighter(seed=2))
    one_round(sides, 1, 2, 1, part_face("left_leg"))
    assert state(sides[1][0], "left_leg") != "unwounded"
    # Expert (29 XP): "You may choose to take a +1, +2 or +3 bonus": he takes +3, a miss (1) reads 4
    sides = duel(skilled(fighter(damage=6), 29, "brawling"), fighter(seed=2))
    one_round(sides, 1, 1, 1, part_face("left_leg"))
    assert state(sides[1][0], "left_leg") != "unwounded"


def test_a_skill_the_fight_does_not_use_gives_no_bonus_and_a_roll_reads_at_most_6():
    sides = duel(skilled(fighter(damage=6), 29, "cooking"), fighter(seed=2))
    script = one_round(sides, 1, 2, 2, 1, 2)  # a: Block (2, no bonus); b: miss; no wound
    assert sides[1][0].wounds == sides[1][0].p.wounds and script.asked.count("to hit") == 2
    level = RULES.skill_level(75)
    assert KIT.profile(RULES, skilled(fighter(), 75)).to_hit_skill == level and level.choose_result
    from chargen.systems.rtd.fight import _adjusted

    assert _adjusted(6, 0, level) == (6,) * 6 and _adjusted(6, 2, RULES.skill_level(29))[-1] == 6


# -- wound penalties on the rolls made with the part (wounds.yaml penalty; fight.yaml parts) ----------

def test_the_weapon_arms_wound_comes_off_the_to_hit_roll():
    sides = duel(fighter(wounds={"right_arm": "broken"}), fighter(seed=2))
    # a rolls 4 to hit: 4 - 2 = 2 (Block); nothing lands; b misses
    one_round(sides, 1, 4, 1, 1, 1)
    assert sides[1][0].wounds == sides[1][0].p.wounds


def test_the_other_arm_wields_the_weapon_when_the_weapon_arm_is_lopped_off():
    sides = duel(fighter(wounds={"right_arm": "lopped_off", "left_arm": "moderately_wounded"}), fighter(seed=2))
    one_round(sides, 1, 5, 1, part_face("left_leg"))  # 5 - 1 = 4: a successful hit, 6 damage: moderately
    assert state(sides[1][0], "left_leg") == "moderately_wounded"


def test_the_legs_wounds_come_off_the_dodge_and_no_legs_no_dodge():
    sides = duel(fighter(), fighter(seed=2, wounds={"left_leg": "mangled"}))
    one_round(sides, 1, 4, 6, part_face("left_arm"))  # dodge 6 - 3 = 3: no dodge; a hits
    assert state(sides[1][0], "left_arm") == "moderately_wounded"
    legless = fighter(seed=2, wounds={"left_leg": "lopped_off", "right_leg": "lopped_off"})
    sides = duel(fighter(), legless)
    script = one_round(sides, 1, 1, 1, 1)  # a misses (no dodge roll); b misses, a dodges 1
    assert script.asked == ["first side", "to hit", "to hit", "dodge"]


# -- out of the fight (fight.yaml out_when) and dead (a lopped-off important part, seed) --------------

def test_wounds_put_a_fighter_out_by_the_groups_and_a_lopped_off_head_kills():
    from chargen.systems.rtd.fight import _wound

    a, b = duel(fighter(), fighter(seed=2))
    c, striker = b[0], a[0]
    _wound(RULES, Script(part_face("left_arm")), c, 12, striker, credit)
    assert state(c, "left_arm") == "mangled" and not c.out
    _wound(RULES, Script(part_face("right_arm")), c, 12, striker, credit)
    assert c.out and not c.dead  # both arms mangled
    a, b = duel(fighter(), fighter(seed=2))
    _wound(RULES, Script(part_face("head")), b[0], 20, a[0], credit)
    assert b[0].out and b[0].dead


def test_a_part_keeps_its_worse_wound():
    from chargen.systems.rtd.fight import _wound

    a, b = duel(fighter(), fighter(seed=2))
    _wound(RULES, Script(part_face("left_leg")), b[0], 8, a[0], credit)
    _wound(RULES, Script(part_face("left_leg")), b[0], 2, a[0], credit)
    assert state(b[0], "left_leg") == "broken"


def test_parry_never_means_nobody_dodges():
    sides = duel(fighter(), fighter(seed=2))
    script = one_round(sides, 1, 1, 1, t=tactics(parry="never"))
    assert "dodge" not in script.asked


# -- the sanity a game master expects -------------------------------------------------------------

def test_a_fresh_side_beats_a_badly_wounded_one_in_more_than_95_percent_of_fights():
    module = load_builtin("rtd")
    fresh = made("guard", 5, 4)
    hurt = made("guard", 6, 4)
    for d in hurt:
        for w in d["wounds"]:
            w["state"] = {"right_arm": "lopped_off", "left_arm": "broken", "head": "moderately_wounded",
                          "left_leg": "moderately_wounded", "right_leg": "moderately_wounded"}.get(w["part"], "unwounded")
    est = estimate(module, (SideSpec("fresh", tuple(fresh)), SideSpec("hurt", tuple(hurt))), fights=400, seed=1)
    share, lo, _ = est.share(0)
    assert share > 0.95 and lo > 0.9


def test_two_identical_sides_each_win_about_half():
    module = load_builtin("rtd")
    docs = tuple(made("guard", 8, 3))
    est = estimate(module, (SideSpec("a", docs), SideSpec("b", docs)), fights=800, seed=3)
    _, lo, hi = wilson(est.wins[0], est.wins[0] + est.wins[1])
    assert lo < 0.5 < hi


# -- the exact chain agrees with the simulation -----------------------------------------------------

def test_the_exact_chain_agrees_with_the_simulation_in_a_two_part_duel():
    module = load_module("rtd", [HOUSE / "rtd-two-parts.yaml"])
    a, b = fighter(damage=7), fighter(damage=5, seed=2, wounds={"right_arm": "moderately_wounded"})
    t = tactics(max_rounds=1)
    chain = exact(KIT, module.rules, ([KIT.profile(module.rules, a)], [KIT.profile(module.rules, b)]), t)
    assert abs(sum(chain.values()) - 1) < 1e-9
    fights = 3000
    est = estimate(module, (SideSpec("a", (a,)), SideSpec("b", (b,))), fights=fights, seed=11, tactics=t)
    sim = {"0": est.wins[0], "1": est.wins[1], "both": est.mutual, "unended": est.unended}
    for outcome, p in chain.items():
        _, lo, hi = wilson(sim[outcome], fights)
        assert lo <= p <= hi, (outcome, p, lo, hi)
    assert chain["0"] > 0.01 and chain["1"] > 0.01 and chain["unended"] > 0.05


def test_the_exact_chain_agrees_with_the_simulation_in_a_duel_of_skilled_fighters():
    module = load_module("rtd", [HOUSE / "rtd-two-parts.yaml"])
    a = skilled(fighter(damage=7), 11)  # Adept: +1, and +1 more on a natural 1
    b = skilled(fighter(damage=5, seed=2, wounds={"right_arm": "moderately_wounded"}), 29, "brawling")  # Expert: +3
    t = tactics(max_rounds=1)
    chain = exact(KIT, module.rules, ([KIT.profile(module.rules, a)], [KIT.profile(module.rules, b)]), t)
    assert abs(sum(chain.values()) - 1) < 1e-9
    fights = 3000
    est = estimate(module, (SideSpec("a", (a,)), SideSpec("b", (b,))), fights=fights, seed=12, tactics=t)
    sim = {"0": est.wins[0], "1": est.wins[1], "both": est.mutual, "unended": est.unended}
    for outcome, p in chain.items():
        _, lo, hi = wilson(sim[outcome], fights)
        assert lo <= p <= hi, (outcome, p, lo, hi)
    unskilled = exact(KIT, module.rules, ([KIT.profile(module.rules, fighter(damage=7))],
                                          [KIT.profile(module.rules, fighter(damage=5, seed=2,
                                                                             wounds={"right_arm": "moderately_wounded"}))]), t)
    assert chain["1"] > unskilled["1"]  # the Expert's +3 tells


# -- the command line -------------------------------------------------------------------------------

def run(*args):
    return CliRunner().invoke(cli, list(args), prog_name="chargen")


def test_the_same_seed_gives_the_same_bytes(tmp_path):
    for name, docs in (("a", made("thug", 2, 2)), ("b", made("guard", 3, 2))):
        (tmp_path / name).mkdir()
        for i, d in enumerate(docs):
            (tmp_path / name / f"{i}.json").write_text(to_json(d), encoding="utf-8")
    args = ("fight", str(tmp_path / "a"), str(tmp_path / "b"), "--seed", "7", "--fights", "200", "--format", "json")
    one, two = run(*args), run(*args, "--jobs", "2")
    assert one.exit_code == 0, one.output
    assert one.stdout == two.stdout
    assert json.loads(one.stdout)["system"] == "rtd"


def test_rules_check_finds_a_broken_fight_table_at_its_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("overlay: rtd\nname: Broken\nchanges:\n  fight:\n    set:\n"
                   "      weapon_arm: tail\n      out_when[0].at: dead\n", encoding="utf-8")
    r = run("rules", "check", str(bad))
    assert r.exit_code == 1
    assert f"{bad}:6: changes.fight.set.weapon_arm: unknown body part 'tail'" in r.stdout
    assert f"{bad}:7: changes.fight.set.out_when[0].at: unknown wound state 'dead'" in r.stdout
