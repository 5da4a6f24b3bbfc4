"""``chargen fight SIDE_A SIDE_B`` and ``against:``: the estimate as text and JSON, the same bytes for
the same seed and any --jobs, sides of every kind, the encounter sheet's odds, and each bad input one
Error line."""

import json
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.generate import GenerationRequest, make_character
from chargen.rules import load_builtin
from chargen.serialize import to_json

EXAMPLES = Path(__file__).parent.parent / "examples"
D100 = load_builtin("d100")


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], prog_name="chargen")


def save(folder: Path, archetype: str, seed: int, count: int, system: str = "d100") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    module = load_builtin(system)
    for i in range(count):
        doc = make_character(module, seed, i, GenerationRequest(archetype=archetype))
        (folder / f"{i:04d}.json").write_text(to_json(doc), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def sides(tmp_path_factory):
    root = tmp_path_factory.mktemp("sides")
    return save(root / "guards", "town_guard", 3, 4), save(root / "bandits", "bandit", 4, 4)


def test_the_estimate_in_text(sides):
    r = run("fight", *sides, "--seed", "1", "--fights", "300")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0] == "guards (4) against bandits (4): 300 fights, seed 1"
    assert lines[1].startswith("  guards win ") and lines[1].endswith(", 95%)")
    assert lines[2].startswith("  bandits win ")
    assert any(ln.startswith("  rounds: median ") for ln in lines)
    assert any(ln.startswith("  most dangerous of guards: ") for ln in lines)
    assert lines[-1] == ("  tactics: target spread, parry first, a side breaks and flees once more than 1/2 of it "
                         "is out, at most 50 rounds (the defaults)")
    assert r.stderr == ""


def test_the_same_seed_gives_the_same_bytes_for_any_jobs(sides):
    one = run("fight", *sides, "--seed", "7", "--fights", "400", "--format", "json", "--jobs", "1")
    two = run("fight", *sides, "--seed", "7", "--fights", "400", "--format", "json", "--jobs", "2")
    assert one.exit_code == 0 and one.stdout == two.stdout
    doc = json.loads(one.stdout)
    assert doc["fights"] == 400 and doc["seed"] == 7 and doc["system"] == "d100"
    a, b = doc["sides"]
    assert a["wins"] + b["wins"] + doc["neither"]["both_fell_or_fled"] + doc["neither"]["round_limit"] == 400
    assert a["interval95"][0] <= a["share"] <= a["interval95"][1]
    assert len(a["fighters"]) == 4 and doc["tactics"] == {"target": "spread", "parry": "first", "morale": "1/2",
                                                          "max_rounds": 50}


def test_each_fighters_risk_in_text_and_json_adds_up_to_the_sides_losses(sides):
    r = run("fight", *sides, "--seed", "7", "--fights", "400", "--format", "json")
    doc = json.loads(r.stdout)
    for side in doc["sides"]:
        risk = side["risk"]
        assert [f["name"] for f in risk] == side["fighters"]
        assert abs(sum(f["out"] for f in risk) - side["out_per_fight"]) < 0.003
        assert abs(sum(f["dead"] for f in risk) - side["dead_per_fight"]) < 0.003
        for f in risk:
            assert 0 <= f["dead"] <= f["out"] <= 1
            assert re.fullmatch(r"(none|remote|slim|real|even|likely|near certain|certain) (<1|>99|\d+)%", f["out_text"])
    text = run("fight", *sides, "--seed", "7", "--fights", "400").stdout.splitlines()
    first = doc["sides"][0]["risk"][0]
    at = text.index("  each fighter's chance, a fight, of ending it out of the fight, and dead:")
    assert text[at + 1] == "    guards"
    assert text[at + 2] == f"      {first['name']}: out {first['out_text']}, dead {first['dead_text']}"


@pytest.mark.parametrize("p, said", [(0.0, "none 0%"), (0.004, "remote <1%"), (0.0499, "remote 5%"), (0.05, "slim 5%"),
                                     (0.149, "slim 15%"), (0.15, "real 15%"), (0.48, "even 48%"), (0.65, "likely 65%"),
                                     (0.85, "near certain 85%"), (0.996, "near certain >99%"), (1.0, "certain 100%")])
def test_the_risk_words_at_their_bounds(p, said):
    from chargen.fight.report import risk_text

    assert risk_text(p) == said


