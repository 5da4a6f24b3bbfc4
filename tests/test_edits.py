"""Hand edits that stay true (render and check recompute from the inputs) and explain lines that match the rules."""

import json
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from chargen import edits, paths
from chargen.cli import cli
from chargen.explain import explain, explain_all
from chargen.generate import make_character
from chargen.run.saved import as_drawn

RULES = Path(__file__).parent.parent / "chargen" / "rules"


def run(*args):
    return CliRunner().invoke(cli, list(args))


def edited(tmp_path, module, seed, index, change):
    doc = make_character(module, seed, index)
    change(doc)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return path, doc


def test_unedited_characters_agree_with_their_rules(d100, kotm, rtd):
    from chargen.generate import GenerationRequest

    for module in (d100, kotm, rtd):
        requests = [GenerationRequest()] + [GenerationRequest(archetype=a) for a in module.rules.archetypes]
        for i in range(12):
            for request in requests:  # every archetype too (d100: professions and years, shields' parry)
                doc = make_character(module, 11, i, request)
                assert edits.disagreements(doc, module.rules) == []
                assert as_drawn(doc) is doc  # drawn as stored: the same sheet bytes as before


def test_d100_strength_9_to_18_changes_attack_and_damage_modifier(tmp_path, d100):
    def edit(doc):
        assert doc["characteristics"]["str"] == 9
        doc["characteristics"]["str"] = 18

    path, doc = edited(tmp_path, d100, 42, 5, edit)
    r = run("check", str(path))
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    assert lines[:5] == [
        f"{path}: combat.attack: stored -5, the rules give 0 (from str 18, int 12, pow 4, dex 10)",
        f"{path}: combat.parry: stored -5, the rules give 0 (from str 18, pow 4, dex 10, siz 15)",
        f"{path}: combat.damage_modifier: stored 0, the rules give +1D6 (from str 18, siz 15)",
        f"{path}: combat.damage_modifier_thrown: stored 0, the rules give +1D3 (from str 18, siz 15)",
        f"{path}: skill_categories.manipulation: stored -5, the rules give 0 (from str 18, int 12, pow 4, dex 10)",
    ]
    assert f"{path}: weapons.belt_knife.attack: stored 20, the rules give 25 (from base 25, combat.attack 0)" in lines
    assert r.stderr == f"chargen: 1 character checked, {len(lines)} values disagree with the rules\n"
    drawn = as_drawn(json.loads(path.read_text()))
    assert drawn["combat"]["attack"] == 0 and drawn["combat"]["damage_modifier"] == "+1D6"
    assert paths.lookup(drawn, "weapons.belt_knife")["attack"] == 25
    assert drawn["reproduce"] == {"command": "chargen generate --system d100 --seed 42 --index 5 "
                                             "--set characteristics.str=18", "edited": ["characteristics.str"]}
    html = run("render", str(path), "--format", "html").stdout
    assert ('edited by hand (characteristics.str); reproduce with: <span class="cmd"><span class="nobr" data-fill>'
            'chargen generate</span> <span class="nobr" data-fill>--system d100</span> <span class="nobr" data-fill>'
            '--seed 42</span> <span class="nobr" data-fill>--index 5</span> <span class="nobr" data-fill>'
            '--set characteristics.str=18</span></span>') in html  # the D100 II sheet is a form: values marked


def test_the_set_options_in_the_small_print_make_exactly_that_character(d100):
    doc = make_character(d100, 42, 5)
    doc["characteristics"]["str"] = 18
    drawn = as_drawn(doc)
    r = run(*drawn["reproduce"]["command"].split()[1:])
    again = json.loads(r.stdout)
    skip = ("pins", "trail", "reproduce")
    assert {k: v for k, v in again.items() if k not in skip} == {k: v for k, v in drawn.items() if k not in skip}


