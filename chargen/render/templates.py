"""Where sheet templates live, and reading files from under that folder only.

A templates folder holds ``base.html.j2`` (the shared layout), one
``<engine>.html.j2`` per rules engine, ``cover.html.j2`` (the party PDF's
cover), ``index.html.j2`` (a bundle's index page), ``sheet.css`` and its
``fonts/``. The built-in folder is the repository's top-level ``templates/``,
installed as the package ``chargen._templates``; ``--template-dir`` replaces it
wholly. Every file a sheet uses is read through :func:`read_asset`, which
refuses anything outside the folder (``..``, absolute paths, symlinks leading out).
"""

from __future__ import annotations

import base64
import mimetypes
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from chargen.errors import RenderError

STYLESHEET = "sheet.css"
BROWSER_STYLESHEET = "browser.css"  # standalone HTML only, after sheet.css
BASE = "base.html.j2"
COVER = "cover.html.j2"
INDEX = "index.html.j2"
# CSS url(...) references, quoted or not; data: URLs are left alone.
_CSS_URL = re.compile(r"""url\(\s*(?P<q>['"]?)(?P<url>[^'")]*)(?P=q)\s*\)""")
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
    """A templates folder, resolved (symlinks followed) so containment checks are exact."""

    root: Path
    builtin: bool

    @classmethod
    def load(cls, folder: Path | None = None) -> TemplateSet:
        if folder is None:
            return cls(builtin_dir().resolve(), True)
        root = Path(folder).resolve()
        if not root.is_dir():
            raise RenderError(f"--template-dir '{folder}' is not a folder")
        if not (root / BASE).is_file():
            raise RenderError(f"--template-dir '{folder}' has no {BASE} (copy the built-in templates "
                              f"folder to start from: {builtin_dir()})")
        return cls(root, False)

    def sheet_template(self, engine: str) -> str:
        name = f"{engine}.html.j2"
        if not (self.root / name).is_file():
            raise RenderError(f"{self.label}: no sheet template for engine '{engine}' (expected {name})")
        return name

    @property
    def label(self) -> str:
        return "built-in templates" if self.builtin else str(self.root)

    def path_of(self, relative: str) -> Path:
        """The file ``relative`` under the folder; an error if it is outside or missing."""
        if not relative or "\x00" in relative or relative.startswith(("/", "\\")) or ":" in relative:
            raise RenderError(f"{self.label}: '{relative}' is not a relative path inside the templates folder")
        path = (self.root / relative).resolve()
        if not path.is_relative_to(self.root):
            raise RenderError(f"{self.label}: '{relative}' is outside the templates folder")
        if not path.is_file():
            raise RenderError(f"{self.label}: '{relative}' does not exist")
        return path

    def contains(self, path: Path) -> bool:
        return Path(path).resolve().is_relative_to(self.root)

    def read_asset(self, relative: str) -> bytes:
        return self.path_of(relative).read_bytes()

    def data_url(self, relative: str) -> str:
        """A ``data:`` URL of a file under the folder (fonts, images), for standalone HTML."""
        path = self.path_of(relative)
        kind = _TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return f"data:{kind};base64,{base64.b64encode(path.read_bytes()).decode('ascii')}"

    def stylesheet(self) -> str:
        return self.read_asset(STYLESHEET).decode("utf-8")

    def inline_stylesheet(self) -> str:
        """sheet.css then browser.css (if any), every url(...) a data: URL, to sit in a <style> element."""
        css = self.stylesheet()
        if (self.root / BROWSER_STYLESHEET).is_file():
            css += "\n" + self.read_asset(BROWSER_STYLESHEET).decode("utf-8")
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