def test_how_each_side_loses_in_text_and_json(sides):
    doc = json.loads(run("fight", *sides, "--seed", "7", "--fights", "400", "--format", "json").stdout)
    for s, side in enumerate(doc["sides"]):
        loss = side["losses"]
        assert loss["fights"] == doc["sides"][1 - s]["wins"] and loss["fled"] + loss["all_down"] == loss["fights"]
        assert 1 <= loss["median_out"] <= len(side["fighters"]) and 0 <= loss["median_dead"] <= loss["median_out"]
        assert loss["fled"] > loss["all_down"]  # a side breaks once more than half of it is out (the default)
    text = run("fight", *sides, "--seed", "7", "--fights", "400").stdout
    loss = doc["sides"][0]["losses"]
    assert (f"  how guards lose ({loss['fights']} of 400 fights): broken and fleeing ") in text
    assert (f"typically {loss['median_out']} of 4 out, {loss['median_dead']} dead, by round {loss['median_round']} "
            "(medians)\n") in text
    last = run("fight", *sides, "--seed", "7", "--fights", "400", "--morale", "1").stdout
    assert "  how guards lose (" in last and ": always all down; typically 4 of 4 out, " in last  # to the last


def test_a_side_that_never_loses_says_so(tmp_path):
    a, b = save(tmp_path / "a", "villager", 1, 1), save(tmp_path / "b", "villager", 2, 1)
    for f in [*a.glob("*.json"), *b.glob("*.json")]:  # nobody can hurt anybody
        doc = json.loads(f.read_text())
        doc["weapons"] = []
        f.write_text(to_json(doc), encoding="utf-8")
    r = run("fight", a, b, "--seed", "1", "--fights", "50", "--max-rounds", "5")
    assert "  how a lose: never, in 50 fights\n  how b lose: never, in 50 fights\n" in r.stdout
    assert json.loads(run("fight", a, b, "--seed", "1", "--fights", "50", "--max-rounds", "5", "--format",
                          "json").stdout)["sides"][0]["losses"] is None


def test_log_prints_the_median_fight_blow_by_blow_as_the_estimate_played_it(sides):
    from collections import Counter
    from statistics import median_low

    doc = json.loads(run("fight", *sides, "--seed", "7", "--fights", "300", "--format", "json", "--log").stdout)
    log = doc["log"]
    wins = [s["wins"] for s in doc["sides"]]
    assert log[0].endswith("(the median fight):") and log[-1].startswith(f"  {doc['sides'][wins.index(max(wins))]['label']} win")
    assert any(": no harm" in ln for ln in log) and any(" attacks: " in ln and "hit points" in ln for ln in log)
    from chargen.fight.estimate import estimate
    from chargen.fight.log import fight_log, median_fight
    from chargen.fight.tactics import Tactics
    from chargen.run.fightsides import read_side, sides_module

    read = [read_side(p, (), ()) for p in sides]
    module = sides_module(tuple(s for s, _ in read), [m for _, m in read], (), ())
    est = estimate(module, tuple(s for s, _ in read), 300, 7, Tactics(), 1)
    n = median_fight(est)
    common = Counter(w for w, _, _ in est.results).most_common(1)[0][0]
    assert est.results[n][0] == common and est.results[n][1] == median_low(r for w, r, _ in est.results if w == common)
    lines = fight_log(module, est, n)
    assert lines == log and sum(ln.startswith("  round ") for ln in lines) == est.results[n][1]
    text = run("fight", *sides, "--seed", "7", "--fights", "300", "--log").stdout
    assert text.endswith("\n".join(log) + "\n")


def test_without_a_seed_one_is_drawn_and_reported(sides):
    r = run("fight", *sides, "--fights", "20")
    assert r.exit_code == 0 and r.stderr.startswith("chargen: seed ")


def test_a_party_file_and_the_batch_it_makes_are_the_same_side(tmp_path):
    batch = tmp_path / "watch"
    r = run("party", EXAMPLES / "town-watch.yaml", "-o", batch)
    assert r.exit_code == 0, r.output
    r = run("fight", EXAMPLES / "bandit-ambush.yaml", batch, "--seed", "2", "--fights", "200")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("Bandits of the Old Road (7) against watch (11): 200 fights, seed 2")
    by_folder, by_file = (json.loads(run("fight", EXAMPLES / "bandit-ambush.yaml", side, "--seed", "2", "--fights",
                                         "200", "--format", "json").stdout) for side in (batch, EXAMPLES / "town-watch.yaml"))
    assert by_file["sides"][1]["label"] == "The Lantern Street Watch" and by_folder["sides"][1]["label"] == "watch"
    for doc in (by_folder, by_file):
        for side in doc["sides"]:
            side.pop("label")
    assert by_folder == by_file