def test_kotm_level_9_to_12_changes_save_check_and_damage(tmp_path, kotm):
    def edit(doc):
        assert doc["level"] == 9
        doc["level"] = 12

    path, doc = edited(tmp_path, kotm, 5, 58, edit)
    r = run("check", str(path))
    assert r.exit_code == 1
    assert r.stdout.splitlines() == [
        f"{path}: save_check: stored 9, the rules give 12 (from level 12)",
        f"{path}: critical_fumble_damage: stored 8, the rules give 7 (from level 12)",
        f"{path}: weapons.mace.damage.outstanding_success: stored [40, 40], the rules give [46, 46] "
        f"(from sd 48, level 12, damage_modifier 1)",
    ]
    drawn = as_drawn(json.loads(path.read_text()))
    assert drawn["save_check"] == 12 and drawn["critical_fumble_damage"] == 7
    # the SD is kept as stored: the --set gives it too, since the generator derives it from the level
    assert drawn["reproduce"]["command"] == "chargen generate --system kotm --seed 5 --index 58 --set sd=48 --set level=12"


def test_rtd_skill_edited_to_30_xp_shows_the_right_level_and_odds(tmp_path, rtd):
    def edit(doc):
        doc["skills"][0]["xp"] = 30

    path, doc = edited(tmp_path, rtd, 42, 0, edit)
    r = run("check", str(path))
    assert r.exit_code == 1
    assert r.stdout.splitlines() == [
        f"{path}: skills.archery.level: stored adept, the rules give expert (from xp 30)",
        f"{path}: skills.archery.level_label: stored Adept, the rules give Expert (from xp 30)",
        f"{path}: skills.archery.bonus: stored +1 to all rolls; extra +1 on a natural 1; successes are improved, "
        f"the rules give choose +1, +2 or +3; successes are greatly improved (from xp 30)",
        f"{path}: skills.archery.next_level_xp: stored 16, the rules give 37 (from xp 30)",
    ]
    from chargen.systems.rtd.sheet import sheet_context

    drawn = as_drawn(json.loads(path.read_text()))
    skill = sheet_context(drawn, rtd.rules)["skills"][0]
    assert skill["level_label"] == "Expert" and [o["with"] for o in skill["action_success"]] == \
        ["bonus +1", "bonus +2", "bonus +3"]  # Expert chooses its bonus: its odds, with its label


def test_a_raised_skill_is_kept_and_marked(tmp_path, d100):
    def edit(doc):
        paths.lookup(doc, "skills.climbing")["value"] = 60

    path, doc = edited(tmp_path, d100, 42, 5, edit)
    r = run("check", str(path))
    assert r.stdout == (f"{path}: skills.climbing.value: stored 60, the rules give 10 "
                        f"(from str 9, int 12, pow 4, dex 10); edited by hand, kept\n")
    drawn = as_drawn(json.loads(path.read_text()))
    assert paths.lookup(drawn, "skills.climbing")["value"] == 60 and drawn["edits"] == {"skills.climbing.value": 10}
    assert drawn["reproduce"] == {"command": None, "edited": ["skills.climbing.value"]}
    html = run("render", str(path), "--format", "html").stdout
    assert "edited by hand (skills.climbing.value): no chargen command makes this character" in html
    assert "reproduce with" not in html


def test_check_of_a_clean_batch(tmp_path):
    assert run("generate", "--system", "rtd", "--seed", "3", "--count", "4", "-o", str(tmp_path / "p")).exit_code == 0
    r = run("check", *map(str, sorted((tmp_path / "p").iterdir())))
    assert r.exit_code == 0 and r.stdout == ""
    assert r.stderr == "chargen: 4 characters checked, 0 values disagree with the rules\n"


_REF = re.compile(r"^\s+(?P<file>[a-z_]+\.yaml): (?P<key>[a-z0-9_.]+)(?:, row (?P<row>[0-9+-]+))?(?: \([a-z]+ -?[0-9]+\))?: (?P<value>.+)$")


def _matches_rules(system: str, line: str) -> bool:
    m = _REF.match(line)
    assert m, line
    node = paths.lookup(yaml.safe_load((RULES / system / m["file"]).read_text()), m["key"])
    if m["row"] is not None:
        node = node.get(m["row"], node.get(int(m["row"])) if m["row"].isdigit() else None)
    try:
        value = json.loads(m["value"])
    except ValueError:
        value = m["value"]
    return node == value or (isinstance(node, str) and node == m["value"])  # a dice text such as "0"


def _ref_lines(lines):
    return [line for line in lines if _REF.match(line)]


