"""Hand edits that stay true: a saved character recomputed from its inputs under its rules.

A character document keeps its inputs (the rolls, the choices, the pins; in
``trail`` a step ``input: ...`` records each pinnable input as it was made)
apart from the values derived from them. An engine's ``recompute(rules, doc,
trail)`` derives the body again from the document's inputs, hand edits and all.
Then each stored value the rules disagree with is

* **stale** (the user changed an input: STR 9 -> 18 leaves attack 5): the stored
  value is the one the generator derived (its trail step, or for a record with
  ``sources`` their sum), so ``render`` draws the recomputed one; or
* **edited** (the user changed a derived value itself: a raised skill): kept,
  and marked as an edit (``edits``: path -> the value the rules give).

``chargen check`` lists both: ``file: path: stored X, the rules give Y (from ...)``.
"""

from __future__ import annotations

import copy
import shlex
from collections.abc import Iterable
from dataclasses import dataclass

from chargen import engines, paths
from chargen.errors import CharacterError, ChargenError, RenderError
from chargen.generate import Trail

ENVELOPE = ("schema", "system", "seed", "request", "pins", "require", "trail", "edits", "rolls", "reproduce")


@dataclass(frozen=True, slots=True)
class Disagreement:
    path: str
    stored: object
    rules: object
    why: str           # the inputs the rules' value comes from
    edited: bool       # a derived value edited by hand: kept

    def line(self, name: str) -> str:
        kept = "; edited by hand, kept" if self.edited else ""
        return (f"{name}: {self.path}: stored {paths.shown(self.stored)}, the rules give "
                f"{paths.shown(self.rules)} (from {self.why}){kept}")


def rules_of(doc: dict, modules: Iterable = ()) -> object:
    """The rules the character was made with (see :func:`chargen.rules.saved.made_with`)."""
    from chargen.rules.saved import made_with

    try:
        return made_with(doc, modules).rules
    except RenderError as e:
        raise CharacterError(str(e).replace("sheet of", "character", 1)) from None


def recompute(doc: dict, rules: object, record: bool = True) -> tuple[dict, Trail] | None:
    """The document's body derived again from its inputs, and the trail (``record``: with every
    step, for explain and check's lines); None when its engine cannot."""
    engine = engines.require(doc["system"]["engine"])
    if engine.recompute is None:
        return None
    trail = Trail(record)
    return engine.recompute(rules, doc, trail), trail


def _stored_steps(doc: dict) -> dict[str, object]:
    return {s["path"]: s["value"] for s in doc.get("trail", ()) if isinstance(s, dict) and "path" in s}


def _sources_edited(doc: dict, path: str) -> bool | None:
    """For ``<record>.value`` (or attack) of a record with ``sources``: whether it differs from their sum."""
    record_path, _, leaf = path.rpartition(".")
    record = paths.lookup(doc, record_path)
    if not isinstance(record, dict) or not isinstance(record.get("sources"), list) or leaf not in ("value", "attack", "parry"):
        return None
    if leaf == "parry" and record.get("kind") != "shield" or leaf == "attack" and record.get("kind") == "shield":
        return None  # (a weapon's sources sum to its attack, a shield's to its parry)
    return record.get(leaf) != sum(s.get("value", 0) for s in record["sources"] if isinstance(s, dict))


def _why(path: str, trail: Trail, changed: dict) -> str:
    step = None
    for d in trail.steps:
        if (path == d.path or path.startswith(d.path + ".")) and not d.rule.startswith("input:"):
            if step is None or len(d.path) >= len(step.path):
                step = d
    if step is None:  # a sibling in the same record (a skill's level label follows its level's step)
        parent = path.rpartition(".")[0]
        step = next((d for d in trail.steps if d.path.rpartition(".")[0] == parent and "." in parent
                     and not d.rule.startswith("input:")), None)
    if step is not None and step.inputs:
        return ", ".join(f"{k} {paths.shown(v)}" for k, v in step.inputs.items())
    if changed:
        return "the edited " + ", ".join(f"{p} {paths.shown(v)}" for p, v in changed.items())
    return "the rules"


def edited_inputs(doc: dict) -> dict[str, object]:
    """Each input whose stored value is not the one it was made with (its ``input:`` trail step)."""
    out = {}
    for step in doc.get("trail", ()):
        if isinstance(step, dict) and str(step.get("rule", "")).startswith("input:"):
            now = paths.input_value(paths.lookup(doc, step["path"]))
            if now is not None and now != step["value"]:
                out[step["path"]] = now
    return out


