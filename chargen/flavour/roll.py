"""A character's flavour, rolled on a stream of its own.

The stream is :class:`chargen.seeds.HashRng` keyed
``b"chargen/1/flavour:<batch seed>:<index>:<attempt>:"``: it shares nothing
with the character's own generator or its identity stream, so adding,
removing or changing flavour tables changes no other value of any character.
Each table, in file order, is one roll of the die primitive on the sum of the
weights of the rows it rolls on (its variant for the character's
``variant_by`` value, else its entries); the row is the first whose running
total reaches the roll. The document records, per table id::

    flavour: {appearance: {value: "...", row: 7, roll: 23, of: 58[, variant: barbarian][, pinned: true]}}

A pin (``--set flavour.appearance=TEXT``) replaces the value after the roll
is made, so the rows after it stay as rolled.
"""

from __future__ import annotations

from chargen import paths
from chargen.dice import roll_die
from chargen.rules.flavour import Entry, Flavour, FlavourTable
from chargen.seeds import HashRng

STREAM = "chargen/1/flavour"


def stream(batch_seed: int, index: int, attempt: int = 0) -> HashRng:
    return HashRng(f"{STREAM}:{batch_seed}:{index}:{attempt}:".encode("ascii"))


def pick(entries: tuple[Entry, ...], roll: int) -> int:
    """The 1-based row of ``entries`` that ``roll`` (1 to the sum of their weights) lands on."""
    running = 0
    for row, e in enumerate(entries, 1):
        running += e.weight
        if roll <= running:
            return row
    raise ValueError(f"roll {roll} past the table's weights ({running})")


def roll_table(table: FlavourTable, doc: dict, rng) -> dict:
    key = paths.lookup(doc, table.variant_by) if table.variant_by else None
    _, entries = table.rows_for(key)
    total = sum(e.weight for e in entries)
    roll = roll_die(rng, total)
    row = pick(entries, roll)
    out = {"value": entries[row - 1].text, "row": row, "roll": roll, "of": total}
    if entries is not table.entries:
        out["variant"] = key
    return out


def roll_flavour(flavour: Flavour, doc: dict, batch_seed: int, index: int, attempt: int = 0,
                 pin=lambda path, rolled: rolled) -> dict:
    """The ``flavour`` record of ``doc`` (its body already made: a variant reads it); ``pin(path, rolled)``
    gives a pinned value in place of the rolled one (:meth:`chargen.generate.GenerationRequest.pin`)."""
    rng = stream(batch_seed, index, attempt)
    out = {}
    for table in flavour.tables:
        made = roll_table(table, doc, rng)
        value = pin(f"flavour.{table.id}", made["value"])
        if value != made["value"]:
            made = {"value": value, **{k: v for k, v in made.items() if k != "value"}, "pinned": True}
        out[table.id] = made
    return out
