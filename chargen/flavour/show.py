"""What views, formats and ``chargen explain`` print of a character's flavour and relations.

Everything here reads the document alone (a saved character prints the same
without its rules), one line per value, white space runs made one space.
"""

from __future__ import annotations

from chargen.flavour import DOC_KEY, RELATIONS_KEY

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


def explain_lines(doc: dict, path: str, module=None) -> list[str]:
    """``chargen explain``'s lines for a flavour value (or all of them for ``flavour``): the table, the row
    and the roll; [] for any other path."""
    if path != DOC_KEY and not path.startswith(DOC_KEY + "."):
        return []
    record = doc.get(DOC_KEY)
    if not isinstance(record, dict):
        return []
    wanted = path.split(".")[1] if "." in path else None
    out = []
    for table_id, v in record.items():
        if wanted not in (None, table_id) or not isinstance(v, dict) or not isinstance(v.get("row"), int):
            continue
        rows = f"variants.{v['variant']}" if v.get("variant") is not None else "entries"
        head = "  " if wanted else f"  flavour.{table_id}: {_clean(v.get('value'))}\n    "
        out.append(f"{head}rolled {v.get('roll')} on 1D{v.get('of')} (the rows' weights summed), on the character's "
                   f"own flavour stream")
        out.append(f"{'    ' if wanted is None else '  '}flavour.yaml: tables[id={table_id}].{rows}, row {v['row']}: "
                   f"{_row_text(module, table_id, v)}{_house(module, table_id, v)}")
    return [line for text in out for line in text.split("\n")]


def _rows(module, table_id: str, variant):
    table = module.flavour.table(table_id) if module is not None and module.flavour is not None else None
    return None if table is None else table.rows_for(variant)[1]


def _row_text(module, table_id: str, v: dict) -> str:
    rows = _rows(module, table_id, v.get("variant"))
    if rows is None or not 1 <= v["row"] <= len(rows):
        return _clean(v.get("value"))
    made = rows[v["row"] - 1].text
    return made if not v.get("pinned") else f"{made} (replaced by the pin)"


def _house(module, table_id: str, v: dict) -> str:
    """`` (house rules NAME)`` when an overlay changed the table the value was rolled on."""
    if module is None or not module.overlays:
        return ""
    from chargen.rules import builtin_ids, load_builtin

    if module.id not in builtin_ids():
        return ""
    if _rows(load_builtin(module.id), table_id, v.get("variant")) == _rows(module, table_id, v.get("variant")):
        return ""
    return f" (house rules {', '.join(o['name'] for o in module.overlays)})"


def features(doc: dict) -> list[str]:
    """MEG ``features`` lines ("List: item"): ``Appearance: ...`` for each flavour value, ``Relation: ...`` each tie."""
    return [f"{k}: {v}" for k, v in pairs(doc)] + [f"Relation: {t}" for t in relation_texts(doc)]


def traits(doc: dict) -> list[dict]:
    """Fantasy Statblocks ``traits`` (``{name, desc}``): each flavour value, then each tie."""
    return [{"name": k, "desc": v} for k, v in pairs(doc)] + \
        [{"name": "Relation", "desc": t} for t in relation_texts(doc)]


def biography_html(doc: dict) -> str:
    """A Foundry biography: one escaped paragraph per flavour value and tie ("" without any)."""
    from html import escape

    rows = [(k, v) for k, v in pairs(doc)] + [("Relation", t) for t in relation_texts(doc)]
    return "".join(f"<p><strong>{escape(k)}:</strong> {escape(v)}</p>" for k, v in rows)
