"""The KoTM rules, validated from the module's YAML files into frozen objects."""

from __future__ import annotations

from dataclasses import dataclass, field

from chargen import dice as dicemod
from chargen.rules.check import (
    Cursor, Problems, check_reads, check_unique, declare_reads, file_cursors, optional_cursor,
)
from chargen.rules.tables import Banded, banded, check_partition, parse_range, read_range, row_index
from chargen.rules.yamlio import Located
from chargen.systems.kotm import rules_fight
from chargen.systems.kotm.rules_archetypes import archetypes_table

FILES = ("module", "attack", "levels", "fumbles", "generation", "weapons", "names")
ON_REPEAT = ("reroll", "add_rolls")

# What the engine's code reads by id, by role: the four exceptions of the attack roll
# (OS and CS damage, CF self-damage, TF's fumble table) and the fumble table's two
# conditions (chargen roll --missile, --no-helm). Checked at load (check_reads). The
# plain hit and miss are read by their place (attack.yaml's hit and miss), not by id.
READS = declare_reads({
    "outcome": {"outstanding_success": "os", "critical_success": "cs", "critical_fumble": "cf", "total_fumble": "tf"},
    "condition": {"missile_weapon": "missile", "no_helm": "no_helm"},
})
OUTCOME, CONDITION = READS["outcome"], READS["condition"]
# Whether the engine plays each outcome role as a hit (damage) or not (self-damage, fumbles).
ROLE_HITS = {"outstanding_success": True, "critical_success": True, "critical_fumble": False, "total_fumble": False}


@dataclass(frozen=True, slots=True)
class Outcome:
    """One attack outcome; the four exceptions are matched by the faces of the two dice."""

    id: str
    abbr: str
    label: str
    hit: bool
    first: tuple[int, int] | None = None
    second: tuple[int, int] | None = None

    def matches(self, first: int, second: int) -> bool:
        return (self.first is not None and self.first[0] <= first <= self.first[1]
                and self.second[0] <= second <= self.second[1])


@dataclass(frozen=True, slots=True)
class Attack:
    sides: int
    ten_reads_as: int
    exceptions: tuple[Outcome, ...]
    hit: Outcome
    miss: Outcome
    damage_ten: int       # what a 10 on the second die counts as damage
    os_per_level: int
    os_multiply: int
    cs_add: int
    damage_min: int

    def read(self, first: int, second: int) -> int:
        """The two-digit read: first die tens, second die units, a 10 reads ``ten_reads_as``."""
        tens = self.ten_reads_as if first == self.sides else first
        units = self.ten_reads_as if second == self.sides else second
        return tens * 10 + units

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        return self.exceptions + (self.hit, self.miss)


@dataclass(frozen=True, slots=True)
class FumbleMore:
    rolls: int
    ignore: tuple[int, int] | None
    on_repeat: str | None   # None, "reroll" or "add_rolls"
    add_rolls: int = 0


@dataclass(frozen=True, slots=True)
class FumbleRow:
    low: int
    high: int
    id: str
    label: str
    effect: str
    dice: tuple[tuple[dicemod.Dice, str], ...] = ()
    again_if: str | None = None
    more: FumbleMore | None = None

    @property
    def roll_label(self) -> str:
        def face(n: int) -> str:
            return "00" if n == 100 else str(n)
        return face(self.low) if self.low == self.high else f"{face(self.low)}-{face(self.high)}"


@dataclass(frozen=True, slots=True)
class FumbleTable:
    sides: int
    zero_zero: int
    max_rolls: int
    conditions: dict[str, str]
    rows: tuple[FumbleRow, ...]

    def read(self, first: int, second: int) -> int:
        """Read like the attack roll, except that "00" is the table's last row."""
        tens = 0 if first == self.sides else first
        units = 0 if second == self.sides else second
        return tens * 10 + units or self.zero_zero

    def lookup(self, read: int) -> FumbleRow:
        return self.rows[row_index(self.rows, read, "fumble read")]


@dataclass(frozen=True, slots=True)
class Weapon:
    id: str
    label: str
    kind: str
    damage_modifier: int


@dataclass(frozen=True, slots=True)
class WeaponPick:
    options: tuple[str, ...]
    chance: int | None


