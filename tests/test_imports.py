"""chargen's import graph, read from the source: no cycles, a pure render/, small modules.

Every ``import`` and ``from ... import`` counts, at module level, inside functions and under
``if TYPE_CHECKING:`` alike: an import hidden in a function still ties the two modules together.
``from package import name`` is an edge to ``package.name`` when that is a module, else to
``package``. Importing a module also runs its packages' ``__init__`` (``chargen.rules.yamlio``
runs ``chargen.rules``), so those are edges too, except a module's own ancestor packages:
Python has run them before the module, whatever it imports.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "chargen"
MAX_LINES = 400


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def _sources() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _ancestors(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _is_package(name: str) -> bool:
    return _sources()[name].name == "__init__.py"


def _absolute(node: ast.ImportFrom, importer: str) -> str:
    """The module ``from <module> import ...`` names, relative imports resolved."""
    if not node.level:
        return node.module or ""
    base = importer if _is_package(importer) else importer.rpartition(".")[0]
    for _ in range(node.level - 1):
        base = base.rpartition(".")[0]
    return f"{base}.{node.module}" if node.module else base


def imports(importer: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each chargen module ``importer`` names, with the names it takes from it (``()`` for ``import x``)."""
    modules = _sources()
    found = []
    for node in ast.walk(ast.parse(modules[importer].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node, importer)
            for alias in node.names:
                if f"{module}.{alias.name}" in modules:
                    found.append((f"{module}.{alias.name}", ()))
                else:
                    found.append((module, (alias.name,)))
    return [(m, names) for m, names in found if m in modules]


@cache
def graph() -> dict[str, frozenset[str]]:
    edges = {}
    for importer in _sources():
        own = set(_ancestors(importer)) | {importer}
        targets = set()
        for module, _ in imports(importer):
            targets |= {m for m in (*_ancestors(module), module) if m not in own}
        edges[importer] = frozenset(targets)
    return edges


def cycles(edges: dict[str, frozenset[str]]) -> list[tuple[list[str], list[str]]]:
    """The strongly connected components of more than one module (Tarjan): each its modules and one
    cycle through them."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append((sorted(component), _cycle_through(sorted(component), edges)))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def _cycle_through(component: list[str], edges: dict[str, frozenset[str]]) -> list[str]:
    """A shortest path from the component's first module back to itself: the cycle to print."""
    start, members = component[0], set(component)
    paths, seen = {start: [start]}, {start}
    frontier = [start]
    while frontier:
        following = []
        for v in frontier:
            for w in sorted(edges[v] & members):
                if w == start:
                    return paths[v] + [start]
                if w not in seen:
                    seen.add(w)
                    paths[w] = paths[v] + [w]
                    following.append(w)
        frontier = following
    raise AssertionError(f"no cycle through {component}")


def test_the_graph_reads_the_imports_made_inside_functions():
    assert "chargen.render.contain.sandbox" in graph()["chargen.render.env"]
    assert "chargen.render.contain" in graph()["chargen.render.env"]  # its __init__ runs first
    assert "chargen.render" not in graph()["chargen.render.env"]  # its own package: not an edge
    assert "chargen" not in graph()["chargen.engines"]


def test_cycles_finds_a_cycle_and_prints_it():
    edges = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset({"a"})}
    assert cycles(edges) == [(["a", "b", "c"], ["a", "b", "c", "a"])]
    assert cycles({"a": frozenset({"b"}), "b": frozenset()}) == []


def test_no_import_cycles():
    found = cycles(graph())
    assert not found, "import cycles:\n" + "\n".join(
        f"  {' -> '.join(cycle)}   (the cycle runs through {', '.join(component)})" for component, cycle in found)


# What render/ must not import: a document in, HTML or PDF bytes out.
FORBIDDEN_IN_RENDER = {
    "chargen.run": "the run (files, manifest, batches)",
    "chargen.generate": "generation",
    "chargen.require": "generation",
    "chargen.edits": "edits",
    "chargen.rules.yamlio": "rules loading",
    "chargen.rules.overlay": "rules loading",
    "chargen.rules.merge": "rules loading",
}
# From chargen.rules itself only its types: every function there finds, reads or loads rules.
RULES_TYPES = {"RulesModule"}


def _forbidden(module: str, names: tuple[str, ...]) -> str | None:
    for banned, why in FORBIDDEN_IN_RENDER.items():
        if module == banned or module.startswith(banned + "."):
            return why
    parts = module.split(".")
    if len(parts) == 4 and parts[:2] == ["chargen", "systems"] and parts[3] == "generate":
        return "generation"
    if module == "chargen.rules" and (not names or set(names) - RULES_TYPES):
        return f"rules loading ({', '.join(names) or 'the module'})"
    return None


def test_forbidden_finds_what_render_must_not_import():
    assert _forbidden("chargen.run.pipeline", ()) == "the run (files, manifest, batches)"
    assert _forbidden("chargen.systems.d100.generate", ()) == "generation"
    assert _forbidden("chargen.rules", ("load_builtin",)) == "rules loading (load_builtin)"
    assert _forbidden("chargen.rules", ("RulesModule",)) is None
    assert _forbidden("chargen.engines", ("get",)) is None


def test_render_imports_no_run_generation_edits_or_rules_loading():
    bad = []
    for importer in sorted(_sources()):
        if importer.startswith("chargen.render."):
            for module, names in imports(importer):
                why = _forbidden(module, names)
                if why:
                    bad.append(f"{importer} imports {module}{' (' + ', '.join(names) + ')' if names else ''}: {why}")
    assert not bad, "render/ is a document in, bytes out:\n" + "\n".join("  " + b for b in bad)


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_over_400_lines(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(PACKAGE.parent)} has {lines} lines (at most {MAX_LINES})"
