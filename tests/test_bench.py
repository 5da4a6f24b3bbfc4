"""The scripts in bench/ keep working as chargen changes: each imports, every chargen name any of
them imports (at the top or inside a function) exists, and the generation benchmark runs at a
tiny size. (Benchmarks report figures; no test asserts a time.)"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
SCRIPTS = sorted(BENCH.glob("*.py"))


def chargen_imports(path: Path) -> list[tuple[str, str | None]]:
    """Each ``(module, name)`` a script imports from chargen (name None for ``import module``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "chargen":
            found += [(node.module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(alias.name, None) for alias in node.names if alias.name.split(".")[0] == "chargen"]
    return found


def test_there_are_bench_scripts():
    assert {p.name for p in SCRIPTS} >= {"bench_generate.py", "bench_hostile.py", "bench_render.py"}


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_a_bench_script_imports_and_every_chargen_name_it_takes_exists(path):
    spec = importlib.util.spec_from_file_location(f"bench_{path.stem}", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)  # its top level: no benchmark runs (each runs under __main__)
    assert callable(script.main)
    for module, name in chargen_imports(path):
        imported = importlib.import_module(module)
        if name is not None and not hasattr(imported, name):
            importlib.import_module(f"{module}.{name}")  # a submodule, else ModuleNotFoundError names it


def test_the_generation_benchmark_runs_at_a_tiny_size():
    done = subprocess.run([sys.executable, str(BENCH / "bench_generate.py"), "--count", "3"], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout
