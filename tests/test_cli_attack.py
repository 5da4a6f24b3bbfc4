"""``chargen roll --attacker FILE --defender FILE``: one attack between saved characters, its text,
its JSON, its odds, reproducible by --seed, and each bad input one Error line."""

import json

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.generate import make_character
from chargen.rules import load_builtin
from chargen.serialize import to_json

D100 = load_builtin("d100")


def run(*args):
    return CliRunner().invoke(cli, list(args), prog_name="chargen")


@pytest.fixture
def pair(tmp_path):
    """Two saved D100 II characters: Raimund (seed 42, index 6: belt knife, broadsword, crossbow) and Ulla."""
    paths = []
    for index in (6, 1):
        p = tmp_path / f"{index}.json"
        p.write_text(to_json(make_character(D100, 42, index)), encoding="utf-8")
        paths.append(str(p))
    return paths


def test_an_attack_is_the_same_for_the_same_seed(pair):
    a, d = pair
    first = run("roll", "--attacker", a, "--defender", d, "--weapon", "broadsword", "--seed", "5")
    again = run("roll", "--attacker", a, "--defender", d, "--weapon", "broadsword", "--seed", "5")
    assert first.exit_code == 0 and first.stdout == again.stdout
    lines = first.stdout.splitlines()
    assert lines[0].startswith("Raimund of Castlereach attacks Ulla Millbrook with the Broadsword: ")
    assert lines[1] == "  weapon: Raimund of Castlereach's Broadsword - attack 25%, damage 1D8+1, strike rank 6"
    assert lines[2].startswith("  defence: attack chance 25 - 10 = 15")
    assert first.stderr == "chargen: seed 5\n"


def test_json_has_the_tallies_the_steps_and_the_rolls(pair):
    a, d = pair
    r = run("roll", "--attacker", a, "--defender", d, "--seed", "11", "--format", "json", "--odds")
    doc = json.loads(r.stdout)
    assert doc["action"] == "attack" and doc["seed"] == 11
    assert doc["inputs"]["weapon"] == "belt_knife"  # his best usable weapon: attack 40 (the broadsword: 25)
    assert set(doc["result"]["tally"]) == {"attack", "fumble", "parry", "defender", "attacker",
                                           "attacking weapon", "parrying item"}
    assert doc["rolls"][0]["for"] == "attack" and doc["rolls"][0]["dice"] == "1D100"
    total = sum(int(e["fraction"].split("/")[0]) / int(e["fraction"].split("/")[1])
                for e in doc["odds"]["defender"].values())
    assert abs(total - 1) < 1e-12


def test_odds_text(pair):
    a, d = pair
    r = run("roll", "--attacker", a, "--defender", d, "--weapon", "broadsword", "--parry", "none", "--seed", "1",
            "--odds")
    odds = r.stdout.split("odds (exact):\n")[1].splitlines()
    assert odds[0] == "  attack: failure 81%, success 12%, fumble 4%, special 2%, critical 1%"  # 25 - defence 10
    assert odds[5] == "  parry: none 100%"


def test_a_member_of_a_file_of_several_by_number(tmp_path, pair):
    r = run("generate", "--system", "d100", "--seed", "42", "--count", "3", "--format", "meg", "-o", str(tmp_path / "m"))
    assert r.exit_code == 0, r.output
    meg = tmp_path / "m" / "party.meg.json"
    r = run("roll", "--attacker", f"{meg}#1", "--defender", f"{meg}#2", "--seed", "3")
    assert r.exit_code == 0, r.output
    r = run("roll", "--attacker", str(meg), "--defender", f"{meg}#2")
    assert r.exit_code == 1 and r.stderr == f"Error: {meg}: holds 3 characters; name one as {meg}#N (1 to 3)\n"
    r = run("roll", "--attacker", f"{meg}#9", "--defender", f"{meg}#2")
    assert r.exit_code == 1 and r.stderr == f"Error: {meg}#9: no character 9 in the file (it holds 3)\n"


