from chargen.generate import make_character
from chargen.serialize import validate


def test_character_validates_against_schema(d100):
    doc = make_character(d100, 42, 0)
    validate(doc)
