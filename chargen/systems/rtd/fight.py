"""RTD fights: each round a die picks the side that strikes first and the sides take turns, one
exchange a fighter (:func:`chargen.systems.rtd.combat.exchange`: to hit, dodge, parry and its
counterattack, criticals); each blow wounds a body part (wounding.yaml), wound penalties come off
the rolls made with the part, and fight.yaml says when wounds put a fighter out.

The engine's fight rules (:mod:`chargen.fight.play` describes the interface); the readings are
written in ``rules/rtd/fight.yaml``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

from chargen import paths
from chargen.errors import CharacterError
from chargen.fight.play import FightRules, Round
from chargen.fight.tactics import pick_target
from chargen.systems.rtd.combat import exchange, strike_damage
from chargen.systems.rtd.mechanics import skill_modifiers
from chargen.systems.rtd.rules import SkillLevel


@dataclass(frozen=True)
class Profile:
    """A character as a combatant: his best weapon's damage and critical multiplier, his wounds at the start."""

    name: str
    weapon: str
    damage: int
    multiplier: Fraction | None
    wounds: tuple[int, ...]   # each body part's wound state (its index in wounds.yaml states)
    to_hit_skill: SkillLevel | None = None   # the skill level whose bonus his to-hit rolls take (fight.yaml skills)
    dodge_skill: SkillLevel | None = None


def profile(rules, doc: dict) -> Profile:
    if rules.fight is None or rules.wounding is None:
        raise CharacterError("this RTD module has no fight rules (fight.yaml and wounding.yaml)")
    states = [s.id for s in rules.wounds.states]
    have = {w.get("part"): w.get("state") for w in doc.get("wounds") or () if isinstance(w, dict)}
    wounds = tuple(states.index(have[p.id]) if have.get(p.id) in states else 0 for p in rules.wounds.parts)
    w = paths.best_weapon(doc)
    mult = w.get("critical_multiplier") if w else None
    return Profile(doc["identity"]["name"], w["label"] if w else "-", int(w["damage"]) if w else 0,
                   Fraction(str(mult)) if mult is not None else None, wounds,
                   _skill(rules, doc, rules.fight.to_hit_skills), _skill(rules, doc, rules.fight.dodge_skills))


def _skill(rules, doc: dict, ids: tuple[str, ...]) -> SkillLevel | None:
    """The highest skill level he has among the skills ``ids`` (by their XP, skills.yaml levels)."""
    xp = [s.get("xp") for s in doc.get("skills") or () if isinstance(s, dict) and s.get("id") in ids]
    levels = [rules.skill_level(x) for x in xp if isinstance(x, int)]
    return max((lv for lv in levels if lv is not None), key=lambda lv: lv.xp, default=None)


class Combatant:
    __slots__ = ("side", "index", "p", "wounds", "out", "dead", "turn", "hit")

    def __init__(self, p: Profile, side: int, index: int):
        self.side, self.index, self.p, self.wounds = side, index, p, p.wounds
        self.out = self.dead = self.hit = False
        self.turn = None  # his place in this round's order (None: he does not act)

    @property
    def name(self) -> str:
        return self.p.name

    @property
    def vigour(self) -> int:
        return -sum(self.wounds)


def fresh(p: Profile, side: int, index: int) -> Combatant:
    return Combatant(p, side, index)


def key(c: Combatant) -> tuple:
    return ("out", c.dead) if c.out else (c.wounds,)


def round_key(c: Combatant) -> tuple:
    return (c.turn, c.hit)


def clone(c: Combatant) -> Combatant:
    n = Combatant(c.p, c.side, c.index)
    n.wounds, n.out, n.dead, n.turn, n.hit = c.wounds, c.out, c.dead, c.turn, c.hit
    return n


def plan(rules, sides, tactics) -> Round:
    """Start a round: the steps are the order die, then one exchange for each place in the order."""
    for side in sides:
        for c in side:
            c.turn, c.hit = None, False
    n = sum(1 for side in sides for c in side if not c.out)
    return Round((("first", 0),) + tuple(("act", k) for k in range(n)), ({}, {}))


def step(rules, draws, sides, tactics, credit, rnd: Round, what: tuple) -> None:
    kind, k = what
    if kind == "first":
        first = draws.die(rules.fight.order_die, "first side") - 1
        a, b = ([c for c in sides[s] if not c.out] for s in (first, 1 - first))
        order = [c for pair in zip(a, b) for c in pair] + a[len(b):] + b[len(a):]
        for n, c in enumerate(order):
            c.turn = n
        return
    c = next((c for side in sides for c in side if c.turn == k), None)
    if c is None or c.out or c.hit:
        return  # a blow that landed before his turn cancelled his exchange
    enemies = [e for e in sides[1 - c.side] if not e.out]
    target = pick_target(tactics, draws, enemies, rnd.aimed[c.side])
    if target is not None:
        rnd.aimed[c.side][target.index] = rnd.aimed[c.side].get(target.index, 0) + 1
        _exchange(rules, draws, c, target, tactics, credit)


def play_round(rules, draws, sides, tactics, credit) -> None:
    rnd = plan(rules, sides, tactics)
    for what in rnd.steps:
        step(rules, draws, sides, tactics, credit, rnd, what)


