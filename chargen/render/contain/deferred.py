"""Modules loaded when first used rather than when imported (:func:`defer`).

WeasyPrint's PDF writer imports ``fontTools.subset`` at module level, but uses it
only to subset fonts where libharfbuzz-subset is missing; with HarfBuzz it is
never touched, yet its import is about 75 ms of every cold start. :func:`defer`
puts a module in ``sys.modules`` through the standard library's
:class:`importlib.util.LazyLoader`: ``import`` and ``from package import module``
hand out the module object without running it, and its first attribute access
runs it, whole, as a plain import would. Nothing changes in what runs or in what
it produces, only when the module is loaded.

A module whose *names* are imported (``from package.module import function``)
cannot load lazily that way: taking the name is a first use. Its functions are
deferred with :func:`defer_functions`: ``sys.modules`` holds a stand-in whose
functions of those names load the module, as a plain import would, on their
first call and hand it on; the package above it is not imported until then.
WeasyPrint's PDF writer takes ``instantiateVariableFont`` from
``fontTools.varLib.instancer`` (which imports ``fontTools.varLib``: about 80 ms
of a cold start) and calls it only for a variable font with variations set.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types


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
    return module is not None and not isinstance(module, (importlib.util._LazyModule, _StandIn))


def defer_functions(name: str, functions: tuple[str, ...]) -> bool:
    """Register module ``name`` (dotted) to load when one of its ``functions`` is first called (or any
    other name of it first read). False (nothing done) when it or its package is imported already,
    or it cannot be found. The package above it is not imported until then."""
    parent, _, child = name.rpartition(".")
    if name in sys.modules or (parent and parent in sys.modules) or not _findable(name):
        return False
    stand_in = _StandIn(name)
    for function in functions:
        setattr(stand_in, function, _loading_call(name, function))
    sys.modules[name] = stand_in
    return True


class _StandIn(types.ModuleType):
    """A deferred module's place in ``sys.modules`` until it loads (:func:`defer_functions`)."""

    def __getattr__(self, attribute: str):  # a name not set as a loading function: load now
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        return getattr(_load(self.__name__), attribute)


def _loading_call(name: str, function: str):
    def call(*args, **kwargs):
        return getattr(_load(name), function)(*args, **kwargs)

    call.__name__ = call.__qualname__ = function
    return call


def _load(name: str) -> types.ModuleType:
    """The module ``name`` itself, loaded in place of its stand-in (once)."""
    if isinstance(sys.modules.get(name), _StandIn):
        del sys.modules[name]
    return importlib.import_module(name)


def _findable(name: str) -> bool:
    """Whether module ``name`` is installed, found without importing its package."""
    import importlib.machinery

    top, *rest = name.split(".")
    spec = importlib.util.find_spec(top) if top not in sys.modules else sys.modules[top].__spec__
    path = list(spec.submodule_search_locations or []) if spec is not None else []
    for part in rest:
        found = importlib.machinery.PathFinder.find_spec(part, path)
        if found is None:
            return False
        path = list(found.submodule_search_locations or [])
    return True
