"""Issue 39, findings 3 and 7: every number ``fight`` and ``roll`` read from a user is checked by its form
and length before it is converted (``--morale 1e999999999`` ran for minutes), and a fight's work
(fighters x fights x rounds) is bounded before a fight is played, with its progress on a terminal.
Both sides of each bound: the legitimate largest case works, the hostile one is refused without work."""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from chargen.cli import cli
from chargen.dice import parse
from chargen.errors import CharacterError, DiceError, OptionError
from chargen.fight import estimate as est_module
from chargen.fight import tactics as tactics_module
from chargen.fight.estimate import SideSpec, estimate
from chargen.fight.tactics import tactics
from chargen.generate import make_character
from chargen.rules import load_builtin
from chargen.run.fighters import read_fighter
from chargen.serialize import to_json

D100 = load_builtin("d100")
BUDGET = ("400 fighters in 2,001 fights of up to 50 rounds are 40,020,000 fighter-rounds to play, over the limit "
          "of 40,000,000 (200 a side in 2,000 fights of up to 50 rounds): ")


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], prog_name="chargen")


def side(folder: Path, count: int, seed: int = 1) -> Path:
    folder.mkdir(parents=True)
    text = to_json(make_character(D100, seed, 0))
    for i in range(count):
        (folder / f"{i:04d}.json").write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def full(tmp_path_factory) -> Path:
    """A side of 200 fighters, the most a side holds."""
    return side(tmp_path_factory.mktemp("full") / "full", 200)


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("small")
    return side(root / "a", 2, 1), side(root / "b", 2, 2)


# --- finding 3: numbers checked by form and length before they are converted ----------------

class Watched(Fraction):
    """Fraction, refusing to be handed text that is not a share in ASCII digits (the work the old check did first)."""

    def __new__(cls, value=0, *args, **kw):
        if isinstance(value, str):
            assert len(value) <= 20 and value.isascii() and "e" not in value.lower(), f"converted {value[:30]!r}"
        return super().__new__(cls, value, *args, **kw)


@pytest.mark.parametrize("text", ["1e999999999", "1E99", "1e-1", "\u0661/\u0662", "\uff11/\uff12", " 1/2", "1/2 ",
                                  "+1/2", "1_0/2_0", "0x1", "nan", "inf", "1/0", "9" * 21, "1/2/3", ""])
def test_a_morale_not_written_as_a_share_is_refused_before_it_is_converted(monkeypatch, text):
    monkeypatch.setattr(tactics_module, "Fraction", Watched)
    with pytest.raises(OptionError) as e:
        tactics(morale=text)
    assert str(e.value) == (f"--morale {text[:40]!r}: not a share (a fraction such as 1/2 or a decimal such as 0.5, "
                            "in ASCII digits 0-9, at most 20 characters)")


@pytest.mark.parametrize("text, share", [("1/2", Fraction(1, 2)), ("0.5", Fraction(1, 2)), (".25", Fraction(1, 4)),
                                         ("1", Fraction(1)), ("0", Fraction(0)), ("3/4", Fraction(3, 4)),
                                         ("1.", Fraction(1)), ("00000000000000000001", Fraction(1))])
def test_a_share_in_ascii_digits_is_read(monkeypatch, text, share):
    monkeypatch.setattr(tactics_module, "Fraction", Watched)
    assert tactics(morale=text).morale == share
    with pytest.raises(OptionError, match="a share from 0 to 1"):
        tactics(morale="3/2")


def test_morale_1e999999999_is_one_error_line(monkeypatch, small):
    monkeypatch.setattr(tactics_module, "Fraction", Watched)  # converting it first ran for minutes
    r = run("fight", *small, "--morale", "1e999999999")
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.startswith("Error: --morale '1e999999999': not a share (") and r.stderr.count("\n") == 1


@pytest.mark.parametrize("text", ["\u0663D\u0666", "3D\u0666", "\u0661\u0660", "D\uff11\uff10\uff10"])
def test_dice_are_written_in_ascii_digits(text):
    with pytest.raises(DiceError, match="malformed dice"):
        parse(text)
    assert parse("3D6+10").dice_count == 3


def test_a_file_pick_is_ascii_digits_checked_before_it_is_converted(tmp_path):
    doc = make_character(D100, 1, 0)
    (tmp_path / "c.json").write_text(to_json(doc), encoding="utf-8")
    for tail in ("\u00b2", "\u0661", "9" * 5000, "1234567"):
        with pytest.raises(CharacterError, match=r"#N is the Nth character of the file, in ASCII digits 0-9"):
            read_fighter(f"{tmp_path / 'c.json'}#{tail}")
    assert read_fighter(f"{tmp_path / 'c.json'}#1")["identity"] == doc["identity"]
    with pytest.raises(CharacterError, match="no character 2 in the file"):
        read_fighter(f"{tmp_path / 'c.json'}#2")


@pytest.mark.parametrize("option", ["--fights", "--seed", "--max-rounds", "--jobs"])
def test_an_integer_option_of_100000_digits_is_refused_by_its_length(small, option):
    r = run("fight", *small, option, "1" * 100_000)
    assert r.exit_code == 2 and r.stdout == ""
    assert (f"Invalid value for '{option}': '111111111111111111111111'... (100,000 characters) is not a valid "
            "integer (at most 20 digits).") in r.stderr and len(r.stderr) < 400
    r = run("roll", "--system", "d100", "--chance", "6" * 21)
    assert r.exit_code == 2 and "(21 characters) is not a valid integer (at most 20 digits)" in r.stderr