@dataclass(frozen=True, slots=True)
class Profession:
    id: str
    label: str
    weapons: tuple[WeaponPick, ...]


@dataclass(frozen=True, slots=True)
class Names:
    format: str
    given: dict[str, tuple[str, ...]]
    bynames: tuple[str, ...]


@dataclass(frozen=True)
class KotmRules:
    attack: Attack
    level_min: int
    level_max: int
    save_floor: int
    cf_damage: Banded
    fumbles: FumbleTable
    level_dice: dicemod.Dice
    sd_dice: dicemod.Dice
    sd_per_level: int
    sd_max: int
    age_dice: dicemod.Dice
    sexes: tuple[str, ...]
    professions: tuple[Profession, ...]
    weapons: dict[str, Weapon]
    names: Names
    archetypes: dict = field(default_factory=dict)  # id -> KotmArchetype (archetypes.yaml, optional)
    fight: object = None  # rules_fight.FightRules (fight.yaml, optional): how `chargen fight` plays

    def save_check(self, level: int) -> int:
        """ "SC is 5 or your level, whichever is higher." """
        return max(self.save_floor, level)

    def critical_fumble_damage(self, level: int) -> int:
        return self.cf_damage.lookup(level)


def build(docs: dict[str, Located], problems: Problems) -> KotmRules | None:
    c = file_cursors(docs, FILES, problems)
    if c is None:
        return None
    attack = _attack(c["attack"])
    lv = c["levels"]
    lv.mapping(required=("source", "levels", "save_check", "critical_fumble_damage"))
    lv["source"].source()
    lv["levels"].mapping(required=("min", "max"))
    level_min, level_max = lv["levels"]["min"].int(0, 1000), lv["levels"]["max"].int(0, 1000)
    sc = lv["save_check"]
    sc.mapping(required=("source", "floor"))
    sc["source"].source()
    cf = lv["critical_fumble_damage"]
    cf["source"].source()
    cf_table = banded(cf, lo=0, hi=1000)
    if cf_table and level_min is not None and level_max is not None:
        _check_covers(cf, cf_table, level_min, level_max)
    fumbles = _fumbles(c["fumbles"])
    weapons = _weapons(c["weapons"])
    gen = _generation(c["generation"], weapons, level_min, level_max)
    names = _names(c["names"], gen.get("sexes", ()))
    floor = sc["floor"].int(0, 1000)
    archetypes = archetypes_table(optional_cursor(docs, "archetypes", problems),
                                  {p.id for p in gen.get("professions", ())}, (level_min or 0, level_max or 0),
                                  lambda pc: weapon_picks(pc, weapons))
    fight = rules_fight.fight(optional_cursor(docs, "fight", problems), {r.id for r in fumbles.rows} if fumbles else set())
    if problems.items:
        return None
    return KotmRules(attack=attack, level_min=level_min, level_max=level_max, save_floor=floor,
                     cf_damage=cf_table, fumbles=fumbles, weapons=weapons, names=names, archetypes=archetypes,
                     fight=fight, **gen)


def _check_covers(c: Cursor, table: Banded, low: int, high: int) -> None:
    first, last = table.bands[0], table.bands[-1]
    if first.low != low or last.high != high or table.every:
        c["bands"].fail(f"bands must cover the levels exactly, {low} to {high}")


def _outcome(c: Cursor, faces: bool, sides: int | None) -> Outcome | None:
    keys = ("id", "abbr", "label") + (("first", "second", "hit") if faces else ())
    if not c.mapping(required=keys):
        return None
    first = second = None
    if faces and sides:
        first, second = read_range(c["first"], sides), read_range(c["second"], sides)
    hit = c["hit"].bool() if faces else c.path[-1] == "hit"
    return Outcome(c["id"].ident(), c["abbr"].str(8), c["label"].str(), bool(hit), first, second)


