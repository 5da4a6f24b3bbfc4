"""What ``--set`` may pin in a D100 II character, and the pinned characteristics.

A characteristic pin replaces its roll after the roll: the kit is still chosen
with the rolled characteristics (those rolls come after it), and every value
derived from the characteristics (combat, hit points, skills, weapon skills,
below-minimum) follows the pinned ones. ``background`` replaces the identity
roll: the kit rolled after it is the pinned background's.
"""

from __future__ import annotations

from chargen.pins import PinTarget, sex_target


def pin_targets(rules) -> dict[str, PinTarget]:
    out = {"identity.name": PinTarget("text"), "identity.sex": sex_target(rules.sexes),
           "background": PinTarget("choice", choices=tuple(bg.id for _, _, bg in rules.backgrounds.rows))}
    for ch in rules.characteristics:
        dice = [ch.dice, *(a.characteristics[ch.id] for a in rules.archetypes.values()
                           if ch.id in getattr(a, "characteristics", {}))]
        low, high = max(0, min(d.minimum for d in dice)), max(d.maximum for d in dice)
        where = f"{ch.dice} in characteristics.yaml" + (", or an archetype's dice" if len(dice) > 1 else "")
        out[f"characteristics.{ch.id}"] = PinTarget("int", low, high, where=where)
    return out


def pin_characteristics(request, rolled: dict[str, int]) -> dict[str, int]:
    """The characteristics with the pinned ones in place of their rolls."""
    return {c: request.pin(f"characteristics.{c}", v) for c, v in rolled.items()}
