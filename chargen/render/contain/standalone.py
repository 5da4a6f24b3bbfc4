"""Standalone HTML references nothing outside itself: checked on the final HTML, enforced by the browser.

A standalone sheet or index page opens from disk anywhere and fetches
nothing: its stylesheet and fonts are ``data:`` URLs. A template from a
``--template-dir`` is user input, so the HTML chargen is about to write gets
two guards, each enough on its own:

* a Content-Security-Policy (:data:`POLICY`) in a ``<meta http-equiv>``, the
  first element of ``<head>`` (:func:`with_policy`): the browser itself then
  loads only ``data:`` images and fonts and inline styles, and runs no script
  or event handler;
* :func:`check`: the HTML parsed as a browser parses it (tinyhtml5, a WHATWG
  parser, with scripting on, as in a browser), and refused unless every
  element is on an allow-list (:data:`HTML_ELEMENTS`, :data:`SVG_ELEMENTS`;
  nothing that loads, runs, animates or hides markup from a parser: no
  ``script``, ``link``, ``iframe``, ``noscript``, ``template``, ``math``,
  ``animate``, ``set``, ...), every attribute on one (no ``on*`` handler),
  every resource URL a ``data:`` URL, every link a ``#`` anchor or a plain file
  name beside the page (the sheets of a bundle), and the policy is where it
  must be. CSS in ``<style>`` elements, ``style`` attributes and SVG
  presentation attributes is read as a browser reads it (comments dropped,
  escapes decoded): no ``@import``, no ``url(...)`` that is not a ``data:`` URL,
  no string in ``image-set(...)`` and its kin that is not one.
"""

from __future__ import annotations

import re

import tinyhtml5

from chargen.errors import RenderError

POLICY = ("default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline'; "
          "base-uri 'none'; form-action 'none'")
POLICY_META = f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">'

_XHTML, _SVG, _XLINK = "http://www.w3.org/1999/xhtml", "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"
HTML_ELEMENTS = frozenset("""html head body meta title style main section article header footer nav aside div span p
    a b i u s em strong small sub sup mark abbr cite code kbd samp var q blockquote pre br hr wbr h1 h2 h3 h4 h5 h6
    table thead tbody tfoot tr td th caption colgroup col ul ol li dl dt dd figure figcaption img time data del ins
    details summary address""".split())
SVG_ELEMENTS = frozenset("""svg g defs symbol use title desc path rect circle ellipse line polyline polygon text
    tspan image linearGradient radialGradient stop clipPath marker pattern""".split())
# Attributes any element may have (besides aria-* and data-*), then each element's own.
GLOBAL_ATTRIBUTES = frozenset("id class style title lang dir hidden role translate".split())
HTML_ATTRIBUTES = {"html": {"xmlns"}, "meta": {"charset", "name", "content", "http-equiv"}, "a": {"href", "target"},
                   "img": {"src", "alt", "width", "height", "decoding", "loading"},
                   "td": {"colspan", "rowspan", "headers"}, "th": {"colspan", "rowspan", "headers", "scope", "abbr"},
                   "col": {"span"}, "colgroup": {"span"}, "ol": {"start", "reversed", "type"}, "li": {"value"},
                   "time": {"datetime"}, "data": {"value"}, "details": {"open"}}
SVG_ATTRIBUTES = frozenset("""xmlns xmlns:xlink viewBox preserveAspectRatio width height x y x1 y1 x2 y2 cx cy r rx ry
    d points transform fill fill-opacity fill-rule stroke stroke-width stroke-opacity stroke-linecap
    stroke-linejoin stroke-dasharray stroke-dashoffset stroke-miterlimit opacity color display visibility
    font-family font-size font-weight font-style text-anchor dominant-baseline alignment-baseline
    letter-spacing dx dy rotate textLength lengthAdjust offset stop-color stop-opacity gradientUnits
    gradientTransform spreadVector fx fy clip-path clip-rule clipPathUnits marker-start marker-mid marker-end
    markerWidth markerHeight markerUnits refX refY orient patternUnits patternContentUnits patternTransform
    href focusable vector-effect shape-rendering paint-order""".split())
