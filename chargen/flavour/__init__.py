"""Flavour: who a character is beyond the numbers, and the ties inside a party.

A rules module may hold ``flavour.yaml``: weighted tables of text (appearance,
manner, speech, motive, secret, a hook for the game master, a quirk, a
possession of note, ...), some with variants by a value of the character
(``variant_by: background.id``), and the kinds of relation a party's members
draw (``relations``). :mod:`chargen.rules.flavour` validates them; :mod:`.roll` rolls a
character's flavour on a stream of its own (so every other value stays what it
was); :mod:`.relations` ties a party's members two ways; :mod:`.show` is what
views and formats print.
"""

from __future__ import annotations

FILE = "flavour"      # the rules file's stem (flavour.yaml)
DOC_KEY = "flavour"   # the document's key: {table id: {value, table, row, roll, of}}
RELATIONS_KEY = "relations"  # the document's key in a party: [{with, kind, label, reason}]
