"""One RTD exchange between two saved characters (``chargen roll --attacker --defender``).

The exchange is :func:`chargen.systems.rtd.combat.exchange` (to hit, dodge, block,
parry and its counterattack, crushing and critical hits), played with the
attacker's weapon and the defender's best weapon from their documents; the wound
each blow makes to a body part is wounding.yaml's (``source: default``: the seed
gives the wound levels, not how damage makes them). --parry none: the defender
cannot dodge ("If your enemy is able to dodge"); --parry ID, --defence and --aim
do not apply.
"""

from __future__ import annotations

from fractions import Fraction

from chargen import paths
from chargen.combat import Choices
from chargen.errors import CharacterError, OptionError
from chargen.resolve import Resolution, Step
from chargen.systems.rtd.combat import exchange, strike_damage
from chargen.systems.rtd.resolve import _exchange_steps


def attack(rules, draws, attacker: dict, defender: dict, choices: Choices) -> Resolution:
    if rules.wounding is None:
        raise OptionError("this RTD module has no wounding table (wounding.yaml)")
    for name in ("defence", "aim"):
        if getattr(choices, name) is not None:
            raise OptionError(f"--{name} does not apply to RTD (the seed's exchange has no defence or aiming)")
    if choices.parry not in (None, "none"):
        raise OptionError("--parry in RTD is none (the defender cannot dodge) or not given: a parry is a dodge roll")
    weapon = _weapon(attacker, choices.weapon)
    counter_weapon = paths.best_weapon(defender)
    ex = exchange(rules.combat, lambda sides, purpose: draws.die(sides, purpose), dodge=choices.parry != "none",
                  crit_multiplier=_multiplier(weapon), counter_crit_multiplier=_multiplier(counter_weapon))
    steps = [Step("weapon", f"{attacker['identity']['name']}'s {weapon['label']}", text=f"damage {weapon['damage']}")]
    steps += _exchange_steps(rules, ex, 0)
    tally = {"to hit": ex.attack.row.id, "dodge": ex.dodge.id if ex.dodge else "none",
             "critical": "yes" if ex.attack.critical else "no", "defender": "unwounded", "attacker": "unwounded"}
    if ex.attack.lands:
        tally["defender"] = _blow(rules, draws, defender, strike_damage(ex.attack, int(weapon["damage"])), steps, 0)
    if ex.counter is not None and ex.counter.lands:
        dmg = strike_damage(ex.counter, int(counter_weapon["damage"]) if counter_weapon else 0, rules.combat.parry_bonus)
        tally["attacker"] = _blow(rules, draws, attacker, dmg, steps, 1)
    a, d = attacker["identity"]["name"], defender["identity"]["name"]
    summary = f"{a} attacks {d} with the {weapon['label']}: {ex.attack.row.label}; {d} {tally['defender'].replace('_', ' ')}"
    if ex.counter is not None:
        summary += f"; counterattack: {a} {tally['attacker'].replace('_', ' ')}"
    inputs = {"attacker": a, "defender": d, "weapon": weapon["id"], "dodge": choices.parry != "none"}
    return Resolution("rtd", "attack", inputs, tally["defender"], summary, tuple(steps), {"tally": tally})


def _weapon(doc: dict, weapon_id: str | None) -> dict:
    name = doc["identity"]["name"]
    found = paths.best_weapon(doc) if weapon_id is None else \
        next((w for w in doc.get("weapons") or () if w.get("id") == weapon_id), None)
    if found is None and weapon_id is None:
        raise CharacterError(f"{name} has no weapon to attack with")
    if found is None:
        have = ", ".join(str(w.get("id")) for w in doc.get("weapons") or ()) or "none"
        raise CharacterError(f"{name} has no weapon '{weapon_id[:40]}' (weapons: {have})")
    return found


def _multiplier(weapon: dict | None) -> Fraction | None:
    value = (weapon or {}).get("critical_multiplier")
    return Fraction(str(value)) if value is not None else None


def _blow(rules, draws, doc: dict, damage: int, steps: list, depth: int) -> str:
    """The wound ``damage`` makes to the part a die picks; the character's state after it."""
    w = rules.wounding
    face = draws.die(w.die, "body part", key=w.part)
    part = w.part(face)
    info = next(p for p in rules.wounds.parts if p.id == part)
    states = [s.id for s in rules.wounds.states]
    before = next((x.get("state") for x in doc.get("wounds") or () if x.get("part") == part), states[0])
    new = w.wound(damage) or states[0]
    if rules.wounds.state(new).brittle_only and not info.brittle:
        new = states[states.index(new) + 1]
    now = max(before, new, key=lambda s: states.index(s) if s in states else 0)
    dead = now == "lopped_off" and info.important
    steps.append(Step("body part", info.label, f"1D{w.die}", (face,), str(face),
                      f"{damage} damage: {rules.wounds.state(new).label}" + (" (an important part: dead)" if dead else ""),
                      depth))
    return "dead" if dead else now
