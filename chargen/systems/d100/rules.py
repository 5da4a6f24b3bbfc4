"""The D100 II rules, validated from the module's YAML files into frozen objects."""

from __future__ import annotations

from dataclasses import dataclass

from chargen import dice as dicemod
from chargen.rules.check import (
    Cursor, Problems, check_reads, check_unique, declare_reads, file_cursors, optional_cursor,
)
from chargen.rules.tables import Banded, DieRanges, banded, check_partition, read_range
from chargen.rules.yamlio import Located
from chargen.systems.d100 import bounds
from chargen.systems.d100.rules_kit import (
    ArmourPiece, NameList, Weapon, armour_table, backgrounds_table, equipment_refs, names_table, weapons_table,
)
from chargen.systems.d100.rules_archetypes import Archetype, archetypes_table
from chargen.systems.d100.rules_attack import AttackRules, attack_tables
from chargen.systems.d100.rules_experience import Experience, professions_table, weapon_lists

# What the engine's code reads by id, by role: strike ranks use SIZ and DEX, weapon
# minimums STR and DEX, weapon skills the attack and parry abilities, the character
# document (and sheet) all three abilities. Checked at load (check_reads).
READS = declare_reads({
    "characteristic": {"strength": "str", "size": "siz", "dexterity": "dex"},
    "ability": {"attack": "attack", "parry": "parry", "defence": "defence"},
})
CHAR, ABILITY = READS["characteristic"], READS["ability"]

FILES = ("module", "characteristics", "modifiers", "combat", "hit_locations", "skills",
         "weapons", "armour", "backgrounds", "names", "professions")


@dataclass(frozen=True, slots=True)
class Characteristic:
    id: str
    abbr: str
    label: str
    dice: dicemod.Dice


@dataclass(frozen=True, slots=True)
class RowSum:
    """A modifier that is the sum of banded rows, one per characteristic."""

    id: str
    label: str
    terms: tuple[tuple[str, Banded], ...]  # (characteristic id, row)
    row_ids: tuple[str, ...] = ()  # each term's row id in modifiers.yaml (explain names it)

    def value(self, chars: dict[str, int]) -> int:
        return sum(row.lookup(chars[c]) for c, row in self.terms)


@dataclass(frozen=True, slots=True)
class Location:
    id: str
    label: str
    melee: tuple[int, int]
    missile: tuple[int, int]
    hp_row: str


@dataclass(frozen=True, slots=True)
class Skill:
    id: str
    label: str
    category: str
    base: int | None           # a fixed base chance
    base_char: str | None      # or a characteristic times a factor
    base_times: int = 0


@dataclass(frozen=True)
class D100Rules:
    currency: dict
    characteristics: tuple[Characteristic, ...]
    abilities: tuple[RowSum, ...]
    dm_average_of: tuple[str, ...]
    damage_modifier: Banded
    damage_modifier_thrown: Banded
    hp_base: str
    hp_modifiers: tuple[tuple[str, Banded], ...]
    hp_minimum: int
    pow_points_from: str
    sr_siz: Banded
    sr_dex: Banded
    mov: int
    locations: tuple[Location, ...]
    location_hp: dict[str, Banded]
    categories: tuple[RowSum, ...]
    experience_char: str
    experience_steps: tuple[tuple[str, int, int], ...]  # (above|below, threshold, per point)
    skills: tuple[Skill, ...]
    weapons: dict[str, Weapon]
    armour: dict[str, ArmourPiece]
    backgrounds: DieRanges
    common_equipment: tuple
    sexes: tuple[str, ...]
    age: int
    names: dict[str, NameList]
    experience: Experience
    archetypes: dict[str, Archetype]
    location_die: int = 20  # the die the hit-location table is rolled on (hit_locations.yaml: die)
    attack: AttackRules | None = None  # attacks.yaml, fumbles.yaml, wounds.yaml: None when the module has none


