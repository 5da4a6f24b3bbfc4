"""A manifest read back (``--resume``, ``--force``) holds what chargen writes in one, and nothing else.

:func:`chargen.run.files.read_manifest` reads the bytes; this module checks them
before and after parsing, so a changed or planted manifest is one ``Error:``
line naming the manifest and the key, never a batch resumed from values chargen
would not have written (an unknown layout, 1,000 cards a page, a PDF variant or
paper it does not make, control characters in a name, NaN, a key it never writes):

* before parsing, the size and the number of containers and values, outside
  strings: what a batch of ``MAX_COUNT`` characters in every format has at most,
  so a file of millions of empty objects is refused before it is built in memory;
* after, every key and its type, every text printable (no control characters, lone
  surrogates or bidirectional controls), nesting no deeper than chargen writes, and
  each sheet option one of the choices chargen offers.

What depends on the rules (the archetype, the years, pins and requirements, the layout
of the engine) is checked once they are loaded (:func:`chargen.run.asked.resumed_run`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from chargen.errors import OutputError
from chargen.seeds import MAX_COUNT, SEED_DERIVATIONS

# A manifest's size and shape, measured (issue 26): a character's entry in all nine formats with a
# name of 200 two-byte characters is 1,450 bytes (four-byte ones: about 1,850), 3 objects and 34 values
# (a ',' or ':' each); in json, html and pdf with a 40-character name 550 bytes (a 20,000-sheet batch's
# manifest: 11 MB). The fields above the characters (a party file's 500 lines) are under 1 MB.
HEAD_BYTES = 2_000_000
ENTRY_BYTES = 2_500
ENTRY_CONTAINERS = 3
ENTRY_VALUES = 40
HEAD_CONTAINERS = 20_000
HEAD_VALUES = 100_000
MAX_DEPTH = 6  # manifest > party > lines > line > require > text


def max_bytes() -> int:
    """The largest manifest chargen writes, with room: a batch of ``MAX_COUNT`` characters."""
    return HEAD_BYTES + MAX_COUNT * ENTRY_BYTES


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')


def check_shape(raw: bytes, path: Path) -> None:
    """Refuse, before parsing, a manifest with more containers or values than chargen writes."""
    bare = _STRING.sub(b'""', raw)  # the JSON outside its strings
    containers = bare.count(b"{") + bare.count(b"[")
    values = bare.count(b",") + bare.count(b":")
    most_containers = HEAD_CONTAINERS + MAX_COUNT * ENTRY_CONTAINERS
    most_values = HEAD_VALUES + MAX_COUNT * ENTRY_VALUES
    if containers > most_containers or values > most_values:
        raise OutputError(f"{path}: not a chargen manifest ({containers:,} objects and lists, {values:,} values; "
                          f"a batch of {MAX_COUNT:,} characters has at most {most_containers:,} and {most_values:,})")


def parse(raw: bytes, path: Path) -> object:
    """The manifest's JSON: UTF-8 without a byte-order mark, no NaN or infinities, no key twice."""
    def constant(name: str) -> object:
        raise ValueError(f"{name} is not a number chargen writes")

    def pairs(items: list) -> dict:
        out = dict(items)
        if len(out) != len(items):
            seen = set()
            twice = next(k for k, _ in items if k in seen or seen.add(k))
            raise ValueError(f"key {twice[:40]!r} twice in one object")
        return out

    try:
        return json.loads(raw.decode("utf-8"), parse_constant=constant, object_pairs_hook=pairs)
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise OutputError(f"{path}: not a chargen manifest ({str(e)[:80]})") from None


