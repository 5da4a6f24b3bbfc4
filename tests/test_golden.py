"""Golden files: characters of the new systems, byte for byte.

Regenerate on purpose only: CHARGEN_REGEN_GOLDEN=1 python -m pytest tests/test_golden.py
"""

import os
from pathlib import Path

import pytest

from chargen.generate import make_character
from chargen.rules import load_builtin
from chargen.serialize import to_json

GOLDEN = Path(__file__).parent / "golden"
CASES = [(system, seed, index) for system in ("kotm", "rtd") for seed, index in ((42, 0), (42, 1), (7, 123))]


@pytest.mark.parametrize("system, seed, index", CASES)
def test_golden(system, seed, index):
    path = GOLDEN / system / f"seed-{seed}-{index:04d}.json"
    text = to_json(make_character(load_builtin(system), seed, index))
    if os.environ.get("CHARGEN_REGEN_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")
