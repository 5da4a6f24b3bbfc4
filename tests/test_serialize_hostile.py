"""Saved characters that are valid JSON or YAML but not characters: one clear error on read."""

import json

import pytest

from chargen.errors import CharacterError
from chargen.generate import make_character
from chargen.serialize import parse_document, to_json


@pytest.fixture
def text(rtd):
    return to_json(make_character(rtd, 42, 0))


def test_a_saved_character_reads_back(text, rtd):
    assert parse_document(text, "c.json") == make_character(rtd, 42, 0)


def test_duplicate_keys_are_refused(text):
    bad = text.replace('"notes": ""', '"notes": "", "notes": "again"')
    with pytest.raises(CharacterError, match=r"^c.json: not a character document: duplicate key 'notes'$"):
        parse_document(bad, "c.json")


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_numbers_are_refused_in_json(text, word):
    doc = json.loads(text)
    doc["weapons"][0]["critical_multiplier"] = "@@"
    bad = json.dumps(doc).replace('"@@"', word)
    with pytest.raises(CharacterError, match=rf"{word} is not a number a character can hold"):
        parse_document(bad, "c.json")


def test_non_finite_numbers_are_refused_in_yaml(rtd):
    from chargen.serialize import to_yaml

    doc = make_character(rtd, 42, 0)
    doc["weapons"][0]["critical_multiplier"] = 0.5
    bad = to_yaml(doc).replace("critical_multiplier: 0.5", "critical_multiplier: .nan")
    with pytest.raises(CharacterError, match=r"nan is not a number a character can hold"):
        parse_document(bad, "c.yaml")


def test_a_5000_digit_index_and_deep_nesting_are_one_error(text):
    with pytest.raises(CharacterError, match=r"^c.json: not a character document: Exceeds the limit"):
        parse_document(text.replace('"index": 0', '"index": ' + "9" * 5000), "c.json")
    with pytest.raises(CharacterError, match=r"nested deeper than 32 levels$"):
        parse_document('{"notes": ' + "[" * 100_000 + "]" * 100_000 + "}", "c.json")


@pytest.mark.parametrize("change, message", [
    (("part", "tail"), "wounds[0].part: no body part 'tail' in its rules (expected one of: head, torso"),
    (("state", "exploded"), "wounds[0].state: 'exploded' is not a wound state the Head can take (expected one of:"),
])
def test_an_rtd_wound_its_rules_do_not_know_is_refused_on_read(text, change, message):
    doc = json.loads(text)
    doc["wounds"][0][change[0]] = change[1]
    with pytest.raises(CharacterError) as e:
        parse_document(json.dumps(doc), "c.json")
    assert str(e.value).startswith(f"c.json: {message}")