def test_tactics_options_change_the_fights(sides):
    base = run("fight", *sides, "--seed", "3", "--fights", "200", "--format", "json").stdout
    for option in (("--target", "random"), ("--target", "weakest"), ("--parry", "never"), ("--morale", "1")):
        other = run("fight", *sides, "--seed", "3", "--fights", "200", "--format", "json", *option)
        assert other.exit_code == 0 and other.stdout != base, option
        assert json.loads(other.stdout)["tactics"][option[0][2:]] == option[1]


def test_a_fight_nobody_can_win_says_so(tmp_path):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        doc = make_character(D100, 1, 0 if name == "a" else 1)
        doc["weapons"] = []
        (tmp_path / name / "x.json").write_text(to_json(doc), encoding="utf-8")
    r = run("fight", tmp_path / "a", tmp_path / "b", "--seed", "1", "--fights", "5", "--max-rounds", "3")
    assert r.exit_code == 0, r.output
    assert ("  nobody can hurt anybody: every fight stopped at the round limit (3 rounds) with nobody out"
            in r.stdout.splitlines())


@pytest.mark.parametrize("args, message", [
    (("nowhere/", "{b}"), "Error: nowhere: no such file or folder"),
    (("{empty}", "{b}"), "Error: {empty}: a folder with no .json file in it"),
    (("{a}", "{kotm}"), "Error: the sides are characters of several systems (d100, kotm); a fight is played under "
                        "one system's rules"),
    (("{a}", "{b}", "--morale", "2"), "Error: --morale '2': a share from 0 to 1 (1/2: a side breaks once more than half "
                                      "of it is out; 1: it fights to the last)"),
    (("{a}", "{b}", "--fights", "0"), None),
])
def test_bad_input_is_one_error_line(tmp_path, sides, args, message):
    (tmp_path / "empty").mkdir()
    kotm = save(tmp_path / "k", None, 1, 1, "kotm")
    names = {"a": sides[0], "b": sides[1], "empty": tmp_path / "empty", "kotm": kotm}
    r = run("fight", *(a.format(**names) for a in args))
    assert r.exit_code != 0 and r.stdout == ""
    if message is None:
        assert r.exit_code == 2
    else:
        assert r.stderr == message.format(**names) + "\n"


AMBUSH = """name: Bandits of the Old Road
system: d100
seed: 20261201
members:
  - {archetype: bandit_chief, name: Red Ulf}
  - {archetype: bandit, count: 2}
formats: [pdf]
layout: block
against: watch.yaml
"""


def test_the_encounter_sheet_prints_the_odds_and_the_combat_order(tmp_path):
    """A party file's against: (relative to the file) puts the odds and the combat order on the encounter sheet."""
    (tmp_path / "ambush.yaml").write_text(AMBUSH)
    (tmp_path / "watch.yaml").write_text((EXAMPLES / "town-watch.yaml").read_text())
    out = tmp_path / "odds"
    r = run("party", tmp_path / "ambush.yaml", "-o", out)
    assert r.exit_code == 0, r.output
    assert json.loads((out / "manifest.json").read_text())["against"] == "watch.yaml"
    text = subprocess.run(["pdftotext", "-layout", out / "party.pdf", "-"], capture_output=True, text=True).stdout
    assert "The odds" in text and "Bandits of the Old Road win " in text
    # 11 against 3 is over in a round (the median) since a defence is split among the attackers (issue 36)
    assert "against The Lantern Street Watch" in text and re.search(r"\d+ rounds? \(median\)", text)
    assert "Red Ulf" in text and "Sergeant Hobb Ashford" in text
    assert "= : the same strike rank: they strike together." in text
    assert "each fighter's chance a fight of ending it out of the fight, and dead: Red Ulf out " in text
    assert "The words: none, remote (under 5%), slim (under 15%)" in text
    assert "How Bandits of the Old Road lose (" in text and "How The Lantern Street Watch lose" in text
    r = run("party", tmp_path / "ambush.yaml", "-o", tmp_path / "none", "--against", tmp_path / "nothing.yaml")
    assert r.exit_code == 1 and r.stderr == f"Error: {tmp_path / 'nothing.yaml'}: no such file or folder\n"


def test_against_needs_the_encounter_sheet_and_a_readable_side(tmp_path):
    r = run("generate", "--system", "d100", "--seed", "1", "--count", "2", "--format", "json", "-o", tmp_path / "x",
            "--against", EXAMPLES / "town-watch.yaml")
    assert r.exit_code == 1 and r.stderr == ("Error: --against prints the odds on party.pdf's encounter sheet: give "
                                             "--format pdf and --layout block\n")
    assert not (tmp_path / "x").exists() or not any((tmp_path / "x").iterdir())
    r = run("generate", "--system", "d100", "--seed", "1", "--count", "2", "--format", "pdf", "--layout", "block",
            "-o", tmp_path / "y", "--against", tmp_path / "missing")
    assert r.exit_code == 1 and r.stderr == f"Error: {tmp_path / 'missing'}: no such file or folder\n"


