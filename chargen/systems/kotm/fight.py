"""KoTM fights: a round by initiative (fight.yaml, lowest first), one attack a fighter (the seed's
2D10 read against SD, OS/CS/CF/TF, damage), damage points taken blow to blow, and the Total Failure
rows' effects (fight.yaml ``fumbles``) carried over the rounds they last.

The engine's fight rules (:mod:`chargen.fight.play` describes the interface); the readings are
written in ``rules/kotm/fight.yaml``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from chargen.errors import CharacterError
from chargen.fight.play import FightRules, Round
from chargen.fight.tactics import pick_target
from chargen.systems.kotm.mechanics import classify, damage, damage_die, faces
from chargen.systems.kotm.rules import CONDITION, OUTCOME

LAST = 1_000_000  # the initiative of a fighter who "goes last next round"


@dataclass(frozen=True)
class Profile:
    """A character as a combatant: his level, SD, save check, DP and weapons (best first)."""

    name: str
    level: int
    sd: int
    save_check: int
    dp: int
    weapons: tuple[tuple[str, int, bool], ...]   # (label, damage modifier, missile)


def profile(rules, doc: dict) -> Profile:
    if rules.fight is None:
        raise CharacterError("this KoTM module has no fight rules (fight.yaml)")
    level = int(doc["level"])
    gear = [w for w in doc.get("weapons") or () if isinstance(w, dict) and isinstance(w.get("damage_modifier"), int)]
    gear.sort(key=lambda w: (-w["damage_modifier"], w.get("kind") != "melee"))
    return Profile(doc["identity"]["name"], level, int(doc["sd"]), rules.save_check(level),
                   rules.fight.damage_points(level),
                   tuple((w["label"], w["damage_modifier"], w.get("kind") == "missile") for w in gear))


class Combatant:
    __slots__ = ("side", "index", "p", "dp", "out", "dead", "stun", "init_add", "last", "mods", "exposed", "weapon",
                 "acts", "pos", "group", "ready", "pending", "active")

    def __init__(self, p: Profile, side: int, index: int):
        self.side, self.index, self.p, self.dp = side, index, p, p.dp
        self.out = self.dead = self.last = False
        self.stun = self.init_add = self.weapon = 0
        self.mods: tuple = ()      # (kind, add, rounds left or None): sd, half, against, damage
        self.exposed: tuple = ()   # the SD added to each of the next attacks on him
        self.acts = self.ready = False
        self.pos = self.group = None
        self.pending = 0           # fumble-table rolls still to make this round
        self.active: tuple = ()    # the mods in force this round

    @property
    def name(self) -> str:
        return self.p.name

    @property
    def vigour(self) -> int:
        return self.dp


def fresh(p: Profile, side: int, index: int) -> Combatant:
    return Combatant(p, side, index)


_LASTING = ("dp", "out", "dead", "stun", "init_add", "last", "mods", "exposed", "weapon")
_ROUND = ("acts", "pos", "group", "ready", "pending", "active")


def key(c: Combatant) -> tuple:
    """His state between rounds; an out fighter's is only whether he is dead (nothing else about him
    changes the fight: nobody strikes or heals him)."""
    return ("out", c.dead) if c.out else tuple(getattr(c, n) for n in _LASTING)


def round_key(c: Combatant) -> tuple:
    return tuple(getattr(c, n) for n in _ROUND)


def clone(c: Combatant) -> Combatant:
    n = Combatant(c.p, c.side, c.index)
    for name in _LASTING + _ROUND:
        setattr(n, name, getattr(c, name))
    return n


@functools.lru_cache(maxsize=64)
def _steps(n: int, extra: int) -> tuple:
    steps = [("initiative", 0)]
    for k in range(n):
        steps += [("ready", k), ("act", k)] + [("fumble", k)] * extra
    return tuple(steps)


def plan(rules, sides, tactics) -> Round:
    """Start a round: who can act (not out, not stunned, armed) and the mods in force. The steps: the
    initiative, then for each place in its order the place's group made ready, its attack, and
    the extra fumble-table rolls its fumble may call for."""
    for side in sides:
        for c in side:
            _begin(c)
    extra = max((r.more.rolls for r in rules.fumbles.rows if r.more), default=0) if rules.fight.extra_rolls else 0
    return Round(_steps(sum(len(s) for s in sides), extra), ({}, {}))


def _begin(c: Combatant) -> None:
    c.active = tuple(m for m in c.mods)
    c.mods = _sorted((k, a, None if n is None else n - 1) for k, a, n in c.mods if n is None or n > 1)
    c.pos = c.group = None
    c.ready, c.pending = False, 0
    if c.out:
        c.acts = False
    elif c.stun:
        c.stun -= 1
        c.acts = False
    else:
        c.acts = c.weapon < len(c.p.weapons)


def step(rules, draws, sides, tactics, credit, rnd: Round, what: tuple) -> None:
    kind, k = what
    if kind == "initiative":
        _initiative(rules, draws, sides)
        return
    everyone = [c for side in sides for c in side]
    c = next((c for c in everyone if c.pos == k), None)
    if c is None:
        return
    if kind == "ready":
        if c.group == k:
            for o in everyone:
                if o.group == k:
                    o.ready = not o.out
    elif kind == "act":
        enemies = [e for e in sides[1 - c.side] if not e.out]
        target = pick_target(tactics, draws, enemies, rnd.aimed[c.side]) if c.ready else None
        if target is not None:
            rnd.aimed[c.side][target.index] = rnd.aimed[c.side].get(target.index, 0) + 1
            _attack(rules, draws, sides, c, target, credit)
    elif c.pending:
        c.pending -= 1
        _fumble(rules, draws, sides, c, credit, extra=True)


def play_round(rules, draws, sides, tactics, credit) -> None:
    rnd = plan(rules, sides, tactics)
    for what in rnd.steps:
        step(rules, draws, sides, tactics, credit, rnd, what)


def _initiative(rules, draws, sides) -> None:
    """Each fighter who can act rolls the initiative die plus his INIT penalties; lowest first, equal together."""
    rolled = []
    for side in sides:
        for c in side:
            if c.acts:
                v = draws.die(rules.fight.init_die, "initiative") + c.init_add
                rolled.append((LAST if c.last else v, c.side, c.index, c))
                c.init_add, c.last = 0, False
    rolled.sort(key=lambda r: r[:3])
    first: dict = {}
    for pos, (v, _, _, c) in enumerate(rolled):
        c.pos, c.group = pos, first.setdefault(v, pos)


def _sd(c: Combatant, d: Combatant) -> int:
    sd = c.p.sd // 2 if any(k == "half" for k, _, _ in c.active) else c.p.sd
    sd += sum(a for k, a, _ in c.active if k == "sd") + sum(a for k, a, _ in d.active if k == "against")
    if d.exposed:
        sd += d.exposed[0]
        d.exposed = d.exposed[1:]
    return max(0, sd)


@functools.lru_cache(maxsize=4096)
def _attack_keys(attack, sd: int, modifier: int, level: int) -> tuple:
    """What each face of the attack roll (first die, then second) gives: the outcome and its damage."""
    return tuple((o.id, damage(attack, o, s, modifier, level)) for f, s in faces(attack) for o in [classify(attack, f, s, sd)])


def _attack(rules, draws, sides, c: Combatant, d: Combatant, credit) -> None:
    a = rules.attack
    _, modifier, _ = c.p.weapons[c.weapon]
    modifier += sum(x for k, x, _ in c.active if k == "damage")
    sd = _sd(c, d)
    face = draws.die(a.sides * a.sides, "attack", key=_attack_keys(a, sd, modifier, c.p.level))
    first, second = (face - 1) // a.sides + 1, (face - 1) % a.sides + 1
    outcome = classify(a, first, second, sd)
    if outcome.hit:
        _harm(rules, d, damage(a, outcome, second, modifier, c.p.level), c, credit)
    elif outcome.id == OUTCOME["critical_fumble"]:
        _harm(rules, c, rules.critical_fumble_damage(c.p.level), None, credit)
    elif outcome.id == OUTCOME["total_fumble"]:
        _fumble(rules, draws, sides, c, credit, extra=False)


_ROW_KEYS: dict = {}


def _row_keys(table) -> tuple:
    """The fumble row of each face of the table's roll (first die, then second), computed once a table."""
    got = _ROW_KEYS.get(id(table))
    if got is None or got[0] is not table:
        sides = range(1, table.sides + 1)
        got = _ROW_KEYS[id(table)] = (table, tuple(table.lookup(table.read(f, s)).id for f in sides for s in sides))
    return got[1]


