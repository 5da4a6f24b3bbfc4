"""``chargen stats``: the spread of an archetype's key figures over many seeded characters.

A rules author calibrates an archetype by its percentiles (hit points, attack,
best weapon, key skills) instead of generating and reading NPCs by hand. The
characters are the batch's own (``make_character(module, seed, i, request)``
for i in 0..n-1), so the figures are reproducible with the seed. Each engine
names its key figures in its view (:attr:`chargen.view.CharacterView.key_figures`).
"""

from __future__ import annotations

from dataclasses import dataclass

from chargen import engines
from chargen.generate import GenerationRequest, make_character
from chargen.require import Budget
from chargen.rules import RulesModule

PERCENTILES = (5, 25, 50, 75, 95)


@dataclass(frozen=True, slots=True)
class Spread:
    label: str
    n: int
    low: int
    high: int
    mean: float
    at: tuple[int, ...]  # the value at each of PERCENTILES


def percentile(ordered: list[int], p: int) -> int:
    """The nearest-rank percentile of a sorted list: the smallest value with at least p% at or below it."""
    rank = max(1, -(-p * len(ordered) // 100))
    return ordered[rank - 1]


def spread(label: str, values: list[int]) -> Spread:
    ordered = sorted(values)
    return Spread(label, len(ordered), ordered[0], ordered[-1], sum(ordered) / len(ordered),
                  tuple(percentile(ordered, p) for p in PERCENTILES))


@dataclass(frozen=True, slots=True)
class RankShare:
    """How an archetype's sample sits against its declared rank (archetypes.yaml ``rank``)."""
    band: str            # "skilled (51-70)"
    signature: str       # "weapon missile"
    of: str              # what the module's bands measure
    n: int
    in_band: int

    def line(self) -> str:
        return (f"rank: {self.band} on {self.signature} ({self.of}); {self.in_band} of {self.n} in band "
                f"({100 * self.in_band / self.n:.1f}%)\n")


def sample(module: RulesModule, request: GenerationRequest, count: int, seed: int) -> list[Spread]:
    """The key figures of characters 0..count-1 of ``seed``, each figure's spread, in first-seen order."""
    return sample_with_rank(module, request, count, seed)[0]


def sample_with_rank(module: RulesModule, request: GenerationRequest, count: int,
                     seed: int) -> tuple[list[Spread], RankShare | None]:
    """:func:`sample`, and with an archetype that declares a rank, the share of the sample in its band."""
    engine = engines.require(module.engine)
    arche = getattr(module.rules, "archetypes", {}).get(request.archetype or "")
    rank = getattr(arche, "rank", None) if engine.signature is not None else None
    values: dict[str, list[int]] = {}
    held = 0
    budget = Budget()
    for i in range(count):
        doc = make_character(module, seed, i, request, (budget, i))
        for figure in engine.view(doc, module.rules).key_figures:
            values.setdefault(figure.label, []).append(int(figure.value))
        if rank is not None:
            held += rank.band.holds(engine.signature(doc, rank))
    share = None
    if rank is not None:
        share = RankShare(f"{rank.band.id} ({rank.band.span()})", rank.shown, rank.of, count, held)
    return [spread(label, v) for label, v in values.items()], share


def table(spreads: list[Spread]) -> str:
    """The spreads as a fixed-width text table, one figure a line."""
    head = ["figure", "n", "min", *(f"p{p}" for p in PERCENTILES), "max", "mean"]
    rows = [[s.label, str(s.n), str(s.low), *map(str, s.at), str(s.high), f"{s.mean:.1f}"] for s in spreads]
    width = max(len(r[0]) for r in [head, *rows])
    lines = []
    for r in [head, *rows]:
        lines.append(r[0].ljust(width) + "".join(c.rjust(6) for c in r[1:]))
    return "\n".join(lines) + "\n"
