"""The RTD rules for wounds, combat, weapons and names, validated into frozen objects."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from chargen import dice as dicemod
from chargen.rules.check import Cursor, check_unique
from chargen.rules.tables import check_partition, parse_range, read_range, row_index


@dataclass(frozen=True, slots=True)
class WoundState:
    id: str
    label: str
    penalty: int | None       # None: the part cannot be used
    heals: str
    brittle_only: bool


@dataclass(frozen=True, slots=True)
class BodyPart:
    id: str
    label: str
    brittle: bool
    important: bool


@dataclass(frozen=True, slots=True)
class Wounds:
    states: tuple[WoundState, ...]
    parts: tuple[BodyPart, ...]
    starting_state: str

    def state(self, state_id: str) -> WoundState | None:
        return next((s for s in self.states if s.id == state_id), None)


@dataclass(frozen=True, slots=True)
class TableRow:
    low: int
    high: int
    id: str
    label: str
    text: str
    multiplier: Fraction = Fraction(0)
    critical: bool = False
    avoids: bool = False
    counterattack: bool = False


@dataclass(frozen=True, slots=True)
class Combat:
    to_hit_die: int
    to_hit: tuple[TableRow, ...]
    critical_multiplier: Fraction
    dodge_die: int
    dodge: tuple[TableRow, ...]
    free_parry: tuple[tuple[int, int], tuple[int, int]]     # (to-hit faces, dodge faces)
    parry_bonus: int
    attack_crits: tuple[int, int]                            # (to-hit face, dodge face)
    parry_crits: tuple[int, int]
    critical_die: int
    critical_on: frozenset[int]
    counter_rows: dict[str, str]   # a counterattack's to-hit row id -> the row it reads as

    def hit_row(self, face: int) -> TableRow:
        return self.to_hit[row_index(self.to_hit, face, "to-hit face")]

    def hit_row_id(self, row_id: str) -> TableRow:
        return next(r for r in self.to_hit if r.id == row_id)

    def dodge_row(self, face: int) -> TableRow:
        return self.dodge[row_index(self.dodge, face, "dodge face")]

    def is_critical(self, face: int, modifier: int = 0) -> bool:
        """A +N modifier lets the roll count as any of face..face+N (never against the roller)."""
        return any(f in self.critical_on for f in range(face, face + max(0, modifier) + 1))


@dataclass(frozen=True, slots=True)
class Weapon:
    id: str
    label: str
    kind: str
    damage: int
    critical_multiplier: Fraction | None


@dataclass(frozen=True, slots=True)
class Carry:
    options: tuple[str, ...]
    chance: int | None


@dataclass(frozen=True, slots=True)
class Names:
    sexes: tuple[str, ...]
    age: dicemod.Dice
    format: str
    given: dict[str, tuple[str, ...]]
    bynames: tuple[str, ...]


def wounds(c: Cursor) -> Wounds | None:
    c.mapping(required=("source", "states", "body_parts", "starting_state", "starting_state_source"))
    c["source"].source()
    c["starting_state_source"].source()
    entries = c["states"].list(1)
    check_unique(entries, "id", "wound state")
    states = []
    for e in entries:
        if not e.mapping(required=("id", "label", "penalty", "heals"), optional=("brittle_only", "source")):
            continue
        if e["source"].present:
            e["source"].source()
        penalty = None if e["penalty"].value is None and "penalty" in e.value else e["penalty"].int(0, 100)
        states.append(WoundState(e["id"].ident(), e["label"].str(), penalty, e["heals"].str(),
                                 bool(e["brittle_only"].bool()) if e["brittle_only"].present else False))
    bp = c["body_parts"]
    bp.mapping(required=("source", "parts"))
    bp["source"].source()
    part_entries = bp["parts"].list(1)
    check_unique(part_entries, "id", "body part")
    parts = tuple(BodyPart(e["id"].ident(), e["label"].str(), bool(e["brittle"].bool()), bool(e["important"].bool()))
                  for e in part_entries if e.mapping(required=("id", "label", "brittle", "important")))
    start = c["starting_state"].ref({s.id for s in states}, "wound state")
    return Wounds(tuple(states), parts, start) if start else None


def _rows(c: Cursor, die: int, kind: str) -> tuple[TableRow, ...]:
    c.mapping(required=("source", "die", "rows") + (("critical_multiplier",) if kind == "to_hit" else ()))
    c["source"].source()
    entries = c["rows"].list(1)
    check_unique(entries, "id", f"{kind} row")
    keys = {"to_hit": ("multiplier",), "dodge": ("avoids", "counterattack")}[kind]
    rows, ranges = [], []
    for e in entries:
        if not e.mapping(required=("roll", "id", "label", "text") + keys, optional=("critical",)):
            continue
        r = read_range(e["roll"], die)
        ranges.append((e["roll"], r))
        extra = {}
        if kind == "to_hit":
            m = e["multiplier"].number(0, 100)
            extra = {"multiplier": Fraction(str(m)) if m is not None else Fraction(0),
                     "critical": bool(e["critical"].bool()) if e["critical"].present else False}
        else:
            extra = {"avoids": bool(e["avoids"].bool()), "counterattack": bool(e["counterattack"].bool())}
        if r:
            rows.append(TableRow(r[0], r[1], e["id"].ident(), e["label"].str(), e["text"].str(), **extra))
    check_partition(c["rows"], die, ranges, kind.replace("_", "-"))
    return tuple(rows)


def _faces(c: Cursor, die: int) -> tuple[int, int] | None:
    r = parse_range(c.value, die)
    if r is None or r[1] is None or r[0] < 1 or r[1] > die or r[1] < r[0]:
        c.fail(f"expected faces of the 1D{die} such as '1-2' or '6', got {c.value!r}")
        return None
    return r


def _pair(c: Cursor, hit_die: int, dodge_die: int) -> tuple[int, int] | None:
    c.mapping(required=("to_hit", "dodge"))
    th, dg = c["to_hit"].int(1, hit_die), c["dodge"].int(1, dodge_die)
    return (th, dg) if th is not None and dg is not None else None


def combat(c: Cursor) -> Combat | None:
    c.mapping(required=("to_hit", "dodge", "free_parry", "parry_damage_bonus", "six_against_one", "critical",
                        "counterattack", "damage_rounding", "damage_rounding_source"))
    hit_die = c["to_hit"]["die"].int(2, 100) or 6
    dodge_die = c["dodge"]["die"].int(2, 100) or 6
    to_hit, dodge = _rows(c["to_hit"], hit_die, "to_hit"), _rows(c["dodge"], dodge_die, "dodge")
    cm = c["to_hit"]["critical_multiplier"].number(0, 100)
    fp, pb, six, cr, ca = (c[k] for k in ("free_parry", "parry_damage_bonus", "six_against_one", "critical", "counterattack"))
    for part in (fp, pb, six, cr, ca):
        part["source"].source()
    fp.mapping(required=("source", "to_hit", "dodge"))
    pb.mapping(required=("source", "add"))
    six.mapping(required=("source", "attack_crits", "parry_crits"))
    cr.mapping(required=("source", "die", "critical_on"))
    ca.mapping(required=("source", "rows_read_as"))
    c["damage_rounding"].one_of(("half_up",))
    c["damage_rounding_source"].source()
    crit_die = cr["die"].int(2, 100) or 12
    crit_on = frozenset(x.int(1, crit_die) for x in cr["critical_on"].list(1))
    row_ids = {r.id for r in to_hit}
    read_as = {}
    for key, vc in ca["rows_read_as"].items():
        Cursor(vc.doc, vc.path, key, vc.problems).ref(row_ids, "to-hit row")
        read_as[key] = vc.ref(row_ids, "to-hit row")
    parts = (_faces(fp["to_hit"], hit_die), _faces(fp["dodge"], dodge_die), pb["add"].int(0, 1000),
             _pair(six["attack_crits"], hit_die, dodge_die), _pair(six["parry_crits"], hit_die, dodge_die))
    if None in parts or None in crit_on or cm is None or None in read_as.values():
        return None
    return Combat(hit_die, to_hit, Fraction(str(cm)), dodge_die, dodge, (parts[0], parts[1]), parts[2],
                  parts[3], parts[4], crit_die, crit_on, read_as)


def weapons(c: Cursor) -> dict:
    c.mapping(required=("source", "weapons", "carry"))
    c["source"].source()
    entries = c["weapons"].list(1)
    check_unique(entries, "id", "weapon")
    out: dict[str, Weapon] = {}
    for e in entries:
        if not e.mapping(required=("id", "label", "kind", "damage"), optional=("critical_multiplier",)):
            continue
        cm = e["critical_multiplier"].number(0, 100) if e["critical_multiplier"].present else None
        w = Weapon(e["id"].ident(), e["label"].str(), e["kind"].one_of(("melee", "ranged")),
                   e["damage"].int(0, 10_000), Fraction(str(cm)) if cm is not None else None)
        if w.id:
            out[w.id] = w
    return {"weapons": out, "carry": carry_picks(c["carry"], out)}


def carry_picks(c: Cursor, weapons: dict) -> tuple[Carry, ...]:
    """Weapon picks: one ``choose``-n from each, carried when a D100 is at or under ``chance``."""
    carry = []
    for p in c.list(1):
        if p.mapping(required=("choose",), optional=("chance",)):
            carry.append(Carry(tuple(x.ref(weapons, "weapon") for x in p["choose"].list(1)),
                               p["chance"].int(0, 100) if p["chance"].present else None))
    return tuple(carry)


def names(c: Cursor) -> Names | None:
    sexes_c = c["sexes"]
    sexes = tuple(x.ident() for x in sexes_c.list(1)) if isinstance(c.value, dict) else ()
    c.mapping(required=("source", "sexes", "age", "format", "bynames") + tuple(s for s in sexes if s))
    c["source"].source()
    fmt = c["format"].str()
    if fmt and ("{given}" not in fmt or "{byname}" not in fmt or fmt.count("{") != 2):
        c["format"].fail("expected a format with exactly {given} and {byname}")
    given = {s: tuple(x.str(60) for x in c[s].list(1)) for s in sexes if s}
    return Names(sexes, c["age"].dice(), fmt, given, tuple(x.str(60) for x in c["bynames"].list(1)))
