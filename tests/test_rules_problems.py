"""Every overlay and validation problem, by its exact message (file:line: key.path: what (allowed))."""

import pytest

from chargen.errors import RulesError
from chargen.rules import load_module

HEAD = "overlay: d100\nname: Test rules\nchanges:\n"

CASES = {
    'unknown_top': (
        'overlays: d100\nname: x\nchanges: {}\n',
        ['house.yaml:1: overlays: unknown key (allowed: changes, description, name, overlay)',
         "house.yaml:1: (top level): missing key 'overlay'"]),
    'empty_changes': (
        'overlay: d100\nname: x\nchanges: {}\n',
        ['house.yaml:3: changes: no changes (expected a mapping of rules files to change)']),
    'unknown_op': (
        HEAD + '  skills:\n    replace:\n      skills: []\n',
        ['house.yaml:6: changes.skills.replace: unknown key (allowed: add, remove, set)']),
    'empty_stem': (
        HEAD + '  skills: {}\n',
        ['house.yaml:4: changes.skills: no changes (expected one or more of: set, add, remove)']),
    'bad_path': (
        HEAD + '  skills:\n    set:\n      skills..base: 1\n',
        ["house.yaml:6: changes.skills.set.skills..base: bad path 'skills..base' (expected keys joined by '.', with [id=x] or [N] to pick a list entry: 'characteristics[id=int].dice')"]),
    'remove_not_list': (
        HEAD + '  skills:\n    remove:\n      skills: climbing\n',
        ['house.yaml:6: changes.skills.remove.skills: expected a list of ids, keys or values to remove']),
    'add_scalar': (
        HEAD + '  skills:\n    add:\n      skills: climbing\n',
        ['house.yaml:6: changes.skills.add.skills: expected a list of entries or a mapping of new keys to add']),
    'protected': (
        HEAD + '  module:\n    set:\n      engine: kotm\n',
        ["house.yaml:6: changes.module.set.engine: an overlay cannot change the module's engine"]),
    'wrong_target': (
        'overlay: kotm\nname: x\nchanges:\n  skills:\n    remove:\n      skills: [a]\n',
        ["house.yaml:1: overlay: this overlay changes module 'kotm', not 'd100' (use --system kotm)"]),
    'missing_key': (
        HEAD + '  combat:\n    set:\n      damage_modifer.bands: {}\n',
        ["house.yaml:6: changes.combat.set.damage_modifer.bands: no key 'damage_modifer' in the file (keys: abilities, damage_modifier, hit_points, pow_points, strike_ranks, movement)"]),
    'index_range': (
        HEAD + '  skills:\n    set:\n      experience.steps[5].per_point: 1\n',
        ["house.yaml:6: changes.skills.set.experience.steps[5].per_point: 'experience.steps' has 3 entries: no [5] (0 to 2)"]),
    'no_match': (
        HEAD + '  skills:\n    set:\n      skills[id=sailing].base: 1\n',
        ["house.yaml:6: changes.skills.set.skills[id=sailing].base: no entry with id 'sailing' in 'skills' (expected one of: evaluate_treasure, read_write_own_language, read_write_other_language, speak_own_language, speak_other_language, armour_making, climbing, hide_item, jumping, lock_picking, map_making, riding, ...)"]),
    'many_match': (
        HEAD + '  skills:\n    set:\n      skills[category=stealth].base: 1\n',
        ["house.yaml:6: changes.skills.set.skills[category=stealth].base: 4 entries in 'skills' have category 'stealth' (expected one)"]),
    'not_mapping': (
        HEAD + '  skills:\n    set:\n      skills.base: 1\n',
        ["house.yaml:6: changes.skills.set.skills.base: 'skills' is a list, not a mapping: cannot take key 'base'"]),
    'not_list': (
        HEAD + '  skills:\n    set:\n      experience[0]: 1\n',
        ["house.yaml:6: changes.skills.set.experience[0]: 'experience' is a mapping, not a list: cannot pick [0]"]),
    'add_dup': (
        HEAD + '  skills:\n    add:\n      skills:\n        - {id: climbing, label: Climbing, category: manipulation, base: 15}\n',
        ["house.yaml:7: changes.skills.add.skills[0]: 'skills' already has an entry with id 'climbing' (use set to replace it)"]),
    'add_dup_name': (
        HEAD + '  names:\n    add:\n      lists.peasant.female: [Alda]\n',
        ["house.yaml:6: changes.names.add.lists.peasant.female[0]: 'lists.peasant.female' already has 'Alda' (use set to replace it)"]),
    'add_dup_key': (
        HEAD + '  combat:\n    add:\n      damage_modifier.bands: {1-6: -1D6}\n',
        ["house.yaml:6: changes.combat.add.damage_modifier.bands.1-6: 'damage_modifier.bands' already has '1-6' (use set to replace it)"]),
    'add_list_to_map': (
        HEAD + '  combat:\n    add:\n      damage_modifier.bands: [1]\n',
        ["house.yaml:6: changes.combat.add.damage_modifier.bands: 'damage_modifier.bands' is a mapping: add takes a mapping of new keys, got a list"]),
    'add_map_to_list': (
        HEAD + '  skills:\n    add:\n      skills: {a: 1}\n',
        ["house.yaml:6: changes.skills.add.skills: 'skills' is a list: add takes a list of entries, got a mapping"]),
    'add_to_scalar': (
        HEAD + '  skills:\n    add:\n      experience.characteristic: [a]\n',
        ["house.yaml:6: changes.skills.add.experience.characteristic: 'experience.characteristic' is the value 'int': add needs a list or a mapping"]),
    'remove_missing': (
        HEAD + '  weapons:\n    remove:\n      melee: [lightsaber]\n',
        ["house.yaml:6: changes.weapons.remove.melee[0]: no 'lightsaber' in 'melee' to remove (expected one of: dagger, belt_knife, shortsword, broadsword, scimitar, hand_axe, battle_axe, mace, club, war_hammer, short_spear, long_spear, ...)"]),
    'unknown_file': (
        HEAD + '  skils:\n    remove:\n      skills: [climbing]\n',
        ["house.yaml:5: changes.skils: unknown rules file 'skils' (expected one of: archetypes, armour, attacks, backgrounds, characteristics, combat, flavour, fumbles, hit_locations, modifiers, module, names, professions, skills, weapons, wounds)"]),
    'v_unknown_key': (
        HEAD + '  skills:\n    set:\n      skills[id=climbing]: {id: climbing, label: Climbing, category: manipulation, base: 15, bonus: 5}\n',
        ['house.yaml:6: changes.skills.set.skills[id=climbing].bonus: unknown key (allowed: base, category, id, label, source)']),
    'v_type_text': (
        HEAD + '  characteristics:\n    set:\n      characteristics[id=str].label: 12\n',
        ['house.yaml:6: changes.characteristics.set.characteristics[id=str].label: expected text, got the number 12']),
    'v_type_int': (
        HEAD + '  skills:\n    set:\n      skills[id=climbing].base: ten\n',
        ["house.yaml:6: changes.skills.set.skills[id=climbing].base: expected a whole number, got the text 'ten'"]),
    'v_type_list': (
        HEAD + '  skills:\n    set:\n      skills: {}\n',
        ['house.yaml:6: changes.skills.set.skills: expected a list, got a mapping']),
    'v_dice': (
        HEAD + '  characteristics:\n    set:\n      characteristics[id=int].dice: 2D6+X\n',
        ["house.yaml:6: changes.characteristics.set.characteristics[id=int].dice: malformed dice '2D6+X': unexpected 'X' at character 5 (expected notation such as '3D6', '2D6+6', 'D100', '1D4+1D6')"]),
    'v_dice_huge': (
        HEAD + '  characteristics:\n    set:\n      characteristics[id=int].dice: 1000000D1000000\n',
        ["house.yaml:6: changes.characteristics.set.characteristics[id=int].dice: dice '1000000D1000000': 1000000 dice in one term (expected 1 to 1000)"]),
    'v_dice_neg': (
        HEAD + '  characteristics:\n    set:\n      characteristics[id=int].dice: 1D6-3\n',
        ['house.yaml:6: changes.characteristics.set.characteristics[id=int].dice: dice 1D6-3 can roll below 0 (a characteristic is at least 0)']),
    'v_band_overlap': (
        HEAD + "  combat:\n    set:\n      damage_modifier.bands: {1-6: -1D6, 5-12: '0', 13-28: +1D6}\n",
        ["house.yaml:6: changes.combat.set.damage_modifier.bands.5-12: band '5-12' overlaps the band before it (bands must be consecutive)"]),
    'v_band_gap': (
        HEAD + "  combat:\n    set:\n      damage_modifier.bands: {1-6: -1D6, 8-12: '0', 13-28: +1D6}\n",
        ["house.yaml:6: changes.combat.set.damage_modifier.bands.8-12: band '8-12' leaves a gap after 6 (bands must be consecutive)"]),
    'v_band_backwards': (
        HEAD + "  combat:\n    set:\n      damage_modifier.bands: {1-6: -1D6, 12-7: '0'}\n",
        ["house.yaml:6: changes.combat.set.damage_modifier.bands.12-7: band '12-7' runs backwards"]),
    'v_band_notrange': (
        HEAD + '  combat:\n    set:\n      damage_modifier.bands: {low: -1D6}\n',
        ["house.yaml:6: changes.combat.set.damage_modifier.bands.low: band 'low' is not a range (expected '1-4', '12' or '20+')"]),
    'v_band_open': (
        HEAD + '  combat:\n    set:\n      strike_ranks.dex.bands: {1-9: 4, 10+: 3, 20-30: 1}\n',
        ["house.yaml:6: changes.combat.set.strike_ranks.dex.bands.20-30: band '20-30' follows an open-ended band"]),
    'v_range_overlap': (
        HEAD + '  backgrounds:\n    set:\n      backgrounds[id=peasant].roll: 01-30\n',
        ['chargen/rules/d100/backgrounds.yaml:29: backgrounds[1].roll: range 26-60 overlaps the background row 1-30 (house.yaml:6) at 26']),
    'v_range_gap': (
        HEAD + '  backgrounds:\n    set:\n      backgrounds[id=peasant].roll: 01-20\n',
        ['chargen/rules/d100/backgrounds.yaml:18: backgrounds: background rows leave faces 21..25 of the 1D100 unassigned (rows must cover 1 to 100)']),
    'v_range_outside': (
        HEAD + '  hit_locations:\n    set:\n      locations[id=head].melee: 19-21\n',
        ['house.yaml:6: changes.hit_locations.set.locations[id=head].melee: range 19-21 falls outside the die (1 to 20)']),
    'v_range_bad': (
        HEAD + '  hit_locations:\n    set:\n      locations[id=head].melee: nineteen\n',
        ["house.yaml:6: changes.hit_locations.set.locations[id=head].melee: expected a range on the 1D20 such as '1-4' or '12', got 'nineteen'"]),
    'v_unknown_char': (
        HEAD + '  skills:\n    set:\n      skills[id=speak_own_language].base.characteristic: wis\n',
        ["house.yaml:6: changes.skills.set.skills[id=speak_own_language].base.characteristic: unknown characteristic 'wis' (expected one of: cha, con, dex, int, pow, siz, str)"]),
    'v_unknown_category': (
        HEAD + '  skills:\n    set:\n      skills[id=climbing].category: athletics\n',
        ["house.yaml:6: changes.skills.set.skills[id=climbing].category: unknown skill category 'athletics' (expected one of: knowledge, manipulation, oratory, perception, stealth)"]),
    'v_unknown_weapon': (
        HEAD + '  backgrounds:\n    set:\n      backgrounds[id=poor_noble].equipment.items[0]: {weapon: lightsaber}\n',
        ["house.yaml:6: changes.backgrounds.set.backgrounds[id=poor_noble].equipment.items[0].weapon: unknown weapon 'lightsaber' (expected one of: battle_axe, belt_knife, broadsword, club, composite_bow, dagger, great_axe, greatsword, hand_axe, javelin, large_shield, light_crossbow, ...)"]),
    'v_unknown_location': (
        HEAD + '  armour:\n    set:\n      pieces[id=open_helm].covers: [head, tail]\n',
        ["house.yaml:6: changes.armour.set.pieces[id=open_helm].covers[1]: unknown hit location 'tail' (expected one of: abdomen, chest, head, left_arm, left_leg, right_arm, right_leg)"]),
    'v_removed_weapon': (
        HEAD + '  weapons:\n    remove:\n      melee: [broadsword]\n',
        # the barbarians' tribal list (professions.yaml) and the professions and archetypes lose it
        # (a removal cascades there); the backgrounds' own choices name it, as before
        ["chargen/rules/d100/backgrounds.yaml:86: backgrounds[3].equipment.items[2].weapon.choose[0]: unknown weapon 'broadsword', removed at house.yaml:6 (expected one of: battle_axe, belt_knife, club, composite_bow, dagger, great_axe, greatsword, hand_axe, javelin, large_shield, light_crossbow, long_spear, ...)",
         "chargen/rules/d100/backgrounds.yaml:112: backgrounds[4].equipment.items[4].weapon.choose[0]: unknown weapon 'broadsword', removed at house.yaml:6 (expected one of: battle_axe, belt_knife, club, composite_bow, dagger, great_axe, greatsword, hand_axe, javelin, large_shield, light_crossbow, long_spear, ...)",
         "chargen/rules/d100/backgrounds.yaml:129: backgrounds[5].equipment.items[4].weapon.choose[0]: unknown weapon 'broadsword', removed at house.yaml:6 (expected one of: battle_axe, belt_knife, club, composite_bow, dagger, great_axe, greatsword, hand_axe, javelin, large_shield, light_crossbow, long_spear, ...)"]),
    'v_removed_category': (
        HEAD + '  skills:\n    remove:\n      categories: [oratory]\n',
        ["chargen/rules/d100/skills.yaml:64: skills[17].category: unknown skill category 'oratory', removed at house.yaml:6 (expected one of: knowledge, manipulation, perception, stealth)"]),
    'v_removed_char': (
        HEAD + '  characteristics:\n    remove:\n      characteristics: [cha]\n',
        ["chargen/rules/d100/skills.yaml:15: categories[2].sum.cha: unknown characteristic 'cha', removed at house.yaml:6 (expected one of: con, dex, int, pow, siz, str)"]),
    'v_dup_id': (
        HEAD + '  skills:\n    set:\n      skills[id=tumbling].id: climbing\n',
        ["house.yaml:6: changes.skills.set.skills[id=tumbling].id: duplicate skill id 'climbing' (first at skills[6])"]),
    'v_empty_names': (
        HEAD + '  names:\n    set:\n      lists.peasant.female: []\n',
        ['house.yaml:6: changes.names.set.lists.peasant.female: expected at least 1 item, got 0']),
    'v_no_names': (
        HEAD + '  names:\n    remove:\n      lists: [barbarian]\n',
        ["chargen/rules/d100/names.yaml:14: lists: no name list for background 'barbarian'"]),
    'v_control': (
        HEAD + '  names:\n    add:\n      lists.peasant.female: ["Al\\x07da"]\n',
        ['house.yaml:6: changes.names.add.lists.peasant.female[0]: text holds the control character U+0007 (remove it)']),
    'v_long_name': (
        HEAD + '  names:\n    set:\n      lists.peasant.bynames: [xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx]\n      lists.peasant.format: "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy {given} {byname}"\n',
        ['chargen/rules/d100/names.yaml:15: lists.peasant: a name can reach 219 characters (the character schema allows 1 to 200; use a shorter format or names)']),
    'v_format': (
        HEAD + '  names:\n    set:\n      lists.peasant.format: "{given} {surname}"\n',
        ['house.yaml:6: changes.names.set.lists.peasant.format: expected a format with exactly {given} and {byname}']),
    'v_bounds': (
        HEAD + '  characteristics:\n    set:\n      characteristics[id=str].dice: 1D1000\n',
        ['chargen/rules/d100/combat.yaml:4: abilities[0]: the Attack modifier can reach 1255 with these characteristics (the character schema allows -1000 to 1000; use smaller rows or dice)',
         'chargen/rules/d100/combat.yaml:8: abilities[1]: the Parry modifier can reach 1250 with these characteristics (the character schema allows -1000 to 1000; use smaller rows or dice)',
         'chargen/rules/d100/skills.yaml:8: categories[1]: the Manipulation modifier can reach 1255 with these characteristics (the character schema allows -1000 to 1000; use smaller rows or dice)']),
    'v_bounds_derived': (
        HEAD + '  characteristics:\n    set:\n      characteristics[id=int].dice: 1D100+900\n',
        ['chargen/rules/d100/combat.yaml:4: abilities[0]: the Attack modifier can reach 1255 with these characteristics (the character schema allows -1000 to 1000; use smaller rows or dice)',
         'chargen/rules/d100/combat.yaml:12: abilities[2]: the Defence modifier can reach 1255 with these characteristics (the character schema allows -1000 to 1000; use smaller rows or dice)',
         'chargen/rules/d100/skills.yaml:4: categories[0]: the Knowledge modifier can reach 1240 with these characteristics (the character schema allows -1000 to 1000; use smaller rows or dice)',
         'chargen/rules/d100/skills.yaml:8: categories[1]: the Manipulation modifier can reach 1255 with these characteristics (the character schema allows -1000 to 1000; use smaller rows or dice)',
         'chargen/rules/d100/skills.yaml:12: categories[2]: the Oratory modifier can reach 1245 with these characteristics (the character schema allows -1000 to 1000; use smaller rows or dice)',
         'chargen/rules/d100/skills.yaml:16: categories[3]: the Perception modifier can reach 1240 with these characteristics (the character schema allows -1000 to 1000; use smaller rows or dice)',
         'chargen/rules/d100/skills.yaml:20: categories[4]: the Stealth modifier can reach 1260 with these characteristics (the character schema allows -1000 to 1000; use smaller rows or dice)',
         'chargen/rules/d100/skills.yaml:32: experience: the experience modifier can reach 2964 with these characteristics (the character schema allows -1000 to 1000; use smaller steps)']),
    'v_money': (
        HEAD + '  backgrounds:\n    set:\n      backgrounds[id=peasant].money.dice: 1D100-50\n',
        ['house.yaml:6: changes.backgrounds.set.backgrounds[id=peasant].money.dice: dice 1D100-50 can roll below 0 (starting money is at least 0)']),
    'v_source': (
        HEAD + '  combat:\n    set:\n      damage_modifier.source: made-up\n',
        ["house.yaml:6: changes.combat.set.damage_modifier.source: 'made-up' is not one of: seed, rq2-reference, default"]),
    'v_engine': (
        HEAD + "  module:\n    set:\n      name: ''\n",
        ['house.yaml:6: changes.module.set.name: expected text, got empty text']),
}



