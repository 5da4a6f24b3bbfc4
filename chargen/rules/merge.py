"""Applying overlays to a module's YAML data, remembering where every value came from.

The merged data keeps, for every key, the file, line and key path its value
came from, so a problem found when the merged module is validated names the
overlay's line when the overlay supplied the bad value, and the built-in
file's line otherwise. An id an overlay removed and other data still names is
reported with the line that removed it.
"""

from __future__ import annotations

from chargen.rules.check import Cursor, Problems, short
from chargen.rules.overlay import Operation, Overlay, Step
from chargen.rules.yamlio import Located, Spot


class Tracker:
    """Copies of YAML data that remember, for every key, where its value came from.

    ``spots[id(container)]`` holds one spot per key (a dict for a mapping, a
    parallel list for a list), kept in step by :meth:`put`, :meth:`append` and
    :meth:`delete`. ``keep`` holds every container so no id is reused.
    """

    def __init__(self) -> None:
        self.spots: dict[int, dict | list] = {}
        self.keep: list = []
        self.removed: dict[str, str] = {}

    def copy(self, value: object, doc: Located, path: tuple) -> object:
        if isinstance(value, dict):
            new, spots = {}, {}
            for k, v in value.items():
                new[k] = self.copy(v, doc, path + (k,))
                spots[k] = doc.where(path + (k,))
        elif isinstance(value, list):
            new = [self.copy(v, doc, path + (i,)) for i, v in enumerate(value)]
            spots = [doc.where(path + (i,)) for i in range(len(value))]
        else:
            return value
        self.keep.append(new)
        self.spots[id(new)] = spots
        return new

    def put(self, container: dict | list, key: object, value: object, spot: Spot) -> None:
        container[key] = value
        self.spots[id(container)][key] = spot

    def append(self, container: list, value: object, spot: Spot) -> None:
        container.append(value)
        self.spots[id(container)].append(spot)

    def delete(self, container: dict | list, keys: set) -> None:
        spots = self.spots[id(container)]
        if isinstance(container, dict):
            for k in keys:
                del container[k]
                del spots[k]
        else:
            keep = [i for i in range(len(container)) if i not in keys]
            container[:] = [container[i] for i in keep]
            spots[:] = [spots[i] for i in keep]

    def located(self, data: object, file: str) -> Located:
        """A :class:`Located` for merged ``data`` with the spot of every key path."""
        out = Located(data, file, {(): 1}, {(): (file, 1, ())}, self.removed)
        stack = [((), data)]
        while stack:
            path, value = stack.pop()
            spots = self.spots.get(id(value)) if isinstance(value, (dict, list)) else None
            if spots is None:
                continue
            keys = value.keys() if isinstance(value, dict) else range(len(value))
            for k in keys:
                spot = spots[k]
                out.spots[path + (k,)] = spot
                if spot[0] == file and spot[1]:
                    out.lines[path + (k,)] = spot[1]
                stack.append((path + (k,), value[k]))
        return out


def apply_overlays(docs: dict[str, Located], overlays: list[Overlay], problems: Problems) -> dict[str, Located]:
    """The module's documents with every overlay applied in order; problems name the overlay's lines."""
    tracker = Tracker()
    merged = {stem: tracker.copy(doc.data, doc, ()) for stem, doc in docs.items()}
    for overlay in overlays:
        unknown: set[str] = set()
        for op in overlay.operations:
            cursor = Cursor(overlay.doc, op.at, op.value, problems)
            if op.stem in merged:
                _apply(tracker, merged[op.stem], op, cursor)
            elif op.stem not in unknown:
                unknown.add(op.stem)
                Cursor(overlay.doc, op.at[:2], None, problems).fail(
                    f"unknown rules file '{op.stem}' (expected one of: {', '.join(sorted(merged))})")
    return {stem: tracker.located(merged[stem], docs[stem].file) for stem in docs}


_MISSING = object()


def _apply(tracker: Tracker, root: object, op: Operation, c: Cursor) -> None:
    walked = _walk(root, op.steps if op.kind != "set" else op.steps[:-1], c)
    if walked is _MISSING:
        return
    if op.kind == "set":
        slot = _slot(walked, op.steps[-1], op.steps[:-1], c)
        if slot is not None:
            tracker.put(walked, slot, tracker.copy(op.value, c.doc, op.at), c.doc.where(op.at))
    elif op.kind == "add":
        _add(tracker, walked, op, c)
    else:
        _remove(tracker, walked, op, c)


def _walk(node: object, steps: tuple[Step, ...], c: Cursor) -> object:
    for n, step in enumerate(steps):
        slot = _slot(node, step, steps[:n], c)
        if slot is None:
            return _MISSING
        node = node[slot]
    return node


