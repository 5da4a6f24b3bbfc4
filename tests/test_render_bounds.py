"""A hostile template (``--template-dir``) is one RenderError naming its file and line, in bounded
time and memory: loops, calls, values, output and template files all have limits."""

import contextlib
import os
from pathlib import Path

import pytest

from chargen.errors import RenderError
from chargen.generate import make_character
from chargen.render.contain import bounds
from chargen.edits import reproduce
from chargen.render.html import Figured, HtmlRenderer
from chargen.run.figures import figured
from chargen.render.templates import TemplateSet


@pytest.fixture
def doc(d100):
    return make_character(d100, 42, 7)


def render(folder: Path, body: str, doc: dict) -> str:
    (folder / "d100.html.j2").write_text(body)
    return HtmlRenderer(TemplateSet.load(folder)).sheet(Figured(doc, {}, reproduce(doc)), False)


HOSTILE = {
    "string repetition": ("{{ 'x' * 10**10 }}", "characters or items is over the limit"),
    "a huge power": ("{{ 2 ** 100000 }}", "a power of more than 4,096 bits"),
    "a product grown in a loop": ("{% set ns = namespace(n=3) %}{% for i in range(40) %}{% set ns.n = ns.n * ns.n %}"
                                  "{% endfor %}", "a product of more than 4,096 bits"),
    "nested range loops": ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
                           "more than 200,000 steps"),
    "nested loops over a string": ("{% set s = 'x' * 100000 %}{% for a in s %}{% for b in s %}{% endfor %}"
                                   "{% endfor %}", "more than 200,000 steps"),
    "exponential macro calls": ("{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}"
                                "{{ f(60) }}", "more than 200,000 steps"),
    "recursion": ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "RecursionError"),
    "center filter": ("{{ 'x' | center(10**9) }}", "center: 1,000,000,000 is over the limit"),
    "center filter, literal": ("{{ 'x' | center(1000000000) }}", "center: 1,000,000,000 is over the limit"),
    "format filter": ("{{ '%999999999s' | format('x') }}", "a % format with widths of 1,000,000,01"),
    "% operator": ("{{ '%999999999s' % 'x' }}", "a % format with widths"),
    "str.format": ("{{ '{:>999999999}'.format('x') }}", "a format with widths"),
    "ljust method": ("{{ 'x'.ljust(10**9) }}", "ljust: 1,000,000,000 is over the limit"),
    "join method": ("{{ ('x' * 100000).join(['a'] * 1000) }}", "characters or items is over the limit"),
    "replace filter": ("{{ ('x' * 10000) | replace('', 'y' * 1000) }}", "characters or items is over the limit"),
    "doubling with ~": ("{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}"
                        "{% endfor %}", "characters or items is over the limit"),
    "a list of big strings printed": ("{% set s = 'x' * 1000000 %}{{ [s] * 1000 }}", "over the limit"),
    "a list grown by append, printed": ("{% set s = 'x' * 1000000 %}{% set ns = namespace(l=[]) %}"
                                        "{% for i in range(3) %}{{ ns.l.append(s) }}{% endfor %}{{ ns.l }}",
                                        "over the limit"),
    "a list weighed, then grown by append, printed": (
        "{% set s = 'x' * 1000000 %}{% set ns = namespace(l=[s]) %}{{ ns.l | length }}"
        "{% for i in range(3) %}{{ ns.l.append(s) }}{% endfor %}{{ ns.l }}", "over the limit"),
    "a dict weighed, then grown by update, printed": (
        "{% set s = 'x' * 1000000 %}{% set d = {'a': s} %}{{ d | length }}"
        "{{ d.update({'b': s}) }}{{ d.update({'c': s}) }}{{ d }}", "over the limit"),
    "lipsum": ("{{ lipsum(n=10**9) }}", "'lipsum' is undefined"),
    "division by zero": ("\n\n{{ 1 / 0 }}", "d100.html.j2:3: ZeroDivisionError: division by zero"),
    "a TypeError in a filter": ("{{ c.identity.name | round }}", "d100.html.j2:1: TypeError: "),
    "too long an output": ("{% for i in range(9) %}{{ 'x' * 1000000 }}{% endfor %}",
                           "the output is over the limit of 8,000,000 characters"),
    "too many elements": ("{% for i in range(50000) %}<b></b>{% endfor %}", "over 40,000 elements"),
    "many made values": ("{% for i in range(100) %}{% set s = 'x' * 1000000 %}{% endfor %}",
                         "more than 20,000,000 characters and items"),
}