@pytest.mark.parametrize("case", list(CASES))
def test_problem_messages(case, tmp_path):
    text, expected = CASES[case]
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as e:
        load_module("d100", [path])
    assert [p.replace(str(tmp_path) + "/", "") for p in e.value.problems] == expected



def test_equipment_flags_must_be_true_or_false(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(HEAD + "  backgrounds:\n    set:\n      backgrounds[id=barbarian].equipment.items[2].weapon.tribal: yes please\n")
    with pytest.raises(RulesError) as e:
        load_module("d100", [path])
    assert [p.replace(str(tmp_path) + "/", "") for p in e.value.problems] == [
        "house.yaml:6: changes.backgrounds.set.backgrounds[id=barbarian].equipment.items[2].weapon.tribal: "
        "expected true or false, got the text 'yes please'"]


def test_a_bad_sex_id_is_one_problem_not_a_crash(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(HEAD + "  names:\n    add:\n      sexes.options: [female II]\n    remove:\n      sexes.options: [female]\n")
    with pytest.raises(RulesError) as e:
        load_module("d100", [path])
    problems = [p.replace(str(tmp_path) + "/", "") for p in e.value.problems]
    assert problems[0] == ("house.yaml:6: changes.names.add.sexes.options[0]: expected an id of lower-case letters, "
                           "digits and '_', got 'female II'")
    # with 'female' gone from the sexes, every name list's female names are a key too many
    assert problems[1:] == [f"chargen/rules/d100/names.yaml:{n}: lists.{bg}.female: unknown key (allowed: bynames, "
                            "format, male)" for n, bg in ((16, "peasant"), (21, "townsfolk"), (26, "barbarian"),
                                                          (31, "poor_noble"), (36, "rich_noble"), (41, "very_rich_noble"))]
