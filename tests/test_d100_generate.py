"""D100 II characters: invariants for any seed, and exact values for pinned seeds."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chargen.generate import make_character
from chargen.serialize import validate
from chargen.systems.d100.generate import usable

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
INDICES = st.integers(min_value=0, max_value=5000)


def _bg(d100, bg_id):
    return next(b for _, _, b in d100.rules.backgrounds.rows if b.id == bg_id)


@settings(max_examples=150, deadline=None)
@given(SEEDS, INDICES)
def test_any_character_satisfies_the_rules(d100, seed, index):
    doc = make_character(d100, seed, index)
    validate(doc)
    r = d100.rules
    ch = doc["characteristics"]
    assert set(ch) == {"str", "con", "siz", "int", "pow", "dex", "cha"}
    assert all(3 <= v <= 18 for v in ch.values())
    hp_mods = dict(r.hp_modifiers)
    combat = doc["combat"]
    assert combat["hit_points"] == max(1, ch["con"] + hp_mods["siz"].lookup(ch["siz"]) + hp_mods["pow"].lookup(ch["pow"]))
    assert combat["pow_points"] == ch["pow"]
    assert combat["mov"] == 8
    for loc in doc["hit_locations"]:
        row = next(l.hp_row for l in r.locations if l.id == loc["id"])
        assert loc["hp"] == r.location_hp[row].lookup(combat["hit_points"])
    for column in ("melee", "missile"):
        faces = sorted(f for loc in doc["hit_locations"] for f in range(loc[column][0], loc[column][1] + 1))
        assert faces == list(range(1, 21))
    for skill in doc["skills"]:
        assert skill["value"] == skill["base"] + skill["modifier"]
        assert skill["modifier"] == doc["skill_categories"][skill["category"]]
        assert skill["trained"] == (skill["base"] > 0)
    sol = next(s for s in doc["skills"] if s["id"] == "speak_own_language")
    assert sol["base"] == ch["int"] * 5
    bg = _bg(d100, doc["background"]["id"])
    money = doc["money"]
    assert bg.money_dice.minimum * bg.money_times <= money["starting"] <= bg.money_dice.maximum * bg.money_times
    assert money["starting"] % bg.money_times == 0
    assert money["income"] == (money["starting"] if bg.income else None)
    for w in doc["weapons"]:
        if w["attack"] is not None:
            if bg.tribal_base is None:
                assert w["attack"] == w["base"] + combat["attack"]
            assert w["base"] in (5, 10, 15, 20, 25)
    assert doc["identity"]["age"] == 16
    assert doc["seed"] == {"batch": seed, "index": index, "character": doc["seed"]["character"]}


def test_seed_42_index_7_is_pinned(d100):
    doc = make_character(d100, 42, 7)
    assert doc["identity"] == {"name": "Ulf Hayward", "sex": "male", "age": 16}
    assert doc["characteristics"] == {"str": 15, "con": 14, "siz": 11, "int": 7, "pow": 11, "dex": 16, "cha": 7}
    assert doc["background"]["id"] == "peasant"
    assert doc["combat"]["hit_points"] == 14                       # CON 14 + SIZ 11 (0) + POW 11 (0)
    assert doc["combat"]["damage_modifier"] == "+1D4"              # (15 + 11) / 2 = 13
    assert [loc["hp"] for loc in doc["hit_locations"]] == [5, 5, 5, 6, 4, 4, 5]
    assert [loc["ap"] for loc in doc["hit_locations"]] == [0] * 7


def test_every_background_outfits_as_the_seed_says(d100):
    seen = {}
    for i in range(3000):
        doc = make_character(d100, 5, i)
        seen.setdefault(doc["background"]["id"], doc)
        if len(seen) == 6:
            break
    assert set(seen) == {"peasant", "townsfolk", "barbarian", "poor_noble", "rich_noble", "very_rich_noble"}
    for doc in seen.values():
        assert "Fire starting gear" in doc["equipment"]
        assert doc["weapons"][0]["id"] == "belt_knife"
    assert "Water skin" in seen["peasant"]["equipment"]
    assert "Rope" in seen["townsfolk"]["equipment"]
    poor = seen["poor_noble"]
    assert {a["id"] for a in poor["armour"]} == {"ringmail_hauberk", "open_helm"}
    assert {loc["id"]: loc["ap"] for loc in poor["hit_locations"]}["chest"] == 5
    rich = seen["rich_noble"]
    assert {"chainmail_sleeves", "chainmail_leggings"} <= {a["id"] for a in rich["armour"]}
    barb = seen["barbarian"]
    kinds = [w["kind"] for w in barb["weapons"]]
    assert kinds == ["melee", "melee", "missile"]


def test_barbarian_weapon_bases(d100):
    """Tribal weapons 15% plus modifiers; any other weapon (the belt knife) a flat 5%."""
    for i in range(500):
        doc = make_character(d100, 9, i)
        if doc["background"]["id"] == "barbarian":
            knife, melee, missile = doc["weapons"]
            assert (knife["base"], knife["attack"], knife["parry"]) == (5, 5, 5)
            assert melee["base"] == 15 and melee["attack"] == 15 + doc["combat"]["attack"]
            assert missile["attack"] == 15 + doc["combat"]["attack"] and missile["parry"] is None
            return
    raise AssertionError("no barbarian in 500 characters")


def test_usable_weapons_follow_the_seed_example(d100):
    w = d100.rules.weapons["broadsword"]  # STR 9, DEX 7
    assert usable(w, {"str": 9, "dex": 7})
    assert not usable(w, {"str": 8, "dex": 18})
    assert usable(w, {"str": 11, "dex": 6})        # 2 STR for each missing DEX point
    assert not usable(w, {"str": 10, "dex": 6})
    sling = d100.rules.weapons["sling"]  # a minimum DEX and no minimum STR: no substitution
    assert not usable(sling, {"str": 18, "dex": 10})


def test_names_are_unique_in_a_batch_while_lists_last(d100):
    names = [make_character(d100, 77, i)["identity"]["name"] for i in range(1000)]
    assert len(set(names)) == len(names)


def test_character_is_the_same_alone_or_in_a_batch(d100):
    batch = [make_character(d100, 42, i) for i in range(10)]
    assert make_character(d100, 42, 7) == batch[7]


def test_name_groups_replay_the_identity_rolls(d100):
    """The replay the name service ranks with gives the same background and sex as generation."""
    from chargen import engines
    from chargen.generate import _group_of

    group_of = _group_of(engines.require("d100").names, d100.rules, 31)
    for i in range(300):
        doc = make_character(d100, 31, i)
        assert group_of(i) == (doc["background"]["id"], doc["identity"]["sex"])


def test_an_overlay_cannot_remove_what_the_engine_reads(tmp_path):
    from click.testing import CliRunner

    from chargen.cli import cli

    overlay = tmp_path / "ov.yaml"
    overlay.write_text("overlay: d100\nname: x\nchanges:\n  combat:\n    remove: {abilities: [attack]}\n")
    r = CliRunner().invoke(cli, ["rules", "check", str(overlay)])
    assert r.exit_code == 1
    assert r.stdout.startswith("chargen/rules/d100/combat.yaml:4: abilities: missing ability 'attack' "
                               "(the d100 engine needs attack, parry, defence)")


D20_BACKGROUNDS = """
overlay: d100
name: d20 backgrounds
changes:
  backgrounds:
    set:
      die: 20
      backgrounds[id=peasant].roll: 1-5
      backgrounds[id=townsfolk].roll: 6-12
      backgrounds[id=barbarian].roll: 13-17
      backgrounds[id=poor_noble].roll: 18
      backgrounds[id=rich_noble].roll: 19
      backgrounds[id=very_rich_noble].roll: 20
