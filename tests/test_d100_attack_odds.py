"""The exact odds of one D100 II attack (``chargen roll --attacker ... --odds``): computed by the very
code that resolves it, they agree with a large seeded sample, and the attack roll's own odds are the
degrees' (chargen.systems.d100.degrees)."""

import math
from fractions import Fraction

import pytest

from chargen.combat import Choices, RolledDraws, attack_odds, enumerate_outcomes, totals
from chargen.dice import Roller, new_rng, parse
from chargen.rules import load_builtin
from chargen.systems.d100.attack import attack
from chargen.systems.d100.degrees import degree_odds
from tests.test_d100_attack import doc

MODULE = load_builtin("d100")


def fighters():
    a = doc("Ulf", "short_spear", "broadsword")
    a["weapons"][1]["damage_modifier"] = "+1D4"
    d = doc("Bran", "mace", "medium_shield", defence=10, ap=2, hp=11, head=(4, 5))
    return a, d


def test_totals_are_the_exact_distribution_of_dice():
    dist = dict(totals(parse("1D6+1-1D4")))
    assert sum(dist.values()) == 1 and dist[-2] == Fraction(1, 24) and dist[6] == Fraction(1, 24) and max(dist) == 6
    assert dist[3] == Fraction(4, 24)


def test_enumeration_weights_grouped_faces_by_their_key():
    odds = enumerate_outcomes(lambda draws: draws.die(20, "x", key=lambda f: f <= 4) <= 4)
    assert odds == {True: Fraction(1, 5), False: Fraction(4, 5)}


@pytest.mark.parametrize("weapon, parry", [("broadsword", None), ("short_spear", "none"), ("short_spear", "mace")])
def test_the_attack_rolls_odds_are_the_degrees(weapon, parry):
    a, d = fighters()
    odds = attack_odds(MODULE, a, d, Choices(weapon, parry))
    chance = 60 - 10
    assert odds["attack"] == {k: v for k, v in degree_odds(chance).items() if v}
    for tally in odds.values():
        assert sum(tally.values()) == 1


@pytest.mark.parametrize("weapon, parry", [("broadsword", None), ("short_spear", "mace")])
def test_exact_odds_agree_with_a_seeded_sample(weapon, parry):
    a, d = fighters()
    choices = Choices(weapon, parry)
    odds = attack_odds(MODULE, a, d, choices)
    rng, n = new_rng(2024), 10_000
    counts: dict = {}
    for _ in range(n):
        tally = attack(MODULE.rules, RolledDraws(Roller(rng)), a, d, choices).result["tally"]
        for k, v in tally.items():
            counts[(k, v)] = counts.get((k, v), 0) + 1
    assert set(counts) <= {(k, v) for k, row in odds.items() for v in row}  # nothing the odds call impossible
    for (k, v), seen in counts.items():
        p = float(odds[k][v])
        sigma = math.sqrt(n * p * (1 - p)) or 1
        assert abs(seen - n * p) <= 4.5 * sigma + 1, (k, v, seen, n * p)
