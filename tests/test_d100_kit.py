"""D100 II starting kit: the weapons the seed gives each background, and weapons below their minimums.

The seed's kit sentences, checked here as oracles:
- Poor nobles: "a basic hand weapon (like a broadsword or battle axe); and a missile or
  two-handed weapon as appropriate for the adventurer's DEX".
- Rich or very rich nobles: "a good hand weapon such as a broadsword or scimitar; and a
  two-handed or missile weapon".
- Minimum STR & DEX: "the minimum STR and DEX a character must have to use the weapon".
"""

import pytest

from chargen.generate import begin, make_character
from chargen.rules import load_builtin
from chargen.serialize import validate
from chargen.systems.d100.generate import outfit, shortfall

NOBLES = ("poor_noble", "rich_noble", "very_rich_noble")
HAND = {"poor_noble": {"broadsword", "battle_axe"}, "rich_noble": {"broadsword", "scimitar"},
        "very_rich_noble": {"broadsword", "scimitar"}}


def _bg(d100, bg_id):
    return next(b for _, _, b in d100.rules.backgrounds.rows if b.id == bg_id)


def _dex_rule(d100):
    """The poor noble's DEX entry in the rules data: (threshold, missile options, two-handed options)."""
    entry = next(e for e in _bg(d100, "poor_noble").equipment if "if" in e)
    assert entry["if"]["characteristic"] == "dex"
    return entry["if"]["at_least"], entry["then"]["weapon"], entry["else"]["weapon"]


def _missile(w):
    return w["kind"] == "missile"


def _two_handed(w):
    return w["kind"] == "melee" and w["hands"] == 2


def _nobles(d100, seed, count):
    """The nobles among the first ``count`` characters of a batch (identity first: only nobles are made)."""
    for i in range(count):
        if begin(d100, seed, i).identity["background"] in NOBLES:
            yield make_character(d100, seed, i)


def test_every_noble_has_the_weapons_the_seed_gives_them(d100):
    """20,000 characters: every noble has the belt knife, a hand weapon and the second weapon;
    a poor noble's second is missile or two-handed by DEX; every weapon is usable when the
    character can use any weapon of its kind in the list."""
    threshold, missiles, two_handers = _dex_rule(d100)
    seen = {bg: 0 for bg in NOBLES}
    kinds = set()
    for doc in _nobles(d100, 42, 20_000):
        bg, ch = doc["background"]["id"], doc["characteristics"]
        seen[bg] += 1
        knife, hand, second = doc["weapons"]
        assert knife["id"] == "belt_knife"
        assert hand["id"] in HAND[bg] and hand["hands"] == 1
        if bg == "poor_noble":
            want_missile = ch["dex"] >= threshold
            assert (_missile if want_missile else _two_handed)(second), (doc["seed"], ch, second["id"])
            kinds.add(want_missile)
            kind_options = missiles if want_missile else two_handers
        else:
            assert _missile(second) or _two_handed(second), (doc["seed"], second["id"])
            kind_options = next(e for e in _bg(d100, bg).equipment if "weapon" in e and second["id"] in e["weapon"])["weapon"]
        for w, options in ((hand, HAND[bg]), (second, kind_options)):
            if w["below_minimum"]:
                assert not any(not any(shortfall(d100.rules.weapons[o], ch).values()) for o in options), (doc["seed"], w["id"])
    assert all(seen.values()) and seen["poor_noble"] > 1500
    assert kinds == {True, False}


def test_the_issues_nobles_have_both_weapons(d100):
    """Seed 42 index 16 (STR 8, DEX 6) and index 221 (STR 5, DEX 8) had no second weapon."""
    for index, dex in ((16, 6), (221, 8)):
        doc = make_character(d100, 42, index)
        assert doc["background"]["id"] in NOBLES and doc["characteristics"]["dex"] == dex
        assert len(doc["weapons"]) == 3


@pytest.mark.parametrize("dex, kind", [(10, "two-handed"), (11, "missile")])
def test_dex_chooses_the_poor_nobles_weapon_kind_at_its_threshold(d100, rng, dex, kind):
    from chargen.dice import Roller

    threshold, _, _ = _dex_rule(d100)
    assert threshold == 11
    chars = {"str": 18, "con": 10, "siz": 10, "int": 10, "pow": 10, "dex": dex, "cha": 10}
    for _ in range(30):
        w, _tribal, _trained = outfit(d100.rules, _bg(d100, "poor_noble"), chars, Roller(rng))["weapons"][-1]
        assert (w.kind == "missile") == (kind == "missile")
        assert w.kind == "missile" or w.hands == 2


