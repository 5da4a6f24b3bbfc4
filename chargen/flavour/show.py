"""What views, formats and ``chargen explain`` print of a character's flavour and relations.

Everything here reads the document alone (a saved character prints the same
without its rules), one line per value, white space runs made one space.
"""

from __future__ import annotations

import re

from chargen.flavour import DOC_KEY, RELATIONS_KEY
from chargen.inert import inert

LABELS = {"appearance": "Appearance", "manner": "Manner", "speech": "Speech", "motive": "Motive",
          "secret": "Secret", "hook": "Hook", "quirk": "Quirk", "possession": "Possession", "fear": "Fear",
          "rumour": "Rumour"}  # a table id without a label here is shown as its id, capitalised
BLOCK = ("appearance", "manner", "motive")  # the one line of a block or card, in this order


def _clean(text: object) -> str:
    return " ".join(str(text).split())


def label(table_id: str) -> str:
    return LABELS.get(table_id, table_id.replace("_", " ").capitalize())


def pairs(doc: dict) -> list[tuple[str, str]]:
    """``(label, text)`` for each flavour value of ``doc``, in the document's (the tables') order."""
    record = doc.get(DOC_KEY) if isinstance(doc, dict) else None
    if not isinstance(record, dict):
        return []
    return [(label(k), _clean(v.get("value", ""))) for k, v in record.items()
            if isinstance(v, dict) and str(v.get("value", "")).strip()]


def block_line(doc: dict) -> str:
    """One line for a stat block or card: appearance; manner; wants: motive ("" without flavour)."""
    record = doc.get(DOC_KEY) if isinstance(doc, dict) else None
    if not isinstance(record, dict):
        return ""
    parts = []
    for key in BLOCK:
        v = record.get(key)
        if isinstance(v, dict) and str(v.get("value", "")).strip():
            text = _clean(v["value"])
            parts.append(f"wants {text}" if key == "motive" else text)
    if not parts:
        return ""
    line = "; ".join(parts)
    return line[0].upper() + line[1:] + "."


def relations(doc: dict) -> list[dict]:
    rel = doc.get(RELATIONS_KEY) if isinstance(doc, dict) else None
    return [r for r in rel if isinstance(r, dict)] if isinstance(rel, list) else []


def relation_texts(doc: dict) -> list[str]:
    """``Owes money to Red Ulf (lost a wager ...)`` for each relation of ``doc``."""
    return [f"{_clean(r.get('label', r.get('kind', '')))} {_clean(r.get('with', ''))}"
            + (f" ({_clean(r['reason'])})" if r.get("reason") else "") for r in relations(doc)]


def features(doc: dict) -> list[str]:
    """MEG ``features`` lines ("List: item"): ``Appearance: ...`` for each flavour value, ``Relation: ...`` each tie."""
    return [f"{k}: {v}" for k, v in pairs(doc)] + [f"Relation: {t}" for t in relation_texts(doc)]


def traits(doc: dict) -> list[dict]:
    """Fantasy Statblocks ``traits`` (``{name, desc}``): each flavour value, then each tie."""
    return [{"name": k, "desc": v} for k, v in pairs(doc)] + \
        [{"name": "Relation", "desc": t} for t in relation_texts(doc)]


def biography_html(doc: dict) -> str:
    """A Foundry biography: one escaped paragraph per flavour value and tie ("" without any), the text
    made inert first (Foundry matches its enrichers in the decoded text: :mod:`chargen.inert`)."""
    from html import escape

    rows = [(k, v) for k, v in pairs(doc)] + [("Relation", t) for t in relation_texts(doc)]
    return "".join(f"<p><strong>{escape(inert(k))}:</strong> {escape(inert(v))}</p>" for k, v in rows)


FEATURE = re.compile(rf"({'|'.join(sorted(set(LABELS.values())))}): (.+)", re.S)  # a MEG feature features() writes


def from_features(matches: list) -> dict:
    """A document's ``flavour`` from the MEG features :data:`FEATURE` matched (``{}`` for none): read back
    as values only (the rows and rolls are chargen's, not MEG's)."""
    found = {m[1].lower(): {"value": " ".join(m[2].split())} for m in matches}
    return {"flavour": found} if found else {}


def from_biography(text: object) -> dict:
    """A document's ``flavour`` from a Foundry biography :func:`biography_html` wrote (``{}`` for none):
    values only, as :func:`from_features` reads MEG's."""
    from html import unescape

    matches = [FEATURE.fullmatch(f"{unescape(k)}: {unescape(v)}") for k, v in _paragraphs(str(text or ""))]
    return from_features([m for m in matches if m is not None])


_HEAD = re.compile(r"<p><strong>([^<]*?):</strong> ")


def _paragraphs(text: str) -> list[tuple[str, str]]:
    """``(label, value)`` of each ``<p><strong>label:</strong> value</p>`` in ``text``, as
    ``re.findall(r"<p><strong>([^<]*?):</strong> (.*?)</p>", text, re.S)`` finds them, in linear time:
    that pattern looked for a ``</p>`` to the end of the text from every unclosed paragraph (5,000 of
    them, 145 KB: 15.7 s). Past the last ``</p>`` no paragraph closes, so the search stops there."""
    rows, at = [], 0
    while (head := _HEAD.search(text, at)) is not None:
        end = text.find("</p>", head.end())
        if end < 0:
            break
        rows.append((head[1], text[head.end():end]))
        at = end + len("</p>")
    return rows
