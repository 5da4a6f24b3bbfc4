"""Paths into a character document, as ``--set``, ``--require``, ``explain`` and ``check`` spell them.

A path is dot-separated keys: ``characteristics.str``, ``identity.name``,
``combat.hit_points``. A list of records with ids is entered by id
(``skills.climbing``, ``weapons.broadsword.damage.hit``; a record whose id
repeats is entered by position, ``weapons[1]``); a record that holds a
``value`` stands for its value in a comparison (``skills.climbing>=40``).

``best_weapon`` names the weapon the character fights best with: of the
weapons it can use (``below_minimum`` null: one below its minimum STR/DEX
cannot be used at all), the one with the highest figure its engine ranks
weapons by (:attr:`chargen.engines.Engine.best_weapon`: d100 ``attack``, KoTM
``damage_modifier``, RTD ``damage``), the first listed on a tie:
``best_weapon.attack>=60``. ``--require``, ``--set`` and ``explain`` read paths
with this one grammar (:data:`PATH`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping

from chargen.digits import whole

_MISSING = object()
BEST_WEAPON = "best_weapon"
PATH = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+|\[[0-9]{1,6}\])*"  # keys by dots, records by id or [n]
_PATH = re.compile(PATH)


def well_formed(path: str) -> bool:
    """Whether ``path`` is spelled as a path: ``skills.climbing``, ``weapons[1].attack``, ``best_weapon.attack``."""
    return _PATH.fullmatch(path) is not None


def _key(items: list, n: int) -> str:
    item = items[n]
    if isinstance(item, dict) and isinstance(item.get("id"), str):
        ids = [x.get("id") for x in items if isinstance(x, dict)]
        if ids.count(item["id"]) == 1:
            return item["id"]
    return f"[{n}]"


def join(prefix: str, key: str) -> str:
    if key.startswith("["):
        return prefix + key
    return f"{prefix}.{key}" if prefix else key


def leaves(node: object, prefix: str = "") -> Iterator[tuple[str, object]]:
    """Every scalar (and empty container) of ``node`` with its path, in document order."""
    if isinstance(node, dict) and node:
        for k, v in node.items():
            yield from leaves(v, join(prefix, str(k)))
    elif isinstance(node, list) and node and not all(not isinstance(x, (dict, list)) for x in node):
        for n in range(len(node)):
            yield from leaves(node[n], join(prefix, _key(node, n)))
    else:
        yield prefix, node


def split(path: str) -> list[str]:
    parts: list[str] = []
    for piece in path.split("."):
        while "[" in piece:
            head, _, rest = piece.partition("[")
            if head:
                parts.append(head)
            index, _, piece = rest.partition("]")
            parts.append(f"[{index}]")
        if piece:
            parts.append(piece)
    return parts


def step(node: object, key: str) -> object:
    """One step down: a mapping's key, a list's record by id or ``[n]``; ``_MISSING`` when absent."""
    if isinstance(node, dict):
        return node.get(key, _MISSING)
    if isinstance(node, list):
        if key.startswith("[") and (n := whole(key[1:-1])) is not None:
            return node[n] if n < len(node) else _MISSING
        for item in node:
            if isinstance(item, dict) and item.get("id") == key:
                return item
    return _MISSING


def lookup(doc: object, path: str, default: object = None) -> object:
    node = doc
    for n, key in enumerate(split(path)):
        node = best_weapon(doc) if n == 0 and key == BEST_WEAPON and isinstance(doc, dict) \
            and BEST_WEAPON not in doc else step(node, key)
        if node is _MISSING or node is None and n == 0 and key == BEST_WEAPON:
            return default
    return node


def best_weapon(doc: dict) -> dict | None:
    """The weapon ``best_weapon`` names (see the module's text); None when the character has none it can use."""
    by = _ranked_by(doc)
    usable = [w for w in doc.get("weapons") or () if isinstance(w, dict) and not w.get("below_minimum")
              and _number(w.get(by))]
    return max(usable, key=lambda w: w[by], default=None)


def _ranked_by(doc: dict) -> str:
    """The weapon figure the document's engine ranks weapons by ("" when it declares none)."""
    from chargen import engines
    from chargen.errors import ChargenError

    system = doc.get("system") if isinstance(doc.get("system"), dict) else {}
    try:
        return engines.require(str(system.get("engine", system.get("id", "")))).best_weapon
    except ChargenError:
        return ""


def _number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def canonical(doc: object, path: str) -> str:
    """``path`` as the document's own records spell it: ``best_weapon`` and ``[n]`` replaced by the
    ids of the records they name (``weapons.broadsword.attack``); ``path`` itself when it names nothing."""
    node, out = doc, ""
    for n, key in enumerate(split(path)):
        if n == 0 and key == BEST_WEAPON and isinstance(doc, dict) and BEST_WEAPON not in doc:
            node = best_weapon(doc)
            if node is None:
                return path
            weapons = doc["weapons"]
            out = join("weapons", _key(weapons, next(i for i, w in enumerate(weapons) if w is node)))
            continue
        if isinstance(node, list) and key.startswith("[") and (n := whole(key[1:-1])) is not None and n < len(node):
            key = _key(node, n)
        node = step(node, key)
        if node is _MISSING:
            return path
        out = join(out, key)
    return out


def names_a_number(sample: dict, path: str, ids: Mapping[str, tuple[str, ...]]) -> str | None:
    """Why ``path`` cannot name a number of a character like ``sample`` (None: it can). A record
    entered by an id ``sample`` lacks but its rules have (``ids``: list key -> ids, e.g. a weapon
    another character carries) is read as any record of that list."""
    if _number(scalar(lookup(sample, path))):
        return None
    parts = split(path)
    if parts[0] == BEST_WEAPON and BEST_WEAPON not in sample:
        parts[0:1] = ["weapons", "[*]"]
    why = _could_be(sample, parts, ids, "")
    return f"{path} is not a number of this system's characters" if why == NOT_A_NUMBER else why


NOT_A_NUMBER = ""  # _could_be's answer for a path that names something else than a number


def _could_be(node: object, parts: list[str], ids: Mapping, prefix: str) -> str | None:
    if not parts:
        return None if _number(scalar(node)) or node is None else NOT_A_NUMBER
    key, rest = parts[0], parts[1:]
    if isinstance(node, list) and (key == "[*]" or step(node, key) is _MISSING and not key.startswith("[")):
        known = tuple(ids.get(prefix, ()))
        if key != "[*]" and key not in known:
            expected = f" (expected one of: {', '.join(known)})" if known else ""
            return f"{prefix} has no '{key}' in these rules{expected}"
        tries = [_could_be(item, rest, ids, join(prefix, key)) for item in node]
        return None if not tries or None in tries else tries[0]
    child = step(node, key)
    if child is _MISSING:
        return NOT_A_NUMBER
    return _could_be(child, rest, ids, join(prefix, key))


def scalar(value: object) -> object:
    """A record that holds a ``value`` (a d100 skill, an RTD stat) read as its value."""
    if isinstance(value, dict) and "value" in value:
        return value["value"]
    return value


def input_value(node: object) -> object:
    """An input as ``--set`` spells it: a record's ``value`` (a stat), else its ``id`` (a profession), else itself."""
    if isinstance(node, dict):
        return node.get("value", node.get("id"))
    return node


def shown(value: object) -> str:
    """A value as a check or explain line prints it."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)