def test_shortfall_counts_the_points_missing_after_substitution(d100):
    w = d100.rules.weapons
    assert shortfall(w["broadsword"], {"str": 8, "dex": 6}) == {"str": 1, "dex": 1}
    assert shortfall(w["broadsword"], {"str": 11, "dex": 6}) == {"str": 0, "dex": 0}  # 2 STR for 1 DEX
    assert shortfall(w["broadsword"], {"str": 11, "dex": 4}) == {"str": 0, "dex": 2}  # 3 short, 1 made up
    assert shortfall(w["sling"], {"str": 18, "dex": 10}) == {"str": 0, "dex": 1}      # no minimum STR
    assert shortfall(w["battle_axe"], {"str": 8, "dex": 6}) == {"str": 5, "dex": 3}


def test_kit_weapons_are_usable_when_the_list_allows(d100):
    """2,000 characters of every background: a weapon below its minimum only when no
    weapon of its list is usable, and then the one nearest to usable."""
    below = 0
    for i in range(2000):
        ctx = begin(d100, 42, i)
        bg = _bg(d100, ctx.identity["background"])
        from chargen.systems.d100.generate import roll_characteristics
        chars = roll_characteristics(d100.rules, ctx.roller)
        weapons = [w for w, _, _ in outfit(d100.rules, bg, chars, ctx.roller)["weapons"]]
        lists = [e["weapon"] for e in d100.rules.common_equipment + bg.equipment if "weapon" in e]
        lists += [e[b]["weapon"] for e in bg.equipment if "if" in e for b in ("then", "else")]
        for w in weapons:
            short = sum(shortfall(w, chars).values())
            if short:
                below += 1
                options = next(opts for opts in lists if w.id in opts)
                assert all(sum(shortfall(d100.rules.weapons[o], chars).values()) >= short for o in options)
    assert below  # the default minimums leave some characters short of every listed weapon


def test_weapon_entries_carry_minimums_hands_and_what_falling_short_costs(d100):
    doc = make_character(d100, 42, 16)  # STR 8, DEX 6: short of the broadsword and the long spear
    validate(doc)
    by_id = {w["id"]: w for w in doc["weapons"]}
    assert {k: by_id["belt_knife"][k] for k in ("min_str", "min_dex", "hands", "below_minimum")} == \
        {"min_str": 0, "min_dex": 0, "hands": 1, "below_minimum": None}
    assert by_id["broadsword"]["below_minimum"] == {"str": 1, "dex": 1, "usable": False}
    assert (by_id["long_spear"]["hands"], by_id["long_spear"]["below_minimum"]) == (2, {"str": 1, "dex": 0, "usable": False})


def test_the_sheet_shows_a_weapon_below_its_minimum(d100):
    from chargen.render.html import HtmlRenderer
    from chargen.run.figures import figured
    from chargen.render.templates import TemplateSet

    html = HtmlRenderer(TemplateSet.load()).sheet(figured(make_character(d100, 42, 16)), standalone=False)
    assert "Min<br>STR/DEX" in html and "the weapon cannot be used" in html
    assert '<td class="num warn"><span data-fill>9/7</span><span class="sub warn" data-fill>short 1/1</span></td>' in html  # broadsword
    assert '<td class="num warn"><span data-fill>9/5</span><span class="sub warn" data-fill>short 1/0</span></td>' in html  # long spear
    assert '<td class="num" data-fill>0/0</td>' in html                                              # belt knife
    usable = HtmlRenderer(TemplateSet.load()).sheet(figured(make_character(d100, 42, 1)), standalone=False)
    assert "Min<br>STR/DEX" in usable and "cannot be used" not in usable


OVERLAY = """overlay: d100
name: Test rules
changes:
  backgrounds:
    add:
      common.equipment:
        - if: {characteristic: %s, at_least: 11, source: default}
          then: {weapon: {choose: [sling, javelin], usable: true}}
          else: {gear: [Heavy stick]}
"""


def test_an_if_entry_names_a_known_characteristic(write):
    from chargen.errors import RulesError
    from chargen.rules import load_module

    with pytest.raises(RulesError) as e:
        load_module("d100", [write("h.yaml", OVERLAY % "dexx")])
    assert any("dexx" in p and "characteristic" in p for p in e.value.problems), e.value.problems