@pytest.mark.parametrize("system, seed, index, path", [
    ("d100", 42, 5, "skills.climbing"), ("d100", 7, 3, "combat.damage_modifier"), ("d100", 9, 1, "combat.hit_points"),
    ("kotm", 42, 3, "weapons"), ("kotm", 42, 3, "critical_fumble_damage"), ("kotm", 42, 3, "sd"),
    ("rtd", 42, 0, "stats.str"), ("rtd", 42, 0, "skills.archery"),
])
def test_every_explain_line_matches_the_rules_file_it_names(system, seed, index, path, request):
    module = request.getfixturevalue(system)
    lines = explain(make_character(module, seed, index), module.rules, path)
    refs = _ref_lines(lines)
    assert refs, lines
    for line in refs:
        assert _matches_rules(system, line), line


def test_explain_all_lines_match_the_rules(d100, kotm, rtd):
    for name, module in (("d100", d100), ("kotm", kotm), ("rtd", rtd)):
        for i in range(3):
            for line in _ref_lines(explain_all(make_character(module, 21, i), module.rules)):
                assert _matches_rules(name, line), (name, line)


def test_explain_a_kotm_value(tmp_path, kotm):
    path = tmp_path / "k.json"
    path.write_text(json.dumps(make_character(kotm, 42, 3)))
    r = run("explain", str(path), "critical_fumble_damage")
    assert r.exit_code == 0
    assert r.stdout == ("critical_fumble_damage: 7\n"
                        "  critical_fumble_damage: 7, the critical-fumble damage row of the level\n"
                        "    levels.yaml: critical_fumble_damage.bands, row 10-12: 7\n"
                        "    level 11 (rolled 1D15 for level: 11)\n")
    r = run("explain", str(path), "levl")
    assert r.exit_code == 1 and r.output.startswith("Error: levl: no such value in this character (e.g. ")
    assert run("explain", str(path)).exit_code == 2


def test_explain_shows_pins(tmp_path):
    r = run("generate", "--system", "kotm", "--seed", "42", "--index", "3", "--set", "level=14")
    path = tmp_path / "k.json"
    path.write_text(r.stdout)
    out = run("explain", str(path), "save_check").stdout
    assert "    level 14 (pinned with --set level=14)\n" in out
    assert run("explain", str(path), "level").stdout.splitlines()[1] == \
        "  pinned with --set level=14 (its roll was made, then replaced)"


def test_a_weapon_skill_and_armour_added_by_id_alone(tmp_path, d100):
    def edit(doc):
        doc["weapons"].append({"id": "broadsword"})
        doc["armour"].append({"id": "soft_leather"})
        del paths.lookup(doc, "skills.climbing")["label"]

    path, _ = edited(tmp_path, d100, 42, 5, edit)
    from chargen.run.saved import read_character

    doc = read_character(path)
    sword = paths.lookup(doc, "weapons.broadsword")
    assert sword["label"] == "Broadsword" and sword["damage"] == "1D8+1" and sword["base"] == 10
    assert paths.lookup(doc, "armour.soft_leather")["covers"]
    assert paths.lookup(doc, "skills.climbing")["label"] == "Climbing"
    drawn = as_drawn(doc)
    assert all(loc["ap"] >= 1 for loc in drawn["hit_locations"])  # the armour is worn on the sheet
    r = run("render", str(path), "--format", "html")
    assert r.exit_code == 0 and "Broadsword" in r.stdout


def test_kotm_and_rtd_entries_added_by_id(tmp_path, kotm, rtd):
    path, _ = edited(tmp_path, kotm, 42, 3, lambda d: d["weapons"].append({"id": "long_sword", "label": "Oathkeeper"}))
    from chargen.run.saved import read_character

    sword = paths.lookup(read_character(path), "weapons.long_sword")
    assert sword["label"] == "Oathkeeper" and sword["damage_modifier"] == 1 and sword["damage"]["hit"]
    path, _ = edited(tmp_path, rtd, 42, 0, lambda d: d["skills"].append({"id": "climbing", "xp": 30}))
    assert paths.lookup(read_character(path), "skills.climbing")["level_label"] == "Expert"


