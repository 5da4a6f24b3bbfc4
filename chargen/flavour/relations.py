"""Relations inside a party: two-way ties, some fixed by the party file, the rest drawn by the dice.

A party file's optional ``relations:`` asks for them::

    relations:
      draw: 3                      # ties the dice draw (default: half the members, rounded up)
      fixed:
        - {between: [Red Ulf, Ingrid Ashford], kind: superior}
        - {between: ["#2", Red Ulf], kind: debtor, reason: lost the band's pay at dice}

A member is named by its name (a line's ``name:``, or the name it is rolled) or by its
number ``#N`` (its file index, as its block shows it). The kinds and their reasons are the
rules' ``flavour.yaml`` ``relations``; a kind's ``other`` is what the other end holds
(``debtor`` <-> ``creditor``, ``friend`` <-> ``friend``), so both ends always agree.
The dice roll on their own stream, ``HashRng(b"chargen/party/1/relations:<file seed>:")``
(:class:`chargen.seeds.HashRng`): no character's other values change. Each drawn tie
rolls its first member, its second (another), its kind (by weight) and its reason (by
weight); a pair already tied is not tied again (the tie is skipped, not rerolled).
"""

from __future__ import annotations

from dataclasses import dataclass

from chargen.dice import roll_die
from chargen.digits import whole
from chargen.flavour.roll import pick
from chargen.rules.flavour import Flavour, RelationKind
from chargen.rules.check import Cursor
from chargen.seeds import HashRng

MAX_DRAW = 1000


@dataclass(frozen=True, slots=True)
class Tie:
    a: int          # file index of the member holding ``kind``
    b: int          # file index of the member holding ``kind``'s other end
    kind: str
    reason: str


def stream(file_seed: int) -> HashRng:
    return HashRng(f"chargen/party/1/relations:{file_seed}:".encode("ascii"))


def _reason(kind: RelationKind, rng) -> str:
    if not kind.reasons:
        return ""
    return kind.reasons[pick(kind.reasons, roll_die(rng, sum(r.weight for r in kind.reasons))) - 1].text


def draw(flavour: Flavour, file_seed: int, members: int, fixed: tuple[Tie, ...] = (), count: int | None = None) -> tuple[Tie, ...]:
    """The party's ties: ``fixed`` first (a reason drawn for each that has none), then ``count`` drawn
    (default: half of ``members``, rounded up); a pair is tied at most once."""
    rng = stream(file_seed)
    kinds = tuple(k for k in flavour.relations if k.weight > 0)
    out = [t if t.reason else Tie(t.a, t.b, t.kind, _reason(flavour.kind(t.kind), rng)) for t in fixed]
    if members < 2 or not kinds:
        return tuple(out)
    tied = {frozenset((t.a, t.b)) for t in out}
    for _ in range((members + 1) // 2 if count is None else count):
        a = roll_die(rng, members) - 1
        b = roll_die(rng, members - 1) - 1
        b += b >= a  # another member: the faces skip a
        kind = kinds[pick(kinds, roll_die(rng, sum(k.weight for k in kinds))) - 1]
        reason = _reason(kind, rng)
        if frozenset((a, b)) not in tied:
            tied.add(frozenset((a, b)))
            out.append(Tie(a, b, kind.id, reason))
    return tuple(out)


def by_member(flavour: Flavour, ties: tuple[Tie, ...], names: list[str]) -> dict[int, list[dict]]:
    """Each member's relations as its document holds them, ordered by the other member's number:
    ``{with, number, kind, label, reason}`` (the other end's kind at ``b``)."""
    out: dict[int, list[dict]] = {}
    for t in ties:
        kind = flavour.kind(t.kind)
        other = flavour.kind(kind.other)
        for me, them, k in ((t.a, t.b, kind), (t.b, t.a, other)):
            out.setdefault(me, []).append({"with": names[them], "number": them, "kind": k.id, "label": k.label,
                                           "reason": t.reason})
    return {i: sorted(rel, key=lambda r: r["number"]) for i, rel in out.items()}


def read(c: Cursor, flavour: Flavour | None, names: list[str]) -> tuple[tuple[Tie, ...], int | None]:
    """A party file's ``relations:`` (its problems recorded at their lines): the fixed ties and the count to draw."""
    if not c.mapping(optional=("draw", "fixed")):
        return (), None
    if flavour is None or not flavour.relations:
        c.fail("the rules have no relations (flavour.yaml: relations)")
        return (), None
    count = c["draw"].int(0, MAX_DRAW) if c["draw"].present else None
    fixed = []
    for e in c["fixed"].list() if c["fixed"].present else ():
        tie = _fixed(e, flavour, names)
        if tie is not None:
            if any({tie.a, tie.b} == {t.a, t.b} for t in fixed):
                e["between"].fail("these two members are already tied by an earlier line (one tie a pair)")
            else:
                fixed.append(tie)
    return tuple(fixed), count


def _fixed(e: Cursor, flavour: Flavour, names: list[str]) -> Tie | None:
    if not e.mapping(required=("between", "kind"), optional=("reason",)):
        return None
    ends = [_member(x, names) for x in e["between"].list()]
    if len(ends) != 2:
        e["between"].fail("expected two members: [NAME, NAME] (a name or a number such as '#3')")
        return None
    kind = e["kind"].ref([k.id for k in flavour.relations], "relation kind")
    reason = e["reason"].str(160) if e["reason"].present else ""
    if None in ends or kind is None or reason is None:
        return None
    if ends[0] == ends[1]:
        e["between"].fail("a member cannot be tied to itself")
        return None
    return Tie(ends[0], ends[1], kind, " ".join(reason.split()))


def _member(c: Cursor, names: list[str]) -> int | None:
    text = c.str(120)
    if text is None:
        return None
    if text.startswith("#") and (n := whole(text[1:])) is not None:
        return n if n < len(names) else c.fail(f"no member #{n} (the party has #0 to #{len(names) - 1})")
    found = [i for i, name in enumerate(names) if name == text]
    if len(found) == 1:
        return found[0]
    if found:
        return c.fail(f"{len(found)} members are named {text!r} (#{', #'.join(map(str, found))}): name one by its number")
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    return c.fail(f"no member is named {text!r} (the members: {shown})")
