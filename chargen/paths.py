"""Paths into a character document, as ``--set``, ``--require``, ``explain`` and ``check`` spell them.

A path is dot-separated keys: ``characteristics.str``, ``identity.name``,
``combat.hit_points``. A list of records with ids is entered by id
(``skills.climbing``, ``weapons.broadsword.damage.hit``; a record whose id
repeats is entered by position, ``weapons[1]``); a record that holds a
``value`` stands for its value in a comparison (``skills.climbing>=40``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

_MISSING = object()


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
        if key.startswith("[") and key[1:-1].isdigit():
            n = int(key[1:-1])
            return node[n] if n < len(node) else _MISSING
        for item in node:
            if isinstance(item, dict) and item.get("id") == key:
                return item
    return _MISSING


def lookup(doc: object, path: str, default: object = None) -> object:
    node = doc
    for key in split(path):
        node = step(node, key)
        if node is _MISSING:
            return default
    return node


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
