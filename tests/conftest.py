import random

import pytest


@pytest.fixture
def rng() -> random.Random:
    return random.Random(12345)


@pytest.fixture(scope="session")
def d100():
    from chargen.rules import load_builtin

    return load_builtin("d100")
