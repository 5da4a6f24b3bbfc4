"""Issue 39, item 2: no regular expression of the render stage backtracks without bound on what a
templates folder may write (a stylesheet of 1 MB, a page of 8,000,000 characters).

The standalone check's ``url(...)``, ``image-set(...)`` and ``<head>`` scans looked to the end of the
text from each start that never closed: quadratic (a megabyte of ``url(   ``: hours). Each is now a
linear scan that finds what the pattern found (checked here against the old patterns); the hostile
texts are checked in a few milliseconds, with a hang guard only."""

from __future__ import annotations

import re
import signal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chargen.render.contain import standalone as S

OLD_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.S | re.I)
OLD_IMAGE_SET = re.compile(r"(?:-webkit-)?(?:image-set|image|cross-fade|element)\((.*?)\)", re.S | re.I)
OLD_HEAD = re.compile(r"<head(?=[\s/>])[^>]*>", re.I)
PIECES = ["url(", "URL(", "image(", "image-set(", "element(", ")", "'", '"', " ", "\n", "x", "data:", "(", "<head",
          "<HEAD", ">", "/", "<"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30))
def test_the_scans_find_what_the_old_patterns_found(pieces):
    text = "".join(pieces)
    assert [u.strip() for u in S.urls(text)] == [m.group(2).strip() for m in OLD_URL.finditer(text)]
    assert S.image_functions(text) == [(m.group(0), m.group(1)) for m in OLD_IMAGE_SET.finditer(text)]
    old = OLD_HEAD.search(text) or S._DOCTYPE.match(text)
    assert S.with_policy(text) == text[:old.end() if old else 0] + S.POLICY_META + text[old.end() if old else 0:]


HOSTILE = {"url( ": "url(    " * 125_000, "url(' ": "url('x) " * 125_000, "image(": "image(" * 166_000,
           "nested url": "url(" * 250_000 + ")"}


@pytest.fixture
def hang_guard():
    """A guard against a hang only (each check takes milliseconds; the old patterns took hours)."""
    def stop(*_):
        raise TimeoutError("a scan ran past 30 s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(30)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize("case", HOSTILE)
def test_a_megabyte_of_unclosed_functions_is_checked_at_once(case, hang_guard):
    css = HOSTILE[case]
    assert len(css) >= 990_000
    problem = S.css_problem(css)
    assert problem is None or problem.startswith(("url(", "image(")), problem


def test_eight_million_characters_of_unclosed_heads_take_the_policy_at_once(hang_guard):
    html = "<!doctype html>" + "<head " * 1_333_000
    assert S.with_policy(html) == "<!doctype html>" + S.POLICY_META + "<head " * 1_333_000
