"""D100 II previous experience and archetypes at generation: what the request asks, as small steps.

A :class:`Plan` is what one character is made as: its archetype (or none),
profession (or none) and years. Previous experience (professions.yaml) then
adds its yearly gains to skills and weapons, replaces the background's
weapons, armour and money with the profession's, and makes the character
16 + years old. A request with no archetype and no profession makes the
seed's 16-year-old, roll for roll as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from chargen import dice as dicemod
from chargen import archetypes
from chargen.archetypes import pick
from chargen.dice import Roller
from chargen.errors import DiceError
from chargen.systems.d100.rules_archetypes import Archetype
from chargen.systems.d100.rules_experience import Profession


@dataclass(frozen=True, slots=True)
class Plan:
    archetype: Archetype | None = None
    profession: Profession | None = None
    years: int = 0
    years_dice: str = ""

    @property
    def experienced(self) -> bool:
        return self.profession is not None

    @property
    def undergone(self) -> bool:
        """Whether previous experience took place: a profession and at least one year. With 0 years
        the character is the seed's 16-year-old ("Characters that undergo previous experience will
        get the same basic gear, but their weapons, armour and wealth will be as given under their
        profession"): the background's money and kit (an archetype's own equipment still applies)."""
        return self.profession is not None and self.years > 0


def check_request(rules, request) -> list[str]:
    """The problems of ``request`` against ``rules``: unknown ids, years that are not 0 to max_years."""
    problems = archetypes.unknown(request, rules.archetypes)
    professions = rules.experience.professions
    if request.profession is not None and request.profession not in professions:
        problems.append(f"--profession: unknown profession '{request.profession}' "
                        f"(expected one of: {', '.join(sorted(professions))})")
    elif request.profession is not None and not professions[request.profession].backgrounds:
        problems.append(f"--profession: '{request.profession}' is open to no background of this module "
                        "(its backgrounds were removed)")
    if request.years is not None:
        problems += _check_years(request.years, rules.experience.max_years)
        arche = rules.archetypes.get(request.archetype or "")
        if request.profession is None and (arche is None or arche.profession is None):
            problems.append("--years: years of previous experience need a profession "
                            "(add --profession, or an --archetype with one)")
    elif request.profession is not None and (request.archetype is None or request.archetype not in rules.archetypes
                                             or rules.archetypes[request.archetype].profession is None):
        problems.append("--profession: give the years of previous experience too (--years N or dice such as 1D6)")
    if request.profession in professions and request.archetype in rules.archetypes:
        allowed = set(professions[request.profession].backgrounds)
        arche = rules.archetypes[request.archetype]
        bad = [b for b in arche.backgrounds if b not in allowed]
        if bad:
            problems.append(f"--profession: '{request.profession}' is not open to background {', '.join(bad)} "
                            f"of archetype '{arche.id}' (its backgrounds: {', '.join(sorted(allowed))})")
    return problems


def _check_years(text: str, max_years: int) -> list[str]:
    try:
        d = dicemod.parse(text)
    except DiceError as e:
        return [f"--years: {e}"]
    if d.minimum < 0 or d.maximum > max_years:
        what = f"{d} years is" if d.minimum == d.maximum else f"{d} can give {d.minimum} to {d.maximum} years, which is"
        return [f"--years: {what} out of range (expected 0 to {max_years}: professions.yaml max_years)"]
    return []


def draw_background(rules, roller: Roller, request) -> str:
    """The background: the archetype's (fixed or weighted), else the table's roll; with a
    requested profession and no archetype, the table's backgrounds open to it, weighted by their ranges."""
    arche = rules.archetypes.get(request.archetype) if request.archetype else None
    if arche is not None:
        return pick(roller, arche.backgrounds, arche.weights, "background")
    if request.profession is not None:
        allowed = rules.experience.professions[request.profession].backgrounds
        rows = [(lo, hi, bg) for lo, hi, bg in rules.backgrounds.rows if bg.id in allowed]
        return pick(roller, tuple(bg.id for _, _, bg in rows), tuple(hi - lo + 1 for lo, hi, _ in rows), "background")
    return rules.backgrounds.lookup(roller.die(rules.backgrounds.die, "background")).id


