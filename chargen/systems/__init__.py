"""Engines: the Python that interprets one kind of rules module.

An engine is a module with two functions:

* ``build_rules(docs, problems)`` - validate the module's YAML documents into
  frozen typed rules (recording every problem in ``problems``);
* ``generate(rules, roller, batch_seed, index)`` - one character's body, a
  plain dict in a fixed key order, rolled only through ``roller``.

A rules module names its engine in ``module.yaml`` (``engine:``; the default
is the module's id), so a house module can reuse a built-in engine.
"""

from __future__ import annotations

import importlib
from types import ModuleType

ENGINES = {
    "d100": "chargen.systems.d100",
    "kotm": "chargen.systems.kotm",
    "rtd": "chargen.systems.rtd",
}


def engine_for(engine_id: str) -> ModuleType | None:
    target = ENGINES.get(engine_id)
    return importlib.import_module(target) if target else None