@pytest.mark.parametrize("args, message", [
    (["--weapon", "halberd"], "Error: Raimund of Castlereach has no weapon 'halberd' (weapons: belt_knife, "
                              "broadsword, light_crossbow)\n"),
    (["--parry", "broadsword"], "Error: Ulla Millbrook cannot parry with 'broadsword' (can parry with: belt_knife)\n"),
    (["--aim", "tail"], "Error: --aim 'tail': no such hit location (expected one of: right_leg, left_leg, abdomen, "
                        "chest, right_arm, left_arm, head)\n"),
    (["--system", "kotm"], "Error: --system kotm: the characters were made under 'd100'\n"),
])
def test_bad_choices_are_one_error_line(pair, args, message):
    a, d = pair
    r = run("roll", "--attacker", a, "--defender", d, *args)
    assert r.exit_code == 1 and r.stderr == message


def test_a_character_with_no_weapon_is_one_error_line(tmp_path, pair):
    doc = json.loads(open(pair[0], encoding="utf-8").read())
    doc["weapons"] = []
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(doc), encoding="utf-8")
    r = run("roll", "--attacker", str(bare), "--defender", pair[1])
    assert r.exit_code == 1 and r.stderr == "Error: Raimund of Castlereach has no weapon to attack with\n"


def test_an_unreadable_file_is_one_error_line(tmp_path, pair):
    r = run("roll", "--attacker", str(tmp_path / "nobody.json"), "--defender", pair[1])
    assert r.exit_code == 1 and r.stderr == f"Error: {tmp_path / 'nobody.json'}: cannot read (No such file or directory)\n"
    junk = tmp_path / "junk.json"
    junk.write_text("{not json", encoding="utf-8")
    r = run("roll", "--attacker", str(junk), "--defender", pair[1])
    assert r.exit_code == 1 and r.stderr.startswith(f"Error: {junk}") and r.stderr.count("\n") == 1


def test_an_attack_needs_both_characters_and_no_single_roll_options(pair):
    r = run("roll", "--attacker", pair[0])
    assert r.exit_code == 2 and "an attack needs --attacker FILE and --defender FILE (--defender is missing)" in r.stderr
    r = run("roll", "--attacker", pair[0], "--defender", pair[1], "--chance", "50")
    assert r.exit_code == 2 and "--chance is for a single roll, not an attack between characters" in r.stderr
    r = run("roll", "3D6", "--attacker", pair[0])
    assert r.exit_code == 2 and "give dice notation or an attack" in r.stderr


def test_house_rules_change_the_attack(tmp_path, pair):
    house = tmp_path / "soft-shields.yaml"
    house.write_text("overlay: d100\nname: Soft shields\nchanges:\n  attacks:\n    set:\n"
                     "      parry.shield.success.blocks: nothing\n", encoding="utf-8")
    a, d = pair
    base = run("roll", "--attacker", d, "--defender", a, "--parry", "none", "--seed", "1", "--odds", "--format", "json")
    r = run("roll", "--attacker", d, "--defender", a, "--seed", "1", "--odds", "--format", "json", "--rules", str(house))
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["odds"]["defender"] != json.loads(base.stdout)["odds"]["defender"]


def test_rules_check_finds_a_broken_combat_table_at_its_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("overlay: d100\nname: Broken\nchanges:\n  fumbles:\n    set:\n      rows[id=hit_self].roll: 92-00\n"
                   "  attacks:\n    set:\n      parry.shield.success.blocks: armor\n", encoding="utf-8")
    r = run("rules", "check", str(bad))
    assert r.exit_code == 1
    assert f"{bad}:9: changes.attacks.set.parry.shield.success.blocks: 'armor' is not one of: ap, hp, nothing" in r.stdout
    assert ("chargen/rules/d100/fumbles.yaml:9: rows: fumble rows leave face 91 of the 1D100 unassigned "
            "(rows must cover 1 to 100)") in r.stdout


def test_a_chance_too_small_for_two_decimals_shows_as_under_001(pair):
    from fractions import Fraction

    from chargen.cli.roll_attack import _shown
    from chargen.resolve import percent
    assert _shown(Fraction(1, 100_000), percent) == "<0.01%" and _shown(Fraction(0), percent) == "0%"


def test_characters_of_two_systems_are_one_error_line(tmp_path, pair):
    kotm = tmp_path / "kotm.json"
    kotm.write_text(to_json(make_character(load_builtin("kotm"), 42, 0)), encoding="utf-8")
    r = run("roll", "--attacker", pair[0], "--defender", str(kotm))
    assert r.exit_code == 1 and r.stderr == ("Error: the attacker is a D100 II character and the defender a KoTM one "
                                             "(an attack is resolved under one system's rules)\n")
