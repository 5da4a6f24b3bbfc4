"""Pins (--set) and constraints (--require): a pin replaces its roll, every other roll stays."""

import json

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from chargen import engines, paths, pins
from chargen.cli import cli
from chargen.errors import ChargenError
from chargen.generate import GenerationRequest, make_character
from chargen.require import RequireError, parse, parse_all


def run(*args):
    return CliRunner().invoke(cli, list(args))


def pinned(module, *texts, force=False):
    return GenerationRequest(pins=pins.resolve(engines.require(module.engine).pins(module.rules), texts, force))


def test_a_pin_leaves_every_other_byte_of_the_batch_unchanged(tmp_path):
    for system, pin in (("kotm", "2:level=9"), ("rtd", "2:stats.str=19")):
        plain, with_pin = tmp_path / f"{system}-a", tmp_path / f"{system}-b"
        assert run("generate", "--system", system, "--seed", "42", "--count", "6", "-o", str(plain)).exit_code == 0
        r = run("generate", "--system", system, "--seed", "42", "--count", "6", "-o", str(with_pin), "--set", pin)
        assert r.exit_code == 0, r.output
        a = sorted(p.name for p in plain.iterdir())
        b = sorted(p.name for p in with_pin.iterdir())
        assert a == b
        for name in a:
            if name.startswith("0002") or name == "manifest.json":
                continue
            assert (plain / name).read_bytes() == (with_pin / name).read_bytes()
        one, two = (json.loads((d / next(n for n in a if n.startswith("0002"))).read_text()) for d in (plain, with_pin))
        assert one["rolls"] == two["rolls"]  # the pinned roll was still made
        assert two["pins"] == {pin.split(":")[1].split("=")[0]: int(pin.split("=")[1])}
        manifest = json.loads((with_pin / "manifest.json").read_text())
        assert manifest["pins"] == [[2, pin.split(":")[1].split("=")[0], int(pin.split("=")[1])]]


def test_kotm_derived_values_follow_a_pinned_level(kotm):
    plain = make_character(kotm, 42, 3)
    doc = make_character(kotm, 42, 3, pinned(kotm, "level=13"))
    assert doc["level"] == 13 and doc["save_check"] == 13
    assert doc["critical_fumble_damage"] == kotm.rules.critical_fumble_damage(13) == 6
    sd_roll = next(r["total"] for r in doc["rolls"] if r["for"] == "sd")
    assert doc["sd"] == min(kotm.rules.sd_max, sd_roll + 2 * 13)  # SD: the roll plus 2 per level
    assert [w["id"] for w in doc["weapons"]] == [w["id"] for w in plain["weapons"]]  # rolled after: kept
    assert doc["rolls"] == plain["rolls"] and doc["identity"] == plain["identity"]


def test_rtd_derived_values_follow_pins(rtd):
    doc = make_character(rtd, 42, 0, pinned(rtd, "stats.str=19", "skills.climbing.xp=30", force=True))
    stat = paths.lookup(doc, "stats.str")
    assert stat["value"] == 19 and stat["tier"] == "very_hard"
    skill = paths.lookup(doc, "skills.climbing")
    assert skill["xp"] == 30 and skill["level"] == "expert" and skill["level_label"] == "Expert"


def test_pin_errors_name_the_path_and_what_is_allowed(kotm):
    r = run("generate", "--system", "kotm", "--seed", "1", "--set", "lvl=3")
    assert r.exit_code == 1
    assert r.output == ("Error: --set lvl: not a path that can be pinned (expected one of: identity.name, "
                        "identity.sex, identity.age, profession, level, sd, flavour.appearance, flavour.manner, "
                        "flavour.speech, flavour.motive, flavour.secret, flavour.hook, flavour.quirk, flavour.possession, "
                        "flavour.fear, flavour.rumour)\n")  # issue 25: each flavour table's text can be pinned
    r = run("generate", "--system", "kotm", "--seed", "1", "--set", "level=40")
    assert r.output == "Error: --set level=40: the rules give 1 to 15 (levels.yaml levels); add --force to pin it anyway\n"
    r = run("generate", "--system", "kotm", "--seed", "1", "--set", "level=40", "--force")
    assert r.exit_code == 0 and json.loads(r.stdout)[0]["level"] == 40
    r = run("generate", "--system", "kotm", "--seed", "1", "--set", "profession=pirate", "--force")
    assert r.exit_code == 1 and "expected one of: warrior, ranger, rogue, priest, mage" in r.output
    r = run("generate", "--system", "kotm", "--seed", "1", "--set", "level")
    assert r.output == "Error: --set 'level': expected PATH=VALUE (e.g. characteristics.str=16)\n"


