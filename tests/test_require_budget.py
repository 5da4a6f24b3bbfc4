"""Issue 39, item 11: a batch's ``--require`` (or a party line's ``require:``) has an overall bound on
its work: in each block of 250 characters, 10,000 attempts and 100 a character made so far. A
requirement one character in 2,000 meets, on a line of 1,000 members, took up to 10,000,000 attempts
(hours); it is refused after about 10,000. A party of 1,000 whose requirement 1 in 22 meets is made."""

import json

import pytest
from click.testing import CliRunner

from chargen import generate
from chargen.cli import cli
from chargen.require import BLOCK, SHARE, Budget
from chargen.seeds import MAX_ATTEMPTS

PARTY = "name: Strong band\nsystem: d100\nseed: 5\nformats: [json]\nmembers:\n" \
        "  - {{count: 1000, require: [{require}]}}\n"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], prog_name="chargen")


def test_a_character_alone_may_take_every_attempt():
    budget = Budget()
    assert budget.allowance(0) == MAX_ATTEMPTS and budget.allowance(BLOCK - 1) == MAX_ATTEMPTS


def test_a_block_of_characters_at_the_average_share_is_never_short():
    budget = Budget()
    for n in range(BLOCK):
        assert budget.allowance(n) == MAX_ATTEMPTS  # each may still be the one unlucky character
        budget.take(n, SHARE)
    assert budget.allowance(BLOCK) == MAX_ATTEMPTS  # the next block starts afresh


def test_past_the_share_a_block_runs_dry():
    budget = Budget()
    budget.take(0, 6000)
    assert budget.allowance(1) == MAX_ATTEMPTS + 2 * SHARE - 6000
    budget.take(1, 4300)
    assert budget.allowance(2) == 0 and budget.allowance(BLOCK) == MAX_ATTEMPTS


@pytest.fixture
def counted(monkeypatch):
    """The attempts made, with a guard that stops a run long before the old bound (10,000,000)."""
    made = {"n": 0}
    attempt = generate.make_attempt

    def counting(*args, **kwargs):
        made["n"] += 1
        assert made["n"] <= 100_000, "the --require ran past 100,000 attempts"
        return attempt(*args, **kwargs)

    monkeypatch.setattr(generate, "make_attempt", counting)
    return made


def test_a_rare_requirement_over_1000_members_is_refused_within_the_budget(tmp_path, counted):
    path = tmp_path / "band.yaml"
    path.write_text(PARTY.format(require="'characteristics.str>=18', 'characteristics.con>=16'"), encoding="utf-8")
    r = run("party", path, "-o", tmp_path / "band", "--jobs", 1)  # counted in this process
    assert r.exit_code == 1 and len(r.output.splitlines()) == 1, r.output
    assert r.output.startswith("Error: ") and "characters 0-249 took" in r.output
    assert f"a batch's --require may take {MAX_ATTEMPTS:,} attempts and {SHARE} a character in each {BLOCK}" in r.output
    assert counted["n"] <= MAX_ATTEMPTS + SHARE * 10


def test_a_party_of_1000_with_a_requirement_one_in_22_meets_is_made(tmp_path, counted):
    path = tmp_path / "band.yaml"
    path.write_text(PARTY.format(require="'characteristics.str>=16'"), encoding="utf-8")
    r = run("party", path, "-o", tmp_path / "band", "--jobs", 1)  # counted in this process
    assert r.exit_code == 0, r.output
    docs = [json.loads(p.read_text()) for p in sorted((tmp_path / "band").glob("0*.json"))]
    assert len(docs) == 1000 and all(d["characteristics"]["str"] >= 16 for d in docs)
    taken = sum(d["require"]["attempt"] + 1 for d in docs)  # 21,264: more than a cap of 10,000 in all would allow
    assert taken > MAX_ATTEMPTS and taken <= counted["n"] <= taken + 2  # and the two the file's check makes


def test_a_generate_batch_with_a_rare_requirement_stops_within_the_budget(counted):
    r = run("generate", "--seed", 1, "--count", 30, "--require", "characteristics.str>=18",
            "--require", "characteristics.con>=16", "--format", "json")
    assert r.exit_code == 1 and "Error: character 1: no attempt of 5677 meets" in r.output, r.output
    assert counted["n"] == MAX_ATTEMPTS + 2 * SHARE + 1  # and the sample the --require is checked on
