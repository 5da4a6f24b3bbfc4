"""The odds of an encounter: many fights between two sides, played by the engine's fight rules,
and what they add up to (each side's chance to win with its 95% interval, rounds, losses, and
the most dangerous combatant of each side).

Fight ``n`` of an estimate draws on its own stream (:func:`chargen.fight.play.fight_draws`), so
the figures are the same for any number of worker processes, any chunking and in any order.

An estimate's work is bounded before a fight is played (:func:`check_work`): fighters x fights x
the round limit, at most ``WORK_BUDGET`` fighter-rounds, which is 200 a side at the default fights
and rounds. Fights are played in chunks of at most ``CHUNK_WORK`` fighter-rounds, in worker processes
that the run stops at once when it is stopped (Ctrl-C, SIGTERM, SIGHUP: :mod:`chargen.run.procs`),
and each chunk played is reported to ``progress``.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import statistics
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass, field

from chargen import engines
from chargen.errors import OptionError
from chargen.fight.play import fight_draws, play
from chargen.fight.tactics import DEFAULT_MAX_ROUNDS, Tactics

DEFAULT_FIGHTS = 2000
MAX_FIGHTS = 100_000
LARGEST = 400  # fighters in the largest fight the budget is made for: 200 a side (chargen.run.fightsides.MAX_SIDE)
WORK_BUDGET = LARGEST * DEFAULT_FIGHTS * DEFAULT_MAX_ROUNDS  # fighter-rounds an estimate may play: 40,000,000
CHUNK_WORK = 200_000  # fighter-rounds a chunk of fights plays at most (a worker's task, a step of the progress)
Z95 = 1.959963984540054


@dataclass(frozen=True)
class SideSpec:
    """One side: its label (the party file or folder it came from) and its characters' documents."""

    label: str
    docs: tuple[dict, ...]


@dataclass
class Estimate:
    sides: tuple[SideSpec, SideSpec]
    system: str
    fights: int
    seed: int
    tactics: Tactics
    wins: list = field(default_factory=lambda: [0, 0])
    unended: int = 0          # stopped at the round limit
    mutual: int = 0           # both sides fell or fled in the same round
    rounds: list = field(default_factory=list)   # of the fights that ended
    out: list = field(default_factory=lambda: [0, 0])
    dead: list = field(default_factory=lambda: [0, 0])
    credits: dict = field(default_factory=dict)  # (side, index) -> enemies put out, over all fights
    fallen: dict = field(default_factory=dict)   # (side, index) -> [fights he ended out, fights he ended dead]
    losses: tuple = field(default_factory=lambda: ([], []))  # each fight a side lost: (rounds, its out, its dead)
    results: list = field(default_factory=list)  # each fight in order: (winner, rounds, ended)

    def share(self, side: int) -> tuple[float, float, float]:
        """Side ``side``'s chance to win and its 95% (Wilson score) interval."""
        return wilson(self.wins[side], self.fights)

    def most_dangerous(self, side: int) -> tuple[str, float] | None:
        """The combatant of ``side`` who put the most enemies out per fight, and that figure."""
        mine = [(n, i) for (s, i), n in self.credits.items() if s == side]
        if not mine:
            return None
        n, i = max(mine, key=lambda x: (x[0], -x[1]))
        return self.sides[side].docs[i]["identity"]["name"], n / self.fights

    def risk(self, side: int, index: int) -> tuple[float, float]:
        """The chance that combatant ``index`` of ``side`` ends a fight out of it, and dead."""
        out, dead = self.fallen.get((side, index), (0, 0))
        return out / self.fights, dead / self.fights


def wilson(k: int, n: int) -> tuple[float, float, float]:
    """The share ``k/n`` and its 95% Wilson score interval."""
    if n == 0:
        return 0.0, 0.0, 1.0
    p = k / n
    den = 1 + Z95 ** 2 / n
    mid = (p + Z95 ** 2 / (2 * n)) / den
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / den
    return p, max(0.0, mid - half), min(1.0, mid + half)


_JOB: tuple | None = None  # (kit, rules, profiles, seed, tactics): what forked workers play


def _play_range(bounds: tuple[int, int]) -> list[tuple]:
    kit, rules, profiles, seed, tactics = _JOB
    out = []
    for n in range(*bounds):
        o = play(kit, rules, profiles, fight_draws(seed, n), tactics)
        out.append((o.winner, o.rounds, o.ended, o.out, o.dead, tuple(sorted(o.credits.items())), o.fallen))
    return out


