"""A new format is one class covering every engine: the roll-call test format (tests/rollcall.py),
made only from the typed view (chargen.view), written by `chargen generate -o` for d100, KoTM,
RTD and the toy engine; and every engine's view holds together."""

import importlib
import json

import pytest
from click.testing import CliRunner

from chargen import engines, formats
from chargen.cli import cli
from chargen.generate import make_character
from chargen.rules import load_builtin, load_module
from chargen.view import CharacterView
from tests.rollcall import RollCall

ENGINES = ("d100", "kotm", "rtd", "toy")


@pytest.fixture(scope="module", autouse=True)
def registered():
    """The toy engine and the roll-call format registered for this module's tests, gone after them."""
    toy = importlib.import_module("tests.toy.engine")
    if engines.get("toy") is None:
        importlib.reload(toy)
    formats.register(RollCall())
    yield
    formats.FORMATS.pop("rollcall")
    engines.unregister("toy")


def toy_rules():
    from tests.toy.engine import RULES_DIR  # imported here: importing it registers the toy engine

    return RULES_DIR


def rules_args(engine_id: str) -> list:
    return [] if engine_id in engines.BUILTIN else ["--rules-dir", toy_rules()]


def module_of(engine_id: str):
    return load_builtin(engine_id) if engine_id in engines.BUILTIN else load_module(engine_id, rules_dirs=[toy_rules()])


@pytest.mark.parametrize("engine_id", ENGINES)
def test_a_new_format_writes_every_engine_in_a_batch(engine_id, tmp_path):
    out = tmp_path / "b"
    r = CliRunner().invoke(cli, ["generate", "--system", engine_id, *rules_args(engine_id), "--seed", "4",
                                 "--count", "3", "--format", "json,rollcall", "-o", str(out)])
    assert r.exit_code == 0, r.output
    lines = (out / "rollcall.txt").read_text().splitlines()
    docs = [json.loads(p.read_text()) for p in sorted(out.glob("0*.json"))]
    assert len(lines) == 4 and lines[0].startswith("Roll call: ")
    for line, doc in zip(lines[1:], docs):
        assert line.startswith(f"#{doc['seed']['index']} {doc['identity']['name']} (") and "): " in line
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["formats"] == ["json", "rollcall"] and "rollcall.txt" in manifest["batch_files"]


@pytest.mark.parametrize("engine_id", ENGINES)
def test_every_engine_publishes_a_view_with_and_without_its_rules(engine_id):
    module = module_of(engine_id)
    engine = engines.require(engine_id)
    for i in range(5):
        doc = make_character(module, 9, i)
        with_rules, without = engine.view(doc, module.rules), engine.view(doc, None)
        assert isinstance(with_rules, CharacterView) and with_rules == without
        assert with_rules.header.name == doc["identity"]["name"] and with_rules.header.index == i
        assert with_rules.key_figures and all(isinstance(f.value, int) for f in with_rules.key_figures)
        assert [f.key for f in with_rules.columns] == [f.key for f in engine.view(make_character(module, 1, 0),
                                                                                   module.rules).columns]


def test_views_are_frozen():
    doc = make_character(load_builtin("d100"), 1, 0)
    view = engines.require("d100").view(doc, None)
    with pytest.raises(AttributeError):
        view.notes = "x"  # type: ignore[misc]
