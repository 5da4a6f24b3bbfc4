"""Issue 26, finding 1: standalone HTML fetches nothing when a browser opens it, whatever the --template-dir.

Each hostile markup below made headless Chromium request a URL on today's main (the review's 16 and
variants). A listener on 127.0.0.1 (a random port the markup points at) records every request:

* as a control, with both guards off, Chromium fetches for every markup of ``FETCHES`` (so the
  listener and the browser really see what a guard must stop);
* with the Content-Security-Policy alone (the check switched off), the listener hears nothing;
* with the check, each markup is refused in one line, and a real ``chargen generate`` says so.

One browser launch a batch (each markup in its own tab). Chromium is Debian's (``tools/system_libraries.py``
installs it): where it is missing these tests skip, except under CI (``CI=true``), where they fail.
"""

from __future__ import annotations

import http.server
import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from tests import browser

from chargen.cli import cli
from chargen.errors import RenderError
from chargen.generate import make_character
from chargen.render.contain import standalone
from chargen.render.html import HtmlRenderer
from chargen.render.templates import TemplateSet
from chargen.run.figures import figured

# {H}: the listener's URL for this markup. Doubled braces are literal braces.
MARKUPS = {
    "onerror": '<img src="data:," onerror="new Image().src=\'{H}\'">',
    "onload-svg": '<svg onload="new Image().src=\'{H}\'"></svg>',
    "onload-body": '<body onload="new Image().src=\'{H}\'">',
    "style-end-attr": '<style>p {{}}</style x><img src="{H}"></style>',
    "style-end-slash": '<style>p {{}}</style/><img src="{H}"></style>',
    "comment-abrupt": '<!--><img src="{H}">-->',
    "comment-abrupt-dash": '<!---><img src="{H}">-->',
    "comment-bang": '<!-- x --!><img src="{H}"> -->',
    "cdata": '<![CDATA[><img src="{H}">]]>',
    "svg-style": '<svg><style><img src="{H}"></style></svg>',
    "math-style": '<math><style><img src="{H}"></style></math>',
    "math-mglyph-style": '<math><mtext><table><mglyph><style><img src="{H}"></style></mglyph></table></mtext></math>',
    "svg-set": '<svg><image width="10" height="10"><set attributeName="href" to="{H}"/></image></svg>',
    "svg-animate": '<svg><image width="10" height="10"><animate attributeName="href" values="{H}" dur="1s"/>'
                   '</image></svg>',
    "svg-fill": '<svg><rect width="10" height="10" fill="url({H}#p)"/></svg>',
    "svg-filter": '<svg><rect width="10" height="10" filter="url({H}#f)"/></svg>',
    "svg-mask": '<svg><rect width="10" height="10" mask="url({H}#m)"/></svg>',
    "svg-clip": '<svg width="10" height="10"><rect width="10" height="10" clip-path="url({H}#c)"/></svg>',
    "svg-marker": '<svg width="10" height="10"><path d="M0 0L5 5" marker-end="url({H}#m)"/></svg>',
    "svg-cursor": '<svg width="10" height="10"><rect width="10" height="10" cursor="url({H}),auto"/></svg>',
    "anchor-click": '<a id="go" href="x.html">x</a><img src="data:," '
                    'onerror="var a=document.getElementById(\'go\');a.href=\'{H}\';a.click()">',
    "noscript-title": '<noscript><p title="</noscript><img src=\'{H}\'>"></p></noscript>',
}
# What this Chromium does not fetch even unguarded (an external SVG filter, an <img> in MathML's
# <mglyph>): still refused by the check, but no control for the listener.
QUIET = {"svg-filter", "math-mglyph-style"}
FETCHES = set(MARKUPS) - QUIET


@pytest.fixture(scope="module")
def chromium():
    if browser.find() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("no chromium on PATH under CI: tools/system_libraries.py --install puts it there")
        pytest.skip("no chromium on PATH (python3 tools/system_libraries.py --install, as root)")
    with browser.shared():  # one launch for the module's browser tests
        yield


@pytest.fixture
def listener():
    """An HTTP server on 127.0.0.1 (random port); yields (base URL, the paths asked for)."""
    heard: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the standard library's name
            heard.append(self.path)
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", heard
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def doc(d100):
    return make_character(d100, 42, 7)


