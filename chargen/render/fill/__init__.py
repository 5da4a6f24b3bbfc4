"""Sheets filled into a laid-out form: a sheet laid out once, each character's values set into its boxes.

WeasyPrint pays per box: a D100 II sheet is ~1,400 boxes and most of its CPU
time. A sheet whose look does not depend on its values (fixed column widths, a
value never wrapping) can be laid out once as a *form* and each character's
values set into the laid-out text boxes, below the layout step: each value's
text is shaped with WeasyPrint's own line splitting, its line aligned again,
and the page drawn as WeasyPrint draws it.

A template marks a value with a ``data-fill`` attribute on the element that
holds it (its content plain text, no markup), a tick track with
``data-fill-count`` (:mod:`chargen.render.fill.shape`). A sheet's *shape* is its
HTML with those values taken out: two sheets of one shape differ only in their
values. :meth:`Form.fill` sets values into a form of the same shape and returns
the filled document, or None when it cannot be done exactly (a *miss*): a value
that would wrap or overflow, take another number of lines, change its line's
height or baseline, sit in a box whose width depends on its content, or
WeasyPrint's internals not as expected. A miss is laid out in full by the
caller: correctness is never traded. The fill writes into WeasyPrint's box
tree, which is not public API: it is validated on the exact WeasyPrint version
pyproject.toml pins (:data:`VALIDATED`), and on any other it always misses.
"""

from chargen.render.fill.form import FORMS, VALIDATED, Form, Forms
from chargen.render.fill.shape import Shape, shape_of

__all__ = ["FORMS", "VALIDATED", "Form", "Forms", "Shape", "shape_of"]