def build(docs: dict[str, Located], problems: Problems) -> D100Rules | None:
    c = file_cursors(docs, FILES, problems)
    if c is None:
        return None
    chars = _characteristics(c["characteristics"])
    char_ids = _ids(c["characteristics"]["characteristics"])
    check_reads("d100", "characteristic", CHAR, c["characteristics"]["characteristics"])
    check_reads("d100", "ability", ABILITY, c["combat"]["abilities"])
    rows = _rows(c["modifiers"])
    combat = _combat(c["combat"], char_ids, rows)
    locations, location_hp, location_die = _locations(c["hit_locations"])
    categories, exp_char, exp_steps, skills = _skills(c["skills"], char_ids, rows)
    weapons = weapons_table(c["weapons"])
    armour = armour_table(c["armour"], _ids(c["hit_locations"]["locations"]))
    weapon_ids = set().union(*(_ids(c["weapons"][k]) for k in ("melee", "missile", "shields")))
    lists = weapon_lists(c["professions"], weapon_ids)
    refs = equipment_refs(weapon_ids, _ids(c["armour"]["pieces"]), char_ids, lists)
    backgrounds, common = backgrounds_table(c["backgrounds"], refs)
    skill_ids, bg_ids = _ids(c["skills"]["skills"]), _ids(c["backgrounds"]["backgrounds"])
    if not (skill_ids and bg_ids and weapon_ids):  # a broken table, reported: no problem for each reference to it
        return None
    experience = professions_table(c["professions"], refs, skill_ids, bg_ids, lists)
    sexes, age, names = names_table(c["names"], _ids(c["backgrounds"]["backgrounds"]))
    ids = {"characteristic": char_ids, "skill": skill_ids, "background": bg_ids, "names": set(names)}
    archetypes = archetypes_table(optional_cursor(docs, "archetypes", problems), refs, ids, experience)
    attack = attack_tables(*(optional_cursor(docs, f, problems) for f in ("attacks", "fumbles", "wounds")),
                           weapon_ids, tuple(location_hp), {loc.id for loc in locations or ()})
    currency = docs["module"].data.get("currency") or {"label": "silver pieces", "abbr": "sp", "source": "default"}
    if problems.items:
        return None
    rules = D100Rules(
        currency=currency, characteristics=chars, **combat, locations=locations, location_hp=location_hp,
        categories=categories, experience_char=exp_char, experience_steps=exp_steps, skills=skills,
        weapons=weapons, armour=armour, backgrounds=backgrounds, common_equipment=common,
        sexes=sexes, age=age, names=names, experience=experience,
        archetypes=archetypes, location_die=location_die, attack=attack,
    )
    bounds.check(rules, c, ABILITY)
    return None if problems.items else rules


def _combat(combat: Cursor, char_ids: set, rows: dict) -> dict:
    """Step 2: combat abilities, damage modifier, hit points, POW points, strike ranks, MOV."""
    combat.mapping(required=("abilities", "damage_modifier", "hit_points", "pow_points", "strike_ranks", "movement"))
    dm = combat["damage_modifier"]
    dm["source"].source()
    dm["thrown"]["source"].source()
    hp = combat["hit_points"]
    hp.mapping(required=("source", "base", "modifiers"), optional=("minimum",))
    hp["source"].source()
    hp_mods = []
    for key, mc in hp["modifiers"].items():
        Cursor(mc.doc, mc.path, key, mc.problems).ref(char_ids, "characteristic")
        hp_mods.append((key, banded(mc)))
    pp, sr, mv = combat["pow_points"], combat["strike_ranks"], combat["movement"]
    pp.mapping(required=("source", "equal_to"))
    sr.mapping(required=("source", "rounds", "ready_weapon", "siz", "dex"), optional=("formula_source",))
    if sr["formula_source"].present:
        sr["formula_source"].source()
    mv.mapping(required=("source", "mov"))
    for section in (pp, sr, mv):
        section["source"].source()
    sr["ready_weapon"].int(0, 100)  # seed figures the sheet does not use yet: validated, not kept
    sr["rounds"].int(1, 100)
    return {
        "abilities": tuple(_row_sums(combat["abilities"], char_ids, rows, "ability")),
        "dm_average_of": tuple(x.ref(char_ids, "characteristic") for x in dm["average_of"].list(1)),
        "damage_modifier": banded(dm, "dice", extra=("average_of", "thrown")),
        "damage_modifier_thrown": banded(dm["thrown"], "dice"),
        "hp_base": hp["base"].ref(char_ids, "characteristic"),
        "hp_modifiers": tuple(hp_mods),
        "hp_minimum": hp["minimum"].int(0, 100) if hp["minimum"].present else 1,
        "pow_points_from": pp["equal_to"].ref(char_ids, "characteristic"),
        "sr_siz": banded(sr["siz"]), "sr_dex": banded(sr["dex"]),
        "mov": mv["mov"].int(0, 1000),
    }


def _ids(c: Cursor) -> set[str]:
    """The ids a list's entries declare: what references may name, even when an entry has another problem
    (so one bad key in an entry is one problem, not one per reference to it)."""
    if not isinstance(c.value, list):
        return set()
    return {e["id"] for e in c.value if isinstance(e, dict) and isinstance(e.get("id"), str)}