def hostile(folder: Path, markup: str) -> Path:
    """A --template-dir whose D100 sheet writes ``markup`` in its body."""
    folder.mkdir(parents=True)
    (folder / "d100.html.j2").write_text(
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>x</title>\n{{ stylesheet }}\n'
        '</head>\n<body>\n<p>{{ c.identity.name }}</p>\n{% raw %}' + markup + '{% endraw %}\n</body>\n</html>\n',
        "utf-8")
    return folder


def pages(tmp_path: Path, base: str, doc) -> list[Path]:
    """Each markup's standalone sheet, as chargen writes it (with whatever guards are on)."""
    written = []
    for name, markup in MARKUPS.items():
        folder = hostile(tmp_path / f"tpl-{name}", markup.format(H=f"{base}/{name}"))
        page = tmp_path / f"{name}.html"
        page.write_text(HtmlRenderer(TemplateSet.load(folder)).sheet(figured(doc), standalone=True), "utf-8")
        written.append(page)
    return written


def heard_from(heard: list[str]) -> set[str]:
    return {path.strip("/").split("#")[0].split("?")[0] for path in heard} - {"favicon.ico"}


def test_control_unguarded_each_markup_makes_chromium_fetch(chromium, listener, tmp_path, doc, monkeypatch):
    base, heard = listener
    monkeypatch.setattr(standalone, "check", lambda *args: None)
    monkeypatch.setattr(standalone, "with_policy", lambda html: html)
    browser.open_pages(pages(tmp_path, base, doc), settle=20, until=lambda: heard_from(heard) >= FETCHES)  # a loaded machine
    assert heard_from(heard) == FETCHES


def test_the_content_security_policy_alone_stops_every_fetch(chromium, listener, tmp_path, doc, monkeypatch):
    base, heard = listener
    monkeypatch.setattr(standalone, "check", lambda *args: None)  # the browser's guard only
    written = pages(tmp_path, base, doc)
    assert all(standalone.POLICY_META in p.read_text() for p in written)
    browser.open_pages(written, settle=2)
    assert heard == []


@pytest.mark.parametrize("name", MARKUPS)
def test_the_check_refuses_each_markup(tmp_path, doc, name):
    folder = hostile(tmp_path / "tpl", MARKUPS[name].format(H=f"http://127.0.0.1:9/{name}"))
    with pytest.raises(RenderError) as e:
        HtmlRenderer(TemplateSet.load(folder)).sheet(figured(doc), standalone=True)
    assert str(e.value).startswith(f"{folder.resolve()}: sheet of 'Ulf Hayward': standalone HTML may reference "
                                   f"nothing outside itself (only data: URLs), but the template writes ")
    assert "\n" not in str(e.value)


def test_generate_with_a_hostile_template_dir_is_one_error_line_and_writes_no_sheet(tmp_path):
    folder = hostile(tmp_path / "tpl", MARKUPS["comment-bang"].format(H="http://127.0.0.1:9/x"))
    result = CliRunner().invoke(cli, ["generate", "--system", "d100", "--seed", "42", "--count", "1", "--format",
                                      "html", "--template-dir", str(folder), "-o", str(tmp_path / "out"),
                                      "--jobs", "1"])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines[-1].startswith("Error: ") and "but the template writes <img src=\"http://127.0.0.1:9/x\">" in lines[-1]
    assert not list((tmp_path / "out").glob("*.html"))


@pytest.mark.parametrize("markup, found", [
    ('<meta http-equiv="Refresh" content="0;url=http://127.0.0.1:9/">', "a <meta http-equiv=refresh>"),
    ('<template shadowrootmode="open"><img src="http://127.0.0.1:9/"></template>', "a <template> element"),
    ('<iframe srcdoc="&lt;img src=http://127.0.0.1:9/&gt;"></iframe>', "a <iframe> element"),
    ('<svg><use href="http://127.0.0.1:9/x.svg#a"/></svg>', '<use href="http://127.0.0.1:9/x.svg#a">'),
    ('<svg><a href="http://127.0.0.1:9/">x</a></svg>', "a <a> element"),
    ('<img src="data:," srcset="http://127.0.0.1:9/ 1x">', '<img srcset="http://127.0.0.1:9/ 1x">'),
    ('<a href="x.html" ping="http://127.0.0.1:9/">x</a>', '<a ping="http://127.0.0.1:9/">'),
    ('<p style="background: url(http://127.0.0.1:9/)">x</p>', "url(http://127.0.0.1:9/) in a style attribute"),
    ('<xmp><img src="http://127.0.0.1:9/"></xmp>', "a <xmp> element"),
])
def test_other_ways_to_fetch_or_navigate_are_refused(tmp_path, doc, markup, found):
    folder = hostile(tmp_path / "tpl", markup)
    with pytest.raises(RenderError) as e:
        HtmlRenderer(TemplateSet.load(folder)).sheet(figured(doc), standalone=True)
    assert str(e.value).endswith(f"but the template writes {found}")


