"""Generated KoTM characters: exact values for a seed, and invariants for any seed."""

import json
from fractions import Fraction

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from chargen.generate import make_character
from chargen.serialize import validate
from chargen.systems.kotm.sheet import sheet_context


def test_seed_42_character_0(kotm):
    doc = make_character(kotm, 42, 0)
    assert doc["identity"] == {"name": "Hale Blackthorn", "sex": "male", "age": 21}
    assert (doc["profession"]["id"], doc["level"], doc["sd"], doc["save_check"],
            doc["critical_fumble_damage"]) == ("ranger", 12, 50, 12, 7)
    assert [w["id"] for w in doc["weapons"]] == ["spear", "short_bow"]
    assert doc["weapons"][0]["damage"] == {"hit": [2, 11], "critical_success": [12, 15], "outstanding_success": [46, 46]}


def test_names_are_unique_within_a_batch(kotm):
    names = [make_character(kotm, 9, i)["identity"]["name"] for i in range(200)]
    by_sex = {}
    for i, n in enumerate(names):
        by_sex.setdefault(make_character(kotm, 9, i)["identity"]["sex"], []).append(n)
    assert all(len(v) == len(set(v)) for v in by_sex.values())


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), index=st.integers(0, 5000))  # index i alone replays i first rolls
def test_any_character_keeps_the_rules(kotm, seed, index):
    rules = kotm.rules
    doc = make_character(kotm, seed, index)
    validate(doc)
    level, sd = doc["level"], doc["sd"]
    assert 1 <= level <= 15
    assert 20 + 1 + 2 * level <= sd <= min(94, 30 + 2 * level)
    assert doc["save_check"] == max(5, level)
    assert doc["critical_fumble_damage"] == 10 - (level - 1) // 3
    assert doc["weapons"]
    profession = next(p for p in rules.professions if p.id == doc["profession"]["id"])
    allowed = {w for pick in profession.weapons for w in pick.options}
    for w in doc["weapons"]:
        assert w["id"] in allowed
        m = w["damage_modifier"]
        assert w["damage"]["hit"] == [max(0, 1 + m), 10 + m]
        assert w["damage"]["critical_success"] == [11 + m, 14 + m]
        assert w["damage"]["outstanding_success"] == [(10 + m + level) * 2] * 2
    ctx = sheet_context(doc, rules)
    assert sum(Fraction(o["odds"]["fraction"]) for o in ctx["outcomes"]) == 1
    assert ctx["outcomes"][2]["reads"] == f"05-{sd:02d}"


def test_sheet_context(kotm):
    doc = make_character(kotm, 42, 0)
    ctx = sheet_context(doc)
    assert (ctx["sd"], ctx["save_check"], ctx["critical_fumble_damage"]) == (50, 12, 7)
    assert [(o["abbr"], o["reads"], o["odds"]["percent"]) for o in ctx["outcomes"]] == [
        ("OS", "00", "1%"), ("CS", "01-04", "4%"), ("HIT", "05-50", "46%"), ("MISS", "51-94", "44%"),
        ("CF", "95-98", "4%"), ("TF", "99", "1%")]
    assert ctx["outcomes"][2]["odds"]["fraction"] == "23/50"
    assert len(ctx["fumble_table"]) == 32
    assert ctx["fumble_table"][0] == {"roll": "1-25", "id": "distracted", "label": "Distracted",
                                      "effect": "Tripped, Roll SC (dex) or fall, +5 to next INIT."}
    assert ctx["fumble_table"][-1]["roll"] == "00"
    assert ctx["weapons"][0] == {"label": "Spear", "kind": "melee", "damage_modifier": "+1", "hit": "2-11",
                                 "critical_success": "12-15", "outstanding_success": "46"}


@pytest.mark.parametrize("system", ["kotm", "rtd"])
def test_names_are_unique_in_a_batch_while_the_lists_last(system):
    """600 characters: each sex's list (given x bynames, 320 names) lasts, so no name repeats;
    and the name rank's replay of the first roll (sex) agrees with generation."""
    from chargen import engines
    from chargen.generate import _group_of, make_character
    from chargen.rules import load_builtin

    module = load_builtin(system)
    docs = [make_character(module, 77, i) for i in range(600)]
    assert len({d["identity"]["name"] for d in docs}) == 600
    group_of = _group_of(engines.require(system).names, module.rules, 77)  # the replay a name rank makes
    assert all(group_of(i) == (d["identity"]["sex"],) for i, d in enumerate(docs))


def test_an_sd_over_94_is_kept_checked_and_rendered(tmp_path):
    """The seed sets no SD ceiling: a character written with --set sd=97 --force is checked
    and rendered (generation.yaml's sd.max caps the roll only)."""
    from click.testing import CliRunner

    from chargen.cli import cli

    out = tmp_path / "g"
    r = CliRunner().invoke(cli, ["generate", "--system", "kotm", "--seed", "1", "--set", "sd=97", "--force",
                                 "-o", str(out)])
    assert r.exit_code == 0, r.output
    (path,) = [p for p in out.glob("0000-*.json")]
    assert json.loads(path.read_text("utf-8"))["sd"] == 97
    r = CliRunner().invoke(cli, ["check", str(path)])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(cli, ["render", str(path), "--format", "html", "-o", str(tmp_path / "r")])
    assert r.exit_code == 0, r.output
    assert "97" in next((tmp_path / "r").glob("0000-*.html")).read_text("utf-8")
    doc = json.loads(path.read_text("utf-8"))
    doc["sd"] = 1001  # a hostile figure is still refused
    path.write_text(json.dumps(doc), encoding="utf-8")
    r = CliRunner().invoke(cli, ["check", str(path)])
    assert r.exit_code == 1 and "1001 is greater than the maximum of 1000" in r.output