HTTP_EQUIV = {"content-type", "content-security-policy"}  # never refresh, set-cookie, default-style
URL_SCHEMES = ("data:",)  # the only scheme a standalone page may load from
_CSS_COMMENT = re.compile(r"/\*.*?(\*/|$)", re.S)
_CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})[ \t\n\r\f]?|\\(.)", re.S)
_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.S | re.I)
_IMAGE_SET = re.compile(r"(?:-webkit-)?(?:image-set|image|cross-fade|element)\((.*?)\)", re.S | re.I)
_URL_OPEN = re.compile(r"url\(\s*", re.I)
_URL_END = {quote: re.compile(quote + r"\s*\)") for quote in "'\""}
_IMAGE_NAME = re.compile(r"(?:-webkit-)?(?:image-set|image|cross-fade|element)\(", re.I)
_STRING = re.compile(r"(['\"])(.*?)\1", re.S)
_PLAIN_FILE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_HEAD = re.compile(r"<head(?=[\s/>])[^>]*>", re.I)
_DOCTYPE = re.compile(r"\s*<!doctype[^>]*>", re.I)
STYLESHEET_MARK = "<style>\n/* chargen: the stylesheet */</style>"  # where the (checked) stylesheet sits


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
    for url in urls(text):
        if not url.strip().lower().startswith(URL_SCHEMES):
            return f"url({url.strip()[:80]})"
    for whole, body in image_functions(text):
        for s in _STRING.finditer(body):
            if not s.group(2).strip().lower().startswith(URL_SCHEMES):
                return f"{whole[:80]}"
    return None


def urls(text: str) -> list[str]:
    """What each ``url(...)`` in ``text`` holds, as ``_URL.finditer`` finds them (up to white space at its
    end), in linear time: the pattern looked to the end of the text for a closing quote or ``)`` from
    each ``url(`` (a megabyte of ``url(   ``: hours). A quote that closes nowhere closes nowhere later."""
    out, at, unclosed = [], 0, set()
    while (m := _URL_OPEN.search(text, at)) is not None:
        start = m.end()
        quote = text[start:start + 1]
        if quote in _URL_END and quote not in unclosed:
            end = _URL_END[quote].search(text, start + 1)
            if end is not None:
                out.append(text[start + 1:end.start()])
                at = end.end()
                continue
            unclosed.add(quote)
        close = text.find(")", start)
        if close < 0:
            break  # no url(...) closes after this one
        out.append(text[start:close])
        at = close + 1
    return out


def image_functions(text: str) -> list[tuple[str, str]]:
    """``(whole, body)`` of each ``image-set(...)`` (``image``, ``cross-fade``, ``element``) in ``text``, as
    ``_IMAGE_SET.finditer`` finds them, in linear time: from each name with no ``)`` after it the
    pattern looked to the end (a megabyte of ``image(``: hours); none comes after the last ``)``."""
    out, at = [], 0
    while (m := _IMAGE_NAME.search(text, at)) is not None:
        close = text.find(")", m.end())
        if close < 0:
            break
        out.append((text[m.start():close + 1], text[m.end():close]))
        at = close + 1
    return out


def with_policy(html: str) -> str:
    """``html`` with :data:`POLICY_META` right after its ``<head>`` tag, or where a page has none, after
    its doctype (a browser then puts the meta first in the head it makes up). :func:`check` verifies
    that it is the head's first element as a browser parses the page."""
    at = _HEAD.search(html, 0, html.rfind(">") + 1) or _DOCTYPE.match(html)  # no tag ends after the last '>'
    # (searched to the end from each '<head' with no '>' after it: 8 MB of '<head ', an hour)
    end = at.end() if at else 0
    return html[:end] + POLICY_META + html[end:]


def _split(name: str) -> tuple[str, str]:
    """A tag or attribute name as (namespace, local name)."""
    if name.startswith("{"):
        ns, local = name[1:].split("}", 1)
        return ns, local
    return "", name