def _attack(c: Cursor) -> Attack | None:
    c.mapping(required=("source", "dice", "sides", "ten_reads_as", "exceptions", "hit", "miss", "damage"))
    c["source"].source()
    if c["dice"].int(2, 2) is None:
        return None
    sides = c["sides"].int(2, 100)
    entries = c["exceptions"].list(1)
    check_unique(entries, "id", "outcome")
    exceptions = tuple(_outcome(e, True, sides) for e in entries)
    hit, miss = _outcome(c["hit"], False, None), _outcome(c["miss"], False, None)
    check_reads("kotm", "outcome", OUTCOME, c["exceptions"])
    _check_roles(c, entries, exceptions, hit, miss)
    if sides and all(exceptions):
        for f in range(1, sides + 1):
            for s in range(1, sides + 1):
                found = [o.id for o in exceptions if o.matches(f, s)]
                if len(found) > 1:
                    c["exceptions"].fail(f"faces {f} {s} match more than one exception: {', '.join(found)}")
    d = c["damage"]
    d.mapping(required=("source", "ten_counts_as", "os", "cs", "minimum", "minimum_source"))
    d["source"].source()
    d["minimum_source"].source()
    d["os"].mapping(required=("add_per_level", "multiply"))
    d["cs"].mapping(required=("add",))
    values = (c["ten_reads_as"].int(0, 100), d["ten_counts_as"].int(0, 100), d["os"]["add_per_level"].int(0, 100),
              d["os"]["multiply"].int(1, 100), d["cs"]["add"].int(0, 1000), d["minimum"].int(-1000, 1000))
    if sides is None or None in values or None in exceptions or hit is None or miss is None:
        return None
    return Attack(sides, values[0], exceptions, hit, miss, *values[1:])


def _check_roles(c: Cursor, entries: list[Cursor], exceptions: tuple, hit: Outcome | None, miss: Outcome | None) -> None:
    """The outcomes the engine reads hit or miss as it plays them; hit and miss have ids of their own."""
    roles = {ident: role for role, ident in OUTCOME.items()}
    for e, o in zip(entries, exceptions):
        if o is not None and o.id in roles and o.hit != ROLE_HITS[roles[o.id]]:
            e["hit"].fail(f"the kotm engine plays outcome '{o.id}' ({roles[o.id].replace('_', ' ')}) with "
                          f"hit: {str(ROLE_HITS[roles[o.id]]).lower()} (keep it; change the faces or the label instead)")
    taken = {o.id for o in exceptions if o is not None}
    for key, o, others in (("hit", hit, {miss.id if miss else None}), ("miss", miss, set())):
        if o is not None and o.id in taken | others:
            c[key]["id"].fail(f"outcome id '{o.id}' is taken (every outcome needs its own id)")


def _fumbles(c: Cursor) -> FumbleTable | None:
    c.mapping(required=("source", "dice", "sides", "zero_zero_reads_as", "max_rolls", "max_rolls_source",
                        "conditions", "rows"))
    c["source"].source()
    c["max_rolls_source"].source()
    c["dice"].int(2, 2)
    sides = c["sides"].int(2, 100)
    conditions = {}
    for e in c["conditions"].list():
        if e.mapping(required=("id", "label")):
            conditions[e["id"].ident()] = e["label"].str()
    check_reads("kotm", "condition", CONDITION, c["conditions"])
    entries = c["rows"].list(1)
    check_unique(entries, "id", "fumble row")
    rows, ranges = [], []
    for e in entries:
        row = _fumble_row(e, conditions)
        ranges.append((e["roll"], (row.low, row.high) if row else None))
        if row:
            rows.append(row)
    check_partition(c["rows"], 100, ranges, "fumble")
    zero_zero, max_rolls = c["zero_zero_reads_as"].int(1, 100), c["max_rolls"].int(1, 10_000)
    if None in (sides, zero_zero, max_rolls):
        return None
    return FumbleTable(sides, zero_zero, max_rolls, conditions, tuple(sorted(rows, key=lambda r: r.low)))


def _fumble_row(e: Cursor, conditions: dict) -> FumbleRow | None:
    if not e.mapping(required=("roll", "id", "label", "effect"), optional=("dice", "again_if", "more")):
        return None
    r = read_range(e["roll"], 100)
    dice = []
    for dc in e["dice"].list() if e["dice"].present else []:
        if dc.mapping(required=("dice", "for")):
            dice.append((dc["dice"].dice(), dc["for"].str(40)))
    again_if = e["again_if"].ref(conditions, "condition") if e["again_if"].present else None
    more = _more(e["more"]) if e["more"].present else None
    ident, label, effect = e["id"].ident(), e["label"].str(), e["effect"].str(500)
    if r is None or None in (ident, label, effect):
        return None
    return FumbleRow(r[0], r[1], ident, label, effect, tuple(dice), again_if, more)


