"""Relations inside a party (issue 25): two-way ties, both ends consistent, fixed by member name or
number, the rest drawn on their own stream; printed on the blocks; unknown names are one Error line."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.flavour.relations import Tie, draw
from chargen.rules import load_builtin

ROOT = Path(__file__).parent.parent
HEAD = "name: Bandits of the Old Road\nsystem: d100\nseed: 20261201\nmembers:\n" \
       "  - {archetype: bandit_chief, name: Red Ulf}\n  - {archetype: bandit, count: 1D4+2}\n" \
       "  - {archetype: hedge_archer, count: 2, years: 3}\n"


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], prog_name="chargen")


def party(tmp_path, relations: str, out="out", formats="[json]"):
    path = tmp_path / f"{out}.yaml"
    path.write_text(HEAD + f"formats: {formats}\n" + relations, encoding="utf-8")
    r = run("party", path, "-o", tmp_path / out)
    return r, [json.loads(p.read_text()) for p in sorted((tmp_path / out).glob("0*.json"))]


def ends(docs):
    return {(d["seed"]["number"], r["number"]): r for d in docs for r in d["relations"]}


@pytest.mark.parametrize("system", ["d100", "kotm", "rtd"])
def test_every_kind_names_an_other_end_that_names_it_back(system):
    f = load_builtin(system).flavour
    kinds = {k.id: k for k in f.relations}
    assert {"kin", "friend", "rival", "lover", "debtor", "creditor", "superior", "subordinate", "sworn_enemy"} <= set(kinds)
    assert all(kinds[kinds[k].other].other == k for k in kinds)
    assert kinds["debtor"].other == "creditor" and kinds["superior"].other == "subordinate"


@pytest.mark.parametrize("seed", range(20))
def test_drawn_ties_are_between_two_members_once(seed):
    f = load_builtin("kotm").flavour
    ties = draw(f, seed, 7, count=12)
    pairs = [frozenset((t.a, t.b)) for t in ties]
    assert all(t.a != t.b and 0 <= t.a < 7 and 0 <= t.b < 7 for t in ties)
    assert len(pairs) == len(set(pairs)) and ties == draw(f, seed, 7, count=12)
    assert all(t.reason in [r.text for r in f.kind(t.kind).reasons] for t in ties)


def test_both_ends_hold_the_tie(tmp_path):
    r, docs = party(tmp_path, "relations:\n  draw: 6\n  fixed:\n"
                    "    - {between: [Red Ulf, '#3'], kind: superior}\n"
                    "    - {between: ['#2', Red Ulf], kind: debtor, reason: lost the band's pay at dice}\n")
    assert r.exit_code == 0, r.output
    kinds = {k.id: k for k in load_builtin("d100").flavour.relations}
    tied = ends(docs)
    for (me, them), rel in tied.items():
        back = tied[(them, me)]
        assert back["kind"] == kinds[rel["kind"]].other and back["reason"] == rel["reason"]
        assert rel["with"] == docs[them]["identity"]["name"] and back["with"] == docs[me]["identity"]["name"]
    assert tied[(0, 3)]["kind"] == "superior" and tied[(3, 0)]["kind"] == "subordinate"
    assert tied[(2, 0)] == {"with": "Red Ulf", "number": 0, "kind": "debtor", "label": "Owes money to",
                            "reason": "lost the band's pay at dice"}
    assert tied[(0, 2)]["kind"] == "creditor" and tied[(0, 2)]["label"] == "Is owed money by"
    assert len(tied) >= 2 * 3  # the two fixed and at least one drawn, each at both ends


def test_everything_else_is_as_without_relations(tmp_path):
    _, plain = party(tmp_path, "", "a")
    _, tied = party(tmp_path, "relations: {}\n", "b")
    assert all("relations" not in d for d in plain)
    for a, b in zip(plain, tied):
        assert isinstance(b.pop("relations"), list) and a == b


@pytest.mark.parametrize("fixed, problem", [
    ("{between: [Red Olf, '#1'], kind: friend}", "between[0]: no member is named 'Red Olf' (the members: Red Ulf, "),
    ("{between: [Red Ulf, '#40'], kind: friend}", "between[1]: no member #40 (the party has #0 to #"),
    ("{between: [Red Ulf, Red Ulf], kind: friend}", "between: a member cannot be tied to itself"),
    ("{between: [Red Ulf, '#1'], kind: nemesis}", "kind: unknown relation kind 'nemesis' (expected one of: "),
])
def test_a_bad_fixed_tie_is_one_error_line_at_its_line(tmp_path, fixed, problem):
    r, _ = party(tmp_path, f"relations:\n  fixed:\n    - {fixed}\n")
    assert r.exit_code == 1 and r.stdout == ""
    assert len(r.stderr.splitlines()) == 1
    assert r.stderr.startswith(f"Error: {tmp_path / 'out.yaml'}:11: relations.fixed[0].{problem}"), r.stderr


def test_the_ties_are_on_the_blocks_and_in_every_format(tmp_path):
    r, docs = party(tmp_path, "relations:\n  fixed:\n    - {between: [Red Ulf, '#3'], kind: superior}\n",
                    formats="[json, pdf, text, csv]")
    assert r.exit_code == 0, r.output
    import subprocess

    text = subprocess.run(["pdftotext", str(tmp_path / "out" / "party.pdf"), "-"], capture_output=True, text=True,
                          check=True).stdout
    flat = " ".join(text.split())
    other = docs[3]["identity"]["name"]
    assert f"Gives orders to {other} (#3)" in flat and "Takes orders from Red Ulf (#0)" in flat
    first = (tmp_path / "out" / "blocks.txt").read_text().split("---\n")[0]
    line = next(x for x in first.splitlines() if x.startswith("Relations: "))
    assert f"Gives orders to {other} (took " in line
    assert (tmp_path / "out" / "roster.csv").read_text(encoding="utf-8-sig").splitlines()[0].endswith(",relations")


def test_the_tie_stream_is_its_own():
    f = load_builtin("rtd").flavour
    fixed = (Tie(0, 1, "rival", "x"),)
    assert draw(f, 5, 4, fixed, count=0) == fixed
    assert draw(f, 5, 4, count=3) == draw(f, 5, 4, count=3)


@pytest.mark.parametrize("field", ["reason", "name"])
def test_a_bidi_control_in_a_tie_reason_or_a_member_name_is_one_error_line(tmp_path, field):
    """Issue 39, item 11: party-file text refuses bidi controls as it refuses control characters."""
    text = "relations:\n  fixed:\n    - {between: [Red Ulf, '#3'], kind: debtor, reason: \"owes \u202egnissim\"}\n"
    if field == "name":
        text = "relations:\n  fixed:\n    - {between: [\"Red \u202eUlf\", '#3'], kind: debtor}\n"
    r, docs = party(tmp_path, text)
    assert r.exit_code == 1 and r.output.startswith("Error: ") and "U+202E" in r.output and not docs