def _policy_problem(root) -> str | None:
    head = root.find(f"{{{_XHTML}}}head")
    first = next((e for e in head if isinstance(e.tag, str)), None) if head is not None else None
    if first is None or first.tag != f"{{{_XHTML}}}meta" or first.get("content") != POLICY \
            or (first.get("http-equiv") or "").lower() != "content-security-policy":
        return "no <head> that starts with chargen's Content-Security-Policy <meta> (something comes before it)"
    return None


def _element_problem(element, stylesheets: list) -> str | None:
    ns, tag = _split(element.tag)
    if not ((ns == _XHTML and tag in HTML_ELEMENTS) or (ns == _SVG and tag in SVG_ELEMENTS)):
        return f"a <{tag}> element" + ("" if ns in (_XHTML, _SVG) else " (MathML)")
    if ns == _XHTML and tag == "style":
        if element.text == STYLESHEET_MARK[7:-8]:
            stylesheets.append(element)
        found = css_problem(element.text or "")
        if found:
            return f"{found} in a <style> element"
    for name, value in element.attrib.items():
        found = _attribute_problem(ns, tag, name, value or "")
        if found:
            return found
    return None


def _attribute_problem(ns: str, tag: str, name: str, value: str) -> str | None:
    attr_ns, local = _split(name)
    if attr_ns == _XLINK and local == "href":
        local = "href"
    elif attr_ns:
        return f'<{tag} {local}="{value[:80]}">'
    low, v = local.lower(), value.strip()
    if low.startswith("on"):
        return f"an event handler <{tag} {local}=...>"
    if ns == _XHTML and not (low in GLOBAL_ATTRIBUTES or low.startswith(("aria-", "data-"))
                             or low in HTML_ATTRIBUTES.get(tag, ())):
        return f'<{tag} {local}="{v[:80]}">'
    if ns == _SVG and not (local in SVG_ATTRIBUTES or low in GLOBAL_ATTRIBUTES):
        return f'<{tag} {local}="{v[:80]}">'
    if low == "http-equiv":
        return None if v.lower() in HTTP_EQUIV else f"a <meta http-equiv={v.lower()[:40]}>"
    if low == "src" and not v.lower().startswith(URL_SCHEMES):
        return f'<{tag} {local}="{v[:80]}">'
    if low == "href" and not _link_ok(ns, tag, v):
        return f'<{tag} href="{v[:80]}">'
    if low == "style" or ns == _SVG:
        found = css_problem(value)
        if found:
            return f"{found} in a style attribute" if low == "style" else f"{found} in <{tag} {local}>"
    return None


def _link_ok(ns: str, tag: str, url: str) -> bool:
    if url.startswith("#"):
        return True
    if ns == _XHTML and tag == "a":
        return bool(_PLAIN_FILE.fullmatch(url))
    return ns == _SVG and tag == "image" and url.lower().startswith(URL_SCHEMES)


def problem(html: str) -> str | None:
    """What in ``html`` (standalone, its stylesheet at :data:`STYLESHEET_MARK` if it has one) would
    make a browser fetch anything, or None."""
    root = tinyhtml5.parse(html, scripting=True)
    found = _policy_problem(root)
    if found:
        return found
    stylesheets: list = []
    for element in root.iter():
        if isinstance(element.tag, str):  # not a comment
            found = _element_problem(element, stylesheets)
            if found:
                return found
    if len(stylesheets) != html.count(STYLESHEET_MARK):
        return "the stylesheet ({{ stylesheet }}) somewhere else than in the page as a <style> element"
    return None


def check(html: str, label: str, what: str) -> None:
    """Raise :class:`RenderError` when ``html`` (standalone) would make a browser fetch anything."""
    found = problem(html)
    if found:
        raise RenderError(f"{label}: {what}: standalone HTML may reference nothing outside itself "
                          f"(only data: URLs), but the template writes {found}")