def _slot(node: object, step: Step, before: tuple[Step, ...], c: Cursor):
    """The key or index ``step`` names in ``node``; None after recording why not."""
    where = _where(before)
    if step.kind == "key":
        if not isinstance(node, dict):
            return c.fail(f"{where} is {_what(node)}, not a mapping: cannot take key '{step.key}'")
        for k in node:
            if str(k) == step.key:
                return k
        return c.fail(f"no key '{step.key}' in {where} (keys: {_listing(node)})")
    if not isinstance(node, list):
        return c.fail(f"{where} is {_what(node)}, not a list: cannot pick {step}")
    if step.kind == "index":
        if step.index >= len(node):
            return c.fail(f"{where} has {len(node)} entries: no {step} (0 to {len(node) - 1})")
        return step.index
    hits = [i for i, e in enumerate(node) if isinstance(e, dict) and step.key in e and str(e[step.key]) == step.value]
    if len(hits) != 1:
        if hits:
            return c.fail(f"{len(hits)} entries in {where} have {step.key} '{step.value}' (expected one)")
        known = [str(e[step.key]) for e in node if isinstance(e, dict) and step.key in e]
        return c.fail(f"no entry with {step.key} '{step.value}' in {where} (expected one of: {_listing(known)})")
    return hits[0]


def _add(tracker: Tracker, target: object, op: Operation, c: Cursor) -> None:
    where = _where(op.steps)
    if isinstance(target, dict):
        if not isinstance(op.value, dict):
            c.fail(f"{where} is a mapping: add takes a mapping of new keys, got a list")
            return
        present = {str(k) for k in target}
        for k in op.value:
            if str(k) in present:
                c[k].fail(f"{where} already has '{k}' (use set to replace it)")
            else:
                tracker.put(target, k, tracker.copy(op.value[k], c.doc, op.at + (k,)), c.doc.where(op.at + (k,)))
        return
    if not isinstance(target, list):
        c.fail(f"{where} is {_what(target)}: add needs a list or a mapping")
        return
    if not isinstance(op.value, list):
        c.fail(f"{where} is a list: add takes a list of entries, got a mapping")
        return
    present = {_entry_key(e) for e in target}
    for i, entry in enumerate(op.value):
        key = _entry_key(entry)
        if key is not None and key in present:
            c[i].fail(f"{where} already has {_show_key(key)} (use set to replace it)")
            continue
        present.add(key)
        tracker.append(target, tracker.copy(entry, c.doc, op.at + (i,)), c.doc.where(op.at + (i,)))


def _remove(tracker: Tracker, target: object, op: Operation, c: Cursor) -> None:
    where = _where(op.steps)
    wanted = {str(x): i for i, x in enumerate(op.value)}
    if isinstance(target, dict):
        keys = {str(k): k for k in target}
        found = {keys[w] for w in wanted if w in keys}
        known = list(keys)
    elif isinstance(target, list):
        found = {i for i, e in enumerate(target) if _entry_key(e) is not None and _entry_key(e)[1] in wanted}
        known = [k[1] for k in map(_entry_key, target) if k is not None]
    else:
        c.fail(f"{where} is {_what(target)}: remove needs a list or a mapping")
        return
    known_set = set(known)
    for w, i in wanted.items():
        if w not in known_set:
            c[i].fail(f"no '{w}' in {where} to remove (expected one of: {_listing(known)})")
        else:
            file, line, _ = c.doc.where(op.at + (i,))
            tracker.removed[w] = f"{file}:{line}"
    tracker.delete(target, found)


def _entry_key(entry: object) -> tuple[str, str] | None:
    """How an entry is named for add and remove: by its id, or by its value."""
    if isinstance(entry, dict):
        return ("id", str(entry["id"])) if "id" in entry else None
    if isinstance(entry, (str, int, float)) and not isinstance(entry, bool):
        return ("value", str(entry))
    return None


def _show_key(key: tuple[str, str]) -> str:
    return f"an entry with id '{key[1]}'" if key[0] == "id" else f"'{key[1]}'"


def _where(steps: tuple[Step, ...]) -> str:
    text = ""
    for s in steps:
        text += str(s) if s.kind != "key" or not text else "." + str(s)
    return f"'{text}'" if text else "the file"


def _what(node: object) -> str:
    if isinstance(node, dict):
        return "a mapping"
    if isinstance(node, list):
        return "a list"
    return f"the value {short(node)}"


def _listing(names) -> str:
    names = [str(n) for n in names]
    return ", ".join(names[:12]) + (", ..." if len(names) > 12 else "") if names else "none"
