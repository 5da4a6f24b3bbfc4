"""Rendering: character documents to HTML and PDF sheets, party PDFs and index pages.

The stages, one module each:

* :mod:`~chargen.render.templates` - the templates folder, and files read only from under it;
* :mod:`~chargen.render.env` - the one Jinja environment (autoescape, strict, sandboxed) and its filters;
* :mod:`~chargen.render.contain` - the containment the path calls into: the sandbox and its bounds,
  standalone-HTML checks, names and name fitting, missing glyphs, the cut user-agent stylesheet;
* :mod:`~chargen.render.html` - sheets, covers and index pages as HTML (standalone or for PDF);
* :mod:`~chargen.render.pdf` - HTML to PDF with WeasyPrint: restricted fetching, strict, reproducible
  (the only module that imports WeasyPrint);
* :mod:`~chargen.render.pdfmerge` - streaming concatenation of PDFs (party.pdf);
* :mod:`~chargen.run.sheets` - the sheet stage: sheet formats (:mod:`chargen.formats`) drawn in parallel
  worker processes, party.pdf and index.html, fed by :func:`chargen.run.pipeline.write_batch` (the only writer of
  the manifest) or by ``chargen render``;
* :mod:`~chargen.run.saved` - saved characters read back and validated for ``chargen render``.
"""
