"""Overlays: each operation, the overlay's own form, and where problems point."""

from pathlib import Path

import pytest

from chargen.errors import RulesError
from chargen.generate import make_character
from chargen.rules import load_builtin, load_module
from chargen.rules.overlay import parse_path, read_overlay
from chargen.serialize import to_json, validate

HEAD = "overlay: d100\nname: Test rules\nchanges:\n"


@pytest.fixture
def overlay(write):
    def _overlay(body: str, name: str = "house.yaml") -> Path:
        return write(name, HEAD + body)
    return _overlay


def problems(paths, **kw) -> list[str]:
    with pytest.raises(RulesError) as e:
        load_module("d100", list(paths), **kw)
    return [p.replace(str(paths[0].parent) + "/", "") for p in e.value.problems]


def load(*paths):
    return load_module("d100", list(paths))


# -- each operation -------------------------------------------------------------


def test_set_a_characteristics_dice(overlay):
    m = load(overlay("""\
  characteristics:
    set:
      characteristics[id=int].dice: 2D6+6
      characteristics[id=siz].dice: 2D6+6
"""))
    dice = {c.id: str(c.dice) for c in m.rules.characteristics}
    assert dice == {"str": "3D6", "con": "3D6", "siz": "2D6+6", "int": "2D6+6", "pow": "3D6", "dex": "3D6", "cha": "3D6"}
    for i in range(40):
        doc = make_character(m, 5, i)
        assert 8 <= doc["characteristics"]["int"] <= 18 and 8 <= doc["characteristics"]["siz"] <= 18


def test_set_replaces_a_whole_banded_table(overlay):
    m = load(overlay("""\
  combat:
    set:
      damage_modifier.bands: {1-6: -1D6, 7-12: "0", 13-16: +1D4, 17-20: +1D6, 21-28: +2D6}
"""))
    dm = m.rules.damage_modifier
    assert [str(b.value) for b in dm.bands] == ["-1D6", "0", "1D4", "1D6", "2D6"]
    assert str(dm.lookup(3)) == "-1D6" and str(dm.lookup(37)) == "4D6"  # each +1D6 per 8 still applies


def test_set_one_band_row(overlay):
    m = load(overlay("""\
  combat:
    set:
      damage_modifier.bands.21-28: +3D6
"""))
    assert str(m.rules.damage_modifier.lookup(25)) == "3D6"
    assert str(m.rules.damage_modifier.lookup(30)) == "4D6"


def test_add_a_band_row_past_the_last(overlay):
    m = load(overlay("""\
  modifiers:
    add:
      rows.major.bands: {21-24: 12}
"""))
    major = m.rules.categories[0].terms[0][1]
    assert major.lookup(22) == 12 and major.lookup(26) == 17  # each +5 now continues from 24


def test_add_a_band_row_anywhere_by_replacing_its_neighbour(overlay):
    m = load(overlay("""\
  combat:
    remove:
      strike_ranks.dex.bands: [1-9]
    add:
      strike_ranks.dex.bands: {1-4: 5, 5-9: 4}
"""))
    assert [m.rules.sr_dex.lookup(x) for x in (1, 4, 5, 9, 10, 20)] == [5, 5, 4, 4, 3, 1]


def test_replace_a_die_range_row_and_add_a_background(overlay):
    m = load(overlay("""\
  backgrounds:
    set:
      backgrounds[id=peasant].roll: 01-20
    add:
      backgrounds:
        - id: sailor
          label: Sailor
          roll: 21-25
          money: {dice: 1D100}
          equipment:
            source: default
            items:
              - gear: [Rope, Sea chest]
              - weapon: {choose: [dagger, club]}
  names:
    add:
      lists:
        sailor:
          format: "{given} {byname}"
          female: [Maren, Tove]
          male: [Bosse, Jens]
          bynames: [Saltwater, Tarhand]
"""))
    rows = [(lo, hi, bg.id) for lo, hi, bg in m.rules.backgrounds.rows]
    assert rows[:2] == [(1, 20, "peasant"), (21, 25, "sailor")]
    sailors = [make_character(m, 1, i) for i in range(200)]
    sailors = [d for d in sailors if d["background"]["id"] == "sailor"]
    assert sailors and all(d["identity"]["name"].split()[1] in ("Saltwater", "Tarhand") for d in sailors)
    assert all({"Rope", "Sea chest"} <= set(d["equipment"]) for d in sailors)


def test_add_and_remove_skills(overlay):
    m = load(overlay("""\
  skills:
    remove:
      skills: [pick_pockets, tumbling]
    add:
      skills:
        - {id: sailing, label: Sailing, category: manipulation, base: 10}
"""))
    ids = [s.id for s in m.rules.skills]
    assert "pick_pockets" not in ids and "tumbling" not in ids and ids[-1] == "sailing"
    doc = make_character(m, 1, 0)
    assert doc["skills"][-1]["id"] == "sailing" and doc["skills"][-1]["base"] == 10


