"""``csv``: a roster, one row per character, one file for the batch (``roster.csv``).

Columns are fixed per engine and in a fixed order: the common ones first
(:data:`COMMON`), then the engine's (:data:`COLUMNS`); an engine without its
own columns gets the common ones only. Lists (weapons, skills, armour) are one
cell each, items separated by ``"; "``.

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
from collections.abc import Callable

from chargen.formats import BatchInfo, Format

BOM = "\ufeff"
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

Column = tuple[str, Callable[[dict], object]]


def _join(items) -> str:
    return "; ".join(str(i) for i in items)


COMMON: tuple[Column, ...] = (
    ("index", lambda d: d["seed"]["index"]),
    ("name", lambda d: d["identity"]["name"]),
    ("sex", lambda d: d["identity"].get("sex", "")),
    ("age", lambda d: d["identity"].get("age", "")),
    ("system", lambda d: d["system"]["id"]),
    ("seed", lambda d: d["seed"]["batch"]),
    ("archetype", lambda d: (d.get("archetype") or {}).get("label", "")),
)


def _d100_weapon(w: dict) -> str:
    parry = f"/{w['parry']}%" if w.get("parry") is not None else ""
    attack = "-" if w.get("attack") is None else f"{w['attack']}%"
    return f"{w['label']} {attack}{parry} {w.get('damage') or '-'}"


def _d100_chars(key: str) -> Column:
    return key.upper(), lambda d: d["characteristics"].get(key, "")


_D100 = (
    ("background", lambda d: d["background"]["label"]),
    ("profession", lambda d: d["experience"]["profession"]["label"] if d.get("experience") else ""),
    ("years", lambda d: d["experience"]["years"] if d.get("experience") else ""),
    *(_d100_chars(k) for k in ("str", "con", "siz", "int", "pow", "dex", "cha")),
    ("hit_points", lambda d: d["combat"]["hit_points"]),
    ("pow_points", lambda d: d["combat"]["pow_points"]),
    ("mov", lambda d: d["combat"]["mov"]),
    ("damage_modifier", lambda d: d["combat"]["damage_modifier"]),
    ("sr_siz", lambda d: d["combat"]["strike_ranks"]["siz"]),
    ("sr_dex", lambda d: d["combat"]["strike_ranks"]["dex"]),
    ("attack_bonus", lambda d: d["combat"]["attack"]),
    ("parry_bonus", lambda d: d["combat"]["parry"]),
    ("defence", lambda d: d["combat"]["defence"]),
    ("armour", lambda d: _join(a["label"] for a in d["armour"])),
    ("weapons", lambda d: _join(_d100_weapon(w) for w in d["weapons"])),
    ("skills", lambda d: _join(f"{s['label']} {s['value']}%" for s in d["skills"] if s["value"] > s["base"])),
    ("money", lambda d: f"{d['money']['starting']} {d['money']['currency']}"),
)


def _kotm_weapon(w: dict) -> str:
    hit = w["damage"]["hit"]
    return f"{w['label']} {hit[0]}-{hit[1]}"


_KOTM = (
    ("profession", lambda d: d["profession"]["label"]),
    ("level", lambda d: d["level"]),
    ("sd", lambda d: d["sd"]),
    ("save_check", lambda d: d["save_check"]),
    ("critical_fumble_damage", lambda d: d["critical_fumble_damage"]),
    ("weapons", lambda d: _join(_kotm_weapon(w) for w in d["weapons"])),
)


def _rtd_stat(abbr: str) -> Column:
    return abbr, lambda d: next((s["value"] for s in d["stats"] if s["abbr"] == abbr), "")


_RTD = (
    *(_rtd_stat(a) for a in ("STR", "DEX", "CON", "INT", "WIS", "CHA")),
    ("skills", lambda d: _join(f"{s['label']} {s['level_label']} ({s['xp']} XP)" for s in d["skills"])),
    ("weapons", lambda d: _join(f"{w['label']} {w['damage']}" for w in d["weapons"])),
)

COLUMNS: dict[str, tuple[Column, ...]] = {"d100": _D100, "kotm": _KOTM, "rtd": _RTD}


def columns(engine: str) -> tuple[Column, ...]:
    return COMMON + COLUMNS.get(engine, ())


def header(engine: str) -> list[str]:
    return [name for name, _ in columns(engine)]


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
        return _line([cell(get(doc)) for _, get in columns(doc["system"]["engine"])])

    def join(self, parts: list[str], info: BatchInfo) -> bytes:
        return (BOM + _line(header(info.engine)) + "".join(parts)).encode("utf-8")
