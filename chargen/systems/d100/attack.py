"""One D100 II attack between two saved characters, resolved by the seed's COMBAT section.

The attack roll and its degree against the attack chance less the defence
applied (or half of it, aimed); a fumble on the Fumbled Attack Table; the
defender's parry with a weapon or shield and what it does against each kind of
attack, damage to weapons included; the damage with the damage modifier (an
impale's, a critical's); the hit location; armour; and what the blow does
(wounds.yaml). Every figure and reading is in the rules data (attacks.yaml,
fumbles.yaml, wounds.yaml); this module only interprets it. Every random value
comes from ``draws`` (:mod:`chargen.combat`), so the same code gives the odds.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from chargen.combat import Choices, dice_of
from chargen.errors import OptionError
from chargen.resolve import Resolution, Step
from chargen.systems.d100.degrees import SUCCEEDS, d100_text, degree
from chargen.systems.d100.fighter import (Fighter, Spot, attack_weapon, fighter, item_kind, parry_item, wound)
from chargen.systems.d100.resolve import _ranges_text, _why
from chargen.systems.d100.rules_attack import AttackRules


@dataclass
class Trail:
    """The steps of one attack, and its tallies (the outcomes the odds count)."""

    draws: object
    steps: list = field(default_factory=list)
    tally: dict = field(default_factory=dict)
    result: dict = field(default_factory=dict)
    shown: bool = True  # the steps are written (not for a fight's thousands of attacks: its draws are ``quiet``)

    def __post_init__(self):
        self.shown = not getattr(self.draws, "quiet", False)

    def step(self, table: str, row: str, text: str = "", dice: str = "", read: str | None = None, depth: int = 0):
        if not self.shown:
            return
        rolled = self.draws.faces() if dice else ()
        self.steps.append(Step(table, row, dice, rolled, read, text, depth))


def attack(rules, draws, attacker: dict, defender: dict, choices: Choices) -> Resolution:
    """Resolve one attack of ``attacker`` on ``defender`` (saved D100 II documents) under ``rules``."""
    t: AttackRules | None = rules.attack
    if t is None:
        raise OptionError("this D100 II module has no combat tables (attacks.yaml, fumbles.yaml, wounds.yaml)")
    a, d = fighter(attacker, rules), fighter(defender, rules)
    weapon = attack_weapon(a, choices.weapon)
    item = parry_item(d, choices.parry, weapon, t)
    aimed = d.spot(choices.aim) if choices.aim is not None else None
    trail = blow(rules, draws, a, d, weapon, item, choices.defence, aimed)
    summary = _summary(a, d, weapon, trail.tally)
    inputs = {"attacker": a.name, "defender": d.name, "weapon": weapon["id"], "parry": item["id"] if item else None,
              "defence": choices.defence, "aim": choices.aim}
    return Resolution("d100", "attack", inputs, trail.tally["defender"], summary, tuple(trail.steps), trail.result)


def blow(rules, draws, a: Fighter, d: Fighter, weapon: dict, item: dict | None, defence: int | None = None,
         aimed: Spot | None = None) -> Trail:
    """One attack of ``a`` with ``weapon`` on ``d`` parrying with ``item`` (None: no parry), each with the
    damage taken so far (a fight); the trail's ``tally`` and ``result`` say what it did."""
    t: AttackRules = rules.attack
    trail = Trail(draws)
    trail.tally = {"attack": "", "fumble": "none", "parry": "none", "defender": "unhurt", "attacker": "unhurt",
                   "attacking weapon": "intact", "parrying item": "intact" if item else "none"}
    chance = _chance(trail, t, a, d, weapon, defence, aimed)
    result = _roll(trail, chance, "attack", "attack")
    trail.tally["attack"] = result
    if result == "fumble":
        _fumble(trail, t, rules, a, weapon)
    else:
        _resolve(trail, t, rules, weapon, d, item, result, aimed)
    trail.result.update(tally=dict(trail.tally), chance=chance)
    return trail


def _chance(trail: Trail, t: AttackRules, a: Fighter, d: Fighter, weapon: dict, asked: int | None,
            aimed: Spot | None) -> int:
    skill = int(weapon["attack"])
    have = max(0, d.defence)
    if asked is not None and not 0 <= asked <= have:
        raise OptionError(f"--defence {asked}: {d.name} has a defence of {have} (give 0 to {have})")
    applied = (have if asked is None else asked) // t.defence_block * t.defence_block
    over = max(0, skill - 100)
    reduced = max(0, applied - over)
    chance = skill - reduced
    if trail.shown:
        sr = t.aim_sr if aimed else weapon.get("sr")
        trail.step("weapon", f"{a.name}'s {weapon['label']}", f"attack {skill}%, damage {weapon['damage']}"
                   f"{_dm_text(weapon)}" + (f", strike rank {sr}" if sr is not None else ""))
        text = f"{d.name}'s defence {d.defence}: {applied} applied (blocks of {t.defence_block})"
        if over:
            text += f", less the {over}% the attack is over 100: {reduced}"
        trail.step("defence", f"attack chance {skill} - {reduced} = {chance}", text)
    if aimed is not None:
        chance = chance // t.aim_divide
        trail.step("aiming", f"at the {aimed.label}", f"waits until SR {t.aim_sr}; chance 1/{t.aim_divide}: {chance}")
    return chance