def test_add_and_remove_weapons_and_armour(overlay):
    m = load(overlay("""\
  weapons:
    add:
      melee:
        - {id: seax, label: Seax, base: 15, damage: 1D6+1, sr: 3, hp: 12, enc: 0.5, min_str: 0, min_dex: 0, hands: 1, special: impale}
    remove:
      shields: [large_shield]
  armour:
    add:
      pieces:
        - {id: fur_cloak, label: Fur cloak, ap: 1, enc: 1, covers: [chest, abdomen]}
    remove:
      pieces: [closed_helm]
"""))
    assert "seax" in m.rules.weapons and "large_shield" not in m.rules.weapons
    assert "fur_cloak" in m.rules.armour and "closed_helm" not in m.rules.armour


def test_add_and_remove_names_in_a_list(overlay):
    m = load(overlay("""\
  names:
    add:
      lists.peasant.female: [Astrid, Bodil]
    remove:
      lists.peasant.female: [Alda]
"""))
    female = m.rules.names["peasant"].given["female"]
    assert female[-2:] == ("Astrid", "Bodil") and "Alda" not in female


def test_set_by_index_and_by_any_field(overlay):
    m = load(overlay("""\
  skills:
    set:
      experience.steps[0].per_point: 4
      skills[label=Climbing].base: 20
"""))
    assert m.rules.experience_steps[0] == ("above", 12, 4)
    assert next(s for s in m.rules.skills if s.id == "climbing").base == 20


def test_remove_a_mapping_key(overlay):
    m = load(overlay("""\
  combat:
    remove:
      damage_modifier: [each]
"""))
    assert m.rules.damage_modifier.every == 0 and str(m.rules.damage_modifier.lookup(60)) == "2D6"


def test_overlays_apply_in_order(overlay):
    a = overlay("  characteristics:\n    set:\n      characteristics[id=str].dice: 2D6+6\n", "a.yaml")
    b = overlay("  characteristics:\n    set:\n      characteristics[id=str].dice: 4D6\n", "b.yaml")
    assert str(load(a, b).rules.characteristics[0].dice) == "4D6"
    assert str(load(b, a).rules.characteristics[0].dice) == "2D6+6"


def test_the_character_records_its_overlays_and_the_seed_reproduces_it(overlay):
    path = overlay("  characteristics:\n    set:\n      characteristics[id=str].dice: 2D6+6\n")
    m = load(path)
    doc = make_character(m, 42, 3)
    o = read_overlay(path)
    assert doc["system"]["overlays"] == [{"name": "Test rules", "hash": o.hash}]
    assert o.hash.startswith("sha256:") and len(o.hash) == 71
    assert doc["system"]["rules_hash"] != load_builtin("d100").hash
    validate(doc)
    assert to_json(make_character(load(path), 42, 3)) == to_json(doc)


def test_the_overlay_hash_ignores_comments_and_layout(write):
    a = write("a.yaml", HEAD + "  characteristics:\n    set: {characteristics[id=str].dice: 4D6}\n".replace(
        "{characteristics[id=str].dice: 4D6}", "{'characteristics[id=str].dice': 4D6}"))
    b = write("b.yaml", "# house\n" + HEAD + "  characteristics:\n    set:\n      characteristics[id=str].dice: 4D6  # x\n")
    assert read_overlay(a).hash == read_overlay(b).hash


def test_a_built_in_module_is_not_changed_by_an_overlay(overlay):
    before = load_builtin("d100").data["characteristics"]["characteristics"][0]["dice"]
    load(overlay("  characteristics:\n    set:\n      characteristics[id=str].dice: 4D6\n"))
    assert load_builtin("d100").data["characteristics"]["characteristics"][0]["dice"] == before == "3D6"


# -- paths ------------------------------------------------------------------------


def test_parse_path():
    assert [str(s) for s in parse_path("characteristics[id=int].dice")] == ["characteristics", "[id=int]", "dice"]
    assert [str(s) for s in parse_path("experience.steps[0].per_point")] == ["experience", "steps", "[0]", "per_point"]
    assert [str(s) for s in parse_path("damage_modifier.bands.1-6")] == ["damage_modifier", "bands", "1-6"]
    bad = "(expected keys joined by '.', with [id=x] or [N] to pick a list entry: 'characteristics[id=int].dice')"
    assert parse_path("a..b") == f"bad path 'a..b' {bad}"
    assert parse_path("[0]") == f"bad path '[0]' {bad}"
    assert parse_path("a[x]") == "bad path 'a[x]': [x] is not [N] or [field=value]"
    assert parse_path("a. b") == "bad path 'a. b': key ' b' has spaces around it"