def test_identity_name_pin():
    r = run("generate", "--system", "rtd", "--seed", "5", "--index", "2", "--set", "identity.name=Red Ulf")
    assert r.exit_code == 0 and json.loads(r.stdout)["identity"]["name"] == "Red Ulf"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), index=st.integers(0, 300), stat=st.sampled_from(["str", "dex", "con"]),
       value=st.integers(0, 20))
def test_a_single_characteristic_pin_reaches_only_what_derives_from_it(rtd, seed, index, stat, value):
    plain = make_character(rtd, seed, index)
    doc = make_character(rtd, seed, index, pinned(rtd, f"stats.{stat}={value}"))
    assert doc.pop("pins") == {f"stats.{stat}": value}
    reach = (f"stats.{stat}.value", f"stats.{stat}.tier")
    a, b = dict(paths.leaves(plain)), dict(paths.leaves(doc))
    changed = {p for p in a.keys() | b.keys() if a.get(p) != b.get(p)}
    assert changed <= set(reach) | {p for p in changed if p.startswith("trail")}
    assert paths.lookup(doc, f"stats.{stat}.tier") == rtd.rules.tier_of(value).id


def test_require_grammar():
    assert str(parse("combat.hit_points >= 14")) == "combat.hit_points>=14"
    for bad in ("hp >= x", "__import__('os')", "a>=1 or b", "a=1", ">=3"):
        with pytest.raises(RequireError):
            parse(bad)


def test_a_constraint_met_is_reproducible(rtd):
    r = run("generate", "--system", "rtd", "--seed", "42", "--count", "3", "--require", "stats.str>=15")
    assert r.exit_code == 0, r.output
    docs = json.loads(r.stdout)
    for d in docs:
        assert paths.lookup(d, "stats.str")["value"] >= 15
        assert d["require"]["expressions"] == ["stats.str>=15"]
    again = run("generate", "--system", "rtd", "--seed", "42", "--index", "2", "--require", "stats.str>=15")
    assert json.loads(again.stdout) == docs[2]


def test_a_constraint_never_met_says_so_with_the_best_value_seen():
    r = run("generate", "--system", "rtd", "--seed", "42", "--require", "stats.str>=25")
    assert r.exit_code == 1
    assert r.output.startswith("Error: character 0: no attempt of 10000 meets stats.str>=25 (best seen: stats.str 20, at attempt ")


def test_a_constraint_on_a_path_that_is_not_a_number(rtd):
    r = run("generate", "--system", "rtd", "--seed", "42", "--require", "identity.name>=3")
    assert r.exit_code == 1 and r.output.startswith("Error: --require identity.name>=3: identity.name is not a number")


def test_pins_apply_to_every_attempt(kotm):
    r = run("generate", "--system", "kotm", "--seed", "9", "--set", "level=2", "--require", "sd>=30")
    doc = json.loads(r.stdout)[0]
    assert doc["level"] == 2 and doc["sd"] >= 30 and doc["save_check"] == 5


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), index=st.integers(0, 300),
       stat=st.sampled_from(["str", "con", "siz", "int", "pow", "dex", "cha"]), value=st.integers(3, 18))
