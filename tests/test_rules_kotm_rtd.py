"""The KoTM and RTD rules modules validate their data and name file, line, key and fix."""

import copy
import re

import pytest

from chargen.errors import RulesError
from chargen.rules import BUILTIN_DIR, build_module, read_module_files


def broken(system: str, file: str, change) -> list[str]:
    docs = read_module_files(BUILTIN_DIR / system, f"chargen/rules/{system}")
    docs[file].data = copy.deepcopy(docs[file].data)
    change(docs[file].data)
    with pytest.raises(RulesError) as e:
        build_module(docs, system)
    return e.value.problems


def assert_problem(problems: list[str], file: str, message: str) -> None:
    pattern = re.escape(f"chargen/rules/{file}:") + r"\d+: " + re.escape(message)
    assert any(re.fullmatch(pattern, p) for p in problems), problems


def test_builtin_modules_load(kotm, rtd):
    assert (kotm.engine, rtd.engine) == ("kotm", "rtd")
    assert kotm.hash.startswith("sha256:") and rtd.hash != kotm.hash


def set_(path, value):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def delete(path):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return change


@pytest.mark.parametrize("file, change, message", [
    ("fumbles", set_(("rows", 1, "roll"), "25-39"), "rows[1].roll: range 25-39 overlaps the fumble row 1-25 (chargen/rules/kotm/fumbles.yaml:34) at 25"),
    ("fumbles", delete(("rows", 6)), "rows: fumble rows leave face 60 of the 1D100 unassigned (rows must cover 1 to 100)"),
    ("fumbles", set_(("rows", 29, "more", "on_repeat"), "forever"), "rows[29].more.on_repeat: 'forever' is not one of: reroll, add_rolls"),
    ("fumbles", set_(("rows", 7, "again_if"), "raining"), "rows[7].again_if: unknown condition 'raining' (expected one of: missile, no_helm)"),
    ("attack", set_(("exceptions", 1, "second"), "1-10"), "exceptions: faces 10 10 match more than one exception: os, cs"),
    ("levels", set_(("critical_fumble_damage", "bands"), {"1-3": 10, "4-6": 9}), "critical_fumble_damage.bands: bands must cover the levels exactly, 1 to 15"),
    ("generation", set_(("level", "dice"), "1D20"), "level.dice: dice 1D20 roll 1 to 20; levels run 1 to 15"),
    ("generation", set_(("professions", 0, "weapons", 0, "choose", 0), "katana"), "professions[0].weapons[0].choose[0]: unknown weapon 'katana' (expected one of: battle_axe, crossbow, dagger, flail, hand_axe, long_bow, long_sword, mace, rapier, short_bow, short_sword, sling, ...)"),
    ("weapons", delete(("source",)), "(top level): missing key 'source'"),
])
def test_kotm_problems(file, change, message):
    assert_problem(broken("kotm", file, change), f"kotm/{file}.yaml", message)


@pytest.mark.parametrize("file, change, message", [
    ("roll_offs", set_(("tiers", 1, "min"), 7), "tiers[1].min: tier starts at 7; tiers must run on from 0 without gaps (expected 6)"),
    ("roll_offs", set_(("success_charts", "charts", 1, "rows", 0, "roll"), "21-26"), "success_charts.charts[1].rows: rows must cover 21 to 40 once, the last one exploding"),
    ("roll_offs", set_(("success_charts", "beyond", "labels"), ["one"]), "success_charts.beyond.labels: expected 4 labels, one per non-exploding row of the chart pattern"),
    ("skills", set_(("levels", 1, "xp"), 1), "levels[1].xp: 1 XP is not more than the level before (1); each level requires more XP than the previous level"),
    ("skills", set_(("generation", "count"), "1D20"), "generation.count: dice 1D20 roll 1 to 20; the pool holds 16 skills"),
    ("actions", delete(("results", "rows", 4)), "results.rows: expected one row per result from 0 to 10, in order"),
    ("stats", set_(("dice",), "5D6"), "dice: dice 5D6 roll 5 to 30; stats run 0 to 20"),
    ("combat", set_(("to_hit", "rows", 2, "roll"), "2"), "to_hit.rows[2].roll: range 2-2 overlaps the to-hit row 2-2 (chargen/rules/rtd/combat.yaml:8) at 2"),
    ("combat", set_(("counterattack", "rows_read_as", "block"), "smash"), "counterattack.rows_read_as.block: unknown to-hit row 'smash' (expected one of: block, crushing_hit, epic_hit, glancing_hit, miss, successful_hit)"),
    ("combat", set_(("critical", "critical_on"), [2, 13]), "critical.critical_on[1]: 13 is out of range (expected 1 to 12)"),
    ("wounds", set_(("starting_state",), "dead"), "starting_state: unknown wound state 'dead' (expected one of: broken, lightly_wounded, lopped_off, mangled, moderately_wounded, unwounded)"),
])
def test_rtd_problems(file, change, message):
    assert_problem(broken("rtd", file, change), f"rtd/{file}.yaml", message)
