"""The exact odds of a small fight: a Markov chain over the fighters' states, round by round.

Each round is the engine's plan (:meth:`plan`, no dice) and its steps (:meth:`step`); the chain
branches after every step over every value its draws can take (:func:`chargen.combat.enumerate_outcomes`,
so the very code that plays a fight gives the chances), merging paths that reach the same state
(the engine's ``key`` of every fighter). Practical for a duel; a large fight has too many states.
"""

from __future__ import annotations

from chargen.combat import enumerate_outcomes
from chargen.errors import TooManyRolls
from chargen.fight.play import settle, winner_of

MAX_STATES = 200_000


def exact(kit, rules, profiles: tuple[list, list], tactics) -> dict[str, float]:
    """The chance that side 0 wins, side 1 wins, both fall or flee in one round, or the fight is not
    over after the tactics' round limit: ``{"0", "1", "both", "unended"}``."""
    sides = tuple([kit.fresh(p, s, i) for i, p in enumerate(side)] for s, side in enumerate(profiles))
    result = {"0": 0.0, "1": 0.0, "both": 0.0, "unended": 0.0}
    dist = {_key(kit, sides, None): (1.0, sides)}
    memo: dict = {}
    rounds: dict = {}  # a round's end states from a start state: a state recurs (a round with no blow)
    for _ in range(tactics.max_rounds):
        after: dict = {}
        for k0, (p, start) in dist.items():
            if k0 not in rounds:
                rounds[k0] = _round(kit, rules, start, tactics, memo)
            for k, (q, state) in rounds[k0].items():
                _add(after, k, p * q, state)
        dist = {}
        for k, (p, state) in after.items():
            done, fled = settle(state, tactics)
            if any(done) or any(fled):
                w = winner_of(done, fled)
                result["both" if w is None else str(w)] += p
            else:
                _add(dist, _key(kit, state, None), p, state)
        if len(dist) > MAX_STATES:
            raise TooManyRolls(f"the fight has more than {MAX_STATES} states: too large to enumerate")
        if not dist:
            break
    result["unended"] = sum(p for p, _ in dist.values())
    return result


def _add(dist: dict, k, p: float, state) -> None:
    old = dist.get(k)
    dist[k] = (p + (old[0] if old else 0.0), state)


def _key(kit, sides, rnd) -> tuple:
    """A state between rounds (``rnd`` None), or within one (with what lasts the round)."""
    if rnd is None:
        return tuple(tuple(kit.key(c) for c in side) for side in sides), ()
    return tuple(tuple(kit.key(c) + kit.round_key(c) for c in side) for side in sides), rnd.key()


def _copy(kit, sides, rnd):
    new = tuple([kit.clone(c) for c in side] for side in sides)
    if rnd is None:
        return new, None
    return new, type(rnd)(rnd.steps, tuple(dict(a) for a in rnd.aimed))


def _round(kit, rules, start, tactics, memo: dict) -> dict:
    """The states a round from ``start`` ends in, each with its chance."""
    sides, _ = _copy(kit, start, None)
    rnd = kit.plan(rules, sides, tactics)
    dist = {_key(kit, sides, rnd): (1.0, (sides, rnd))}
    for what in rnd.steps:
        nxt: dict = {}
        for k, (p, (state, r)) in dist.items():
            for k2, (q, s2) in _step(kit, rules, state, r, what, tactics, memo, k).items():
                _add(nxt, k2, p * q, s2)
        dist = nxt
    out: dict = {}
    for p, (state, _) in dist.values():
        _add(out, _key(kit, state, None), p, state)
    return out


def _step(kit, rules, state, rnd, what, tactics, memo: dict, k) -> dict:
    cached = memo.get((what, k))
    if cached is not None:
        return cached
    reached: dict = {}

    def procedure(draws):
        sides, r = _copy(kit, state, rnd)
        kit.step(rules, draws, sides, tactics, lambda a, b: None, r, what)
        k2 = _key(kit, sides, r)
        reached.setdefault(k2, (sides, r))
        return k2

    out = {k2: (float(p), reached[k2]) for k2, p in enumerate_outcomes(procedure, exact=False).items()}
    memo[(what, k)] = out
    return out