def disagreements(doc: dict, rules: object) -> list[Disagreement]:
    """Every stored value of the body the rules, applied to the document's inputs, disagree with."""
    quick = recompute(doc, rules, record=False)
    if quick is None or _same(doc, quick[0]):
        return []
    return _compare(doc, *recompute(doc, rules), as_made(doc, rules))


def as_made(doc: dict, rules: object) -> dict:
    """The body as the rules give it from the inputs the character was MADE with (each
    edited input set back to its ``input:`` trail step): a stored value that differs from its own is
    a derived value edited by hand (kept), one that matches it is stale (an input changed)."""
    made = copy.deepcopy(doc)
    for step in doc.get("trail", ()):
        if isinstance(step, dict) and str(step.get("rule", "")).startswith("input:") and "path" in step:
            parts = paths.split(step["path"])
            node = made
            for key in parts[:-1]:
                node = paths.step(node, key)
            target = paths.step(node, parts[-1]) if isinstance(node, (dict, list)) else None
            if isinstance(target, dict) and "value" in target:
                target["value"] = step["value"]
            elif isinstance(target, dict) and "id" in target:
                target["id"] = step["value"]
            elif isinstance(node, dict) and parts[-1] in node:
                node[parts[-1]] = step["value"]
    done = recompute(made, rules, record=False)
    return {} if done is None else {k: v for k, v in done[0].items() if k not in ENVELOPE}


def _same(doc: dict, body: dict) -> bool:
    return all(doc.get(k) == v for k, v in body.items() if k not in ENVELOPE)  # at C speed


_GONE = object()
# Lists whose records are derived from the tracked inputs (the ``input:`` trail steps) and their own
# stored entries alone: a figure of theirs that the rules give differently even from the inputs as
# made was edited by hand (kept). Elsewhere (hit locations follow the armour, which has no input
# step) a value with no trail step that disagrees is stale.
OWN_INPUTS = ("weapons", "skills")


def _compare(doc: dict, body: dict, trail: Trail, made: dict | None = None) -> list[Disagreement]:
    """``made``: the body :func:`as_made` gives (None: a value with no trail step counts as stale)."""
    stored_steps, changed = _stored_steps(doc), edited_inputs(doc)
    out, seen = [], set()
    mine = {k: v for k, v in body.items() if k not in ENVELOPE}
    fresh = dict(paths.leaves(mine))
    for path, stored in paths.leaves({k: doc[k] for k in body if k in doc and k not in ENVELOPE}):
        if ".sources." in path:
            continue  # (a source's value disagrees with its record's: the record's line says so)
        if path not in fresh:  # a value whose shape changed (a below_minimum null <-> its shortfall)
            path, stored = _reshaped(doc, mine, path)
            if path is None or path in seen:
                continue
            now = paths.lookup(mine, path)
        elif fresh[path] == stored:
            continue
        else:
            now = fresh[path]
        seen.add(path)
        by_sources = _sources_edited(doc, path)
        if by_sources is not None:
            edited = by_sources
        elif path in stored_steps:
            edited = stored_steps[path] != stored
        elif paths.split(path)[0] in OWN_INPUTS and made is not None:
            as_made_value = paths.lookup(made, path, _GONE)
            edited = as_made_value is not _GONE and as_made_value != stored
        else:
            edited = False  # stale: an input changed
        out.append(Disagreement(path, stored, now, _why(path, trail, changed), edited))
    return out


def _reshaped(doc: dict, body: dict, path: str) -> tuple[str | None, object]:
    """The nearest record at or above ``path`` that the body has and that differs from the stored one."""
    parts = paths.split(path)
    for n in range(len(parts), 0, -1):
        sub = ".".join(parts[:n]).replace(".[", "[")
        now = paths.lookup(body, sub, _GONE)
        if now is not _GONE:
            stored = paths.lookup(doc, sub)
            return (sub, stored) if now != stored else (None, None)
    return None, None


