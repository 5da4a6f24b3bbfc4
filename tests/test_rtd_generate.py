"""Generated RTD characters: exact values for a seed, invariants for any seed, sheet odds."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chargen.generate import make_character
from chargen.rules import load_builtin
from chargen.serialize import validate
from chargen.systems.rtd.sheet import sheet_context


def test_seed_42_character_0(rtd):
    doc = make_character(rtd, 42, 0)
    assert doc["identity"] == {"name": "Tad Oakley", "sex": "male", "age": 21}
    assert [(s["id"], s["value"], s["tier"]) for s in doc["stats"]] == [
        ("str", 13, "hard"), ("dex", 14, "hard"), ("con", 11, "hard"), ("int", 10, "medium"),
        ("wis", 10, "medium"), ("cha", 8, "medium")]
    assert [(s["id"], s["xp"], s["level"]) for s in doc["skills"]] == [("archery", 13, "adept"),
                                                                      ("brawling", 18, "talented")]
    assert doc["skills"][0]["bonus"] == "+1 to all rolls; extra +1 on a natural 1; successes are improved"
    assert doc["weapons"] == [{"id": "spear", "label": "Spear", "kind": "melee", "damage": 6, "critical_multiplier": 2.0}]


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), index=st.integers(0, 5000))  # index i alone replays i first rolls
def test_any_character_keeps_the_rules(rtd, seed, index):
    rules = rtd.rules
    doc = make_character(rtd, seed, index)
    validate(doc)
    for s in doc["stats"]:
        assert 0 <= s["value"] <= 20
        tier = rules.tier(s["tier"])
        assert tier.min <= s["value"] <= tier.max
    ids = [s["id"] for s in doc["skills"]]
    assert 2 <= len(ids) <= 4 and len(set(ids)) == len(ids)
    for s in doc["skills"]:
        reached = [lv for lv in rules.levels if lv.xp <= s["xp"]]
        assert s["level"] == (reached[-1].id if reached else None)
        assert s["next_level_xp"] is None or s["next_level_xp"] > s["xp"]
    assert [w["part"] for w in doc["wounds"]] == [p.id for p in rules.wounds.parts]
    assert all(w["state"] == "unwounded" for w in doc["wounds"])
    assert doc["weapons"] and doc["weapons"][0]["kind"] == "melee"
    ctx = sheet_context(doc, rules)
    for stat in ctx["stats"]:
        own = [d for d in stat["difficulties"] if d["id"] == stat["tier"]["id"]][0]
        assert Fraction(own["odds"]["fraction"]) == Fraction(stat["value"], rules.tier(stat["tier"]["id"]).max)


def test_sheet_context(rtd):
    ctx = sheet_context(make_character(rtd, 42, 0))
    strength = ctx["stats"][0]
    assert (strength["value"], strength["tier"]["label"]) == (13, "Hard")
    assert [(d["label"], d["how"], d["odds"]["fraction"], d["odds"]["percent"]) for d in strength["difficulties"]] == [
        ("Easy", "automatic", "1/1", "100%"), ("Medium", "automatic", "1/1", "100%"),
        ("Hard", "1D15", "13/15", "86.67%"), ("Very Hard", "out of reach", "0/1", "0%"),
        ("Master", "out of reach", "0/1", "0%"), ("Godly", "out of reach", "0/1", "0%")]
    assert ctx["difficulties"][1] == {"id": "medium", "label": "Medium", "min": 6, "max": 10, "die": "1D10"}
    assert [(r["rolls"], r["odds"]["percent"]) for r in ctx["success_charts"]["rows"]] == [
        ("1-5", "25%"), ("6-10", "25%"), ("11-15", "25%"), ("16-19", "20%"),
        ("21-25", "1.25%"), ("26-30", "1.25%"), ("31-35", "1.25%"), ("36-39", "1%")]
    assert ctx["success_charts"]["beyond"]["fraction"] == "1/400"
    assert [s["action_success"][0]["success"]["fraction"] for s in ctx["skills"]] == ["2/3", "5/6"]
    assert ctx["weapons"][0]["rows"][0] == {"label": "Glancing Hit", "multiplier": "0.8x", "damage": 5}
    assert ctx["weapons"][0]["critical"] == {"multiplier": "2x", "damage": 12}
    assert [w["penalty"] for w in ctx["wound_states"]] == [0, 0, 1, 2, 3, None]
    assert ctx["body_parts"][0] == {"part": "head", "label": "Head", "state": "unwounded", "important": True,
                                    "states": ["unwounded", "lightly_wounded", "moderately_wounded", "broken",
                                               "mangled", "lopped_off"]}


def test_a_part_that_is_not_brittle_cannot_be_broken(rtd):
    import dataclasses

    from chargen.systems.rtd.sheet import _part

    soft = dataclasses.replace(rtd.rules.wounds.parts[0], brittle=False)
    rules = dataclasses.replace(rtd.rules, wounds=dataclasses.replace(rtd.rules.wounds, parts=(soft,)))
    assert "broken" not in _part(rules, {"part": "head", "state": "unwounded"})["states"]


def test_sheet_lists_each_choice_of_an_expert(rtd):
    doc = make_character(rtd, 42, 0)
    doc["skills"] = [dict(doc["skills"][0], xp=30, level="expert")]
    odds = sheet_context(doc, rtd.rules)["skills"][0]["action_success"]
    assert [(o["with"], o["success"]["fraction"]) for o in odds] == [("bonus +1", "2/3"), ("bonus +2", "5/6"),
                                                                     ("bonus +3", "1/1")]


def test_the_engine_reads_no_id_by_name():
    from chargen.systems.rtd.rules import READS

    assert READS == {}


def _saved(tmp_path, change):
    import json

    doc = make_character(load_builtin("rtd"), 1, 0)
    change(doc)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _cli(*args):
    from click.testing import CliRunner

    from chargen.cli import cli

    return CliRunner().invoke(cli, list(args))


def test_a_buffed_stat_and_any_skill_are_checked_and_rendered(tmp_path):
    """The seed: "Basic stats go from 0 to 20, anything beyond that will require some form of self
    buffing" (its Master and Godly tiers run 21-50), and "Skills can be anything. There's no list of skills"."""
    def edit(doc):
        doc["stats"][0].update(value=25, tier="master")
        doc["stats"][1].update(value=50, tier="godly")
        doc["skills"].append({"id": "juggling", "xp": 12})  # by id alone: filled from the rules
        doc["skills"].append({"id": "underwater_basket_weaving", "label": "Basket weaving (underwater)", "xp": 30,
                              "level": "expert", "level_label": "Expert",
                              "bonus": "choose +1, +2 or +3; successes are greatly improved",
                              "next_level_xp": 37})

    path = _saved(tmp_path, edit)
    r = _cli("check", str(path))
    assert r.exit_code == 0, r.output
    r = _cli("render", str(path), "--format", "html", "-o", str(tmp_path / "r"))
    assert r.exit_code == 0, r.output
    html = next((tmp_path / "r").glob("*.html")).read_text("utf-8")
    assert "Juggling" in html and "Basket weaving (underwater)" in html and "Adept" in html


@pytest.mark.parametrize("change, message", [
    (lambda d: d["stats"][0].update(value=51), "51 is greater than the maximum of 50"),
    (lambda d: d["skills"].append({"id": "x" * 61, "xp": 3}), "is too long"),
    (lambda d: d["skills"].append({"id": "<script>", "xp": 3}), "does not match"),
    (lambda d: d["skills"].append({"id": "juggling", "label": "J" * 81, "xp": 3}), "is too long"),
    (lambda d: d["skills"].extend({"id": f"s{n}", "xp": 1} for n in range(201)), "is too long"),
])
def test_hostile_stats_and_skills_are_still_refused(tmp_path, change, message):
    r = _cli("check", str(_saved(tmp_path, change)))
    assert r.exit_code == 1 and message in r.output, r.output