def test_every_problem_of_an_added_entry_at_once(tmp_path, d100, rtd):
    def edit(doc):
        doc["weapons"].append({"id": "broadswrd"})
        doc["armour"].append({"id": "tinfoil"})
        doc["characteristics"]["dex"] = "x"

    path, _ = edited(tmp_path, d100, 42, 5, edit)
    r = run("check", str(path))
    assert r.exit_code == 1
    assert r.output.startswith(f"Error: {path}: weapons[1].id: no weapon 'broadswrd' in its rules (expected one of: ")
    assert "; armour[0].id: no armour piece 'tinfoil' in its rules (expected one of: " in r.output
    assert r.output.endswith("; characteristics.dex: 'x' is not of type 'integer'\n")
    assert r.output.count("\n") == 1
    path, _ = edited(tmp_path, rtd, 42, 0, lambda d: d["skills"].append({"id": "climbing"}))
    r = run("check", str(path))
    assert r.output == f"Error: {path}: skills[2].xp: missing (a whole number: the rules cannot give it)\n"


def test_explain_names_the_house_rules_an_entry_came_from(tmp_path):
    grim = str(Path(__file__).parent.parent / "examples" / "house-rules" / "grim-north.yaml")
    assert run("generate", "--seed", "42", "--count", "2", "--rules", grim, "-o", str(tmp_path / "g")).exit_code == 0
    path = str(sorted((tmp_path / "g").glob("0001-*.json"))[0])
    out = run("explain", path, "combat.damage_modifier", "--rules", grim).stdout
    assert "    combat.yaml: damage_modifier.bands, row 11-14 (average 13): 0 (house rules Grim north)\n" in out
    out = run("explain", path, "combat.damage_modifier_thrown", "--rules", grim).stdout
    assert "house rules" not in out  # that row is the built-in module's
    assert run("check", path, "--rules", grim).exit_code == 0
    r = run("check", path)
    assert r.exit_code == 1 and "give the same --rules/--rules-dir it was made with" in r.output


def _veteran(d100):
    from chargen.generate import GenerationRequest

    return GenerationRequest(archetype="veteran_soldier", derivation=1)  # the seeds below were chosen under derivation 1


def test_a_hand_raised_str_keeps_a_weapon_at_its_profession_cap(tmp_path, d100):
    """Raising STR by hand gives what --set of the same STR gives: experience never takes a weapon past
    the profession's cap (soldier: 85), so a higher attack ability leaves less gain, not 90."""
    doc = make_character(d100, 5, 0, _veteran(d100))
    axe = paths.lookup(doc, "weapons.battle_axe")
    assert doc["characteristics"]["str"] == 14 and axe["attack"] == 85
    doc["characteristics"]["str"] = 18
    path = tmp_path / "str18.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    from chargen.generate import GenerationRequest
    from chargen.pins import resolve

    from chargen import engines

    targets = engines.require("d100").pins(d100.rules)
    pinned = make_character(d100, 5, 0, GenerationRequest(archetype="veteran_soldier", derivation=1,
                                                          pins=resolve(targets, ["characteristics.str=18"])))
    drawn = as_drawn(json.loads(path.read_text("utf-8")))
    assert paths.lookup(pinned, "weapons.battle_axe")["attack"] == 85
    assert {w["id"]: (w["attack"], w["parry"], w["sources"]) for w in drawn["weapons"]} == \
        {w["id"]: (w["attack"], w["parry"], w["sources"]) for w in pinned["weapons"]}
    assert not any("battle_axe.attack" in line for line in run("check", str(path)).stdout.splitlines())


def test_check_reports_a_stale_below_minimum(tmp_path, d100):
    doc = make_character(d100, 5, 0, _veteran(d100))
    doc["characteristics"]["str"] = 5
    path = tmp_path / "weak.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    lines = run("check", str(path)).stdout.splitlines()
    assert f'{path}: weapons.battle_axe.below_minimum: stored null, the rules give {{"str": 8, "dex": 0, "usable": false}} ' \
           f"(from str 5, dex 15)" in lines
    drawn = as_drawn(json.loads(path.read_text("utf-8")))
    assert paths.lookup(drawn, "weapons.battle_axe")["below_minimum"] == {"str": 8, "dex": 0, "usable": False}


