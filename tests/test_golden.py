"""Golden character files: the exact bytes a seed gives, for every system.

A changed file means a changed character: regenerate on purpose only, with
``CHARGEN_REGEN_GOLDEN=1 python -m pytest tests/test_golden.py``, and say why
in the commit.
"""

import os
from pathlib import Path

import pytest

from chargen.generate import make_character
from chargen.rules import load_builtin
from chargen.serialize import to_json

GOLDEN = Path(__file__).parent / "golden"
CASES = [("d100", 1, 0), ("d100", 42, 7), ("d100", 2024, 3), ("d100", 99999, 537)] + [
    (system, seed, index) for system in ("kotm", "rtd") for seed, index in ((42, 0), (42, 1), (7, 123))]


@pytest.mark.parametrize("system, seed, index", CASES)
def test_golden_json(system, seed, index):
    path = GOLDEN / system / f"seed-{seed}-index-{index}.json"
    text = to_json(make_character(load_builtin(system), seed, index))
    if os.environ.get("CHARGEN_REGEN_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text