def check_work(fighters: int, fights: int, max_rounds: int,
               then: str = "give fewer --fights or --max-rounds, or smaller sides") -> None:
    """Refuse an estimate of more than ``WORK_BUDGET`` fighter-rounds (fighters x fights x the round
    limit: what it may have to play), before a fight is played; ``then``: what to do instead."""
    work = fighters * fights * max_rounds
    if work > WORK_BUDGET:
        raise OptionError(f"{fighters:,} fighters in {fights:,} fights of up to {max_rounds:,} rounds are {work:,} "
                          f"fighter-rounds to play, over the limit of {WORK_BUDGET:,} ({LARGEST // 2} a side in "
                          f"{DEFAULT_FIGHTS:,} fights of up to {DEFAULT_MAX_ROUNDS} rounds): {then}")


def estimate(module, sides: tuple[SideSpec, SideSpec], fights: int = DEFAULT_FIGHTS, seed: int = 0,
             tactics: Tactics = Tactics(), jobs: int = 1, progress: Callable[[int], None] | None = None) -> Estimate:
    """Play ``fights`` fights between ``sides`` under ``module``'s rules (on ``jobs`` processes);
    ``progress(n)``: n more fights played."""
    global _JOB
    if not 1 <= fights <= MAX_FIGHTS:
        raise OptionError(f"--fights {fights}: from 1 to {MAX_FIGHTS}")
    fighters = sum(len(side.docs) for side in sides)
    check_work(fighters, fights, tactics.max_rounds)
    engine = engines.require(module.engine)
    kit = engine.fight
    if kit is None:
        raise OptionError(f"--system {module.id} plays no fights yet")
    profiles = tuple([kit.profile(module.rules, d) for d in side.docs] for side in sides)
    _JOB = (kit, module.rules, profiles, seed, tactics)
    est = Estimate(sides, module.id, fights, seed, tactics)
    try:
        with closing(_results(chunks(fights, jobs, fighters * tactics.max_rounds), jobs)) as results:
            for rows in results:
                for row in rows:
                    _add(est, row)
                if progress is not None:
                    progress(len(rows))
    finally:
        _JOB = None
    return est


def chunks(fights: int, jobs: int, per_fight: int) -> list[tuple[int, int]]:
    """The fights as ranges: four a worker, each of at most ``CHUNK_WORK`` fighter-rounds (one fight at least)."""
    step = max(1, min(-(-fights // (jobs * 4)), CHUNK_WORK // max(1, per_fight)))
    return [(a, min(fights, a + step)) for a in range(0, fights, step)]


def _results(ranges: list[tuple[int, int]], jobs: int) -> Iterator[list[tuple]]:
    """Each range's fights played, in order: here, or in ``jobs`` forked workers."""
    fights = ranges[-1][1]
    jobs = max(1, min(jobs, fights // 200 or 1, len(ranges)))
    if jobs == 1 or "fork" not in multiprocessing.get_all_start_methods():
        for bounds in ranges:
            yield _play_range(bounds)
        return
    from chargen.run.procs import each, no_hangup_for_helpers, terminate, worker_signals

    with no_hangup_for_helpers():
        pool = multiprocessing.get_context("fork").Pool(jobs, worker_signals)
    with pool:
        try:
            yield from each(pool, pool.imap(_play_range, ranges), "fight")
        except BaseException:  # stopped (Ctrl-C, SIGTERM, SIGHUP), a worker died, or the caller closed us
            terminate(pool)  # the workers killed now, not at the end of their chunks
            raise


def _add(est: Estimate, row: tuple) -> None:
    winner, rounds, ended, out, dead, credits, fallen = row
    est.results.append((winner, rounds, ended))
    if winner is not None:
        est.wins[winner] += 1
        est.losses[1 - winner].append((rounds, out[1 - winner], dead[1 - winner]))
    elif ended:
        est.mutual += 1
    if ended:
        est.rounds.append(rounds)
    else:
        est.unended += 1
    for s in (0, 1):
        est.out[s] += out[s]
        est.dead[s] += dead[s]
    for k, n in credits:
        est.credits[k] = est.credits.get(k, 0) + n
    for s, i, died in fallen:
        tally = est.fallen.setdefault((s, i), [0, 0])
        tally[0] += 1
        tally[1] += died


def rounds_summary(est: Estimate) -> tuple[float, int, int] | None:
    """The median rounds of the fights that ended, and the 10th and 90th percentiles."""
    if not est.rounds:
        return None
    r = sorted(est.rounds)
    return statistics.median(r), r[int(0.1 * (len(r) - 1))], r[int(0.9 * (len(r) - 1))]


def default_jobs() -> int:
    return max(1, min(os.cpu_count() or 1, 8))
