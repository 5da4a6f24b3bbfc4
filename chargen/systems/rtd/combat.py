"""RTD combat (seed 2a-2c) as a procedure of ``draw``: to hit, dodge, criticals, parries.

One exchange: the attacker rolls to hit; a defender able to dodge rolls to dodge; an
Epic Hit that lands rolls on the critical chart (or crits outright, 6 against 1); a
parry or a free parry makes the defender counterattack, which cannot be dodged or
blocked, and whose damage gets the parry bonus.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from chargen.odds import Draw, enumerate_draws
from chargen.systems.rtd.rules_combat import Combat, TableRow


@dataclass(frozen=True, slots=True)
class Strike:
    face: int | None            # the to-hit face; None for an automatic critical counterattack
    row: TableRow | None        # the to-hit row used (a counterattack's Block reads as another row)
    critical_face: int | None   # the critical chart's face, when it was rolled
    critical: bool
    automatic: bool             # critical by the 6-against-1 rules, no chart roll
    multiplier: Fraction

    @property
    def lands(self) -> bool:
        return self.multiplier > 0


@dataclass(frozen=True, slots=True)
class Exchange:
    attack: Strike
    dodge_face: int | None
    dodge: TableRow | None
    free_parry: bool
    counter: Strike | None


def _critical(combat: Combat, row: TableRow, draw: Draw, modifier: int, purpose: str,
              multiplier: Fraction) -> tuple[int | None, bool, Fraction]:
    if not row.critical:
        return None, False, row.multiplier
    face = draw(combat.critical_die, purpose)
    crit = combat.is_critical(face, modifier)
    return face, crit, multiplier if crit else row.multiplier


def exchange(combat: Combat, draw: Draw, dodge: bool = True, crit_mod: int = 0,
             crit_multiplier: Fraction | None = None, counter_crit_multiplier: Fraction | None = None) -> Exchange:
    cm = crit_multiplier or combat.critical_multiplier
    ccm = counter_crit_multiplier or combat.critical_multiplier
    face = draw(combat.to_hit_die, "to hit")
    row = combat.hit_row(face)
    dg = draw(combat.dodge_die, "dodge") if dodge else None
    drow = combat.dodge_row(dg) if dg is not None else None
    lands = row.multiplier > 0 and not (drow and drow.avoids)
    if lands and dg is not None and (face, dg) == combat.attack_crits:
        attack = Strike(face, row, None, True, True, cm)
    elif lands:
        cf, crit, mult = _critical(combat, row, draw, crit_mod, "critical", cm)
        attack = Strike(face, row, cf, crit, False, mult)
    else:
        attack = Strike(face, row, None, False, False, Fraction(0))
    if drow is None:
        return Exchange(attack, None, None, False, None)
    (th_lo, th_hi), (dg_lo, dg_hi) = combat.free_parry
    free = not drow.counterattack and th_lo <= face <= th_hi and dg_lo <= dg <= dg_hi
    counter = None
    if drow.counterattack or free:
        counter = _counterattack(combat, draw, (face, dg) == combat.parry_crits, ccm)
    return Exchange(attack, dg, drow, free, counter)


def _counterattack(combat: Combat, draw: Draw, automatic: bool, multiplier: Fraction) -> Strike:
    if automatic:
        return Strike(None, None, None, True, True, multiplier)
    face = draw(combat.to_hit_die, "counterattack to hit")
    row = combat.hit_row(face)
    row = combat.hit_row_id(combat.counter_rows.get(row.id, row.id))
    if row.multiplier <= 0:
        return Strike(face, row, None, False, False, Fraction(0))
    cf, crit, mult = _critical(combat, row, draw, 0, "counterattack critical", multiplier)
    return Strike(face, row, cf, crit, False, mult)


def round_half_up(x: Fraction) -> int:
    return int((x + Fraction(1, 2)) // 1)


def strike_damage(strike: Strike, weapon_damage: int, bonus: int = 0) -> int:
    """Weapon damage times the multiplier, rounded half up, plus ``bonus`` if it lands."""
    if not strike.lands:
        return 0
    return round_half_up(weapon_damage * strike.multiplier) + bonus


def exchange_odds(combat: Combat, **kwargs) -> dict[tuple[Fraction, Fraction | None], Fraction]:
    """Exact chance of each (attack multiplier, counterattack multiplier or None) pair."""
    def outcome(draw: Draw):
        ex = exchange(combat, draw, **kwargs)
        return ex.attack.multiplier, (ex.counter.multiplier if ex.counter else None)
    return enumerate_draws(outcome)
