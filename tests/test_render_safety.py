"""The safety rules: files only from the templates folder or data: URLs, strict templates, clear errors."""

import shutil
from pathlib import Path

import pytest

from chargen.errors import RenderError
from chargen.generate import make_character
from chargen.edits import reproduce
from chargen.render.html import Figured, HtmlRenderer
from chargen.run.figures import figured
from chargen.render.templates import TemplateSet, builtin_dir


@pytest.fixture
def tdir(tmp_path) -> Path:
    """A copy of the built-in templates to break."""
    folder = tmp_path / "tpl"
    shutil.copytree(builtin_dir(), folder, ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
    return folder


@pytest.fixture
def doc(d100):
    return make_character(d100, 42, 7)


def edit(folder: Path, name: str, old: str, new: str) -> None:
    path = folder / name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def pdf(folder: Path | None, doc: dict) -> bytes:
    from chargen.render.pdf import PdfMaker

    templates = TemplateSet.load(folder)
    return PdfMaker(templates).render(HtmlRenderer(templates).sheet(figured(doc), False)).pdf


def test_the_copied_templates_render(tdir, doc):
    assert pdf(tdir, doc).startswith(b"%PDF-")


def test_a_remote_url_in_a_template_is_refused(tdir, doc):
    edit(tdir, "d100.html.j2", '<h2>Notes</h2>', '<h2>Notes</h2><img src="https://example.com/crest.png">')
    with pytest.raises(RenderError) as e:
        pdf(tdir, doc)
    assert str(e.value) == (f"{tdir.resolve()}: refusing to fetch 'https://example.com/crest.png' "
                            "(a sheet may use only files in the templates folder and data: URLs)")


@pytest.mark.parametrize("src", ["../../../../../../etc/hostname", "file:///etc/hostname"])
def test_a_file_outside_the_templates_folder_is_refused(tdir, doc, src):
    edit(tdir, "d100.html.j2", '<h2>Notes</h2>', f'<h2>Notes</h2><img src="{src}">')
    with pytest.raises(RenderError, match=r"refusing to read 'file:///etc/hostname': it is outside the "
                                          r"templates folder"):
        pdf(tdir, doc)


def test_a_symlink_leading_out_of_the_folder_is_refused(tdir, doc, tmp_path):
    outside = tmp_path / "secret.svg"
    outside.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')
    (tdir / "crest.svg").symlink_to(outside)
    edit(tdir, "d100.html.j2", '<h2>Notes</h2>', '<h2>Notes</h2><img src="crest.svg">')
    with pytest.raises(RenderError, match=r"refusing to read 'file://.*/crest.svg': it is outside"):
        pdf(tdir, doc)


def test_a_missing_image_is_an_error(tdir, doc):
    edit(tdir, "d100.html.j2", '<h2>Notes</h2>', '<h2>Notes</h2><img src="crest.png">')
    with pytest.raises(RenderError, match=r": 'crest.png' does not exist$"):
        pdf(tdir, doc)


def test_an_image_in_the_folder_is_allowed(tdir, doc):
    (tdir / "crest.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>')
    edit(tdir, "d100.html.j2", '<h2>Notes</h2>', '<h2>Notes</h2><img src="crest.svg" alt="">')
    assert pdf(tdir, doc).startswith(b"%PDF-")


def test_a_missing_font_is_an_error(tdir, doc):
    edit(tdir, "sheet.css", "src: url(fonts/Karla-Bold.otf)", "src: url(fonts/Nowhere-Bold.otf)")
    with pytest.raises(RenderError, match=r": 'fonts/Nowhere-Bold.otf' does not exist$"):
        pdf(tdir, doc)
    with pytest.raises(RenderError, match=r": 'fonts/Nowhere-Bold.otf' does not exist$"):
        HtmlRenderer(TemplateSet.load(tdir)).sheet(figured(doc), standalone=True)


def test_a_file_the_template_dir_lacks_comes_from_the_built_in_folder(tdir, doc):
    """--template-dir overrides single files: without its own sheet.css and fonts, the built-in ones are used."""
    (tdir / "sheet.css").unlink()
    shutil.rmtree(tdir / "fonts")
    assert pdf(tdir, doc) == pdf(None, doc)
    assert HtmlRenderer(TemplateSet.load(tdir)).sheet(figured(doc)) == HtmlRenderer(TemplateSet.load()).sheet(figured(doc))


def test_one_overridden_template_changes_only_its_sheet(tmp_path, doc):
    folder = tmp_path / "mine"
    folder.mkdir()
    text = (builtin_dir() / "d100.html.j2").read_text().replace("<h2>Notes</h2>", "<h2>Our notes</h2>", 1)
    (folder / "d100.html.j2").write_text(text)
    html = HtmlRenderer(TemplateSet.load(folder)).sheet(figured(doc))
    assert "<h2>Our notes</h2>" in html
    assert html.replace("<h2>Our notes</h2>", "<h2>Notes</h2>") == HtmlRenderer(TemplateSet.load()).sheet(figured(doc))
    assert pdf(folder, doc).startswith(b"%PDF-")


def test_a_remote_url_in_the_stylesheet_is_refused(tdir, doc):
    edit(tdir, "sheet.css", "src: url(fonts/Karla-Bold.otf)", "src: url(https://fonts.example.com/k.otf)")
    with pytest.raises(RenderError, match=r"refusing to fetch 'https://fonts.example.com/k.otf'"):
        pdf(tdir, doc)
    with pytest.raises(RenderError, match=r"stylesheet url\(https://fonts.example.com/k.otf\) is not a file "
                                          r"in the templates folder"):
        HtmlRenderer(TemplateSet.load(tdir)).sheet(figured(doc), standalone=True)


def test_an_ignored_css_rule_is_an_error_not_a_log_line(tdir, doc):
    edit(tdir, "sheet.css", "body {", "body { colour: red;")
    with pytest.raises(RenderError, match=r"sheet.css: Ignored `colour: red` at \d+:\d+, unknown property."):
        pdf(tdir, doc)


def test_an_undefined_variable_names_the_template_and_line(tdir, doc):
    edit(tdir, "d100.html.j2", "<h2>Notes</h2>", "<h2>Notes {{ c.nickname }}</h2>")
    line = next(i for i, t in enumerate((tdir / "d100.html.j2").read_text().splitlines(), 1) if "nickname" in t)
    with pytest.raises(RenderError) as e:
        HtmlRenderer(TemplateSet.load(tdir)).sheet(figured(doc))
    assert str(e.value) == f"{tdir.resolve()}: d100.html.j2:{line}: 'dict object' has no attribute 'nickname'"


def test_templates_run_sandboxed(tdir, doc):
    edit(tdir, "d100.html.j2", "<h2>Notes</h2>", "<h2>{{ ''.__class__.__mro__ }}</h2>")
    with pytest.raises(RenderError, match=r"access to attribute '__class__' of 'str' object is unsafe"):
        HtmlRenderer(TemplateSet.load(tdir)).sheet(figured(doc))


def test_a_template_dir_with_nothing_to_use_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("not a template")
    with pytest.raises(RenderError, match=r"has no template \(\*.j2\), stylesheet \(\*.css\) or font to use"):
        TemplateSet.load(tmp_path)


def test_an_engine_without_a_sheet_template_is_an_error(tdir, doc):
    from chargen import engines

    kotm = engines.require("kotm")
    engines.register(engines.Engine(id="nosheet", label="No sheet", build_rules=kotm.build_rules,
                                    generate=kotm.generate, names=kotm.names, schema=kotm.schema,
                                    layouts={"sheet": engines.Layout("sheet", "nosheet.html.j2", kotm.layouts["sheet"].figures)}))
    doc["system"]["engine"] = "nosheet"
    try:
        with pytest.raises(RenderError, match=r": no sheet template for engine 'nosheet' \(expected nosheet.html.j2\)$"):
            HtmlRenderer(TemplateSet.load(tdir)).sheet(Figured(doc, {}, reproduce(doc)))  # the renderer's look-up
    finally:
        engines.unregister("nosheet")


@pytest.mark.parametrize("relative", ["../base.html.j2", "/etc/hostname", "data:text/plain,x", ""])
def test_asset_paths_stay_inside_the_folder(relative):
    with pytest.raises(RenderError):
        TemplateSet.load().path_of(relative)


@pytest.mark.parametrize("markup, found", [
    ('<img src="http://example.com/x.png">', '<img src="http://example.com/x.png">'),
    ('<script src="x.js"></script>', "a <script> element"),
    ("<script>fetch('//x')</script>", "a <script> element"),
    ('<link rel="stylesheet" href="x.css">', "a <link> element"),
    ('<a href="https://example.com/">x</a>', '<a href="https://example.com/">'),
    ('<a href="../elsewhere.html">x</a>', '<a href="../elsewhere.html">'),
    ('<meta http-equiv="refresh" content="0;url=http://x">', "a <meta http-equiv=refresh>"),
    ('<div style="background: u\\72 l(http://x/y.png)">', "url(http://x/y.png) in a style attribute"),
    ('<style>@import "http://x/y.css";</style>', "@import in a <style> element"),
    ('<style>p { background: image-set("http://x/y.png" 1x) }</style>',
     'image-set("http://x/y.png" 1x) in a <style> element'),
    ('<style>q { background: URL( "//x/z" ) }</style>', "url(//x/z) in a <style> element"),
    ('<style>p { background: ur/**/l(x) }</style>', "url(x) in a <style> element"),  # refused, to be safe
])
def test_standalone_html_references_nothing_outside_itself(tdir, doc, markup, found):
    edit(tdir, "d100.html.j2", "<h2>Notes</h2>", f"<h2>Notes</h2>{markup}")
    renderer = HtmlRenderer(TemplateSet.load(tdir))
    with pytest.raises(RenderError) as e:
        renderer.sheet(figured(doc), standalone=True)
    assert str(e.value).startswith(f"{tdir.resolve()}: sheet of 'Ulf Hayward': standalone HTML may reference nothing")
    assert str(e.value).endswith(f"but the template writes {found}")


def test_standalone_html_may_link_its_bundle_and_use_data_urls(tdir, doc):
    edit(tdir, "d100.html.j2", "<h2>Notes</h2>",
         '<h2>Notes</h2><a href="#top">top</a> <a href="0001-x.pdf">next</a> <img src="data:image/png;base64,AA==" alt="">')
    assert "0001-x.pdf" in HtmlRenderer(TemplateSet.load(tdir)).sheet(figured(doc), standalone=True)


def test_a_remote_reference_in_browser_css_is_refused(tdir, doc):
    (tdir / "browser.css").write_text('@import "https://example.com/x.css";')
    with pytest.raises(RenderError, match=r"the stylesheet of standalone HTML may reference nothing outside itself"):
        HtmlRenderer(TemplateSet.load(tdir)).sheet(figured(doc), standalone=True)


def test_a_file_url_with_a_host_is_refused_without_a_lookup(tdir, doc, monkeypatch):
    import socket

    def no_lookup(*args, **kwargs):
        raise AssertionError(f"a DNS look-up was attempted: {args[:1]}")

    monkeypatch.setattr(socket, "getaddrinfo", no_lookup)
    monkeypatch.setattr(socket, "gethostbyname", no_lookup)
    (tdir / "crest.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>')
    inside = (tdir / "crest.svg").resolve()  # a file the sheet may use, named with a host the name leaks into
    edit(tdir, "d100.html.j2", "<h2>Notes</h2>",
         f'<h2>Notes</h2><img src="file://{{{{ c.identity.name | replace(\' \', \'\') }}}}.example{inside}">')
    with pytest.raises(RenderError, match=r"refusing to fetch 'file://UlfHayward.example/"):
        pdf(tdir, doc)


def test_a_local_listener_receives_nothing_from_a_hostile_template(tdir, doc):
    """A template pointing at a server on this machine: refused for PDF and for standalone HTML,
    and the server never sees a connection."""
    import socket

    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    server.setblocking(False)
    port = server.getsockname()[1]
    try:
        edit(tdir, "d100.html.j2", "<h2>Notes</h2>", f'<h2>Notes</h2><img src="http://127.0.0.1:{port}/crest.png">')
        with pytest.raises(RenderError, match="refusing to fetch"):
            pdf(tdir, doc)
        with pytest.raises(RenderError, match="standalone HTML may reference nothing outside itself"):
            HtmlRenderer(TemplateSet.load(tdir)).sheet(figured(doc), standalone=True)
        with pytest.raises(BlockingIOError):
            server.accept()  # nobody connected
    finally:
        server.close()