def recomputed(doc: dict, rules: object) -> dict:
    """The document as a sheet draws it: derived values recomputed from its inputs, values edited
    by hand kept and listed in ``edits`` (path: what the rules give)."""
    quick = recompute(doc, rules, record=False)
    if quick is None or (_same(doc, quick[0]) and not edited_inputs(doc)):
        return doc  # nothing edited: drawn as stored
    done = recompute(doc, rules)
    problems = _compare(doc, *done, as_made(doc, rules))
    out = copy.deepcopy(doc)
    for key, value in done[0].items():
        if key not in ENVELOPE:
            out[key] = value
    edits = {}
    for d in problems:
        if d.edited:
            _put(out, d.path, d.stored)
            edits[d.path] = d.rules
    if edits:
        out["edits"] = edits
    elif "edits" in out:
        del out["edits"]
    return out


def _put(doc: dict, path: str, value: object) -> None:
    parts = paths.split(path)
    node = doc
    for key in parts[:-1]:
        node = paths.step(node, key)
    if isinstance(node, dict):
        node[parts[-1]] = value


def module_of(doc: dict, modules: Iterable = ()):
    """The rules module the character was made with, or None (:func:`chargen.rules.saved.find`)."""
    from chargen.rules.saved import find

    return find(doc, modules)


def _pins_for(doc: dict) -> dict[str, object]:
    """The ``--set`` that may give this edited character: its pins, its edited inputs, and the inputs
    the generator derived from others (a KoTM SD follows the level) at their stored values."""
    pins = dict(doc.get("pins") or {})
    changed = edited_inputs(doc)
    if changed:
        made = {s["path"] for s in doc.get("trail", ()) if isinstance(s, dict)
                and not str(s.get("rule", "")).startswith("input:")}
        for step in doc.get("trail", ()):
            if isinstance(step, dict) and str(step.get("rule", "")).startswith("input:") and step["path"] in made:
                pins[step["path"]] = paths.input_value(paths.lookup(doc, step["path"]))
    pins.update(changed)
    return pins


def reproduction(drawn: dict, module) -> dict:
    """What the sheet's small print says makes ``drawn`` (a character as :func:`recomputed` gives it):
    ``command``, the ``chargen generate`` with the ``--set`` options that make exactly this character
    (checked by making it), or None when none does (a value edited by hand that no ``--set`` gives);
    ``edited``: the paths edited by hand."""
    from chargen.generate import GenerationRequest, make_character
    from chargen.pins import module_targets, resolve
    from chargen.require import parse

    changed = list(edited_inputs(drawn)) + list(drawn.get("edits") or {})
    command = _command(drawn, _pins_for(drawn))
    if changed and module is not None and not drawn.get("edits"):
        pins = _pins_for(drawn)
        try:
            targets = module_targets(module)
            request = GenerationRequest(pins=resolve(targets, [f"{p}={v}" for p, v in pins.items()], force=True),
                                        flavour="flavour" in drawn,
                                        requires=tuple(parse(e) for e in (drawn.get("require") or {}).get("expressions", ())))
            again = make_character(module, drawn["seed"]["batch"], drawn["seed"]["index"], request)
        except ChargenError:  # no command makes it: say so
            again = None
        if again is None or _body(again) != _body(drawn):
            command = None
    elif changed:
        command = None
    return {"command": command, "edited": changed}


def _body(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in ENVELOPE and k != "notes"}


def _command(doc: dict, pins: dict) -> str:
    system, seed = doc["system"], doc["seed"]
    parts = ["chargen generate", f"--system {system['id']}", f"--seed {seed['batch']}", f"--index {seed['index']}"]
    if system["id"] != system["engine"]:
        parts.append(f"--rules-dir <your folder of {system['id']}>")
    parts += [f"--rules <your file of {o['name']}>" for o in system["overlays"]]
    asked = doc.get("request") or {}
    parts += [f"--{k} {shlex.quote(str(asked[k]))}" for k in ("archetype", "profession", "years") if k in asked]
    parts += [f"--set {shlex.quote(f'{p}={v}')}" for p, v in pins.items()]
    parts += [f"--require {shlex.quote(e)}" for e in (doc.get("require") or {}).get("expressions", ())]
    if "flavour" not in doc:
        parts.append("--no-flavour")  # made without flavour (or before its rules had any): the same bytes again
    return " ".join(parts)


def reproduce(doc: dict) -> dict:
    """The small print's reproduction of ``doc``: worked out when it was recomputed for its sheet
    (``doc["reproduce"]``), else its seed, pins and constraints (a character as made)."""
    if isinstance(doc.get("reproduce"), dict):
        return doc["reproduce"]
    changed = list(edited_inputs(doc)) + list(doc.get("edits") or {})
    return {"command": None if changed else _command(doc, dict(doc.get("pins") or {})), "edited": changed}
