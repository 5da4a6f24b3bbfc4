"""One fight between two sides, played round by round by an engine's fight rules.

An engine that plays fights declares ``Engine.fight``: an object with

- ``profile(rules, doc) -> profile``: a character as a combatant, built once per estimate;
- ``fresh(profile, side, index) -> combatant``: the combatant at a fight's start (mutable, one fight);
  a combatant has ``side``, ``index``, ``name``, ``out`` (can no longer fight), ``dead``, and
  ``vigour`` (its hit points left, for the ``weakest`` tactic);
- ``round(rules, draws, sides, tactics, credit)``: one round by the seed's order, on the combatants
  in place; ``credit(striker, victim)`` is called when a blow puts ``victim`` out;
- ``key(combatant) -> hashable``: its state (for the exact chain, :mod:`chargen.fight.exact`);
- ``order(rules, profile) -> rows``: its lines of the combat-order table.

Every random value comes from ``draws`` (:mod:`chargen.combat`): a fight's own stream
(:func:`fight_draws`), so the same seed gives the same fights in any process and order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from chargen.dice import Dice
from chargen.seeds import HashRng

STREAM = "chargen/1/fight"


@dataclass(frozen=True)
class FightRules:
    """An engine's fight rules (``Engine.fight``): the functions this module's docstring describes."""

    profile: Callable
    fresh: Callable
    round: Callable
    plan: Callable
    step: Callable
    key: Callable
    round_key: Callable
    clone: Callable
    order: Callable
    describe: Callable | None = None  # describe(rules, combatant) -> his state in words, for a fight's log


class FightDraws:
    """Draws for one fight: the dice of :class:`chargen.dice.Roller` without its log (a fight rolls
    thousands), on the fight's own stream."""

    __slots__ = ("rng",)
    quiet = True  # a fight's attacks write no steps (chargen.systems.d100.attack.Trail)

    def __init__(self, rng):
        self.rng = rng

    def die(self, sides: int, purpose: str, key=None) -> int:
        return int(self.rng.random() * sides) + 1

    def roll(self, dice: Dice, purpose: str) -> int:
        total = 0
        rng = self.rng
        for t in dice.terms:
            if t.sides == 0:
                total += t.sign * t.count
            else:
                for _ in range(t.count):
                    total += t.sign * (int(rng.random() * t.sides) + 1)
        return total

    def faces(self) -> tuple[int, ...]:
        return ()


def fight_draws(seed: int, number: int) -> FightDraws:
    """The draws of fight ``number`` of an estimate made with ``seed``."""
    return FightDraws(HashRng(f"{STREAM}:{seed}:{number}:".encode("ascii")))


def seed_digest(seed: int) -> str:
    return hashlib.sha256(f"{STREAM}:{seed}".encode("ascii")).hexdigest()[:12]


@dataclass
class Round:
    """A round's plan, made at its start (an engine's ``plan``): its steps, and the attacks each side
    has aimed at each enemy so far (the ``spread`` tactic)."""

    steps: tuple
    aimed: tuple = ()

    def key(self) -> tuple:
        return tuple(tuple(sorted(a.items())) for a in self.aimed)


@dataclass(slots=True)
class Outcome:
    """How one fight ended: ``winner`` 0 or 1, None when it did not end (the round limit) or both
    sides fell at once; the rounds played; each side's fighters out and dead; the enemies each
    combatant put out (by (side, index)); every combatant out at the end, as (side, index, dead)."""

    winner: int | None
    rounds: int
    out: tuple[int, int]
    dead: tuple[int, int]
    fled: tuple[bool, bool]
    credits: dict
    ended: bool
    fallen: tuple = ()


def play(kit, rules, profiles: tuple[list, list], draws, tactics) -> Outcome:
    """Play one fight to its end, or to the tactics' round limit."""
    sides = tuple([kit.fresh(p, s, i) for i, p in enumerate(side)] for s, side in enumerate(profiles))
    credits: dict = {}

    def credit(striker, victim) -> None:
        if striker.side != victim.side:
            credits[(striker.side, striker.index)] = credits.get((striker.side, striker.index), 0) + 1

    rounds = 0
    while rounds < tactics.max_rounds:
        rounds += 1
        kit.round(rules, draws, sides, tactics, credit)
        done, fled = settle(sides, tactics)
        if any(done) or any(fled):
            return _outcome(sides, rounds, done, fled, credits, True)
    return _outcome(sides, rounds, [False, False], [False, False], credits, False)


def settle(sides, tactics) -> tuple[list, list]:
    """After a round: which sides are all out, and which break and flee (more than the tactics'
    ``morale`` share of it out, while both sides still stand)."""
    done = [all(c.out for c in side) for side in sides]
    fled = [not any(done) and broken(side, tactics.morale) for side in sides]
    return done, fled


def winner_of(done: list, fled: list) -> int | None:
    lost = [done[s] or fled[s] for s in (0, 1)]
    return None if lost[0] == lost[1] else (1 if lost[0] else 0)


def broken(side: list, morale) -> bool:
    """Whether a side breaks: more than ``morale`` of it out (1: never, it fights to the last)."""
    return morale < 1 and sum(c.out for c in side) > morale * len(side)


def _outcome(sides, rounds: int, done: list, fled: list, credits: dict, ended: bool) -> Outcome:
    winner = winner_of(done, fled)
    out = tuple(sum(c.out for c in side) for side in sides)
    dead = tuple(sum(c.dead for c in side) for side in sides)
    fallen = tuple((c.side, c.index, bool(c.dead)) for side in sides for c in side if c.out)
    return Outcome(winner, rounds, out, dead, tuple(fled), credits, ended, fallen)
