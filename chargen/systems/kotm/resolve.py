"""Resolving a KoTM attack: the 2D10 read, OS/CS/CF/TF, damage, and the fumble table.

``chargen roll --system kotm --sd 30 --level 4`` calls :func:`resolve`. The fumble
table's extra rolls follow the reading written in ``rules/kotm/fumbles.yaml``: each
multi-roll row acts at most once per Total Failure (Disastrous: once more with its
two extra rolls), and the table's ``max_rolls`` bounds the rerolls.
"""

from __future__ import annotations

from dataclasses import dataclass

from chargen.dice import Roller
from chargen.errors import OptionError, TooManyRolls
from chargen.resolve import Resolution, Step, require
from chargen.systems.kotm.mechanics import classify, damage, damage_steps
from chargen.systems.kotm.rules import CONDITION, OUTCOME, FumbleRow, FumbleTable, KotmRules

ROLL_OPTIONS = ("sd", "level", "damage_mod", "missile", "no_helm")
SD_RANGE = (0, 100)
MODIFIER_RANGE = (-100, 100)
CONDITION_OPTIONS = {"missile": "missile_weapon", "no_helm": "no_helm"}  # roll option -> condition role


@dataclass(frozen=True, slots=True)
class FumbleEntry:
    number: int                       # 1 for the first fumble-table roll
    depth: int
    faces: tuple[int, int]
    read: int
    row: FumbleRow
    status: str                       # applied, ignored, rerolled, condition, adds_rolls
    extra: tuple[tuple[str, str, int], ...] = ()   # (for, dice, total) rolled for the row
    rolled_for: str = ""              # label of the row whose extra roll this is (for "ignored")

    def to_dict(self) -> dict:
        return {"roll": self.number, "depth": self.depth, "rolled": list(self.faces), "read": self.read,
                "row": self.row.id, "label": self.row.label, "status": self.status,
                "extra": [{"for": f, "dice": d, "total": t} for f, d, t in self.extra]}


def resolve(rules: KotmRules, roller: Roller, options: dict) -> Resolution:
    sd = _in_range(require(options, "sd", "--system kotm"), "sd", SD_RANGE, "a read runs 00 to 99")
    level = _in_range(require(options, "level", "--system kotm"), "level", (rules.level_min, rules.level_max),
                      "KoTM levels")
    modifier = _in_range(options.get("damage_mod") or 0, "damage-mod", MODIFIER_RANGE, "a damage modifier")
    conditions = frozenset(CONDITION[role] for option, role in CONDITION_OPTIONS.items() if options.get(option))
    return attack(rules, roller, sd, level, modifier, conditions)


def _in_range(value: int, name: str, bounds: tuple[int, int], what: str) -> int:
    lo, hi = bounds
    if not lo <= value <= hi:
        raise OptionError(f"--{name} {value} is out of range ({lo} to {hi}: {what})")
    return value


def attack(rules: KotmRules, roller: Roller, sd: int, level: int, modifier: int = 0,
           conditions: frozenset[str] = frozenset()) -> Resolution:
    a = rules.attack
    first, second = roller.faces(2, a.sides, "attack")
    read = a.read(first, second)
    outcome = classify(a, first, second, sd)
    if outcome in a.exceptions:
        why = f"faces {first} {second}, whatever the SD"
    else:
        why = f"read {read:02d} is {'at or under' if outcome.hit else 'over'} SD {sd}"
    row = f"{outcome.label} ({outcome.abbr})" if outcome in a.exceptions else outcome.label
    steps = [Step("attack", row, f"2D{a.sides}", (first, second), f"{read:02d}", why)]
    result = {"read": read, "hit": outcome.hit, "damage": None, "self_damage": None, "fumbles": []}
    summary = f"KoTM attack (SD {sd}, level {level}): {outcome.label}"
    if outcome.hit:
        result["damage"] = damage(a, outcome, second, modifier, level)
        steps.append(Step("damage", outcome.label, text=damage_steps(a, outcome, second, modifier, level)))
        summary += f", {result['damage']} damage"
    elif outcome.id == OUTCOME["critical_fumble"]:
        result["self_damage"] = rules.critical_fumble_damage(level)
        steps.append(Step("critical fumble damage", f"level {level}",
                          text=f"{result['self_damage']} damage to the fumbler"))
        summary += f", {result['self_damage']} damage to self"
    elif outcome.id == OUTCOME["total_fumble"]:
        entries = fumble_chain(rules.fumbles, roller, conditions)
        result["fumbles"] = [e.to_dict() for e in entries]
        steps.extend(fumble_step(e, rules.fumbles.sides) for e in entries)
        applied = [e.row.label for e in entries if e.status == "applied"]
        summary += f": {', '.join(applied) or 'no effect'}"
    inputs = {"sd": sd, "level": level, "damage_mod": modifier, "conditions": sorted(conditions)}
    return Resolution("kotm", "attack", inputs, outcome.id, summary, tuple(steps), result)