@pytest.mark.parametrize("key, value", [("parry", 95), ("sr", 4), ("damage_modifier", "+1D6")])
def test_a_hand_edited_weapon_figure_is_kept_and_called_an_edit(tmp_path, d100, key, value):
    doc = make_character(d100, 5, 0, _veteran(d100))
    paths.lookup(doc, "weapons.battle_axe")[key] = value
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    r = run("check", str(path))
    assert r.exit_code == 1 and r.stdout.splitlines()[0].startswith(f"{path}: weapons.battle_axe.{key}: stored ")
    assert r.stdout.splitlines()[0].endswith("; edited by hand, kept")
    drawn = as_drawn(json.loads(path.read_text("utf-8")))
    assert paths.lookup(drawn, "weapons.battle_axe")[key] == value
    assert drawn["edits"] == {f"weapons.battle_axe.{key}": paths.lookup(make_character(d100, 5, 0, _veteran(d100)),
                                                                        "weapons.battle_axe")[key]}
    html = run("render", str(path), "--format", "html").stdout
    assert f"edited by hand (weapons.battle_axe.{key}): no chargen command makes this character" in html


def _explained(d100, doc, path):
    return explain(doc, d100.rules, path)


@pytest.mark.parametrize("request_", [None, "veteran_soldier", "bandit", "noble_knight"])
def test_explain_derives_money_age_experience_modifier_and_strike_ranks(d100, request_):
    from chargen.generate import GenerationRequest

    for i in range(8):
        doc = make_character(d100, 3, i, GenerationRequest(archetype=request_, derivation=1))
        for path in ("money.starting", "identity.age", "experience_modifier", "combat.strike_ranks.siz",
                     "combat.strike_ranks.dex"):
            lines = _explained(d100, doc, path)
            assert "nothing rolled or derived" not in "\n".join(lines) and len(lines) >= 3, (path, lines)
            assert lines[1].startswith(f"  {path}: {paths.shown(paths.lookup(doc, path))}, ")
        every = explain_all(doc, d100.rules)
        assert "edited by hand" not in "\n".join(every) and "stale" not in "\n".join(every)
        for path in ("money.starting", "identity.age", "experience_modifier", "combat.strike_ranks.siz"):
            assert f"{path}: {paths.shown(paths.lookup(doc, path))}" in every


def test_a_weapons_explanation_adds_up(d100):
    """Its base, ability and every experience part by name (profession and years, archetype) sum to the
    figure; its strike rank names the weapon's own SR."""
    from chargen.generate import GenerationRequest

    doc = make_character(d100, 3, 1, GenerationRequest(archetype="bandit_chief", derivation=1))
    sword = next(w for w in doc["weapons"] if w["id"] in ("broadsword", "scimitar"))
    lines = _explained(d100, doc, f"weapons.{sword['id']}.attack")
    parts = {ln.strip().rsplit(" ", 1)[0]: int(ln.strip().rsplit(" ", 1)[1]) for ln in lines[4:]
             if not ln.strip().startswith("combat.attack")}
    ability = doc["combat"]["attack"]
    assert {k for k in parts} == {"base", "profession outlaw (8 years)", "archetype bandit_chief"}
    assert sum(parts.values()) + ability == sword["attack"]
    assert "professions.yaml: professions.outlaw.weapon_skill: " in lines[3] or any(
        "professions.outlaw.weapon_skill" in ln for ln in lines)
    assert any("archetypes.yaml: archetypes.bandit_chief.weapon_skill: " in ln for ln in lines)
    sr = _explained(d100, doc, f"weapons.{sword['id']}.sr")
    assert "plus the weapon's own strike rank" in sr[1] and "    weapon sr 2" in sr


def test_explain_calls_a_hand_edit_one(d100):
    doc = make_character(d100, 3, 0)
    made_int = doc["characteristics"]["int"]
    doc["characteristics"]["int"] = made_int + 2
    doc["money"]["starting"] += 1000
    assert f"  characteristics.int: edited by hand: {made_int + 2}, made as {made_int} " \
           "(the values derived from it follow the edit)" in _explained(d100, doc, "characteristics.int")
    money = _explained(d100, doc, "money.starting")
    assert money[1] == f"  money.starting: stored {doc['money']['starting']}, the rules give " \
                       f"{doc['money']['starting'] - 1000} (edited by hand, kept)"
