"""KoTM's fight rules (fight.yaml, optional; a play file): damage points, initiative, the save check
and what each Total Failure row does in a fight, validated with every problem at its file and line."""

from __future__ import annotations

from dataclasses import dataclass

from chargen import dice as dicemod
from chargen.rules.check import Cursor

FIELDS = ("init", "last", "stunned", "drop", "breaks", "self", "friend", "friend_stunned", "dp", "sd", "sd_half",
          "against", "damage", "save")
SAVABLE = tuple(f for f in FIELDS if f != "save")


@dataclass(frozen=True, slots=True)
class Timed:
    """A modifier: ``add`` for ``rounds`` rounds (None: the rest of the fight), or for the next ``attacks``."""

    add: int
    rounds: int | None = None
    attacks: int | None = None


@dataclass(frozen=True, slots=True)
class FumbleEffect:
    init: int = 0
    last: bool = False
    stunned: dicemod.Dice | None = None
    drop: bool = False
    breaks: bool = False
    self: int | None = None
    friend: int | None = None
    friend_stunned: int = 0
    dp: int = 0
    sd: Timed | None = None
    sd_half: int = 0
    against: Timed | None = None
    damage: Timed | None = None
    save: frozenset = frozenset()


@dataclass(frozen=True, slots=True)
class FightRules:
    dp_base: int
    dp_per_level: int
    out_at: int
    dead_at: int
    init_die: int
    save_die: int
    extra_rolls: bool  # whether a row that calls for more rolls makes them (one level deep)
    fumbles: dict  # fumble row id -> FumbleEffect

    def damage_points(self, level: int) -> int:
        return self.dp_base + self.dp_per_level * level


def fight(c: Cursor | None, row_ids: set) -> FightRules | None:
    if c is None:
        return None
    c.mapping(required=("source", "damage_points", "initiative", "save_check", "extra_rolls", "fumbles"),
              optional=("reading",))
    c["source"].source()
    if c["reading"].present:
        c["reading"].str(2000, multiline=True)
    dp = c["damage_points"]
    dp.mapping(required=("base", "per_level", "out_at", "dead_at"))
    base, per, out_at, dead_at = (dp[k].int(-1000, 1000) for k in ("base", "per_level", "out_at", "dead_at"))
    if out_at is not None and dead_at is not None and dead_at > out_at:
        dp["dead_at"].fail(f"{dead_at} is above out_at {out_at} (a dead fighter is out of the fight)")
    c["initiative"].mapping(required=("die",))
    c["save_check"].mapping(required=("die",))
    init_die, save_die = c["initiative"]["die"].int(1, 1000), c["save_check"]["die"].int(1, 1000)
    extra = c["extra_rolls"].bool()
    effects = {}
    for key, e in c["fumbles"].items():
        Cursor(e.doc, e.path, key, e.problems).ref(row_ids, "fumble row")
        effect = _effect(e)
        if effect is not None:
            effects[key] = effect
    if None in (base, per, out_at, dead_at, init_die, save_die, extra):
        return None
    return FightRules(base, per, out_at, dead_at, init_die, save_die, extra, effects)


def _effect(e: Cursor) -> FumbleEffect | None:
    if not e.mapping(optional=FIELDS):
        return None
    got: dict = {}
    for name in ("init", "dp", "friend_stunned", "sd_half"):
        if e[name].present:
            got[name] = e[name].int(0 if name != "init" else -100, 100)
    for name in ("last", "drop", "breaks"):
        if e[name].present:
            got[name] = e[name].bool()
    for name in ("self", "friend"):
        if e[name].present:
            got[name] = e[name].int(-100, 100)
    if e["stunned"].present:
        got["stunned"] = e["stunned"].dice()
    for name in ("sd", "against", "damage"):
        if e[name].present:
            got[name] = _timed(e[name], name == "against")
    if e["save"].present:
        saved = [s.one_of([k for k in SAVABLE if e[k].present]) for s in e["save"].list(1)]
        got["save"] = frozenset(s for s in saved if s)
    if any(v is None for v in got.values()):
        return None
    return FumbleEffect(**got)


def _timed(c: Cursor, attacks_ok: bool) -> Timed | None:
    if not c.mapping(required=("add",), optional=("rounds",) + (("attacks",) if attacks_ok else ())):
        return None
    add = c["add"].int(-100, 100)
    rounds = c["rounds"].int(1, 1000) if c["rounds"].present else None
    attacks = c["attacks"].int(1, 1000) if c["attacks"].present else None
    if rounds is not None and attacks is not None:
        c["attacks"].fail("give rounds or attacks, not both")
    if not attacks_ok and rounds is None and c["rounds"].present is False:
        c.fail("missing key 'rounds'")
        return None
    return None if add is None else Timed(add, rounds, attacks)
