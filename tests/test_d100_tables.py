"""Every row of every D100 II table at its boundaries, and the "each +N" extensions.

The expected values are typed from shared/reference/d100ii-figures.md, so these
tests check the YAML data against the reference, not against itself.
"""

import pytest

from chargen.systems.d100.generate import signed

MAJOR = {1: -10, 4: -10, 5: -5, 8: -5, 9: 0, 12: 0, 13: 5, 16: 5, 17: 10, 20: 10, 21: 15, 24: 15, 25: 20, 28: 20, 29: 25}
MINOR = {1: -5, 4: -5, 5: 0, 8: 0, 9: 0, 12: 0, 13: 0, 16: 0, 17: 5, 20: 5, 21: 10, 24: 10, 25: 15}
MINOR_INV = {1: 5, 4: 5, 5: 0, 8: 0, 9: 0, 12: 0, 13: 0, 16: 0, 17: -5, 20: -5, 21: -10, 24: -10, 25: -15}
MAJOR_INV = {1: 10, 4: 10, 5: 5, 8: 5, 9: 0, 12: 0, 13: -5, 16: -5, 17: -10, 20: -10, 21: -15, 25: -20}


def rows(d100):
    return {row.id: row for row in d100.rules.abilities}


def table(d100, name):
    """The banded row used under ``name`` anywhere in the rules."""
    for ab in d100.rules.abilities + d100.rules.categories:
        for _, row in ab.terms:
            if _values(row) == _values_of(name):
                return row
    raise AssertionError(name)


def _values(row):
    return tuple(row.lookup(x) for x in (1, 5, 9, 13, 17, 21))


def _values_of(name):
    ref = {"major": MAJOR, "minor": MINOR, "minor_inverted": MINOR_INV, "major_inverted": MAJOR_INV}[name]
    return tuple(ref[x] for x in (1, 5, 9, 13, 17, 21))


@pytest.mark.parametrize("name, expected", [("major", MAJOR), ("minor", MINOR),
                                            ("minor_inverted", MINOR_INV), ("major_inverted", MAJOR_INV)])
def test_modifier_rows_at_every_boundary(d100, name, expected):
    row = table(d100, name)
    for x, value in expected.items():
        assert row.lookup(x) == value, (name, x)
    assert row.lookup(0) == expected[1]  # below the first band reads as the first band


def _chars(**kw):
    base = dict(str=10, con=10, siz=10, int=10, pow=10, dex=10, cha=10)
    base.update(kw)
    return base


@pytest.mark.parametrize("chars, attack, parry, defence", [
    (_chars(), 0, 0, 0),
    (_chars(str=17, int=17, pow=17, dex=17), 30, 20, 25),     # 5 + 10 + 5 + 10; parry: 5 + 5 + 10
    (_chars(siz=3), 0, 5, 5),                                 # SIZ inverted minor
    (_chars(dex=3, int=3), -20, -10, -20),
    (_chars(dex=21), 15, 15, 15),                             # each +4 beyond 20
])
def test_combat_abilities_sum_the_rows(d100, chars, attack, parry, defence):
    got = {ab.id: ab.value(chars) for ab in d100.rules.abilities}
    assert got == {"attack": attack, "parry": parry, "defence": defence}


@pytest.mark.parametrize("average, dm, thrown", [
    (1, "-1D4", "-1D2"), (6, "-1D4", "-1D2"), (7, "0", "0"), (12, "0", "0"), (13, "+1D4", "+1D2"),
    (16, "+1D4", "+1D2"), (17, "+1D6", "+1D3"), (20, "+1D6", "+1D3"), (21, "+2D6", "+1D6"), (28, "+2D6", "+1D6"),
    (29, "+3D6", "+1D6+1D3"), (36, "+3D6", "+1D6+1D3"), (37, "+4D6", "+1D6+2D3"),
])
def test_damage_modifier_bands_and_each_8(d100, average, dm, thrown):
    r = d100.rules
    assert signed(r.damage_modifier.lookup(average)) == dm
    assert signed(r.damage_modifier_thrown.lookup(average)) == thrown


@pytest.mark.parametrize("x, siz, pow_", [
    (1, -2, -1), (4, -2, -1), (5, -1, 0), (8, -1, 0), (9, 0, 0), (12, 0, 0), (13, 1, 0), (16, 1, 0),
    (17, 2, 1), (20, 2, 1), (21, 3, 2), (24, 3, 2), (25, 4, 3),
])
def test_hit_point_modifiers(d100, x, siz, pow_):
    mods = dict(d100.rules.hp_modifiers)
    assert mods["siz"].lookup(x) == siz
    assert mods["pow"].lookup(x) == pow_


LOCATION_HP = {  # total HP: (leg/abdomen/head, chest, arm)
    1: (1, 2, 1), 3: (1, 2, 1), 4: (2, 3, 1), 6: (2, 3, 1), 7: (3, 4, 2), 9: (3, 4, 2), 10: (4, 5, 3),
    12: (4, 5, 3), 13: (5, 6, 4), 15: (5, 6, 4), 16: (6, 7, 5), 18: (6, 7, 5), 19: (7, 8, 6), 21: (7, 8, 6),
    22: (8, 9, 7), 24: (8, 9, 7), 25: (9, 10, 8), 30: (10, 11, 9),
}


