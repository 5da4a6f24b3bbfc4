"""chargen roll and chargen systems through the command line: exact output and errors."""

import json

import pytest
from click.testing import CliRunner

from chargen.cli import cli


def run(*args):
    return CliRunner().invoke(cli, list(args), prog_name="chargen")


def test_dice_notation_still_rolls():
    r = run("roll", "3D6+2", "--seed", "1")
    assert r.exit_code == 0
    assert r.stdout == "3D6+2 = 14\n  3D6: 1 6 5\n  +2\n"
    assert r.stderr == "chargen: seed 1\n"


def test_kotm_roll_text():
    r = run("roll", "--system", "kotm", "--sd", "30", "--level", "4", "--seed", "2", "--damage-mod", "1")
    assert r.exit_code == 0
    assert r.stdout == ("KoTM attack (SD 30, level 4): Outstanding Success, 30 damage\n"
                        "  attack 2D10 [10 10] -> 00: Outstanding Success (OS) - faces 10 10, whatever the SD\n"
                        "  damage: Outstanding Success - (second die 10 +1 + 4 for level 4) x 2 = 30\n")


def test_kotm_roll_json_has_the_steps_and_the_rolls():
    r = run("roll", "--system", "kotm", "--sd", "30", "--level", "4", "--seed", "3855", "--format", "json")
    doc = json.loads(r.stdout)
    assert (doc["seed"], doc["system"], doc["outcome"]) == (3855, "kotm", "tf")
    assert [s["row"] for s in doc["steps"][1:]] == ["99 Even Worse", "26-39 Clumsy", "26-39 Clumsy", "70 Untrained"]
    assert doc["rolls"][0] == {"for": "attack", "dice": "2D10", "rolled": [9, 9], "total": 18}
    assert doc["rolls"][-1] == {"for": "fumble.untrained.rounds", "dice": "1D4", "rolled": [3], "total": 3}


def test_rtd_stat_roll_text():
    r = run("roll", "--system", "rtd", "--stat", "7", "--seed", "8")
    assert r.stdout == ("RTD stat roll-off (stat 7, Medium): passed, Expert success\n"
                        "  roll-off 1D10 [3] -> 3: Medium (6-10) - 3 is at or under stat 7: pass\n"
                        "  success chart 1 1D20 [20] -> 20: Explode! Go to next chart.\n"
                        "  success chart 2 1D20 [3] -> 23: Expert success\n")


def test_rtd_attack_json():
    r = run("roll", "--system", "rtd", "--attack", "--damage", "7", "--parry-damage", "5", "--seed", "1",
            "--format", "json")
    doc = json.loads(r.stdout)
    assert doc["result"]["counterattack"] == {"free_parry": False, "to_hit": None, "multiplier": 2.0,
                                              "critical": True, "damage": 13, "parry_bonus": 3}


def test_d100_rolls():
    assert run("roll", "--system", "d100", "--chance", "65", "--seed", "1").stdout == (
        "D100 roll (chance 65): success\n"
        "  roll 1D100 [14] -> 14: Success - 14 is at or under 65 "
        "(critical 01-03, special 01-13, success 01-65, fumble 99-00)\n")
    r = run("roll", "--system", "d100", "--active", "12", "--passive", "14", "--seed", "1")
    assert r.stdout.splitlines()[0] == "D100 resistance roll (12 against 14, chance 40): success, the active side wins"
    r = run("roll", "--system", "d100", "--chance", "110", "--against", "120", "--seed", "1")
    assert r.stdout.splitlines()[0] == "D100 opposed roll (110 against 120, modified 90 and 110): A special, B success"


USAGE = "Usage: chargen roll [OPTIONS] [EXPRESSION]\nTry 'chargen roll --help' for help.\n\nError: "


@pytest.mark.parametrize("args, message", [
    ((), "give dice notation such as 3D6+2, or --system ID with its options"),
    (("3D6", "--system", "kotm"), "give dice notation or --system, not both"),
    (("--sd", "30"), "--sd needs --system (see 'chargen systems')"),
    (("3D6", "--sd", "30"), "--sd needs --system, not dice notation"),
    (("--system", "kotm", "--sd", "30"), "--system kotm needs --level"),
    (("--system", "kotm", "--sd", "30", "--level", "4", "--chance", "5"),
     "--chance does not apply to --system kotm (it takes: --sd, --level, --damage-mod, --missile, --no-helm)"),
    (("--system", "rtd"), "--system rtd needs one of --stat N, --action or --attack"),
    (("--system", "rtd", "--stat", "60"), "--stat 60 is out of range (0 to 50: the difficulty tiers)"),
    (("--system", "d100"), "--system d100 needs --chance N (or --active N --passive N for a resistance roll)"),
    (("--system", "d100", "--active", "3"), "a resistance roll needs --passive"),
])
def test_usage_errors(args, message):
    r = run("roll", *args)
    assert r.exit_code == 2
    assert r.stderr == USAGE + message + "\n"


def test_unknown_system_is_an_error():
    r = run("roll", "--system", "gurps", "--sd", "3")
    assert r.exit_code == 1
    assert r.stderr == "Error: unknown system 'gurps' (expected one of: d100, kotm, rtd)\n"


def test_systems_lists_all_three():
    r = run("systems")
    assert [line.split()[0] for line in r.stdout.splitlines()] == ["d100", "kotm", "rtd"]
    doc = json.loads(run("systems", "--format", "json").stdout)
    assert [m["id"] for m in doc] == ["d100", "kotm", "rtd"]


def test_roll_help_ends_with_examples_for_every_system():
    text = run("roll", "--help").stdout
    examples = text[text.index("Examples:"):]
    for system in ("kotm", "rtd", "d100"):
        assert f"chargen roll --system {system}" in examples


@pytest.mark.parametrize("system", ["kotm", "rtd"])
def test_generate_new_systems(system):
    r = run("generate", "--system", system, "--seed", "42", "--index", "0")
    doc = json.loads(r.stdout)
    assert (doc["system"]["id"], doc["seed"]["index"]) == (system, 0)