def _fumble(rules, draws, sides, c: Combatant, credit, extra: bool) -> None:
    """One roll on the Total Failure table (a row asking again for this fighter's weapon is rolled again)."""
    table = rules.fumbles
    missile = c.weapon < len(c.p.weapons) and c.p.weapons[c.weapon][2]
    conditions = {CONDITION["missile_weapon"]} if missile else set()
    for _ in range(table.max_rolls):
        face = draws.die(table.sides * table.sides, "fumble", key=_row_keys(table))
        row = table.lookup(table.read((face - 1) // table.sides + 1, (face - 1) % table.sides + 1))
        if row.again_if is None or row.again_if not in conditions:
            break
    else:
        return
    if row.more:
        if not extra and rules.fight.extra_rolls:
            c.pending += row.more.rolls
        return
    effect = rules.fight.fumbles.get(row.id)
    if effect is not None:
        _apply(rules, draws, sides, c, effect, credit)


@functools.lru_cache(maxsize=256)
def _saves(die: int, check: int) -> tuple:
    return tuple(f <= check for f in range(1, die + 1))


def _apply(rules, draws, sides, c: Combatant, e, credit) -> None:
    """What a fumble row does (fight.yaml); the fields in ``save`` only when his save check fails."""
    f = rules.fight
    saved = bool(e.save) and draws.die(f.save_die, "save check", key=_saves(f.save_die, c.p.save_check)) <= c.p.save_check

    def on(name: str) -> bool:
        return not (saved and name in e.save)

    if e.init and on("init"):
        c.init_add += e.init
    if e.last and on("last"):
        c.last = True
    if e.stunned is not None and on("stunned"):
        c.stun += max(0, draws.roll(e.stunned, "stunned"))
    if e.drop and on("drop"):
        c.stun += 1  # he spends his next attack picking his weapon up
    if e.breaks and on("breaks"):
        c.weapon += 1
    _timed(c, e, on)
    if e.dp and on("dp"):
        _harm(rules, c, e.dp, None, credit)
    if e.self is not None and on("self"):
        _harm(rules, c, _normal(rules, draws, c) + e.self, None, credit)
    if e.friend is not None and on("friend"):
        friends = [o for o in sides[c.side] if o is not c and not o.out]
        if friends:
            friend = friends[draws.die(len(friends), "friend") - 1] if len(friends) > 1 else friends[0]
            _harm(rules, friend, _normal(rules, draws, c) + e.friend, None, credit)
            if on("friend_stunned"):
                friend.stun += e.friend_stunned


def _timed(c: Combatant, e, on) -> None:
    """The row's modifiers that last some rounds (or attacks, or the fight)."""
    mods = list(c.mods)
    if e.sd is not None and on("sd"):
        mods.append(("sd", e.sd.add, e.sd.rounds))
    if e.sd_half and on("sd_half"):
        mods.append(("half", 0, e.sd_half))
    if e.damage is not None and on("damage"):
        mods.append(("damage", e.damage.add, e.damage.rounds))
    if e.against is not None and on("against"):
        if e.against.attacks:
            c.exposed += (e.against.add,) * e.against.attacks
        else:
            mods.append(("against", e.against.add, e.against.rounds))
    c.mods = _sorted(mods)


def _sorted(mods) -> tuple:
    """Mods in one order (a state of the exact chain): by kind, amount, then rounds (the fight's last)."""
    return tuple(sorted(mods, key=lambda m: (m[0], m[1], -1 if m[2] is None else m[2])))


def _normal(rules, draws, c: Combatant) -> int:
    """Normal damage: a new damage die (the second die's face) plus his weapon's modifier."""
    a = rules.attack
    modifier = c.p.weapons[min(c.weapon, len(c.p.weapons) - 1)][1] if c.p.weapons else 0
    return max(a.damage_min, damage_die(a, draws.die(a.sides, "damage")) + modifier)


def _harm(rules, c: Combatant, amount: int, striker: Combatant | None, credit) -> None:
    f = rules.fight
    c.dp -= max(0, amount)
    if not c.out and c.dp <= f.out_at:
        c.out = True
        if striker is not None:
            credit(striker, c)
    c.dead = c.dp <= f.dead_at


def order(rules, p: Profile) -> list[dict]:
    """His lines of the combat-order table: each weapon, with his SD and damage points."""
    return [{"initiative": f"1D{rules.fight.init_die}", "weapon": label, "attack": p.sd,
             "damage": f"1D10{modifier:+d}" if modifier else "1D10", "parry": "-", "hp": p.dp, "locations": []}
            for label, modifier, _ in p.weapons]


# The KoTM engine's fight rules (Engine.fight).
KIT = FightRules(profile=profile, fresh=fresh, round=play_round, plan=plan, step=step, key=key, round_key=round_key,
                 clone=clone, order=order, describe=lambda rules, c: f"{c.dp} damage points")
