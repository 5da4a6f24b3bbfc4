"""Discovery: an engine in another installed package reaches the ``chargen`` command through the
``chargen.engines`` entry-point group. The toy engine (tests/toy) is built and installed as a
distribution of its own (a wheel written here, installed offline with pip: no build backend needed), then
listed, generated, drawn and rolled in a fresh process."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
import zipfile
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from chargen import engines
from chargen.errors import ChargenError

TOY = Path(__file__).parent / "toy"

INFO = "chargen_toy-0.1.0.dist-info"
DIST_FILES = {
    f"{INFO}/METADATA": "Metadata-Version: 2.1\nName: chargen-toy\nVersion: 0.1.0\n",
    f"{INFO}/WHEEL": "Wheel-Version: 1.0\nGenerator: tests/test_discovery.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    f"{INFO}/entry_points.txt": "[chargen.engines]\ntoy = chargen_toy.engine\n",
}


def _wheel(path: Path) -> Path:
    """tests/toy as the package ``chargen_toy`` in a wheel declaring its engine."""
    files = {f"chargen_toy/{p.relative_to(TOY).as_posix()}": p.read_text(encoding="utf-8")
             for p in sorted(TOY.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}
    files.update(DIST_FILES)
    record = []
    with zipfile.ZipFile(path, "w") as whl:
        for name, text in files.items():
            data = text.encode("utf-8")
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{name},sha256={digest},{len(data)}")
            whl.writestr(name, data)
        whl.writestr(f"{INFO}/RECORD", "\n".join(record + [f"{INFO}/RECORD,,"]) + "\n")
    return path


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A folder holding the toy engine installed (by pip, offline) as the distribution ``chargen-toy``."""
    root = tmp_path_factory.mktemp("toy-dist")
    wheel = _wheel(root / "chargen_toy-0.1.0-py3-none-any.whl")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                    "--disable-pip-version-check", "--target", str(root / "site"), str(wheel)],
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
    # the sheets are drawn in worker processes: they find the engine as the main process did
    chargen(site, "generate", "--system", "toy", "--seed", "3", "--count", "2", "--format", "json,pdf",
            "--jobs", "2", "-o", tmp_path / "out")
    pdfs = sorted(p.name for p in (tmp_path / "out").glob("*.pdf"))
    assert len(pdfs) == 3 and "party.pdf" in pdfs
    doc = json.loads(next((tmp_path / "out").glob("0001-*.json")).read_text())
    assert doc["system"]["engine"] == "toy" and set(doc["characteristics"]) == {"might", "wits"}
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
    # a built-in engine does not read the entry points: the broken package does not stop it
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
    point = EntryPoint("other", "tests.toy", engines.ENTRY_POINTS)  # a package that registers nothing
    monkeypatch.setattr(engines, "_entry_points", lambda: {"other": point})
    with pytest.raises(ChargenError) as e:
        engines.get("other")
    assert str(e.value) == ("engine entry point 'other = tests.toy' registers no engine 'other' (an entry point "
                            "of chargen.engines is named after the id of the engine it registers)")
