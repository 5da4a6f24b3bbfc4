"""Numbers in user text are ASCII digits (issue 39, item 9): ``str.isdigit`` is true of ``²``, which
``int`` refuses with a traceback, and of ``٢``, which ``int`` reads; ``\\d`` matches the latter too.
Each reference, path, range and number below is one ``Error:`` line, or read as text, never a traceback."""

import json

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.digits import is_whole, whole
from chargen.rules.overlay import parse_path
from chargen.systems.d100.interop.meg_values import _int

PARTY = "name: Bandits\nsystem: d100\nseed: 1\nformats: [json]\nmembers:\n" \
        "  - {archetype: bandit_chief, name: Red Ulf}\n  - {archetype: bandit, count: 2}\n" \
        "relations:\n  fixed:\n    - {between: ['#%s', Red Ulf], kind: debtor}\n"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], prog_name="chargen")


@pytest.mark.parametrize("text, number", [("0", 0), ("42", 42), ("007", 7), ("9" * 18, int("9" * 18)), ("9" * 19, None),
                                          ("²", None), ("٢", None), ("２", None), (" 2", None), ("+2", None),
                                          ("-2", None), ("2_0", None), ("", None)])
def test_whole_reads_ascii_digits_only(text, number):
    assert whole(text) == number and is_whole(text) == (number is not None or text == "9" * 19)


@pytest.mark.parametrize("member", ["²", "٢", "1²"])
def test_a_member_number_in_other_digits_is_one_error_line(tmp_path, member):
    path = tmp_path / "p.yaml"
    path.write_text(PARTY % member, encoding="utf-8")
    r = run("party", path, "-o", tmp_path / "out")
    assert r.exit_code == 1 and isinstance(r.exception, SystemExit), r.output
    assert r.output.startswith("Error: ") and f"no member is named '#{member}'" in r.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").glob("*.json"))


def test_a_member_number_in_ascii_digits_still_names_it(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(PARTY % "2", encoding="utf-8")
    r = run("party", path, "-o", tmp_path / "out")
    assert r.exit_code == 0, r.output
    doc = json.loads(next((tmp_path / "out").glob("0002-*.json")).read_text())
    assert {"number": 0, "kind": "debtor"}.items() <= doc["relations"][0].items()


@pytest.mark.parametrize("selector", ["²", "٢"])
def test_an_overlay_index_in_other_digits_is_a_bad_path(selector):
    assert parse_path(f"skills[{selector}].base") == f"bad path 'skills[{selector}].base': [{selector}] is not [N] or [field=value]"
    assert str(parse_path("skills[2].base")[1]) == "[2]"


def test_dice_in_other_digits_are_malformed():
    r = run("roll", "٣D٦")
    assert r.exit_code != 0 and r.output.startswith("Error: malformed dice '٣D٦': unexpected '٣'"), r.output


@pytest.mark.parametrize("value", ["٤٢", "4_2", "²", "1e999"])
def test_a_meg_number_in_other_digits_is_refused(value):
    with pytest.raises(Exception, match=f"stats.STR: expected a number, not '{value}'"):
        _int(value, "stats.STR")
    assert _int(" 42 ", "stats.STR") == 42 and _int("12.5", "x") == 12


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("digits") / "g"
    assert run("generate", "--seed", 3, "--count", 1, "--format", "json,foundry,meg", "-o", out).exit_code == 0
    return out


@pytest.mark.parametrize("reach", ["²/50/100", "٢/50/100"])
def test_a_meg_weapon_range_in_other_digits_is_no_range(exported, tmp_path, reach):
    doc = json.loads(next(exported.glob("0000-*.meg.json")).read_text())
    weapon = doc[0]["combat_styles"][0]["weapons"][0]
    weapon.update(type="ranged", range=reach)
    path = tmp_path / "m.meg.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    r = run("render", path, "--format", "json", "-o", tmp_path / "c")
    assert r.exit_code == 0, r.output
    assert json.loads(next((tmp_path / "c").glob("*.json")).read_text())["weapons"][0]["range"] == 50  # the first part in ASCII digits


@pytest.mark.parametrize("reach", ["²", "٢"])
def test_a_foundry_weapon_range_in_other_digits_is_no_range(exported, tmp_path, reach):
    doc = json.loads(next(exported.glob("0000-*.foundry.json")).read_text())
    weapon = next(i for i in doc["items"] if i["type"] == "weapon")
    weapon["system"].update(weaponType="missile", range1=reach)
    path = tmp_path / "f.foundry.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    r = run("render", path, "--format", "json", "-o", tmp_path / "c")
    assert r.exit_code == 0, r.output
    assert all(w["range"] is None for w in json.loads(next((tmp_path / "c").glob("*.json")).read_text())["weapons"])
