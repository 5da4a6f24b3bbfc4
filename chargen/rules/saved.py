"""The rules a saved character was made with: the one look-up by rules hash.

A character records its rules module's id, engine, hash and overlays.
:func:`find` is the module among those the user loaded (``--rules``,
``--rules-dir``) with the character's hash and engine, else the built-in module
of its id when it was made without house rules and records that module's hash,
else None; :func:`made_with` is the same, or an error that says which rules to
give. Sheets (odds and tables), ``chargen explain``/``check``/``edit`` and the
schema's bounds of a saved file all ask here.
"""

from __future__ import annotations

from collections.abc import Iterable

from chargen.errors import RenderError


def find(doc: dict, modules: Iterable = ()):
    """The rules module ``doc`` was made with, or None (``doc`` may not be validated yet)."""
    system = doc.get("system") if isinstance(doc, dict) else None
    if not isinstance(system, dict):
        return None
    for m in modules:
        if m.hash == system.get("rules_hash") and m.engine == system.get("engine"):
            return m
    builtin = _builtin(system)
    if builtin is not None and builtin.hash == system.get("rules_hash") and builtin.engine == system.get("engine"):
        return builtin
    return None


def _builtin(system: dict):
    """The built-in module of the character's id, when it was made without house rules."""
    from chargen.rules import builtin_ids, load_builtin

    if system.get("overlays") or not isinstance(system.get("id"), str) or system["id"] not in builtin_ids():
        return None
    return load_builtin(system["id"])


def made_with(doc: dict, modules: Iterable = ()):
    """The rules module ``doc`` was made with; a character of rules chargen cannot load here is an
    error (a sheet with another module's odds would be wrong), saying which rules to give."""
    modules = tuple(modules)
    found = find(doc, modules)
    if found is not None:
        return found
    system = doc["system"]
    builtin = _builtin(system)
    if builtin is not None:
        raise RenderError(f"sheet of '{doc['identity']['name']}': its rules hash ({system['rules_hash'][:19]}...) is "
                          f"not the built-in {system['id']} module's ({builtin.hash[:19]}...): it was made with other "
                          f"rules (house rules whose record was removed, or another version), whose odds the "
                          f"{system['name']} sheet shows; give the --rules/--rules-dir it was made with")
    made = ", ".join(f"house rules '{o['name']}'" for o in system["overlays"]) or f"rules module '{system['id']}'"
    raise RenderError(f"sheet of '{doc['identity']['name']}': made with {made}, whose odds and tables the "
                      f"{system['name']} sheet shows; give the same --rules/--rules-dir it was made with")
