"""HTML to PDF with WeasyPrint: restricted to the templates folder, strict, reproducible.

Importing this module imports WeasyPrint (about a second), so only code that
writes a PDF imports it.

* Fetching: :class:`FolderFetcher` lets WeasyPrint read ``data:`` URLs and
  files under the template folders, and nothing else: no network, no host in
  a ``file:`` URL, no redirects, no ``..`` or symlink out of the folders; it
  opens the files itself (a ``--template-dir`` file, else the built-in one). A refused or missing
  resource stops the render with a :class:`RenderError`.
* Strictness: a warning WeasyPrint would log (an unreadable font or image, a
  CSS rule it ignores) is turned into a :class:`RenderError` as well, so a
  sheet never quietly comes out without its stylesheet or fonts.
* Reproducibility: no dates (the templates write no ``dcterms`` meta) and a
  document identifier derived from the HTML, so the same HTML gives the same bytes.
* Embedded files: :meth:`PdfMaker.render` attaches ``(name, bytes)`` files (a
  sheet carries its character's JSON document), dated :data:`EPOCH` so they
  change no byte from one run to the next.
* Speed: one :class:`PdfMaker` per process keeps WeasyPrint's font
  configuration and the parsed ``sheet.css`` for every sheet it renders.
"""

from __future__ import annotations

import datetime
import hashlib
import io
import logging
import mimetypes
import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote_to_bytes, urlsplit

from chargen.render.contain.deferred import defer, defer_functions

# fontTools.subset (75 ms of a cold start's import) is imported by WeasyPrint's PDF writer but used
# only where libharfbuzz-subset is missing: it is loaded when first used, not with WeasyPrint.
defer("fontTools.subset")
# fontTools.varLib.instancer (with fontTools.varLib: 60-90 ms) is used only to instance a variable font
# with variations set: loaded on that first call.
defer_functions("fontTools.varLib.instancer", ("instantiateVariableFont",))

import weasyprint  # noqa: E402 - after the deferral above
from weasyprint.text.fonts import FontConfiguration  # noqa: E402
from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse  # noqa: E402

from chargen.errors import RenderError
from chargen.render.contain import uasheet
from chargen.render.contain.glyphs import missing_glyph
from chargen.render.templates import STYLESHEET, TemplateSet

# Where libharfbuzz-subset is missing, WeasyPrint subsets fonts with fontTools,
# which stamps each subset font with the current time unless SOURCE_DATE_EPOCH
# is set: fix the stamp so the same sheet always gives the same bytes.
os.environ.setdefault("SOURCE_DATE_EPOCH", "0")
EPOCH = datetime.datetime(1970, 1, 1)  # the creation and modification date of every embedded file


class FolderFetcher(URLFetcher):
    """A WeasyPrint URL fetcher for ``data:`` URLs and files under one folder only."""

    def __init__(self, templates: TemplateSet):
        super().__init__(allowed_protocols={"file", "data"}, allow_redirects=False, fail_on_errors=True)
        self.templates = templates

    def fetch(self, url, headers=None):
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme == "data":
            return super().fetch(url, headers)
        if scheme != "file" or parts.netloc not in ("", "localhost"):
            raise RenderError(f"{self.templates.label}: refusing to fetch '{_short(url)}' "
                              f"(a sheet may use only files in the templates folder and data: URLs)")
        # the path's bytes as the file system has them (a folder name need not be UTF-8)
        relative = self.templates.relative_of(Path(os.fsdecode(unquote_to_bytes(parts.path))))
        if relative is None:
            raise RenderError(f"{self.templates.label}: refusing to read '{_short(url)}': it is outside "
                              f"the templates folder {self.templates.root}")
        path = self.templates.path_of(relative)  # the first folder that has it; raises when missing or outside
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        body = self.templates.read_asset(relative)  # sized before it is read
        return URLFetcherResponse(path.as_uri(), body=body, headers={"Content-Type": kind})


