"""The D100 II rules, validated from the module's YAML files into frozen objects."""

from __future__ import annotations

from dataclasses import dataclass

from chargen import dice as dicemod
from chargen.rules.check import Cursor, Problems, check_unique
from chargen.rules.tables import Banded, DieRanges, banded, check_partition, read_range
from chargen.rules.yamlio import Located
from chargen.systems.d100 import bounds

FILES = ("module", "characteristics", "modifiers", "combat", "hit_locations", "skills",
         "weapons", "armour", "backgrounds", "names")


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


@dataclass(frozen=True, slots=True)
class Weapon:
    id: str
    label: str
    kind: str                  # melee, missile, shield
    base: int
    damage: dicemod.Dice | None
    sr: int | None
    hp: int
    enc: float
    min_str: int
    min_dex: int
    hands: int
    special: str | None
    thrown: bool = False
    range: int | None = None
    ap: int | None = None


@dataclass(frozen=True, slots=True)
class ArmourPiece:
    id: str
    label: str
    ap: int
    enc: float
    covers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Background:
    id: str
    label: str
    money_dice: dicemod.Dice
    money_times: int
    income: bool
    income_until_age: int | None
    equipment: tuple  # of equipment entries (plain dicts, validated)
    tribal_base: int | None = None
    other_base: int | None = None
    other_modifiers: bool = True


@dataclass(frozen=True, slots=True)
class NameList:
    format: str
    given: dict[str, tuple[str, ...]]  # sex -> given names
    bynames: tuple[str, ...]


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
    sr_ready: int
    sr_rounds: int
    mov: int
    locations: tuple[Location, ...]
    location_die: int
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


def build(docs: dict[str, Located], problems: Problems) -> D100Rules | None:
    missing = [f for f in FILES if f not in docs]
    if missing:
        problems.add(docs["module"], (), f"missing rules file(s): {', '.join(m + '.yaml' for m in missing)}")
        return None
    c = {name: Cursor.root(docs[name], problems) for name in FILES}
    for name in FILES[1:]:
        if not isinstance(docs[name].data, dict):
            c[name].fail("expected a mapping at the top of the file")
            return None
    chars = _characteristics(c["characteristics"])
    char_ids = _ids(c["characteristics"]["characteristics"])
    rows = _rows(c["modifiers"])
    combat = c["combat"]
    combat.mapping(required=("abilities", "damage_modifier", "hit_points", "pow_points", "strike_ranks", "movement"))
    abilities = tuple(_row_sums(combat["abilities"], char_ids, rows, "ability"))
    dm = combat["damage_modifier"]
    dm["source"].source()
    average_of = tuple(x.ref(char_ids, "characteristic") for x in dm["average_of"].list(1))
    dm_table = banded(dm, "dice", extra=("average_of", "thrown"))
    dm["thrown"]["source"].source()
    dm_thrown = banded(dm["thrown"], "dice")
    hp = combat["hit_points"]
    hp.mapping(required=("source", "base", "modifiers"), optional=("minimum",))
    hp["source"].source()
    hp_base = hp["base"].ref(char_ids, "characteristic")
    hp_mods = []
    for key, mc in hp["modifiers"].items():
        Cursor(mc.doc, mc.path, key, problems).ref(char_ids, "characteristic")
        hp_mods.append((key, banded(mc)))
    hp_min = hp["minimum"].int(0, 100) if hp["minimum"].present else 1
    pp = combat["pow_points"]
    pp.mapping(required=("source", "equal_to"))
    pp["source"].source()
    sr = combat["strike_ranks"]
    sr.mapping(required=("source", "rounds", "ready_weapon", "siz", "dex"))
    sr["source"].source()
    mv = combat["movement"]
    mv.mapping(required=("source", "mov"))
    mv["source"].source()
    locations, location_die, location_hp = _locations(c["hit_locations"])
    categories, exp_char, exp_steps, skills = _skills(c["skills"], char_ids, rows)
    weapons = _weapons(c["weapons"])
    armour = _armour(c["armour"], _ids(c["hit_locations"]["locations"]))
    weapon_ids = set().union(*(_ids(c["weapons"][k]) for k in ("melee", "missile", "shields")))
    backgrounds, common = _backgrounds(c["backgrounds"], weapon_ids, _ids(c["armour"]["pieces"]))
    sexes, age, names = _names(c["names"], _ids(c["backgrounds"]["backgrounds"]))
    currency = docs["module"].data.get("currency") or {"label": "silver pieces", "abbr": "sp", "source": "default"}
    pow_from = pp["equal_to"].ref(char_ids, "characteristic")
    sr_siz, sr_dex = banded(sr["siz"]), banded(sr["dex"])
    sr_ready, sr_rounds, mov = sr["ready_weapon"].int(0, 100), sr["rounds"].int(1, 100), mv["mov"].int(0, 1000)
    if problems.items:
        return None
    rules = D100Rules(
        currency=currency, characteristics=chars, abilities=abilities, dm_average_of=average_of,
        damage_modifier=dm_table, damage_modifier_thrown=dm_thrown, hp_base=hp_base,
        hp_modifiers=tuple(hp_mods), hp_minimum=hp_min,
        pow_points_from=pow_from, sr_siz=sr_siz, sr_dex=sr_dex, sr_ready=sr_ready,
        sr_rounds=sr_rounds, mov=mov,
        locations=locations, location_die=location_die, location_hp=location_hp,
        categories=categories, experience_char=exp_char, experience_steps=exp_steps, skills=skills,
        weapons=weapons, armour=armour, backgrounds=backgrounds, common_equipment=common,
        sexes=sexes, age=age, names=names,
    )
    bounds.check(rules, c)
    return None if problems.items else rules


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
        terms = []
        for char, rc in e["sum"].items():
            Cursor(rc.doc, rc.path, char, rc.problems).ref(char_ids, "characteristic")
            row = rc.ref(rows, "modifier row")
            if row:
                terms.append((char, rows[row]))
        out.append(RowSum(e["id"].ident(), e["label"].str(), tuple(terms)))
    return out


