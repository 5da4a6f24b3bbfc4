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


# -- the stylesheet's url() inlining, the font look-up and the % format bound: a subprocess, so a hang is
#    stopped (a regular expression running in C is not interrupted by SIGALRM) --------------------------

LINEAR = {
    "css url": "from chargen.render.templates import _CSS_URL as R; R.sub(lambda m: '', 'url(   ' * 170_000)",
    "font url": "from chargen.render.contain.names import _FONT_URL as R; R.findall('url( ' * 200_000)",
    "percent key": "from chargen.render.contain.bounds import check_format as f; f('%(' * 500_000, ())",
    "percent key and paren": "from chargen.render.contain.bounds import check_format as f; f('%(' * 500_000 + ')(', ())",
}


@pytest.mark.parametrize("case", LINEAR)
def test_a_megabyte_of_unclosed_keys_and_urls_is_read_in_one_pass(case):
    """Each took minutes to hours before (80 KB of 'url( ' took 24 s in the inlining; 2 MB of '%(' about
    13 min in the bound); now well inside the guard of 60 s."""
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-c", LINEAR[case]], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 or "LimitExceeded" in r.stderr, r.stderr[-500:]


def test_the_percent_bound_still_counts_widths_and_refuses_a_key_holding_a_percent():
    from chargen.render.contain import bounds

    bounds.check_format("%(name)8s and %5d", {"name": "x"})  # legitimate widths pass
    with pytest.raises(bounds.LimitExceeded, match="over the limit"):
        bounds.check_format("%(name)99999999999s", {"name": "x"})
    with pytest.raises(bounds.LimitExceeded, match="inside a % format's"):
        bounds.check_format("%(a%b)99999999s", {"a%b": "x"})


def test_the_inlined_and_font_urls_are_the_ones_found_before():
    from chargen.render.contain.names import _FONT_URL
    from chargen.render.templates import _CSS_URL

    css = """@font-face { src: url("fonts/a.otf") } .x { background: url( 'img/b.png' ) } @font-face { src: url(c.woff2) }"""
    assert [m.group("url") for m in _CSS_URL.finditer(css)] == ["fonts/a.otf", "img/b.png", "c.woff2"]
    assert _FONT_URL.findall(css) == ["fonts/a.otf", "c.woff2"]
