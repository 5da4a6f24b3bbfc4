"""The D100 II combat tables (attacks.yaml, fumbles.yaml, wounds.yaml), validated into frozen objects.

The three files are optional: a module without them makes characters as
before, and ``chargen roll --attacker`` says that it has no combat tables.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from chargen.rules.check import Cursor, check_unique
from chargen.rules.tables import check_partition, read_range
from chargen.systems.d100.degrees import DEGREES

ATTACK_KINDS = ("failure", "success", "special", "stick", "critical")  # the rows of a parry table
ITEM_KINDS = ("shield", "weapon")
DEFENCE_SPLITS = ("first_attack", "every_attack")  # defence.split.against
CLASSES = ("thrusting", "dagger", "cut_and_thrust", "long_hafted", "hand_to_hand")
_ROW_KEYS = ("blocks", "multiplier", "armour", "sticks", "breaks", "damages_attacker")


@dataclass(frozen=True, slots=True)
class Special:
    id: str
    weapon: str       # roll | roll_plus_max
    modifier: str     # roll | max
    sticks: bool


@dataclass(frozen=True, slots=True)
class ParryRow:
    blocks: str       # ap | hp | nothing
    multiplier: int
    armour: bool
    sticks: bool
    breaks: bool
    damages_attacker: bool
    spared_by: frozenset = frozenset()


@dataclass(frozen=True, slots=True)
class FumbleRow:
    low: int
    high: int
    id: str
    label: str
    text: str
    weapon: str | None = None     # dropped | damaged | broken
    hits_self: bool = False
    loses_rounds: int = 0


@dataclass(frozen=True, slots=True)
class Effect:
    state: str
    text: str


@dataclass(frozen=True, slots=True)
class State:
    id: str
    label: str
    out: bool


@dataclass(frozen=True)
class AttackRules:
    defence_block: int
    aim_sr: int
    aim_divide: int
    specials: dict[str, Special]
    critical_ignores_armour: bool
    parry_succeeds: frozenset
    missile_items: frozenset
    parry: dict[str, dict[str, ParryRow]]          # item kind -> attack kind -> row
    harmless: frozenset
    classes: dict[str, frozenset]                  # weapon id -> its classes
    damage_minimum: int
    fumble_die: int
    fumbles: tuple[FumbleRow, ...]
    states: tuple[State, ...]
    dead_at: int
    equalled: dict[str, Effect]
    limb_kinds: frozenset
    limb_times: int
    limb_effect: Effect
    exceeded_points: int
    exceeded: dict[str, Effect]
    strike_ranks: int = 12            # the melee round (round:), for chargen fight
    prepare_weapon: int = 5
    pull_free_on: frozenset = frozenset()
    weapon_arm: str = ""              # the hit location holding the attacking weapon
    shield_arm: str = ""              # the one holding the shield or second weapon
    two_handed_shield: bool = False   # a two-handed weapon leaves a hand for a shield (round.two_handed)
    two_handed_own_sr: bool = False   # a two-handed weapon parries on its own attack's strike rank
    defence_against: str = "first_attack"  # defence.split.against: first_attack | every_attack
    off_hand_base: int = 5            # round.disabled_weapon_arm: the off hand's base attack chance
    no_weapon_left: str = "withdraw"  # round.no_weapon_left.then: withdraw | stand

    @functools.cached_property
    def fumble_keys(self) -> tuple[str, ...]:
        """The fumble row of each face of the fumble die (face 1 first)."""
        return tuple(self.fumble(f).id for f in range(1, self.fumble_die + 1))

    def fumble(self, face: int) -> FumbleRow:
        return next(r for r in self.fumbles if r.low <= face <= r.high)

    def state(self, state_id: str) -> State:
        return next(s for s in self.states if s.id == state_id)

    def worst(self, ids) -> str:
        order = [s.id for s in self.states]
        return max(ids, key=order.index, default=order[0])


def attack_tables(attacks: Cursor | None, fumbles: Cursor | None, wounds: Cursor | None,
                  weapon_ids: set, kinds: tuple[str, ...], location_ids: set = frozenset()) -> AttackRules | None:
    """The typed combat tables, or None when the module has none (all three files, or none).
    ``kinds``: the kinds of hit location (hit_locations.yaml's location_hp rows: leg, arm, ...)."""
    given = [c for c in (attacks, fumbles, wounds) if c is not None]
    if not given:
        return None
    if len(given) < 3:
        given[0].fail("the combat tables are three files: attacks.yaml, fumbles.yaml and wounds.yaml (give all or none)")
        return None
    parts = {**_attacks(attacks, weapon_ids, location_ids), **_fumbles(fumbles), **_wounds(wounds, kinds)}
    if any(v is None for v in parts.values()):
        return None
    return AttackRules(**parts)


def _sourced(c: Cursor, required: tuple = (), optional: tuple = ()) -> bool:
    ok = c.mapping(required=("source",) + required, optional=("reading",) + optional)
    c["source"].source()
    if c["reading"].present:
        c["reading"].str(1000)
    return ok


def _attacks(c: Cursor, weapon_ids: set, location_ids: set) -> dict:
    _sourced(c, ("defence", "aiming", "specials", "critical", "parry", "damage_to_weapons", "weapon_classes", "damage",
                  "round"))
    rd = c["round"]
    _sourced(rd, ("strike_ranks", "prepare_weapon", "pull_free_on", "weapon_arm", "shield_arm", "two_handed",
                  "disabled_weapon_arm", "no_weapon_left"))
    _sourced(rd["disabled_weapon_arm"], ("off_hand_base",))
    _sourced(rd["no_weapon_left"], ("then",))
    two = rd["two_handed"]
    _sourced(two, ("shield", "parry_on_own_strike_rank"))
    de, aim, cr, dmg = c["defence"], c["aiming"], c["critical"], c["damage"]
    _sourced(de, ("block", "split"))
    split = de["split"]
    _sourced(split, ("against",))
    _sourced(aim, ("strike_rank", "divide_by"))
    _sourced(cr, ("ignores_armour",))
    _sourced(dmg, ("minimum",))
    specials = {}
    for key, sc in c["specials"].items():
        _sourced(sc, ("weapon", "modifier", "sticks"))
        if sc["weapon"].present or sc["modifier"].present:
            specials[key] = Special(key, sc["weapon"].one_of(("roll", "roll_plus_max")),
                                    sc["modifier"].one_of(("roll", "max")), bool(sc["sticks"].bool()))
    for key in ("impale", "slash", "crush"):
        if key not in specials:
            c["specials"].fail(f"missing special '{key}' (weapons.yaml's specials: impale, slash, crush)")
    pa = c["parry"]
    _sourced(pa, ("succeeds_on", "missile_items", "shield", "weapon"))
    succeeds = frozenset(x.one_of(DEGREES) for x in pa["succeeds_on"].list())
    missile = frozenset(x.one_of(ITEM_KINDS) for x in pa["missile_items"].list())
    parry = {kind: _parry_rows(pa[kind]) for kind in ITEM_KINDS}
    dw = c["damage_to_weapons"]
    _sourced(dw, ("harmless",))
    harmless = frozenset(x.one_of(CLASSES) for x in dw["harmless"].list())
    return {"defence_block": de["block"].int(1, 100), "defence_against": split["against"].one_of(DEFENCE_SPLITS),
            "aim_sr": aim["strike_rank"].int(0, 100),
            "aim_divide": aim["divide_by"].int(1, 100), "specials": specials,
            "critical_ignores_armour": cr["ignores_armour"].bool(), "parry_succeeds": succeeds,
            "missile_items": missile, "parry": parry, "harmless": harmless,
            "classes": _classes(c["weapon_classes"], weapon_ids), "damage_minimum": dmg["minimum"].int(0, 1000),
            "strike_ranks": rd["strike_ranks"].int(1, 100), "prepare_weapon": rd["prepare_weapon"].int(0, 100),
            "pull_free_on": frozenset(x.one_of(DEGREES) for x in rd["pull_free_on"].list()),
            "weapon_arm": rd["weapon_arm"].ref(location_ids, "hit location"),
            "shield_arm": rd["shield_arm"].ref(location_ids, "hit location"),
            "two_handed_shield": two["shield"].bool(),
            "two_handed_own_sr": two["parry_on_own_strike_rank"].bool(),
            "off_hand_base": rd["disabled_weapon_arm"]["off_hand_base"].int(0, 100),
            "no_weapon_left": rd["no_weapon_left"]["then"].one_of(("withdraw", "stand"))}


def _parry_rows(c: Cursor) -> dict[str, ParryRow] | None:
    if not c.mapping(required=ATTACK_KINDS):
        return None
    rows = {}
    for kind in ATTACK_KINDS:
        r = c[kind]
        if not r.mapping(required=_ROW_KEYS, optional=("spared_by", "reading", "source")):
            return None
        if r["source"].present:
            r["source"].source()
        if r["reading"].present:
            r["reading"].str(1000)
        spared = frozenset(x.one_of(CLASSES) for x in r["spared_by"].list()) if r["spared_by"].present else frozenset()
        rows[kind] = ParryRow(r["blocks"].one_of(("ap", "hp", "nothing")), r["multiplier"].int(0, 100),
                              r["armour"].bool(), r["sticks"].bool(), r["breaks"].bool(),
                              r["damages_attacker"].bool(), spared)
    return rows


def _classes(c: Cursor, weapon_ids: set) -> dict[str, frozenset]:
    _sourced(c, optional=CLASSES)
    out: dict[str, set] = {}
    for cls in CLASSES:
        if c[cls].present:
            for x in c[cls].list():
                weapon = x.ref(weapon_ids, "weapon", removed_ok=True)
                if weapon:
                    out.setdefault(weapon, set()).add(cls)
    return {k: frozenset(v) for k, v in out.items()}


def _fumbles(c: Cursor) -> dict:
    _sourced(c, ("die", "rows"))
    die = c["die"].int(1, 1000) or 100
    entries = c["rows"].list(1)
    check_unique(entries, "id", "fumble")
    rows, ranges = [], []
    for e in entries:
        if not e.mapping(required=("roll", "id", "label", "text"), optional=("weapon", "hits_self", "loses_rounds")):
            continue
        r = read_range(e["roll"], die)
        ranges.append((e["roll"], r))
        weapon = e["weapon"].one_of(("dropped", "damaged", "broken")) if e["weapon"].present else None
        rows.append(FumbleRow(r[0] if r else 0, r[1] if r else 0, e["id"].ident(), e["label"].str(), e["text"].str(),
                              weapon, bool(e["hits_self"].bool()) if e["hits_self"].present else False,
                              e["loses_rounds"].int(0, 100) if e["loses_rounds"].present else 0))
    ok = check_partition(c["rows"], die, ranges, "fumble")
    return {"fumble_die": die, "fumbles": tuple(rows) if ok else None}


def _effects(c: Cursor, states: set, kinds: tuple) -> dict[str, Effect]:
    out = {}
    for kind in kinds:
        e = c[kind]
        if e.mapping(required=("state", "text")):
            out[kind] = Effect(e["state"].ref(states, "state"), e["text"].str(300))
    return out


def _wounds(c: Cursor, kinds: tuple) -> dict:
    _sourced(c, ("states", "total", "equalled", "limb_limit", "exceeded_by"))
    entries = c["states"].list(2)
    check_unique(entries, "id", "state")
    states = tuple(State(e["id"].ident(), e["label"].str(), bool(e["out"].bool()))
                   for e in entries if e.mapping(required=("id", "label", "out")))
    ids = {s.id for s in states}
    for needed in ("unhurt", "hurt", "dead"):  # the states chargen's code reads
        if needed not in ids:
            c["states"].fail(f"missing state '{needed}' (chargen reads unhurt, hurt and dead)")
    tot, eq, lim, ex = c["total"], c["equalled"], c["limb_limit"], c["exceeded_by"]
    tot.mapping(required=("dead_at",), optional=("reading",))
    eq.mapping(required=kinds)
    lim.mapping(required=("kinds", "times", "state", "text"), optional=("reading",))
    ex.mapping(required=("points",) + kinds, optional=("reading",))
    return {"states": states, "dead_at": tot["dead_at"].int(-1000, 1000), "equalled": _effects(eq, ids, kinds),
            "limb_kinds": frozenset(x.one_of(kinds) for x in lim["kinds"].list()),
            "limb_times": lim["times"].int(1, 100),
            "limb_effect": Effect(lim["state"].ref(ids, "state"), lim["text"].str(300)),
            "exceeded_points": ex["points"].int(0, 1000), "exceeded": _effects(ex, ids, kinds)}