def _exchange(rules, draws, c: Combatant, d: Combatant, tactics, credit) -> None:
    penalty = {"to hit": _arm_penalty(rules, c), "counterattack to hit": _arm_penalty(rules, d),
               "dodge": _dodge_penalty(rules, d) or 0}
    skill = {"to hit": c.p.to_hit_skill, "counterattack to hit": d.p.to_hit_skill, "dodge": d.p.dodge_skill}

    def draw(sides: int, purpose: str) -> int:
        if purpose.endswith("critical"):
            return draws.die(sides, purpose, key=_critical_keys(rules.combat.critical_on, sides))
        pen, level = penalty.get(purpose, 0), skill.get(purpose)
        if not pen and level is None:
            return draws.die(sides, purpose)
        faces = _adjusted(sides, pen, level)
        return faces[draws.die(sides, purpose, key=faces) - 1]

    can_dodge = tactics.parry != "never" and _dodge_penalty(rules, d) is not None
    ex = exchange(rules.combat, draw, dodge=can_dodge, crit_multiplier=c.p.multiplier,
                  counter_crit_multiplier=d.p.multiplier)
    if ex.attack.lands:
        _wound(rules, draws, d, strike_damage(ex.attack, c.p.damage), c, credit)
    if ex.counter is not None and ex.counter.lands:
        _wound(rules, draws, c, strike_damage(ex.counter, d.p.damage, rules.combat.parry_bonus), d, credit)


@functools.lru_cache(maxsize=256)
def _critical_keys(critical_on: frozenset, sides: int) -> tuple:
    """Whether each face of the critical chart is a critical hit (a fight has no critical modifier)."""
    return tuple(f in critical_on for f in range(1, sides + 1))


@functools.lru_cache(maxsize=256)
def _adjusted(sides: int, penalty: int, level: SkillLevel | None) -> tuple:
    """What each face of a roll reads as: plus the skill level's bonus ("Static +1 to all rolls", the
    most of a chosen bonus, a natural 1's), less the wound penalty, from 1 to the die's best face; a
    level that chooses its result chooses the best face."""
    if level is not None and level.choose_result:
        return (sides,) * sides
    chosen = max(level.choose) if level is not None and level.choose else None
    return tuple(min(sides, max(1, f + sum(v for _, v in skill_modifiers(level, f, chosen)) - penalty))
                 for f in range(1, sides + 1))


def _penalty(rules, c: Combatant, part: str) -> int | None:
    """The wound penalty of a part (None: lopped off, it cannot be used)."""
    i = next(n for n, p in enumerate(rules.wounds.parts) if p.id == part)
    return rules.wounds.states[c.wounds[i]].penalty


def _arm_penalty(rules, c: Combatant) -> int:
    f = rules.fight
    pen = _penalty(rules, c, f.weapon_arm)
    if pen is None:
        pen = _penalty(rules, c, f.other_arm)
    return pen or 0


def _dodge_penalty(rules, c: Combatant) -> int | None:
    pens = [_penalty(rules, c, p) for p in rules.fight.dodge_parts]
    usable = [p for p in pens if p is not None]
    return max(usable) if usable else None


def _wound(rules, draws, c: Combatant, damage: int, striker: Combatant, credit) -> None:
    """The wound ``damage`` makes to the part a die picks (wounding.yaml), kept if worse than the part's."""
    w, wounds = rules.wounding, rules.wounds
    part = w.part(draws.die(w.die, "body part", key=w.part))
    i = next(n for n, p in enumerate(wounds.parts) if p.id == part)
    states = [s.id for s in wounds.states]
    new = w.wound(damage) or states[0]
    if wounds.state(new).brittle_only and not wounds.parts[i].brittle:
        new = states[states.index(new) + 1]
    c.wounds = c.wounds[:i] + (max(c.wounds[i], states.index(new)),) + c.wounds[i + 1:]
    if damage > 0:
        c.hit = True
    c.dead = c.dead or any(wounds.parts[n].important and wounds.states[s].penalty is None and s
                           for n, s in enumerate(c.wounds))
    if not c.out and (c.dead or _out(rules, c)):
        c.out = True
        credit(striker, c)


def _out(rules, c: Combatant) -> bool:
    states = [s.id for s in rules.wounds.states]
    ids = [p.id for p in rules.wounds.parts]
    return any(all(c.wounds[ids.index(p)] >= states.index(at) for p in parts) for parts, at in rules.fight.out_when)


def order(rules, p: Profile) -> list[dict]:
    return [{"initiative": f"side by 1D{rules.fight.order_die}", "weapon": p.weapon, "attack": "1D6",
             "damage": p.damage, "parry": "dodge 1D6", "hp": None,
             "locations": [(part.label, rules.wounds.states[s].label, None) for part, s in zip(rules.wounds.parts, p.wounds)]}]


def _wounds_text(rules, c: Combatant) -> str:
    hurt = [f"{p.label.lower()} {rules.wounds.states[s].label.lower()}" for p, s in zip(rules.wounds.parts, c.wounds) if s]
    return ", ".join(hurt) or "unwounded"


# The RTD engine's fight rules (Engine.fight).
KIT = FightRules(profile=profile, fresh=fresh, round=play_round, plan=plan, step=step, key=key, round_key=round_key,
                 clone=clone, order=order, describe=lambda rules, c: _wounds_text(rules, c))
