"""The block layout's encounter sheet (party.pdf), issue 23 item 3: its HTML is made in the main process
while the sheet workers start, and the worker that lays it out starts on the layout itself; the same
HTML, and the same bytes, as when the worker made it."""

import hashlib

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.generate import make_character
from chargen.run import partyfiles
from chargen.run.partyfiles import PartyPdf
from chargen.run.spec import SheetOptions


class Pool:
    """A pool that records what it is handed."""

    def __init__(self):
        self.handed = []

    def apply_async(self, function, args):
        self.handed.append((function, args))
        return len(self.handed)


def _party(tmp_path, d100, layout: str, **options) -> PartyPdf:
    return PartyPdf(tmp_path, SheetOptions(layout=layout, party_name="Ambush at the ford", **options), (d100,))


def _docs(d100, count: int = 5):
    docs = [make_character(d100, 42, i) for i in range(count)]
    for i, doc in enumerate(docs):  # two archetype groups, as an encounter sheet groups them
        doc["archetype"] = {"id": ("guard", "archer")[i % 2], "label": ("Guard", "Archer")[i % 2]}
    return list(enumerate(docs))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_worker_is_handed_the_encounter_sheets_html_the_same_it_would_make(tmp_path, d100, paper):
    from chargen.run.workers import SheetRenderer

    party, pool, docs = _party(tmp_path, d100, "block", paper=paper), Pool(), _docs(d100)
    try:
        party.lay_out_collection(pool, docs)
    finally:
        party.discard()
    [(function, (html, what))] = pool.handed
    assert function is partyfiles._laid_out and what == "block layout of 5 characters"
    head = {"name": "Ambush at the ford", "systems": ["D100 II 1.0.0"], "seeds": [42], "count": 5}
    worker = SheetRenderer(paper=paper, layout="block", modules=(d100,))
    assert html == worker.renderer.collection([worker.figured(d) for _, d in docs], "block", False, head,
                                              numbers=[n for n, _ in docs], parts={})
    assert "Guard" in html and "Roster" in html


def test_cards_and_html_that_fails_here_are_made_by_the_worker(tmp_path, d100, monkeypatch):
    from chargen.errors import RenderError

    docs = _docs(d100)
    for layout in ("card", "block"):
        party, pool = _party(tmp_path, d100, layout), Pool()
        try:
            party.lay_out_collection(pool, docs)
        finally:
            party.discard()
        if layout == "block":
            assert pool.handed[0][0] is partyfiles._laid_out
            monkeypatch.setattr(PartyPdf, "_collection_html", lambda self, *a: (_ for _ in ()).throw(RenderError("x")))
            party, pool = _party(tmp_path, d100, layout), Pool()
            try:
                party.lay_out_collection(pool, docs)
            finally:
                party.discard()
        [(function, (handed, head))] = pool.handed  # the documents, the worker makes the HTML (and meets the error)
        assert function is partyfiles._collection and handed == docs and head["count"] == 5


def _party_pdf(folder, *args) -> str:
    result = CliRunner().invoke(cli, ["generate", "--system", "d100", "--seed", "7", "--count", "4", "--layout",
                                      "block", "--format", "pdf", "-o", str(folder), *args])
    assert result.exit_code == 0, result.output
    return hashlib.sha256((folder / "party.pdf").read_bytes()).hexdigest()


def test_the_encounter_sheet_is_the_same_bytes_whoever_makes_its_html(tmp_path, monkeypatch):
    here = _party_pdf(tmp_path / "here", "--paper", "letter")
    one = _party_pdf(tmp_path / "one", "--paper", "letter", "--jobs", "1")
    from chargen.errors import RenderError

    monkeypatch.setattr(PartyPdf, "_collection_html", lambda self, *a: (_ for _ in ()).throw(RenderError("x")))
    there = _party_pdf(tmp_path / "there", "--paper", "letter")
    assert here == there == one
