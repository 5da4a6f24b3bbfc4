import random

import pytest


@pytest.fixture
def rng() -> random.Random:
    return random.Random(12345)


@pytest.fixture(scope="session")
def d100():
    from chargen.rules import load_builtin

    return load_builtin("d100")


@pytest.fixture
def write(tmp_path):
    """Write a text file under tmp_path (dedented) and return its path."""
    import textwrap

    def _write(name: str, text: str):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return path

    return _write