def test_a_seed_of_20_digits_is_still_read(small):
    r = run("fight", *small, "--seed", "18446744073709551615", "--fights", "3")
    assert r.exit_code == 0, r.output
    assert "3 fights, seed 18446744073709551615" in r.stdout


# --- finding 7: fighters x fights x rounds, bounded before a fight is played ---------------

def test_the_budget_is_200_a_side_at_the_default_fights_and_rounds():
    est_module.check_work(400, 2000, 50)           # the largest legitimate fight at the defaults
    est_module.check_work(8, 100_000, 50)          # the most fights, small sides
    est_module.check_work(2, 100_000, 200)
    for fighters, fights, rounds in ((400, 2001, 50), (401, 2000, 50), (400, 2000, 51), (8, 100_000, 51),
                                     (400, 100_000, 1000)):
        with pytest.raises(OptionError, match="over the limit of 40,000,000"):
            est_module.check_work(fighters, fights, rounds)


def _counted(monkeypatch) -> list:
    """Fights are not played but counted (each an unended fight): what the budget lets through."""
    played: list = []

    def play_range(bounds):
        played.append(bounds)
        return [(None, 1, False, (0, 0), (0, 0), (), ())] * (bounds[1] - bounds[0])
    monkeypatch.setattr(est_module, "_play_range", play_range)
    return played


def test_200_a_side_at_the_default_fights_is_played_and_one_fight_more_is_refused(monkeypatch, full):
    played = _counted(monkeypatch)
    r = run("fight", full, full, "--seed", "1", "--fights", "2001", "--jobs", "1")
    assert r.exit_code == 1 and r.stdout == "" and not played
    assert r.stderr == "Error: " + BUDGET + "give fewer --fights or --max-rounds, or smaller sides\n"
    r = run("fight", full, full, "--seed", "1", "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("full (200) against full (200): 2,000 fights, seed 1\n")
    assert sum(b - a for a, b in played) == 2000 and len(played) == 200  # 10 fights (200,000 fighter-rounds) a chunk


def test_200_a_side_really_fights(full):
    """The other side of the bound played for real: the largest sides, a few fights of the default rounds."""
    r = run("fight", full, full, "--seed", "1", "--fights", "3", "--format", "json")
    assert r.exit_code == 0, r.output
    assert '"fights": 3,' in r.stdout and '"max_rounds": 50' in r.stdout


def test_an_encounter_over_the_budget_is_refused_before_anything_is_made(monkeypatch, tmp_path, full):
    from chargen.run import pipeline

    def started(*args, **kw):
        raise AssertionError("the batch was started")
    monkeypatch.setattr(pipeline.Pipeline, "run", started)
    r = run("generate", "--system", "d100", "--seed", "1", "--count", "201", "--format", "pdf", "--layout", "block",
            "--against", full, "-o", tmp_path / "out")
    assert r.exit_code == 1 and not (tmp_path / "out").exists()
    assert r.stderr == ("Error: 401 fighters in 2,000 fights of up to 50 rounds are 40,100,000 fighter-rounds to play, "
                        "over the limit of 40,000,000 (200 a side in 2,000 fights of up to 50 rounds): the encounter "
                        "sheet's odds of 201 characters against 200 cannot be played; make the batch smaller, or print "
                        "it without --against\n")


def test_an_encounter_of_200_against_200_is_within_the_budget(full):
    from chargen.cli.options import check_against
    from chargen.run.spec import SheetOptions

    sheets = SheetOptions(formats=("pdf",), layout="block", against=str(full))
    check_against(sheets, 200)  # 201 against 200: refused, above


def test_fights_are_chunked_by_their_work_and_the_figures_do_not_change():
    assert est_module.chunks(2000, 2, 400 * 50) == [(a, a + 10) for a in range(0, 2000, 10)]
    assert est_module.chunks(2000, 2, 8 * 50) == [(a, a + 250) for a in range(0, 2000, 250)]  # as before: four a worker
    assert est_module.chunks(5, 8, 400 * 1000) == [(a, a + 1) for a in range(5)]
    docs = tuple(make_character(D100, 3, i) for i in range(3))
    sides = (SideSpec("a", docs), SideSpec("b", docs[::-1]))
    seen: list = []
    one = estimate(D100, sides, 90, 7, progress=seen.append)
    assert sum(seen) == 90
    original = est_module.CHUNK_WORK
    try:
        est_module.CHUNK_WORK = 6 * 50 * 7  # 7 fights a chunk
        seen.clear()
        other = estimate(D100, sides, 90, 7, progress=seen.append)
    finally:
        est_module.CHUNK_WORK = original
    assert seen == [7] * 12 + [6]
    assert (one.wins, one.rounds, one.out, one.dead, one.credits) == (
        other.wins, other.rounds, other.out, other.dead, other.credits)


def test_a_fight_shows_its_progress_on_a_terminal(small):
    """On a terminal, the fights played so far on stderr; nothing off one (the CliRunner runs above)."""
    import pty

    leader, follower = pty.openpty()
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    proc = subprocess.run([sys.executable, "-m", "chargen", "fight", *map(str, small), "--seed", "1", "--fights",
                           "300", "--jobs", "1"], stdin=follower, stdout=follower, stderr=follower, env=env,
                          timeout=120)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert proc.returncode == 0
    assert b"fights: 300/300 (100%), " in seen and b"a (2) against b (2): 300 fights, seed 1" in seen
    r = run("fight", *small, "--seed", "1", "--fights", "300", "--jobs", "1")
    assert r.exit_code == 0 and r.stderr == ""
