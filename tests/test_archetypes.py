"""Archetypes in every system: they generate, fit the schema and their declared ranges, their
numbers make sense at the table (tested over fixed seeds), overlays extend them, and
`chargen archetypes` and `chargen stats` show them."""

import statistics

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from chargen import engines
from chargen.cli import cli
from chargen.errors import RulesError
from chargen.generate import GenerationRequest, make_character
from chargen.rules import load_builtin, load_module
from chargen.serialize import validate
from chargen.stats import percentile, sample

SEEDS = range(200)
ALL = [(s, a.id) for s in ("d100", "kotm", "rtd") for a in engines.require(s).archetypes(load_builtin(s).rules)]


def run(*args):
    return CliRunner().invoke(cli, list(args), prog_name="chargen")


def test_enough_archetypes_ship():
    counts = {s: sum(1 for x, _ in ALL if x == s) for s in ("d100", "kotm", "rtd")}
    assert counts["d100"] >= 10 and counts["kotm"] >= 5 and counts["rtd"] >= 5
    d100 = {a for s, a in ALL if s == "d100"}
    assert {"town_guard", "soldier", "bandit", "bandit_chief", "merchant", "hunter", "sailor", "noble_knight",
            "priest_scholar", "barbarian_warrior"} <= d100


def best_attack(doc):
    return max(w["attack"] for w in doc["weapons"] if w["attack"] is not None)


def mean_of(system, archetype, figure, seeds=SEEDS):
    module = load_builtin(system)
    return statistics.mean(figure(make_character(module, 9, i, GenerationRequest(archetype=archetype))) for i in seeds)


@pytest.mark.parametrize("system, better, worse, figure", [
    ("d100", "veteran_soldier", "recruit", best_attack),
    ("d100", "veteran_soldier", "soldier", best_attack),
    ("d100", "soldier", "recruit", best_attack),
    ("d100", "guard_sergeant", "town_guard", best_attack),
    ("d100", "bandit_chief", "bandit", best_attack),
    ("d100", "noble_knight", "villager", best_attack),
    ("d100", "guard_sergeant", "town_guard", lambda d: 2 * d["combat"]["hit_points"]),  # CON 2D6+6: +2.5 HP
    ("kotm", "champion", "man_at_arms", lambda d: d["level"]),
    ("kotm", "man_at_arms", "militia", lambda d: d["sd"]),
    ("rtd", "duelist", "guard", lambda d: max(s["xp"] for s in d["skills"])),
])
def test_numbers_make_sense_at_the_table(system, better, worse, figure):
    assert mean_of(system, better, figure) > mean_of(system, worse, figure) + 3


def test_the_veteran_beats_the_recruit_nearly_always():
    """Not just on average: nineteen times in twenty at the same index."""
    d100 = load_builtin("d100")
    wins = sum(best_attack(make_character(d100, 9, i, GenerationRequest(archetype="veteran_soldier")))
               > best_attack(make_character(d100, 9, i, GenerationRequest(archetype="recruit"))) for i in SEEDS)
    assert wins >= 0.95 * len(SEEDS)


def test_d100_overrides(d100):
    for i in range(30):
        doc = make_character(d100, 4, i, GenerationRequest(archetype="guard_sergeant"))
        assert 8 <= doc["characteristics"]["str"] <= 18 and 9 <= doc["characteristics"]["con"] <= 19
        assert doc["background"]["id"] in ("townsfolk", "peasant")
        assert 24 <= doc["identity"]["age"] <= 30
        assert doc["archetype"] == {"id": "guard_sergeant", "label": "Guard sergeant"}
        ids = [w["id"] for w in doc["weapons"]]
        assert ids[0] == "belt_knife" and ids[1] in ("broadsword", "mace") and ids[3] == "light_crossbow"
        assert ids[2] == ("medium_shield" if doc["characteristics"]["str"] >= 9 else "small_shield")  # its fallback
        oratory = next(s for s in doc["skills"] if s["id"] == "oratory")
        assert {"source": "archetype", "value": 10, "id": "guard_sergeant"} in oratory["sources"]


def test_weighted_background_follows_its_weights(d100):
    """town_guard: townsfolk 3, peasant 1."""
    docs = [make_character(d100, 11, i, GenerationRequest(archetype="town_guard")) for i in range(400)]
    share = sum(d["background"]["id"] == "townsfolk" for d in docs) / len(docs)
    assert 0.68 < share < 0.82


def test_names_stay_unique_within_an_archetype_batch(d100):
    names = [make_character(d100, 3, i, GenerationRequest(archetype="town_guard"))["identity"]["name"] for i in range(60)]
    assert len(set(names)) == 60


def test_an_archetype_alone_is_its_batch_self(d100):
    request = GenerationRequest(archetype="bandit")
    batch = [make_character(d100, 5, i, request) for i in range(8)]
    assert make_character(d100, 5, 7, request) == batch[7]


