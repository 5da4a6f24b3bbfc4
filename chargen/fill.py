"""Entries added by hand by their id alone (``{id: broadsword}``): filled from the rules.

A saved character's weapon, skill or armour piece may give only its id (and
the inputs the rules cannot know, such as an RTD skill's XP); the engine's
``fill(rules, doc)`` completes each such entry from the rules before the
document is validated, keeping every key given. Every problem of every entry
(an id the rules lack, an input missing) is reported together, in one error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from chargen import engines


def fill_list(doc: dict, key: str, known: Mapping, make: Callable[[dict], dict] | None, what: str,
              needs: tuple[str, ...] = ()) -> list[str]:
    """Complete each entry of ``doc[key]`` that lacks a key its full form has; the problems found.
    Without ``make`` (the character's other values are too broken to derive from), ids are checked only."""
    items = doc.get(key)
    if not isinstance(items, list):
        return []
    problems = []
    for n, item in enumerate(items):
        if not isinstance(item, dict) or "id" not in item:
            continue
        if item["id"] not in known:
            problems.append(f"{key}[{n}].id: no {what} '{str(item['id'])[:40]}' in its rules "
                            f"(expected one of: {', '.join(sorted(map(str, known)))})")
            continue
        missing = [k for k in needs if not isinstance(item.get(k), int) or isinstance(item.get(k), bool)]
        if missing:
            problems += [f"{key}[{n}].{k}: missing (a whole number: the rules cannot give it)" for k in missing]
            continue
        if make is None:
            continue
        full = make(item)
        if set(full) - set(item):
            items[n] = {**full, **{k: v for k, v in item.items() if k in full}}
    return problems


def fill_document(doc: object, rules: object) -> list[str]:
    """Fill ``doc``'s entries given by id under ``rules`` (its engine's ``fill``); the problems found."""
    system = doc.get("system") if isinstance(doc, dict) else None
    engine = engines.get(system.get("engine")) if isinstance(system, dict) and isinstance(system.get("engine"), str) else None
    if engine is None or engine.fill is None or rules is None:
        return []
    try:
        return engine.fill(rules, doc)
    except (KeyError, TypeError, ValueError, AttributeError):
        return []  # a document too broken to fill: the schema says what is wrong