def test_a_d100_characteristic_pin_reaches_only_what_derives_from_it(d100, seed, index, stat, value):
    plain = make_character(d100, seed, index)
    doc = make_character(d100, seed, index, pinned(d100, f"characteristics.{stat}={value}"))
    assert doc["characteristics"] == {**plain["characteristics"], stat: value}
    for key in ("identity", "background", "money", "armour", "equipment", "rolls", "system", "seed"):
        assert doc[key] == plain[key], key
    assert [w["id"] for w in doc["weapons"]] == [w["id"] for w in plain["weapons"]]  # rolled after: kept
    again = make_character(d100, seed, index, pinned(d100, *(f"characteristics.{c}={v}"
                                                            for c, v in doc["characteristics"].items())))
    assert {k: v for k, v in again.items() if k not in ("pins", "trail")} == \
        {k: v for k, v in doc.items() if k not in ("pins", "trail")}


def test_d100_derived_values_follow_a_strength_pin(d100):
    doc = make_character(d100, 42, 3, pinned(d100, "characteristics.str=18"))
    rules = d100.rules
    expected = {ab.id: ab.value(doc["characteristics"]) for ab in rules.abilities}
    assert {k: doc["combat"][k] for k in expected} == expected
    assert doc["combat"]["damage_modifier"] == "+1D4"  # STR 18, SIZ 13: average 16 (damage modifier rows)


def test_d100_background_pin(d100):
    doc = make_character(d100, 42, 0, pinned(d100, "background=poor_noble"))
    assert doc["background"]["id"] == "poor_noble"
    assert make_character(d100, 42, 1) == make_character(d100, 42, 1, pinned(d100, "0:background=poor_noble"))


def test_party_file_lines_take_pins(tmp_path):
    party = tmp_path / "p.yaml"
    party.write_text("name: Test\nsystem: d100\nseed: 5\nmembers:\n"
                     "  - {archetype: bandit_chief, name: Red Ulf, set: {characteristics.str: 17}}\n"
                     "  - {archetype: bandit, count: 2}\n")
    plain = tmp_path / "plain.yaml"
    plain.write_text(party.read_text().replace(", set: {characteristics.str: 17}", ""))
    assert run("party", str(party), "-o", str(tmp_path / "a")).exit_code == 0
    assert run("party", str(plain), "-o", str(tmp_path / "b")).exit_code == 0
    a, b = sorted((tmp_path / "a").glob("0*.json")), sorted((tmp_path / "b").glob("0*.json"))
    chief = json.loads(a[0].read_text())
    assert chief["characteristics"]["str"] == 17 and chief["pins"] == {"identity.name": "Red Ulf", "characteristics.str": 17}
    assert chief["rolls"] == json.loads(b[0].read_text())["rolls"]
    assert [p.read_bytes() for p in a[1:]] == [p.read_bytes() for p in b[1:]]  # the other line: the same bytes
    party.write_text(party.read_text().replace("characteristics.str: 17", "characteristics.str: 40, lvl: 3"))
    r = run("rules", "check", str(party))
    assert f"{party}:5: members[0].set.characteristics.str: characteristics.str=40: the rules give 3 to 19 " \
           f"(3D6 in characteristics.yaml, or an archetype's dice)\n" in r.output
    assert f"{party}:5: members[0].set.lvl: lvl: not a path that can be pinned (expected one of: identity.name, " in r.output


def test_a_constraint_never_met_in_a_folder_does_not_advise_resume(tmp_path):
    """No run meets it: the line says so, and never that --resume would finish the batch."""
    r = run("generate", "--system", "rtd", "--seed", "42", "--require", "stats.str>=25", "-o", str(tmp_path / "o"))
    assert r.exit_code == 1
    assert "no attempt of 10000 meets stats.str>=25" in r.output and "--resume" not in r.output
    assert "loosen the --require" in r.output


def test_a_skill_pin_allows_what_an_archetype_rolls():
    """A duelist's swordplay XP is rolled on the archetype's own dice (2D10+24): a pin in that range is no error."""
    r = run("generate", "--system", "rtd", "--archetype", "duelist", "--seed", "1", "--index", "0",
            "--set", "skills.swordplay.xp=40")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["pins"] == {"skills.swordplay.xp": 40}
    r = run("generate", "--system", "rtd", "--seed", "1", "--set", "skills.swordplay.xp=60")
    assert r.exit_code == 1 and "the rules give 1 to 44 (3D10-2 in skills.yaml generation.xp, or an archetype's dice)" in r.output
