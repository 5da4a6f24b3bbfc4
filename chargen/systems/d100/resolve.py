"""Resolving D100 II rolls: skill rolls with their degree, resistance and opposed rolls.

``chargen roll --system d100 --chance 65`` (``--against 120`` makes it opposed) or
``--active 12 --passive 14`` (resistance).
"""

from __future__ import annotations

from chargen.dice import Roller
from chargen.errors import OptionError
from chargen.resolve import Resolution, Step, given
from chargen.systems.d100.degrees import (SUCCEEDS, d100_text, degree, degree_ranges, opposed_chances,
                                          resistance_chance)

ROLL_OPTIONS = ("chance", "against", "active", "passive")
CHANCE_RANGE = (0, 1000)
SCORE_RANGE = (0, 1000)


def resolve(rules, roller: Roller, options: dict) -> Resolution:
    has = {k for k in ROLL_OPTIONS if given(options.get(k))}
    if "chance" in has and has & {"active", "passive"}:
        raise OptionError("--chance (a skill roll) and --active/--passive (a resistance roll) are two kinds of roll; give one")
    if has & {"active", "passive"}:
        for name in ("active", "passive"):
            if name not in has:
                raise OptionError(f"a resistance roll needs --{name}")
        return resistance(roller, _check(options["active"], "active"), _check(options["passive"], "passive"))
    if "chance" not in has:
        raise OptionError("--system d100 needs --chance N (or --active N --passive N for a resistance roll)")
    chance = _check(options["chance"], "chance")
    if "against" in has:
        return opposed(roller, chance, _check(options["against"], "against"))
    return skill(roller, chance)


def _check(value: int, name: str) -> int:
    lo, hi = CHANCE_RANGE if name in ("chance", "against") else SCORE_RANGE
    if not lo <= value <= hi:
        raise OptionError(f"--{name} {value} is out of range ({lo} to {hi})")
    return value


def _ranges_text(chance: int) -> str:
    r = degree_ranges(chance)

    def span(lo: int, hi: int) -> str:
        return d100_text(lo) if lo == hi else f"{d100_text(lo)}-{d100_text(hi)}"
    return (f"critical {span(*r['critical'])}, special {span(*r['special'])}, "
            f"success {span(*r['success'])}, fumble {span(*r['fumble'])}")


def _why(roll: int, chance: int, result: str) -> str:
    if roll == 1:
        return "01 is always a critical"
    if roll == 100:
        return "00 is always a fumble"
    if 96 <= roll <= 99:
        return "96-99 always fail" + (" (in the fumble range)" if result == "fumble" else "")
    if 2 <= roll <= 5 and roll > chance:
        return "02-05 always succeed"
    return f"{d100_text(roll)} is {'at or under' if roll <= chance else 'over'} {chance}"


def roll_step(roller: Roller, chance: int, table: str, purpose: str, depth: int = 0) -> tuple[Step, int, str]:
    roll = roller.die(100, purpose)
    result = degree(roll, chance)
    text = f"{_why(roll, chance, result)} ({_ranges_text(chance)})"
    return Step(table, result.capitalize(), "1D100", (roll,), d100_text(roll), text, depth), roll, result


def _entry(roll: int, chance: int, result: str) -> dict:
    return {"roll": roll, "read": d100_text(roll), "chance": chance, "degree": result,
            "succeeded": result in SUCCEEDS, "ranges": {k: list(v) for k, v in degree_ranges(chance).items()}}


def skill(roller: Roller, chance: int) -> Resolution:
    step, roll, result = roll_step(roller, chance, "roll", "skill")
    summary = f"D100 roll (chance {chance}): {result}"
    return Resolution("d100", "skill", {"chance": chance}, result, summary, (step,), _entry(roll, chance, result))


def resistance(roller: Roller, active: int, passive: int) -> Resolution:
    chance = resistance_chance(active, passive)
    rule = Step("resistance", f"{active} against {passive}",
                text=f"50% {'+' if active >= passive else '-'} 5% x {abs(active - passive)} = {chance}%")
    step, roll, result = roll_step(roller, chance, "roll", "resistance")
    verdict = "the active side wins" if result in SUCCEEDS else "the passive side resists"
    summary = f"D100 resistance roll ({active} against {passive}, chance {chance}): {result}, {verdict}"
    return Resolution("d100", "resistance", {"active": active, "passive": passive}, result, summary,
                      (rule, step), _entry(roll, chance, result))


def opposed(roller: Roller, a: int, b: int) -> Resolution:
    ma, mb = opposed_chances(a, b)
    rule = Step("chances over 100%", f"{a} against {b}", text=f"modified chances {ma} and {mb}")
    step_a, roll_a, res_a = roll_step(roller, ma, "side A", "opposed.a")
    step_b, roll_b, res_b = roll_step(roller, mb, "side B", "opposed.b")
    summary = f"D100 opposed roll ({a} against {b}, modified {ma} and {mb}): A {res_a}, B {res_b}"
    result = {"a": _entry(roll_a, ma, res_a), "b": _entry(roll_b, mb, res_b)}
    return Resolution("d100", "opposed", {"chance": a, "against": b}, f"{res_a}/{res_b}", summary,
                      (rule, step_a, step_b), result)