ARCHETYPE_OVERLAY = """overlay: d100
name: more archetypes
changes:
  archetypes:
    add:
      archetypes:
        - {id: pit_fighter, label: Pit fighter, source: default, background: townsfolk, profession: soldier,
           years: 1D4+4, characteristics: {str: 3D6+3}}
    set:
      archetypes[id=town_guard].years: 1D4+2
"""


def test_an_overlay_adds_and_changes_archetypes(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(ARCHETYPE_OVERLAY)
    module = load_module("d100", [path])
    assert "pit_fighter" in module.rules.archetypes and str(module.rules.archetypes["town_guard"].years) == "1D4+2"
    doc = make_character(module, 1, 0, GenerationRequest(archetype="pit_fighter"))
    assert doc["characteristics"]["str"] >= 6 and 21 <= doc["identity"]["age"] <= 24


@pytest.mark.parametrize("entry, problem", [
    ("{id: x, label: X, source: default, background: barbarian, profession: merchant, years: 2}",
     "changes.archetypes.add.archetypes[0].background: background 'barbarian' may not take profession 'merchant' (its backgrounds: townsfolk, poor_noble)"),
    ("{id: x, label: X, source: default, background: peasant, years: 2}",
     "changes.archetypes.add.archetypes[0].years: years of previous experience need a profession (add 'profession')"),
    ("{id: x, label: X, source: default, background: peasant, profession: farmer}",
     "changes.archetypes.add.archetypes[0]: missing key 'years' (an archetype with a profession gives its years, a number or dice)"),
    ("{id: x, label: X, source: default, background: peasant, profession: farmer, years: 10D10}",
     "changes.archetypes.add.archetypes[0].years: 10D10 can give 10 to 100 years (expected 0 to 40: professions.yaml max_years)"),
    ("{id: x, label: X, source: default, background: peasant, characteristics: {str: 1D6-3}}",
     "changes.archetypes.add.archetypes[0].characteristics.str: dice 1D6-3 can roll below 0 (a characteristic is at least 0)"),
    ("{id: x, label: X, source: default, background: {peasant: 0}}",
     "changes.archetypes.add.archetypes[0].background.peasant: 0 is out of range (expected 1 to 1000)"),
    ("{id: x, label: X, source: default, background: peasant, grade: 3}",
     "changes.archetypes.add.archetypes[0].grade: unknown key (allowed: background, characteristics, equipment, id, label, names, "
     "profession, rank, skills, source, tier, weapon_skill, years)"),
    ("{id: x, label: X, source: default, background: peasant, rank: {band: elite, signature: {skill: oratory}}}",
     "changes.archetypes.add.archetypes[0].rank.band: unknown rank 'elite' (expected one of: rabble, novice, skilled, "
     "veteran, master)"),
    ("{id: x, label: X, source: default, background: peasant, rank: {band: novice, signature: {weapon: spear}}}",
     "changes.archetypes.add.archetypes[0].rank.signature.weapon: unknown weapon 'spear' (expected one of: battle_axe, "
     "belt_knife, broadsword, club, composite_bow, dagger, great_axe, greatsword, hand_axe, javelin, large_shield, "
     "light_crossbow, ...)"),
    ("{id: x, label: X, source: default, background: peasant, rank: {band: novice, signature: {luck: 3}}}",
     "changes.archetypes.add.archetypes[0].rank.signature: unknown signature 'luck' (expected one of: weapon, skill)"),
])
def test_bad_archetypes_are_problems_at_their_line(tmp_path, entry, problem):
    path = tmp_path / "house.yaml"
    path.write_text(f"overlay: d100\nname: bad\nchanges:\n  archetypes:\n    add:\n      archetypes:\n        - {entry}\n")
    with pytest.raises(RulesError) as e:
        load_module("d100", [path])
    assert [p.split(": ", 1)[1] for p in e.value.problems] == [problem]
    assert e.value.problems[0].startswith(f"{path}:7: ")


def test_generate_archetype_cli_errors():
    r = run("generate", "--seed", "1", "--archetype", "town_gard")
    assert r.exit_code == 1 and r.stderr.startswith(
        "Error: --archetype: unknown archetype 'town_gard' (expected one of: bandit, bandit_chief, ")
    r = run("generate", "--system", "kotm", "--seed", "1", "--profession", "soldier", "--years", "2")
    assert r.exit_code == 1 and r.stderr == (
        "Error: --profession and --years are d100 previous experience (a KoTM archetype sets the profession)\n")
    r = run("generate", "--seed", "1", "--years", "3")
    assert r.exit_code == 1 and r.stderr == ("Error: --years: years of previous experience need a profession "
                                             "(add --profession, or an --archetype with one)\n")
    r = run("generate", "--seed", "1", "--profession", "soldier", "--years", "2X")
    assert r.exit_code == 1 and r.stderr.startswith("Error: --years: malformed dice '2X'")


def test_generate_archetype_cli_writes_them(tmp_path):
    r = run("generate", "--seed", "2", "--archetype", "hunter", "--count", "3", "-o", str(tmp_path / "out"))
    assert r.exit_code == 0, r.output
    import json

    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["request"] == {"archetype": "hunter"}
    docs = [json.loads((tmp_path / "out" / c["files"]["json"]).read_text()) for c in manifest["characters"]]
    assert all(d["archetype"]["id"] == "hunter" for d in docs)


def test_archetypes_command_lists_every_system():
    r = run("archetypes")
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    assert len(lines) == len(ALL)
    assert [line.split()[:2] for line in lines] == [[s, a] for s, a in ALL]
    r = run("archetypes", "--system", "rtd")
    assert r.stdout.splitlines()[0] == ("rtd   thug               Thug                 green; STR 2D6+6, INT 3D6-3, "
                                        "brawling 2D6 XP, intimidation 1D6 XP, own weapons")


def test_percentile_is_nearest_rank():
    values = list(range(1, 101))
    assert [percentile(values, p) for p in (5, 25, 50, 75, 95)] == [5, 25, 50, 75, 95]
    assert percentile([3], 50) == 3 and percentile([1, 2], 50) == 1 and percentile([1, 2], 51) == 2


def test_stats_are_reproducible_with_the_seed():
    a = run("stats", "--archetype", "town_guard", "-n", "200", "--seed", "5")
    b = run("stats", "--archetype", "town_guard", "-n", "200", "--seed", "5")
    assert a.exit_code == 0 and a.stdout == b.stdout
    assert a.stdout.splitlines()[0].split() == ["figure", "n", "min", "p5", "p25", "p50", "p75", "p95", "max", "mean"]
    assert a.stderr == "chargen: d100 archetype town_guard, 200 characters, seed 5\n"
    spreads = {s.label: s for s in sample(load_builtin("d100"), GenerationRequest(archetype="town_guard"), 200, 5)}
    assert spreads["Age"].low >= 17 and spreads["Age"].high <= 20 and spreads["Hit points"].n == 200


# -- property: any archetype, any seed ---------------------------------------------------


def _in(dice, value):
    return dice.minimum <= value <= dice.maximum


def check_ranges(system, archetype, doc, rules):
    a = rules.archetypes[archetype]
    assert doc["archetype"]["id"] == archetype
    if system == "d100":
        assert doc["background"]["id"] in a.backgrounds
        for c, d in a.characteristics.items():
            assert _in(d, doc["characteristics"][c])
        if a.years is not None:
            assert _in(a.years, doc["identity"]["age"] - 16) and doc["experience"]["profession"]["id"] == a.profession
        for s in doc["skills"] + doc["weapons"]:
            value = s["value"] if "value" in s else (s["attack"] if s["attack"] is not None else s["parry"])
            assert sum(x["value"] for x in s["sources"]) == value
    elif system == "kotm":
        assert doc["profession"]["id"] == a.profession
        assert _in(a.level or rules.level_dice, doc["level"])
    else:
        for s in doc["stats"]:
            assert _in(a.stats.get(s["id"], rules.stat_dice), s["value"])
        if a.skills is not None:
            assert [s["id"] for s in doc["skills"]] == [sid for sid, _, _ in a.skills]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(ALL), st.integers(0, 2**64 - 1), st.integers(0, 5000))
