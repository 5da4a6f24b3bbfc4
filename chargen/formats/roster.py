"""``csv``: a roster, one row per character, one file for the batch (``roster.csv``).

Columns are in a fixed order: the common ones first (:data:`COMMON`), then
the ones the engine's view of the character names (:attr:`chargen.view.
CharacterView.columns`: the rules' own characteristics among them, so a house
rule's EDU has its column); an engine without a view of its own gets the
common ones only. Lists (weapons, skills, armour) are one cell each, items
separated by ``"; "``.

The file is UTF-8 **with** a byte-order mark and CRLF line ends (RFC 4180):
Excel opens a BOM-less CSV in the machine's legacy code page, so "Æthelric"
comes out as mojibake; with the BOM Excel, LibreOffice, Numbers and Google
Sheets all read UTF-8 (Python reads it with ``encoding="utf-8-sig"``).

A text cell that a spreadsheet would take for a formula (starting with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return: "+1D4" or a house-ruled name
"=HYPERLINK(...)") is written with a leading apostrophe, which spreadsheets
hide and show the text as typed (the OWASP advice against CSV injection).
Numbers are written as numbers.
"""

from __future__ import annotations

import csv
import io

from chargen.formats import BatchInfo, Format
from chargen.view import CharacterView, Figure
from chargen.engines import view_of

BOM = "\ufeff"
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

COMMON = ("index", "name", "sex", "age", "system", "seed", "archetype")  # every roster's first columns


def row(view: CharacterView) -> tuple[list[str], list]:
    """The roster's header and ``view``'s row: the common columns, then the engine's (its view's ``columns``)."""
    h = view.header
    common = [h.index, h.name, h.sex, h.age, h.system, h.seed, h.archetype]
    extra = [*view.columns, *view.flavour]  # then each flavour table's column (its id), and a party's relations
    if view.relations is not None:
        extra.append(Figure("Relations", "; ".join(view.relations), "relations"))
    return [*COMMON, *(f.key or f.label for f in extra)], [*common, *(f.value for f in extra)]


def cell(value: object) -> object:
    """A cell as a spreadsheet should read it: numbers as numbers, text never as a formula."""
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value).lower()
    if isinstance(value, (int, float)):
        return value
    text = " ".join(str(value).split())  # one line per row, whatever a house rule's label holds
    return "'" + text if text.startswith(_FORMULA_START) else text


def _line(values: list) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerow(values)
    return buffer.getvalue()


class CsvFormat(Format):
    name, suffix = "csv", ".csv"
    per_character = False
    batch_file = "roster.csv"

    def to_bytes(self, doc: dict, renderer=None) -> bytes:
        """A roster of one character (the header and its row)."""
        return self.join([self.part(doc)], BatchInfo(doc["system"]["engine"], ""))

    def part(self, doc: dict) -> str:
        """The roster's header line, then ``doc``'s row (every character of a batch has the same
        header: its rules'; :meth:`join` keeps the first)."""
        names, values = row(view_of(doc))
        return _line([cell(str(n)) for n in names]) + _line([cell(v) for v in values])  # a house rule's label too

    def join(self, parts: list[str], info: BatchInfo) -> bytes:
        if not parts:
            return (BOM + _line(list(COMMON))).encode("utf-8")
        head = parts[0][:parts[0].index("\r\n") + 2]
        return (BOM + head + "".join(p[p.index("\r\n") + 2:] for p in parts)).encode("utf-8")
