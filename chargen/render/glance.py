"""The party at a glance (issue 25): one page of party.pdf with every character side by side.

Each character is a column (:data:`PER_PAGE` a page; more characters, more pages,
each with the row labels again); each row a figure, read from the character's view
(:mod:`chargen.view`), never from its rules:

* the figures of its strip, as the sheet's top shows them (D100: the characteristics,
  move, hit points, POW points, damage modifier, strike ranks, attack, parry and
  defence; KoTM: level, SD, save check, critical fumble damage; RTD: the stats);
* its key skills (``view.skills``): those any character of the party has raised
  (``view.trained``: D100, a skill raised past its base and category modifier by
  experience, a profession, an archetype, a pin or a hand edit; RTD, a skill with
  experience); when no one has, the skills whose values differ in the party. A
  house rule's extra skills are skills like any other.

In each row the best value of the party is marked (the highest whole number, or
signed percentage: ``+10%``), when the characters do not all have it; a figure that
is not a number (strike ranks ``SIZ 2 DEX 3``, a damage modifier ``+1D4``) is shown
and not ranked. Characters of different rules are compared in separate tables.
"""

from __future__ import annotations

import re

PER_PAGE = 8
_NUMBER = re.compile(r"^[+-]?\d+%?$")


def glance(view, n: int) -> dict:
    """What the page needs of one character (``n``: its number in the batch): small and picklable."""
    h = view.header
    return {"n": n, "name": h.name, "system": f"{h.system_name} {h.version}", "archetype": h.archetype,
            "figures": [(f.label, f.value) for ln in view.strip for g in ln.groups for f in g.figures],
            "skills": [(f.key, f.label, f.value) for f in view.skills], "trained": list(view.trained)}


def _number(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    text = str(value).strip()
    return int(text.rstrip("%")) if _NUMBER.match(text) else None


def _row(label: str, values: list, kind: str) -> dict:
    numbers = [_number(v) for v in values]
    known = [x for x in numbers if x is not None]
    best = max(known) if len(known) > 1 and len(set(known)) > 1 else None
    return {"label": label, "kind": kind,
            "cells": [{"value": "\u2013" if v is None else v, "best": best is not None and x == best}
                      for v, x in zip(values, numbers)]}


def _key_skills(members: list[dict]) -> list[tuple[str, str]]:
    """(key, label) of the party's key skills, in the order the characters list them."""
    labels: dict[str, str] = {}
    for m in members:
        for key, label, _ in m["skills"]:
            labels.setdefault(key, label)
    trained = {k for m in members for k in m["trained"]}
    if not trained:  # no one raised any: the skills the party differs in
        values: dict[str, set] = {}
        for m in members:
            for key, _, value in m["skills"]:
                values.setdefault(key, set()).add(value)
        trained = {k for k, v in values.items() if len(v) > 1 or len(members) > 1 and
                   sum(k in {s[0] for s in m["skills"]} for m in members) < len(members)}
    return [(k, label) for k, label in labels.items() if k in trained]


def table(members: list[dict]) -> list[dict]:
    """The rows comparing ``members`` (characters of one rules module): figures, then key skills."""
    labels = list(dict.fromkeys(label for m in members for label, _ in m["figures"]))
    rows = [_row(label, [dict(m["figures"]).get(label) for m in members], "figure") for label in labels]
    for key, label in _key_skills(members):
        values = [next((v for k, _, v in m["skills"] if k == key), None) for m in members]
        rows.append(_row(label, values, "skill"))
        for cell, m in zip(rows[-1]["cells"], members):
            cell["raised"] = key in m["trained"] or not any(x["trained"] for x in members)
    return rows


def pages(glances: list[dict], per_page: int = PER_PAGE) -> list[dict]:
    """The comparison's pages: per rules module (in order of first appearance), the party's rows
    (best marked across the whole party), ``per_page`` characters a page."""
    systems = list(dict.fromkeys(g["system"] for g in glances))
    out = []
    for system in systems:
        members = [g for g in glances if g["system"] == system]
        rows = table(members)
        chunks = range(0, len(members), per_page)
        for k, start in enumerate(chunks):
            end = start + per_page
            out.append({"system": system, "part": k + 1, "parts": len(chunks), "members": members[start:end],
                        "count": len(members), "skills": any(r["kind"] == "skill" for r in rows),
                        "rows": [{**r, "cells": r["cells"][start:end]} for r in rows]})
    return out
