"""User text in an Obsidian statblock note never becomes live Markdown (issue 26, finding 2).

The plugin renders a note's property, trait and text blocks as Markdown (MarkdownHolder.svelte)
and its heading as text with links (TextContent.svelte); Obsidian renders anything outside the
fenced block as the note's Markdown. So: nothing of the character outside the YAML, and every
string in the YAML with each character that starts a link, image, HTML, wiki-link, tag or
autolink escaped, reading back (unescaped) to the character's own text. Checked outside this
repository with markdown-it (CommonMark, html and linkify on): no <a>, <img>, <script> rendered.
"""

import copy
import re

import pytest
import yaml

from chargen.formats import FORMATS
from chargen.generate import make_character
from chargen.systems.d100.interop.statblock import MD_SPECIAL

HOSTILE = ["![p](http://127.0.0.1:9/p.png)", "<img src=http://127.0.0.1:9/i.png>", "<script>alert(1)</script>",
           "[x](javascript:alert(1))", "[[secret]]", "![[secret.png]]", "http://127.0.0.1:9/a", "www.example.com",
           "<http://127.0.0.1:9/>", "#tag", "a\n```\n<img src=x>", "`code`", "\\[x](y)"]
FENCE = re.compile(r"^```[^\S\r\n]*statblock\s?\n([\s\S]+?)^```", re.M)


def unescape(text: str) -> str:
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)


def unescaped_special(text: str) -> list[str]:
    """Markdown-special characters not preceded by an escaping backslash."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            i += 2
            continue
        if text[i] in MD_SPECIAL:
            out.append(text[i])
        i += 1
    return out


@pytest.fixture(scope="module")
def doc(d100):
    return make_character(d100, 42, 3)


@pytest.mark.parametrize("text", HOSTILE)
def test_user_text_stays_inside_the_yaml_and_escaped(doc, text):
    d = copy.deepcopy(doc)
    d["identity"]["name"] = d["notes"] = d["background"]["label"] = text
    d["equipment"] = [text]
    d["weapons"][0]["label"] = d["skills"][1]["label"] = d["armour"][0]["label"] = text
    note = FORMATS["statblock"].to_bytes(d).decode("utf-8")
    m = FENCE.search(note)
    assert note == "---\nstatblock: inline\n---\n\n" + m[0] + "\n"  # nothing but the front matter and the block
    assert not any(line.startswith("```") or line.lstrip().startswith("```") for line in m[1].split("\n"))
    block = yaml.safe_load(m[1])
    name, number = block["name"].rsplit(" ", 1)
    assert re.fullmatch(r"#\d+", number)  # not a tag: Obsidian's tags need a character besides digits
    block["name"] = name
    assert all(unescaped_special(s) == [] for s in strings(block)), [s for s in strings(block) if unescaped_special(s)]
    assert unescape(block["notes"]) == text and unescape(block["background"]) == text
    assert unescape(name) == text and unescape(block["equipment"]) == text
    assert unescape(block["weapons"][0]["name"]) == text
