"""``chargen explain`` of a flavour value: the table, the variant, the row and the roll (and a house rule
that changed the table)."""

from __future__ import annotations

from chargen.flavour import DOC_KEY


def _clean(text: object) -> str:
    return " ".join(str(text).split())


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
