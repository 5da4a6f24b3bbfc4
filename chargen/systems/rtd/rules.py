"""The RTD rules, validated from the module's YAML files into frozen objects.

This file holds stats, roll-off tiers, success charts, the action scale and skills;
:mod:`chargen.systems.rtd.rules_combat` holds wounds, combat, weapons and names.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from chargen import dice as dicemod
from chargen.rules.check import Cursor, Problems, check_unique, declare_reads, file_cursors, optional_cursor
from chargen.rules.tables import read_range, row_index
from chargen.rules.yamlio import Located
from chargen.systems.rtd import rules_combat as rc
from chargen.systems.rtd.rules_archetypes import archetypes_table
from chargen.systems.rtd import rules_fight
from chargen.systems.rtd.rules_wounding import wounding

FILES = ("module", "stats", "roll_offs", "actions", "skills", "wounds", "combat", "weapons", "names")

# What the engine's code reads by id (as d100 and kotm declare theirs): nothing. RTD
# reads every table by its place and every row by its fields (a to-hit row's multiplier,
# a dodge row's avoids and counterattack), so a renamed id plays as before.
READS = declare_reads({})


@dataclass(frozen=True, slots=True)
class Stat:
    id: str
    abbr: str
    label: str


@dataclass(frozen=True, slots=True)
class Tier:
    id: str
    label: str
    min: int
    max: int


@dataclass(frozen=True, slots=True)
class ChartRow:
    low: int          # faces of the chart's die (the first chart's rows)
    high: int
    explode: bool


@dataclass(frozen=True, slots=True)
class SuccessCharts:
    die: int
    pattern: tuple[ChartRow, ...]
    labels: tuple[tuple[str, ...], ...]   # per given chart, one label per non-exploding row
    beyond: tuple[str, ...]               # labels of generated charts, with {chart}
    max_charts: int

    def label(self, chart: int, row: int) -> str:
        """Label of non-exploding row ``row`` (0-based) of chart ``chart`` (1-based)."""
        if chart <= len(self.labels):
            return self.labels[chart - 1][row]
        return self.beyond[row].format(chart=chart)

    def row_of(self, face: int) -> tuple[int, ChartRow]:
        i = row_index(self.pattern, face, "success chart face")
        return i, self.pattern[i]


@dataclass(frozen=True, slots=True)
class ActionResult:
    result: int
    id: str
    label: str
    success: bool
    overshoot: bool
    skill_points: int
    text: str


@dataclass(frozen=True, slots=True)
class Actions:
    sides: int
    add: int
    clamp_min: int
    clamp_max: int
    results: tuple[ActionResult, ...]

    def row(self, result: int) -> ActionResult:
        return self.results[result - self.clamp_min]

    @property
    def best_without_overshoot(self) -> int:
        return max(r.result for r in self.results if not r.overshoot)


@dataclass(frozen=True, slots=True)
class SkillLevel:
    id: str
    label: str
    xp: int
    static: int = 0
    natural_one: int = 0
    choose: tuple[int, ...] = ()
    overshoot: str = "always"        # always, never, optional
    choose_result: bool = False
    successes: str | None = None


@dataclass(frozen=True)
class RtdRules:
    stats: tuple[Stat, ...]
    stat_dice: dicemod.Dice
    stat_min: int
    stat_max: int
    tiers: tuple[Tier, ...]
    charts: SuccessCharts
    actions: Actions
    levels: tuple[SkillLevel, ...]
    skill_pool: tuple[tuple[str, str], ...]
    skill_count: dicemod.Dice
    skill_xp: dicemod.Dice
    wounds: rc.Wounds
    combat: rc.Combat
    weapons: dict[str, rc.Weapon]
    carry: tuple[rc.Carry, ...]
    names: rc.Names
    archetypes: dict = field(default_factory=dict)  # id -> RtdArchetype (archetypes.yaml, optional)
    wounding: object = None  # rules_wounding.Wounding (wounding.yaml, optional): what a blow does to a part
    fight: object = None  # rules_fight.FightRules (fight.yaml, optional): how `chargen fight` plays

    @property
    def buffed_stat_max(self) -> int:
        """The highest stat a character may have with buffs: the top roll-off tier's maximum
        (at least the basic range's)."""
        return max([self.stat_max, *(t.max for t in self.tiers)])

    def tier_of(self, stat: int) -> Tier | None:
        return next((t for t in self.tiers if t.min <= stat <= t.max), None)

    def tier(self, tier_id: str) -> Tier | None:
        return next((t for t in self.tiers if t.id == tier_id), None)

    def skill_level(self, xp: int) -> SkillLevel | None:
        """The highest level whose XP threshold ``xp`` reaches (None below the first)."""
        reached = [lv for lv in self.levels if xp >= lv.xp]
        return reached[-1] if reached else None


def build(docs: dict[str, Located], problems: Problems) -> RtdRules | None:
    c = file_cursors(docs, FILES, problems)
    if c is None:
        return None
    stats, stat_dice, stat_min, stat_max = _stats(c["stats"])
    ro = c["roll_offs"]
    ro.mapping(required=("source", "tiers", "success_charts"))
    ro["source"].source()
    parts = {
        "stats": stats, "stat_dice": stat_dice, "stat_min": stat_min, "stat_max": stat_max,
        "tiers": _tiers(ro["tiers"]), "charts": _charts(ro["success_charts"]),
        "actions": _actions(c["actions"]),
        **_skills(c["skills"]),
        "wounds": rc.wounds(c["wounds"]), "combat": rc.combat(c["combat"]),
        **rc.weapons(c["weapons"]), "names": rc.names(c["names"]),
    }
    parts["archetypes"] = archetypes_table(
        optional_cursor(docs, "archetypes", problems), (stat_min or 0, stat_max or 0), {s.id for s in stats},
        dict(parts["skill_pool"] or ()), lambda pc: rc.carry_picks(pc, parts["weapons"]))
    if parts["wounds"] is not None:
        parts["wounding"] = wounding(optional_cursor(docs, "wounding", problems),
                                     {p.id for p in parts["wounds"].parts}, {s.id for s in parts["wounds"].states})
        parts["fight"] = rules_fight.fight(optional_cursor(docs, "fight", problems), {p.id for p in parts["wounds"].parts},
                                           [s.id for s in parts["wounds"].states],
                                           {i for i, _ in parts["skill_pool"] or ()})
    if problems.items:
        return None
    return RtdRules(**parts)


def _stats(c: Cursor):
    c.mapping(required=("source", "range", "dice", "stats"))
    c["source"].source()
    r = c["range"]
    r.mapping(required=("min", "max", "source"))
    r["source"].source()
    lo, hi = r["min"].int(0, 1000), r["max"].int(0, 1000)
    d = c["dice"].dice()
    if d is not None and lo is not None and hi is not None and (d.minimum < lo or d.maximum > hi):
        c["dice"].fail(f"dice {d} roll {d.minimum} to {d.maximum}; stats run {lo} to {hi}")
    entries = c["stats"].list(1)
    check_unique(entries, "id", "stat")
    stats = tuple(Stat(e["id"].ident(), e["abbr"].str(8), e["label"].str())
                  for e in entries if e.mapping(required=("id", "abbr", "label")))
    return stats, d, lo, hi


def _tiers(c: Cursor) -> tuple[Tier, ...]:
    entries = c.list(1)
    check_unique(entries, "id", "tier")
    tiers: list[Tier] = []
    for e in entries:
        if not e.mapping(required=("id", "label", "min", "max")):
            continue
        t = Tier(e["id"].ident(), e["label"].str(), e["min"].int(0, 1000), e["max"].int(1, 1000))
        if None in (t.min, t.max):
            continue
        expected = tiers[-1].max + 1 if tiers else 0
        if t.min != expected:
            e["min"].fail(f"tier starts at {t.min}; tiers must run on from 0 without gaps (expected {expected})")
        if t.max < t.min:
            e["max"].fail(f"tier ends at {t.max}, below its minimum {t.min}")
        tiers.append(t)
    return tuple(tiers)


def _chart_rows(c: Cursor, die: int, offset: int) -> tuple[list[ChartRow], list[str]]:
    rows, labels = [], []
    for e in c.list(2):
        if not e.mapping(required=("roll",), optional=("label", "explode")):
            continue
        r = read_range(e["roll"], offset + die)
        explode = bool(e["explode"].bool()) if e["explode"].present else False
        if not explode:
            labels.append(e["label"].str())
        if r:
            rows.append(ChartRow(r[0] - offset, r[1] - offset, explode))
    return rows, labels


def _charts(c: Cursor) -> SuccessCharts | None:
    c.mapping(required=("source", "die", "charts", "beyond", "max_charts", "max_charts_source"))
    c["source"].source()
    c["max_charts_source"].source()
    die = c["die"].int(2, 1000)
    if die is None:
        return None
    pattern, labels = None, []
    for i, cc in enumerate(c["charts"].list(1)):
        cc.mapping(required=("rows",))
        rows, names = _chart_rows(cc["rows"], die, i * die)
        faces = [f for r in rows for f in range(r.low, r.high + 1)]
        if sorted(faces) != list(range(1, die + 1)) or [r.explode for r in rows][-1:] != [True] or sum(r.explode for r in rows) != 1:
            cc["rows"].fail(f"rows must cover {i * die + 1} to {(i + 1) * die} once, the last one exploding")
        elif pattern is None:
            pattern = tuple(rows)
        elif tuple(rows) != pattern:
            cc["rows"].fail("rows must follow the first chart's pattern, "
                            f"{die * i} higher (charts beyond the data are built from it)")
        labels.append(tuple(names))
    b = c["beyond"]
    b.mapping(required=("source", "labels"))
    b["source"].source()
    beyond = tuple(x.str() for x in b["labels"].list(1))
    width = len(pattern) - 1 if pattern else 0
    if pattern and len(beyond) != width:
        b["labels"].fail(f"expected {width} labels, one per non-exploding row of the chart pattern")
    max_charts = c["max_charts"].int(1, 10_000)
    if not pattern or max_charts is None:
        return None
    return SuccessCharts(die, pattern, tuple(labels), beyond, max_charts)


def _actions(c: Cursor) -> Actions | None:
    c.mapping(required=("die", "clamp", "results"))
    d, cl, res = c["die"], c["clamp"], c["results"]
    d.mapping(required=("source", "sides", "add"))
    d["source"].source()
    cl.mapping(required=("min", "max", "source"))
    cl["source"].source()
    res.mapping(required=("source", "rows"))
    res["source"].source()
    lo, hi = cl["min"].int(-100, 100), cl["max"].int(-100, 100)
    results = []
    for e in res["rows"].list(1):
        if e.mapping(required=("result", "id", "label", "success", "overshoot", "skill_points", "text")):
            results.append(ActionResult(e["result"].int(-100, 100), e["id"].ident(), e["label"].str(),
                                        bool(e["success"].bool()), bool(e["overshoot"].bool()),
                                        e["skill_points"].int(0, 100), e["text"].str(500)))
    if lo is not None and hi is not None and [r.result for r in results] != list(range(lo, hi + 1)):
        res["rows"].fail(f"expected one row per result from {lo} to {hi}, in order")
    sides, add = d["sides"].int(1, 1000), d["add"].int(-100, 100)
    if None in (sides, add, lo, hi):
        return None
    return Actions(sides, add, lo, hi, tuple(results))


_LEVEL_KEYS = ("static", "natural_one", "choose", "overshoot", "choose_result", "successes")


def _skills(c: Cursor) -> dict:
    c.mapping(required=("source", "levels", "generation"))
    c["source"].source()
    entries = c["levels"].list(1)
    check_unique(entries, "id", "skill level")
    levels: list[SkillLevel] = []
    for e in entries:
        if not e.mapping(required=("id", "label", "xp"), optional=_LEVEL_KEYS):
            continue
        lv = SkillLevel(
            e["id"].ident(), e["label"].str(), e["xp"].int(0, 100_000),
            static=e["static"].int(-10, 10) if e["static"].present else 0,
            natural_one=e["natural_one"].int(-10, 10) if e["natural_one"].present else 0,
            choose=tuple(x.int(-10, 10) for x in e["choose"].list(1)) if e["choose"].present else (),
            overshoot=e["overshoot"].one_of(("never", "optional")) if e["overshoot"].present else "always",
            choose_result=bool(e["choose_result"].bool()) if e["choose_result"].present else False,
            successes=e["successes"].str() if e["successes"].present else None)
        if levels and lv.xp is not None and levels[-1].xp is not None and lv.xp <= levels[-1].xp:
            e["xp"].fail(f"{lv.xp} XP is not more than the level before ({levels[-1].xp}); "
                         "each level requires more XP than the previous level")
        levels.append(lv)
    g = c["generation"]
    g.mapping(required=("source", "count", "xp", "pool"))
    g["source"].source()
    pool_entries = g["pool"].list(1)
    check_unique(pool_entries, "id", "skill")
    pool = tuple((e["id"].ident(), e["label"].str()) for e in pool_entries if e.mapping(required=("id", "label")))
    count = g["count"].dice()
    if count is not None and (count.minimum < 0 or count.maximum > len(pool)):
        g["count"].fail(f"dice {count} roll {count.minimum} to {count.maximum}; the pool holds {len(pool)} skills")
    xp = g["xp"].dice()
    if xp is not None and xp.minimum < 0:
        g["xp"].fail(f"dice {xp} can roll below 0 XP")
    return {"levels": tuple(levels), "skill_pool": pool, "skill_count": count, "skill_xp": xp}

