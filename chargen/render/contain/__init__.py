"""Containment: what keeps a render bounded, local and reproducible, whatever the templates and names.

Templates from ``--template-dir`` and names from the command line are user input. The rendering path
(:mod:`chargen.render.env`, :mod:`~chargen.render.html`, :mod:`~chargen.render.pdf`) calls into these
modules and reads without them:

* :mod:`~chargen.render.contain.sandbox` - the sandboxed Jinja environment and its contained loader;
* :mod:`~chargen.render.contain.bounds` - the budget of one template render (steps, sizes, deadline);
* :mod:`~chargen.render.contain.standalone` - standalone HTML references nothing outside itself;
* :mod:`~chargen.render.contain.names` - names given on the command line, checked before any sheet;
* :mod:`~chargen.render.contain.fit` - a name fitted into the sheet's fixed header box;
* :mod:`~chargen.render.contain.glyphs` - a character no installed font draws, as one error;
* :mod:`~chargen.render.contain.uasheet` - WeasyPrint's user-agent stylesheet cut to what a sheet can match.
"""