def _short(url: str) -> str:
    return url if len(url) <= 120 else url[:117] + "..."


# Notices about the machine, not the sheet: WeasyPrint subsets fonts with
# fontTools when libharfbuzz-subset is missing (the Makefile installs it).
_ABOUT_THE_MACHINE = ("Using fontTools instead of HarfBuzz-Subset",)


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if not message.startswith(_ABOUT_THE_MACHINE):
            self.messages.append(message)


@contextmanager
def strict(templates: TemplateSet, what: str):
    """Turn WeasyPrint's fetch failures and logged warnings into one :class:`RenderError`."""
    handler = _Collect()
    logger = logging.getLogger("weasyprint")
    logger.addHandler(handler)
    try:
        yield
    except FatalURLFetchingError as e:
        cause = e.__cause__
        raise RenderError(str(cause) if isinstance(cause, RenderError) else f"{what}: {e}: {cause}") from None
    except UnicodeEncodeError as e:  # a lone surrogate, written in the HTML or escaped in CSS (content: "\\00d800")
        raise RenderError(f"{templates.label}: {what}: U+{ord(e.object[e.start]):04X} (a lone surrogate) is not a "
                          "character a sheet can draw") from None
    finally:
        logger.removeHandler(handler)
    if handler.messages:
        for message in handler.messages:  # a character no font has: this sheet alone fails
            glyph = missing_glyph(message, what)
            if glyph is not None:
                raise glyph
        first = " ".join(handler.messages[0].split())
        more = len(handler.messages) - 1
        raise RenderError(f"{templates.label}: {what}: {first}" + (f" (and {more} more)" if more else ""))


@dataclass
class Rendered:
    pdf: bytes
    pages: int


class PdfMaker:
    """Lays out HTML from one templates folder into PDF, reusing fonts and the parsed stylesheet."""

    def __init__(self, templates: TemplateSet, variant: str | None = None):
        self.templates = templates
        self.variant = variant  # "pdf/ua-1": tagged, accessible PDF (WeasyPrint's pdf_variant)
        self.fetcher = FolderFetcher(templates)
        self.font_config = FontConfiguration()
        self.base_url = templates.root.as_uri() + "/"
        self.stylesheet = templates.stylesheet()
        with strict(templates, STYLESHEET):
            self.css = weasyprint.CSS(string=self.stylesheet, base_url=self.base_url,
                                      url_fetcher=self.fetcher, font_config=self.font_config)

    def lay_out(self, html: str, what: str = "sheet"):
        """``html`` laid out in pages (a WeasyPrint document), not yet written."""
        with strict(self.templates, what):
            document = weasyprint.HTML(string=html, base_url=self.base_url, url_fetcher=self.fetcher)
            uasheet.use_for(document, (html, self.stylesheet))  # the user-agent rules that can apply: the same look, faster
            return document.render(font_config=self.font_config, stylesheets=[self.css])

    def render(self, html: str, what: str = "sheet", attachments: tuple[tuple[str, bytes], ...] = (),
               laid=None) -> Rendered:
        """``html`` as PDF (``laid``: its layout by :meth:`lay_out`, when it is laid out already)."""
        digest = hashlib.sha256(html.encode("utf-8"))
        for name, data in attachments:
            digest.update(b"\0%s\0%s" % (name.encode("utf-8"), hashlib.sha256(data).digest()))
        identifier = digest.hexdigest()[:32].encode("ascii")
        document = laid if laid is not None else self.lay_out(html, what)
        with strict(self.templates, what):
            options = {"pdf_variant": self.variant} if self.variant else {}
            pdf = document.write_pdf(pdf_identifier=identifier, **options, attachments=[
                weasyprint.Attachment(file_obj=io.BytesIO(data), name=name, created=EPOCH, modified=EPOCH)
                for name, data in attachments])
        return Rendered(pdf, len(document.pages))
