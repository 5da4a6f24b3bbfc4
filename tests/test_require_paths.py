"""Issue 22 point 5: --require, --set and explain read one path grammar: weapons and skills by id,
``best_weapon`` (the usable weapon ranked best, per engine), and party lines take ``require:``."""

import json

import pytest
from click.testing import CliRunner

from chargen.cli import cli


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def characters(folder):
    return [json.loads(p.read_text()) for p in sorted(folder.glob("0*.json"))]


def best(doc, by):
    usable = [w for w in doc["weapons"] if not w.get("below_minimum") and isinstance(w.get(by), int)]
    return max(usable, key=lambda w: w[by])


def test_require_takes_a_weapon_by_id_that_the_first_character_may_not_carry(tmp_path):
    r = run("generate", "--system", "d100", "--seed", 7, "--archetype", "soldier", "--count", 3,
            "--require", "weapons.battle_axe.attack>=40", "-o", tmp_path / "a")
    assert r.exit_code == 0, r.output
    for doc in characters(tmp_path / "a"):
        assert next(w for w in doc["weapons"] if w["id"] == "battle_axe")["attack"] >= 40


@pytest.mark.parametrize("system, expr, by", [("d100", "best_weapon.attack>=60", "attack"),
                                              ("kotm", "best_weapon.damage_modifier>=2", "damage_modifier"),
                                              ("rtd", "best_weapon.damage>=7", "damage")])
def test_require_best_weapon_in_every_engine(tmp_path, system, expr, by):
    extra = ("--archetype", "soldier") if system == "d100" else ()
    r = run("generate", "--system", system, "--seed", 7, "--count", 3, *extra, "--require", expr, "-o", tmp_path / "a")
    assert r.exit_code == 0, r.output
    for doc in characters(tmp_path / "a"):
        assert best(doc, by)[by] >= int(expr.split(">=")[1])
        assert doc["require"]["expressions"] == [expr]


def test_require_skill_by_id_and_an_unknown_id_is_named_with_the_rules_ids(tmp_path):
    r = run("generate", "--system", "d100", "--seed", 7, "--count", 2, "--require", "skills.climbing>=30", "--format", "json")
    assert r.exit_code == 0, r.output
    r = run("generate", "--system", "d100", "--seed", 7, "--require", "weapons.brodsword.attack>=3")
    assert r.exit_code == 1
    assert r.output.startswith("Error: --require weapons.brodsword.attack>=3: weapons has no 'brodsword' in these "
                               "rules (expected one of: dagger, belt_knife, shortsword, broadsword,")
    assert len(r.output.strip().splitlines()) == 1


def test_best_weapon_skips_a_weapon_the_character_cannot_use(tmp_path):
    # STR 3: the soldier's broadsword (35%) is below its minimum; the belt knife (25%) is the best it can use
    r = run("generate", "--system", "d100", "--seed", 13, "--archetype", "soldier", "--set", "characteristics.str=3",
            "-o", tmp_path / "a")
    assert r.exit_code == 0, r.output
    file = next((tmp_path / "a").glob("0*.json"))
    doc = json.loads(file.read_text())
    assert [(w["id"], w["attack"], bool(w["below_minimum"])) for w in doc["weapons"][:2]] == [
        ("belt_knife", 25, False), ("broadsword", 35, True)]
    r = run("explain", file, "best_weapon.attack")
    assert r.output.splitlines()[:2] == ["best_weapon.attack is weapons.belt_knife.attack",
                                         "weapons.belt_knife.attack: 25"], r.output


def test_explain_and_require_read_the_same_paths(tmp_path):
    assert run("generate", "--system", "d100", "--seed", 2, "--archetype", "town_guard", "-o", tmp_path / "a").exit_code == 0
    file = next((tmp_path / "a").glob("0*.json"))
    r = run("explain", file, "weapons[1].attack")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[:2] == ["weapons[1].attack is weapons.shortsword.attack", "weapons.shortsword.attack: 43"]
    r = run("generate", "--system", "d100", "--seed", 1, "--set", "weapons.broadsword.attack=3")
    assert r.exit_code == 1 and "not a path that can be pinned" in r.output
    r = run("generate", "--system", "d100", "--seed", 1, "--set", "weapons..x=3")
    assert r.exit_code == 1 and "not a path (keys by dots, records by id" in r.output


PARTY = """\
name: Picky Soldiers
system: d100
seed: 5
members:
  - {archetype: soldier, count: 3, require: ["best_weapon.attack>=60", "skills.climbing>=20"]}
  - {archetype: bandit, count: 2}
"""


def test_party_lines_take_require_recorded_and_honoured_by_resume(tmp_path):
    file = tmp_path / "p.yaml"
    file.write_text(PARTY)
    out = tmp_path / "out"
    r = run("party", file, "-o", out)
    assert r.exit_code == 0, r.output
    docs = characters(out)
    for doc in docs[:3]:
        assert best(doc, "attack")["attack"] >= 60
        assert doc["require"]["expressions"] == ["best_weapon.attack>=60", "skills.climbing>=20"]
    assert all("require" not in doc for doc in docs[3:])
    lines = json.loads((out / "manifest.json").read_text())["party"]["lines"]
    assert lines[0]["require"] == ["best_weapon.attack>=60", "skills.climbing>=20"] and "require" not in lines[1]
    second = sorted(out.glob("0001-*.json"))[0]
    before = second.read_bytes()
    second.unlink()
    r = run("party", file, "-o", out, "--resume")
    assert r.exit_code == 0, r.output
    assert second.read_bytes() == before


def test_party_require_problems_one_line_each_at_their_line(tmp_path):
    file = tmp_path / "p.yaml"
    file.write_text(PARTY + """\
  - archetype: bandit
    key: picky
    require:
      - weapons.brodsword.attack>=3
      - 12
      - "hit>3"
  - {archetype: bandit, key: p2, require: "combat.hit_points>3"}
""")
    r = run("party", file, "-o", tmp_path / "out")
    assert r.exit_code == 1
    lines = [ln.replace(f"Error: {file}", "Error: p.yaml") for ln in r.output.splitlines()]
    assert len(lines) == 4, r.output
    assert lines[0].startswith("Error: p.yaml:10: members[2].require[0]: weapons.brodsword.attack>=3: weapons has no 'brodsword'")
    assert lines[1] == "Error: p.yaml:11: members[2].require[1]: expected text, got the number 12"
    assert lines[2].startswith("Error: p.yaml:12: members[2].require[2]: hit>3: hit is not a number")
    assert lines[3].startswith("Error: p.yaml:13: members[3].require: expected a list of expressions")