def _more(c: Cursor) -> FumbleMore | None:
    if not c.mapping(required=("rolls",), optional=("ignore", "on_repeat", "add_rolls")):
        return None
    rolls = c["rolls"].int(1, 10)
    ignore = None
    if c["ignore"].present:
        ignore = parse_range(c["ignore"].value, 100)
        if ignore is None or ignore[1] is None:
            c["ignore"].fail(f"expected a range of the fumble table such as '97-00', got {c['ignore'].value!r}")
    on_repeat = c["on_repeat"].one_of(ON_REPEAT) if c["on_repeat"].present else None
    add = c["add_rolls"].int(1, 10) if c["add_rolls"].present else 0
    if on_repeat == "add_rolls" and not add:
        c.fail("on_repeat: add_rolls needs 'add_rolls: N'")
    return FumbleMore(rolls, ignore, on_repeat, add or 0) if rolls else None


def _weapons(c: Cursor) -> dict[str, Weapon]:
    c.mapping(required=("source", "weapons"))
    c["source"].source()
    entries = c["weapons"].list(1)
    check_unique(entries, "id", "weapon")
    out = {}
    for e in entries:
        if e.mapping(required=("id", "label", "kind", "damage_modifier")):
            w = Weapon(e["id"].ident(), e["label"].str(), e["kind"].one_of(("melee", "missile")),
                       e["damage_modifier"].int(-100, 100))
            if w.id:
                out[w.id] = w
    return out


# The seed sets no SD ceiling ("+10 SD", "1/2 SD" read on any SD, and the Master
# fighters it implies outgrow 94): a saved, pinned or house-ruled SD may be anything
# from 0 to this bound, which only guards against hostile input (not a rule).
SD_BOUND = 1000


def _generation(c: Cursor, weapons: dict, level_min: int | None, level_max: int | None) -> dict:
    c.mapping(required=("source", "level", "sd", "age", "sexes", "professions"))
    c["source"].source()
    c["level"].mapping(required=("dice",))
    level = c["level"]["dice"].dice()
    if level and level_min is not None and level_max is not None and (level.minimum < level_min or level.maximum > level_max):
        c["level"]["dice"].fail(f"dice {level} roll {level.minimum} to {level.maximum}; levels run {level_min} to {level_max}")
    sd = c["sd"]
    sd.mapping(required=("dice", "per_level", "max"))
    c["age"].mapping(required=("dice",))
    entries = c["professions"].list(1)
    check_unique(entries, "id", "profession")
    professions = []
    for e in entries:
        if not e.mapping(required=("id", "label", "weapons")):
            continue
        professions.append(Profession(e["id"].ident(), e["label"].str(), weapon_picks(e["weapons"], weapons)))
    return {"level_dice": level, "sd_dice": sd["dice"].dice(), "sd_per_level": sd["per_level"].int(0, 100),
            "sd_max": sd["max"].int(0, SD_BOUND), "age_dice": c["age"]["dice"].dice(),
            "sexes": tuple(x.ident() for x in c["sexes"].list(1)), "professions": tuple(professions)}


def weapon_picks(c: Cursor, weapons: dict) -> tuple[WeaponPick, ...]:
    """A list of weapon picks: one weapon ``choose``-n from each, carried when a D100 is at or under ``chance``."""
    picks = []
    for p in c.list(1):
        if p.mapping(required=("choose",), optional=("chance",)):
            options = tuple(x.ref(weapons, "weapon") for x in p["choose"].list(1))
            picks.append(WeaponPick(options, p["chance"].int(0, 100) if p["chance"].present else None))
    return tuple(picks)


def _names(c: Cursor, sexes: tuple) -> Names:
    c.mapping(required=("source", "format", "bynames") + tuple(s for s in sexes if s))
    c["source"].source()
    fmt = c["format"].str()
    if fmt and ("{given}" not in fmt or "{byname}" not in fmt or fmt.count("{") != 2):
        c["format"].fail("expected a format with exactly {given} and {byname}")
    given = {s: tuple(x.str(60) for x in c[s].list(1)) for s in sexes if s}
    return Names(fmt, given, tuple(x.str(60) for x in c["bynames"].list(1)))
