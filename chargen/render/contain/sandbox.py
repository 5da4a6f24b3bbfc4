"""The sandbox templates run in: templates from a ``--template-dir`` are user input.

:class:`ContainedLoader` reads a template only from under the template folders
(a regular file, inside a folder once symlinks are resolved, of bounded size);
:class:`BoundedEnvironment` is Jinja's sandbox with every loop, call, filter and
amplifying operator counted against the render's budget (:mod:`.bounds`).
:func:`chargen.render.env.build_environment` builds the one environment from them.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator
from jinja2.loaders import split_template_path
from jinja2.sandbox import SandboxedEnvironment

from chargen.errors import RenderError
from chargen.render.contain import bounds
from chargen.render.templates import TemplateSet


class ContainedLoader(jinja2.BaseLoader):
    """Templates from the template folders, first match wins. A file is checked before it is
    read: a regular file, inside a folder once symlinks are resolved, and of at most
    ``bounds.MAX_TEMPLATE_BYTES``."""

    def __init__(self, templates: TemplateSet):
        self._templates = templates

    def get_source(self, environment, template):
        parts = split_template_path(template)  # refuses '..' (TemplateNotFound)
        for root in self._templates.roots:
            path = root.joinpath(*parts)
            if path.is_file():
                return self._read(template, path)
        raise jinja2.TemplateNotFound(template)

    def _read(self, template: str, path: Path):
        label = self._templates.label
        if not self._templates.contains(path):
            raise RenderError(f"{label}: template '{template}' is outside the templates folder")
        size = path.stat().st_size
        if size > bounds.MAX_TEMPLATE_BYTES:
            raise RenderError(f"{label}: template '{template}' is {size:,} bytes, over the limit of "
                              f"{bounds.MAX_TEMPLATE_BYTES:,}")
        with path.open("rb") as f:
            data = f.read(bounds.MAX_TEMPLATE_BYTES + 1)
        if len(data) > bounds.MAX_TEMPLATE_BYTES:
            raise RenderError(f"{label}: template '{template}' is over the limit of {bounds.MAX_TEMPLATE_BYTES:,} bytes")
        try:
            source = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RenderError(f"{label}: template '{template}' is not UTF-8 text (bad byte at offset {e.start})") from None
        mtime = path.stat().st_mtime
        return source, os.fspath(path), lambda: path.is_file() and path.stat().st_mtime == mtime


class _BoundedCode(CodeGenerator):
    """Jinja's code generator, except that every for loop counts its iterations against the
    render's budget and every ``~`` checks the length of what it joins."""

    def visit_For(self, node: nodes.For, frame) -> None:
        node = copy.copy(node)
        node.iter = nodes.Call(nodes.EnvironmentAttribute("bounded_loop"), [node.iter], [], None, None,
                               lineno=node.iter.lineno)
        super().visit_For(node, frame)

    def visit_Concat(self, node: nodes.Concat, frame) -> None:
        self.write("environment.bounded_concat(context.eval_ctx.autoescape, (")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")


class BoundedEnvironment(SandboxedEnvironment):
    """The sandbox, with every loop, call, filter and amplifying operator bounded (see :mod:`bounds`)."""

    code_generator_class = _BoundedCode
    intercepted_binops = frozenset({"*", "**", "+", "%"})

    def call_binop(self, context, operator, left, right):
        return bounds.binop(operator, left, right)

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - the sandbox's signature
        if getattr(__obj, "__func__", None) is BoundedEnvironment.bounded_loop:  # a for loop's iterable (visit_For):
            bounds.step()  # iterated, each item a step, never turned into text: not weighed (a loop over
            return __self.bounded_loop(*args)  # an encounter's blocks weighed every document each time)
        bounds.before_call(__obj, args, kwargs)
        return bounds.built(super().call(__context, __obj, *args, **kwargs))

    def bounded_loop(self, iterable):
        return bounds.bounded_loop(iterable)

    def bounded_concat(self, autoescape: bool, parts: tuple):
        bounds.check_text(*parts)
        joined = jinja2.runtime.markup_join(parts) if autoescape else jinja2.runtime.str_join(parts)
        return bounds.built(joined)


def bound_globals(env: BoundedEnvironment) -> None:
    """Every filter of ``env`` bounded, ``range`` bounded and ``lipsum`` gone."""
    env.filters = {name: bounds.bounded_filter(name, f) for name, f in env.filters.items()}
    del env.globals["lipsum"]  # lorem ipsum of any length: nothing a sheet needs
    env.globals["range"] = bounds.bounded_range


def finalize(value):
    """Each ``{{ value }}`` before it becomes text: a list or dict too long to print is refused."""
    bounds.check_text(value)
    return value