_STATUS = {
    "applied": "",
    "ignored": "ignored (rolled for {by})",
    "rerolled": "came up again: re-roll",
    "condition": "condition holds: roll again",
    "adds_rolls": "came up again: {n} more rolls (one time only)",
}


def fumble_step(e: FumbleEntry, sides: int) -> Step:
    note = _STATUS[e.status].format(n=e.row.more.add_rolls if e.row.more else 0, by=e.rolled_for)
    text = note or e.row.effect
    if e.extra:
        text += " [" + ", ".join(f"{d} {f}: {t}" for f, d, t in e.extra) + "]"
    read = "00" if e.read == 100 else f"{e.read:02d}"
    return Step(f"fumble table #{e.number}", f"{e.row.roll_label} {e.row.label}", f"2D{sides}", e.faces,
                read, text, e.depth + 1)


def fumble_chain(table: FumbleTable, roller: Roller, conditions: frozenset[str] = frozenset()) -> list[FumbleEntry]:
    """Every roll on the fumble table for one Total Failure, in the order they are resolved.

    Rolls a row adds are resolved right after it (depth first). A roll is rerolled
    when its row came up already (``on_repeat: reroll``) or its ``again_if`` condition
    holds; past ``table.max_rolls`` rolls this stops with :class:`TooManyRolls`.
    """
    entries: list[FumbleEntry] = []
    acted: set[str] = set()       # multi-roll rows with on_repeat that have acted
    added: set[str] = set()       # rows whose add_rolls have been used
    stack: list[tuple[int, tuple[int, int] | None, str]] = [(0, None, "")]   # (depth, ignore range, rolled for)
    while stack:
        depth, ignore, rolled_for = stack.pop()
        while True:
            entry = _roll(table, roller, len(entries) + 1, depth)
            row = entry.row
            status = _status(row, entry.read, ignore, conditions, acted, added)
            if status == "applied":
                entry = FumbleEntry(entry.number, depth, entry.faces, entry.read, row, status,
                                    tuple((f, str(d), roller.roll(d, f"fumble.{row.id}.{f}")) for d, f in row.dice))
            else:
                entry = FumbleEntry(entry.number, depth, entry.faces, entry.read, row, status, rolled_for=rolled_for)
            entries.append(entry)
            if status in ("rerolled", "condition"):
                continue
            more = []
            if status == "applied" and row.more:
                if row.more.on_repeat:
                    acted.add(row.id)
                more = [(depth + 1, row.more.ignore, row.label)] * row.more.rolls
            elif status == "adds_rolls":
                added.add(row.id)
                more = [(depth + 1, None, row.label)] * row.more.add_rolls
            stack.extend(reversed(more))
            break
    return entries


def _roll(table: FumbleTable, roller: Roller, number: int, depth: int) -> FumbleEntry:
    if number > table.max_rolls:
        raise TooManyRolls(f"the fumble table was rolled more than {table.max_rolls} times for one Total Failure "
                           f"(max_rolls in rules/kotm/fumbles.yaml); a reroll rule loops")
    first, second = roller.faces(2, table.sides, f"fumble.{number}")
    read = table.read(first, second)
    return FumbleEntry(number, depth, (first, second), read, table.lookup(read), "")


def _status(row: FumbleRow, read: int, ignore, conditions, acted: set, added: set) -> str:
    if ignore and ignore[0] <= read <= ignore[1]:
        return "ignored"
    if row.again_if in conditions:
        return "condition"
    if row.more and row.more.on_repeat and row.id in acted:
        if row.more.on_repeat == "add_rolls" and row.id not in added:
            return "adds_rolls"
        return "rerolled"
    return "applied"
