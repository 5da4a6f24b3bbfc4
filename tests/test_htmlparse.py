"""The HTML parser's pattern cache (chargen.run.htmlparse): tinyhtml5 parses as it does without
it, and compiles each pattern once a process, not once a run of text."""

import xml.etree.ElementTree as ET

import pytest
import tinyhtml5
from tinyhtml5 import inputstream

from chargen.generate import make_character
from chargen.run import htmlparse
from chargen.run.workers import SheetRenderer

TRICKY = ('<!DOCTYPE html><p title="a &amp; b" class=x>Tom &amp; Jerry &lt;3 &copy &#x41;&#66; <b>bold<i>both</b>'
          '</i> <!-- a -- comment --> <script>if (a < b && c > d) {}</script><style>p > b { x: "</p>" }</style>'
          '<textarea>&lt;kept&gt; <b>text</b></textarea><pre>\n line</pre><table><tr><td>cell<td>two</table>'
          '<svg><title>&amp;</title></svg> trailing &notanentity; <p id=\'q\' data-x="1" disabled>x')


@pytest.fixture
def restore():
    saved = inputstream.characters_until_regex
    yield
    inputstream.characters_until_regex = saved


def documents(d100):
    r = SheetRenderer(pdf=False)
    docs = [make_character(d100, 5, i) for i in range(2)]
    return [TRICKY, r.html(docs[0], False), r.html(docs[1], True)]  # a hostile mix, a sheet, a standalone sheet


def tree(html: str) -> bytes:
    return ET.tostring(tinyhtml5.parse(html, scripting=True))


def test_the_parse_is_the_same_with_the_cache(d100, restore):
    texts = documents(d100)
    inputstream.characters_until_regex = {}  # tinyhtml5's own: every pattern built where it is used
    plain = [tree(t) for t in texts]
    inputstream.characters_until_regex = htmlparse.Patterns()
    assert [tree(t) for t in texts] == plain
    assert [tree(t) for t in texts] == plain  # from the cache, filled by the parses above


def test_each_pattern_is_compiled_once_under_its_characters(d100, restore):
    htmlparse.cache_patterns()  # as the sheet stage does (chargen.run.workers imports it)
    cache = inputstream.characters_until_regex
    assert isinstance(cache, htmlparse.Patterns)
    texts = documents(d100)
    for t in texts:
        tree(t)
    made = dict(cache)
    assert made and all(isinstance(o, bool) and not hasattr(c, "pattern") for c, o in made)  # keyed by characters
    for t in texts:
        tree(t)
    assert dict(cache) == made  # nothing compiled again