def _locations(c: Cursor):
    c.mapping(required=("source", "die", "locations", "location_hp"))
    c["source"].source()
    die = c["die"].int(1, 1000) or 20
    lhp = c["location_hp"]
    lhp["source"].source()
    location_hp = {key: banded(rc) for key, rc in lhp.items() if key != "source"}
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
    return tuple(out), die, location_hp


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


_WEAPON_KEYS = {
    "melee": (("id", "label", "base", "damage", "sr", "hp", "enc", "min_str", "min_dex", "hands", "special"), ()),
    "missile": (("id", "label", "base", "damage", "range", "hp", "enc", "min_str", "min_dex", "hands", "thrown", "special"), ()),
    "shields": (("id", "label", "base", "ap", "hp", "enc", "min_str", "min_dex"), ()),
}


def _weapons(c: Cursor) -> dict[str, Weapon]:
    c.mapping(required=("source", "melee", "missile", "shields"))
    c["source"].source()
    entries = []
    for kind in ("melee", "missile", "shields"):
        entries += [(kind, e) for e in c[kind].list()]
    check_unique([e for _, e in entries], "id", "weapon")
    out: dict[str, Weapon] = {}
    for kind, e in entries:
        required, _ = _WEAPON_KEYS[kind]
        if not e.mapping(required=required, optional=("base_source", "damage_source")):
            continue
        for k in ("base_source", "damage_source"):
            if e[k].present:
                e[k].source()
        w = Weapon(
            id=e["id"].ident(), label=e["label"].str(), kind="shield" if kind == "shields" else kind,
            base=e["base"].int(0, 1000), damage=e["damage"].dice() if kind != "shields" else None,
            sr=e["sr"].int(0, 12) if kind == "melee" else None, hp=e["hp"].int(0, 1000),
            enc=e["enc"].number(0, 1000), min_str=e["min_str"].int(0, 1000), min_dex=e["min_dex"].int(0, 1000),
            hands=e["hands"].one_of((1, 2)) if kind != "shields" else 1,
            special=e["special"].one_of(("impale", "slash", "crush")) if kind != "shields" else None,
            thrown=bool(e["thrown"].bool()) if kind == "missile" else False,
            range=e["range"].int(0, 10000) if kind == "missile" else None,
            ap=e["ap"].int(0, 1000) if kind == "shields" else None,
        )
        if w.id:
            out[w.id] = w
    return out


def _armour(c: Cursor, location_ids: set) -> dict[str, ArmourPiece]:
    c.mapping(required=("source", "pieces"))
    c["source"].source()
    entries = c["pieces"].list()
    check_unique(entries, "id", "armour")
    out = {}
    for e in entries:
        if not e.mapping(required=("id", "label", "ap", "enc", "covers")):
            continue
        covers = tuple(x.ref(location_ids, "hit location") for x in e["covers"].list(1))
        piece = ArmourPiece(e["id"].ident(), e["label"].str(), e["ap"].int(0, 1000), e["enc"].number(0, 1000), covers)
        if piece.id:
            out[piece.id] = piece
    return out


