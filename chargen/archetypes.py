"""What every engine's archetypes share: weighted choices, the listing, and reading them from YAML.

An archetype is a named NPC type in a rules module's ``archetypes.yaml``
(overlays change it like any table). Each engine reads its own fields; the
shared parts are here: a weighted pick on the injected roller, and
:class:`Listing`, what ``chargen archetypes`` prints.
"""

from __future__ import annotations

from dataclasses import dataclass

from chargen.dice import Roller
from chargen.rules.check import Cursor, check_unique


@dataclass(frozen=True, slots=True)
class Listing:
    """One archetype as ``chargen archetypes`` lists it: id, label, what varies."""

    id: str
    label: str
    varies: str


def unknown(request, archetypes) -> list[str]:
    """The problem of a request for an archetype the module does not have (none: an empty list)."""
    if request.archetype is None or request.archetype in archetypes:
        return []
    return [f"--archetype: unknown archetype '{request.archetype}' "
            f"(expected one of: {', '.join(sorted(archetypes)) or 'none in this module'})"]


def pick(roller: Roller, options: tuple, weights: tuple[int, ...] | None, purpose: str):
    """One of ``options``: equal odds (``weights`` None, :meth:`Roller.choose`), else by weight,
    from one die of the weights' total faces."""
    if weights is None or len(options) == 1:
        return roller.choose(options, purpose)
    face = roller.die(sum(weights), purpose)
    for option, w in zip(options, weights):
        face -= w
        if face <= 0:
            return option
    return options[-1]


def weighted(c: Cursor, known: set[str] | dict, what: str,
             removed_ok: bool = False) -> tuple[tuple[str, ...], tuple[int, ...] | None]:
    """``id`` (one option), ``[ids]`` (equal odds) or ``{id: weight}``: the options and weights.
    With ``removed_ok``, options an overlay removed are left out (see :meth:`Cursor.ref`)."""
    if isinstance(c.value, dict):
        pairs = [(Cursor(w.doc, w.path, k, w.problems).ref(known, what, removed_ok), w.int(1, 1000))
                 for k, w in c.items()]
        if not pairs:
            c.fail("expected at least 1 item, got 0")
        pairs = [(i, w) for i, w in pairs if i is not None or not removed_ok]
        return tuple(i for i, _ in pairs), tuple(w or 1 for _, w in pairs)
    if isinstance(c.value, list):
        options = tuple(x.ref(known, what, removed_ok) for x in c.list(1))
        return tuple(o for o in options if o is not None or not removed_ok), None
    option = c.ref(known, what, removed_ok)
    return ((option,) if option is not None or not removed_ok else ()), None


def entries(c: Cursor) -> list[Cursor]:
    """The archetype entries of an ``archetypes.yaml`` (``source`` and ``archetypes``), ids checked unique."""
    c.mapping(required=("source", "archetypes"), optional=("ranks",))  # ranks: chargen.ranks
    c["source"].source()
    items = c["archetypes"].list()
    check_unique(items, "id", "archetype")
    return items
