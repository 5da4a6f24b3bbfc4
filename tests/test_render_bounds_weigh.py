"""What the render bounds weigh (issue 23): what is turned into text, not what a loop, ``| length``
or ``| batch`` is handed. An encounter sheet weighed every character's
document at each of them (80% of the HTML of 1,000 blocks); a hostile template is still refused."""

import pytest

from chargen.edits import reproduce
from chargen.errors import RenderError
from chargen.generate import make_character
from chargen.render.contain import bounds
from chargen.render.html import Figured, HtmlRenderer
from chargen.render.templates import TemplateSet
from chargen.run.figures import figured


@pytest.fixture
def weighed(monkeypatch):
    """Every container the bounds walk through, as handed to ``_weigh``."""
    seen = []
    real = bounds._weigh

    def spy(value, limit):
        seen.append(value)
        return real(value, limit)
    monkeypatch.setattr(bounds, "_weigh", spy)
    return seen


def _holds(value, doc) -> bool:
    """Whether ``value`` is ``doc`` or holds it (through lists, tuples and dicts)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if item is doc:
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return False


def test_the_encounter_sheet_weighs_no_characters_document(d100, weighed):
    docs = [make_character(d100, 42, i) for i in range(12)]
    party = {"name": "The party", "systems": ["D100 II"], "seeds": [42], "count": 12}
    html = HtmlRenderer(TemplateSet.load()).collection([figured(d, (), "block") for d in docs], "block", False,
                                                       party=party)
    assert html.count('class="block-index"') == 12
    assert weighed and not any(_holds(v, d) for v in weighed for d in docs)


@pytest.mark.parametrize("body", [
    "{% for k in c %}{% endfor %}",
    "{{ c | length }}{{ c.skills | count }}",
    "{% for row in c.skills | batch(2) %}{% endfor %}{% for part in c.skills | slice(3) %}{% endfor %}",
    "{% macro m(x) %}{{ x }}{% endmacro %}{% for s in c.skills %}{{ m(1) }}{% endfor %}",
])
def test_what_is_not_turned_into_text_is_not_weighed(tmp_path, d100, weighed, body):
    doc = make_character(d100, 42, 7)
    (tmp_path / "d100.html.j2").write_text(body)
    HtmlRenderer(TemplateSet.load(tmp_path)).sheet(Figured(doc, {}, reproduce(doc)), False)
    assert not any(_holds(v, x) for v in weighed for x in (doc, doc["skills"], *doc["skills"]))


@pytest.mark.parametrize("body, says", [
    ("{% set s = 'x' * 1000000 %}{% set l = [s, s, s] %}{% for x in l %}{% endfor %}{{ l | length }}{{ l }}",
     "over the limit"),
    ("{% set s = 'x' * 1000000 %}{% set l = [s, s, s] %}{% for row in l | batch(1) %}{{ row }}{% endfor %}{{ l | batch(3) | list }}",
     "over the limit"),
    ("{% set s = 'x' * 1000000 %}{% macro m(x) %}{{ x }}{% endmacro %}{{ m([s, s, s]) }}", "over the limit"),
])
def test_what_is_turned_into_text_is_still_weighed(tmp_path, d100, body, says):
    doc = make_character(d100, 42, 7)
    (tmp_path / "d100.html.j2").write_text(body)
    with pytest.raises(RenderError, match=says):
        HtmlRenderer(TemplateSet.load(tmp_path)).sheet(Figured(doc, {}, reproduce(doc)), False)
