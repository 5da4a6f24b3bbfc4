"""``chargen explain``: how one value of a character came to be.

Each value is explained from the character's own record and its rules: the
dice rolled for it with their faces (the document's ``rolls``), the rule that
derives it with its inputs, each rules entry it read (``file: key, row R:
value``, the key a path into that rules file), each modifier of a record with
``sources`` (base, category, profession and years, archetype, overlay, pin,
edit), pins (``--set``) and hand edits (a stored value the rules disagree with).
The derivation is recomputed from the document's inputs under its rules
(:func:`chargen.edits.recompute`); the stored ``trail`` stands in for an engine
that cannot recompute.
"""

from __future__ import annotations

from chargen import edits, paths
from chargen.digits import whole
from chargen.errors import CharacterError
from chargen.flavour.explain import explain_lines
from chargen.generate import Derivation
from chargen.rules import builtin_ids, load_builtin

INDENT = "  "


def _trail(doc: dict, rules: object) -> list[Derivation]:
    done = edits.recompute(doc, rules)
    stored = [Derivation(s["path"], s["value"], s["rule"], s.get("inputs", {}), tuple(map(tuple, s.get("tables", ()))))
              for s in doc.get("trail", ()) if isinstance(s, dict)]
    inputs = [d for d in stored if d.rule.startswith("input:")]
    if done is None:
        return stored
    fresh = [d for d in done[1].steps if not d.rule.startswith("input:")]
    have = {d.path for d in fresh}
    made = [d for d in stored if not d.rule.startswith("input:") and d.path not in have]  # how an input was made
    return inputs + made + fresh


def _roll_line(r: dict) -> str:
    faces = " ".join(str(f) for f in r["rolled"])
    if not faces:
        return f"{r['dice']} for {r['for']}: {r['total']}"
    total = "" if len(r["rolled"]) == 1 and r["rolled"][0] == r["total"] else f" = {r['total']}"
    return f"rolled {r['dice']} for {r['for']}: {faces}{total}"


def _rolls(doc: dict, path: str) -> list[dict]:
    return [r for r in doc.get("rolls", ()) if r.get("for") == path or str(r.get("for", "")).startswith(path + ".")]


def _table_line(t, module=None) -> str:
    file, key, row, value = t[:4]
    where = f"{key}, row {row}" if row is not None else key
    looked_up = f" ({t[4]})" if len(t) > 4 else ""
    return f"{file}: {where}{looked_up}: {paths.shown(value)}{_overlay_note(module, t)}"


def _entry(data: object, key: str, row) -> object:
    node = paths.lookup(data, key)
    if row is not None and isinstance(node, dict):
        n = whole(str(row))
        node = node.get(row, node.get(n) if n is not None else None)
    return node


def _overlay_note(module, t) -> str:
    """`` (house rules NAME)`` when the entry's value is not the built-in module's: an overlay set it."""
    if module is None or not module.overlays:
        return ""
    if module.id not in builtin_ids():
        return ""
    stem = t[0].removesuffix(".yaml")
    base = _entry(load_builtin(module.id).data.get(stem), t[1], t[2])
    if base == _entry(module.data.get(stem), t[1], t[2]):
        return ""
    return f" (house rules {', '.join(o['name'] for o in module.overlays)})"


def _source_line(s: dict) -> str:
    extra = ", ".join(str(v) if k == "id" else f"{k} {v}" for k, v in s.items() if k not in ("source", "value"))
    return f"{s['source']}{' ' + extra if extra else ''}: {s['value']:+d}"


def _input_path(doc: dict, name: str) -> str | None:
    for p in (name, f"characteristics.{name}", f"stats.{name}"):
        if paths.lookup(doc, p) is not None:
            return p
    return None


def _step_lines(doc: dict, d: Derivation, pins: dict, derived: frozenset = frozenset(), module=None) -> list[str]:
    if d.rule.startswith("input:"):
        return []
    out = [f"{INDENT}{d.path}: {paths.shown(d.value)}, {d.rule}"]
    for t in d.tables:
        out.append(f"{INDENT * 2}{_table_line(t, module)}")
    for name, value in d.inputs.items():
        p = _input_path(doc, name)
        how = ""
        if p in pins:
            how = f" (pinned with --set {p}={pins[p]})"
        elif p in derived and p != d.path:
            how = f" (derived: chargen explain FILE {p})"
        elif p is not None and (rolled := [r for r in doc.get("rolls", ()) if r.get("for") == p]):
            how = f" ({_roll_line(rolled[-1])})"
        out.append(f"{INDENT * 2}{name} {paths.shown(value)}{how}")
    return out


