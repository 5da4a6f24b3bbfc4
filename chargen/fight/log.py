"""One whole fight of an estimate, blow by blow, to read at the table (``chargen fight --log``).

The fight is the estimate's own: fight ``n`` played again on its own stream
(:func:`chargen.fight.play.fight_draws`) by the engine's plan and steps, which is how
:func:`chargen.fight.play.play` plays it; after each step the log says what changed, in the
engine's words (``FightRules.describe``).
"""

from __future__ import annotations

import statistics
from collections import Counter

from chargen import engines
from chargen.fight.estimate import Estimate
from chargen.fight.play import fight_draws, settle, winner_of


def median_fight(est: Estimate) -> int:
    """The first fight with the commonest ending (a side's win, or neither) and, among those, the
    median number of rounds (the lower median)."""
    common = Counter(w for w, _, _ in est.results).most_common(1)[0][0]
    rounds = statistics.median_low(r for w, r, _ in est.results if w == common)
    return next(n for n, (w, r, _) in enumerate(est.results) if w == common and r == rounds)


def fight_log(module, est: Estimate, number: int) -> list[str]:
    """Fight ``number`` of ``est``, blow by blow."""
    kit = engines.require(module.engine).fight
    rules, draws, tactics = module.rules, fight_draws(est.seed, number), est.tactics
    sides = tuple([kit.fresh(kit.profile(rules, d), s, i) for i, d in enumerate(side.docs)]
                  for s, side in enumerate(est.sides))
    lines = [f"fight {number + 1:,} of {est.fights:,} (the median fight):"]
    for r in range(1, tactics.max_rounds + 1):
        lines.append(f"  round {r}")
        rnd = kit.plan(rules, sides, tactics)
        for what in rnd.steps:
            before = _states(kit, rules, sides)
            kit.step(rules, draws, sides, tactics, lambda a, b: None, rnd, what)
            lines += _changes(kit, rules, sides, what, before)
        done, fled = settle(sides, tactics)
        if any(done) or any(fled):
            lines.append("  " + _ending(est, winner_of(done, fled), done, fled))
            return lines
    lines.append(f"  not over after {tactics.max_rounds} rounds: it stops, for neither side")
    return lines


def _states(kit, rules, sides) -> list:
    return [(kit.describe(rules, c) if kit.describe else "", c.out) for side in sides for c in side]


def _actor(sides, what):
    kind, ids = what if isinstance(what, tuple) and len(what) == 2 else (None, None)
    if kind == "attack" and isinstance(ids, tuple):
        return sides[ids[0]][ids[1]]
    if kind == "act":
        return next((c for side in sides for c in side if getattr(c, "turn", None) == ids), None)
    return None


def _changes(kit, rules, sides, what, before: list) -> list[str]:
    every = [c for side in sides for c in side]
    said = []
    for c, (text, out) in zip(every, before):
        now = kit.describe(rules, c) if kit.describe else ""
        if now != text or c.out != out:
            gone = ("" if not c.out or out else " - dead" if c.dead else
                    " - out of the fight" if now != text else " leaves the fight")
            said.append(f"{c.name} {now if now != text else ''}{gone}".replace("  ", " ").rstrip())
    actor = _actor(sides, what)
    idle = actor is None or actor.out or getattr(actor, "ready", True) is False or getattr(actor, "hit", False)
    if not said and idle:
        return []
    if actor is None:
        return ["    " + "; ".join(said)]
    sr = getattr(actor, "sr", None)
    head = (f"SR {sr}: " if sr is not None else "") + f"{actor.name} attacks"
    return [f"    {head}: " + ("; ".join(said) if said else "no harm")]


def _ending(est: Estimate, winner: int | None, done: list, fled: list) -> str:
    how = [f"{est.sides[s].label} {'all down' if done[s] else 'break and flee'}" for s in (0, 1) if done[s] or fled[s]]
    won = "neither side wins" if winner is None else f"{est.sides[winner].label} win"
    return f"{won}: {', '.join(how)}"
