import random

import pytest

from chargen.dice import Roller


@pytest.fixture
def rng() -> random.Random:
    return random.Random(12345)


@pytest.fixture(scope="session")
def d100():
    from chargen.rules import load_builtin

    return load_builtin("d100")


@pytest.fixture(scope="session")
def kotm():
    from chargen.rules import load_builtin

    return load_builtin("kotm")


@pytest.fixture(scope="session")
def rtd():
    from chargen.rules import load_builtin

    return load_builtin("rtd")


class Scripted(random.Random):
    """A generator that makes the die primitive show chosen faces: ``(sides, face)`` pairs,
    in order; it fails loudly when the code under test rolls more dice than scripted."""

    def __init__(self, *faces: tuple[int, int]):
        super().__init__(0)
        self.values = [(face - 0.5) / sides for sides, face in faces]
        self.taken = 0

    def random(self) -> float:
        if self.taken >= len(self.values):
            raise AssertionError(f"rolled more than the {len(self.values)} scripted dice")
        self.taken += 1
        return self.values[self.taken - 1]


def scripted(*faces: tuple[int, int], budget: int = 10_000) -> Roller:
    return Roller(Scripted(*faces), budget=budget)


def d(sides: int, *faces: int) -> list[tuple[int, int]]:
    """``d(10, 9, 9)`` -> two d10 faces, 9 and 9."""
    return [(sides, f) for f in faces]


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


# The files that take longest, longest first: `make test` hands whole files to its two workers
# (--dist loadfile) in the order collected (--no-loadscope-reorder in pyproject.toml), so these
# start first and the short files fill in around them; a long file started last would leave
# one worker running it alone at the end. The rest keep their order. Figures: docs/development.md.
LONGEST_FIRST = (
    "test_sheet_names.py", "test_fill.py", "test_procs.py", "test_output_safety.py", "test_readme_recipes.py",
    "test_missing_glyph.py", "test_batch_sheets.py", "test_layouts.py", "test_card_continue.py",
    "test_fill_kotm_rtd.py", "test_render_systems.py", "test_hostile_reads.py", "test_help_examples.py",
    "test_cli_fight.py", "test_render_pdf.py", "test_render_bounds_scale.py", "test_foundry_read.py",
    "test_folder_race.py", "test_hostile_sheet_options.py", "test_fuzz.py", "test_template_runaways.py",
)


def pytest_collection_modifyitems(session, config, items):
    rank = {name: n for n, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: a file's tests keep their order


def pytest_configure(config):
    """The sheet workers' fork server a test starts in this process (``generate`` run with CliRunner,
    ``run_batch``) outlives that run and serves every later one: the first run decided what it
    preloads for the whole session, and when that run drew html alone, every later pdf run's two
    workers imported WeasyPrint themselves (about 0.5 s of CPU each, per run). Here it always
    preloads the PDF maker too, as a ``chargen`` process that draws pdf does; what a run writes
    does not depend on it (a ``chargen`` command run as a process starts its own fork server)."""
    from chargen.run import early

    real = early.preload
    early.preload = lambda pdf: real(True)