def test_any_archetype_any_seed_fits_schema_and_ranges(pick, seed, index):
    system, archetype = pick
    module = load_builtin(system)
    doc = make_character(module, seed, index, GenerationRequest(archetype=archetype))
    validate(doc, rules=module.rules)
    check_ranges(system, archetype, doc, module.rules)


def test_archetypes_with_rules_needs_a_system(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(ARCHETYPE_OVERLAY)
    r = run("archetypes", "--rules", str(path))
    assert r.exit_code == 2 and "Error: --rules needs --system: the module whose archetypes the overlays change" in r.stderr
    r = run("archetypes", "--system", "d100", "--rules", str(path))
    assert r.exit_code == 0 and r.stdout.splitlines()[-1].split()[:2] == ["d100", "pit_fighter"]


@pytest.mark.parametrize("fmt, batch_file", [("csv", "roster.csv"), ("text", "blocks.txt")])
def test_a_format_to_stdout_makes_the_characters_asked_for(tmp_path, fmt, batch_file):
    """--archetype, --set and --require reach every format, written to stdout or to a folder."""
    from click.testing import CliRunner

    from chargen.cli import cli

    args = ["generate", "--system", "d100", "--seed", "7", "--count", "2", "--archetype", "veteran_soldier",
            "--set", "1:characteristics.str=18", "--require", "combat.hit_points>=12", "--format", fmt]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    folder = CliRunner().invoke(cli, args + ["-o", str(tmp_path / "o")])
    assert folder.exit_code == 0, folder.output
    assert out.stdout_bytes == (tmp_path / "o" / batch_file).read_bytes()
    assert "Soldier" in (tmp_path / "o" / batch_file).read_text(encoding="utf-8-sig")  # the profession