"""
D20_ROWS = {"peasant": (1, 5), "townsfolk": (6, 12), "barbarian": (13, 17), "poor_noble": (18, 18),
            "rich_noble": (19, 19), "very_rich_noble": (20, 20)}


def _check_d20_backgrounds(docs):
    seen = set()
    for doc in docs:
        validate(doc)
        roll = next(r for r in doc["rolls"] if r["for"] == "background")
        assert roll["dice"] == "1D20" and 1 <= roll["total"] <= 20
        lo, hi = D20_ROWS[doc["background"]["id"]]
        assert lo <= roll["total"] <= hi
        seen.add(doc["background"]["id"])
    assert seen == set(D20_ROWS)  # every row reachable


def test_the_background_table_rolls_its_own_die(tmp_path, write):
    import json

    from click.testing import CliRunner

    from chargen.cli import cli
    from chargen.rules import load_module
    from chargen import engines
    from chargen.generate import _group_of

    overlay = write("d20.yaml", D20_BACKGROUNDS)
    module = load_module("d100", [overlay])
    assert module.rules.backgrounds.die == 20
    docs = [make_character(module, 5, i) for i in range(200)]
    _check_d20_backgrounds(docs)
    group_of = _group_of(engines.require("d100").names, module.rules, 5)  # the name service's replay rolls the same die
    assert all(group_of(i) == (d["background"]["id"], d["identity"]["sex"]) for i, d in enumerate(docs))
    r = CliRunner().invoke(cli, ["generate", "--seed", "5", "--count", "200", "--rules", str(overlay),
                                 "--format", "json", "-o", str(tmp_path / "p")])
    assert r.exit_code == 0, r.output
    cli_docs = [json.loads(f.read_text()) for f in sorted((tmp_path / "p").glob("0*.json"))]
    _check_d20_backgrounds(cli_docs)
    assert [d["background"] for d in cli_docs] == [d["background"] for d in docs]


def test_an_overlay_cannot_rename_what_the_engine_reads(write):
    from click.testing import CliRunner

    from chargen.cli import cli
    from chargen.systems.d100.rules import READS

    assert READS == {"characteristic": {"strength": "str", "size": "siz", "dexterity": "dex"},
                     "ability": {"attack": "attack", "parry": "parry", "defence": "defence"}}
    for kind, roles in READS.items():
        stem, key = {"characteristic": ("characteristics", "characteristics"), "ability": ("combat", "abilities")}[kind]
        for role, ident in roles.items():
            overlay = write(f"{ident}.yaml", f"overlay: d100\nname: x\nchanges:\n  {stem}:\n"
                                             f"    set:\n      {key}[id={ident}].id: renamed\n")
            why = f" ({role})" if role != ident else ""
            line = (f"{overlay}:6: changes.{stem}.set.{key}[id={ident}].id: the d100 engine reads {kind} "
                    f"'{ident}'{why}; keep the id and change its label instead")
            r = CliRunner().invoke(cli, ["rules", "check", str(overlay)])
            assert r.exit_code == 1 and r.stdout.splitlines()[0] == line
            r = CliRunner().invoke(cli, ["generate", "--seed", "1", "--rules", str(overlay)])
            assert r.exit_code == 1 and f"Error: {line}" in r.output


def test_an_added_ability_cannot_take_a_combat_figures_name(write):
    from click.testing import CliRunner

    from chargen.cli import cli

    overlay = write("hp.yaml", """
        overlay: d100
        name: x
        changes:
          combat:
            add:
              abilities:
                - {id: hit_points, label: HP, source: default, sum: {str: major}}
        """)
    r = CliRunner().invoke(cli, ["rules", "check", str(overlay)])
    assert r.exit_code == 1
    assert r.stdout == (f"{overlay}:7: changes.combat.add.abilities[0].id: 'hit_points' is another figure of the "
                        "character's combat block (an ability's id must not be one of: damage_modifier, "
                        "damage_modifier_thrown, hit_points, pow_points, strike_ranks, mov)\n")


def test_location_hit_points_are_the_datas_with_no_floor_in_code(tmp_path):
    """A house rule that gives a tiny character's arm 0 hit points gets 0 (the code used to force 1);
    a negative row is a rules problem."""
    from chargen.errors import RulesError
    from chargen.rules import load_module

    zero = tmp_path / "zero.yaml"
    zero.write_text("overlay: d100\nname: Frail arms\nchanges:\n  hit_locations:\n    set:\n"
                    "      location_hp.arm.bands.1-3: 0\n      location_hp.arm.bands.4-6: 0\n")
    module = load_module("d100", [zero])
    tiny = next(d for d in (make_character(module, 9, i) for i in range(2000)) if d["combat"]["hit_points"] <= 6)
    assert [loc["hp"] for loc in tiny["hit_locations"] if loc["id"].endswith("_arm")] == [0, 0]
    negative = tmp_path / "neg.yaml"
    negative.write_text(zero.read_text().replace("bands.1-3: 0", "bands.1-3: -1"))
    with pytest.raises(RulesError, match=r"location_hp.arm.bands.1-3"):
        load_module("d100", [negative])
