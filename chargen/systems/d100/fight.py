"""D100 II fights: the melee round by strike ranks (attacks.yaml ``round:``), each attack by
:func:`chargen.systems.d100.attack.blow`, the damage carried from blow to blow.

The engine's fight rules (:mod:`chargen.fight.play` describes the interface). A
combatant attacks once a round with his best melee weapon at its strike rank and
parries at most one attack, by the readings in attacks.yaml's ``round:``; what a
blow does to him (wounds.yaml) and to his weapons lasts the fight.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

from chargen.errors import CharacterError
from chargen.fight.play import FightRules, Round
from chargen.fight.tactics import pick_target
from chargen.systems.d100.attack import _degrees, blow
from chargen.systems.d100.fighter import Fighter, fighter, usable


@dataclass(frozen=True)
class Profile:
    """A character as a combatant, built once: his fighter, melee weapons best first, shields best first,
    and his one-handed melee weapons at their off-hand chances, best first (round.disabled_weapon_arm)."""

    fighter: Fighter
    weapons: tuple[dict, ...]
    shields: tuple[dict, ...]
    off_hand: tuple[dict, ...] = ()


def profile(rules, doc: dict) -> Profile:
    if rules.attack is None:
        raise CharacterError("this D100 II module has no combat tables (attacks.yaml, fumbles.yaml, wounds.yaml)")
    f = fighter(doc, rules)
    gear = [w for w in doc.get("weapons") or () if isinstance(w, dict) and usable(w)]
    weapons = sorted((w for w in gear if w.get("kind") == "melee" and isinstance(w.get("attack"), int)),
                     key=lambda w: -w["attack"])
    shields = sorted((w for w in gear if w.get("kind") == "shield" and isinstance(w.get("parry"), int)),
                     key=lambda w: -w["parry"])
    return Profile(f, tuple(weapons), tuple(shields), _off_hand(rules, doc, weapons))


def _off_hand(rules, doc: dict, weapons: list) -> tuple[dict, ...]:
    """His one-handed melee weapons as the other hand wields them: the off hand's base chance plus his
    attack ability, or his own skill with the weapon if lower; a chance of 0 is no weapon."""
    ability = int((doc.get("combat") or {}).get("attack") or 0)
    chance = rules.attack.off_hand_base + ability
    held = [{**w, "attack": min(int(w["attack"]), chance)} for w in weapons if w.get("hands") != 2]
    return tuple(sorted((w for w in held if w["attack"] > 0), key=lambda w: -w["attack"]))


class Combatant:
    """One fighter in one fight: the damage he has taken, his state, what he has lost."""

    __slots__ = ("side", "index", "p", "f", "state", "lost", "worn", "skip", "delay", "parried", "defended", "idle",
                 "out", "dead", "sr", "ready", "foe")

    def __init__(self, p: Profile, side: int, index: int):
        self.side, self.index, self.p, self.f = side, index, p, p.fighter
        self.state, self.lost, self.worn = "unhurt", frozenset(), ()  # worn: (item id, hit points lost) pairs
        self.skip = self.delay = 0
        self.parried = self.defended = self.idle = self.out = self.dead = False
        self.sr = None  # the strike rank of his attack this round
        self.ready = False  # at his rank, able to strike (the rank's blows land together)
        self.foe = None  # (side, index) of the enemy whose blow left him nothing to attack with

    @property
    def name(self) -> str:
        return self.f.name

    @property
    def vigour(self) -> int:
        return self.f.hp - self.f.hp_taken


def fresh(p: Profile, side: int, index: int) -> Combatant:
    return Combatant(p, side, index)


_STATE = ("f", "state", "lost", "worn", "skip", "delay", "out", "dead", "parried", "defended", "idle", "sr", "ready",
          "foe")


def key(c: Combatant) -> tuple:
    """Everything about ``c`` that decides what happens next, between rounds (the exact chain's state)."""
    return (c.f.taken, c.f.hp_taken, c.state, c.lost, c.worn, c.skip, c.delay, c.out)


def round_key(c: Combatant) -> tuple:
    """What about ``c`` lasts only within a round (reset when the next one is planned)."""
    return (c.parried, c.defended, c.idle, c.sr, c.ready)


def clone(c: Combatant) -> Combatant:
    n = Combatant(c.p, c.side, c.index)
    for name in _STATE:
        setattr(n, name, getattr(c, name))
    return n


def _disabled(rules, c: Combatant, spot_id: str) -> bool:
    """Whether a location's points are equalled or exceeded (a limb disabled: wounds.yaml ``equalled``)."""
    for i, s in enumerate(c.f.spots):
        if s.id == spot_id:
            return bool(c.f.taken) and c.f.taken[i] >= s.hp
    return False


def _item(c: Combatant, item: dict) -> dict:
    lost = dict(c.worn).get(item["id"])
    return item if not lost else {**item, "hp": int(item.get("hp") or 0) - lost}


def weapon_in_hand(rules, c: Combatant) -> dict | None:
    """The weapon he attacks with: his best not lost; with his weapon arm disabled, his best one-handed
    one in the other hand at its off-hand chance (none when that arm is disabled too)."""
    if not _disabled(rules, c, rules.attack.weapon_arm):
        return next((w for w in c.p.weapons if w["id"] not in c.lost), None)
    if _disabled(rules, c, rules.attack.shield_arm):
        return None
    return next((w for w in c.p.off_hand if w["id"] not in c.lost), None)


def parry_with(rules, c: Combatant, weapon: dict | None) -> dict | None:
    """His parrying item this round: a shield (not beside a two-handed weapon, unless the rules'
    ``round.two_handed.shield`` allows it), else a two-handed weapon, else a second one-handed weapon."""
    off_hand = not _disabled(rules, c, rules.attack.shield_arm)
    if off_hand and weapon is not None and _disabled(rules, c, rules.attack.weapon_arm):
        return None  # the other hand holds the weapon (round.disabled_weapon_arm)
    two_handed = weapon is not None and weapon.get("hands") == 2
    if off_hand and (not two_handed or rules.attack.two_handed_shield):
        shield = next((s for s in c.p.shields if s["id"] not in c.lost), None)
        if shield is not None:
            return shield
    if two_handed:
        return weapon if off_hand else None
    if not off_hand:
        return None
    others = [w for w in c.p.weapons if w["id"] not in c.lost and w is not weapon and w.get("hands") != 2
              and isinstance(w.get("parry"), int)]
    return max(others, key=lambda w: w["parry"], default=None)


def plan(rules, sides, tactics) -> Round:
    """Start a round: who attacks, at which strike rank. The steps: for each rank, ``("ready", ids)``
    (who of that rank can still act: they strike together) then ``("attack", id)`` for each."""
    acts = []
    for side in sides:
        for c in side:
            c.parried = c.defended = c.idle = c.ready = False
            c.sr = None
            if c.out:
                continue
            if c.skip:
                c.skip -= 1
                continue
            w = weapon_in_hand(rules, c)
            sr = int(w.get("sr") or 0) + c.delay if w is not None else None
            c.delay = 0
            if sr is not None and sr <= rules.attack.strike_ranks:
                c.sr = sr
                acts.append((sr, c.side, c.index))
    acts.sort()
    steps = []
    for sr in sorted({a[0] for a in acts}):
        ids = tuple(a[1:] for a in acts if a[0] == sr)
        steps += [("ready", ids)] + [("attack", i) for i in ids]
    if rules.attack.no_weapon_left == "withdraw":
        steps.append(("withdraw", ()))
    return Round(tuple(steps), ({}, {}))


def step(rules, draws, sides, tactics, credit, rnd: Round, what: tuple) -> None:
    """One step of a round's plan."""
    kind, ids = what
    if kind == "ready":  # the rank's fighters still able strike, even if a blow of the rank fells them
        for s, i in ids:
            c = sides[s][i]
            c.ready = not c.out and not c.idle
        return
    if kind == "withdraw":
        _withdraw(rules, sides, credit)
        return
    c = sides[ids[0]][ids[1]]
    w = weapon_in_hand(rules, c) if c.ready else None
    enemies = [e for e in sides[1 - c.side] if not e.out]
    target = pick_target(tactics, draws, enemies, rnd.aimed[c.side]) if w is not None else None
    if target is not None:
        rnd.aimed[c.side][target.index] = rnd.aimed[c.side].get(target.index, 0) + 1
        _attack(rules, draws, c, w, target, tactics, credit)


def play_round(rules, draws, sides, tactics, credit) -> None:
    """One melee round: the attacks in strike-rank order, those of one rank simultaneous."""
    rnd = plan(rules, sides, tactics)
    for what in rnd.steps:
        step(rules, draws, sides, tactics, credit, rnd, what)


def _attack(rules, draws, c: Combatant, w: dict, d: Combatant, tactics, credit) -> None:
    item = _parry(rules, c, d, tactics)
    defence = None if not d.defended or rules.attack.defence_against == "every_attack" else 0
    d.defended = True  # defence.split: his defence goes against the first attack on him this round
    trail = blow(rules, draws, c.f, d.f, _item(c, w), _item(d, item) if item is not None else None, defence)
    tally = trail.tally
    if tally["parry"] != "none":
        d.parried = True
    if tally["parrying item"] == "broken":
        d.lost |= {item["id"]}
        _left_unarmed(rules, d, c)
    _hurt(rules, d, trail.result.get("defender"), c, credit)
    _hurt(rules, c, trail.result.get("attacker"), None, credit)
    _weapon_fate(rules, draws, c, w, tally["attacking weapon"], trail.result.get("weapon_hits", {}))
    c.skip += trail.result.get("loses_rounds", 0)


def _parry(rules, c: Combatant, d: Combatant, tactics) -> dict | None:
    if tactics.parry != "first" or d.parried or d.idle or d.out:
        return None
    weapon = weapon_in_hand(rules, d)
    item = parry_with(rules, d, weapon)
    if item is not None and item is weapon and d.sr == c.sr and not rules.attack.two_handed_own_sr:
        return None  # a two-handed weapon does not parry on its own attack's strike rank
    return item


def _hurt(rules, c: Combatant, wound: dict | None, striker: Combatant | None, credit) -> None:
    """Carry a blow's wound (attack.blow's result) on ``c``."""
    if not wound:
        return
    t = rules.attack
    armed = not _disabled(rules, c, t.weapon_arm)
    i = next(n for n, s in enumerate(c.f.spots) if s.id == wound["location"])
    taken = list(c.f.taken or (0,) * len(c.f.spots))
    taken[i] += wound["applied"]
    c.f = replace(c.f, taken=tuple(taken), hp_taken=c.f.hp_taken + wound["applied"])
    c.state = t.worst((c.state, wound["state"]))
    spot = c.f.spots[i]
    if spot.kind in t.limb_kinds and spot.id not in (t.weapon_arm, t.shield_arm) and wound["location_hp_left"] <= 0:
        c.idle = True  # a leg gone: he falls, no other action this round
    if not c.out and t.state(c.state).out:
        c.out = True
        if striker is not None:
            credit(striker, c)
    c.dead = c.state == "dead"
    if armed and _disabled(rules, c, t.weapon_arm):
        _weapon_arm_lost(rules, c, striker)


def _weapon_arm_lost(rules, c: Combatant, striker: Combatant | None) -> None:
    """His weapon arm just disabled: he drops the weapon and loses the rest of the round ("Characters
    who are disabled lose any remaining actions"); his next attack is with the other hand, a weapon
    drawn into it (round.disabled_weapon_arm), or he has none and withdraws (round.no_weapon_left)."""
    c.idle = True
    c.delay = rules.attack.prepare_weapon
    _left_unarmed(rules, c, striker)


def _left_unarmed(rules, c: Combatant, striker: Combatant | None) -> None:
    """Remember the enemy whose blow left ``c`` nothing to attack with (his withdrawal is credited to him)."""
    if striker is not None and not c.out and weapon_in_hand(rules, c) is None:
        c.foe = (striker.side, striker.index)


def _withdraw(rules, sides, credit) -> None:
    """The round's end (round.no_weapon_left ``withdraw``): a fighter who fought with a melee weapon and
    has none left to attack with leaves the melee while an enemy stands: out of the fight, alive."""
    for side in sides:
        for c in side:
            if c.out or not c.p.weapons or weapon_in_hand(rules, c) is not None:
                continue
            if any(not e.out for e in sides[1 - c.side]):
                c.out = True
                if c.foe is not None:
                    credit(sides[c.foe[0]][c.foe[1]], c)


def _weapon_fate(rules, draws, c: Combatant, w: dict, fate: str, hits: dict) -> None:
    t = rules.attack
    if fate == "damaged":
        worn = dict(c.worn)
        worn[w["id"]] = worn.get(w["id"], 0) + hits.get("attacking weapon", 0)
        c.worn = tuple(sorted(worn.items()))
    elif fate == "dropped":
        c.delay = t.prepare_weapon
    elif fate == "broken":
        c.lost |= {w["id"]}
        c.delay = t.prepare_weapon
    elif fate == "stuck":
        chance = int(w["attack"])
        freed = _freed(chance, t.pull_free_on)
        face = draws.die(100, "pull free", key=freed)
        if not freed[face - 1]:
            c.lost |= {w["id"]}
            c.delay = t.prepare_weapon


@functools.lru_cache(maxsize=1024)
def _freed(chance: int, degrees: frozenset) -> tuple[bool, ...]:
    """Whether each D100 face pulls a stuck weapon free (an impale rolled again)."""
    return tuple(d in degrees for d in _degrees(chance))


def order(rules, p: Profile) -> list[dict]:
    """His lines of the combat-order table: each melee weapon at its strike rank, with what he parries
    with while he holds it."""
    rows = []
    for w in p.weapons:
        parry = parry_with(rules, Combatant(p, 0, 0), w)
        rows.append({"sr": int(w.get("sr") or 0), "weapon": w["label"], "attack": w["attack"],
                     "damage": w["damage"] + _dm(w), "parry": f"{parry['label']} {parry['parry']}%" if parry else "-",
                     "hp": p.fighter.hp})
    return rows


def parry_with_profile(rules, p: Profile) -> dict | None:
    """What he parries with while he holds his best weapon."""
    return parry_with(rules, Combatant(p, 0, 0), p.weapons[0] if p.weapons else None)


def _dm(w: dict) -> str:
    dm = w.get("damage_modifier")
    return "" if dm in (None, "", "0") else (dm if dm.startswith(("+", "-")) else "+" + dm)


# The D100 II engine's fight rules (Engine.fight).
KIT = FightRules(profile=profile, fresh=fresh, round=play_round, plan=plan, step=step, key=key, round_key=round_key,
                 clone=clone, order=order,
                 describe=lambda rules, c: f"{c.vigour} hit points, {rules.attack.state(c.state).label.lower()}")