@pytest.mark.parametrize("head, found", [
    ("<!-- <head> --><head>", "no <head> that starts with chargen's Content-Security-Policy"),
    ("x<head>", "no <head> that starts with chargen's Content-Security-Policy"),
])
def test_the_policy_must_be_the_first_thing_the_browser_reads_in_head(tmp_path, doc, head, found):
    """Where chargen's insertion lands elsewhere than first in the parsed <head>, the page is refused."""
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "d100.html.j2").write_text(f"<!DOCTYPE html><html>{head}<title>x</title></head><body>"
                                         "{{ c.identity.name }}</body></html>")
    with pytest.raises(RenderError, match=found):
        HtmlRenderer(TemplateSet.load(folder)).sheet(figured(doc), standalone=True)


@pytest.mark.parametrize("where", ['<p title="{{ stylesheet }}">x</p>', "<!-- {{ stylesheet }} -->",
                                   "<svg>{{ stylesheet }}</svg>", "<textarea>{{ stylesheet }}</textarea>"])
def test_the_stylesheet_must_sit_in_a_style_element(tmp_path, doc, where):
    """The stylesheet is checked once, as CSS: put anywhere else its text could be read as markup."""
    folder = tmp_path / "tpl"
    shutil.copytree(hostile(tmp_path / "base", ""), folder)
    path = folder / "d100.html.j2"
    path.write_text(path.read_text().replace("{{ stylesheet }}", "").replace("<p>", where + "<p>", 1))
    with pytest.raises(RenderError, match=r"but the template writes (the stylesheet|a <(style|textarea)> element)"):
        HtmlRenderer(TemplateSet.load(folder)).sheet(figured(doc), standalone=True)


@pytest.mark.parametrize("page", ["<!DOCTYPE html><title>x</title><p>{{ c.identity.name }}",
                                  "<p>{{ c.identity.name }}</p>"])
def test_a_page_without_head_gets_the_policy_first_in_the_head_a_browser_makes(tmp_path, doc, page):
    folder = tmp_path / "tpl"
    folder.mkdir()
    (folder / "d100.html.j2").write_text(page)
    html = HtmlRenderer(TemplateSet.load(folder)).sheet(figured(doc), standalone=True)
    assert standalone.POLICY_META in html and standalone.problem(html) is None


def test_a_plain_hostile_free_template_dir_still_renders(tmp_path, doc):
    folder = hostile(tmp_path / "tpl", '<svg width="4" height="4"><rect width="4" height="4" fill="#123"/></svg>'
                                       '<a href="#top">top</a> <a href="0001-x.pdf">next</a>')
    html = HtmlRenderer(TemplateSet.load(folder)).sheet(figured(doc), standalone=True)
    assert html.startswith(f'<!DOCTYPE html>\n<html lang="en">\n<head>{standalone.POLICY_META}\n')


def test_the_policy_changes_nothing_a_reader_sees(chromium, tmp_path, doc):
    """The built-in sheet prints the same pixels in Chromium with and without its policy: its fonts and
    styles are all inline or data: URLs, which the policy allows."""
    if shutil.which("pdftoppm") is None:
        pytest.fail("no pdftoppm (poppler-utils: tools/system_libraries.py --install)")
    html = HtmlRenderer(TemplateSet.load()).sheet(figured(doc), standalone=True)
    pixels = []
    for name, page in (("with", html), ("without", html.replace(standalone.POLICY_META, "", 1))):
        path = tmp_path / f"{name}.html"
        path.write_text(page, "utf-8")
        printed = browser.print_page(path)
        assert printed.console == []
        (tmp_path / f"{name}.pdf").write_bytes(printed.pdf)
        subprocess.run(["pdftoppm", "-r", "50", "-png", str(tmp_path / f"{name}.pdf"), str(tmp_path / name)], check=True)
        pixels.append([p.read_bytes() for p in sorted(tmp_path.glob(f"{name}-*.png"))])
    assert standalone.POLICY_META in html and pixels[0] and pixels[0] == pixels[1]
