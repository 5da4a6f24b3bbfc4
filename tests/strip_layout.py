"""A layout added from outside chargen, in one template and one registration: "strip", three d100
characters a page (tests/strip/d100-strip.html.j2). Importing this module registers it (a sheet
worker process imports it again: :func:`chargen.engines.external_modules`)."""

from pathlib import Path

from chargen.engines import Layout, register_layout, unregister_layout

FOLDER = Path(__file__).parent / "strip"


def register() -> Layout:
    return register_layout("d100", Layout("strip", "d100-strip.html.j2", lambda doc, rules: {"roster": []},
                                          fragment=True, per_page=3, chunk=72, folder=FOLDER))


def unregister() -> None:
    unregister_layout("d100", "strip")


STRIP = register()
