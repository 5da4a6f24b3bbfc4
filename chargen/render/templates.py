"""Where sheet templates live, and reading files from under that folder only.

A templates folder holds ``base.html.j2`` (the shared layout), each layout's
template (``<engine>.html.j2`` for the full sheet; see the engines' ``layouts``),
``cover.html.j2`` (the party PDF's cover), ``index.html.j2`` (a bundle's index
page), ``sheet.css`` and its ``fonts/``. The built-in folder is the
repository's top-level ``templates/``, installed as the package
``chargen._templates``. A ``--template-dir`` overrides single files: each
template, stylesheet or font is taken from it when it has one, else from the
built-in folder (then from the folders of engines registered from outside the
package). Every file a sheet uses is read through :meth:`TemplateSet.path_of`,
which refuses anything outside the folders (``..``, absolute paths, symlinks leading out).
"""

from __future__ import annotations

import base64
import mimetypes
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from chargen.engines import layout_folders
from chargen.errors import RenderError

STYLESHEET = "sheet.css"
LAYOUTS_STYLESHEET = "layouts.css"  # the block and card layouts, read after sheet.css (when the folders have it)
BROWSER_STYLESHEET = "browser.css"  # standalone HTML only, after sheet.css
BASE = "base.html.j2"
COVER = "cover.html.j2"
INDEX = "index.html.j2"
COLLECTION = "collection.html.j2"  # blocks or cards on pages: the layouts whose template is a fragment
GLANCE = "glance.html.j2"  # party.pdf's page of the party at a glance (--compare)
# CSS url(...) references, quoted or not; data: URLs are left alone.
# no '(' in a URL: each try stops at the next one, so a megabyte of unclosed "url(" is read in one pass
# (the class without it read to the text's end from each: quadratic). A URL holding '(' is not inlined and
# the standalone check then refuses it: it fails closed.
_CSS_URL = re.compile(r"""url\(\s*(?P<q>['"]?)(?P<url>[^'"()]*)(?P=q)\s*\)""")
_OVERRIDES = {".j2", ".css", ".otf", ".ttf", ".woff", ".woff2", ".svg", ".png", ".jpg"}
# The most bytes chargen reads of one stylesheet, and of one font or image (the built-in stylesheet is
# 19 KB, the largest font 82 KB; a CJK font is about 20 MB): sized before reading, then read no further.
MAX_STYLESHEET_BYTES = 1_000_000
MAX_ASSET_BYTES = 32 * 2**20
_TYPES = {".otf": "font/otf", ".ttf": "font/ttf", ".woff": "font/woff", ".woff2": "font/woff2",
          ".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".css": "text/css"}


def builtin_dir() -> Path:
    """The built-in templates folder: the installed package, else the repository's templates/."""
    try:
        root = Path(str(resources.files("chargen._templates")))
        if (root / BASE).is_file():
            return root
    except (ModuleNotFoundError, TypeError):
        pass
    return Path(__file__).resolve().parents[2] / "templates"  # a source checkout


@dataclass(frozen=True)
class TemplateSet:
    """The folders templates and assets are read from, first match wins: a ``--template-dir``
    (if given), the built-in templates, then the folders of engines registered from outside
    the package. Each is resolved (symlinks followed) so containment checks are exact."""

    roots: tuple[Path, ...]
    builtin: bool

    @classmethod
    def load(cls, folder: Path | None = None) -> TemplateSet:
        shipped = (builtin_dir().resolve(),) + tuple(f.resolve() for f in layout_folders())
        if folder is None:
            return cls(shipped, True)
        root = Path(folder).resolve()
        if not root.is_dir():
            raise RenderError(f"--template-dir '{folder}' is not a folder")
        if not any(p.is_file() and p.suffix in _OVERRIDES for p in root.rglob("*")):
            raise RenderError(f"--template-dir '{folder}' has no template (*.j2), stylesheet (*.css) or font to "
                              f"use; put there the files you change, copied from {builtin_dir()}")
        return cls((root,) + shipped, False)

    @property
    def root(self) -> Path:
        """The first folder: relative URLs in sheets and stylesheets are resolved from it."""
        return self.roots[0]

    def sheet_template(self, layout) -> str:
        """The template of a :class:`chargen.engines.Layout`, found in any of the folders."""
        if not any((r / layout.template).is_file() for r in self.roots):
            raise RenderError(f"{self.label}: no {layout.id} template for engine '{layout.engine}' "
                              f"(expected {layout.template})")
        return layout.template

    @property
    def label(self) -> str:
        return "built-in templates" if self.builtin else str(self.root)

    def path_of(self, relative: str) -> Path:
        """The file ``relative`` under the first folder that has it; an error if it is outside or missing."""
        if not relative or "\x00" in relative or relative.startswith(("/", "\\")) or ":" in relative:
            raise RenderError(f"{self.label}: '{relative}' is not a relative path inside the templates folder")
        for root in self.roots:
            path = (root / relative).resolve()
            if not path.is_relative_to(root):
                raise RenderError(f"{self.label}: '{relative}' is outside the templates folder")
            if path.is_file():
                return path
        raise RenderError(f"{self.label}: '{relative}' does not exist")

    def relative_of(self, path: Path) -> str | None:
        """``path`` relative to the folder it lies in (the first that contains it), or None."""
        resolved = Path(path).resolve()
        for root in self.roots:
            if resolved.is_relative_to(root):
                return resolved.relative_to(root).as_posix()
        return None

    def contains(self, path: Path) -> bool:
        return self.relative_of(path) is not None

    def read_asset(self, relative: str, limit: int = MAX_ASSET_BYTES) -> bytes:
        """The bytes of a file under the folders, sized before it is read: over ``limit`` is an error."""
        path = self.path_of(relative)
        try:
            size = path.stat().st_size
            if size <= limit:
                with path.open("rb") as f:
                    data = f.read(limit + 1)
                size = len(data)
        except OSError as e:
            raise RenderError(f"{self.label}: cannot read '{relative}': {e.strerror or e}") from None
        if size > limit:
            raise RenderError(f"{self.label}: '{relative}' is {size:,} bytes, over the limit of {limit:,}")
        return data

    def read_css(self, relative: str) -> str:
        """A stylesheet under the folders, as UTF-8 text of at most ``MAX_STYLESHEET_BYTES``."""
        data = self.read_asset(relative, MAX_STYLESHEET_BYTES)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RenderError(f"{self.label}: '{relative}' is not UTF-8 text (bad byte at offset {e.start}); "
                              f"save it as UTF-8") from None

    def data_url(self, relative: str) -> str:
        """A ``data:`` URL of a file under the folder (fonts, images), for standalone HTML."""
        path = self.path_of(relative)
        kind = _TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return f"data:{kind};base64,{base64.b64encode(self.read_asset(relative)).decode('ascii')}"

    def stylesheet(self) -> str:
        """sheet.css, then layouts.css when a folder has it."""
        css = self.read_css(STYLESHEET)
        if any((r / LAYOUTS_STYLESHEET).is_file() for r in self.roots):
            css += "\n" + self.read_css(LAYOUTS_STYLESHEET)
        return css

    def inline_stylesheet(self) -> str:
        """sheet.css then browser.css (if any), every url(...) a data: URL, to sit in a <style> element."""
        css = self.stylesheet()
        if any((r / BROWSER_STYLESHEET).is_file() for r in self.roots):
            css += "\n" + self.read_css(BROWSER_STYLESHEET)
        if "</style" in css.lower():
            raise RenderError(f"{self.label}: a stylesheet contains '</style'")

        def inline(match: re.Match) -> str:
            url = match["url"].strip()
            if url.startswith("data:"):
                return match[0]
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//", url):
                raise RenderError(f"{self.label}: stylesheet url({url}) is not a file in the templates "
                                  f"folder (only relative paths and data: URLs are allowed)")
            return f'url("{self.data_url(url)}")'

        return _CSS_URL.sub(inline, css)