@pytest.mark.parametrize("total, expected", LOCATION_HP.items())
def test_location_hit_points_and_each_3(d100, total, expected):
    t = d100.rules.location_hp
    assert (t["leg"].lookup(total), t["chest"].lookup(total), t["arm"].lookup(total)) == expected
    assert t["abdomen"].lookup(total) == t["head"].lookup(total) == expected[0]


def test_location_hp_matches_the_reference_formula(d100):
    t = d100.rules.location_hp
    for total in range(1, 61):
        base = -(-total // 3)
        assert t["leg"].lookup(total) == base
        assert t["chest"].lookup(total) == base + 1
        assert t["arm"].lookup(total) == max(1, base - 1)


@pytest.mark.parametrize("x, siz_sr, dex_sr", [
    (1, 3, 4), (9, 3, 4), (10, 2, 3), (15, 2, 3), (16, 1, 2), (19, 1, 2), (20, 0, 1), (30, 0, 1),
])
def test_strike_rank_bands(d100, x, siz_sr, dex_sr):
    assert d100.rules.sr_siz.lookup(x) == siz_sr
    assert d100.rules.sr_dex.lookup(x) == dex_sr


MELEE = {"right_leg": (1, 4), "left_leg": (5, 8), "abdomen": (9, 11), "chest": (12, 12),
         "right_arm": (13, 15), "left_arm": (16, 18), "head": (19, 20)}
MISSILE = {"right_leg": (1, 3), "left_leg": (4, 6), "abdomen": (7, 10), "chest": (11, 15),
           "right_arm": (16, 17), "left_arm": (18, 19), "head": (20, 20)}


def test_hit_locations_are_the_reference_ranges_and_partition_1d20(d100):
    locs = d100.rules.locations
    assert {loc.id: loc.melee for loc in locs} == MELEE
    assert {loc.id: loc.missile for loc in locs} == MISSILE
    for column in (MELEE, MISSILE):
        faces = sorted(f for lo, hi in column.values() for f in range(lo, hi + 1))
        assert faces == list(range(1, 21))


def test_aiming_example_from_the_seed(d100):
    """'a delay of 2 SR and a hit location roll of 12 ... any location between 10 and 14
    (abdomen, chest or right arm on a human target)'."""
    hit = {loc.id for loc in d100.rules.locations for f in range(10, 15) if loc.melee[0] <= f <= loc.melee[1]}
    assert hit == {"abdomen", "chest", "right_arm"}


@pytest.mark.parametrize("face, background", [
    (1, "peasant"), (25, "peasant"), (26, "townsfolk"), (60, "townsfolk"), (61, "barbarian"), (85, "barbarian"),
    (86, "poor_noble"), (95, "poor_noble"), (96, "rich_noble"), (99, "rich_noble"), (100, "very_rich_noble"),
])
def test_background_table_rows(d100, face, background):
    assert d100.rules.backgrounds.lookup(face).id == background


@pytest.mark.parametrize("background, lo, hi, income", [
    ("peasant", 1, 100, False), ("townsfolk", 2, 200, False), ("barbarian", 1, 100, False),
    ("poor_noble", 5, 500, True), ("rich_noble", 10, 1000, True), ("very_rich_noble", 20, 2000, True),
])
def test_background_money(d100, background, lo, hi, income):
    bg = next(b for _, _, b in d100.rules.backgrounds.rows if b.id == background)
    assert (bg.money_dice.minimum * bg.money_times, bg.money_dice.maximum * bg.money_times) == (lo, hi)
    assert bg.income is income


@pytest.mark.parametrize("intel, modifier", [
    (3, -27), (5, -15), (6, -9), (8, -3), (9, 0), (12, 0), (13, 3), (18, 18), (21, 27),
])
def test_experience_modifier(d100, intel, modifier):
    from chargen.systems.d100.generate import experience_modifier

    assert experience_modifier(d100.rules, _chars(int=intel)) == modifier


@pytest.mark.parametrize("category, chars, value", [
    ("knowledge", _chars(int=17, pow=17), 15),
    ("manipulation", _chars(str=3, int=3, pow=3, dex=3), -30),
    ("oratory", _chars(cha=17, int=17, pow=17), 20),
    ("perception", _chars(int=13), 5),
    ("stealth", _chars(siz=3, int=13, dex=13, pow=17), 15),   # +10 +5 +5 -5
    ("stealth", _chars(siz=21), -15),
])
def test_skill_category_modifiers(d100, category, chars, value):
    cat = next(c for c in d100.rules.categories if c.id == category)
    assert cat.value(chars) == value


SEED_BASES = {
    "evaluate_treasure": 0, "read_write_own_language": 10, "read_write_other_language": 0,
    "speak_other_language": 0, "armour_making": 0, "climbing": 15, "hide_item": 10, "jumping": 15,
    "lock_picking": 5, "map_making": 5, "riding": 5, "shield_making": 0, "swimming": 5, "trap_set_disarm": 5,
    "tumbling": 0, "weapon_making": 0, "oratory": 5, "listen": 25, "spot_hidden_items": 5, "spot_traps": 5,
    "taste_analysis": 0, "tracking": 10, "camouflage": 10, "hide_in_cover": 5, "move_quietly": 5, "pick_pockets": 5,
}


def test_every_seed_skill_with_its_base(d100):
    skills = {s.id: s for s in d100.rules.skills}
    assert {k: s.base for k, s in skills.items() if s.base is not None} == SEED_BASES
    sol = skills["speak_own_language"]
    assert (sol.base_char, sol.base_times) == ("int", 5)
