"""How many tasks a sheet worker does before it is replaced (chargen.run.sheets.recycle_after)."""

import pytest

from chargen.run import sheets
from chargen.run.sheets import RECYCLE, recycle_after


@pytest.mark.parametrize("work, workers", [(1, 1), (12, 2), (100, 1), (100, 2), (200, 2), (240, 1)])
def test_a_batch_that_fits_in_one_cycle_replaces_no_worker(work, workers):
    """Every task a worker can get (its sheets, and every cover page) fits before its replacement."""
    cover_pages = work // 50 + 2
    assert recycle_after(work, workers) >= -(-(work + cover_pages) // workers)


@pytest.mark.parametrize("work, workers", [(1000, 2), (1000, 1), (20_000, 2), (600, 2)])
def test_a_long_batch_replaces_workers_in_even_cycles_of_at_most_recycle(work, workers):
    length = recycle_after(work, workers)
    share = -(-(work + work // 50 + 2) // workers)
    assert length <= RECYCLE
    cycles = -(-share // length)
    last = share - (cycles - 1) * length  # what a worker does after its last replacement
    assert last >= length - cycles, (length, share, last)  # never replaced for its last few tasks


def test_an_unknown_count_and_a_house_setting_are_kept(monkeypatch):
    assert recycle_after(None, 2) == RECYCLE
    monkeypatch.setattr(sheets, "RECYCLE", 1)
    assert recycle_after(24, 2) == 1  # tests/test_procs.py replaces a worker after each sheet this way