def test_an_if_entry_on_another_characteristic_plays(write, d100):
    from chargen.rules import load_module

    module = load_module("d100", [write("h.yaml", OVERLAY % "int")])
    for i in range(200):
        doc = make_character(module, 5, i)
        validate(doc)
        own = 3 if doc["background"]["id"] in ("barbarian",) + NOBLES else 1
        if doc["characteristics"]["int"] >= 11:
            assert doc["weapons"][1]["id"] in ("sling", "javelin") and len(doc["weapons"]) == own + 1
        else:
            assert len(doc["weapons"]) == own and "Heavy stick" in doc["equipment"]


def test_the_strike_rank_formula_is_credited_to_the_reference():
    """The seed says only that SR is "a combination of factors"; the formula is the reference's."""
    from pathlib import Path

    import yaml

    rules = Path(__file__).parents[1] / "chargen" / "rules" / "d100"
    combat = yaml.safe_load((rules / "combat.yaml").read_text())
    assert combat["strike_ranks"]["formula_source"] == "rq2-reference"
    for name in ("combat.yaml", "weapons.yaml"):
        for line in (rules / name).read_text().splitlines():
            if "SR" in line and line.lstrip().startswith("#"):
                assert "SR = DEX SR (seed)" not in line and "DEX SR alone (seed)" not in line, line


def test_the_manual_counts_the_skills_chargen_makes(d100):
    import re

    from tests import manual

    counts = {int(n) for n in re.findall(r"all (\d+) skills", manual.whole())}
    assert counts == {len(d100.rules.skills)} == {27}


def test_the_roster_names_the_best_weapon_the_character_can_use(d100):
    from chargen.systems.d100.view import view
    from chargen.view import roster_pairs

    def roster(doc):
        return roster_pairs(view(doc, d100.rules))

    doc = make_character(d100, 42, 0)  # barbarian: belt knife 5%, hand axe 20%, self bow 20% (1 STR short)
    assert [(w["id"], w["attack"], bool(w["below_minimum"])) for w in doc["weapons"]] == \
        [("belt_knife", 5, False), ("hand_axe", 20, False), ("self_bow", 20, True)]
    doc["weapons"][1]["below_minimum"] = {"str": 2, "dex": 0, "usable": False}
    assert roster(doc)[-1] == ("Belt knife", "5%")


def test_a_tribal_weapon_has_the_barbarian_base_whoever_hands_it_out(d100):
    """Seed: "Barbarians have a 15% base chance with their tribal weapons (see Previous Experience).
    All other weapons are at a flat 05%": a tribal-list weapon is tribal whether the background's
    kit, another profession's or an archetype's equipment, or a hand edit gives it."""
    from chargen.generate import GenerationRequest
    from chargen.systems.d100.recompute import fill

    bg = _bg(d100, "barbarian")
    assert bg.tribal_weapons == {"short_spear", "hand_axe", "club", "broadsword", "sling", "self_bow", "javelin"}
    doc = make_character(d100, 3, 2, GenerationRequest(archetype="bandit", derivation=1))  # (derivation 1: the seed chosen for it) a barbarian bandit's bow
    assert doc["background"]["id"] == "barbarian"
    bow = next(w for w in doc["weapons"] if w["id"] == "self_bow")
    assert bow["base"] == 15 and bow["sources"][:2] == [
        {"source": "base", "value": 15}, {"source": "category", "id": "attack", "value": doc["combat"]["attack"]}]
    doc["weapons"] += [{"id": "hand_axe"}, {"id": "war_hammer"}]  # added by hand, by id alone
    assert fill(d100.rules, doc) == []
    axe, flail = doc["weapons"][-2:]
    assert axe["base"] == 15 and axe["attack"] == 15 + doc["combat"]["attack"]
    assert flail["base"] == 5 and flail["attack"] == 5  # a flat 05%, no ability modifiers yet


def test_the_block_marks_a_weapon_below_its_minimum(tmp_path):
    """The block (and card) layout says a weapon the character cannot use is one (document field
    weapons[].below_minimum); a usable one carries no mark."""
    from click.testing import CliRunner

    from chargen.cli import cli

    r = CliRunner().invoke(cli, ["generate", "--seed", "42", "--index", "16", "--format", "html", "--layout", "block",
                                 "-o", str(tmp_path / "b")])
    assert r.exit_code == 0, r.output
    html = next((tmp_path / "b").glob("0016-*.html")).read_text("utf-8")
    assert 'Broadsword <span class="warn">(cannot use: STR/DEX 1/1 short)</span>' in html
    assert "Belt knife</td>" in html