def test_rules_check_finds_a_broken_melee_round_at_its_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("overlay: d100\nname: Broken\nchanges:\n  attacks:\n    set:\n      round.weapon_arm: tail\n"
                   "      round.prepare_weapon: -1\n", encoding="utf-8")
    r = run("rules", "check", bad)
    assert r.exit_code == 1
    assert (f"{bad}:6: changes.attacks.set.round.weapon_arm: unknown hit location 'tail' (expected one of: abdomen, "
            "chest, head, left_arm, left_leg, right_arm, right_leg)") in r.stdout
    assert f"{bad}:7: changes.attacks.set.round.prepare_weapon: -1 is out of range (expected 0 to 100)" in r.stdout


def test_a_house_rule_changes_the_fights(sides, tmp_path):
    slow = tmp_path / "slow.yaml"
    slow.write_text("overlay: d100\nname: Slow hands\nchanges:\n  attacks:\n    set:\n      round.strike_ranks: 6\n",
                    encoding="utf-8")
    base = run("fight", *sides, "--seed", "3", "--fights", "100", "--format", "json").stdout
    r = run("fight", *sides, "--seed", "3", "--fights", "100", "--format", "json", "--rules", slow)
    assert r.exit_code == 0, r.output
    assert r.stdout != base  # strike ranks past 6 lose their attack
    assert json.loads(r.stdout)["neither"]["round_limit"] > json.loads(base)["neither"]["round_limit"]


def test_a_batch_made_against_a_side_resumes_to_the_same_bytes(tmp_path):
    args = ("generate", "--system", "d100", "--seed", "5", "--count", "2", "--archetype", "bandit", "--format", "pdf",
            "--layout", "block", "--against", EXAMPLES / "town-watch.yaml")
    part = tmp_path / "part"
    assert run(*args, "-o", part).exit_code == 0
    whole = (part / "party.pdf").read_bytes()  # the uninterrupted run's
    (part / "party.pdf").unlink()
    r = run("generate", "-o", part, "--resume")
    assert r.exit_code == 0, r.output
    assert (part / "party.pdf").read_bytes() == whole
    r = run("generate", "-o", part, "--resume", "--against", EXAMPLES / "bandit-ambush.yaml")
    assert r.exit_code == 1 and "--against:" in r.stderr


def test_a_side_holds_at_most_200_fighters(tmp_path):
    doc = make_character(D100, 1, 0)
    for n, count in (("full", 200), ("over", 201), ("one", 1)):
        (tmp_path / n).mkdir()
        for i in range(count):
            (tmp_path / n / f"{i:04d}.json").write_text(to_json(doc), encoding="utf-8")
    r = run("fight", tmp_path / "full", tmp_path / "one", "--seed", "1", "--fights", "1", "--max-rounds", "1")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("full (200) against one (1): 1 fight, seed 1")
    r = run("fight", tmp_path / "over", tmp_path / "one", "--seed", "1", "--fights", "1")
    assert r.exit_code == 1 and r.stderr == f"Error: {tmp_path / 'over'}: more than 200 fighters on a side\n"


def test_an_estimate_plays_at_most_100000_fights(tmp_path):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        doc = make_character(D100, 1, 0)
        doc["weapons"] = []
        (tmp_path / name / "x.json").write_text(to_json(doc), encoding="utf-8")
    r = run("fight", tmp_path / "a", tmp_path / "b", "--seed", "1", "--fights", "100000", "--max-rounds", "1")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("a (1) against b (1): 100,000 fights, seed 1")
    r = run("fight", tmp_path / "a", tmp_path / "b", "--fights", "100001")
    assert r.exit_code == 2 and "100001 is not in the range 1<=x<=100000" in r.stderr


@pytest.mark.parametrize("system", ["kotm", "rtd"])
def test_an_encounter_sheet_of_a_system_without_strike_ranks_gives_its_order_roll(tmp_path, system):
    save(tmp_path / "party", None, 1, 2, system)
    r = run("generate", "--system", system, "--seed", "2", "--count", "2", "--format", "pdf", "--layout", "block",
            "--party-name", "Raiders", "--against", tmp_path / "party", "-o", tmp_path / "npcs")
    assert r.exit_code == 0, r.output
    text = subprocess.run(["pdftotext", "-layout", tmp_path / "npcs" / "party.pdf", "-"], capture_output=True,
                          text=True).stdout
    assert "Raiders win " in text and "against party" in text
    assert "The order is rolled each round, as the rules say (see chargen fight)." in text
    assert "1D6%" not in text and "None" not in text
