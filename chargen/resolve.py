"""Action resolution at the table: the shared result types and the dispatch to engines.

An engine that resolves actions declares ``resolve(rules, roller, options) -> Resolution``
and ``roll_options``, the options it takes (:class:`chargen.engines.RollOption`). ``options`` maps every roll option
the caller knows to its value (``None`` or ``False`` when not given); an option that
is given but does not apply to the system is an :class:`OptionError`.

A :class:`Resolution` keeps the trail of what was rolled and which table row each
roll used (:class:`Step`), so a game master can check every result by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from chargen import engines
from chargen.dice import Roller
from chargen.engines import flag
from chargen.errors import OptionError
from chargen.rules import RulesModule


@dataclass(frozen=True, slots=True)
class Step:
    """One roll (or one rule applied) and the table row it used."""

    table: str                    # "attack", "fumble table", "success chart 2", "damage"
    row: str                      # the row used: "Hit", "97 Bad", "Regular success"
    dice: str = ""                # what was rolled: "2D10", "1D20"; empty for a rule without dice
    rolled: tuple[int, ...] = ()  # the faces, in order
    read: str | None = None       # the number the row was looked up with, as the table reads it ("00")
    text: str = ""                # what the row says or how a figure was reached
    depth: int = 0                # nesting (rolls made because of an earlier row)

    def to_dict(self) -> dict:
        return {"table": self.table, "dice": self.dice or None, "rolled": list(self.rolled),
                "read": self.read, "row": self.row, "text": self.text, "depth": self.depth}

    def line(self) -> str:
        head = "  " * (self.depth + 1) + self.table
        if self.dice:
            head += f" {self.dice} [{' '.join(map(str, self.rolled))}]"
        if self.read is not None:
            head += f" -> {self.read}"
        return f"{head}: {self.row}" + (f" - {self.text}" if self.text else "")


@dataclass(frozen=True)
class Resolution:
    system: str
    action: str                   # "attack", "stat", "action", "combat", "skill", "resistance", "opposed"
    inputs: dict
    outcome: str                  # the outcome's id
    summary: str                  # one line for people
    steps: tuple[Step, ...]
    result: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"system": self.system, "action": self.action, "inputs": dict(self.inputs),
                "outcome": self.outcome, "summary": self.summary, "result": dict(self.result),
                "steps": [s.to_dict() for s in self.steps]}

    def text(self) -> str:
        return "\n".join([self.summary] + [s.line() for s in self.steps]) + "\n"


def given(value: object) -> bool:
    return value is not None and value is not False


def check_options(system: str, accepted: tuple[str, ...], options: dict) -> dict:
    """Refuse options given for another system; return only the ones this system takes."""
    stray = [k for k, v in options.items() if given(v) and k not in accepted]
    if stray:
        raise OptionError(f"{flag(stray[0])} does not apply to --system {system} "
                          f"(it takes: {', '.join(flag(a) for a in accepted)})")
    return {k: options.get(k) for k in accepted}


def require(options: dict, name: str, why: str) -> object:
    value = options.get(name)
    if not given(value):
        raise OptionError(f"{why} needs {flag(name)}")
    return value


def resolve(module: RulesModule, roller: Roller, options: dict) -> Resolution:
    engine = engines.require(module.engine)
    if engine.resolve is None:
        raise OptionError(f"--system {module.id} has no action resolution")
    accepted = check_options(module.id, tuple(o.name for o in engine.roll_options), options)
    return engine.resolve(module.rules, roller, accepted)


def percent(p: Fraction) -> str:
    """An exact chance as a percentage with at most two decimals: 7/15 -> '46.67%', 1/2 -> '50%'."""
    value = round(p * 100, 2)
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return f"{text}%"


def odds_entry(p: Fraction) -> dict:
    """An exact chance for a sheet: the fraction, a float and a percentage text."""
    return {"fraction": f"{p.numerator}/{p.denominator}", "value": float(p), "percent": percent(p)}
