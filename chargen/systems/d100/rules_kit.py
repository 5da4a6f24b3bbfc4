"""The D100 II kit and identity rules: weapons, armour, backgrounds with their equipment, names."""

from __future__ import annotations

from dataclasses import dataclass

from chargen import dice as dicemod
from chargen.archetypes import weighted
from chargen.rules.check import Cursor, check_unique
from chargen.rules.tables import DieRanges, check_partition, read_range


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
    tribal_weapons: frozenset = frozenset()  # the weapons of its equipment picks marked `tribal: true`


def tribal_weapons(entries) -> frozenset:
    """The weapon ids of the entries (and their branches) marked ``tribal: true``: a barbarian's
    tribal weapons ("see Previous Experience": the lists its kit draws them from), whoever hands
    one out (seed: "Barbarians have a 15% base chance with their tribal weapons")."""
    out: set[str] = set()
    for e in entries:
        if e.get("tribal"):
            out.update(e.get("weapon", ()))
        for key in ("then", "else"):
            if key in e:
                out |= tribal_weapons((e[key],))
        out |= tribal_weapons(e.get("choose", ()))
    return frozenset(out)


@dataclass(frozen=True, slots=True)
class NameList:
    format: str
    given: dict[str, tuple[str, ...]]  # sex -> given names
    bynames: tuple[str, ...]


_WEAPON_KEYS = {
    "melee": (("id", "label", "base", "damage", "sr", "hp", "enc", "min_str", "min_dex", "hands", "special"), ()),
    "missile": (("id", "label", "base", "damage", "range", "hp", "enc", "min_str", "min_dex", "hands", "thrown", "special"), ()),
    "shields": (("id", "label", "base", "ap", "hp", "enc", "min_str", "min_dex"), ()),
}


def weapons_table(c: Cursor) -> dict[str, Weapon]:
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


def armour_table(c: Cursor, location_ids: set) -> dict[str, ArmourPiece]:
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


def backgrounds_table(c: Cursor, refs: dict):
    """The backgrounds; ``refs``: the ids an equipment entry may name (weapon, armour,
    characteristic, weapon_lists: see :func:`equipment_refs`)."""
    c.mapping(required=("source", "die", "backgrounds", "common"), optional=("money_note",))
    c["source"].source()
    die = c["die"].int(1, 1000) or 100
    common = c["common"]
    common.mapping(required=("source", "equipment"))
    common["source"].source()
    common_items = tuple(_equipment(x, refs) for x in common["equipment"].list())
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
            equipment=(equipment := tuple(_equipment(x, refs) for x in eq["items"].list())),
            tribal_base=tribal, other_base=other, other_modifiers=bool(other_mods),
            tribal_weapons=tribal_weapons(equipment),
        )
        if r:
            rows.append((r[0], r[1], bg))
    check_partition(c["backgrounds"], die, ranges, "background")
    return DieRanges(die, tuple(sorted(rows, key=lambda x: x[0]))), common_items


def equipment_refs(weapons: set[str], armour: set[str], characteristics: set[str],
                   weapon_lists: dict[str, tuple[str, ...]]) -> dict:
    return {"weapon": weapons, "armour": armour, "characteristic": characteristics, "weapon_lists": weapon_lists}


_KINDS = ("gear", "weapon", "armour", "choose", "chance", "if")


def _equipment(c: Cursor, refs: dict[str, set[str]]) -> dict:
    """Validate one equipment entry; return it normalised (refs resolved to ids)."""
    v = c.value
    if not isinstance(v, dict) or len(v.keys() & set(_KINDS)) != 1:
        c.fail("expected one of: " + ", ".join(_KINDS))
        return {}
    if "gear" in v:
        c.mapping(required=("gear",))
        return {"gear": tuple(x.str() for x in c["gear"].list(1))}
    if "chance" in v:
        c.mapping(required=("chance", "then"), optional=("for",))
        return {"chance": c["chance"].int(0, 100), "for": c["for"].str() if c["for"].present else "chance",
                "then": _equipment(c["then"], refs)}
    if "if" in v:
        return _condition(c, refs)
    if "choose" in v:
        c.mapping(required=("choose",))
        ch = c["choose"]
        ch.mapping(required=("options",), optional=("for",))
        return {"choose": tuple(_equipment(x, refs) for x in ch["options"].list(1)),
                "for": ch["for"].str() if ch["for"].present else "choice"}
    kind = "weapon" if "weapon" in v else "armour"
    table = refs[kind]
    c.mapping(required=(kind,))
    ref = c[kind]
    if isinstance(ref.value, dict):
        lists = refs.get("weapon_lists", {}) if kind == "weapon" else {}
        ref.mapping(required=("choose",) if not (lists and "list" in ref.value) else ("list",),
                    optional=("tribal", "usable", "source", "fallback") + (("list",) if lists else ()))
        if ref["source"].present:
            ref["source"].source()
        options, weights = _options(ref, table, kind, lists, refs.get("removed_ok", False))
        flags = {k: bool(ref[k].bool()) if ref[k].present else False for k in ("tribal", "usable")}
        fallback = ()
        if ref["fallback"].present:  # usable: true picks among these when none of the options is usable
            if not flags["usable"] or kind != "weapon":
                ref["fallback"].fail("a fallback belongs to a weapon pick with 'usable: true'")
            fallback = tuple(x for x in (f.ref(table, kind, refs.get("removed_ok", False))
                                         for f in ref["fallback"].list(1)) if x)
        return {kind: options, "weights": weights, **flags, "fallback": fallback} if options else {"gear": ()}
    one = ref.ref(table, kind, refs.get("removed_ok", False))
    if one is None and refs.get("removed_ok"):
        return {"gear": ()}  # removed by an overlay: the entry gives nothing
    return {kind: (one,), "weights": None, "tribal": False, "usable": False, "fallback": ()}


def _options(ref: Cursor, table: set[str], kind: str, lists: dict, removed_ok: bool) -> tuple[tuple, tuple | None]:
    """The ids to choose among and their weights (None: equal odds): ``choose: [ids]`` (equal
    odds), ``choose: {id: weight}`` (weighted) or ``list: <weapon list>`` (equal odds). With
    ``removed_ok`` (professions and archetypes), ids an overlay removed are left out."""
    if "list" in (ref.value or {}):
        if "choose" in ref.value:
            ref.fail("expected one of 'choose' or 'list', not both")
        name = ref["list"].ref(lists, "weapon list")
        if name and not lists[name]:
            return (), None
        return (lists[name] if name else ()), None
    ch = ref["choose"]
    if isinstance(ch.value, (dict, list)):
        return weighted(ch, table, kind, removed_ok)
    ch.list(1)  # the problem: not a list
    return (), None


def _condition(c: Cursor, refs: dict[str, set[str]]) -> dict:
    """``if: {characteristic, at_least, source}``, ``then`` and ``else``: one entry or the other
    by a characteristic of the character."""
    c.mapping(required=("if", "then", "else"), optional=("for",))
    test = c["if"]
    test.mapping(required=("characteristic", "at_least", "source"))
    test["source"].source()
    return {"if": {"characteristic": test["characteristic"].ref(refs["characteristic"], "characteristic"),
                   "at_least": test["at_least"].int(0, 1000)},
            "for": c["for"].str() if c["for"].present else "condition",
            "then": _equipment(c["then"], refs), "else": _equipment(c["else"], refs)}


def names_table(c: Cursor, bg_ids: set[str]):
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


equipment_entry = _equipment  # one equipment entry, validated (professions and archetypes use the same grammar)
