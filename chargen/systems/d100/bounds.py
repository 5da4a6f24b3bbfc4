"""Proof, at load time, that every character a D100 module can make fits the character schema.

House rules can make characteristics huge (``1000D1000``) or tables steep; a
character whose STR or Attack falls outside the schema would be a file chargen
itself rejects. So, before any character is made, each derived number is
bounded over the characteristics' whole dice ranges, and a number that can
leave the schema's range is a problem at the rule that makes it. The limits
are read from the schema, not restated.
"""

from __future__ import annotations

from collections.abc import Mapping

from chargen.engines import read_schema
from chargen.rules.check import Cursor
from chargen.rules.tables import Banded
from chargen.serialize import envelope_schema

Span = tuple[int, int]


def limits() -> dict[str, Span]:
    envelope = envelope_schema()
    pct, char = envelope["$defs"]["percent"], read_schema(__package__)["properties"]["characteristics"]["additionalProperties"]
    return {"percent": (pct["minimum"], pct["maximum"]), "characteristic": (char["minimum"], char["maximum"]),
            "name": (1, envelope["properties"]["identity"]["properties"]["name"]["maxLength"])}


def span(row: Banded, lo: int, hi: int) -> Span:
    """Least and greatest value of ``row`` for x in lo..hi: piecewise constant, then monotone past the last band."""
    xs = {lo, hi}
    for b in row.bands:
        xs |= {x for x in (b.low, b.high) if x is not None and lo <= x <= hi}
    values = [row.lookup(x) for x in xs]
    return min(values), max(values)


def _fits(c: Cursor, what: str, s: Span, limit: Span, fix: str, when: str = " with these characteristics") -> bool:
    if s[0] < limit[0] or s[1] > limit[1]:
        bad = s[1] if s[1] > limit[1] else s[0]
        c.fail(f"{what} can reach {bad}{when} (the character schema allows {limit[0]} to {limit[1]}; {fix})")
        return False
    return True


def check(rules, c: dict[str, Cursor], ability: Mapping[str, str]) -> None:
    """Record a problem for each number some character could get outside the schema
    (``ability``: the attack and parry ability ids, the engine's ``READS["ability"]``).

    A number made from one already reported (a skill from its category) is not reported again.
    """
    lim = limits()
    _ability_ids(rules, c["combat"]["abilities"], ability)
    chars: dict[str, Span] = {}
    for i, ch in enumerate(rules.characteristics):
        chars[ch.id] = (max(0, ch.dice.minimum), max(0, ch.dice.maximum))
        for a in rules.archetypes.values():  # an archetype's dice widen the range (checked in archetypes.yaml)
            d = a.characteristics.get(ch.id)
            if d is not None:
                chars[ch.id] = _hull(chars[ch.id], (max(0, d.minimum), max(0, d.maximum)))
        _fits(c["characteristics"]["characteristics"][i]["dice"], f"{ch.abbr}", chars[ch.id], lim["characteristic"],
              "use smaller dice", when="")
    if c["characteristics"].problems.items:
        return
    sums, fine = {}, set()
    for key, rows in (("abilities", rules.abilities), ("categories", rules.categories)):
        cursor = c["combat"]["abilities"] if key == "abilities" else c["skills"]["categories"]
        for i, rs in enumerate(rows):
            sums[rs.id] = _sum(span(row, *chars[ch]) for ch, row in rs.terms)
            if _fits(cursor[i], f"the {rs.label} modifier", sums[rs.id], lim["percent"], "use smaller rows or dice"):
                fine.add(rs.id)
    _fits(c["skills"]["experience"], "the experience modifier", experience_span(rules, chars[rules.experience_char]),
          lim["percent"], "use smaller steps")
    for i, sk in enumerate(rules.skills):
        base = (sk.base, sk.base) if sk.base_char is None else tuple(x * sk.base_times for x in chars[sk.base_char])
        if sk.category in fine:
            _fits(c["skills"]["skills"][i], f"{sk.label}", _sum([base, sums[sk.category]]), lim["percent"],
                  "use a smaller base")
    if {ability["attack"], ability["parry"]} <= fine:
        _weapons(rules, c, (sums[ability["attack"]], sums[ability["parry"]]), lim["percent"])
    _money(rules, c["backgrounds"])
    for name, nl in rules.names.items():
        longest = len(nl.format) - len("{given}{byname}") + max(map(len, sum(nl.given.values(), ()))) \
            + max(map(len, nl.bynames))
        _fits(c["names"]["lists"][name], "a name", (1, longest), lim["name"], "use a shorter format or names",
              when=" characters")


def _ability_ids(rules, c: Cursor, ability: Mapping[str, str]) -> None:
    """An ability is a key of the character's combat block: it must not be one of the block's other figures."""
    figures = [k for k in read_schema(__package__)["properties"]["combat"]["properties"] if k not in ability.values()]
    for i, ab in enumerate(rules.abilities):
        if ab.id in figures:
            c[i]["id"].fail(f"'{ab.id}' is another figure of the character's combat block "
                            f"(an ability's id must not be one of: {', '.join(figures)})")


def _weapons(rules, c: dict[str, Cursor], attack_parry: tuple[Span, Span], limit: Span) -> None:
    bases = [w.base for w in rules.weapons.values()]
    for _, _, bg in rules.backgrounds.rows:
        bases += [b for b in (bg.tribal_base, bg.other_base) if b is not None]
    worst = _sum([(min(bases), max(bases)), _hull(_hull(*attack_parry), (0, 0))])
    _fits(c["weapons"], "a weapon's attack or parry", worst, limit, "use smaller weapon bases")


def _money(rules, c: Cursor) -> None:
    entries = {e.value.get("id"): e for e in c["backgrounds"].list() if isinstance(e.value, dict)}
    for _, _, bg in rules.backgrounds.rows:
        if bg.money_dice.minimum < 0:
            entries[bg.id]["money"]["dice"].fail(f"dice {bg.money_dice} can roll below 0 (starting money is at least 0)")


def experience_span(rules, s: Span) -> Span:
    """Piecewise linear in the characteristic: its extremes are at the ends or a threshold."""
    xs = {s[0], s[1]} | {t for _, t, _ in rules.experience_steps if s[0] <= t <= s[1]}
    values = []
    for x in xs:
        values.append(sum(p * max(0, x - t if side == "above" else t - x) for side, t, p in rules.experience_steps))
    return min(values), max(values)


def _sum(spans) -> Span:
    spans = list(spans)
    return sum(s[0] for s in spans), sum(s[1] for s in spans)


def _hull(a: Span, b: Span) -> Span:
    return min(a[0], b[0]), max(a[1], b[1])