def _backgrounds(c: Cursor, weapons: set[str], armour: set[str]):
    c.mapping(required=("source", "die", "backgrounds", "common"), optional=("money_note",))
    c["source"].source()
    die = c["die"].int(1, 1000) or 100
    common = c["common"]
    common.mapping(required=("source", "equipment"))
    common["source"].source()
    common_items = tuple(_equipment(x, weapons, armour) for x in common["equipment"].list())
    entries = c["backgrounds"].list(1)
    check_unique(entries, "id", "background")
    rows, ranges = [], []
    for e in entries:
        if not e.mapping(required=("id", "label", "roll", "money", "equipment"),
                         optional=("income", "income_until_age", "weapon_skills")):
            continue
        r = read_range(e["roll"], die)
        ranges.append((e["roll"], r))
        money = e["money"]
        money.mapping(required=("dice",), optional=("times",))
        eq = e["equipment"]
        eq.mapping(required=("source", "items"))
        eq["source"].source()
        ws = e["weapon_skills"]
        tribal = other = None
        other_mods = True
        if ws.present and ws.mapping(required=("tribal_base", "other_base", "other_modifiers")):
            tribal, other, other_mods = ws["tribal_base"].int(0, 1000), ws["other_base"].int(0, 1000), ws["other_modifiers"].bool()
        bg = Background(
            id=e["id"].ident(), label=e["label"].str(), money_dice=money["dice"].dice(),
            money_times=money["times"].int(1, 1000) if money["times"].present else 1,
            income=(e["income"].one_of(("yearly", "none")) == "yearly") if e["income"].present else False,
            income_until_age=e["income_until_age"].int(0, 200) if e["income_until_age"].present else None,
            equipment=tuple(_equipment(x, weapons, armour) for x in eq["items"].list()),
            tribal_base=tribal, other_base=other, other_modifiers=bool(other_mods),
        )
        if r:
            rows.append((r[0], r[1], bg))
    check_partition(c["backgrounds"], die, ranges, "background")
    return DieRanges(die, tuple(sorted(rows, key=lambda x: x[0]))), common_items


def _equipment(c: Cursor, weapons: set[str], armour: set[str]) -> dict:
    """Validate one equipment entry; return it normalised (refs resolved to ids)."""
    v = c.value
    if not isinstance(v, dict) or len(v.keys() & {"gear", "weapon", "armour", "choose", "chance"}) != 1:
        c.fail("expected one of: gear, weapon, armour, choose, chance")
        return {}
    if "gear" in v:
        c.mapping(required=("gear",))
        return {"gear": tuple(x.str() for x in c["gear"].list(1))}
    if "chance" in v:
        c.mapping(required=("chance", "then"), optional=("for",))
        return {"chance": c["chance"].int(0, 100), "for": c["for"].str() if c["for"].present else "chance",
                "then": _equipment(c["then"], weapons, armour)}
    if "choose" in v:
        c.mapping(required=("choose",))
        ch = c["choose"]
        ch.mapping(required=("options",), optional=("for",))
        return {"choose": tuple(_equipment(x, weapons, armour) for x in ch["options"].list(1)),
                "for": ch["for"].str() if ch["for"].present else "choice"}
    kind = "weapon" if "weapon" in v else "armour"
    table = weapons if kind == "weapon" else armour
    c.mapping(required=(kind,))
    ref = c[kind]
    if isinstance(ref.value, dict):
        ref.mapping(required=("choose",), optional=("tribal", "usable", "source"))
        if ref["source"].present:
            ref["source"].source()
        options = tuple(x.ref(table, kind) for x in ref["choose"].list(1))
        flags = {k: bool(ref[k].bool()) if ref[k].present else False for k in ("tribal", "usable")}
        return {kind: options, **flags}
    return {kind: (ref.ref(table, kind),), "tribal": False, "usable": False}


def _names(c: Cursor, bg_ids: set[str]):
    c.mapping(required=("source", "sexes", "age", "lists"))
    c["source"].source()
    sx = c["sexes"]
    sx.mapping(required=("source", "options"))
    sx["source"].source()
    sexes = tuple(s for s in (x.ident() for x in sx["options"].list(1)) if s)
    ag = c["age"]
    ag.mapping(required=("source", "years"))
    ag["source"].source()
    names: dict[str, NameList] = {}
    for key, lc in c["lists"].items():
        Cursor(lc.doc, lc.path, key, lc.problems).ref(bg_ids, "background")
        if not lc.mapping(required=("format", "bynames") + sexes):
            continue
        fmt = lc["format"].str()
        if fmt and ("{given}" not in fmt or "{byname}" not in fmt or fmt.count("{") != 2):
            lc["format"].fail("expected a format with exactly {given} and {byname}")
        given = {s: tuple(x.str(60) for x in lc[s].list(1)) for s in sexes}
        names[key] = NameList(fmt, given, tuple(x.str(60) for x in lc["bynames"].list(1)))
    declared = set(c["lists"].value) if isinstance(c["lists"].value, dict) else set()
    for bg in sorted(bg_ids - declared):
        c["lists"].fail(f"no name list for background '{bg}'")
    return sexes, ag["years"].int(0, 1000), names
