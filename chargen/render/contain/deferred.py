"""Modules loaded when first used rather than when imported (:func:`defer`).

WeasyPrint's PDF writer imports ``fontTools.subset`` at module level, but uses it
only to subset fonts where libharfbuzz-subset is missing; with HarfBuzz it is
never touched, yet its import is about 75 ms of every cold start. :func:`defer`
puts a module in ``sys.modules`` through the standard library's
:class:`importlib.util.LazyLoader`: ``import`` and ``from package import module``
hand out the module object without running it, and its first attribute access
runs it, whole, as a plain import would. Nothing changes in what runs or in what
it produces, only when the module is loaded.
"""

from __future__ import annotations

import importlib.util
import sys


def defer(name: str) -> bool:
    """Register module ``name`` (dotted) to load on first use. False (nothing done) when it is
    imported already, cannot be found, or its loader cannot load lazily."""
    if name in sys.modules:
        return False
    spec = importlib.util.find_spec(name)  # imports the parent package, not the module
    if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
        return False
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)
    return True


def is_loaded(name: str) -> bool:
    """Whether module ``name`` has run (a deferred one not yet used has not)."""
    module = sys.modules.get(name)
    return module is not None and not isinstance(module, importlib.util._LazyModule)