def plan(rules, request, roller: Roller) -> Plan:
    """What the character is made as; rolls the years of experience (request over archetype)."""
    arche = rules.archetypes.get(request.archetype) if request.archetype else None
    prof_id = request.profession or (arche.profession if arche else None)
    if prof_id is None:
        return Plan(arche)
    dice = dicemod.parse(request.years) if request.years is not None else arche.years
    years = max(0, roller.roll(dice, "experience.years"))
    return Plan(arche, rules.experience.professions[prof_id], years, str(dice))


def skill_gains(p: Plan) -> dict[str, list[tuple[str, int]]]:
    """Per skill, the gains before capping: (source, amount) for the profession and the archetype."""
    out: dict[str, list[tuple[str, int]]] = {}
    if p.profession is not None:
        for sk, per_year in p.profession.skills:
            out.setdefault(sk, []).append(("profession", per_year * p.years))
    if p.archetype is not None:
        for sk, extra in p.archetype.skills:
            out.setdefault(sk, []).append(("archetype", extra))
    return out


def sources(p: Plan, before: int, gains: list[tuple[str, int]], cap: int) -> list[dict]:
    """The profession's and archetype's source entries for a value at ``before``: each gain in
    turn, capped at ``cap`` (zero-value gains are left out)."""
    out = []
    value = before
    for source, amount in gains:
        g = max(0, min(amount, cap - value))
        if g:
            entry = {"source": source, "value": g}
            entry.update({"id": p.profession.id, "years": p.years} if source == "profession" else {"id": p.archetype.id})
            out.append(entry)
            value += g
    return out


def cap_of(p: Plan, weapon: bool = False) -> int:
    """The highest value experience takes a skill (or weapon) to; no profession: 100 (default)."""
    if p.profession is None:
        return 100
    return p.profession.weapon_cap if weapon else p.profession.cap


def weapon_gains(p: Plan, w=None) -> list[tuple[str, int]]:
    """The profession's and archetype's gains to a trained weapon ``w`` (an archetype's
    ``weapon_skill``, and its part for ``w``'s kind or id)."""
    out = []
    if p.profession is not None:
        out.append(("profession", p.profession.weapon_per_year * p.years))
    if p.archetype is not None:
        extra = p.archetype.weapon_skill + sum(n for key, n in p.archetype.weapon_skill_by
                                               if w is not None and key in (w.kind, w.id))
        if extra:
            out.append(("archetype", extra))
    return out


def kit_entries(p: Plan) -> tuple | None:
    """The weapons, armour and kit the profession gives (the archetype's in their place); None: the
    background's (also after 0 years: see :attr:`Plan.undergone`)."""
    if p.archetype is not None and p.archetype.equipment is not None:
        return p.archetype.equipment
    return p.profession.equipment if p.undergone else None


def profession_money(rules, p: Plan, bg, roller: Roller) -> dict:
    """The profession's money in place of the background's (starting wealth "is not cumulative with
    wealth gained in previous experience"); a noble's allowance goes on until ``income_until_age``."""
    prof = p.profession
    amount = roller.roll(prof.money_dice, "money") * prof.money_times
    dice = str(prof.money_dice) if prof.money_times == 1 else f"{prof.money_times}x{prof.money_dice}"
    if prof.money_per_year:
        amount, dice = amount * p.years, f"{dice} per year x {p.years}"
    age = rules.age + p.years
    income = None
    if bg.income and (bg.income_until_age is None or age < bg.income_until_age):
        income = roller.roll(bg.money_dice, "money.allowance") * bg.money_times
    return {"starting": amount, "dice": dice, "income": income, "income_until_age": bg.income_until_age,
            "currency": rules.currency.get("abbr", "")}


def experience_block(p: Plan) -> dict:
    return {"profession": {"id": p.profession.id, "label": p.profession.label},
            "years": p.years, "years_dice": p.years_dice}


def signature(doc: dict, rank) -> int:
    """An archetype's signature figure (archetypes.yaml ``rank.signature``): a skill's value, or the
    best attack (a shield's parry) among the matching weapons the character carries and can use
    (0 when it has none: it cannot fight with them at all)."""
    if rank.kind == "skill":
        return next((s["value"] for s in doc["skills"] if s["id"] == rank.what), 0)
    match = (lambda w: w["kind"] == rank.what) if isinstance(rank.what, str) else (lambda w: w["id"] in rank.what)
    return max((w["parry"] if w["kind"] == "shield" else w["attack"] for w in doc["weapons"]
                if match(w) and not w.get("below_minimum")), default=0)
