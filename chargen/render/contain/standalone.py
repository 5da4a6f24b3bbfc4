"""Standalone HTML references nothing outside itself: checked on the final HTML.

A standalone sheet or index page opens from disk anywhere and fetches
nothing: its stylesheet and fonts are ``data:`` URLs. A template from a
``--template-dir`` is user input, so the HTML chargen is about to write is
parsed and refused when it could make a browser fetch anything:

* elements that load or run things (``script``, ``link``, ``iframe``,
  ``object``, ``embed``, ``base``, ``meta http-equiv=refresh``, ...);
* resource attributes (``src``, ``srcset``, ``poster``, ``data``, ...) other
  than ``data:`` URLs; links (``href``) other than to ``#`` anchors or to a
  plain file name beside the page (the sheets of a bundle);
* CSS, in ``<style>`` elements and ``style`` attributes, read as a browser
  reads it (comments dropped, escapes decoded): any ``@import``, any
  ``url(...)`` that is not a ``data:`` URL, any string in ``image-set(...)``
  and its kin that is not one.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from chargen.errors import RenderError

FORBIDDEN_ELEMENTS = {"script", "link", "iframe", "frame", "frameset", "object", "embed", "applet", "base",
                      "portal", "audio", "video", "source", "track", "form"}
RESOURCE_ATTRIBUTES = {"src", "srcset", "poster", "data", "background", "action", "formaction", "lowsrc",
                       "dynsrc", "longdesc", "manifest", "icon", "ping", "xlink:href", "archive", "codebase",
                       "imagesrcset", "cite"}
_CSS_COMMENT = re.compile(r"/\*.*?(\*/|$)", re.S)
_CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})[ \t\n\r\f]?|\\(.)", re.S)
_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.S | re.I)
_IMAGE_SET = re.compile(r"(?:-webkit-)?(?:image-set|image|cross-fade|element)\((.*?)\)", re.S | re.I)
_STRING = re.compile(r"(['\"])(.*?)\1", re.S)
_PLAIN_FILE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def css_as_read(css: str) -> str:
    """CSS as a browser tokenizes it: comments dropped, escapes decoded."""
    def unescape(m: re.Match) -> str:
        if m.group(1):
            code = int(m.group(1), 16)
            return chr(code) if 0 < code <= 0x10FFFF else "\ufffd"
        return m.group(2)

    return _CSS_ESCAPE.sub(unescape, _CSS_COMMENT.sub("", css))


def css_problem(css: str) -> str | None:
    """What in ``css`` would make a browser fetch something, or None."""
    text = css_as_read(css)
    if "@import" in text.lower():
        return "@import"
    for m in _URL.finditer(text):
        if not m.group(2).strip().lower().startswith("data:"):
            return f"url({m.group(2).strip()[:80]})"
    for m in _IMAGE_SET.finditer(text):
        for s in _STRING.finditer(m.group(1)):
            if not s.group(2).strip().lower().startswith("data:"):
                return f"{m.group(0)[:80]}"
    return None


class _Check(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problem: str | None = None
        self.in_style = False

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self._element(tag, attrs)

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self._element(tag, attrs)

    def _element(self, tag: str, attrs: list) -> None:
        if self.problem:
            return
        if tag in FORBIDDEN_ELEMENTS:
            self.problem = f"a <{tag}> element"
            return
        self.in_style = tag == "style"
        for name, value in attrs:
            self._attribute(tag, name, value or "")

    def _attribute(self, tag: str, name: str, value: str) -> None:
        v = value.strip()
        if name == "http-equiv" and v.lower() == "refresh":
            self.problem = "a <meta http-equiv=refresh>"
        elif name in RESOURCE_ATTRIBUTES and v and not v.lower().startswith("data:"):
            self.problem = f'<{tag} {name}="{v[:80]}">'
        elif name == "href" and not (v.startswith("#") or _PLAIN_FILE.fullmatch(v)):
            self.problem = f'<{tag} href="{v[:80]}">'
        elif name == "style":
            found = css_problem(v)
            if found:
                self.problem = f"{found} in a style attribute"

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self.in_style = False

    def handle_data(self, data: str) -> None:
        if self.in_style and not self.problem:
            found = css_problem(data)
            if found:
                self.problem = f"{found} in a <style> element"


def check(html: str, label: str, what: str) -> None:
    """Raise :class:`RenderError` when ``html`` (standalone) would make a browser fetch anything."""
    parser = _Check()
    parser.feed(html)
    parser.close()
    if parser.problem:
        raise RenderError(f"{label}: {what}: standalone HTML may reference nothing outside itself "
                          f"(only data: URLs), but the template writes {parser.problem}")