# What a manifest never holds: control characters (C0, DEL, C1), lone surrogates, the line and
# paragraph separators, and bidirectional-text controls (as the party name refuses them:
# chargen.render.contain.names).
_NOT_WRITTEN = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def check_values(m: object, path: Path) -> None:
    """Every text printable and nesting no deeper than chargen writes, naming the first key that is not."""
    stack = [(m, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise OutputError(f"{path}: {where[1:]}: nested deeper than a chargen manifest ({MAX_DEPTH} levels)")
        if isinstance(value, str):
            _check_text(value, where, path)
        elif isinstance(value, dict):
            for k, v in value.items():
                _check_text(k, where, path)
                stack.append((v, f"{where}.{k}", depth + 1))
        elif isinstance(value, list):
            stack.extend((v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value))
        elif isinstance(value, float):
            raise OutputError(f"{path}: {where[1:]}: {value!r} is not a value chargen writes (whole numbers only)")


def _check_text(text: str, where: str, path: Path) -> None:
    bad = _NOT_WRITTEN.search(text)
    if bad is not None:
        raise OutputError(f"{path}: {where[1:] or 'key'}: U+{ord(bad.group()):04X} is not a character chargen writes "
                          "in a manifest (control, surrogate or bidirectional characters)")


_SHEET_KEYS = ("paper", "party_name", "layout", "cards_per_page", "pdf_variant", "compare", "card_backs", "each_pdf",
               "against")
KNOWN_KEYS = frozenset({"schema", "chargen", "character_schema", "system", "seed", "seed_derivation", "first_index",
                        "count", "formats", "complete", "characters", "batch_files", "request", "party", "pins",
                        "requires", "flavour", "force", *_SHEET_KEYS})
_FLAGS = {"compare": True, "card_backs": True, "each_pdf": True, "flavour": False, "force": True}  # recorded only when set, and then only as this
_REQUEST_KEYS = ("archetype", "profession", "years")
_PARTY_KEYS = {"file", "sha256", "name", "lines"}
_LINE_KEYS = {"key", "archetype", "count", "count_dice", "seed", "require"}


def check_fields(m: dict, path: Path) -> None:
    """The keys chargen writes, each sheet option one of its choices, the request, pins and party in shape."""
    unknown = sorted(k for k in m if k not in KNOWN_KEYS)
    if unknown:
        raise OutputError(f"{path}: {unknown[0][:40]}: not a key chargen writes in a manifest")
    if set(m["system"]) != {"id", "version", "rules_hash", "overlays"}:
        raise OutputError(f"{path}: system: expected id, version, rules_hash and overlays")
    if m.get("seed_derivation") not in SEED_DERIVATIONS:
        raise OutputError(f"{path}: seed_derivation: {str(m.get('seed_derivation'))[:40]!r} is not one chargen "
                          f"knows (chargen writes one of {len(SEED_DERIVATIONS)}: see docs/document.md)")
    for key, value in _FLAGS.items():
        if key in m and m[key] is not value:
            raise OutputError(f"{path}: {key}: {str(m[key])[:40]!r} is not a value chargen writes (only {value})")
    _check_sheet_options(m, path)
    _check_request(m, path)
    _check_party(m, path)


def _check_sheet_options(m: dict, path: Path) -> None:
    from chargen import engines
    from chargen.choices import CARDS_PER_PAGE, PAPERS, PDF_VARIANTS
    from chargen.render.contain.names import MAX_PARTY_NAME

    choices = {"paper": list(PAPERS), "layout": engines.layout_ids(), "cards_per_page": list(CARDS_PER_PAGE),
               "pdf_variant": list(PDF_VARIANTS)}
    for key, allowed in choices.items():
        if key in m and m[key] not in allowed:
            raise OutputError(f"{path}: {key}: {str(m[key])[:40]!r} is not one chargen makes "
                              f"(expected one of: {', '.join(map(str, allowed))})")
    if "cards_per_page" in m and not engines.layout_scope(m.get("layout", "sheet")).choices:
        raise OutputError(f"{path}: cards_per_page: recorded for layout {m.get('layout', 'sheet')!r}, "
                          "which does not choose its cards a page")
    name = m.get("party_name")
    if name is not None and not 0 < len(name.strip()) <= max(MAX_PARTY_NAME, 120):
        raise OutputError(f"{path}: party_name: expected a name of 1 to 120 characters")
    against = m.get("against")
    if against is not None and not (isinstance(against, str) and 0 < len(against) <= 1000):
        raise OutputError(f"{path}: against: expected the path of a side, 1 to 1000 characters")


def _check_request(m: dict, path: Path) -> None:
    request = m.get("request", {})
    bad = [k for k, v in request.items() if k not in _REQUEST_KEYS or not isinstance(v, str) or len(v) > 100]
    if bad:
        raise OutputError(f"{path}: request.{str(bad[0])[:40]}: expected archetype, profession or years, as text")
    for key, kind in (("pins", list), ("requires", str)):
        for n, item in enumerate(m.get(key, [])):
            if not isinstance(item, kind) or (kind is list and not _is_pin(item)):
                raise OutputError(f"{path}: {key}[{n}]: not a {'pin' if kind is list else 'requirement'} "
                                  "chargen writes")


def _is_pin(pin: list) -> bool:
    """``[path, value]`` or ``[index, path, value]`` as RunSpec.to_manifest writes them."""
    if len(pin) == 3 and not (type(pin[0]) is int and pin[0] >= 0):
        return False
    return len(pin) in (2, 3) and isinstance(pin[-2], str) and type(pin[-1]) in (str, int) \
        and len(pin[-2]) <= 200 and len(str(pin[-1])) <= 400


def _check_party(m: dict, path: Path) -> None:
    party = m.get("party")
    if party is None:
        return
    if set(party) != _PARTY_KEYS or not isinstance(party["lines"], list) or not all(
            isinstance(party[k], str) for k in ("file", "sha256", "name")):
        raise OutputError(f"{path}: party: expected file, sha256, name and lines")
    if "/" in party["file"] or party["file"] in ("", ".", ".."):
        raise OutputError(f"{path}: party.file: expected the party file's name")
    for n, line in enumerate(party["lines"]):
        if not isinstance(line, dict) or not set(line) <= _LINE_KEYS or type(line.get("count")) is not int \
                or type(line.get("seed")) is not int or not isinstance(line.get("key"), str):
            raise OutputError(f"{path}: party.lines[{n}]: expected key, count, count_dice and seed")