@pytest.mark.parametrize("body, says", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_template_is_one_render_error(tmp_path, doc, body, says):
    with pytest.raises(RenderError) as e:
        render(tmp_path, body, doc)
    message = str(e.value)
    assert message.startswith(f"{tmp_path.resolve()}: d100.html.j2")
    assert says in message
    assert "\n" not in message


def test_an_error_names_the_included_template_and_its_line(tmp_path, doc):
    (tmp_path / "part.html.j2").write_text("ok\n{{ 'x' * 10**10 }}\n")
    with pytest.raises(RenderError, match=r": part.html.j2:2: a value of 10,000,000,000 characters"):
        render(tmp_path, "{% include 'part.html.j2' %}", doc)


def test_a_template_that_runs_too_long_stops(tmp_path, doc, monkeypatch):
    now = iter(range(0, 10**9, 10))  # a clock ten seconds on at each look
    monkeypatch.setattr(bounds, "clock", lambda: next(now))
    with pytest.raises(RenderError, match=r"d100.html.j2:1: the template takes longer than 60 seconds"):
        render(tmp_path, "{% for i in range(50000) %}{% endfor %}", doc)


def test_an_oversized_template_file_is_refused_before_it_is_read(tmp_path, doc, monkeypatch):
    big = tmp_path / "big.html.j2"
    with big.open("wb") as f:
        f.truncate(3 * 2**30)  # 3 GB, sparse
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("read"))
    with pytest.raises(RenderError, match=r"template 'big.html.j2' is 3,221,225,472 bytes, over the limit of 1,000,000"):
        render(tmp_path, "{% include 'big.html.j2' %}", doc)


def test_an_include_leading_out_is_refused_before_it_is_read(tmp_path, doc):
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.j2"
    with secret.open("wb") as f:
        f.truncate(3 * 2**30)
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "secret.j2").symlink_to(secret)
    with pytest.raises(RenderError, match=r"template 'secret.j2' is outside the templates folder"):
        render(folder, "{% include 'secret.j2' %}", doc)


def test_a_named_pipe_is_not_a_template(tmp_path, doc):
    os.mkfifo(tmp_path / "pipe.j2")
    with pytest.raises(RenderError, match=r"template 'pipe.j2' not found"):
        render(tmp_path, "{% include 'pipe.j2' %}", doc)


def test_ordinary_templates_still_work(tmp_path, doc):
    body = ("{% set ns = namespace(n=0) %}{% for i in range(1000) %}{% set ns.n = ns.n + i %}{% endfor %}"
            "{{ ns.n }} {{ 2**64 }} {{ '%5.1f' | format(3.14159) }} {{ '{:>4}'.format(7) }} {{ 'ab' * 3 }}"
            " {{ [1, 2] + [3] }} {{ 'x' ~ 1 ~ '<' }} {{ 'a b' | center(7) }}|{% for k in {'a': 1} %}{{ k }}"
            "{% if loop.last %}!{% endif %}{% endfor %}")
    assert render(tmp_path, body, doc) == "499500 18446744073709551616   3.1    7 ababab [1, 2, 3] x1&lt;   a b  |a!"


def _spent(renders) -> list:
    seen = []
    original = bounds.budget

    @contextlib.contextmanager
    def recorded(*args, **kwargs):
        with original(*args, **kwargs) as b:
            yield b
            seen.append(b)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bounds, "budget", recorded)
        outputs = [r() for r in renders]
    return list(zip(seen, outputs))


@pytest.mark.parametrize("system", ["d100", "kotm", "rtd"])
def test_the_built_in_sheets_stay_far_below_every_limit(system, request):
    module = request.getfixturevalue(system)
    renderer = HtmlRenderer(TemplateSet.load())
    docs = [make_character(module, seed, i) for seed, i in ((1, 0), (42, 7), (99, 3))]
    renders = [lambda d=d: renderer.sheet(figured(d, [module]), True) for d in docs]
    for spent, html in _spent(renders):
        assert spent.steps < bounds.MAX_STEPS / 10 and spent.built < bounds.MAX_BUILT / 10
        assert len(html) < bounds.MAX_OUTPUT / 10 and html.count("<") < bounds.MAX_TAGS / 10