def _characteristics(c: Cursor) -> tuple[Characteristic, ...]:
    c.mapping(required=("source", "characteristics"))
    c["source"].source()
    out = []
    entries = c["characteristics"].list(1)
    check_unique(entries, "id", "characteristic")
    for e in entries:
        if not e.mapping(required=("id", "abbr", "label", "dice")):
            continue
        d = e["dice"].dice()
        if d is not None and d.minimum < 0:
            e["dice"].fail(f"dice {d} can roll below 0 (a characteristic is at least 0)")
        out.append(Characteristic(e["id"].ident(), e["abbr"].str(8), e["label"].str(), d))
    return tuple(out)


def _rows(c: Cursor) -> dict[str, Banded]:
    c.mapping(required=("rows",))
    rows = {}
    for key, rc in c["rows"].items():
        rc["source"].source()
        rows[key] = banded(rc)
    return rows


def _row_sums(c: Cursor, char_ids: set, rows: dict, what: str) -> list[RowSum]:
    out = []
    entries = c.list(1)
    check_unique(entries, "id", what)
    for e in entries:
        if not e.mapping(required=("id", "label", "source", "sum")):
            continue
        e["source"].source()
        terms, row_ids = [], []
        for char, rc in e["sum"].items():
            Cursor(rc.doc, rc.path, char, rc.problems).ref(char_ids, "characteristic")
            row = rc.ref(rows, "modifier row")
            if row:
                terms.append((char, rows[row]))
                row_ids.append(row)
        out.append(RowSum(e["id"].ident(), e["label"].str(), tuple(terms), tuple(row_ids)))
    return out


def _locations(c: Cursor):
    c.mapping(required=("source", "die", "locations", "location_hp"))
    c["source"].source()
    die = c["die"].int(1, 1000) or 20
    lhp = c["location_hp"]
    lhp["source"].source()
    location_hp = {key: banded(rc, lo=0) for key, rc in lhp.items() if key != "source"}  # as the data says: no floor in code
    entries = c["locations"].list(1)
    check_unique(entries, "id", "hit location")
    out, melee, missile = [], [], []
    for e in entries:
        if not e.mapping(required=("id", "label", "melee", "missile", "hp")):
            continue
        m, s = read_range(e["melee"], die), read_range(e["missile"], die)
        melee.append((e["melee"], m))
        missile.append((e["missile"], s))
        out.append(Location(e["id"].ident(), e["label"].str(), m, s, e["hp"].ref(location_hp, "location hit-point row")))
    check_partition(c["locations"], die, melee, "melee hit-location")
    check_partition(c["locations"], die, missile, "missile hit-location")
    return tuple(out), location_hp, die


def _skills(c: Cursor, char_ids: set, rows: dict):
    c.mapping(required=("categories", "experience", "source", "skills"))
    c["source"].source()
    categories = tuple(_row_sums(c["categories"], char_ids, rows, "category"))
    cat_ids = _ids(c["categories"])
    ex = c["experience"]
    ex.mapping(required=("source", "characteristic", "steps"))
    ex["source"].source()
    steps = []
    for sc in ex["steps"].list(1):
        if not sc.mapping(optional=("above", "below", "per_point"), required=("per_point",)):
            continue
        side = "above" if "above" in sc.value else "below"
        if ("above" in sc.value) == ("below" in sc.value):
            sc.fail("expected exactly one of 'above' or 'below'")
        steps.append((side, sc[side].int(0, 1000), sc["per_point"].int(-100, 100)))
    entries = c["skills"].list(1)
    check_unique(entries, "id", "skill")
    skills = []
    for e in entries:
        if not e.mapping(required=("id", "label", "category", "base"), optional=("source",)):
            continue
        if e["source"].present:
            e["source"].source()
        base = e["base"]
        if isinstance(base.value, dict):
            base.mapping(required=("characteristic", "times"))
            skill = Skill(e["id"].ident(), e["label"].str(), e["category"].ref(cat_ids, "skill category"),
                          None, base["characteristic"].ref(char_ids, "characteristic"), base["times"].int(0, 100))
        else:
            skill = Skill(e["id"].ident(), e["label"].str(), e["category"].ref(cat_ids, "skill category"),
                          base.int(0, 1000), None)
        skills.append(skill)
    return categories, ex["characteristic"].ref(char_ids, "characteristic"), tuple(steps), tuple(skills)