def explain(doc: dict, rules: object, path: str, module=None) -> list[str]:
    """The lines that explain ``path`` of ``doc`` (an error when the character has no such value);
    ``best_weapon.attack`` or ``weapons[1]`` is explained as the record it names (``weapons.broadsword.attack``)."""
    asked, path = path, paths.canonical(doc, path)
    if asked != path:
        return [f"{asked} is {path}", *explain(doc, rules, path, module)]
    node = paths.lookup(doc, path)
    trail = _trail(doc, rules)
    if node is None or path.split(".")[0] in ("rolls", "trail"):
        step = next((d for d in trail if d.path == path), None)  # a figure the sheet shows: a roll-off chance
        if step is None:
            raise CharacterError(f"{path[:80]}: no such value in this character (e.g. {', '.join(_examples(doc))})")
        node = step.value
    return _explain(doc, path, node, trail, edits.disagreements(doc, rules), module=module)


def _explain(doc: dict, path: str, node: object, trail: list[Derivation], problems: list,
             derived: frozenset | None = None, module=None) -> list[str]:
    if derived is None:
        derived = frozenset(x.path for x in trail if not x.rule.startswith("input:"))
    pins = dict(doc.get("pins") or {})
    out = [f"{path}: {_brief(node)}"]
    if path in pins:
        out.append(f"{INDENT}pinned with --set {path}={pins[path]} (its roll was made, then replaced)")
    made = {s["path"]: s["value"] for s in doc.get("trail", ()) if isinstance(s, dict)
            and str(s.get("rule", "")).startswith("input:") and "path" in s}
    for p, now in edits.edited_inputs(doc).items():
        if p == path or p.startswith(path + "."):
            out.append(f"{INDENT}{p}: edited by hand: {paths.shown(now)}, made as {paths.shown(made.get(p))} "
                       "(the values derived from it follow the edit)")
    listed = set()
    for d in problems:
        if d.path == path or d.path.startswith(path + "."):
            kind = "edited by hand, kept" if d.edited else "stale"
            listed.add(d.path)
            out.append(f"{INDENT}{d.path}: stored {paths.shown(d.stored)}, the rules give {paths.shown(d.rules)} "
                       f"({kind}; from {d.why})")
    for d in trail:  # a value the rules give from rolls only (money, age): stored otherwise, it was edited by hand
        stored = paths.lookup(doc, d.path)
        if (d.path == path or d.path.startswith(path + ".")) and d.path not in listed and not d.rule.startswith("input:") \
                and not isinstance(stored, (dict, list)) and stored is not None and stored != d.value \
                and d.path not in made:
            listed.add(d.path)
            out.append(f"{INDENT}{d.path}: stored {paths.shown(stored)}, the rules give {paths.shown(d.value)} "
                       "(edited by hand, kept)")
    for r in _rolls(doc, path):
        out.append(f"{INDENT}{_roll_line(r)}")
    if isinstance(node, dict) and isinstance(node.get("sources"), list):
        out.append(f"{INDENT}the sum of its sources: "
                   + ", ".join(_source_line(s) for s in node["sources"] if isinstance(s, dict)))
    for d in trail:
        if d.path == path or d.path.startswith(path + "."):
            out += _step_lines(doc, d, pins, derived, module)
    out += explain_lines(doc, path, module)
    if len(out) == 1:
        out.append(f"{INDENT}as stored (nothing rolled or derived for it; a choice of the rules or a hand edit)")
    return out


def _brief(node: object) -> str:
    if isinstance(node, dict):
        return paths.shown(node.get("value", node.get("id", node.get("label", "{...}"))))
    if isinstance(node, list) and any(isinstance(x, (dict, list)) for x in node):
        return f"{len(node)} entries"
    return paths.shown(node)


def _examples(doc: dict) -> list[str]:
    return [p for p, _ in paths.leaves({k: v for k, v in doc.items() if k not in edits.ENVELOPE})][:6]


def explain_all(doc: dict, rules: object, module=None) -> list[str]:
    """Every value with a roll, a pin or a derivation, inputs first, a blank line between."""
    trail = _trail(doc, rules)
    problems = edits.disagreements(doc, rules)
    wanted = list(dict.fromkeys([d.path for d in trail]))
    out: list[str] = []
    for p in wanted:
        node = paths.lookup(doc, p)
        if node is None:
            continue
        if out:
            out.append("")
        out += _explain(doc, p, node, [d for d in trail if d.path == p], problems,
                        frozenset(x.path for x in trail if not x.rule.startswith("input:")), module)
    return out
