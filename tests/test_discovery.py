"""Discovery: an engine in another installed package reaches the ``chargen`` command through the
``chargen.engines`` entry-point group. The toy engine (tests/toy) is built and installed as a
distribution of its own (offline, with pip), then listed, generated, drawn and rolled in a fresh process."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from chargen import engines
from chargen.errors import ChargenError

TOY = Path(__file__).parent / "toy"

PYPROJECT = """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "chargen-toy"
version = "0.1.0"

[project.entry-points."chargen.engines"]
toy = "chargen_toy.engine"

[tool.setuptools]
packages = ["chargen_toy"]

[tool.setuptools.package-data]
chargen_toy = ["rules/*/*.yaml", "templates/*.j2"]
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A folder holding the toy engine installed as the distribution ``chargen-toy``."""
    root = tmp_path_factory.mktemp("toy-dist")
    shutil.copytree(TOY, root / "src" / "chargen_toy", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "src" / "pyproject.toml").write_text(PYPROJECT)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--no-index", "--disable-pip-version-check", "--target", str(root / "site"), str(root / "src")],
                   check=True, capture_output=True, cwd=root)
    return root / "site"


def chargen(site: Path, *args, ok: bool = True) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(site)}
    result = subprocess.run([sys.executable, "-m", "chargen", *map(str, args)], env=env, capture_output=True,
                            text=True, cwd=site.parent)
    if ok:
        assert result.returncode == 0, result.stderr
    return result


def test_an_installed_engine_is_listed_generated_drawn_and_rolled(site, tmp_path):
    listed = chargen(site, "systems").stdout.splitlines()
    assert listed[-1].startswith("toy    Toy 0.1.0 - 1D6 at or under MIGHT [")
    assert listed[-1].endswith(f"{site / 'chargen_toy' / 'rules' / 'toy'}]")
    doc = json.loads(chargen(site, "generate", "--system", "toy", "--seed", "3", "--index", "2").stdout)
    assert doc["system"]["engine"] == "toy" and set(doc["characteristics"]) == {"might", "wits"}
    # the sheets are drawn in worker processes: they find the engine as the main process did
    chargen(site, "generate", "--system", "toy", "--seed", "3", "--count", "2", "--format", "json,pdf",
            "--jobs", "2", "-o", tmp_path / "out")
    pdfs = sorted(p.name for p in (tmp_path / "out").glob("*.pdf"))
    assert len(pdfs) == 3 and "party.pdf" in pdfs
    rolled = chargen(site, "roll", "--system", "toy", "--might", "4", "--seed", "1").stdout
    assert rolled.startswith("Toy roll (MIGHT 4): ")


def test_a_broken_entry_point_is_one_error_line(tmp_path):
    """A distribution whose entry point names a module that is not there: one line naming both."""
    info = tmp_path / "site" / "chargen_broken-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: chargen-broken\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[chargen.engines]\nbroken = chargen_broken.nowhere\n")
    result = chargen(tmp_path / "site", "systems", ok=False)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == ("Error: engine entry point 'broken = chargen_broken.nowhere' of chargen-broken 1.0 "
                             "does not load: ModuleNotFoundError: No module named 'chargen_broken'\n")
    # an engine the broken package does not touch still works
    assert chargen(tmp_path / "site", "roll", "--system", "d100", "--chance", "50", "--seed", "1", ok=False).returncode == 1
    assert chargen(tmp_path / "site", "generate", "--system", "d100", "--seed", "1").returncode == 0


def test_an_entry_point_may_name_the_engine_object(monkeypatch):
    """``module:attr``: the object is registered (when importing the module did not) and the spec is
    what worker processes import again."""
    point = EntryPoint("toy", "tests.toy.engine:ENGINE", engines.ENTRY_POINTS)
    monkeypatch.setattr(engines, "_entry_points", lambda: {"toy": point})
    engines.unregister("toy")
    try:
        engine = engines.get("toy")
        assert engine is not None and engine.id == "toy" and "toy" in engines.ids()
        # registered by importing the module, or (imported before) from the object: a worker loads either again
        assert engines.external_modules() in (["tests.toy.engine"], ["tests.toy.engine:ENGINE"])
    finally:
        engines.unregister("toy")


def test_an_entry_point_must_register_the_engine_it_names(monkeypatch):
    point = EntryPoint("other", "tests.toy.engine", engines.ENTRY_POINTS)
    monkeypatch.setattr(engines, "_entry_points", lambda: {"other": point})
    try:
        with pytest.raises(ChargenError, match=r"^engine entry point 'other = tests.toy.engine' registers no "
                                               r"engine 'other' \(it registers: toy\)$"):
            engines.get("other")
    finally:
        engines.unregister("toy")