def _dm_text(w: dict) -> str:
    dm = w.get("damage_modifier")
    return "" if dm in (None, "0", "") else (dm if dm.startswith(("+", "-")) else "+" + dm)


_ranges = functools.lru_cache(maxsize=4096)(_ranges_text)


@functools.lru_cache(maxsize=4096)
def _degrees(chance: int) -> tuple[str, ...]:
    """The degree of each D100 face against ``chance`` (face 1 first)."""
    return tuple(degree(face, chance) for face in range(1, 101))


def _roll(trail: Trail, chance: int, table: str, purpose: str) -> str:
    degrees = _degrees(chance)
    face = trail.draws.die(100, purpose, key=degrees)
    result = degrees[face - 1]
    if trail.shown:
        trail.step(table, result.capitalize(), f"{_why(face, chance, result)} ({_ranges(chance)})", "1D100",
                   d100_text(face))
    return result


def _kind(t: AttackRules, result: str, weapon: dict) -> str:
    """The parry table's row for an attack of degree ``result``: failure, success, special, stick, critical."""
    if result == "special":
        special = t.specials.get(weapon.get("special") or "")
        return "stick" if special is not None and special.sticks else "special"
    return result


def _resolve(trail: Trail, t: AttackRules, rules, weapon: dict, d: Fighter, item: dict | None, result: str,
             aimed: Spot | None) -> None:
    parried = item is not None and _parry(trail, t, d, item)
    kind = _kind(t, result, weapon)
    row = t.parry[item_kind(item)][kind] if parried else None
    if result not in SUCCEEDS:
        if row is not None and row.damages_attacker and not (_classes(t, item) & t.harmless) and item.get("damage"):
            _weapon_damaged(trail, item, weapon, "attacking weapon", f"{d.name}'s {item['label']}")
        return
    damage = _damage(trail, t, weapon, kind)
    armour = not (result == "critical" and t.critical_ignores_armour)
    if row is not None:
        damage, armour = _through_parry(trail, t, row, item, weapon, damage)
        if row.sticks:
            trail.tally["attacking weapon"] = "stuck"
    if damage > 0:
        stuck = row is None and kind == "stick"
        _strike(trail, t, rules, d, weapon, damage, armour, aimed, "defender", stuck)


def _parry(trail: Trail, t: AttackRules, d: Fighter, item: dict) -> bool:
    result = _roll(trail, int(item["parry"]), f"parry with the {item['label']} ({item['parry']}%)", "parry")
    ok = result in t.parry_succeeds
    trail.tally["parry"] = "parried" if ok else "not parried"
    return ok


def _classes(t: AttackRules, w: dict) -> frozenset:
    return t.classes.get(w.get("id"), frozenset())


def _damage(trail: Trail, t: AttackRules, weapon: dict, kind: str) -> int:
    dice, dm = dice_of(weapon["damage"]), dice_of(weapon.get("damage_modifier"))
    special = t.specials.get(weapon.get("special") or "") if kind in ("special", "stick") else None
    total = trail.draws.roll(dice, "damage")
    trail.step("damage", str(total), f"{weapon['label']} {dice}", str(dice), str(total))
    if special is not None and special.weapon == "roll_plus_max":
        total += dice.maximum
        trail.step("damage", f"+{dice.maximum}", f"{special.id}: the weapon's maximum {dice.maximum}")
    if dm.terms and special is not None and special.modifier == "max":
        total += dm.maximum
        trail.step("damage modifier", f"{dm.maximum:+d}", f"{special.id}: the modifier's maximum")
    elif dm.terms:
        rolled = trail.draws.roll(dm, "damage modifier")
        total += rolled
        trail.step("damage modifier", f"{rolled:+d}", f"{dm}", str(dm), str(rolled))
    return max(t.damage_minimum, total)


def _through_parry(trail: Trail, t: AttackRules, row, item: dict, weapon: dict, damage: int) -> tuple[int, bool]:
    """What a successful parry lets through to the defender, and whether his armour counts."""
    damage *= row.multiplier
    capacity = {"ap": int(item.get("ap") or 0), "hp": int(item.get("hp") or 0), "nothing": 0}[row.blocks]
    spared = bool(_classes(t, weapon) & (t.harmless | row.spared_by))
    through = max(0, damage - capacity)
    text = f"damage x{row.multiplier} = {damage}; blocks {capacity}" if row.multiplier != 1 else f"blocks {capacity} of {damage}"
    if row.breaks and not spared and damage > int(item.get("hp") or 0):
        trail.tally["parrying item"] = "broken"
        text += f"; the {item['label']} breaks ({damage} exceeds its {item.get('hp')} hit points)"
    elif row.breaks and spared and damage > int(item.get("hp") or 0):
        text += f"; the {weapon['label']} does not damage it (attacks.yaml)"
    if row.sticks:
        text += f"; the {weapon['label']} is stuck in it"
    trail.step("parried", f"{through} through", text)
    return through, row.armour


def _weapon_damaged(trail: Trail, by: dict, target: dict, tally: str, whose: str) -> None:
    hit = trail.draws.roll(dice_of(by["damage"]), "damage to weapon")
    hp = int(target.get("hp") or 0)
    broken = hit > hp
    trail.tally[tally] = "broken" if broken else "damaged"
    trail.result.setdefault("weapon_hits", {})[tally] = hit
    trail.step("damage to weapon", str(hit), f"{whose} strikes the {target['label']} ({hp} hit points): "
               + ("it breaks" if broken else f"{hp - hit} hit points left"), str(dice_of(by["damage"])), str(hit))


def _strike(trail: Trail, t: AttackRules, rules, d: Fighter, weapon: dict, damage: int, armour: bool,
            aimed: Spot | None, tally: str, stuck: bool = False) -> None:
    column = "missile" if weapon.get("kind") == "missile" else "melee"
    if aimed is None:
        face = trail.draws.die(rules.location_die, "hit location", key=_spot_keys(d.spots, column, rules.location_die))
        spot = d.spot_at(face, column)
        trail.step("hit location", spot.label, f"{column} column", f"1D{rules.location_die}", str(face))
    else:
        spot = aimed
    ap = spot.ap if armour else 0
    blow = max(0, damage - ap)
    trail.step("armour", f"{blow} through", f"{damage} - AP {ap}" + ("" if armour else " (a critical ignores armour)"))
    if stuck and blow > 0:
        trail.tally["attacking weapon"] = "stuck"
        trail.step("impale", "stuck", f"the {weapon['label']} is stuck in the {spot.label.lower()}")
    w = wound(t, d, spot, blow)
    trail.tally[tally] = w.state
    trail.result[tally] = {"location": spot.id, "damage": damage, "through_armour": blow, "applied": w.applied,
                           "location_hp_left": w.spot_left, "hp_left": w.hp_left, "state": w.state}
    text = f"{spot.label} {d.left(spot)} -> {w.spot_left}, total {d.hp - d.hp_taken} -> {w.hp_left}"
    trail.step("wound", f"{d.name} {t.state(w.state).label}", "; ".join((text,) + w.effects))


@functools.lru_cache(maxsize=1024)
def _spot_keys(spots: tuple, column: str, die: int) -> tuple[str, ...]:
    """The location each face of the location die strikes."""
    return tuple(next(s.id for s in spots if getattr(s, column)[0] <= f <= getattr(s, column)[1])
                 for f in range(1, die + 1))


def _fumble(trail: Trail, t: AttackRules, rules, a: Fighter, weapon: dict) -> None:
    face = trail.draws.die(t.fumble_die, "fumble", key=t.fumble_keys)
    row = t.fumble(face)
    trail.step("fumbled attack table", row.label, row.text, f"1D{t.fumble_die}",
               d100_text(face) if t.fumble_die == 100 else str(face), depth=1)
    trail.tally["fumble"] = row.id
    if row.weapon == "damaged":
        _weapon_damaged(trail, weapon, weapon, "attacking weapon", "the weapon's own blow")
    elif row.weapon:
        trail.tally["attacking weapon"] = row.weapon
    if row.loses_rounds:
        trail.result["loses_rounds"] = row.loses_rounds
    if row.hits_self:
        damage = _damage(trail, t, weapon, "success")
        if damage > 0:
            _strike(trail, t, rules, a, weapon, damage, True, None, "attacker")


def _summary(a: Fighter, d: Fighter, weapon: dict, tally: dict) -> str:
    head = f"{a.name} attacks {d.name} with the {weapon['label']}: {tally['attack']}"
    if tally["parry"] != "none":
        head += f", {tally['parry']}"
    parts = [f"{d.name} {tally['defender'].replace('_', ' ')}"]
    if tally["attacker"] != "unhurt":
        parts.append(f"{a.name} {tally['attacker'].replace('_', ' ')}")
    if tally["attacking weapon"] != "intact":
        parts.append(f"the {weapon['label']} {tally['attacking weapon']}")
    if tally["parrying item"] not in ("intact", "none"):
        parts.append(f"the parrying item {tally['parrying item']}")
    return f"{head}; {', '.join(parts)}"
